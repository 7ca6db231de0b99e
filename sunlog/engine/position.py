"""The position string (docs/positions.md): one line that holds a position of Sun, read
and written here and nowhere else, as FEN is for chess.

Eight fields, one space apart::

    sun 41 8/2/0 KS/AD9H/./... 5,3,.,K/Q,.,.,J - - #777

variant, moves played, progress (deals made / last ray opened / last ray gathered),
the 13 rays, the eight foundations' top ranks, the clouds, the wind row and the stock.
:func:`read_position` turns a string into a :class:`PositionState` (a frozen value,
checked by :func:`check_state`, the one place that says what a position may hold),
:func:`state_from_json` does the same for the position object of ``show --json``, and
:func:`write_position` writes a board's string. ``Board.from_position`` and
``Board.position`` are the public doors.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from sunlog.engine.cards import CARDS, Card, Rank, parse_card_spelling
from sunlog.engine.deal import MAX_DEAL, deal_deck
from sunlog.engine.errors import PositionError, PositionErrorCode, clip
from sunlog.engine.rules import DEALS, RAYS, RULES, PileKind, Stage, Variant

if TYPE_CHECKING:
    from sunlog.engine.state import BoardState

__all__ = [
    "FIELDS",
    "PositionError",
    "PositionErrorCode",
    "PositionState",
    "check_state",
    "position_variant",
    "read_position",
    "state_from_json",
    "write_position",
]

#: The fields of a position string, in order.
FIELDS = ("variant", "moves", "progress", "rays", "foundations", "clouds", "wind", "stock")
#: A position string is at most this long (the longest real one is under 300 characters).
MAX_LENGTH = 1000
#: An empty pile, and a list of piles (clouds, the wind row) not there at all.
EMPTY = "."
NONE = "-"
_UNKNOWN = "?"
_RANKS = tuple(rank.label for rank in Rank)  # as cards.py spells them
_RANK = {label: r for r, label in enumerate(_RANKS)} | {"T": 9}
_CARD = re.compile(r"(10|[2-9TAJQK])([SHDC])", re.IGNORECASE)
_FIELD = re.compile(r"[^ ]+")
_NUMBER = re.compile(r"[0-9]{1,20}")


@dataclass(frozen=True)
class PositionState:
    """A position as the string holds it. ``foundations`` are the eight piles' heights
    (each pile is a run of its suit from its base, so its height says all); ``stock`` is
    ``None`` when a deal number derives it or when it is not known."""

    variant: Variant
    moves: int
    deals: int
    opened: int
    gathered: int
    rays: tuple[tuple[Card, ...], ...]
    foundations: tuple[int, ...]
    clouds: tuple[tuple[Card, ...], ...]
    wind: tuple[Card, ...] | None
    deal: int | None
    stock: tuple[Card, ...] | None

    @property
    def stage(self) -> Stage:
        """The stage, which the progress says: the wind, a gather, an open, or none."""
        if self.wind is not None:
            return Stage.WIND
        if self.gathered:
            return Stage.SUNSET
        return Stage.SUN_PLAYS if self.opened else Stage.SUNRISE

    @property
    def open_ray(self) -> int | None:
        """The open ray: the last one opened, until the first gather."""
        return self.opened if self.opened and not self.gathered else None

    def piles(self) -> list[list[Card]]:
        """The eight foundation piles, base first."""
        kinds = RULES[self.variant.value].piles
        return [
            [CARDS[i % 4 * 13 + _rank(kinds[i], k)] for k in range(height)]
            for i, height in enumerate(self.foundations)
        ]

    def table(self) -> list[Card]:
        """Every card dealt: on the rays, the clouds, the wind row and the foundations."""
        piles = (*self.rays, *self.clouds, self.wind or ())
        cards = [c for pile in piles for c in pile]
        return cards + [c for pile in self.piles() for c in pile]

    def deck(self) -> list[Card] | None:
        """The deck a board from this position holds, top first: where the stock is
        written, the cards dealt (in card order: which deal brought which is not kept)
        then the stock; ``None`` when a deal number gives it or it is not known."""
        if self.stock is None or self.deals == DEALS:
            return None
        left = Counter(dict.fromkeys(CARDS, 2))
        left.subtract(self.stock)
        return sorted(left.elements()) + list(self.stock)


def _rank(kind: PileKind, k: int) -> int:
    """The rank (0..12) of the ``k``-th card from the base of a pile of ``kind``."""
    return k if kind is PileKind.ACES else 12 - k


# ------------------------------------------------------------------------- reading


def read_position(text: object) -> PositionState:
    """The position a string holds, checked; :class:`PositionError` otherwise."""
    if not isinstance(text, str):
        _wrong_type("a position string is text", text, PositionErrorCode.NOT_TEXT, "string")
    if len(text) > MAX_LENGTH:
        raise PositionError(
            f"a position string is at most {MAX_LENGTH} characters, not {len(text)}",
            PositionErrorCode.TOO_LONG,
            "string",
        )
    for i, char in enumerate(text):
        if not " " <= char <= "~" or char in '"\\':
            raise PositionError(
                f'{char!r} cannot appear in a position string (printable ASCII, no " or \\)',
                PositionErrorCode.BAD_CHARACTER,
                _field_at(text, i),
                i + 1,
            )
    found = [(m.start(), m.group()) for m in _FIELD.finditer(text)]
    if len(found) != len(FIELDS):
        raise PositionError(
            f"a position string has {len(FIELDS)} fields ({' '.join(FIELDS)}), not {len(found)}",
            PositionErrorCode.FIELD_COUNT,
            "string",
        )
    fields = dict(zip(FIELDS, found, strict=True))
    reader = _Reader(fields)
    state = reader.state()
    check_state(state, reader.column)
    return state


def position_variant(text: str) -> Variant | None:
    """The variant a position string names (its first field), or ``None`` when it names
    none: what a game's JSON says of a log whose Position tag stands for its Variant."""
    first = _FIELD.search(text)
    try:
        return None if first is None else Variant(first.group())
    except ValueError:
        return None


