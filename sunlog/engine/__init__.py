"""The engine: cards, deal numbers, moves, the board and its rules, and their errors.

The ground floor. It imports the standard library only, never another part of sunlog: the
rules know nothing of text files, JSON or terminals (a test holds this).

``COMPILED`` says which build runs: ``True`` when the engine was compiled by mypyc (the
optional compiled build of docs/solver.md), ``False`` for the pure-Python package.
"""

from importlib.machinery import ExtensionFileLoader

from sunlog.engine import board as _board
from sunlog.engine.board import DEALS, RAYS, Board, Stage, Status, Variant
from sunlog.engine.cards import CARDS, Card, Rank, Suit, parse_card
from sunlog.engine.deal import SplitMix64, deal_deck, wind_row
from sunlog.engine.errors import (
    AmbiguousMoveError,
    BoardArgumentError,
    IllegalMoveError,
    InvalidMoveError,
    MoveErrorCode,
    PositionError,
    PositionErrorCode,
)
from sunlog.engine.moves import End, Move, MoveKind, Place, Target

#: Whether ``sunlog.engine.board`` was loaded from a compiled extension module.
COMPILED: bool = isinstance(_board.__spec__.loader, ExtensionFileLoader)

#: The engine's public API, by the module each name comes from (``sunlog`` re-exports it).
__all__ = [  # noqa: RUF022 (grouped by module, as the imports)
    # the build
    "COMPILED",
    # cards and deal numbers
    "CARDS",
    "Card",
    "Rank",
    "SplitMix64",
    "Suit",
    "deal_deck",
    "parse_card",
    "wind_row",
    # moves
    "End",
    "Move",
    "MoveKind",
    "Place",
    "Target",
    # the board and its rules
    "DEALS",
    "RAYS",
    "Board",
    "Stage",
    "Status",
    "Variant",
    # errors: of a board's arguments, of a position string, of a move
    "BoardArgumentError",
    "PositionError",
    "PositionErrorCode",
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveErrorCode",
]
