"""Why a move is illegal, in words a player understands: the prose of the rules.

The board decides what is legal (:mod:`sunlog.engine.board`, :mod:`sunlog.engine.state`);
when a card move has no legal reading, :func:`explain_card` reads the move as a player
does (is anything dealt, is the game over, is the card where the move says, may it go
there) and raises the :class:`IllegalMoveError` of the first fault met, with its code.
Nothing here runs for a legal move.
"""

from __future__ import annotations

from collections.abc import Sequence

from sunlog.engine.canonical import canonical_form
from sunlog.engine.cards import CARDS, Card
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError
from sunlog.engine.errors import MoveErrorCode as _C
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.rules import RAYS, PileKind, takes
from sunlog.engine.state import FOUNDATION_PILE, WIND_PILE, BoardState, Reading, cloud_pile

__all__ = ["ambiguous", "check_ray_number", "explain_card", "reopen_message"]
_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def explain_card(board: BoardState, move: Move) -> None:
    """Raise the :class:`IllegalMoveError` that says why a card move has no legal
    reading: the first fault met, reading the move as a player does (is anything
    dealt, is the game over, is the card where the move says, may it go there)."""
    if board.deals == 0:
        raise IllegalMoveError(
            "nothing can be played before the first deal: a game starts with deal",
            _C.NOT_DEALT_YET,
        )
    if board.is_won():
        raise IllegalMoveError("the game is won: no move is legal", _C.GAME_WON)
    first_error: IllegalMoveError | None = None
    for reading in _readings(board, move):
        try:
            _destination(board, reading, move)
        except IllegalMoveError as exc:
            first_error = first_error or exc
    if first_error is not None:
        raise first_error


def _readings(board: BoardState, move: Move) -> list[Reading]:
    """The playable cards a written source and card can mean (target not yet checked)."""
    source, card = move.source, move.card
    if source is None:
        assert card is not None
        found = [r for r in board.readings() if r[3] == card]
        if not found:
            if (stock := _in_stock(board, card)) is not None:
                raise IllegalMoveError(f"{stock}; {_playable_summary(board)}", _C.IN_STOCK)
            raise IllegalMoveError(
                f"no {card} is playable here: {_playable_summary(board)}", _C.NOT_PLAYABLE
            )
        return found
    if source is Place.RAY:
        return _ray_readings(board, move)
    if source is Place.CLOUD or source is Place.WIND:
        return _row_readings(board, move)
    return _foundation_readings(board, move)


def _ray_readings(board: BoardState, move: Move) -> list[Reading]:
    n, card, depth = move.index, move.card, move.depth
    assert n is not None
    check_ray_number(n)
    ray = board.pile(n - 1)
    if not ray:
        raise _not_here(board, move, f"ray {n} is empty", _C.EMPTY_PILE)
    is_open = n == board.open_ray
    if depth is not None:
        if depth < 1 or depth > len(ray):
            raise IllegalMoveError(
                f"ray {n} holds {_cards(len(ray))}, so it has no card {depth}", _C.NOT_THERE
            )
        if depth > 1 and not is_open:
            raise IllegalMoveError(
                f"only the outer card of ray {n} ({ray[-1]}) is playable: " + _open_ray_note(board),
                _C.NOT_PLAYABLE,
            )
        pos = len(ray) - depth
        if card is not None and ray[pos] != card:
            where = f"ray {n}'s outer card" if depth == 1 else f"card {depth} of ray {n}"
            raise _not_here(board, move, f"{where} is {ray[pos]}, not {card}", _C.NOT_THERE)
        return [(Place.RAY, n, pos, ray[pos])]
    if card is None:
        if is_open:
            return [r for r in board.readings() if r[0] is Place.RAY and r[1] == n]
        return [(Place.RAY, n, len(ray) - 1, ray[-1])]
    if ray[-1] == card:
        return [(Place.RAY, n, len(ray) - 1, card)]
    if not is_open:
        raise _not_here(board, move, f"ray {n}'s outer card is {ray[-1]}, not {card}", _C.NOT_THERE)
    for pos in range(len(ray) - 2, -1, -1):
        if ray[pos] == card:
            return [(Place.RAY, n, pos, card)]
    raise _not_here(board, move, f"ray {n}, the open ray, holds no {card}", _C.NOT_THERE)


