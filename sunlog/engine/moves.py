"""Move values and their notation (SPEC 5.2): ``deal``, ``open 3``, ``r5:QD>K``...

A :class:`Move` is what a player wrote: short forms leave the source or the card out.
The board resolves a written move against a position and gives its canonical form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple

from sunlog.engine.cards import Card, parse_card_spelling
from sunlog.engine.errors import InvalidMoveError, MoveErrorCode, clip
from sunlog.engine.terminals import PATTERNS

__all__ = [
    "CARD_MOVE",
    "MAX_DIGITS",
    "End",
    "Move",
    "MoveKind",
    "Place",
    "Target",
]

#: A number in a move (a ray, a depth, a cloud, a move number) has at most this many
#: digits: more is no ray of any table, and Python refuses to convert 4300 digits.
MAX_DIGITS = 20


def check_digits(digits: str) -> str:
    """``digits``, or :class:`InvalidMoveError` when they are more than :data:`MAX_DIGITS`."""
    if len(digits) > MAX_DIGITS:
        raise InvalidMoveError(
            f"a number of {len(digits)} digits ({clip(digits, 15)}): the numbers of moves "
            f"(rays, depths, clouds, move numbers) have at most {MAX_DIGITS} digits",
            MoveErrorCode.TOO_MANY_DIGITS,
        )
    return digits


class _Enum(Enum):
    """An enum hashed by identity, as it compares: ``Enum.__hash__`` hashes the member's
    name in Python, a call on every dict lookup and every hash of a :class:`Move`."""

    __hash__ = object.__hash__


class MoveKind(_Enum):
    """What a move does: a stage action or a card move."""

    DEAL = "deal"
    OPEN = "open"
    GATHER = "gather"
    WIND = "wind"
    CARD = "card"


class Place(_Enum):
    """Where a card move takes its card from."""

    RAY = "r"
    CLOUD = "c"
    WIND = "w"
    ACES = "A"
    KINGS = "K"


class End(_Enum):
    """An end of a cloud or of the wind row."""

    LEFT = "L"
    RIGHT = "R"


class Target(_Enum):
    """Where a card move puts its card."""

    ACES = "A"
    ACES1 = "A1"
    ACES2 = "A2"
    KINGS = "K"
    RAY = "r"


#: One card move token: the grammar's ``CARD_MOVE`` terminal (generated from
#: ``grammar/sun.lark`` into :mod:`sunlog.engine.terminals`), the notation reader's own.
CARD_MOVE = re.compile(PATTERNS["CARD_MOVE"])
#: Logs repeat the same few thousand card move tokens: what each one read as (a cache).
PARSED_MOVES: dict[str, Move] = {}
_PARSED_MAX = 50_000
_TARGETS = {"A": Target.ACES, "A1": Target.ACES1, "A2": Target.ACES2, "K": Target.KINGS}


class Move(NamedTuple):
    """A move as written; fields a short form leaves out are ``None``.

    ``index`` is the ray of ``open``/``gather``, or the ray or cloud a card is taken from.
    ``depth`` counts from a ray's outer end (1 = outer); ``end`` picks a cloud's or the
    wind row's end. ``cards`` are the cards named by ``deal`` or ``wind``.
    """

    kind: MoveKind
    index: int | None = None  # type: ignore[assignment]  # a field, over tuple.index
    card: Card | None = None
    source: Place | None = None
    depth: int | None = None
    end: End | None = None
    target: Target | None = None
    target_ray: int | None = None
    cards: tuple[Card, ...] | None = None

    @classmethod
    def deal(cls, cards: Sequence[Card] | None = None) -> Move:
        """A stage-1 deal, optionally naming the 13 cards dealt (ray 1 first).
        :class:`InvalidMoveError` for cards that are not :class:`Card` values."""
        return cls(MoveKind.DEAL, cards=_named_cards(cards, "deal"))

    @classmethod
    def open(cls, ray: object) -> Move:
        """Stage 2: open ray ``ray`` (a whole number, as the notation writes it)."""
        return cls(MoveKind.OPEN, index=_ray_number(ray, "open"))

    @classmethod
    def gather(cls, ray: object) -> Move:
        """Stage 3: gather ray ``ray`` and deal it out."""
        return cls(MoveKind.GATHER, index=_ray_number(ray, "gather"))

    @classmethod
    def wind(cls, cards: Sequence[Card] | None = None) -> Move:
        """The wind, optionally naming its row left to right."""
        return cls(MoveKind.WIND, cards=_named_cards(cards, "wind"))

    @classmethod
    def parse(cls, text: object) -> Move:
        """Parse ``deal [C1..C13]``, ``open N``, ``gather N``, ``wind [C..]`` or a card move.

        Numbers are ASCII digits, as in the notation; anything else (``None`` too) raises
        :class:`InvalidMoveError`, a ``ValueError``. Typed ``object`` so that the compiled
        build refuses what is not text the same way, not with its own TypeError."""
        if not isinstance(text, str):
            raise InvalidMoveError(
                f"a move is text, not {type(text).__name__}", MoveErrorCode.NOT_A_MOVE
            )
        words = text.split()
        if not words:
            raise InvalidMoveError("empty move", MoveErrorCode.EMPTY_MOVE)
        head = words[0].lower()
        if head in ("deal", "wind"):
            cards = None
            if len(words) > 1:
                try:
                    cards = tuple(Card.parse(w) for w in words[1:])
                except ValueError as exc:
                    raise InvalidMoveError(str(exc), MoveErrorCode.BAD_CARD) from None
            return cls.deal(cards) if head == "deal" else cls.wind(cards)
        if head in ("open", "gather"):
            if len(words) != 2 or not (words[1].isascii() and words[1].isdigit()):
                raise InvalidMoveError(
                    f"expected a ray number after {head!r}", MoveErrorCode.NO_RAY_NUMBER
                )
            n = int(check_digits(words[1]))
            return cls.open(n) if head == "open" else cls.gather(n)
        if len(words) != 1:
            raise InvalidMoveError(
                f"a card move is one token without spaces: {text!r}",
                MoveErrorCode.SPACES_IN_CARD_MOVE,
            )
        return cls.parse_card_move(words[0])

    @classmethod
    def parse_card_move(cls, token: object) -> Move:
        """Parse a card move token such as ``r3.4:9S>A``, ``QH>K`` or ``c2>A``.

        Typed ``object`` so that the compiled build, too, refuses what is not text with
        :class:`InvalidMoveError` rather than its own TypeError."""
        if not isinstance(token, str):
            raise InvalidMoveError(
                f"a move is text, not {type(token).__name__}", MoveErrorCode.NOT_A_MOVE
            )
        move = PARSED_MOVES.get(token)
        if move is None:
            move = cls._parse_card_move(token)
            if len(PARSED_MOVES) >= _PARSED_MAX:
                PARSED_MOVES.clear()
            PARSED_MOVES[token] = move
        return move

    @classmethod
    def _parse_card_move(cls, token: str) -> Move:
        if CARD_MOVE.fullmatch(token) is None:
            raise InvalidMoveError(f"not a move: {clip(token)!r}", MoveErrorCode.NOT_A_MOVE)
        return _card_move_of(token)

    def __str__(self) -> str:
        kind = self.kind
        if kind is MoveKind.CARD:
            return self._card_text()
        if kind is MoveKind.OPEN or kind is MoveKind.GATHER:
            return f"{kind.value} {self.index}"
        if self.cards is None:
            return str(kind.value)
        return " ".join([kind.value, *map(str, self.cards)])

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def _card_text(self) -> str:
        source = self.source
        if source is None:
            text = ""
        else:
            if source is Place.RAY or source is Place.CLOUD:
                text = f"{source.value}{self.index}"
            else:
                text = source.value
            if self.depth is not None:
                text += f".{self.depth}"
            elif self.end is not None:
                text += f".{self.end.value}"
        if self.card is not None:
            text = f"{text}:{self.card}" if text else str(self.card)
        if self.target is Target.RAY:
            return f"{text}>r{self.target_ray}"
        assert self.target is not None
        return f"{text}>{self.target.value}"

    @property
    def is_stage_action(self) -> bool:
        """``deal``, ``open``, ``gather`` and ``wind`` are stage actions."""
        return self.kind is not MoveKind.CARD


def _ray_number(ray: object, action: str) -> int:
    """``ray`` when the notation could write it after ``open`` or ``gather`` (a whole number
    of at most :data:`MAX_DIGITS` digits), else :class:`InvalidMoveError`."""
    if not isinstance(ray, int) or isinstance(ray, bool):
        raise InvalidMoveError(
            f"{action}: a ray number is a whole number, not {clip(repr(ray))}",
            MoveErrorCode.NO_RAY_NUMBER,
        )
    if ray < 0 or len(str(ray)) > MAX_DIGITS:
        raise InvalidMoveError(
            f"{action}: a ray number is 0 or more, of at most {MAX_DIGITS} digits, "
            f"not {clip(str(ray))}",
            MoveErrorCode.NO_RAY_NUMBER,
        )
    return ray


def _named_cards(cards: object, action: str) -> tuple[Card, ...] | None:
    """The cards a deal or wind names, as a tuple of :class:`Card`; ``None`` for none named."""
    if cards is None:
        return None
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise InvalidMoveError(
            f"{action}: the cards named are a sequence of Card values", MoveErrorCode.NOT_A_CARD
        )
    named = tuple(cards)
    for card in named:
        if not isinstance(card, Card):
            raise InvalidMoveError(
                f"{action}: {clip(repr(card))} is not a Card (Card.parse('QD') makes one)",
                MoveErrorCode.NOT_A_CARD,
            )
    return named


_MOVE_NEW = tuple.__new__  # a Move of its nine fields, without NamedTuple's __new__
_CARD_KIND = MoveKind.CARD
_TARGETS_ANY_CASE = {**_TARGETS, **{text.lower(): target for text, target in _TARGETS.items()}}
_PILE_SOURCES = {"A": Place.ACES, "a": Place.ACES, "K": Place.KINGS, "k": Place.KINGS}
_NUMBERED_SOURCES = {"r": Place.RAY, "R": Place.RAY, "c": Place.CLOUD, "C": Place.CLOUD}


def _number(digits: str) -> int:
    return int(check_digits(digits))


def _card_move_of(token: str) -> Move:
    """The move of a token the grammar's ``CARD_MOVE`` matches whole, taken apart with str
    methods: ``SOURCE:CARD>TARGET``, ``SOURCE>TARGET`` or ``CARD>TARGET``, a SOURCE being
    a letter (r, c, w, A, K in either case) with a number and a ``.`` part as the letter
    takes them. Nothing is checked again but the length of its numbers."""
    head, _, tail = token.partition(">")
    target = _TARGETS_ANY_CASE.get(tail)
    target_ray = None
    if target is None:  # r and a ray number
        target, target_ray = Target.RAY, _number(tail[1:])
    card = parse_card_spelling(head)
    if card is not None:  # CARD>TARGET (no source begins as a card does)
        return _MOVE_NEW(Move, (_CARD_KIND, None, card, None, None, None, target, target_ray, None))
    source, colon, card_text = head.partition(":")
    card = parse_card_spelling(card_text) if colon else None
    index = depth = end = None
    place = _PILE_SOURCES.get(source)
    if place is None:
        number, dot, part = source[1:].partition(".")
        place = _NUMBERED_SOURCES.get(source[0], Place.WIND)
        if place is not Place.WIND:
            index = _number(number)
        if dot and place is Place.RAY:
            depth = _number(part)
        elif dot:
            end = End(part.upper())
    return _MOVE_NEW(Move, (_CARD_KIND, index, card, place, depth, end, target, target_ray, None))
