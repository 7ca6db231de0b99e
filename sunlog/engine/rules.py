"""The rules of Sun written once (SPEC 3): what a foundation pile takes next, how a
gathered ray is dealt out, and what each variant changes.

The board, the policies' model and the solver keep positions in their own forms (lists
of cards, ranks per suit, bytes), but ask these functions and tables the same questions.
A foundation pile always holds a run of one suit from its base, so its height alone says
what it takes next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import Enum, IntEnum
from typing import Any, TypeVar, cast

from sunlog.engine.errors import clip

__all__ = [
    "DEALS",
    "NEXT_RANK",
    "RAYS",
    "RULES",
    "PileKind",
    "Stage",
    "Status",
    "Variant",
    "VariantRules",
    "gather_out",
    "holds",
    "next_rank",
    "takes",
]

#: Number of rays around the sun, and of deals in stage 1.
RAYS = 13
DEALS = 8

S = TypeVar("S", bound=Sequence[Any])


class Variant(Enum):
    """The three variants of the game."""

    SUN = "sun"
    SUN2 = "sun-2"
    SUN3 = "sun-3"

    @classmethod
    def parse(cls, text: str) -> Variant:
        """``sun``, ``sun-2`` or ``sun-3`` (case-insensitive)."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(
                f"unknown variant {clip(text)!r}: expected sun, sun-2 or sun-3"
            ) from None


class Stage(IntEnum):
    """The stage of play: 1 sunrise, 2 the sun plays, 3 sunset, then the wind."""

    SUNRISE = 1
    SUN_PLAYS = 2
    SUNSET = 3
    WIND = 4

    @property
    def json(self) -> int | str:
        """The stage as the position object writes it: 1, 2, 3 or ``"wind"``."""
        return "wind" if self is Stage.WIND else int(self)


class Status(Enum):
    """``playing``, ``won`` or ``lost`` as SPEC 3.7 defines them."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class PileKind(IntEnum):
    """A foundation pile built up from its ace, or down from its king."""

    ACES = 0
    KINGS = 1


def next_rank(kind: PileKind, height: int) -> int:
    """The rank (0 for an ace .. 12 for a king) a pile of ``height`` cards takes next, or
    -1 when it is complete: an aces pile holds A..``height`` and takes the next card up, a
    kings pile holds K down and takes the next card down (SPEC 3.1)."""
    if height >= 13:
        return -1
    return height if kind is PileKind.ACES else 12 - height


def takes(kind: PileKind, height: int, card: int) -> bool:
    """Whether a pile of ``card``'s suit with ``height`` cards takes ``card``."""
    return card % 13 == next_rank(kind, height)


#: :func:`next_rank` as a table: ``NEXT_RANK[kind][height]``.
NEXT_RANK = tuple(tuple(next_rank(kind, height) for height in range(14)) for kind in PileKind)


def holds(kind: PileKind, height: int, card: int) -> bool:
    """Whether a pile of ``card``'s suit with ``height`` cards holds a copy of ``card``:
    an aces pile holds the ranks below its height, a kings pile the top ones."""
    rank = card % 13
    return rank < height if kind is PileKind.ACES else rank > 12 - height


def gather_out(cards: S, n: int) -> tuple[S, S]:
    """Gathering ray ``n`` (SPEC 3.4): its cards, inner first, go one each onto rays
    ``n + 1``, ``n + 2``... up to ray 13; what is left over makes a new cloud. Returns
    (the cards dealt onto the following rays, in order; the cloud, empty if none)."""
    room = RAYS - n
    return cast(S, cards[:room]), cast(S, cards[room:])


@dataclass(frozen=True)
class VariantRules:
    """What a variant changes (SPEC 2): the kinds of its eight foundation piles (suits
    S H D C, then the second pile of each), and three switches."""

    #: The kind of each foundation pile, by index (suit, then suit + 4).
    piles: tuple[PileKind, ...]
    #: Stage 2 exists: rays can be opened (not in sun-2).
    opens: bool
    #: A card may wait on an empty ray (sun-3's temporary places).
    parks: bool
    #: A foundation's top may move onto the other pile of its suit (sun and sun-2); where
    #: false, cards on the foundations never move.
    shifts: bool
    #: Each suit has a first and a second aces pile (sun-3), not an aces and a kings pile.
    two_aces_piles: bool
    #: :func:`next_rank` of each pile for each height 0..13, as tables (the rule asked on
    #: every card move): ``next_rank[i][len(pile)] == card % 13`` when pile ``i`` takes it.
    next_rank: tuple[tuple[int, ...], ...]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Its class and its fields: compiled by mypyc, a frozen dataclass cannot take its
        state back by assignment, as pickle and deepcopy do."""
        return type(self), tuple(getattr(self, field.name) for field in fields(self))


def _variant(piles: tuple[PileKind, ...], opens: bool, parks: bool) -> VariantRules:
    two_aces_piles = piles[4] is PileKind.ACES
    tables = tuple(NEXT_RANK[kind] for kind in piles)
    return VariantRules(piles, opens, parks, not two_aces_piles, two_aces_piles, tables)


_ACES_AND_KINGS = (PileKind.ACES,) * 4 + (PileKind.KINGS,) * 4
#: The rules of each variant, by its name.
RULES = {
    "sun": _variant(_ACES_AND_KINGS, opens=True, parks=False),
    "sun-2": _variant(_ACES_AND_KINGS, opens=False, parks=False),
    "sun-3": _variant((PileKind.ACES,) * 8, opens=True, parks=True),
}
