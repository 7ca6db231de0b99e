"""What the reader's state machine tells, made into something: a game, a verdict, tags.

Each sink takes the calls of :class:`~sunlog.notation.scanner.Sink` for one game's text.
:class:`GameSink` builds the :class:`~sunlog.notation.game.Game` as written, with where
each part stands; :class:`BoardSink` pushes each move on a board as it arrives (what
``check`` needs of a valid game) and refuses anything it cannot vouch for; :class:`TagSink`
keeps the tags and stops the reading at the first move.
"""

from __future__ import annotations

from typing import NamedTuple

from sunlog.engine.board import Board
from sunlog.engine.moves import Move
from sunlog.notation.errors import LogRuleError
from sunlog.notation.game import Game, GameMove, Tag, result_of_token
from sunlog.notation.replay import MEANINGFUL_TAGS, check_result, new_board
from sunlog.notation.scanner import Enough, Unfit
from sunlog.notation.tokens import comment_text

__all__ = ["BoardSink", "GameSink", "TagSink", "ValidGame"]

_new_move = tuple.__new__  # GameMove is a named tuple: build it without keyword handling


class _Places:
    """Line and column of offsets in a game's text, asked for in increasing order: the
    line moves on only when an offset passes the current line's end."""

    __slots__ = ("base", "line", "line_end", "text")

    def __init__(self, text: str, line: int, column: int) -> None:
        self.text, self.line, self.base = text, line, -column
        end = text.find("\n")
        self.line_end = len(text) if end < 0 else end

    def __call__(self, offset: int) -> tuple[int, int]:
        if offset > self.line_end:
            text = self.text
            self.line += text.count("\n", self.line_end, offset)
            self.base = text.rfind("\n", 0, offset)
            end = text.find("\n", offset)
            self.line_end = len(text) if end < 0 else end
        return self.line, offset - self.base


class GameSink:
    """Builds the game as written, each tag, move and the result with its line and column."""

    __slots__ = ("column", "comments", "line", "moves", "place", "result_at", "tags", "token")

    def __init__(self, text: str, line: int, column: int) -> None:
        self.line, self.column = line, column
        self.place = _Places(text, line, column)
        self.tags: list[Tag] = []
        self.moves: list[GameMove] = []
        self.comments: dict[int, list[str]] = {}  # by move, -1 before the first
        self.token: str | None = None
        self.result_at: tuple[int | None, int | None] = (None, None)

    def tag(self, name: str, value: str, start: int) -> None:
        self.tags.append(Tag(name, value, *self.place(start)))

    def end_headers(self) -> None:
        pass

    def comment(self, token: str) -> None:
        self.comments.setdefault(len(self.moves) - 1, []).append(comment_text(token))

    def move(self, move: Move, text: str | None, number: int | None, start: int) -> None:
        row, column = self.place(start)
        if text is None:
            text = str(move)
        self.moves.append(_new_move(GameMove, (move, text, number, None, (), row, column)))

    def annotation(self, mark: str) -> None:
        self.moves[-1] = self.moves[-1]._replace(annotation=mark)

    def result(self, token: str, start: int) -> None:
        self.token = token
        self.result_at = self.place(start)

    def game(self, index: int) -> Game:
        """The game read, the ``index``-th of its file."""
        moves = self.moves
        start = self.comments.pop(-1, [])
        for i, notes in self.comments.items():
            moves[i] = moves[i]._replace(comments=tuple(notes))
        return Game(
            tags=tuple(self.tags),
            moves=tuple(moves),
            result=None if self.token is None else result_of_token(self.token),
            comments=tuple(start),
            index=index,
            line=self.line,
            column=self.column,
            result_line=self.result_at[0],
            result_column=self.result_at[1],
            text=self.place.text,
        )


class ValidGame(NamedTuple):
    """A game :class:`BoardSink` found valid: its index in the file, its number of moves
    and its claimed result."""

    index: int  # type: ignore[assignment]  # a field, over tuple.index
    moves: int
    result: str


_TAG_NAMES = frozenset(MEANINGFUL_TAGS.values())


class BoardSink:
    """Plays each move on a board as it arrives, and says at the end whether the game is
    valid. It vouches only for a game it finds valid: anything else (a miscased Variant
    or Deal tag, a move number out of step, an illegal or ambiguous move, a wrong result)
    raises :class:`Unfit` or the engine's ``ValueError``, and the caller reads the game
    the general way (:func:`~sunlog.notation.replay.replay`), which says where and why."""

    __slots__ = ("board", "count", "first", "push", "tags", "token")

    def __init__(self) -> None:
        self.tags: list[Tag] = []
        self.first = 0
        self.board: Board | None = None
        self.count = 0
        self.token: str | None = None

    def tag(self, name: str, value: str, start: int) -> None:
        if name not in _TAG_NAMES and name.lower() in MEANINGFUL_TAGS:
            raise Unfit  # a miscased Variant or Deal: replay warns of it
        self.tags.append(Tag(name, value))

    def end_headers(self) -> None:
        try:
            board = new_board(Game(tags=tuple(self.tags)))
        except LogRuleError:
            raise Unfit from None
        self.board, self.push = board, board.push
        self.first = board.move_count  # from a Position tag, numbers go on from it

    def comment(self, token: str) -> None:
        pass

    def move(self, move: Move, text: str | None, number: int | None, start: int) -> None:
        self.count += 1
        if number is not None and number != self.first + self.count:
            raise Unfit
        self.push(move)

    def annotation(self, mark: str) -> None:
        pass

    def result(self, token: str, start: int) -> None:
        self.token = token

    def verdict(self, index: int) -> ValidGame:
        """The game as valid, or :class:`Unfit` when its result is not what it claims."""
        board = self.board
        assert board is not None  # the reader has told the end of the tags
        result = None if self.token is None else result_of_token(self.token)
        head = Game(tags=tuple(self.tags), result=result)
        if check_result(head, board) is not None:
            raise Unfit
        return ValidGame(index, self.count, head.claimed_result)


class TagSink:
    """Keeps a game's tags and stops the reading where they end."""

    __slots__ = ("place", "tags")

    def __init__(self, text: str, line: int, column: int) -> None:
        self.place = _Places(text, line, column)
        self.tags: list[Tag] = []

    def tag(self, name: str, value: str, start: int) -> None:
        self.tags.append(Tag(name, value, *self.place(start)))

    def end_headers(self) -> None:
        raise Enough

    def comment(self, token: str) -> None:
        pass

    def move(self, move: Move, text: str | None, number: int | None, start: int) -> None:
        raise Enough

    def annotation(self, mark: str) -> None:
        pass

    def result(self, token: str, start: int) -> None:
        raise Enough
