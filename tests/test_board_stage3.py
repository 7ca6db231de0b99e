"""Stage 3, "Sunset" (SPEC 3.4): gathering rays in order, dealing them out, making clouds."""

from __future__ import annotations

import re

import pytest
from enginekit import SUNSET_RAYS, board_from_rays, cards, deal_all, legal_texts, play, sunset, up

from sunlog.engine.board import Board, Stage
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError
from sunlog.engine.moves import Move

RAY9 = cards(SUNSET_RAYS[9])


def test_sunset_setup_empties_rays_1_to_8() -> None:
    board = sunset()
    assert all(not board.rays[n] for n in range(8)) and board.on_foundations() == 64
    for n in range(9, 14):
        assert board.rays[n - 1] == cards(SUNSET_RAYS[n])


VARIANTS = ["sun", "sun-2"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_gather_is_listed_for_every_empty_ray_up_to_the_first_full_one(variant: str) -> None:
    board = sunset(variant)
    gathers = [t for t in legal_texts(board) if t.startswith("gather")]
    assert gathers == [f"gather {n}" for n in range(1, 10)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_gather_deals_inner_card_first_onto_the_rays_to_the_right(variant: str) -> None:
    board = sunset(variant)
    before = [list(r) for r in board.rays]
    play(board, "gather 9")
    assert board.rays[8] == []
    for i, n in enumerate(range(10, 14)):
        assert board.rays[n - 1] == [*before[n - 1], RAY9[i]]
    assert board.rays[:8] == before[:8]
    assert board.stage is Stage.SUNSET and board.gathered == 9


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_gather_deals_onto_empty_rays_too(variant: str) -> None:
    # ray 2 is emptied as it is dealt (AS..8S onto the aces pile); ray 1 holds 2H..9H
    board = board_from_rays(variant, {1: up("H", "2", "9"), 2: up("S", "A", "8")})
    for card in up("S", "A", "8"):
        play(board, f"deal r2:{card}>A")
    assert board.rays[1] == []
    before = [list(r) for r in board.rays]
    play(board, "gather 1")
    assert board.rays[1] == cards("2H")
    for n, card in zip(range(3, 10), up("H", "3", "9"), strict=True):
        assert board.rays[n - 1] == [*before[n - 1], cards(card)[0]]
    assert board.rays[9:] == before[9:] and board.clouds == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_leftover_cards_make_a_cloud_left_end_first_leftover_right_end_former_outer(
    variant: str,
) -> None:
    board = play(sunset(variant), "gather 9")
    assert board.clouds == [RAY9[4:]]
    assert board.clouds[0][0] == RAY9[4] and board.clouds[0][-1] == RAY9[-1]
    assert board.to_json()["clouds"] == [["5D", "10S", "9S", "5H"]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_empty_rays_passed_over_count_as_gathered(variant: str) -> None:
    board = play(sunset(variant), "gather 9")
    for n in (1, 8, 9):
        with pytest.raises(
            IllegalMoveError, match=f"gather {n}: ray {n} has already been gathered or passed over"
        ):
            board.push_text(f"gather {n}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_rays_are_gathered_in_order(variant: str) -> None:
    board = sunset(variant)
    with pytest.raises(
        IllegalMoveError, match="gather 10: ray 9 has not been gathered \\(gather 9 first\\)"
    ):
        board.push_text("gather 10")
    play(board, "gather 9")
    with pytest.raises(IllegalMoveError, match="gather 12: ray 10 has not been gathered"):
        board.push_text("gather 12")
    play(board, "gather 10 gather 11")
    assert board.gathered == 11


def test_gather_4_refused_while_ray_3_is_full() -> None:
    board = deal_all(Board("sun", deal=42))
    play(board, "gather 1 gather 2")
    with pytest.raises(IllegalMoveError, match="gather 4: ray 3 has not been gathered"):
        board.push_text("gather 4")


@pytest.mark.parametrize("variant", VARIANTS)
def test_gathering_an_empty_ray_deals_nothing_and_makes_no_cloud(variant: str) -> None:
    board = sunset(variant)
    rays = [list(r) for r in board.rays]
    assert "gather 3" in legal_texts(board)
    play(board, "gather 3")
    assert board.rays == rays and board.clouds == []
    assert board.gathered == 3 and board.stage is Stage.SUNSET
    assert board.to_json()["stage"] == 3
    with pytest.raises(IllegalMoveError, match="ray 2 has already been gathered or passed over"):
        board.push_text("gather 2")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_ray_no_longer_than_the_rays_to_its_right_makes_no_cloud(variant: str) -> None:
    board = play(sunset(variant), "r9:5H>K r9:9S>A r9:10S>A r9:5D>K")
    assert board.rays[8] == cards("2C 3D 4H 5S")
    play(board, "gather 9")
    assert board.clouds == []
    assert [r[-1] for r in board.rays[9:]] == cards("2C 3D 4H 5S")


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_card_more_than_the_rays_to_its_right_makes_a_one_card_cloud(variant: str) -> None:
    board = play(sunset(variant), "r9:5H>K r9:9S>A r9:10S>A")
    play(board, "gather 9")
    assert board.clouds == [cards("5D")]


@pytest.mark.parametrize("variant", VARIANTS)
def test_ray_13_always_makes_a_cloud_of_its_cards_in_order(variant: str) -> None:
    board = play(sunset(variant), "gather 9 gather 10 gather 11 gather 12")
    ray13 = list(board.rays[12])
    play(board, "gather 13")
    assert board.clouds[-1] == ray13
    assert all(not r for r in board.rays)
    assert len(board.clouds) == 5  # every ray 9..13 was longer than the room to its right


@pytest.mark.parametrize("variant", VARIANTS)
def test_both_ends_of_a_cloud_are_playable_the_middle_is_not(variant: str) -> None:
    board = play(sunset(variant), "gather 9")
    texts = legal_texts(board)
    assert "c1:5D>K" in texts and "c1:5H>K" in texts
    with pytest.raises(IllegalMoveError, match="cloud 1's ends are 5D and 5H, not 10S"):
        board.push_text("c1:10S>A")
    play(board, "c1:5D>K")
    assert board.clouds[0] == cards("10S 9S 5H")
    play(board, "c1:5H>K c1:9S>A")
    assert board.clouds[0] == cards("10S")
    play(board, "c1>A")
    assert board.clouds == [[]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_cloud_sources_with_and_without_ends(variant: str) -> None:
    board = play(sunset(variant), "gather 9")
    with pytest.raises(AmbiguousMoveError, match=re.escape("write c1:5D>K or c1:5H>K")):
        board.push_text("c1>K")
    with pytest.raises(IllegalMoveError, match="the right end of cloud 1 is 5H, not 5D"):
        board.push_text("c1.R:5D>K")
    with pytest.raises(IllegalMoveError, match="there is no cloud 2: there are 1"):
        board.push_text("c2>K")
    for text, left in (("c1.L>K", "10S 9S 5H"), ("c1.R>K", "5D 10S 9S"), ("c1.L:5D>K", None)):
        trial = board.copy()
        trial.push_text(text)
        if left is not None:
            assert trial.clouds[0] == cards(left)
    assert str(board.canonical(Move.parse("c1.R:5H>K"))) == "c1:5H>K"


def test_no_cloud_before_stage_3() -> None:
    board = sunset()
    with pytest.raises(IllegalMoveError, match="there is no cloud 1: none has been made"):
        board.push_text("c1>A")


def test_an_emptied_cloud_is_kept_and_says_so() -> None:
    board = play(sunset(), "r9:5H>K r9:9S>A gather 9 c1:5D>K c1:10S>A")
    assert board.clouds == [[]]
    with pytest.raises(IllegalMoveError, match="cloud 1 is empty"):
        board.push_text("c1>A")
    play(board, "gather 10")
    assert board.clouds[0] == [] and len(board.clouds) == 2
    assert board.to_json()["clouds"][0] == []


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
@pytest.mark.parametrize("deal", [0, 42, 20261129])
def test_gathering_every_ray_in_turn_follows_the_rule(variant: str, deal: int) -> None:
    board = deal_all(Board(variant, deal=deal))
    for n in range(1, 14):
        before = [list(r) for r in board.rays]
        clouds = [list(c) for c in board.clouds]
        play(board, f"gather {n}")
        gathered = before[n - 1]
        room = 13 - n
        expected = [list(r) for r in before]
        expected[n - 1] = []
        for i, card in enumerate(gathered[:room]):
            expected[n + i].append(card)
        assert board.rays == expected
        new_cloud = [gathered[room:]] if len(gathered) > room else []
        assert board.clouds == clouds + new_cloud
    assert all(not r for r in board.rays)
    assert sum(map(len, board.clouds)) == 104


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_pop_after_gather_restores_rays_clouds_and_stage(variant: str) -> None:
    board = play(deal_all(Board(variant, deal=7)), "gather 1")
    board.push_text("gather 2")
    before = (board.key(), board.to_json())
    play(board, "gather 3 gather 4 gather 5 gather 6 gather 7 gather 8")
    for _ in range(6):
        board.pop()
    assert (board.key(), board.to_json()) == before
    board.pop()
    board.pop()
    assert board.stage is Stage.SUNRISE and board.clouds == [] and board.gathered == 0


def test_open_ray_closes_at_the_first_gather() -> None:
    board = play(sunset(), "open 11 gather 9")
    assert board.open_ray is None
    with pytest.raises(IllegalMoveError, match="only the outer card of ray 11"):
        board.push_text("r11.8:JH>A")


def test_gather_of_a_ray_that_does_not_exist() -> None:
    board = sunset()
    with pytest.raises(IllegalMoveError, match="there is no ray 14"):
        board.push_text("gather 14")
    with pytest.raises(IllegalMoveError, match="there is no ray 0"):
        board.push_text("gather 0")
