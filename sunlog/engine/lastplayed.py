"""What the last move did, and where each playable card lies, as :mod:`sunlog.engine.played`
values: the notation's view of a position (replay, convert and the views read it).

:class:`~sunlog.engine.board.Board` answers :meth:`~sunlog.engine.board.Board.last_played`
and :meth:`~sunlog.engine.board.Board.playable` with these functions; they read its undo
record and piles, and change nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sunlog.engine.cards import Card, Suit
from sunlog.engine.deal import wind_row
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.played import (
    AcesSpot,
    CardMoved,
    CloudSpot,
    Dealt,
    Gathered,
    KingsSpot,
    Opened,
    Played,
    RaySpot,
    Spot,
    WindBlown,
    WindSpot,
)
from sunlog.engine.rules import RAYS

if TYPE_CHECKING:
    from sunlog.engine.board import Board

# A reading of a card move: (place, index, pos, card), as the board has them.
_Reading = tuple[Place, int, int, Card]

__all__ = [
    "CARD",
    "DEAL",
    "GATHER",
    "OPEN",
    "WIND",
    "canonical_form",
    "last_played",
    "named_cards",
    "playable",
    "shortest",
]

# Undo records of the board, tagged by their first item.
CARD, DEAL, OPEN, GATHER, WIND = range(5)


def last_played(board: Board) -> Played:
    """What the last move pushed did, with its canonical form: where a card came from
    (as the position was before it) and went to, what a deal or a gather dealt, the
    wind's row. Read from the undo record, so it costs no replay; ``IndexError`` when
    no move has been played."""
    if not board._undo:
        raise IndexError("no move has been played")
    record = board._undo[-1]
    move = board.move_stack[-1]
    tag = record[0]
    if tag == CARD:
        return _card_played(board, move, record[1], record[2], record[3])
    if tag == DEAL:
        cards = tuple(record[1])
        canonical = Move.deal() if board._deck is not None else Move.deal(cards)
        return Dealt(canonical, cards)
    if tag == OPEN:
        return Opened(Move.open(board.opened), board.opened)
    if tag == GATHER:
        # Not ``cards``: that name is a tuple above, and a list here would fail the
        # compiled build's check of the variable's type.
        _, n, picked, dealt, cloud = record[:5]
        return Gathered(
            Move.gather(n),
            n,
            tuple(picked),
            tuple((n + 1 + i, picked[i]) for i in range(dealt)),
            len(board._clouds) if cloud else None,
            tuple(picked[RAYS - n :]) if cloud else (),
        )
    row = board._wind_row
    assert row is not None
    canonical = Move.wind(row)
    if move.cards is None:  # the row the Deal tag derives
        canonical = move
    elif board.deal_number is not None:
        collected = [c for cloud in record[1] for c in cloud]
        collected += [c for ray in record[2] for c in ray]
        if row == wind_row(board.deal_number, collected):
            canonical = Move.wind()
    return WindBlown(canonical, tuple(row))


def _card_played(board: Board, move: Move, src: list[Card], pos: int, dst: list[Card]) -> Played:
    """:meth:`last_played` of a card move. The canonical form is worked out on the
    position before the move: the card is put back for a moment, unless it was its
    ray's outer card, which needs no looking (the commonest case)."""
    place, index = _source_of(board, move, src)
    card = dst[-1]
    suit = card // 13
    found = board._foundations
    target: Spot
    if found[suit] is dst or found[suit + 4] is dst:
        dst_index = suit if found[suit] is dst else suit + 4
        if board._rules.two_aces_piles:
            pile = 1 if dst_index < 4 else 2
            target_enum = Target.ACES1 if pile == 1 else Target.ACES2
            target = _ACES_SPOTS[suit][pile]
        elif dst_index < 4:
            target_enum, target = Target.ACES, _ACES_SPOTS[suit][1]
        else:
            target_enum, target = Target.KINGS, _KINGS_SPOTS[suit]
    else:
        target_enum, dst_index = Target.RAY, board._dst_index(Target.RAY, dst)
        target = _ray_spot(dst_index, None, False)
    if place is Place.RAY:
        depth = len(src) + 1 - pos
        source: Spot = _ray_spot(index, depth, index == board.open_ray)
        if depth == 1:  # the outer card: no position needed
            canonical = _outer_canonical(board, move, index, card, target_enum, dst_index)
            if canonical is move:
                return _card_moved(move, card, source, target)
            return CardMoved(canonical, card, source, target)
    else:
        source = _spot(board, place, index, pos, src, 1)
    src.insert(pos, dst.pop())
    try:
        canonical = canonical_form(board, (place, index, pos, card), target_enum, dst_index)
    finally:
        dst.append(src.pop(pos))
    if canonical == move:  # written canonically: the move's own value, made once
        return _card_moved(move, card, source, target)
    return CardMoved(canonical, card, source, target)


