"""The notation's errors: a log that cannot be read or replayed, with where it went wrong."""

from __future__ import annotations

from enum import Enum

from sunlog.engine.errors import clip

__all__ = [
    "CARD_EXPECTED",
    "END_OF_GAME",
    "NEEDS_TARGET",
    "NEW_GAME_ADVICE",
    "NO_SUIT",
    "RESULT_EXPECTED",
    "TARGET_EXPECTED",
    "LogAdvice",
    "LogError",
    "LogErrorCode",
    "LogRuleError",
    "LogSyntaxError",
]

#: The words of the syntax errors of a card move written without its target (``3D``,
#: ``r2:AD``, ``r2:AD>``), and of an unreadable card after ``SOURCE:`` (``r4:3X>A``,
#: ``r5:Q>K``, ``r4:``). Their kinds are told by :class:`LogErrorCode`, never by these.
NEEDS_TARGET = "a card move needs a target"
TARGET_EXPECTED = "expected a target after '>'"
CARD_EXPECTED = "expected a card like QD or 10H after ':'"
NO_SUIT = "after ':' has no suit"
#: What a message calls the end of a game's text; one made with it says so
#: (:attr:`LogError.at_end`), so that ``record`` can call it the end of the typed line.
END_OF_GAME = "the end of the game"


class LogErrorCode(Enum):
    """What kind of fault a :class:`LogError` is: callers branch on this, never on the
    message, whose words may change. The value is what ``check --json`` writes."""

    # The text is not in the notation (LogSyntaxError).
    SYNTAX = "syntax"
    """A word or mark the notation has no place for (the general case)."""
    TARGET_EXPECTED = "target-expected"
    """A card move without its target, or with one that is no target (``3D``, ``3D>Q``)."""
    CARD_EXPECTED = "card-expected"
    """No card can be read after ``SOURCE:`` (``r4:3X>A``, ``r5:Q>K``, ``r4:``)."""
    DEAL_LEFT_OUT = "deal-left-out"
    """A line of 13 cards without ``deal`` before them (``3H 5S ... JC``)."""
    LOOK_ALIKE = "look-alike"
    """A letter of another alphabet drawn like the notation's (a Cyrillic ``А``, a
    full-width ``Ａ``)."""
    INVISIBLE = "invisible"
    """A character drawn as nothing in a word (a byte order mark, a zero-width space)."""
    MISSPELLED = "misspelled"
    """A word a slip away from a move word (``dael``, ``gahter``, ``wnid``)."""
    NOT_UTF8 = "not-utf8"
    """The file is not UTF-8 text."""
    TOO_LONG = "too-long"
    """A line or a game beyond the reader's limits."""
    NO_GAME = "no-game"
    """The file holds no game."""
    NOT_JSON = "not-json"
    """A ``.json`` file whose text is not JSON (nor JSON Lines)."""
    NOT_A_DOCUMENT = "not-a-document"
    """JSON that is not a sunlog document: another format, or a value of the wrong shape."""
    # The text reads well but breaks a rule (LogRuleError).
    TAG = "tag"
    """A tag given twice, or one whose value is wrong (Variant, Deal, Deck, Result)."""
    POSITION = "position"
    """A Position tag whose string cannot be read, or that Variant, Deal or Deck contradict."""
    MOVE_NUMBER = "move-number"
    """A move number that is not the move's place in the game."""
    ILLEGAL_MOVE = "illegal-move"
    """A move the position does not allow (the engine's refusal)."""
    AMBIGUOUS_MOVE = "ambiguous-move"
    """A short form whose readings lead to different positions (SPEC 5.2)."""
    RESULT_MISMATCH = "result-mismatch"
    """The result token and the Result tag disagree."""
    FALSE_RESULT = "false-result"
    """A game claimed won or lost that is not."""
    MOVES_ONLY = "moves-only"
    """``record`` was typed a result token or a tag, which it writes itself."""
    UNKNOWN_WORD = "unknown-word"
    """A word that is no move where a move (or the result token) may stand."""


#: What an unknown word's message offers besides a move (:class:`LogAdvice` ``RESULT``).
RESULT_EXPECTED = " or a result (won, lost, *)"
#: Said after an error that a game run on into the next one would make.
NEW_GAME_ADVICE = (
    "; if a new game begins here, end the one before with its result token (won, lost "
    "or *) or begin this one with its tags"
)


class LogAdvice(Enum):
    """Advice a message gives that only a whole log can follow: a result token or tags to
    write. ``record`` writes those itself and refuses them when typed, so it drops this
    advice from what it says (branching on these, never on the words)."""

    NEW_GAME = "new-game"
    """The message ends with :data:`NEW_GAME_ADVICE`."""
    RESULT = "result"
    """The message offers a result token among the words expected (:data:`RESULT_EXPECTED`)."""

    @property
    def words(self) -> str:
        """The advice as the message holds it."""
        return NEW_GAME_ADVICE if self is LogAdvice.NEW_GAME else RESULT_EXPECTED


class LogError(ValueError):
    """A log that cannot be read or replayed, with where it went wrong.

    ``game`` is the game's 1-based index in its file, ``move`` the 1-based index of the
    move at fault (``None`` when the fault is in the tags or the result), ``line`` and
    ``column`` 1-based, ``text`` the move as written. ``path`` is filled in by callers
    that know the file. ``code`` says what kind of fault it is; ``at_end`` that the
    message names the end of the game's text (:data:`END_OF_GAME`) as where it went wrong;
    ``advice`` the advice it gives that only a whole log can follow (:class:`LogAdvice`).
    """

    def __init__(
        self,
        message: str,
        *,
        code: LogErrorCode,
        line: int | None = None,
        column: int | None = None,
        move: int | None = None,
        text: str | None = None,
        game: int | None = None,
        path: str | None = None,
        at_end: bool = False,
        advice: frozenset[LogAdvice] = frozenset(),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.line = line
        self.column = column
        self.move = move
        self.text = text
        self.game = game
        self.path = path
        self.at_end = at_end
        self.advice = advice

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with its code (a worker process of ``check -j`` sends its errors back):
        made again from message and code, then given the rest of its fields."""
        return (_remade, (type(self), self.message, self.code), self.__dict__)

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
            "code": self.code.value,
        }


class LogSyntaxError(LogError):
    """The text is not in the notation (SPEC 5)."""


class LogRuleError(LogError):
    """The text reads well but breaks a rule: an illegal move, bad tags, a false result."""


def _remade(cls: type[LogError], message: str, code: LogErrorCode) -> LogError:
    return cls(message, code=code)
