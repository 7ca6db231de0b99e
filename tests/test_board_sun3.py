"""Sun-3's temporary places (SPEC 3.6): any playable card may be parked on an empty ray."""

from __future__ import annotations

import pytest
from enginekit import board_from_deals, board_from_rays, cards, deal_all, legal_texts, play, up

from sunlog.engine.board import Board, Stage
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError
from sunlog.engine.moves import Move

D1 = "5H AS 9C 2S 4D KH QC 7S AD 3C JD 10H 6C"
TWO_FIVES = "5H 5H AS 9C 2S 4D KH QC 7S AD 3C JD 6C"
ALL_GATHERS = " ".join(f"gather {n}" for n in range(1, 14))


def stage1() -> Board:
    """sun-3 after deal 1 and r2:AS>A: ray 2 is empty."""
    return play(board_from_deals("sun-3", [D1], dealt=1), "r2:AS>A")


def test_outer_card_of_a_ray_parks_on_an_empty_ray() -> None:
    board = play(stage1(), "r5:4D>r2")
    assert board.rays[1] == cards("4D") and board.rays[4] == []


def test_every_playable_card_may_park_on_every_empty_ray() -> None:
    board = play(stage1(), "r1:5H>r2")
    parks = sorted(t for t in legal_texts(board) if ">r" in t)
    outer = [(n, ray[-1]) for n, ray in enumerate(board.rays, 1) if ray]
    assert parks == sorted(f"r{n}:{c}>r1" for n, c in outer)


def test_a_parked_card_is_the_ray_outer_card_and_plays_as_usual() -> None:
    board = play(stage1(), "r9:AD>r2")
    assert "r2:AD>A" in legal_texts(board)
    play(board, "r2:AD>A2")
    assert board.aces_pile(2, 2) == cards("AD") and board.rays[1] == []


def test_the_next_deal_covers_a_parked_card() -> None:
    board = play(stage1(), "r1:5H>r2 deal")
    assert board.rays[1] == [cards("5H")[0], board.deck[14]]  # type: ignore[index]
    assert board.rays[0] == [board.deck[13]]  # type: ignore[index]


def test_a_ray_only_card_may_move_to_another_empty_ray() -> None:
    board = play(stage1(), "r1:5H>r2")
    assert board.rays[0] == [] and board.rays[1] == cards("5H")
    play(board, "r2:5H>r1")
    assert board.rays[0] == cards("5H") and board.rays[1] == []


def test_parking_on_a_ray_that_is_not_empty_is_refused() -> None:
    board = stage1()
    with pytest.raises(
        IllegalMoveError,
        match="ray 3 is not empty \\(its outer card is 9C\\): a card may be parked only on an "
        "empty ray",
    ):
        board.push_text("r1:5H>r3")
    with pytest.raises(IllegalMoveError, match="there is no ray 14"):
        board.push_text("r1:5H>r14")


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_parking_is_refused_outside_sun_3(variant: str) -> None:
    board = play(board_from_deals(variant, [D1], dealt=1), "r2:AS>A")
    assert not any(">r" in t for t in legal_texts(board))
    with pytest.raises(
        IllegalMoveError,
        match=f"cards go onto rays only in sun-3 \\(temporary places\\); this game is {variant}",
    ):
        board.push_text("r1:5H>r2")


def test_an_open_ray_card_parks_from_the_middle() -> None:
    board = board_from_rays("sun-3", {1: up("S", "A", "8"), 2: "9S 5D 9S KD KC KC 2C JH"})
    for card in up("S", "A", "8"):
        play(board, f"deal r1:{card}>A")
    play(board, "open 2 r2.5:KD>r1")
    assert board.rays[0] == cards("KD")
    assert board.rays[1] == cards("9S 5D 9S KC KC 2C JH")


def test_a_cloud_end_parks_on_an_empty_ray() -> None:
    board = play(deal_all(Board("sun-3", deal=42)), ALL_GATHERS)
    cloud = list(board.clouds[0])
    play(board, "c1.R>r5 c1.L>r9")
    assert board.rays[4] == [cloud[-1]] and board.rays[8] == [cloud[0]]
    assert board.clouds[0] == cloud[1:-1]


def test_a_wind_end_parks_on_an_empty_ray() -> None:
    board = play(deal_all(Board("sun-3", deal=42)), ALL_GATHERS + " wind")
    assert board.stage is Stage.WIND
    row = list(board.wind_row or [])
    play(board, "w.L>r13 w.R>r1")
    assert board.rays[12] == [row[0]] and board.rays[0] == [row[-1]]
    assert board.wind_row == row[1:-1]


def test_a_card_parked_on_a_gathered_ray_stays_there_through_later_gathers() -> None:
    board = play(deal_all(Board("sun-3", deal=42)), "gather 1 gather 2")
    moved = board.clouds[0][-1] if board.clouds else board.rays[12][-1]
    source = "c1.R" if board.clouds else "r13"
    play(board, f"{source}>r1")
    assert board.rays[0] == [moved]
    play(board, " ".join(f"gather {n}" for n in range(3, 14)))
    assert board.rays[0] == [moved]


def test_the_short_form_to_a_ray_is_ambiguous_when_copies_differ() -> None:
    board = play(board_from_deals("sun-3", [TWO_FIVES], dealt=1), "r3:AS>A")
    with pytest.raises(AmbiguousMoveError, match="can be read 2 ways") as info:
        board.push_text("5H>r3")
    assert set(info.value.candidates) == {"r1:5H>r3", "r2:5H>r3"}
    for text in info.value.candidates:
        trial = board.copy()
        trial.push_text(text)
        assert trial.rays[2] == cards("5H")


def test_a_bare_card_to_a_ray_is_fine_with_one_copy() -> None:
    board = play(board_from_deals("sun-3", [TWO_FIVES], dealt=1), "r3:AS>A")
    play(board, "9C>r3")
    assert board.rays[2] == cards("9C") and board.rays[3] == []


def test_a_ray_source_without_card_parks_its_outer_card() -> None:
    board = play(board_from_deals("sun-3", [TWO_FIVES], dealt=1), "r3:AS>A r4>r3")
    assert board.rays[2] == cards("9C")


def test_a_card_move_without_a_target_is_refused_not_put_on_a_pile() -> None:
    # Built by hand (the notation always names a target): sun-3 once put it on the
    # second aces pile.
    board = board_from_deals("sun-3", [D1], dealt=1)
    move = Move.parse("r2:AS>A")._replace(target=None)
    with pytest.raises(IllegalMoveError, match="must name where its card goes"):
        board.push(move)
    assert not any(board.foundations) and board.rays[1] == cards("AS")
