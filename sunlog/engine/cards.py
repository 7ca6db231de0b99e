"""Cards, ranks and suits of the two-deck game: parse and print their notation.

A card is stored as its index 0..51 (``suit * 13 + rank - 1``), an ``int`` subclass, so
the engine can keep piles as plain lists and compare cards as cheaply as integers.
"""

from __future__ import annotations

from enum import IntEnum

from sunlog.engine.errors import clip

__all__ = ["CARDS", "DECK_ORDER", "Card", "Rank", "Suit", "parse_card", "parse_card_spelling"]


class Suit(IntEnum):
    """The four suits, in the order of the ordered deck (SPEC 4.1)."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.H, Suit.D)

    @property
    def symbol(self) -> str:
        """The suit symbol, for display only (writers emit ASCII)."""
        return "♠♥♦♣"[self]


class Rank(IntEnum):
    """Ranks A..K with their values 1..13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        """Canonical spelling: ``A 2 .. 10 J Q K``."""
        return _RANK_LABELS[self - 1]


_RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class Card(int):
    """One card as its index ``suit * 13 + rank - 1``; ``str`` gives ``10H``, ``QD``..."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        """Return the shared instance for ``index`` (0..51); ``ValueError`` otherwise."""
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 52:
            return CARDS[index]
        raise ValueError(f"a card's index is 0 to 51, not {clip(repr(index))}")

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of ``rank`` (1..13) and ``suit``."""
        if not 1 <= rank <= 13:
            raise ValueError(f"no rank {rank}")
        return CARDS[int(suit) * 13 + int(rank) - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``10H``, ``TH``, ``th``, ``10♥``...; raise ``ValueError`` otherwise."""
        card = _BY_TEXT.get(text)
        if card is None:
            raise ValueError(f"expected a card like QD or 10H, found {clip(text)!r}")
        return card

    @property
    def rank(self) -> Rank:
        return Rank(self % 13 + 1)

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def is_red(self) -> bool:
        return 13 <= self < 39

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card({_NAMES[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
_NAMES = tuple(_RANK_LABELS[i % 13] + "SHDC"[i // 13] for i in range(52))

_SUIT_SPELLINGS = {
    Suit.S: ("S", "♠", "♤"),
    Suit.H: ("H", "♥", "♡"),
    Suit.D: ("D", "♦", "♢"),
    Suit.C: ("C", "♣", "♧"),
}
_BY_TEXT: dict[str, Card] = {}
for _suit, _spellings in _SUIT_SPELLINGS.items():
    for _value in range(1, 14):
        _labels = [_RANK_LABELS[_value - 1]] + (["T"] if _value == 10 else [])
        for _label in _labels:
            for _s in _spellings:
                for _spelling in {
                    _label + _s,
                    _label.lower() + _s,
                    _label + _s.lower(),
                    (_label + _s).lower(),
                }:
                    _BY_TEXT[_spelling] = CARDS[_suit * 13 + _value - 1]

#: The ordered deck of SPEC 4.1: copy 1 then copy 2, suits S H D C, ranks A..K.
DECK_ORDER: tuple[Card, ...] = CARDS + CARDS


def parse_card_spelling(text: str) -> Card | None:
    """The card ``text`` spells (any accepted spelling), or ``None``: no error made."""
    return _BY_TEXT.get(text)


def parse_card(text: str) -> Card:
    """Parse one card in any accepted spelling (see :meth:`Card.parse`)."""
    return Card.parse(text)
