"""The stage actions (deal, open, gather, wind), one object each in engine/stages.py: the
board lists, checks, plays, undoes and describes them through one table, so each kind's
listed moves must be legal in canonical form, say what they did, and undo exactly."""

from __future__ import annotations

import random

import pytest
from enginekit import random_playout, snapshot

from sunlog.engine.board import Board
from sunlog.engine.cards import CARDS
from sunlog.engine.errors import IllegalMoveError, MoveErrorCode
from sunlog.engine.moves import Move, MoveKind
from sunlog.engine.played import Dealt, Gathered, Opened, WindBlown
from sunlog.engine.stages import STAGE_ACTIONS
from sunlog.engine.state import STOCK, WIND_PILE

PLAYED = {
    MoveKind.DEAL: Dealt,
    MoveKind.OPEN: Opened,
    MoveKind.GATHER: Gathered,
    MoveKind.WIND: WindBlown,
}


def where_cards_lie(board: Board) -> dict[int, list[int]]:
    """Each dealt card's piles, read off the piles themselves (not the index)."""
    found: dict[int, list[int]] = {}
    for number in range(WIND_PILE + 1 + board.cloud_count):
        for card in board.pile(number):
            found.setdefault(card, []).append(number)
    return {card: sorted(piles) for card, piles in found.items()}


def indexed(board: Board) -> dict[int, list[int]]:
    """Each dealt card's piles, as the board's index has them."""
    found = {card: sorted(p for p in board.copies(card) if p != STOCK) for card in CARDS}
    return {card: piles for card, piles in found.items() if piles}


def test_every_stage_kind_has_one_action_and_card_moves_none() -> None:
    assert set(STAGE_ACTIONS) == {kind for kind in MoveKind if kind is not MoveKind.CARD}


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
@pytest.mark.parametrize("seed", range(6))
def test_each_listed_stage_action_is_canonical_says_what_it_did_and_undoes_exactly(
    variant: str, seed: int
) -> None:
    board = Board(variant, deal=seed * 7919)
    rng = random.Random(seed)
    seen = set()
    for _ in random_playout(board, rng, max_moves=400, stage_weight=0.3):
        before = snapshot(board)
        index = indexed(board)
        for move in board.legal_moves():
            if move.kind is MoveKind.CARD:
                continue
            seen.add(move.kind)
            assert board.is_legal(move)
            assert board.canonical(move) == move
            board.push(move)
            done = board.last_played()
            assert isinstance(done, PLAYED[move.kind])
            assert done.canonical == move
            assert indexed(board) == where_cards_lie(board)
            assert board.pop() == move
            assert snapshot(board) == before
            assert indexed(board) == index
    assert MoveKind.GATHER in seen and MoveKind.WIND in seen


def test_a_gather_that_makes_a_cloud_is_undone_with_its_cloud() -> None:
    board = Board("sun", deal=3)
    for _ in range(8):
        board.push(Move.deal())
    for n in range(1, 12):
        board.push(Move.gather(n))
    cards = board.ray(12)
    assert len(cards) > 1
    clouds = board.cloud_count
    before = snapshot(board)
    board.push(Move.gather(12))  # more cards than rays after it: a cloud
    done = board.last_played()
    assert isinstance(done, Gathered)
    assert done.cloud == board.cloud_count == clouds + 1
    assert done.cards == cards
    assert done.dealt == ((13, cards[0]),)
    assert done.cloud_cards == cards[1:] == tuple(board.clouds[-1])
    board.pop()
    assert board.cloud_count == clouds
    assert board.ray(12) == cards
    assert snapshot(board) == before


def test_named_cards_writes_a_deal_and_the_wind_a_physical_game_replays() -> None:
    board = Board("sun", deal=11)
    physical = Board("sun")
    for _ in range(8):
        board.push(Move.deal())
        physical.push(board.named_cards(Move.deal()))
    for n in range(1, 14):
        board.push(Move.gather(n))
        physical.push(Move.gather(n))
    board.push(Move.wind())
    named = board.named_cards(Move.wind())
    assert named.cards == tuple(board.wind_row or ())
    physical.push(named)
    assert physical.key() == board.key()
    assert physical.last_played().canonical == named


def test_a_refused_stage_action_keeps_its_code_and_changes_nothing() -> None:
    board = Board("sun-2", deal=5)
    before = snapshot(board)
    for move, code in (
        (Move.open(3), MoveErrorCode.NO_STAGE_2),
        (Move.gather(1), MoveErrorCode.DEALS_NOT_DONE),
        (Move.wind(), MoveErrorCode.DEALS_NOT_DONE),
    ):
        with pytest.raises(IllegalMoveError) as caught:
            board.push(move)
        assert caught.value.code is code
        assert snapshot(board) == before
