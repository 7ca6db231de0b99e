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
)
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.position import PositionError, PositionErrorCode

#: Whether ``sunlog.engine.board`` was loaded from a compiled extension module.
COMPILED: bool = isinstance(_board.__spec__.loader, ExtensionFileLoader)

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
    "deal_deck",
    "parse_card",
    "wind_row",
]