def _row_readings(board: BoardState, move: Move) -> list[Reading]:
    card, end = move.card, move.end
    if move.source is Place.CLOUD:
        k = move.index
        assert k is not None
        count = board.cloud_count
        if not 1 <= k <= count:
            have = f"there are {count}" if count else "none has been made"
            raise IllegalMoveError(f"there is no cloud {k}: {have}", _C.NO_SUCH_CLOUD)
        row, name, place = board.pile(cloud_pile(k)), f"cloud {k}", Place.CLOUD
    else:
        if board.wind_row is None:
            raise IllegalMoveError("there is no wind row: the wind has not blown", _C.NO_WIND_ROW)
        k, row, name, place = 0, board.pile(WIND_PILE), "the wind row", Place.WIND
    if not row:
        raise IllegalMoveError(f"{name} is empty", _C.EMPTY_PILE)
    if end is not None:
        pos = 0 if end is End.LEFT else len(row) - 1
        if card is not None and row[pos] != card:
            side = "left" if end is End.LEFT else "right"
            raise _not_here(
                board, move, f"the {side} end of {name} is {row[pos]}, not {card}", _C.NOT_THERE
            )
        return [(place, k, pos, row[pos])]
    ends = [(place, k, 0, row[0])]
    if len(row) > 1:
        ends.append((place, k, len(row) - 1, row[-1]))
    if card is None:
        return ends
    found = [r for r in ends if r[3] == card]
    if not found:
        shown = f"ends are {row[0]} and {row[-1]}" if len(row) > 1 else f"only card is {row[0]}"
        raise _not_here(board, move, f"{name}'s {shown}, not {card}", _C.NOT_THERE)
    return found


def _foundation_readings(board: BoardState, move: Move) -> list[Reading]:
    if board.rules.two_aces_piles:
        raise IllegalMoveError(
            "cards on the foundations are never playable in sun-3", _C.NOT_PLAYABLE
        )
    place, card = move.source, move.card
    base = 0 if place is Place.ACES else 4
    kind = "aces" if place is Place.ACES else "kings"
    assert place is not None
    if card is None:
        found = [
            (place, base + s, len(p) - 1, p[-1])
            for s in range(4)
            if len(p := board.pile(FOUNDATION_PILE + base + s)) > 1
        ]
        if not found:
            raise IllegalMoveError(f"no {kind} pile has a card that can move", _C.NOT_PLAYABLE)
        return found
    suit = card // 13
    pile = board.pile(FOUNDATION_PILE + base + suit)
    name = f"the {kind} pile of {_SUIT_NAMES[suit]}"
    if not pile:
        raise IllegalMoveError(f"{name} is empty", _C.EMPTY_PILE)
    if pile[-1] != card:
        raise IllegalMoveError(f"{name} is topped by {pile[-1]}, not {card}", _C.NOT_THERE)
    if len(pile) == 1:
        raise IllegalMoveError(
            f"{card} is the base of {name}, and a base never moves", _C.BASE_NEVER_MOVES
        )
    return [(place, base + suit, len(pile) - 1, card)]


