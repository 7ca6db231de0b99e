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

from sunlog import engine
from sunlog.engine import *  # noqa: F403  (the public API is the engine's, re-exported)

__version__ = "0.3.0"

__all__ = [*engine.__all__, "__version__"]
