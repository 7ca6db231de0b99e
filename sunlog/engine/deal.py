"""Deal numbers: SplitMix64, the Fisher–Yates deal and the wind shuffle (SPEC section 4)."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from functools import cache
from operator import mod, mul
from typing import TypeVar

from sunlog.engine.cards import DECK_ORDER, Card

__all__ = ["MAX_DEAL", "SplitMix64", "deal_deck", "shuffle", "wind_row"]

_T = TypeVar("_T")
_MASK = (1 << 64) - 1
#: Deal numbers are 0 <= N < MAX_DEAL.
MAX_DEAL = 1 << 64


#: Multiplies the generator's large ints. CPython runs signal handlers inside a long
#: multiplication, so a Ctrl-C can raise KeyboardInterrupt there; compiled by mypyc, an
#: ``int * int`` takes any failure for lack of memory and aborts the process, while a call
#: passes the exception on.
_times: Callable[[int, int], int] = mul

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
        z = _times(z ^ (z >> 30), _MIX1) & _MASK
        z = _times(z ^ (z >> 27), _MIX2) & _MASK
        return z ^ (z >> 31)

    def skip(self, draws: int) -> None:
        """Move on ``draws`` draws at once: each draw only adds the constant to the state."""
        self.state = (self.state + _times(draws, _GAMMA)) & _MASK


def shuffle(items: list[_T], rng: SplitMix64) -> None:
    """Fisher–Yates in place: for i from len-1 down to 1, swap items[i] and items[draw % (i+1)].

    Any list: the deal shuffles cards, the solver the indexes of a wind row.

    The draws are made all at once (a deal costs 103 draws of SplitMix64, most of a
    log's replay before this): each draw's state is the start plus a multiple of the
    constant (:meth:`SplitMix64.skip`), so every state is known before the first draw, and
    the mixing steps run on all of them together as one large integer of 128-bit lanes,
    one draw a lane (a 64-bit value times a 64-bit constant fits its lane; each step masks
    every lane back to 64 bits). The tests check it draws exactly what
    :meth:`SplitMix64.next` draws.
    """
    n = len(items) - 1
    if n < 1:
        return
    if n > _LANES_MAX:  # longer than a deck: one draw at a time
        state = rng.state
        for i in range(n, 0, -1):
            state = (state + _GAMMA) & _MASK
            z = _times(state ^ (state >> 30), _MIX1) & _MASK
            z = _times(z ^ (z >> 27), _MIX2) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        rng.state = state
        return
    ones, steps, mask, unpack, moduli = _lanes(n)
    z = (_times(rng.state, ones) + steps) & mask  # lane k: the state of draw k + 1
    z = _times((z ^ (z >> 30)) & mask, _MIX1) & mask
    z = _times((z ^ (z >> 27)) & mask, _MIX2) & mask
    z = (z ^ (z >> 31)) & mask
    draws = unpack(z.to_bytes(16 * n, "little"))  # each lane's low 64 bits
    for i, j in zip(range(n, 0, -1), map(mod, draws, moduli), strict=True):
        items[i], items[j] = items[j], items[i]
    rng.skip(n)


#: The most draws :func:`shuffle` makes at once: a deck's (a wind row is at most a deck).
_LANES_MAX = 103


@cache
def _lanes(draws: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]], range]:
    """For :func:`shuffle` of ``draws`` draws: a 1 in each 128-bit lane, each lane's multiple
    of the constant, the 64-bit mask of each lane, the lanes' unpacking (each lane's low 64
    bits, its high half skipped as padding), and the moduli."""
    ones = sum(1 << (128 * k) for k in range(draws))
    steps = sum(_times(k + 1, _GAMMA) << (128 * k) for k in range(draws))
    unpack = struct.Struct("<" + "Q8x" * draws).unpack
    return ones, steps, _times(_MASK, ones), unpack, range(draws + 1, 1, -1)


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
