"""From the search's abstract line to real moves: each step replayed on a copy of the board,
which writes it in canonical form and checks it; without a deal number, the wind row the
player names (SPEC 3.5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sunlog.engine.board import Board, Status
from sunlog.engine.cards import CARDS, Card
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.rules import PileKind, takes
from sunlog.play.solverstate import CLOUD, DEAL, GATHER, OPEN, PARK, RAY, WIND, Step, fluid

__all__ = ["realize"]


def realize(board: Board, line: Sequence[Step]) -> tuple[Move, ...]:
    """Replay an abstract line on a copy of ``board``: the canonical moves, checked."""
    b = board.copy()
    out: list[Move] = []

    def play(move: Move) -> None:
        canon = b.canonical(move)
        b.push(canon)
        out.append(canon)

    for step in line:
        kind = step[0]
        if kind == DEAL:
            play(Move.deal())
        elif kind == OPEN:
            play(Move.open(step[1]))
        elif kind == GATHER:
            play(Move.gather(step[1]))
        elif kind == WIND and b.deal_number is None:
            _name_wind(b, play)
        elif kind == WIND:
            play(Move.wind())
        elif kind == PARK:
            play(_source_move(b, step)._replace(target=Target.RAY, target_ray=step[5] + 1))
        else:
            _place(b, step, play)
    if b.status() is not Status.WON:
        raise AssertionError(f"solver bug: its line does not win ({b.on_foundations()} cards up)")
    return tuple(out)


def _source_move(b: Board, step: Step) -> Move:
    """A card move from the step's source, written in full (position and end)."""
    place, index, pos, card = step[1], step[2], step[3], CARDS[step[4]]
    if place == RAY:
        depth = len(b.ray(index + 1)) - pos
        return Move(MoveKind.CARD, index + 1, card, Place.RAY, depth=depth)
    end = End.LEFT if pos == 0 else End.RIGHT
    if place == CLOUD:
        return Move(MoveKind.CARD, index + 1, card, Place.CLOUD, end=end)
    return Move(MoveKind.CARD, None, card, Place.WIND, end=end)


def _place(b: Board, step: Step, play: Any) -> None:
    """Put the step's card on a foundation, shifting between the suit's piles if needed."""
    move = _source_move(b, step)
    card = move.card
    assert card is not None
    suit, rank = card // 13, card % 13 + 1
    first, second = b.foundations[suit], b.foundations[suit + 4]
    if b.rules.two_aces_piles:
        target = Target.ACES1 if takes(PileKind.ACES, len(first), rank - 1) else Target.ACES2
        play(move._replace(target=target))
        return
    a, k = len(first), len(second)
    if fluid(a, k):
        want = rank - 1 if rank >= 2 else 1
        # Each shift is played at once: the piles are read again after it.
        while len(first := b.aces_pile(suit)) > want:
            play(Move(MoveKind.CARD, card=first[-1], source=Place.ACES, target=Target.KINGS))
        while len(b.aces_pile(suit)) < want:
            top_king = b.kings_pile(suit)[-1]
            play(Move(MoveKind.CARD, card=top_king, source=Place.KINGS, target=Target.ACES))
        target = Target.ACES if rank >= 2 else Target.KINGS
    elif takes(PileKind.ACES, a, rank - 1) and takes(PileKind.KINGS, k, rank - 1):
        target = Target.KINGS if rank == 13 else Target.ACES  # the choice that stays fluid
    else:
        target = Target.ACES if takes(PileKind.ACES, a, rank - 1) else Target.KINGS
    play(move._replace(target=target))


# --------------------------------------------------------- a wind row of one's own


def _name_wind(b: Board, play: Any) -> None:
    """Without a deal number the wind row is the player's (SPEC 3.5): name one that wins.

    The row lays each suit's missing cards in the order its piles take them, so playing
    it from the left end puts every card up.
    """
    plan: list[tuple[Card, Target]] = []
    for suit in range(4):
        first, second = b.foundations[suit], b.foundations[suit + 4]
        ranks = range(len(first) + 1, 14)
        plan += [(CARDS[suit * 13 + r - 1], Target.ACES1) for r in ranks]
        if b.rules.two_aces_piles:
            ranks = range(len(second) + 1, 14)
            plan += [(CARDS[suit * 13 + r - 1], Target.ACES2) for r in ranks]
        else:
            ranks = range(13 - len(second), 0, -1)
            plan += [(CARDS[suit * 13 + r - 1], Target.KINGS) for r in ranks]
    play(Move.wind([card for card, _ in plan]))
    for card, target in plan:
        if target is Target.ACES1 and not b.rules.two_aces_piles:
            target = Target.ACES
        play(Move(MoveKind.CARD, None, card, Place.WIND, end=End.LEFT, target=target))
