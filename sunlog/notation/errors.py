"""The notation's errors: a log that cannot be read or replayed, with where it went wrong."""

from __future__ import annotations

from sunlog.engine.errors import clip

__all__ = [
    "CARD_EXPECTED",
    "NEEDS_TARGET",
    "NO_SUIT",
    "TARGET_EXPECTED",
    "LogError",
    "LogRuleError",
    "LogSyntaxError",
]

#: How the syntax errors of a card move written without its target begin (``3D``,
#: ``r2:AD``, ``r2:AD>``): a fault whose fix the position can tell, so replay adds it.
NEEDS_TARGET = "a card move needs a target"
TARGET_EXPECTED = "expected a target after '>'"
#: How the syntax errors of an unreadable card after ``SOURCE:`` begin (``r4:3X>A``,
#: ``r5:Q>K``, ``r4:``): after a ray, replay adds the card that ray shows.
CARD_EXPECTED = "expected a card like QD or 10H after ':'"
NO_SUIT = "after ':' has no suit"


class LogError(ValueError):
    """A log that cannot be read or replayed, with where it went wrong.

    ``game`` is the game's 1-based index in its file, ``move`` the 1-based index of the
    move at fault (``None`` when the fault is in the tags or the result), ``line`` and
    ``column`` 1-based, ``text`` the move as written. ``path`` is filled in by callers
    that know the file.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        move: int | None = None,
        text: str | None = None,
        game: int | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.move = move
        self.text = text
        self.game = game
        self.path = path

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.path, self.line, self.column) if p is not None)
        what = ""
        if self.move is not None:
            what = f"move {self.move}"
            if self.text is not None:
                what += f" {clip(self.text)!r}"
            what += ": "
        return f"{where}: {what}{self.message}" if where else f"{what}{self.message}"

    def to_json(self) -> dict[str, object]:
        """The ``error`` object of ``sunlog check --json`` (SPEC 7)."""
        return {
            "move": self.move,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }


class LogSyntaxError(LogError):
    """The text is not in the notation (SPEC 5)."""


class LogRuleError(LogError):
    """The text reads well but breaks a rule: an illegal move, bad tags, a false result."""
