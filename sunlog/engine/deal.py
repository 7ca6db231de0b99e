"""Deal numbers: SplitMix64, the Fisher–Yates deal and the wind shuffle (SPEC section 4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from sunlog.engine.cards import DECK_ORDER, Card

__all__ = ["MAX_DEAL", "SplitMix64", "deal_deck", "shuffle", "wind_row"]

_T = TypeVar("_T")
_MASK = (1 << 64) - 1
#: Deal numbers are 0 <= N < MAX_DEAL.
MAX_DEAL = 1 << 64


_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


class SplitMix64:
    """The SplitMix64 generator with a 64-bit state, exactly as SPEC 4.2 gives it."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        if not 0 <= state < MAX_DEAL:
            raise ValueError(f"a deal number is 0 to 2^64-1, not {state}")
        self.state = state

    def next(self) -> int:
        """Draw the next 64-bit value."""
        self.state = z = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def skip(self, draws: int) -> None:
        """Move on ``draws`` draws at once: each draw only adds the constant to the state."""
        self.state = (self.state + draws * _GAMMA) & _MASK


def shuffle(items: list[_T], rng: SplitMix64) -> None:
    """Fisher–Yates in place: for i from len-1 down to 1, swap items[i] and items[draw % (i+1)].

    Any list: the deal shuffles cards, the solver the indexes of a wind row.

    The generator is inlined here (a deal costs 103 draws, so it is worth the repetition);
    the tests check it draws exactly what :meth:`SplitMix64.next` draws.
    """
    state = rng.state
    for i in range(len(items) - 1, 0, -1):
        state = (state + _GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    rng.state = state


def deal_deck(number: int) -> list[Card]:
    """The 104-card stock of deal ``number``, top of the stock first."""
    deck = list(DECK_ORDER)
    shuffle(deck, SplitMix64(number))
    return deck


def wind_row(number: int, collected: Sequence[Card]) -> list[Card]:
    """The wind row of deal ``number``: ``collected`` shuffled by the generator after 103 draws."""
    rng = SplitMix64(number)
    rng.skip(len(DECK_ORDER) - 1)
    row = list(collected)
    shuffle(row, rng)
    return row