def _wrong_type(what: str, value: object, code: PositionErrorCode, field: str) -> NoReturn:
    """Refuse a value of the wrong type: ``what`` it should be, and what it is."""
    raise PositionError(f"{what}, not {type(value).__name__}", code, field)


def _field_at(text: str, i: int) -> str:
    """The name of the field the character at ``i`` stands in."""
    n = len(text[:i].split())
    if i < len(text) and text[i] != " " and i and text[i - 1] != " ":
        n -= 1
    return FIELDS[n] if n < len(FIELDS) else "string"


class _Reader:
    """The fields of one string, each read by its rule; errors carry the column."""

    def __init__(self, fields: dict[str, tuple[int, str]]) -> None:
        self.fields = fields

    def column(self, field: str) -> int:
        return self.fields[field][0] + 1

    def fail(self, message: str, code: PositionErrorCode, field: str, offset: int = 0) -> NoReturn:
        raise PositionError(message, code, field, self.fields[field][0] + offset + 1)

    def state(self) -> PositionState:
        variant_text = self.fields["variant"][1]
        try:
            variant = Variant(variant_text)
        except ValueError:
            self.fail(
                f"unknown variant {clip(variant_text)!r}: write sun, sun-2 or sun-3",
                PositionErrorCode.BAD_VARIANT,
                "variant",
            )
        moves = self.number("moves", 0, self.fields["moves"][1])
        progress = self.fields["progress"][1].split("/")
        if len(progress) != 3:
            self.fail(
                "progress is deals/opened/gathered, three numbers (as 8/2/0)",
                PositionErrorCode.FIELD_COUNT,
                "progress",
            )
        at = 0
        numbers = []
        for part in progress:
            numbers.append(self.number("progress", at, part))
            at += len(part) + 1
        deals, opened, gathered = numbers
        rays = self.piles("rays", self.fields["rays"][1], RAYS)
        clouds = self.piles("clouds", self.fields["clouds"][1], None)
        wind_text = self.fields["wind"][1]
        wind = None if wind_text == NONE else self.pile("wind", 0, wind_text)
        deal, stock = self.stock()
        return PositionState(
            variant,
            moves,
            deals,
            opened,
            gathered,
            tuple(rays),
            self.foundations(variant),
            tuple(clouds),
            wind,
            deal,
            stock,
        )

    def number(self, field: str, offset: int, text: str) -> int:
        if not _NUMBER.fullmatch(text):
            self.fail(
                f"expected a number, found {clip(text)!r}",
                PositionErrorCode.BAD_NUMBER,
                field,
                offset,
            )
        return int(text)

    def piles(self, field: str, text: str, count: int | None) -> list[tuple[Card, ...]]:
        """Piles one ``/`` apart (``count`` of them), or ``-`` for none (clouds)."""
        if count is None and text == NONE:
            return []
        parts = text.split("/")
        if count is not None and len(parts) != count:
            self.fail(
                f"{count} piles one / apart, not {len(parts)} (write . for an empty one)",
                PositionErrorCode.PILE_COUNT,
                field,
            )
        piles = []
        at = 0
        for part in parts:
            piles.append(self.pile(field, at, part))
            at += len(part) + 1
        return piles

    def pile(self, field: str, offset: int, text: str) -> tuple[Card, ...]:
        """Cards written one after another (``AC10H``), or ``.`` for an empty pile."""
        if text == EMPTY:
            return ()
        cards: list[Card] = []
        at = 0
        while at < len(text) or not cards:
            m = _CARD.match(text, at)
            if m is None:
                self.fail(
                    f"expected a card like QD or 10H, found {clip(text[at:])!r}"
                    + (" (write . for an empty pile)" if not text else ""),
                    PositionErrorCode.BAD_CARD,
                    field,
                    offset + at,
                )
            card = parse_card_spelling(m.group(0))
            assert card is not None  # _CARD takes only ASCII spellings of cards
            cards.append(card)
            at = m.end()
        return tuple(cards)

    def foundations(self, variant: Variant) -> tuple[int, ...]:
        """Two rows of four tops (S H D C), one / apart: a rank, or . for an empty pile."""
        text = self.fields["foundations"][1]
        rows = text.split("/")
        tops = [top for row in rows for top in row.split(",")]
        if len(rows) != 2 or len(tops) != 8:
            self.fail(
                "foundations are two rows of four tops, S,H,D,C/S,H,D,C (as 5,3,.,K/Q,.,.,J)",
                PositionErrorCode.PILE_COUNT,
                "foundations",
            )
        kinds = RULES[variant.value].piles
        heights = []
        at = 0
        for i, top in enumerate(tops):
            if top == EMPTY:
                heights.append(0)
            elif top.upper() in _RANK:
                rank = _RANK[top.upper()]
                heights.append(rank + 1 if kinds[i] is PileKind.ACES else 13 - rank)
            else:
                self.fail(
                    f"expected a rank (A, 2..10, J, Q, K) or . for an empty pile, "
                    f"found {clip(top)!r}",
                    PositionErrorCode.BAD_RANK,
                    "foundations",
                    at,
                )
            at += len(top) + 1
        return tuple(heights)

    def stock(self) -> tuple[int | None, tuple[Card, ...] | None]:
        """``#N`` (a deal number: the stock and the wind row derive from it), ``?`` (not
        known), or the cards, top first (``.`` when none are left)."""
        text = self.fields["stock"][1]
        if text == _UNKNOWN:
            return None, None
        if text.startswith("#"):
            number = self.number("stock", 1, text[1:])
            if number >= MAX_DEAL:
                self.fail(
                    f"a deal number is 0 to 2^64-1, not {number}",
                    PositionErrorCode.BAD_NUMBER,
                    "stock",
                    1,
                )
            return number, None
        return None, self.pile("stock", 0, text)


