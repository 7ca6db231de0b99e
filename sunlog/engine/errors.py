"""The engine's errors: every one is a ``ValueError`` with a message a player understands,
and a :class:`MoveErrorCode` saying what was wrong, for callers to branch on (never on the
wording, which may change)."""

from __future__ import annotations

from enum import Enum

__all__ = [
    "AmbiguousMoveError",
    "BoardArgumentError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveErrorCode",
    "PositionError",
    "PositionErrorCode",
]


#: How much of a long text (a move, a word) an error message shows.
CLIP = 40


def clip(text: str, limit: int = CLIP) -> str:
    """``text``, or its start and ``...`` when it is longer than ``limit``: a message about
    a hostile 200 kB word stays one readable line."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


class MoveErrorCode(Enum):
    """What was wrong with a move, named after the fault (one code, several wordings)."""

    # The text is no move (InvalidMoveError).
    EMPTY_MOVE = "empty-move"
    NOT_A_MOVE = "not-a-move"
    BAD_CARD = "bad-card"
    TOO_MANY_DIGITS = "too-many-digits"
    NO_RAY_NUMBER = "no-ray-number"
    SPACES_IN_CARD_MOVE = "spaces-in-card-move"
    # The position does not allow it (IllegalMoveError).
    NOT_DEALT_YET = "not-dealt-yet"
    GAME_WON = "game-won"
    DEALS_NOT_DONE = "deals-not-done"
    DEALS_DONE = "deals-done"
    DEAL_SIZE = "deal-size"
    DEAL_MISMATCH = "deal-mismatch"
    DECK_UNKNOWN = "deck-unknown"
    THIRD_COPY = "third-copy"
    NOT_A_CARD = "not-a-card"
    NO_STAGE_2 = "no-stage-2"
    NO_SUCH_RAY = "no-such-ray"
    NO_SUCH_CLOUD = "no-such-cloud"
    NO_WIND_ROW = "no-wind-row"
    AFTER_WIND = "after-wind"
    STAGE_PASSED = "stage-passed"
    OUT_OF_ORDER = "out-of-order"
    NOT_GATHERED = "not-gathered"
    WIND_BLOWN = "wind-blown"
    WIND_ROW_UNNAMED = "wind-row-unnamed"
    WIND_ROW_WRONG = "wind-row-wrong"
    EMPTY_PILE = "empty-pile"
    NOT_PLAYABLE = "not-playable"
    NOT_THERE = "not-there"
    IN_STOCK = "in-stock"  # the card named has not been dealt yet: a deal left out?
    BASE_NEVER_MOVES = "base-never-moves"
    NO_TARGET = "no-target"
    WRONG_TARGET = "wrong-target"
    NO_FIT = "no-fit"
    RAY_NOT_EMPTY = "ray-not-empty"
    ALREADY_THERE = "already-there"
    EMPTY_FOUNDATION = "empty-foundation"
    # Several readings with different results (AmbiguousMoveError).
    AMBIGUOUS = "ambiguous"


class InvalidMoveError(ValueError):
    """The move text cannot be read at all (not a move of the notation)."""

    def __init__(self, message: str, code: MoveErrorCode = MoveErrorCode.NOT_A_MOVE) -> None:
        super().__init__(message)
        #: What was wrong: callers branch on this, never on the message.
        self.code = code


class IllegalMoveError(ValueError):
    """The move is readable but the position does not allow it."""

    def __init__(
        self,
        message: str,
        code: MoveErrorCode = MoveErrorCode.NOT_PLAYABLE,
        *,
        writes: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        #: What was wrong: callers branch on this, never on the message.
        self.code = code
        #: What the message advises writing instead (moves or targets), if it does.
        self.writes = writes


class AmbiguousMoveError(ValueError):
    """A short form has legal readings that lead to different positions."""

    def __init__(self, message: str, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        #: The longer forms, one per reading, that the player could write instead.
        self.candidates = candidates
        #: What the message advises writing instead: the candidates.
        self.writes = candidates
        #: Always :attr:`MoveErrorCode.AMBIGUOUS`, as the other errors carry theirs.
        self.code = MoveErrorCode.AMBIGUOUS


class BoardArgumentError(ValueError):
    """A :class:`~sunlog.engine.board.Board` was made with an argument it cannot take
    (a variant, deal number or deck of the wrong kind or value)."""


class PositionErrorCode(Enum):
    """What was wrong with a position string or object (callers branch on these)."""

    NOT_TEXT = "not-text"
    BAD_CHARACTER = "bad-character"
    TOO_LONG = "too-long"
    FIELD_COUNT = "field-count"
    BAD_VARIANT = "bad-variant"
    BAD_NUMBER = "bad-number"
    BAD_CARD = "bad-card"
    PILE_COUNT = "pile-count"
    BAD_RANK = "bad-rank"
    PILE_ORDER = "pile-order"
    NO_STAGE_2 = "no-stage-2"
    IMPOSSIBLE_STAGE = "impossible-stage"
    THIRD_COPY = "third-copy"
    CARD_COUNT = "card-count"
    WRONG_STOCK = "wrong-stock"
    BAD_OBJECT = "bad-object"


class PositionError(ValueError):
    """A position string or object that cannot be read, or holds a position no game can
    reach: the message names the field (and, in a string, the column, 1-based)."""

    def __init__(
        self, message: str, code: PositionErrorCode, field: str, column: int | None = None
    ) -> None:
        where = field if column is None else f"column {column} ({field})"
        super().__init__(f"position {where}: {message}")
        self.code = code
        self.field = field
        self.column = column
