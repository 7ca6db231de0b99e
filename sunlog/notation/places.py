"""Where a part of a move stands in its game's text: the move number written before it,
the k-th card a deal names.

A :class:`~sunlog.notation.game.Game` places each move by its first word only; a fault in
a part of it (a move number that is not the move's place, a third copy among a deal's
cards) is placed here, from the game's text, once the game has failed: nothing here runs
for a valid log.
"""

from __future__ import annotations

from sunlog.notation.game import Game, GameMove
from sunlog.notation.terminals import SPACES
from sunlog.notation.tokens import token_regex

__all__ = ["Place", "card_place", "number_place"]

#: A part of a move as written, and its line and column in the file.
Place = tuple[str, int, int]


def number_place(game: Game, gm: GameMove) -> Place | None:
    """The move number written before ``gm`` (``22.``), where it stands; ``None`` when
    the game's text is not known (a game read from JSON) or holds none there."""
    found = _offset(game, gm)
    if found is None:
        return None
    text, at = found
    number = None
    for m in token_regex().finditer(text, 0, len(text[:at].rstrip(SPACES))):
        number = m if m.lastgroup == "MOVE_NUMBER" else None
    if number is None:
        return None
    return number.group("MOVE_NUMBER"), *_line_column(game, text, number.start("MOVE_NUMBER"))


def card_place(game: Game, gm: GameMove, k: int) -> Place | None:
    """The ``k``-th card (from 0) that the deal or wind ``gm`` names, where it stands;
    ``None`` when the game's text is not known or names fewer cards there."""
    found = _offset(game, gm)
    if found is None:
        return None
    text, at = found
    cards = 0
    for m in token_regex().finditer(text, at):
        kind = m.lastgroup
        if kind in ("DEAL", "WIND") and m.start(kind) == at:
            continue
        if kind != "CARD":
            return None
        if cards == k:
            return m.group(kind), *_line_column(game, text, m.start(kind))
        cards += 1
    return None


def _offset(game: Game, gm: GameMove) -> tuple[str, int] | None:
    """The game's text and the offset in it of the move's first word."""
    text, line, column = game.text, gm.line, gm.column
    if text is None or line is None or column is None or game.line is None:
        return None
    start = 0
    for _ in range(line - game.line):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    first = game.column if line == game.line and game.column is not None else 1
    return text, start + column - first


def _line_column(game: Game, text: str, offset: int) -> tuple[int, int]:
    assert game.line is not None
    line = game.line + text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    if start == 0:
        return line, (game.column or 1) + offset
    return line, offset - start + 1