# ------------------------------------------------------------------------ checking


def check_state(state: PositionState, column: object = None) -> None:
    """Refuse a position no game can reach: the one list of what a position may hold.
    ``column`` (a field's name to its column) is given when the state came from a string."""

    def fail(message: str, code: PositionErrorCode, field: str) -> NoReturn:
        at = column(field) if callable(column) else None
        raise PositionError(message, code, field, at if isinstance(at, int) else None)

    rules = RULES[state.variant.value]
    deals, opened, gathered = state.deals, state.opened, state.gathered
    if deals > DEALS or opened > RAYS or gathered > RAYS:
        fail(
            f"at most {DEALS} deals and ray {RAYS}, not {deals}/{opened}/{gathered}",
            PositionErrorCode.IMPOSSIBLE_STAGE,
            "progress",
        )
    if opened and not rules.opens:
        fail(
            f"sun-2 has no stage 2: no ray is ever opened (write {deals}/0/{gathered})",
            PositionErrorCode.NO_STAGE_2,
            "progress",
        )
    if deals < DEALS and (opened or gathered):
        fail(
            f"rays are opened and gathered only after the 8th deal ({deals} made)",
            PositionErrorCode.IMPOSSIBLE_STAGE,
            "progress",
        )
    if state.moves < deals:
        fail(
            f"{deals} deals take {deals} moves, more than {state.moves}",
            PositionErrorCode.IMPOSSIBLE_STAGE,
            "moves",
        )
    if len(state.clouds) > gathered:
        fail(
            f"{len(state.clouds)} clouds, but a cloud is made only by a gather "
            f"({gathered} rays gathered)",
            PositionErrorCode.IMPOSSIBLE_STAGE,
            "clouds",
        )
    if state.wind is not None:
        if not gathered:
            fail(
                "the wind comes after the gathers (write - until the wind)",
                PositionErrorCode.IMPOSSIBLE_STAGE,
                "wind",
            )
        if any(state.clouds):
            fail(
                "the wind collects every cloud: after it each cloud is . (empty)",
                PositionErrorCode.IMPOSSIBLE_STAGE,
                "clouds",
            )
        if not rules.parks and any(state.rays):
            fail(
                "the wind collects every ray: after it each ray is . (empty) "
                "(only sun-3 parks cards on empty rays)",
                PositionErrorCode.IMPOSSIBLE_STAGE,
                "rays",
            )
    table = state.table()
    counts = Counter(table)
    if state.stock is not None:
        counts.update(state.stock)
    for card, n in counts.items():
        if n > 2:
            fail(
                f"{n} copies of {card}: there are only two of each card",
                PositionErrorCode.THIRD_COPY,
                _where(state, card),
            )
    if len(table) != deals * RAYS:
        fail(
            f"{deals} deals put {deals * RAYS} cards on the table, not {len(table)}",
            PositionErrorCode.CARD_COUNT,
            "rays",
        )
    left = (DEALS - deals) * RAYS
    if state.stock is not None and len(state.stock) != left:
        fail(
            f"after {deals} deals the stock holds {left} cards, not {len(state.stock)}",
            PositionErrorCode.CARD_COUNT,
            "stock",
        )
    if state.deal is not None:
        dealt = Counter(deal_deck(state.deal)[: deals * RAYS])
        if dealt != Counter(table):
            wrong = sorted((Counter(table) - dealt).elements())
            fail(
                f"the first {deals} deals of deal {state.deal} do not bring "
                + " ".join(map(str, wrong[:6])),
                PositionErrorCode.WRONG_STOCK,
                "stock",
            )