def _outer_canonical(
    board: Board, move: Move, ray: int, card: Card, target: Target, dst: int
) -> Move:
    """The canonical form of a move that took ray ``ray``'s outer card: ``move``
    itself when it is written so (most are: no new value then), else as
    :meth:`_canonical` makes it."""
    if target is Target.ACES1:
        target = Target.ACES  # A2 is written only where the first pile would take it too
    elif target is Target.ACES2 and not board._takes(dst - 4, card):
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


def _source_of(board: Board, move: Move, pile: list[Card]) -> tuple[Place, int]:
    """The place and index of the pile a card move took its card from: where the move
    names it, checked by identity, else found by :meth:`_locate`."""
    _, n, _, source, _, _, _, _, _ = move
    if source is Place.RAY:
        if n is not None and 0 < n <= RAYS and board._rays[n - 1] is pile:
            return Place.RAY, n
    elif source is Place.CLOUD:
        if n is not None and 0 < n <= len(board._clouds) and board._clouds[n - 1] is pile:
            return Place.CLOUD, n
    elif source is Place.WIND:
        if pile is board._wind_row:
            return Place.WIND, 0
    elif source is Place.ACES or source is Place.KINGS:
        base = 0 if source is Place.ACES else 4
        for i in range(base, base + 4):
            if board._foundations[i] is pile:
                return source, i
    return _locate(board, pile)


def _locate(board: Board, pile: list[Card]) -> tuple[Place, int]:
    """The place and index (as a reading has them) of a pile, found by identity."""
    for n, ray in enumerate(board._rays, 1):
        if ray is pile:
            return Place.RAY, n
    for k, cloud in enumerate(board._clouds, 1):
        if cloud is pile:
            return Place.CLOUD, k
    if pile is board._wind_row:
        return Place.WIND, 0
    i = next(i for i, p in enumerate(board._foundations) if p is pile)
    return (Place.ACES if i < 4 else Place.KINGS), i


def _spot(
    board: Board, place: Place, index: int, pos: int, pile: list[Card], taken: int = 0
) -> Spot:
    """The spot of the card at ``pos`` of a pile, as the position stands, or as it stood
    before ``taken`` (0 or 1) cards were taken from it."""
    if place is Place.RAY:
        return _ray_spot(index, len(pile) + taken - pos, index == board.open_ray)
    if place is Place.CLOUD:
        key = (index, pos == 0)
        spot = _CLOUD_SPOTS.get(key)
        if spot is None:
            spot = _CLOUD_SPOTS[key] = CloudSpot(index, End.LEFT if pos == 0 else End.RIGHT)
        return spot
    if place is Place.WIND:
        return _WIND_SPOTS[pos == 0]
    if place is Place.ACES:
        return _ACES_SPOTS[index % 4][1 if index < 4 else 2]
    return _KINGS_SPOTS[index % 4]


def playable(board: Board) -> list[tuple[Card, Spot]]:
    """Every playable card with its spot, once per distinct result: the outer card of
    each ray (any card of the open ray), both ends of each cloud and of the wind row,
    and a foundation's top where it can move onto the other pile of its suit."""
    if board.is_won():
        return []
    found = []
    for reading in board._playable():
        place, index, pos, card = reading
        if place in (Place.ACES, Place.KINGS) and not any(board._targets(reading)):
            continue
        found.append((card, _spot(board, place, index, pos, board._pile(place, index))))
    return found


