"""The position string (docs/positions.md): every position of random games of every
variant and stage, with the deck known by a deal number, by a Deck tag or not at all,
reads back as an equal board that goes on exactly as the game; malformed and impossible
strings are refused with the field named; a board compares, hashes and pastes back."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from enginekit import random_playout
from hypothesis import given, settings
from hypothesis import strategies as st
from test_board_properties import DEALS, SEEDS, VARIANTS
from test_board_properties import SETTINGS as PROPERTY_SETTINGS

from sunlog import Board, PositionError, PositionErrorCode
from sunlog.engine.moves import Move

#: The engine properties' settings, with fewer examples: each plays a whole game and
#: reads back every position of it three ways.
SETTINGS = settings(PROPERTY_SETTINGS, max_examples=12)
KNOWN = st.sampled_from(["deal", "deck", "unknown"])


def game(variant: str, deal: int, seed: int, known: str) -> tuple[Callable[[], Board], list[Move]]:
    """A random game and a maker of its first board: with the deal number, with its deck
    alone, or physical (deals and the wind naming their cards)."""
    board = Board(variant, deal=deal)
    named = [board.named_cards(m) for m in random_playout(board, random.Random(seed))]
    if known == "deal":
        return (lambda: Board(variant, deal=deal)), list(board.move_stack)
    if known == "deck":
        deck = Board(variant, deal=deal).deck
        return (lambda: Board(variant, deck=deck)), named
    return (lambda: Board(variant)), named


@SETTINGS
@given(variant=VARIANTS, deal=DEALS, seed=SEEDS, known=KNOWN)
def test_every_position_reads_back_and_goes_on_as_the_game(
    variant: str, deal: int, seed: int, known: str
) -> None:
    make, moves = game(variant, deal, seed, known)
    final = make()
    for move in moves:
        final.push(move)
    board = make()
    stages = set()
    for i in range(len(moves) + 1):
        text = board.position()
        stages.add(board.stage)
        again = Board.from_position(text)
        assert again == board and hash(again) == hash(board)
        assert again.position() == text
        assert again.legal_moves() == board.legal_moves()
        assert again.status() == board.status()
        assert again.to_json() == board.to_json()
        assert Board.from_json(board.to_json()) == board
        assert len(text) < 400
        if i % 10 == 0:  # the rest of the game, from the position
            for move in moves[i:]:
                again.push(move)
            assert again == final and again.position() == final.position()
            assert again.move_count == final.move_count
        if i < len(moves):
            board.push(moves[i])


def test_a_board_from_a_position_copies_and_pops_as_any_board() -> None:
    board = Board("sun", deal=777)
    board.push(Move.deal())
    start = Board.from_position(board.position())
    start.push_text("r3:AC>A")
    copy = start.copy()
    assert copy == start and copy.move_count == 2
    assert str(copy.pop()) == "r3:AC>A"
    assert copy == Board.from_position(board.position())
    with pytest.raises(IndexError):
        copy.pop()


def test_repr_pastes_back() -> None:
    board = Board("sun-3", deal=5)
    for text in ("deal", "deal", "deal"):
        board.push_text(text)
    assert repr(board).startswith("Board.from_position('sun-3 3 3/0/0 ")
    assert eval(repr(board)) == board


def test_equality_is_the_position_not_the_history() -> None:
    a, b = Board("sun", deal=1), Board("sun", deal=1)
    assert a == b and hash(a) == hash(b)
    a.push(Move.deal())
    assert a != b
    b.push(Move.deal())
    assert a == b and len({a, b}) == 1
    assert a != Board("sun-2", deal=1) and a != "sun"


START = "sun 1 1/0/0 3S/5C/AC/4S/7S/KS/9C/5H/8C/AC/7H/4D/AS .,.,.,./.,.,.,. - - #777"


def _swap(field: int, value: str) -> str:
    parts = START.split(" ")
    parts[field] = value
    return " ".join(parts)


BAD = [
    # (string, code, field, column or None)
    (START.replace("3S", '3"', 1), PositionErrorCode.BAD_CHARACTER, "rays", 14),
    (START.replace("3S", "3\\", 1), PositionErrorCode.BAD_CHARACTER, "rays", 14),
    (START + "\t", PositionErrorCode.BAD_CHARACTER, "stock", len(START) + 1),
    (START.replace(" #777", ""), PositionErrorCode.FIELD_COUNT, "string", None),
    (_swap(0, "sun-4"), PositionErrorCode.BAD_VARIANT, "variant", 1),
    (_swap(1, "x"), PositionErrorCode.BAD_NUMBER, "moves", 5),
    (_swap(2, "1/0"), PositionErrorCode.FIELD_COUNT, "progress", 7),
    (_swap(2, "1/0/x"), PositionErrorCode.BAD_NUMBER, "progress", 11),
    (START.replace("/5C/", "/5X/", 1), PositionErrorCode.BAD_CARD, "rays", 16),
    (START.replace("/5C/", "//", 1), PositionErrorCode.BAD_CARD, "rays", 16),
    (START.replace("/AS ", " ", 1), PositionErrorCode.PILE_COUNT, "rays", 13),
    (_swap(4, ".,.,./.,.,.,."), PositionErrorCode.PILE_COUNT, "foundations", None),
    (_swap(4, "1,.,.,./.,.,.,."), PositionErrorCode.BAD_RANK, "foundations", None),
    (_swap(7, "#18446744073709551616"), PositionErrorCode.BAD_NUMBER, "stock", None),
    (_swap(2, "1/1/0"), PositionErrorCode.IMPOSSIBLE_STAGE, "progress", 7),
    (_swap(6, "AS"), PositionErrorCode.IMPOSSIBLE_STAGE, "wind", None),
    (_swap(5, "AS"), PositionErrorCode.IMPOSSIBLE_STAGE, "clouds", None),
    (_swap(1, "0"), PositionErrorCode.IMPOSSIBLE_STAGE, "moves", 5),
    (START.replace("3S", "ACAC", 1), PositionErrorCode.THIRD_COPY, "rays", None),
    (START.replace("3S", "3S4S", 1), PositionErrorCode.CARD_COUNT, "rays", None),
    (START.replace("3S", "KD", 1), PositionErrorCode.WRONG_STOCK, "stock", None),
    (_swap(7, "AS"), PositionErrorCode.CARD_COUNT, "stock", None),
    ("sun-2 ?" + START[5:], PositionErrorCode.BAD_NUMBER, "moves", None),
]


@pytest.mark.parametrize(("text", "code", "field", "column"), BAD)
def test_malformed_strings_are_refused_naming_the_field(
    text: str, code: PositionErrorCode, field: str, column: int | None
) -> None:
    with pytest.raises(PositionError) as caught:
        Board.from_position(text)
    assert caught.value.code is code
    assert caught.value.field == field
    assert field in str(caught.value)
    if column is not None:
        assert caught.value.column == column
        assert f"column {column}" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_an_open_ray_in_sun_2_is_refused() -> None:
    board = Board("sun", deal=3)
    for _ in range(8):
        board.push(Move.deal())
    board.push_text("open 2")
    text = board.position().replace("sun ", "sun-2 ", 1)
    with pytest.raises(PositionError, match="sun-2 has no stage 2") as caught:
        Board.from_position(text)
    assert caught.value.code is PositionErrorCode.NO_STAGE_2


def test_105_cards_are_refused() -> None:
    board = Board("sun")
    text = board.position().replace("././", "AS/./", 1).replace(" - - ?", " - - .")
    with pytest.raises(PositionError) as caught:
        Board.from_position(text.replace(" 0 0/0/0", " 8 8/0/0"))
    assert caught.value.code is PositionErrorCode.CARD_COUNT


def test_a_string_is_text() -> None:
    with pytest.raises(PositionError) as caught:
        Board.from_position(42)
    assert caught.value.code is PositionErrorCode.NOT_TEXT


def test_json_foundations_out_of_order_are_refused() -> None:
    board = Board("sun", deal=777)
    board.push(Move.deal())
    board.push_text("r3:AC>A")
    obj = board.to_json()
    obj["foundations"]["aces"]["C"] = ["2C"]
    with pytest.raises(PositionError) as caught:
        Board.from_json(obj)
    assert caught.value.code is PositionErrorCode.PILE_ORDER
    assert caught.value.field == "foundations.aces.C"