def _where(state: PositionState, card: Card) -> str:
    """The first field holding ``card`` (to name it in a refusal)."""
    if any(card in pile for pile in state.rays):
        return "rays"
    if any(card in pile for pile in state.clouds):
        return "clouds"
    if state.wind is not None and card in state.wind:
        return "wind"
    return "stock" if state.stock is not None and card in state.stock else "foundations"


# ------------------------------------------------------------------------- writing


def write_position(board: BoardState) -> str:
    """The position string of ``board``: what it needs to go on exactly as its game."""
    tops = []
    for pile in board.foundations:
        tops.append(_RANKS[pile[-1] % 13] if pile else EMPTY)
    clouds = board.clouds
    wind = board.wind_row
    stock = board.stock
    if board.deal_number is not None:
        stock_text = f"#{board.deal_number}"
    elif stock is None:
        stock_text = _UNKNOWN
    else:
        stock_text = _pile_text(stock)
    return " ".join(
        (
            board.variant.value,
            str(board.move_count),
            f"{board.deals}/{board.opened}/{board.gathered}",
            "/".join(map(_pile_text, board.rays)),
            ",".join(tops[:4]) + "/" + ",".join(tops[4:]),
            "/".join(map(_pile_text, clouds)) if clouds else NONE,
            NONE if wind is None else _pile_text(wind),
            stock_text,
        )
    )


def _pile_text(cards: Sequence[Card]) -> str:
    return "".join(map(str, cards)) if cards else EMPTY


# ---------------------------------------------------------------------------- JSON