def _destination(board: BoardState, reading: Reading, move: Move) -> tuple[Target, int]:
    """Where the written target puts this reading's card (a ray's number or a foundation's
    index), or why it cannot."""
    target = move.target
    if target is None:
        raise IllegalMoveError("a card move must name where its card goes", _C.NO_TARGET)
    place, _, _, card = reading
    suit = card // 13
    found = board.foundations
    if target is Target.RAY:
        if not board.rules.two_aces_piles:
            raise IllegalMoveError(
                "cards go onto rays only in sun-3 (temporary places); "
                f"this game is {board.variant.value}",
                _C.WRONG_TARGET,
            )
        n = move.target_ray
        assert n is not None
        check_ray_number(n)
        ray = board.pile(n - 1)
        if ray:
            raise IllegalMoveError(
                f"ray {n} is not empty (its outer card is {ray[-1]}): "
                "a card may be parked only on an empty ray",
                _C.RAY_NOT_EMPTY,
            )
        return target, n
    if target is Target.KINGS:
        if board.rules.two_aces_piles:
            raise IllegalMoveError(
                "sun-3 has no kings piles: write A, A1 or A2",
                _C.WRONG_TARGET,
                writes=("A", "A1", "A2"),
            )
        _check_onto(card, place, found[suit + 4], PileKind.KINGS)
        return target, suit + 4
    if board.rules.two_aces_piles:
        if target is Target.ACES:
            for i in (suit, suit + 4):
                if takes(PileKind.ACES, len(found[i]), card):
                    return target, i
            tops = " and ".join(str(p[-1]) if p else "empty" for p in found[suit::4])
            raise IllegalMoveError(
                f"{card} fits neither aces pile of {_SUIT_NAMES[suit]} (tops: {tops})",
                _C.NO_FIT,
            )
        i = suit if target is Target.ACES1 else suit + 4
        if not takes(PileKind.ACES, len(found[i]), card):
            which = "first" if target is Target.ACES1 else "second"
            raise IllegalMoveError(_misfit(card, found[i], "aces", which), _C.NO_FIT)
        return target, i
    if target is not Target.ACES:
        raise IllegalMoveError(
            f"A1 and A2 name the two aces piles of sun-3; in {board.variant.value} write A",
            _C.WRONG_TARGET,
            writes=("A",),
        )
    _check_onto(card, place, found[suit], PileKind.ACES)
    return target, suit


def _check_onto(card: Card, place: Place, pile: Sequence[Card], kind: PileKind) -> None:
    """Why ``card``, from ``place``, cannot go onto ``pile`` of its suit (sun and sun-2's
    aces or kings pile), if it cannot."""
    name = "aces" if kind is PileKind.ACES else "kings"
    own = Place.ACES if kind is PileKind.ACES else Place.KINGS
    if place is own:
        raise IllegalMoveError(f"{card} is already on its {name} pile", _C.ALREADY_THERE)
    if place in (Place.ACES, Place.KINGS) and not pile:
        raise IllegalMoveError(
            f"the {name} pile of {_SUIT_NAMES[card // 13]} is empty, and nothing moves onto "
            "an empty pile from another foundation",
            _C.EMPTY_FOUNDATION,
        )
    if not takes(kind, len(pile), card):
        raise IllegalMoveError(_misfit(card, pile, name), _C.NO_FIT)


def _open_ray_note(board: BoardState) -> str:
    if board.open_ray is None:
        return "no ray is open"
    return f"the open ray is ray {board.open_ray}"


