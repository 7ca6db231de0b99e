"""The wind (SPEC 3.5): once, after every ray is gathered or empty; its row, its ends."""

from __future__ import annotations

import re

import pytest
from enginekit import (
    board_from_deals,
    cards,
    collected,
    deal_all,
    legal_texts,
    play,
    sunset,
    up,
)

from sunlog.engine.board import Board, Stage
from sunlog.engine.deal import wind_row
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError
from sunlog.engine.moves import Move

ALL_GATHERS = " ".join(f"gather {n}" for n in range(1, 14))


def gathered(variant: str, deal: int) -> Board:
    """A board of ``deal`` after 8 deals and gathers 1..13, nothing played."""
    return play(deal_all(Board(variant, deal=deal)), ALL_GATHERS)


def kings_of_hearts_cloud() -> Board:
    """sun-3: every card on the foundations but the two KH, left as ray 13's only cards."""
    suits = "SSHHDDCC"
    board = board_from_deals("sun-3", [up(s) for s in suits])
    for suit in suits:
        last = 12 if suit == "H" else 13
        play(board, "deal " + " ".join(f"r{i}:{c}>A" for i, c in enumerate(up(suit)[:last], 1)))
    assert board.rays[12] == cards("KH KH") and board.on_foundations() == 102
    return board


# ------------------------------------------------------------------- when


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_wind_comes_only_after_every_ray_is_gathered_or_empty(variant: str) -> None:
    board = deal_all(Board(variant, deal=42))
    assert "wind" not in legal_texts(board)
    with pytest.raises(
        IllegalMoveError,
        match="the wind comes after every ray is gathered or empty: ray 1 has not been gathered",
    ):
        board.push_text("wind")
    play(board, " ".join(f"gather {n}" for n in range(1, 13)))
    with pytest.raises(IllegalMoveError, match="ray 13 has not been gathered \\(gather 13 next\\)"):
        board.push_text("wind")
    play(board, "gather 13")
    assert legal_texts(board)[-1] == "wind"
    play(board, "wind")
    assert board.stage is Stage.WIND


def test_empty_rays_not_gathered_do_not_hold_the_wind_back() -> None:
    board = play(sunset(), "gather 9 gather 10 gather 11 gather 12 gather 13")
    assert board.gathered == 13
    board = play(sunset(), "gather 9")
    play(board, "gather 10 gather 11 gather 12 gather 13")
    row = collected(board)
    play(board, "wind " + " ".join(map(str, row)))
    assert board.wind_row == row


def test_wind_needs_all_8_deals() -> None:
    board = board_from_deals("sun", [up("S")], dealt=1)
    play(board, " ".join(f"r{i}:{c}>A" for i, c in enumerate(up("S"), 1)))
    assert all(not r for r in board.rays)
    assert not any(t.startswith("wind") for t in legal_texts(board))
    with pytest.raises(
        IllegalMoveError, match="the wind is possible only after the 8th deal \\(1 made, 7 to go\\)"
    ):
        play(board, "wind " + " ".join(map(str, board.stock or [])))


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_wind_blows_once_and_ends_deals_opens_and_gathers(variant: str) -> None:
    board = play(gathered(variant, 1), "wind")
    with pytest.raises(IllegalMoveError, match="the wind blows only once, and it has blown"):
        board.push_text("wind")
    with pytest.raises(IllegalMoveError, match="all 8 deals have been made"):
        board.push_text("deal")
    with pytest.raises(IllegalMoveError, match="no ray can be gathered after the wind"):
        board.push_text("gather 13")
    expected = (
        "sun-2 has no stage 2" if variant == "sun-2" else "no ray can be opened after the wind"
    )
    with pytest.raises(IllegalMoveError, match=expected):
        board.push_text("open 13")
    assert not any(m.is_stage_action for m in board.legal_moves())


# -------------------------------------------------------------------- the row


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
@pytest.mark.parametrize("deal", [0, 42, 20261129])
def test_bare_wind_row_is_the_generator_row_of_the_collected_cards(variant: str, deal: int) -> None:
    board = gathered(variant, deal)
    row = wind_row(deal, collected(board))
    play(board, "wind")
    assert board.wind_row == row
    assert sorted(row) == sorted(board.deck or [])


