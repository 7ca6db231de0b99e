"""From a plan's steps to canonical moves: each step written as the moves that play it on
the real board (the shifts between a suit's piles included), each checked as it is pushed."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from sunlog.engine.board import Board, Variant
from sunlog.engine.cards import Card
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.play.policymodel import (
    CLOUD,
    COMMIT,
    DEAL,
    GATHER,
    ON_HI,
    ON_LO,
    OPEN,
    PARK,
    PLAY,
    RAY,
    Step,
)


def emit(board: Board, steps: Iterable[Step]) -> list[Move]:
    """The canonical moves that play ``steps`` from ``board`` (left as it was). Stops early
    at a stage action the board cannot take (a deck or wind row that is not known)."""
    moves: list[Move] = []
    try:
        for step in steps:
            for move in _step_moves(board, step):
                if move is None:
                    return moves
                board.push(move)
                moves.append(move)
    finally:
        for _ in moves:
            board.pop()
    return moves


# The target of a card step by (sun-3?, how).
_TARGETS = {
    False: {ON_LO: Target.ACES, ON_HI: Target.KINGS},
    True: {ON_LO: Target.ACES1, ON_HI: Target.ACES2},
}


def _step_moves(board: Board, step: Step) -> Iterator[Move | None]:
    """The moves of one step; each is pushed before the next is made. ``None``: stop."""
    op = step[0]
    if op in (PLAY, PARK):
        _, kind, index, pos, arg = step
        if op == PARK:
            yield _card_move(board, kind, index, pos, Target.RAY, arg + 1)
        elif arg == COMMIT:
            yield from _commit_moves(board, kind, index, pos)
        else:
            yield _card_move(board, kind, index, pos, _TARGETS[board.variant is Variant.SUN3][arg])
        return
    if op == DEAL:
        move = Move.deal()
    elif op == OPEN:
        move = Move.open(step[1])
    elif op == GATHER:
        move = Move.gather(step[1])
    else:
        move = Move.wind()
    yield move if board.is_legal(move) else None


def _card_move(
    board: Board, kind: int, index: int, pos: int, target: Target, target_ray: int | None = None
) -> Move:
    """The canonical move taking the card at (kind, index, pos) to ``target``."""
    if kind == RAY:
        ray = board.ray(index + 1)
        move = Move(
            MoveKind.CARD, index + 1, ray[pos], Place.RAY, len(ray) - pos, None, target, target_ray
        )
    else:
        row = board.clouds[index] if kind == CLOUD else board.wind_row
        assert row is not None
        end = End.LEFT if pos == 0 else End.RIGHT
        place = Place.CLOUD if kind == CLOUD else Place.WIND
        number = index + 1 if kind == CLOUD else None
        move = Move(MoveKind.CARD, number, row[pos], place, None, end, target, target_ray)
    return board.canonical(move)


def _commit_moves(board: Board, kind: int, index: int, pos: int) -> Iterator[Move]:
    """Shift between the two piles of a suit that meet until the card fits, then put it on
    (the fewer shifts of the two ways)."""
    card = _card_at(board, kind, index, pos)
    suit, rank = divmod(card, 13)
    rank += 1
    top = len(board.aces_pile(suit))
    options = []
    if rank >= 2:
        options.append((abs(top - (rank - 1)), rank - 1, Target.ACES))
    if rank <= 12:
        options.append((abs(top - rank), rank, Target.KINGS))
    _, goal, target = min(options, key=lambda o: o[0])
    # The caller plays each move yielded: the piles are read again after it.
    while len(aces := board.aces_pile(suit)) > goal:
        yield board.canonical(Move(MoveKind.CARD, None, aces[-1], Place.ACES, target=Target.KINGS))
    while len(board.aces_pile(suit)) < goal:
        top_king = board.kings_pile(suit)[-1]
        yield board.canonical(Move(MoveKind.CARD, None, top_king, Place.KINGS, target=Target.ACES))
    yield _card_move(board, kind, index, pos, target)


def _card_at(board: Board, kind: int, index: int, pos: int) -> Card:
    if kind == RAY:
        return board.ray(index + 1)[pos]
    row = board.clouds[index] if kind == CLOUD else board.wind_row
    assert row is not None
    return row[pos]