def _playable_summary(board: BoardState) -> str:
    """The playable cards off the foundations, by suit (S H D C) and, within a suit, by
    rank (A 2 ... 10 J Q K): ``the playable cards are 3S 10S, AH 7H, KC``."""
    cards = sorted({r[3] for r in board.readings() if r[0] not in (Place.ACES, Place.KINGS)})
    if not cards:
        return "no card is playable"
    suits = [
        " ".join(str(c) for c in group)
        for group in ([c for c in cards if c // 13 == s] for s in range(4))
        if group
    ]
    return "the playable cards are " + ", ".join(suits)


def _not_here(board: BoardState, move: Move, message: str, code: _C) -> IllegalMoveError:
    """A card not where the move says, with where it is playable as the move to write
    (``; 2S is on ray 3: write r3:2S>A``, kept in ``writes``), or that it is playable
    nowhere.

    Called only to explain a move that has failed: a legal move never pays for it."""
    card = move.card
    if card is None:
        return IllegalMoveError(message, code)
    places = [r for r in board.readings() if r[3] == card]
    if not places:
        if (stock := _in_stock(board, card)) is not None:
            return IllegalMoveError(f"{message}, and {stock}", _C.IN_STOCK)
        return IllegalMoveError(f"{message}, and no {card} is playable anywhere", code)
    writes: list[str] = []
    reason = ""
    for reading in places:
        try:
            target, dst = _destination(board, reading, move)
        except IllegalMoveError as exc:
            reason = reason or str(exc)
            continue
        form = str(canonical_form(board, reading, target, dst))
        if form not in writes:
            writes.append(form)
    where = _place_names(places)
    if writes:
        text = f"{message}; {card} is {where}: write {' or '.join(writes)}"
        return IllegalMoveError(text, code, writes=tuple(writes))
    return IllegalMoveError(f"{message}; {card} is {where}, but {reason}", code)


def _in_stock(board: BoardState, card: Card) -> str | None:
    """For a card no place holds playable: that it is still in the stock, when the deck is
    known and both its copies are (``3H has not been dealt yet: it comes with the next deal
    (was a deal left out?)``, or ``with deal 4``), as a deal left out makes it; else
    ``None`` (a copy covered on the table, or one gone to a foundation, is then the likelier
    fault)."""
    stock = board.stock
    if stock is None or stock.count(card) < 2:
        return None
    deal = board.deals + 1 + stock.index(card) // RAYS
    if deal == board.deals + 1:
        return f"{card} has not been dealt yet: it comes with the next deal (was a deal left out?)"
    return f"{card} has not been dealt yet: it comes with deal {deal}"


def reopen_message(board: BoardState, n: int) -> str:
    """Why ``open n`` cannot come now that ray ``board.opened`` is open, in one sentence
    (the move history is read only here, on the error path)."""
    last = board.opened
    if n == last:
        what = f"ray {n} is open already"
    elif any(m.kind is MoveKind.OPEN and m.index == n for m in board.move_stack):
        what = f"ray {n} was opened before ray {last}"
    else:
        what = f"ray {n} was passed over when ray {last} was opened"
    later = f"open a ray from {last + 1} to 13" if last < RAYS else "no ray is left to open"
    return f"open {n}: {what}, and rays are opened left to right: {later}"


def _misfit(card: Card, pile: Sequence[Card], kind: str, which: str = "") -> str:
    suit = _SUIT_NAMES[card // 13]
    name = f"the {which + ' ' if which else ''}{kind} pile of {suit}"
    if not pile:
        base = "an ace" if kind == "aces" else "a king"
        return f"{card} cannot start {name}: an empty pile takes only {base}"
    top = pile[-1]
    step = 1 if kind == "aces" else -1
    if (kind == "aces" and top % 13 == 12) or (kind == "kings" and top % 13 == 0):
        return f"{card} cannot go onto {name}: the pile is complete"
    return f"{card} cannot go onto {name}: its top is {top}, so it takes {CARDS[top + step]}"


def _place_names(readings: list[Reading]) -> str:
    """Where playable cards are, in words: ``on ray 3``, ``at an end of cloud 2``, ..."""
    names: list[str] = []
    for place, index, _, _ in readings:
        if place is Place.RAY:
            name = f"on ray {index}"
        elif place is Place.CLOUD:
            name = f"at an end of cloud {index}"
        elif place is Place.WIND:
            name = "at an end of the wind row"
        else:
            kind = "aces" if place is Place.ACES else "kings"
            name = f"on top of its {kind} pile"
        if name not in names:
            names.append(name)
    return " and ".join(names)


def check_ray_number(n: int) -> None:
    if not 1 <= n <= RAYS:
        raise IllegalMoveError(f"there is no ray {n}: rays are numbered 1 to 13", _C.NO_SUCH_RAY)


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def ambiguous(move: Move, forms: list[str]) -> AmbiguousMoveError:
    """The error of a short form whose readings (written as ``forms``) give different
    positions (SPEC 5.2)."""
    unique = tuple(dict.fromkeys(forms))
    return AmbiguousMoveError(
        f"{move} can be read {len(unique)} ways with different results: "
        f"write {' or '.join(unique)}",
        unique,
    )
