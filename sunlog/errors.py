"""The engine's errors: every one is a ``ValueError`` with a message a player understands."""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidMoveError",
    "LogError",
    "LogRuleError",
    "LogSyntaxError",
]


#: How much of a long text (a move, a word) an error message shows.
CLIP = 40


def clip(text: str, limit: int = CLIP) -> str:
    """``text``, or its start and ``...`` when it is longer than ``limit``: a message about
    a hostile 200 kB word stays one readable line."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


class InvalidMoveError(ValueError):
    """The move text cannot be read at all (not a move of the notation)."""


class IllegalMoveError(ValueError):
    """The move is readable but the position does not allow it."""


class AmbiguousMoveError(ValueError):
    """A short form has legal readings that lead to different positions."""

    def __init__(self, message: str, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        #: The longer forms, one per reading, that the player could write instead.
        self.candidates = candidates


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
