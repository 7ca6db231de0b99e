"""The quick lane of checking: the reader's state machine with a board for its sink.

Checking a game that is valid (nearly every game) needs neither a
:class:`~sunlog.notation.game.Game` of placed moves nor a replay afterwards: the reader
(:func:`~sunlog.notation.scanner.read_tokens`) pushes each move on a board as it reads
it (:class:`~sunlog.notation.sinks.BoardSink`). Whatever the board sink cannot vouch for
(a token that does not fit, an illegal move, a wrong result) sends the game the general
way: read into a game (or explained by Lark) and replayed, which says where and why. So
the quick lane only ever says "valid, n moves, result r".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TextIO

from sunlog.notation.game import Game
from sunlog.notation.reader import game_texts, parse_game_text
from sunlog.notation.scanner import Unfit, read_tokens
from sunlog.notation.sinks import BoardSink, ValidGame
from sunlog.notation.tokens import word_tokens

__all__ = ["ValidGame", "check_games", "quick_check"]


def check_games(source: TextIO | Iterable[str]) -> Iterator[ValidGame | Game]:
    """Each game of a text stream: its :class:`ValidGame` when the quick lane finds it valid,
    else the game as :func:`~sunlog.notation.read_games` reads it, for replay to judge.

    Faults of the stream as a whole raise as in :func:`~sunlog.notation.game_texts`.
    """
    for piece in game_texts(source):
        if piece.index:
            yield quick_check(piece.text, piece.index) or parse_game_text(piece)


def quick_check(text: str, index: int = 1) -> ValidGame | None:
    """One game's text as a :class:`ValidGame` when the quick lane finds it valid, else ``None``."""
    tokens = word_tokens(text)
    if tokens is None:
        return None  # white space the grammar does not take: the general way names it
    sink = BoardSink()
    try:
        read_tokens(tokens, sink)
        return sink.verdict(index)
    except (Unfit, ValueError):  # ValueError: the engine refuses a move
        return None