def state_from_json(obj: object) -> PositionState:
    """The position a position object (``show --json``) holds, checked."""
    if not isinstance(obj, Mapping):
        _wrong_type(
            "a position object is a JSON object", obj, PositionErrorCode.BAD_OBJECT, "object"
        )
    get = _JsonFields(obj)
    variant_text = get.value("variant", str)
    try:
        variant = Variant(variant_text)
    except ValueError:
        raise PositionError(
            f"unknown variant {clip(str(variant_text))!r}",
            PositionErrorCode.BAD_VARIANT,
            "variant",
        ) from None
    deal = obj.get("deal")
    if deal is not None and (
        not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < MAX_DEAL
    ):
        raise PositionError(
            f"a deal number is 0 to 2^64-1 or null, not {clip(repr(deal))}",
            PositionErrorCode.BAD_NUMBER,
            "deal",
        )
    stock = None if obj.get("stock") is None else get.pile("stock", obj["stock"])
    wind = None if obj.get("wind_row") is None else get.pile("wind_row", obj["wind_row"])
    state = PositionState(
        variant,
        get.count("move_count"),
        get.count("deals"),
        get.count("opened"),
        get.count("gathered"),
        tuple(get.piles("rays")),
        get.foundations(variant),
        tuple(get.piles("clouds")),
        wind,
        deal,
        None if deal is not None else stock,
    )
    if deal is not None and stock is not None:
        expected = deal_deck(deal)[state.deals * RAYS :]
        if list(stock) != expected:
            raise PositionError(
                f"the stock is not what deal {deal} leaves after {state.deals} deals",
                PositionErrorCode.WRONG_STOCK,
                "stock",
            )
    check_state(state)
    for key, value in (("stage", state.stage.json), ("open_ray", state.open_ray)):
        if key in obj and obj[key] != value:
            raise PositionError(
                f"{clip(repr(obj[key]))} disagrees with the rest, which says {value!r}",
                PositionErrorCode.IMPOSSIBLE_STAGE,
                key,
            )
    return state


class _JsonFields:
    """The fields of a position object, each read with the name it has."""

    def __init__(self, obj: Mapping[object, object]) -> None:
        self.obj = obj

    def value(self, key: str, kind: type) -> object:
        if key not in self.obj:
            raise PositionError("missing", PositionErrorCode.BAD_OBJECT, key)
        value = self.obj[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise PositionError(
                f"expected {kind.__name__}, found {clip(repr(value))}",
                PositionErrorCode.BAD_OBJECT,
                key,
            )
        return value

    def count(self, key: str) -> int:
        value = self.value(key, int)
        assert isinstance(value, int)
        if value < 0:
            raise PositionError(
                f"expected a count, found {value}", PositionErrorCode.BAD_NUMBER, key
            )
        return value

    def pile(self, key: str, value: object) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise PositionError(
                f"expected a list of cards, found {clip(repr(value))}",
                PositionErrorCode.BAD_OBJECT,
                key,
            )
        cards = []
        for item in value:
            card = CARDS_BY_NAME.get(item) if isinstance(item, str) else None
            if card is None:
                raise PositionError(
                    f"expected a card like QD or 10H, found {clip(repr(item))}",
                    PositionErrorCode.BAD_CARD,
                    key,
                )
            cards.append(card)
        return tuple(cards)

    def piles(self, key: str) -> Iterator[tuple[Card, ...]]:
        value = self.value(key, list)
        assert isinstance(value, list)
        if key == "rays" and len(value) != RAYS:
            raise PositionError(f"{RAYS} rays, not {len(value)}", PositionErrorCode.PILE_COUNT, key)
        for i, pile in enumerate(value, 1):
            yield self.pile(f"{key}[{i}]", pile)

    def foundations(self, variant: Variant) -> tuple[int, ...]:
        """The heights of the eight piles, each checked to be a run from its base."""
        found = self.value("foundations", dict)
        assert isinstance(found, dict)
        kinds = RULES[variant.value].piles
        two = kinds[4] is PileKind.ACES
        piles: list[object] = [None] * 8
        for s, suit in enumerate("SHDC"):
            aces = found.get("aces", {}).get(suit) if isinstance(found.get("aces"), dict) else None
            if two:
                pair = aces if isinstance(aces, list) and len(aces) == 2 else [None, None]
                piles[s], piles[s + 4] = pair
            else:
                kings = found.get("kings")
                piles[s] = aces
                piles[s + 4] = kings.get(suit) if isinstance(kings, dict) else None
        heights = []
        for i, pile in enumerate(piles):
            name = f"foundations.{'aces' if i < 4 or two else 'kings'}.{'SHDC'[i % 4]}"
            cards = self.pile(name, pile)
            for k, card in enumerate(cards):
                if card != i % 4 * 13 + _rank(kinds[i], k):
                    raise PositionError(
                        f"{card} cannot lie there: a pile is a run of its suit from its "
                        "base, one rank at a time",
                        PositionErrorCode.PILE_ORDER,
                        name,
                    )
            heights.append(len(cards))
        return tuple(heights)


CARDS_BY_NAME = {str(card): card for card in CARDS}
