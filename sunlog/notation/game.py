"""A game as recorded in a log: tags, moves as written, comments, result (SPEC 5).

These values hold what the player wrote, with where they wrote it; replaying them
against the rules is :mod:`sunlog.notation.replay`'s job, reading and writing text
:mod:`sunlog.notation`'s, JSON :mod:`sunlog.notation.jsonio`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from sunlog.engine.moves import Move
from sunlog.notation.errors import LogError

__all__ = ["RESULTS", "Game", "GameMove", "Tag", "result_of_token"]

#: The result tokens: won, lost, and ``*`` for unfinished.
RESULTS = ("won", "lost", "*")


def result_of_token(token: str) -> str:
    """``won``, ``lost`` or ``*`` for a RESULT token as the grammar reads it: in any case,
    with Unicode case folding (``WON``, and even ``loſt`` with a long s)."""
    if token == "*":
        return "*"
    return "won" if token[0] in "wW" else "lost"


class Tag(NamedTuple):
    """One tag ``[Name "value"]``; ``value`` is unescaped."""

    name: str
    value: str
    line: int | None = None
    column: int | None = None


class GameMove(NamedTuple):
    """One move as written, with its move number, annotation, comments and place.

    A named tuple rather than a dataclass: a reader makes one per move, so it must be cheap.
    """

    move: Move
    text: str
    number: int | None = None
    annotation: str | None = None
    comments: tuple[str, ...] = ()
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a log: its tags in order, its moves and its result token.

    ``result`` is the result token as written (``None`` when the game ended at the next
    tag section or the end of the file). ``comments`` stand before the first move;
    ``final_comments`` follow the result of a file's last game. ``error`` is the syntax
    error that cut the game short, if any: ``moves`` then holds the moves before it.
    ``text`` is the game's text as read, from ``line``:``column`` of its file (``None``
    for a game not read from text): a fault in a part of a move is placed from it.
    """

    tags: tuple[Tag, ...] = ()
    moves: tuple[GameMove, ...] = ()
    result: str | None = None
    comments: tuple[str, ...] = ()
    final_comments: tuple[str, ...] = ()
    index: int = 1
    line: int | None = None
    column: int | None = None
    result_line: int | None = None
    result_column: int | None = None
    error: LogError | None = field(default=None, compare=False)
    text: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of_moves(
        cls, moves: Iterable[Move], tags: Iterable[Tag] = (), result: str | None = None
    ) -> Game:
        """A game of moves as played (each written in its own notation), e.g. a board's
        ``move_stack``: what ``play``, ``solve`` and the samples write out."""
        return cls(tags=tuple(tags), moves=tuple(GameMove(m, str(m)) for m in moves), result=result)

    def tag(self, name: str) -> str | None:
        """The value of the first tag called ``name``, or ``None``."""
        for tag in self.tags:
            if tag.name == name:
                return tag.value
        return None

    @property
    def claimed_result(self) -> str:
        """SPEC 5.3: the result token, else the ``Result`` tag, else ``*``; always ``won``,
        ``lost`` or ``*`` (a tag in another case reads as its word; a tag that is no result
        claims nothing, and replay reports it)."""
        if self.result:
            return self.result
        tag = self.tag("Result")
        return tag.lower() if tag is not None and tag.lower() in RESULTS else "*"

    @property
    def result_claim(self) -> str | None:
        """What the game claims (:attr:`claimed_result`), or ``None`` when its ``Result``
        tag is no result at all (``maybe``): what ``check --json`` reports."""
        tag = self.tag("Result")
        if self.result is None and tag is not None and tag.lower() not in RESULTS:
            return None
        return self.claimed_result
