"""The solver's compact position and its move tables (docs/solver.md).

The search runs on its own copy of the position: rays and rows as ``bytes``, one small
code per suit for its two foundation piles. The tables say, for each code and card, the
code after the card goes on; they are built from the shared rules (:func:`~sunlog.engine.
rules.takes`), so the solver asks the same questions as the board. :func:`position_key`
is the exact key of a real board's position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sunlog.engine.board import RAYS, Board, Variant
from sunlog.engine.rules import PileKind, takes

__all__ = ["State", "position_key"]


# ------------------------------------------------------------------ position key


def position_key(board: Board) -> bytes:
    """A compact key of ``board``'s position, equal exactly when the positions are equal.

    Every field of :meth:`Board.key` is written length-prefixed, so the encoding is
    injective; the move history does not count.
    """
    out = bytearray(
        (
            _VARIANT_CODE[board.variant],
            board.deals,
            board.open_ray or 0,
            board.opened,
            board.gathered,
            int(board.stage),
        )
    )
    _put(out, board.stock)
    for ray in board.rays:
        _put(out, ray)
    for pile in board.foundations:
        _put(out, pile)
    out.append(len(board.clouds))
    for cloud in board.clouds:
        _put(out, cloud)
    _put(out, board.wind_row)
    return bytes(out)


_VARIANT_CODE = {Variant.SUN: 0, Variant.SUN2: 1, Variant.SUN3: 2}
_NONE = 255  # the length byte of an absent list (lists hold at most 104 cards)


def _put(out: bytearray, cards: Sequence[int] | None) -> None:
    if cards is None:
        out.append(_NONE)
    else:
        out.append(len(cards))
        out.extend(cards)


# ------------------------------------------------------------- foundation tables
#
# The search keeps one code per suit. In sun and sun-2 it is ``a * 14 + k`` for the heights
# a (aces pile) and k (kings pile). Between-foundation moves are possible exactly when
# a + k == 13 and both piles hold more than their base can hide: then any split with
# 1 <= a <= 12 can be reached from any other, back and forth, so those twelve positions
# are one class and the search stores it as (1, 12). In sun-3 the code is ``lo * 14 + hi``
# of the two aces piles' heights, sorted (the two piles are interchangeable).

COMPLETE = 13 * 14 + 13
FLUID = 1 * 14 + 12


def fluid(a: int, k: int) -> bool:
    return a + k == 13 and 1 <= a <= 12


def sun_code(a: int, k: int) -> int:
    return FLUID if fluid(a, k) else a * 14 + k


def _sun_fit(a: int, k: int, rank: int) -> int:
    """The suit's code after a card of ``rank`` (1..13) goes onto it, or -1 if none fits.

    From the fluid class a card of rank r always ends as aces A..r and kings K..r, whichever
    pile takes it. Where both piles take the card from a fixed split, the choice that lands
    in the fluid class is kept: it can do everything the other can (docs/solver.md).
    """
    if fluid(a, k):
        return sun_code(rank, 14 - rank)
    options = []
    if takes(PileKind.ACES, a, rank - 1):
        options.append((rank, k))
    if takes(PileKind.KINGS, k, rank - 1):
        options.append((a, k + 1))
    if not options:
        return -1
    for new_a, new_k in options:
        if fluid(new_a, new_k):
            return FLUID
    return sun_code(*options[0])


def _sun3_fit(lo: int, hi: int, rank: int) -> int:
    if takes(PileKind.ACES, lo, rank - 1):
        lo = rank
    elif takes(PileKind.ACES, hi, rank - 1):
        hi = rank
    else:
        return -1
    return min(lo, hi) * 14 + max(lo, hi)


def _fit_table(fit: Any) -> tuple[int, ...]:
    """``table[code * 13 + rank - 1]``: the code after the card, or -1."""
    return tuple(fit(code // 14, code % 14, r) for code in range(14 * 14) for r in range(1, 14))


def want_table(fit: tuple[int, ...]) -> tuple[int, ...]:
    """``table[suit * 256 + code]``: a bit mask of the cards of ``suit`` that fit on it."""
    table = [0] * 1024
    for suit in range(4):
        for code in range(14 * 14):
            for r in range(13):
                if fit[code * 13 + r] >= 0:
                    table[suit * 256 + code] |= 1 << (suit * 13 + r)
    return tuple(table)


SUN_FIT = _fit_table(_sun_fit)
#: ``UP[code]``: how many of the suit's 26 cards its piles hold (either variant's code).
UP = bytes(code // 14 + code % 14 for code in range(14 * 14))
SUN3_FIT = _fit_table(_sun3_fit)
SUIT = bytes(c // 13 for c in range(52))
SUIT_OF = bytes(c // 13 if c < 52 else 4 for c in range(256))  # for bytes.translate
RANK = bytes(c % 13 for c in range(52))

# ------------------------------------------------------------------ search state

# Abstract moves: (kind, ...). Card moves: (kind, place, index, pos, card[, ray]).
Step = tuple[int, ...]
FOUND, PARK, DEAL, OPEN, GATHER, WIND = range(6)
RAY, CLOUD, ROW = range(3)
DEAL_MOVE: Step = (DEAL,)
NO_RAYS = (b"",) * RAYS
# Typed Step, not tuple[int]: mypyc keeps a fixed-length tuple unboxed and boxes it anew
# at each use, so `move is WIND_MOVE` would never hold in the compiled build.
WIND_MOVE: Step = (WIND,)


class State:
    """One position in the search's compact form (immutable once made).

    ``rays`` and ``clouds`` are tuples of ``bytes`` (inner/left card first), ``row`` the
    wind row still on the table, ``found`` one code per suit; ``open_ray`` is 1-based, 0
    for none. Emptied clouds stay so that cloud numbers match the board's.
    """

    # Not a dataclass: one is made for every position searched, and compiled by mypyc a
    # dataclass's generated __init__ stays interpreted (bench_solver.py: 11% slower).
    __slots__ = (
        "clouds",
        "deals",
        "found",
        "gathered",
        "open_ray",
        "opened",
        "rays",
        "row",
        "stage",
    )

    def __init__(
        self,
        rays: tuple[bytes, ...],
        clouds: tuple[bytes, ...],
        row: bytes | None,
        found: bytes,
        deals: int,
        stage: int,
        opened: int,
        open_ray: int,
        gathered: int,
    ) -> None:
        self.rays, self.clouds, self.row, self.found = rays, clouds, row, found
        self.deals, self.stage, self.opened = deals, stage, opened
        self.open_ray, self.gathered = open_ray, gathered

    @classmethod
    def from_board(cls, board: Board) -> State:
        found = board.foundations
        sizes = [(len(found[s]), len(found[s + 4])) for s in range(4)]
        if board.rules.two_aces_piles:
            codes = bytes(min(a, b) * 14 + max(a, b) for a, b in sizes)
        else:
            codes = bytes(sun_code(a, k) for a, k in sizes)
        return cls(
            tuple(bytes(r) for r in board.rays),
            tuple(bytes(c) for c in board.clouds),
            None if board.wind_row is None else bytes(board.wind_row),
            codes,
            board.deals,
            int(board.stage),
            board.opened,
            board.open_ray or 0,
            board.gathered,
        )


COMPLETE4 = bytes((COMPLETE,)) * 4
#: ``WANTED[suit * 256 + code]``: the cards of ``suit`` that fit on its code (sun, sun-2).
WANTED = tuple(
    bytes(suit * 13 + r for r in range(13) if code < 196 and SUN_FIT[code * 13 + r] >= 0)
    for suit in range(4)
    for code in range(256)
)
