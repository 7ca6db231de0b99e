"""What the last move did, and where each playable card lies, as :mod:`sunlog.engine.played`
values: the notation's view of a position (replay, convert and the views read it).

:class:`~sunlog.engine.board.Board` answers :meth:`~sunlog.engine.board.Board.last_played`
and :meth:`~sunlog.engine.board.Board.playable` with these functions; they read a
position's undo record and piles, and change nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sunlog.engine import played as p
from sunlog.engine.canonical import canonical_form
from sunlog.engine.cards import Card, Suit
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.state import CARD, FOUNDATION_PILE, BoardState, pile_of, place_of

if TYPE_CHECKING:
    from sunlog.engine.stages import StageAction

__all__ = ["last_played", "playable"]


def last_played(board: BoardState) -> p.Played:
    """What the last move pushed did, with its canonical form: where a card came from
    (as the position was before it) and went to, what a deal or a gather dealt, the
    wind's row. Read from the undo record, so it costs no replay; ``IndexError`` when
    no move has been played."""
    record = board.last_record()
    move = board.move_stack[-1]
    if record[0] is not CARD:  # a stage action says what it did
        action: StageAction = record[0]
        return action.played(board, move, record)
    return _card_played(board, move, record[1], record[2], record[3])


def _card_played(board: BoardState, move: Move, source: int, pos: int, dest: int) -> p.Played:
    """:meth:`last_played` of a card move from pile ``source`` (at ``pos``) onto pile
    ``dest``. The canonical form is worked out on the position before the move (the
    source pile with its card back), unless the card was its ray's outer card, which
    needs no looking (the commonest case)."""
    place, index = place_of(source)
    card = board.pile(dest)[-1]
    suit = card // 13
    target: p.Spot
    if dest >= FOUNDATION_PILE:
        dst_index = dest - FOUNDATION_PILE
        if board.rules.two_aces_piles:
            pile = 1 if dst_index < 4 else 2
            target_enum = Target.ACES1 if pile == 1 else Target.ACES2
            target = _ACES_SPOTS[suit][pile]
        elif dst_index < 4:
            target_enum, target = Target.ACES, _ACES_SPOTS[suit][1]
        else:
            target_enum, target = Target.KINGS, _KINGS_SPOTS[suit]
    else:
        target_enum, dst_index = Target.RAY, dest + 1
        target = _ray_spot(dst_index, None, False)
    src = board.pile(source)
    spot: p.Spot
    if place is Place.RAY:
        depth = len(src) + 1 - pos
        spot = _ray_spot(index, depth, index == board.open_ray)
        if depth == 1:  # the outer card: no position needed
            canonical = _outer_canonical(board, move, index, card, target_enum, dst_index)
            if canonical is move:
                return _card_moved(move, card, spot, target)
            return p.CardMoved(canonical, card, spot, target)
    else:
        spot = _spot(board, place, index, pos, src, 1)
    before = list(src)
    before.insert(pos, card)
    canonical = canonical_form(board, (place, index, pos, card), target_enum, dst_index, before)
    if canonical == move:  # written canonically: the move's own value, made once
        return _card_moved(move, card, spot, target)
    return p.CardMoved(canonical, card, spot, target)


def _outer_canonical(
    board: BoardState, move: Move, ray: int, card: Card, target: Target, dst: int
) -> Move:
    """The canonical form of a move that took ray ``ray``'s outer card: ``move``
    itself when it is written so (most are: no new value then), else as
    :func:`canonical_form` makes it."""
    if target is Target.ACES1:
        target = Target.ACES  # A2 is written only where the first pile would take it too
    elif target is Target.ACES2 and not board.takes(dst - 4, card):
        target = Target.ACES
    target_ray = dst if target is Target.RAY else None
    _, n, written, source, depth, _, written_target, written_ray, _ = move
    if (
        n == ray
        and written == card
        and source is Place.RAY
        and depth is None
        and written_target is target
        and written_ray == target_ray
    ):
        return move
    return Move(MoveKind.CARD, ray, card, Place.RAY, None, None, target, target_ray)


def _spot(
    board: BoardState, place: Place, index: int, pos: int, pile: Sequence[Card], taken: int = 0
) -> p.Spot:
    """The spot of the card at ``pos`` of a pile, as the position stands, or as it stood
    before ``taken`` (0 or 1) cards were taken from it."""
    if place is Place.RAY:
        return _ray_spot(index, len(pile) + taken - pos, index == board.open_ray)
    if place is Place.CLOUD:
        key = (index, pos == 0)
        spot = _CLOUD_SPOTS.get(key)
        if spot is None:
            spot = _CLOUD_SPOTS[key] = p.CloudSpot(index, End.LEFT if pos == 0 else End.RIGHT)
        return spot
    if place is Place.WIND:
        return _WIND_SPOTS[pos == 0]
    if place is Place.ACES:
        return _ACES_SPOTS[index % 4][1 if index < 4 else 2]
    return _KINGS_SPOTS[index % 4]


def playable(board: BoardState) -> list[tuple[Card, p.Spot]]:
    """Every playable card with its spot, once per distinct result: the outer card of
    each ray (any card of the open ray), both ends of each cloud and of the wind row,
    and a foundation's top where it can move onto the other pile of its suit."""
    if board.is_won():
        return []
    found = []
    for reading in board.readings():
        place, index, pos, card = reading
        if place in (Place.ACES, Place.KINGS) and not any(board.targets(reading)):
            continue
        found.append((card, _spot(board, place, index, pos, board.pile(pile_of(place, index)))))
    return found


# The spots of last_played and playable, made once each (a log repeats them).
_ACES_SPOTS = tuple({1: p.AcesSpot(suit, 1), 2: p.AcesSpot(suit, 2)} for suit in Suit)
_KINGS_SPOTS = tuple(p.KingsSpot(suit) for suit in Suit)
_WIND_SPOTS = {True: p.WindSpot(End.LEFT), False: p.WindSpot(End.RIGHT)}
_CLOUD_SPOTS: dict[tuple[int, bool], p.CloudSpot] = {}
_RAY_SPOTS: dict[tuple[int, int | None, bool], p.RaySpot] = {}
# CardMoved values of moves written canonically, by the identity of move and spots (each
# entry holds them, so that no id is reused while it is there).
_CARD_MOVES: dict[tuple[int, int, int], tuple[Move, p.Spot, p.Spot, p.CardMoved]] = {}


def _card_moved(move: Move, card: Card, source: p.Spot, target: p.Spot) -> p.CardMoved:
    """The CardMoved of a move written canonically (``move`` is its own canonical form):
    the same token of a log is the same Move value (the reader makes each once), so the
    value is often made already."""
    key = (id(move), id(source), id(target))
    entry = _CARD_MOVES.get(key)
    if entry is not None and entry[0] is move and entry[1] is source and entry[2] is target:
        return entry[3]
    moved = p.CardMoved(move, card, source, target)
    if len(_CARD_MOVES) >= 50_000:
        _CARD_MOVES.clear()
    _CARD_MOVES[key] = (move, source, target, moved)
    return moved


def _ray_spot(ray: int, depth: int | None, is_open: bool) -> p.RaySpot:
    key = (ray, depth, is_open)
    spot = _RAY_SPOTS.get(key)
    if spot is None:
        if len(_RAY_SPOTS) > 10_000:  # depths stay below 104: this never fills
            _RAY_SPOTS.clear()
        spot = _RAY_SPOTS[key] = p.RaySpot(ray, depth, is_open)
    return spot
