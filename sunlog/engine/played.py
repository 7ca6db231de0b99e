"""What a move did, as values a program can use without knowing the rules.

:meth:`Board.last_played <sunlog.engine.board.Board.last_played>` gives what the
move just pushed did (a :data:`Played`): a :class:`CardMoved` (where the card came from
and went to, as :data:`Spot` values), :class:`Dealt`, :class:`Opened`, :class:`Gathered`
or :class:`WindBlown`, each with the move's canonical form. :meth:`Board.playable` lists
the playable cards with their spots. The engine knows nothing of JSON:
:mod:`sunlog.notation.jsonio` writes these values out.
"""

from __future__ import annotations

from dataclasses import dataclass

from sunlog.engine.cards import Card, Suit
from sunlog.engine.moves import End, Move

__all__ = [
    "AcesSpot",
    "CardMoved",
    "CloudSpot",
    "Dealt",
    "Gathered",
    "KingsSpot",
    "Opened",
    "Played",
    "RaySpot",
    "Spot",
    "WindBlown",
    "WindSpot",
]


@dataclass(frozen=True, slots=True)
class RaySpot:
    """A place on ray ``ray``: ``depth`` counts from the outer end (1 = outer), ``None`` for
    a card parked on an empty ray (``sun-3``); ``open`` says the ray was the open ray."""

    ray: int
    depth: int | None = None
    open: bool = False


@dataclass(frozen=True, slots=True)
class CloudSpot:
    """An end of cloud ``cloud`` (a one-card cloud's card is its left end)."""

    cloud: int
    end: End


@dataclass(frozen=True, slots=True)
class WindSpot:
    """An end of the wind row (a one-card row's card is its left end)."""

    end: End


@dataclass(frozen=True, slots=True)
class AcesSpot:
    """The top of an aces pile: ``pile`` is 1, or 1 or 2 in ``sun-3``."""

    suit: Suit
    pile: int = 1


@dataclass(frozen=True, slots=True)
class KingsSpot:
    """The top of a kings pile (``sun`` and ``sun-2``)."""

    suit: Suit


#: Where a card is or goes.
Spot = RaySpot | CloudSpot | WindSpot | AcesSpot | KingsSpot


@dataclass(frozen=True, slots=True)
class _Done:
    """What every kind of move done holds: its canonical form (what ``fmt`` writes)."""

    canonical: Move


@dataclass(frozen=True, slots=True)
class CardMoved(_Done):
    """A card move: the card, the spot it left (as the position was before the move) and
    the spot it went to."""

    card: Card
    source: Spot
    target: Spot


@dataclass(frozen=True, slots=True)
class Dealt(_Done):
    """A stage-1 deal: the 13 cards dealt, ray 1 first."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Opened(_Done):
    """Stage 2: ray ``ray`` became the open ray."""

    ray: int


@dataclass(frozen=True, slots=True)
class Gathered(_Done):
    """Stage 3: ray ``ray`` taken whole (``cards``, inner to outer), dealt out as the
    (ray, card) pairs of ``dealt``, the rest laid as cloud number ``cloud`` (``None``: no
    cloud was made) holding ``cloud_cards`` left to right."""

    ray: int
    cards: tuple[Card, ...]
    dealt: tuple[tuple[int, Card], ...]
    cloud: int | None
    cloud_cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class WindBlown(_Done):
    """The wind: the row laid, left to right."""

    row: tuple[Card, ...]


#: What one move did: each kind holds the move's canonical form (``canonical``, what
#: ``fmt`` writes) and its effect.
Played = CardMoved | Dealt | Opened | Gathered | WindBlown