def test_wind_collects_clouds_in_order_then_rays_1_to_13() -> None:
    # sun-3: park two cloud ends on rays 3 and then 1; the wind takes ray 1 before ray 3
    board = gathered("sun-3", 42)
    first, second = board.clouds[0][0], board.clouds[1][-1]
    play(board, "c1.L>r3 c2.R>r1")
    assert board.rays[0] == [second] and board.rays[2] == [first]
    clouds = [c for cloud in board.clouds for c in cloud]
    by_ray = [*clouds, second, first]
    by_parking = [*clouds, first, second]
    assert by_ray == collected(board) == board.collected()
    play(board, "wind")
    assert board.wind_row == wind_row(42, by_ray)
    if first != second:
        assert board.wind_row != wind_row(42, by_parking)


def test_wind_keeps_the_clouds_as_empty_lists_and_empties_the_rays() -> None:
    board = gathered("sun-3", 42)
    clouds = len(board.clouds)
    play(board, "c1.L>r3 wind")
    assert board.clouds == [[] for _ in range(clouds)]
    assert all(not r for r in board.rays)
    data = board.to_json()
    assert data["clouds"] == [[] for _ in range(clouds)]
    assert data["stage"] == "wind" and data["rays"] == [[] for _ in range(13)]
    assert data["wind_row"] == [str(c) for c in board.wind_row or []]
    assert len(data["wind_row"]) == 104


def test_a_named_row_may_order_the_collected_cards_freely() -> None:
    board = gathered("sun", 42)
    row = list(reversed(collected(board)))
    play(board, "wind " + " ".join(map(str, row)))
    assert board.wind_row == row


def test_named_row_must_hold_exactly_the_collected_cards() -> None:
    board = play(sunset(), "gather 9 gather 10 gather 11 gather 12 gather 13")
    row = collected(board)
    assert len(row) == 40
    last = row[-1]
    swapped = [*row[:-1], cards("7C")[0]]  # 7C lies on a foundation: not collected
    with pytest.raises(
        IllegalMoveError,
        match=f"the wind row must hold exactly the 40 collected cards; missing {last}; "
        "not collected 7C",
    ):
        play(board, "wind " + " ".join(map(str, swapped)))
    with pytest.raises(IllegalMoveError, match=f"missing {last}$"):
        play(board, "wind " + " ".join(map(str, row[:-1])))
    with pytest.raises(IllegalMoveError, match=f"not collected {last}$"):
        play(board, "wind " + " ".join(map(str, [*row, last])))
    assert board.stage is Stage.SUNSET


def test_bare_wind_without_a_deal_number_is_refused_and_not_listed() -> None:
    board = play(sunset(), "gather 9 gather 10 gather 11 gather 12 gather 13")
    assert not any(t.startswith("wind") for t in legal_texts(board))
    with pytest.raises(
        IllegalMoveError,
        match="no Deal tag, so the wind row must be named: wind followed by the 40 cards",
    ):
        board.push_text("wind")


def test_canonical_wind_is_bare_only_when_it_is_the_derived_row() -> None:
    board = gathered("sun", 42)
    derived = wind_row(42, collected(board))
    named = Move.parse("wind " + " ".join(map(str, derived)))
    assert str(board.canonical(named)) == "wind"
    other = Move.parse("wind " + " ".join(map(str, reversed(derived))))
    assert board.canonical(other) == other


def test_pop_after_wind_restores_clouds_and_rays() -> None:
    board = gathered("sun-3", 5)
    play(board, "c2.L>r7")
    before = (board.key(), board.to_json())
    play(board, "wind")
    board.pop()
    assert (board.key(), board.to_json()) == before
    assert board.wind_row is None and board.stage is Stage.SUNSET


# ------------------------------------------------------------------- the ends


