"""The canonical form of a legal card move (SPEC 5.2's writer rules): what ``fmt`` writes,
what :meth:`~sunlog.engine.board.Board.legal_moves` lists and what messages name."""

from __future__ import annotations

from collections.abc import Sequence

from sunlog.engine.cards import Card
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.state import BoardState, Reading, pile_of

__all__ = ["canonical_form"]


def canonical_form(
    board: BoardState,
    reading: Reading,
    target: Target,
    dst: int,
    source: Sequence[Card] | None = None,
) -> Move:
    """The canonical move for a legal (reading, target): SPEC 5.2's writer rules. ``dst``
    is the ray number or foundation index the card goes to; ``source`` the cards of the
    reading's pile (by default, as the pile stands)."""
    place, index, pos, card = reading
    depth = end = None
    pile = board.pile(pile_of(place, index)) if source is None else source
    if place is Place.RAY:
        if card in pile[pos + 1 :]:
            outermost = len(pile) - 1 - pile[::-1].index(card)
            if any(c != card for c in pile[pos:outermost]):  # else: same result
                depth = len(pile) - pos
    elif (
        (place is Place.CLOUD or place is Place.WIND)
        and len(pile) > 1
        and pile[0] == pile[-1]
        and pile.count(card) != len(pile)
    ):
        end = End.LEFT if pos == 0 else End.RIGHT
    target_ray = None
    if target is Target.RAY:
        target_ray, dst = dst, -1
    elif target is Target.ACES1 or (target is Target.ACES2 and not board.takes(dst - 4, card)):
        target = Target.ACES  # A2 is written only where the first pile would take it too
    src_index = index if place is Place.RAY or place is Place.CLOUD else None
    return Move(MoveKind.CARD, src_index, card, place, depth, end, target, target_ray)
