"""The notation: ``.sun`` logs read, replayed against the engine, written, and as JSON.

Imports the engine, never the views, the players or the CLI. Its modules: ``resources``
and ``terminals`` (the grammar and the patterns made from it), ``reader`` (splitting a
file into games; ``read_games``, ``read_headers``), ``tokens`` (the one tokenizer),
``scanner`` (the one state machine, telling a sink what it reads), ``sinks`` (a game, a
verdict on a board, the tags), ``syntax`` (the Lark grammar, to explain syntax errors),
``game`` (a game as written), ``replay`` (a game replayed on a board, with every check),
``quickcheck`` (``check``'s quick lane: the reader with a board sink), ``select``
(choosing games of an archive), ``writer`` (the
canonical text), ``jsonio`` (JSON both ways), ``jsonlayout`` (how JSON is laid out) and
``errors`` (a log's errors, with where they are and their kind).
"""

from sunlog.notation.errors import LogError, LogErrorCode, LogRuleError, LogSyntaxError
from sunlog.notation.game import Game, GameMove, Tag
from sunlog.notation.reader import (
    GameText,
    Headers,
    game_texts,
    parse_game_text,
    parse_games,
    read_games,
    read_headers,
)
from sunlog.notation.writer import write_game, write_games

__all__ = [
    "Game",
    "GameMove",
    "GameText",
    "Headers",
    "LogError",
    "LogErrorCode",
    "LogRuleError",
    "LogSyntaxError",
    "Tag",
    "game_texts",
    "parse_game_text",
    "parse_games",
    "read_games",
    "read_headers",
    "write_game",
    "write_games",
]
