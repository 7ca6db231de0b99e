"""sunlog: check, replay and convert logs of the two-deck patience Sun («Солнце»).

The engine (cards, deal numbers, moves, the board and its rules) imports nothing outside
the standard library::

    >>> from sunlog import Board, Move
    >>> board = Board("sun", deal=20261129)
    >>> board.push(Move.parse("deal"))
    >>> board.push(Move.parse("r1:AC>A"))
    >>> board.rays[0], board.aces_pile(3)
    ([], [Card('AC')])

The engine's names are re-exported, and imported on first use: ``import sunlog`` alone,
as every ``sunlog.x`` module does first, costs nothing, so ``sunlog --version`` does not
load the rules, and a Ctrl-C while they load reaches the command line's handler.
"""

from __future__ import annotations

# Not typing's, which costs more than the rest of this module: the type checker takes any
# TYPE_CHECKING for true.
TYPE_CHECKING = False
if TYPE_CHECKING:  # the names as the type checker sees them; at run time, __getattr__
    from sunlog.engine import (
        CARDS,
        COMPILED,
        DEALS,
        RAYS,
        AmbiguousMoveError,
        Board,
        BoardArgumentError,
        Card,
        End,
        IllegalMoveError,
        InvalidMoveError,
        Move,
        MoveErrorCode,
        MoveKind,
        Place,
        PositionError,
        PositionErrorCode,
        Rank,
        SplitMix64,
        Stage,
        Status,
        Suit,
        Target,
        Variant,
        deal_deck,
        parse_card,
        wind_row,
    )

__version__ = "0.3.0"

#: The public API: the engine's (``sunlog.engine.__all__``, a test holds the two the
#: same) and the version.
__all__ = [
    "CARDS",
    "COMPILED",
    "DEALS",
    "RAYS",
    "AmbiguousMoveError",
    "Board",
    "BoardArgumentError",
    "Card",
    "End",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveErrorCode",
    "MoveKind",
    "Place",
    "PositionError",
    "PositionErrorCode",
    "Rank",
    "SplitMix64",
    "Stage",
    "Status",
    "Suit",
    "Target",
    "Variant",
    "__version__",
    "deal_deck",
    "parse_card",
    "wind_row",
]


def __getattr__(name: str) -> object:
    """An engine name, imported from :mod:`sunlog.engine` when first asked for."""
    if name in __all__:
        from sunlog import engine

        value = getattr(engine, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sunlog' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with the engine's, imported or not."""
    return sorted({*globals(), *__all__})