def test_both_ends_of_the_wind_row_are_playable() -> None:
    board = gathered("sun", 3)
    rest = collected(board)
    for card in cards("AH KS"):
        rest.remove(card)
    play(board, "wind AH " + " ".join(map(str, rest)) + " KS")
    texts = legal_texts(board)
    assert "w:AH>A" in texts and "w:KS>K" in texts
    with pytest.raises(IllegalMoveError, match="the wind row's ends are AH and KS, not 5C"):
        board.push_text("w:5C>A")
    with pytest.raises(IllegalMoveError, match="the left end of the wind row is AH, not KS"):
        board.push_text("w.L:KS>K")
    play(board, "w:KS>K w.L>A")
    assert board.wind_row == rest


def test_equal_wind_ends_need_a_position_in_the_move() -> None:
    board = gathered("sun", 3)
    rest = collected(board)
    for card in cards("AH AH"):
        rest.remove(card)
    play(board, "wind AH " + " ".join(map(str, rest)) + " AH")
    texts = legal_texts(board)
    assert "w.L:AH>A" in texts and "w.R:AH>A" in texts and "w:AH>A" not in texts
    with pytest.raises(AmbiguousMoveError, match=re.escape("write w.L:AH>A or w.R:AH>A")):
        board.push_text("w:AH>A")
    with pytest.raises(AmbiguousMoveError):
        board.push_text("AH>A")
    play(board, "w.R:AH>A")
    assert board.wind_row is not None and board.wind_row[0] == cards("AH")[0]


def test_no_wind_row_before_the_wind() -> None:
    board = gathered("sun", 3)
    with pytest.raises(IllegalMoveError, match="there is no wind row: the wind has not blown"):
        board.push_text("w>A")


def test_a_cloud_of_copies_of_one_card_gives_one_move_per_pile() -> None:
    board = play(kings_of_hearts_cloud(), ALL_GATHERS)
    assert board.clouds == [cards("KH KH")]
    parks = [f"c1:KH>r{n}" for n in range(1, 14)]  # every ray is empty
    assert [t for t in legal_texts(board) if t.startswith("c")] == ["c1:KH>A", "c1:KH>A2", *parks]
    trial = board.copy()
    trial.push_text("c1:KH>A")  # either end: the same position, so not ambiguous
    assert trial.clouds == [cards("KH")]


def test_a_wind_row_of_copies_of_one_card_gives_one_move_per_pile() -> None:
    board = play(kings_of_hearts_cloud(), ALL_GATHERS + " wind KH KH")
    parks = [f"w:KH>r{n}" for n in range(1, 14)]
    assert [t for t in legal_texts(board) if t.startswith("w")] == ["w:KH>A", "w:KH>A2", *parks]
    play(board, "w:KH>A2 w:KH>A")
    assert board.wind_row == [] and board.on_foundations() == 104
    with pytest.raises(IllegalMoveError, match="the game is won: no move is legal"):
        board.push_text("w>A")


def test_emptied_wind_row_is_kept_as_an_empty_list() -> None:
    board = play(kings_of_hearts_cloud(), ALL_GATHERS + " wind KH KH w:KH>A")
    board.push_text("w:KH>A2")
    assert board.to_json()["wind_row"] == [] and board.to_json()["status"] == "won"


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_named_cards_write_a_deal_and_the_wind_as_real_cards_name_them(variant: str) -> None:
    board = Board(variant, deal=41)
    moves = [Move.deal()] * 8 + [Move.gather(n) for n in range(1, 14)] + [Move.wind()]
    named = []
    for move in moves:
        board.push(move)
        named.append(board.named_cards(move))
    deck = Board(variant, deal=41).deck
    assert deck is not None and board.wind_row is not None
    assert [m.cards for m in named[:8]] == [tuple(deck[13 * k : 13 * k + 13]) for k in range(8)]
    assert named[8:21] == moves[8:21]  # gathers stay as they are
    assert named[21] == Move.wind(board.wind_row)
    physical = Board(variant)  # no deck: the named cards are all it has
    for move in named:
        physical.push(move)
    assert physical.to_json()["rays"] == board.to_json()["rays"]
    assert physical.wind_row == board.wind_row
