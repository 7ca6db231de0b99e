"""Stage 2, "The sun plays" (SPEC 3.3): opening rays left to right, any card of the open ray."""

from __future__ import annotations

import pytest
from enginekit import SPEC_MOVES, board_from_rays, cards, legal_texts, play, up

from sunlog.engine.board import Board, Stage
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError
from sunlog.engine.moves import Move

# Ray 1 is emptied as it is dealt (AS..8S go to the spades aces pile), so 9S fits.
# Ray 2, inner to outer: two 9S apart, KD, two KC side by side, then 2C JH.
RAY2 = "9S 5D 9S KD KC KC 2C JH"
RAY3 = "4C 4C 7D 10S 3H 6H 9D 8C"


def after_deals(variant: str = "sun") -> Board:
    """All 8 deals made; ray 1 empty; spades aces pile A..8."""
    board = board_from_rays(variant, {1: up("S", "A", "8"), 2: RAY2, 3: RAY3})
    for card in up("S", "A", "8"):
        play(board, f"deal r1:{card}>A")
    assert board.rays[0] == [] and board.rays[1] == cards(RAY2) and board.rays[2] == cards(RAY3)
    return board


STAGE2 = ["sun", "sun-3"]


@pytest.mark.parametrize("variant", STAGE2)
def test_open_makes_the_ray_open_and_starts_stage_2(variant: str) -> None:
    board = play(after_deals(variant), "open 2")
    assert board.open_ray == 2 and board.opened == 2
    assert board.stage is Stage.SUN_PLAYS and board.to_json()["stage"] == 2
    assert board.to_json()["open_ray"] == 2


@pytest.mark.parametrize("variant", STAGE2)
def test_any_card_of_the_open_ray_is_playable(variant: str) -> None:
    board = after_deals(variant)
    assert not any(t.startswith("r2") and "9S" in t for t in legal_texts(board))
    play(board, "open 2")
    texts = legal_texts(board)
    assert "r2:9S>A" in texts and "r2.8:9S>A" in texts


@pytest.mark.parametrize("variant", STAGE2)
def test_taking_a_card_from_the_middle_closes_the_gap(variant: str) -> None:
    board = play(after_deals(variant), "open 2 r2.8:9S>A")
    assert board.rays[1] == cards("5D 9S KD KC KC 2C JH")
    assert board.aces_pile(0)[-1] == cards("9S")[0]


@pytest.mark.parametrize("variant", STAGE2)
def test_ray_card_names_the_outermost_copy_in_the_open_ray(variant: str) -> None:
    board = play(after_deals(variant), "open 2 r2:9S>A")
    assert board.rays[1] == cards("9S 5D KD KC KC 2C JH")


@pytest.mark.parametrize("variant", STAGE2)
def test_ray_depth_counts_from_the_outer_end(variant: str) -> None:
    board = play(after_deals(variant), "open 2")
    with pytest.raises(IllegalMoveError, match="card 3 of ray 2 is KC, not 9S"):
        board.push_text("r2.3:9S>A")
    with pytest.raises(IllegalMoveError, match="ray 2 holds 8 cards, so it has no card 9"):
        board.push_text("r2.9:9S>A")
    play(board, "r2.6:9S>A")
    assert board.rays[1] == cards("9S 5D KD KC KC 2C JH")


@pytest.mark.parametrize("variant", STAGE2)
def test_open_ray_without_the_card_is_refused(variant: str) -> None:
    board = play(after_deals(variant), "open 2")
    with pytest.raises(IllegalMoveError, match="ray 2, the open ray, holds no 7H"):
        board.push_text("r2:7H>A")


@pytest.mark.parametrize("variant", STAGE2)
def test_two_copies_apart_in_the_open_ray_make_a_bare_card_ambiguous(variant: str) -> None:
    board = play(after_deals(variant), "open 2")
    for text in ("9S>A", "r2>A"):
        with pytest.raises(AmbiguousMoveError, match="can be read 2 ways") as info:
            board.push_text(text)
        assert set(info.value.candidates) == {"r2:9S>A", "r2.8:9S>A"}  # canonical forms
    assert board.move_count == 17  # 8 deals, 8 spades, open 2: nothing was pushed


def test_equal_cards_side_by_side_in_the_open_ray_give_one_move() -> None:
    board = play(after_deals("sun"), "open 2")
    kc = [t for t in legal_texts(board) if "KC" in t]
    assert kc == ["r2:KC>K"]
    play(board, "KC>K")  # either copy: same position, so not ambiguous
    assert board.rays[1] == cards("9S 5D 9S KD KC 2C JH")
    play(board, "r2:KD>K")
    assert board.rays[1] == cards("9S 5D 9S KC 2C JH")


def test_equal_cards_side_by_side_park_once_in_sun_3() -> None:
    board = play(after_deals("sun-3"), "open 2")
    kc = [t for t in legal_texts(board) if "KC" in t]
    assert kc == ["r2:KC>r1"]


@pytest.mark.parametrize("variant", STAGE2)
def test_other_rays_keep_only_their_outer_card_playable(variant: str) -> None:
    board = play(after_deals(variant), "open 2")
    with pytest.raises(
        IllegalMoveError,
        match="only the outer card of ray 3 \\(8C\\) is playable: the open ray is ray 2",
    ):
        board.push_text("r3.6:10S>A")
    with pytest.raises(IllegalMoveError, match="ray 3's outer card is 8C, not 10S"):
        board.push_text("r3:10S>A")