# The spots of last_played and playable, made once each (a log repeats them).
_ACES_SPOTS = tuple({1: AcesSpot(suit, 1), 2: AcesSpot(suit, 2)} for suit in Suit)
_KINGS_SPOTS = tuple(KingsSpot(suit) for suit in Suit)
_WIND_SPOTS = {True: WindSpot(End.LEFT), False: WindSpot(End.RIGHT)}
_CLOUD_SPOTS: dict[tuple[int, bool], CloudSpot] = {}
_RAY_SPOTS: dict[tuple[int, int | None, bool], RaySpot] = {}
# CardMoved values of moves written canonically, by the identity of move and spots (each
# entry holds them, so that no id is reused while it is there).
_CARD_MOVES: dict[tuple[int, int, int], tuple[Move, Spot, Spot, CardMoved]] = {}


def _card_moved(move: Move, card: Card, source: Spot, target: Spot) -> CardMoved:
    """The CardMoved of a move written canonically (``move`` is its own canonical form):
    the same token of a log is the same Move value (the reader makes each once), so the
    value is often made already."""
    key = (id(move), id(source), id(target))
    entry = _CARD_MOVES.get(key)
    if entry is not None and entry[0] is move and entry[1] is source and entry[2] is target:
        return entry[3]
    played = CardMoved(move, card, source, target)
    if len(_CARD_MOVES) >= 50_000:
        _CARD_MOVES.clear()
    _CARD_MOVES[key] = (move, source, target, played)
    return played


def _ray_spot(ray: int, depth: int | None, is_open: bool) -> RaySpot:
    key = (ray, depth, is_open)
    spot = _RAY_SPOTS.get(key)
    if spot is None:
        if len(_RAY_SPOTS) > 10_000:  # depths stay below 104: this never fills
            _RAY_SPOTS.clear()
        spot = _RAY_SPOTS[key] = RaySpot(ray, depth, is_open)
    return spot


def canonical_form(board: Board, reading: _Reading, target: Target, dst: int) -> Move:
    """The canonical move for a legal (reading, target): SPEC 5.2's writer rules."""
    place, index, pos, card = reading
    depth = end = None
    if place is Place.RAY:
        ray = board._rays[index - 1]
        if card in ray[pos + 1 :]:
            outermost = len(ray) - 1 - ray[::-1].index(card)
            if any(c != card for c in ray[pos:outermost]):  # else: same result
                depth = len(ray) - pos
    elif place is Place.CLOUD or place is Place.WIND:
        row = board._clouds[index - 1] if place is Place.CLOUD else board._wind_row
        assert row is not None
        if len(row) > 1 and row[0] == row[-1] and row.count(card) != len(row):
            end = End.LEFT if pos == 0 else End.RIGHT
    target_ray = None
    if target is Target.RAY:
        target_ray, dst = dst, -1
    elif target is Target.ACES1 or (target is Target.ACES2 and not board._takes(dst - 4, card)):
        target = Target.ACES  # A2 is written only where the first pile would take it too
    src_index = index if place is Place.RAY or place is Place.CLOUD else None
    return Move(MoveKind.CARD, src_index, card, place, depth, end, target, target_ray)


def shortest(board: Board, move: Move) -> Move:
    """The shortest form of a card move that reads as it does here (SPEC 5.2): the bare
    card (``KS>K``), else the source without the card (``r5>A``), else ``move`` itboard.
    What a person at the table would write; other moves come back as they are."""
    if move.kind is not MoveKind.CARD or move.card is None or move.source is None:
        return move
    meant = board.canonical(move)
    for form in (
        move._replace(source=None, index=None, depth=None, end=None),
        move._replace(card=None),
    ):
        try:
            if board.canonical(form) == meant:
                return form
        except ValueError:
            continue
    return move


def named_cards(board: Board, move: Move) -> Move:
    """``move``, just pushed here, as a game played with real cards writes it: a deal
    naming the 13 cards it dealt (ray 1 first), the wind naming its row; other moves as
    they are. Such a log needs no Deal tag."""
    if move.kind is MoveKind.DEAL:
        return Move.deal([ray[-1] for ray in board._rays])
    if move.kind is MoveKind.WIND:
        assert board._wind_row is not None
        return Move.wind(board._wind_row)
    return move
