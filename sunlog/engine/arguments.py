"""The arguments of :class:`~sunlog.engine.board.Board` and the cards a move names,
checked: a wrong one is refused with a message, never taken silently."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sunlog.engine.cards import CARDS, Card
from sunlog.engine.deal import MAX_DEAL
from sunlog.engine.errors import BoardArgumentError, IllegalMoveError, clip
from sunlog.engine.errors import MoveErrorCode as _C
from sunlog.engine.rules import Variant

__all__ = ["check_named_cards", "deal_argument", "deck_argument", "variant_argument"]


def variant_argument(variant: object) -> Variant:
    """The variant a :class:`Board` is made for: a :class:`Variant` or its name."""
    if isinstance(variant, Variant):
        return variant
    if not isinstance(variant, str):
        raise BoardArgumentError(
            f"a variant is sun, sun-2 or sun-3 (a Variant or its name), "
            f"not {type(variant).__name__} {clip(repr(variant))}"
        )
    try:
        return Variant.parse(variant)
    except ValueError as exc:
        raise BoardArgumentError(str(exc)) from None


def deal_argument(deal: object) -> int | None:
    """A deal number: ``None`` or a whole number 0 to 2^64-1 (not ``True``, not 1.5)."""
    if deal is None:
        return None
    if not isinstance(deal, int) or isinstance(deal, bool):
        raise BoardArgumentError(
            f"a deal number is a whole number 0 to 2^64-1, not {type(deal).__name__} "
            f"{clip(repr(deal))}"
        )
    if not 0 <= deal < MAX_DEAL:
        raise BoardArgumentError(f"a deal number is 0 to 2^64-1, not {deal}")
    return deal


def deck_argument(deck: object) -> list[Card]:
    """A deck: 104 cards, each of the 52 twice, top first."""
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise BoardArgumentError(f"a deck is a sequence of 104 Cards, not {type(deck).__name__}")
    cards = list(deck)
    strangers = [c for c in cards if not isinstance(c, Card)]
    if strangers:
        raise BoardArgumentError(
            f"a deck holds Cards, not {type(strangers[0]).__name__} {clip(repr(strangers[0]))}"
        )
    if len(cards) != 104:
        raise BoardArgumentError(f"a deck has 104 cards, not {len(cards)}")
    counts = Counter(cards)
    wrong = sorted(c for c in CARDS if counts[c] != 2)
    if wrong:
        details = ", ".join(f"{c} ×{counts[c]}" for c in wrong[:6])
        raise BoardArgumentError(f"a deck holds every card exactly twice; here: {details}")
    return cards


def check_named_cards(cards: tuple[Card, ...], what: str) -> None:
    """The cards a deal or the wind names must be Cards (a plain int is no card)."""
    for card in cards:
        if not isinstance(card, Card):
            raise IllegalMoveError(
                f"{what} names cards, not {type(card).__name__} {clip(repr(card))}",
                _C.NOT_A_CARD,
            )
