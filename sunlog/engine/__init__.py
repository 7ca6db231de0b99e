"""The engine: cards, deal numbers, moves, the board and its rules, and their errors.

The ground floor. It imports the standard library only, never another part of sunlog: the
rules know nothing of text files, JSON or terminals (a test holds this).
"""

from sunlog.engine.board import DEALS, RAYS, Board, Stage, Status, Variant
from sunlog.engine.cards import CARDS, Card, Rank, Suit, parse_card
from sunlog.engine.deal import SplitMix64, deal_deck, wind_row
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from sunlog.engine.moves import End, Move, MoveKind, Place, Target

__all__ = [
    "CARDS",
    "DEALS",
    "RAYS",
    "AmbiguousMoveError",
    "Board",
    "Card",
    "End",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveKind",
    "Place",
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
