"""The engine's errors: every one is a ``ValueError`` with a message a player understands."""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidMoveError",
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
