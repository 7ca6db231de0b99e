"""sunlog: check, replay and convert logs of the two-deck patience Sun («Солнце»).

The engine (cards, deal numbers, moves, the board and its rules) imports nothing outside
the standard library::

    >>> from sunlog import Board, Move
    >>> board = Board("sun", deal=20261129)
    >>> board.push(Move.parse("deal"))
    >>> board.push(Move.parse("r1:AC>A"))
    >>> board.rays[0], board.aces_pile(3)
    ([], [Card('AC')])
"""

from sunlog.engine.board import RAYS, Board, Stage, Status, Variant
from sunlog.engine.cards import CARDS, Card, Rank, Suit, parse_card
from sunlog.engine.deal import SplitMix64, deal_deck, wind_row
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from sunlog.engine.moves import End, Move, MoveKind, Place, Target

__version__ = "0.1.0"

__all__ = [
    "CARDS",
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
    "__version__",
    "deal_deck",
    "parse_card",
    "wind_row",
]
