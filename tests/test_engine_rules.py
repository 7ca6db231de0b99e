"""The rule book (sunlog/engine/rules.py): each rule once, as the board, the policies and
the solver ask it; and the board's piles as read-only copies."""

from __future__ import annotations

import pytest
from enginekit import board_from_deals, cards, play

from sunlog.engine.board import Board
from sunlog.engine.cards import Card
from sunlog.engine.rules import (
    NEXT_RANK,
    RAYS,
    RULES,
    PileKind,
    gather_out,
    holds,
    next_rank,
    takes,
)

D1 = "5H AS 9C 2S 4D KH QC 7S AD 3C JD 10H 6C"


def test_an_aces_pile_takes_the_next_card_up_and_a_kings_pile_the_next_down() -> None:
    ace, two, king, queen = (Card.parse(c) for c in ("AS", "2S", "KS", "QS"))
    assert takes(PileKind.ACES, 0, ace) and not takes(PileKind.ACES, 0, two)
    assert takes(PileKind.ACES, 1, two) and not takes(PileKind.ACES, 1, ace)
    assert takes(PileKind.KINGS, 0, king) and takes(PileKind.KINGS, 1, queen)
    assert not takes(PileKind.KINGS, 1, king)
    assert next_rank(PileKind.ACES, 13) == next_rank(PileKind.KINGS, 13) == -1
    assert NEXT_RANK[PileKind.ACES] == (*range(13), -1)
    assert NEXT_RANK[PileKind.KINGS] == (*range(12, -1, -1), -1)


def test_a_pile_holds_the_ranks_it_has_taken() -> None:
    three = Card.parse("3H")
    assert [holds(PileKind.ACES, h, three) for h in (2, 3, 13)] == [False, True, True]
    assert [holds(PileKind.KINGS, h, three) for h in (10, 11, 13)] == [False, True, True]


def test_gathering_deals_the_ray_onto_the_next_rays_and_the_rest_makes_a_cloud() -> None:
    ray = list(range(6))
    assert gather_out(ray, 10) == ([0, 1, 2], [3, 4, 5])
    assert gather_out(ray, 5) == (ray, [])
    assert gather_out(bytes(ray), RAYS) == (b"", bytes(ray))


def test_each_variant_is_data() -> None:
    sun, sun2, sun3 = RULES["sun"], RULES["sun-2"], RULES["sun-3"]
    assert sun.opens and not sun2.opens and sun3.opens
    assert sun.shifts and sun2.shifts and not sun3.shifts
    assert sun3.parks and not sun.parks and sun3.two_aces_piles
    assert sun.piles[4:] == (PileKind.KINGS,) * 4 and sun3.piles == (PileKind.ACES,) * 8
    assert Board("sun-3").rules is sun3


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_the_piles_a_board_shows_are_copies(variant: str) -> None:
    board = board_from_deals(variant, [D1])
    play(board, "deal r2:AS>A")
    key = board.key()
    board.rays[0].append(Card.parse("KS"))
    board.rays.clear()
    board.foundations[0].clear()
    board.aces_pile(0).clear()
    board.clouds.append([])
    assert board.key() == key
    assert board.rays[0] == cards("5H") and board.ray(1) == (Card.parse("5H"),)
    assert board.aces_pile(0) == cards("AS")
    assert board.wind_row is None
