"""The library's constructors under hostile arguments (issue 33, item 13): ``Move`` and
``Card`` check what they are given and raise a ``ValueError`` (python-chess's habit),
never AttributeError, IndexError or a TypeError later at ``push``; and the API reads
numbers as the notation does, ASCII digits only."""

from __future__ import annotations

from typing import Any

import pytest

from sunlog import Board, Card, Move
from sunlog.engine.errors import InvalidMoveError


@pytest.mark.parametrize("text", [None, 3, b"deal", ["deal"]], ids=repr)
def test_move_parse_of_what_is_not_text(text: Any) -> None:
    with pytest.raises(InvalidMoveError, match="a move is text"):
        Move.parse(text)
    if not isinstance(text, list):  # a list is no key of the cache of tokens read
        with pytest.raises(ValueError):
            Move.parse_card_move(text)


@pytest.mark.parametrize("index", [999, 52, -1, "3", 2.0, True, None], ids=repr)
def test_card_of_an_index_out_of_range_or_not_an_int(index: Any) -> None:
    with pytest.raises(ValueError, match="0 to 51"):
        Card(index)


def test_card_of_a_good_index_is_the_shared_card() -> None:
    assert Card(0) is Card.parse("AS") and Card(51) is Card.parse("KC")


@pytest.mark.parametrize("ray", ["3", -1, 10**20, 2.5, True, None], ids=repr)
@pytest.mark.parametrize("make", [Move.open, Move.gather], ids=["open", "gather"])
def test_open_and_gather_take_a_whole_number(make: Any, ray: Any) -> None:
    with pytest.raises(InvalidMoveError, match="ray number"):
        make(ray)


@pytest.mark.parametrize(
    "cards",
    [("AS",) * 13, "AS 2S", [1, 2], [Card(0), None]],
    ids=["strings", "str", "ints", "None"],
)
@pytest.mark.parametrize("make", [Move.deal, Move.wind], ids=["deal", "wind"])
def test_deal_and_wind_name_card_values(make: Any, cards: Any) -> None:
    with pytest.raises(InvalidMoveError):
        make(cards)


def test_good_moves_are_built_and_pushed() -> None:
    board = Board(deal=1)
    board.push(Move.deal())
    assert Move.open(3) == Move.parse("open 3")
    assert Move.deal([Card(0)] * 13).cards == (Card(0),) * 13


@pytest.mark.parametrize("text", ["gather ٣", "open ３", "open ²"])
def test_the_api_reads_ascii_digits_as_the_notation_does(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)