@pytest.mark.parametrize("variant", STAGE2)
def test_rays_are_opened_left_to_right(variant: str) -> None:
    board = play(after_deals(variant), "open 2")
    with pytest.raises(IllegalMoveError) as same:
        board.push_text("open 2")
    assert str(same.value) == (
        "open 2: ray 2 is open already, and rays are opened left to right: open a ray from 3 to 13"
    )
    with pytest.raises(IllegalMoveError, match=r"^open 1: ray 1 was passed over when ray 2"):
        board.push_text("open 1")
    opens = [t for t in legal_texts(board) if t.startswith("open")]
    assert opens == [f"open {n}" for n in range(3, 14)]
    board.push_text("open 13")
    with pytest.raises(IllegalMoveError) as earlier:
        board.push_text("open 2")
    assert str(earlier.value) == (
        "open 2: ray 2 was opened before ray 13, and rays are opened left to right: "
        "no ray is left to open"
    )


@pytest.mark.parametrize("variant", STAGE2)
def test_rays_passed_over_count_as_considered(variant: str) -> None:
    board = play(after_deals(variant), "open 5")
    for n in (2, 3, 4):
        with pytest.raises(
            IllegalMoveError,
            match=f"^open {n}: ray {n} was passed over when ray 5 was opened, and rays are "
            "opened left to right: open a ray from 6 to 13$",
        ):
            board.push_text(f"open {n}")


@pytest.mark.parametrize("variant", STAGE2)
def test_an_earlier_ray_is_ordinary_again_after_a_later_open(variant: str) -> None:
    board = play(after_deals(variant), "open 2 open 3")
    assert board.open_ray == 3
    assert "r2.8:9S>A" not in legal_texts(board)
    with pytest.raises(
        IllegalMoveError, match="only the outer card of ray 2 \\(JH\\) is playable: the open ray"
    ):
        board.push_text("r2.8:9S>A")
    with pytest.raises(IllegalMoveError, match="ray 2's outer card is JH, not 9S"):
        board.push_text("r2:9S>A")


@pytest.mark.parametrize("variant", STAGE2)
def test_opening_an_empty_ray_changes_only_the_open_ray(variant: str) -> None:
    board = after_deals(variant)
    before = board.to_json()
    assert "open 1" in legal_texts(board)
    play(board, "open 1")
    after = board.to_json()
    assert after["open_ray"] == 1 and after["stage"] == 2
    changed = {k for k in before if before[k] != after[k]}
    # (and what the position object says of them: the last ray opened, the string)
    assert changed == {"open_ray", "stage", "move_count", "opened", "position"}


@pytest.mark.parametrize("variant", STAGE2)
def test_opening_is_optional_gather_follows_stage_1_directly(variant: str) -> None:
    board = play(after_deals(variant), "gather 1 gather 2")
    assert board.stage is Stage.SUNSET and board.open_ray is None


def test_sun_2_has_no_stage_2() -> None:
    board = after_deals("sun-2")
    assert not any(t.startswith("open") for t in legal_texts(board))
    with pytest.raises(IllegalMoveError, match="sun-2 has no stage 2: no ray can be opened"):
        board.push_text("open 2")


@pytest.mark.parametrize("variant", STAGE2)
def test_no_open_after_the_first_gather(variant: str) -> None:
    board = play(after_deals(variant), "open 2 gather 1")
    assert board.open_ray is None and board.stage is Stage.SUNSET
    assert not any(t.startswith("open") for t in legal_texts(board))
    with pytest.raises(IllegalMoveError, match="once stage 3 \\(gathering\\) has begun"):
        board.push_text("open 3")
    with pytest.raises(IllegalMoveError, match="only the outer card of ray 2"):
        board.push_text("r2.8:9S>A")


@pytest.mark.parametrize("variant", STAGE2)
def test_open_a_ray_that_does_not_exist(variant: str) -> None:
    board = after_deals(variant)
    with pytest.raises(IllegalMoveError, match="there is no ray 14"):
        board.push_text("open 14")


@pytest.mark.parametrize("variant", STAGE2)
def test_pop_after_open_restores_stage_1(variant: str) -> None:
    board = after_deals(variant)
    before = board.key()
    play(board, "open 2 open 4")
    board.pop()
    assert board.open_ray == 2
    board.pop()
    assert board.key() == before and board.open_ray is None and board.stage is Stage.SUNRISE


def test_open_ray_source_without_card_reads_every_card_and_takes_the_one_that_fits() -> None:
    board = play(after_deals("sun"), "open 2 r2:KC>K")
    play(board, "r2>K")  # KD fits its empty kings pile; KC does not fit KC
    assert board.rays[1] == cards("9S 5D 9S KC 2C JH")
    assert board.kings_pile(2) == cards("KD")


def test_the_spec_example_replays_to_stage_2() -> None:
    board = play(
        Board("sun", deal=20261129),
        " ".join(SPEC_MOVES),
    )
    assert board.move_count == 41 and board.deals == 8
    assert board.stage is Stage.SUN_PLAYS and board.open_ray == 2
    assert board.on_foundations() == 31


def test_canonical_depth_only_where_a_copy_lies_further_out() -> None:
    board = play(after_deals("sun"), "open 2")
    assert str(board.canonical(Move.parse("r2.6:9S>A"))) == "r2:9S>A"
    assert str(board.canonical(Move.parse("r2.8:9S>A"))) == "r2.8:9S>A"
    assert str(board.canonical(Move.parse("r2.5:KD>K"))) == "r2:KD>K"
    # the inner KC of the pair: taking it or the outer one leaves the same ray
    assert str(board.canonical(Move.parse("r2.4:KC>K"))) == "r2:KC>K"
    assert str(board.canonical(Move.parse("r2.3:KC>K"))) == "r2:KC>K"
