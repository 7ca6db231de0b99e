"""The slow, exact path of the reader: the Lark grammar, and syntax errors explained.

:mod:`sunlog.notation` reads nearly every game with the fast scanner; a game the scanner
cannot read goes through here. Lark parses it with ``grammar/sun.lark`` (LALR) and its
errors become sentences a player understands, at the right line and column, with the moves
before the error kept. This is also where the scanner's token patterns come from.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from sunlog.engine.cards import Card
from sunlog.engine.errors import InvalidMoveError, clip
from sunlog.engine.moves import Move, MoveKind, check_digits
from sunlog.notation.errors import LogError, LogSyntaxError
from sunlog.notation.game import Game, GameMove, Tag, result_of_token
from sunlog.notation.resources import grammar_text

__all__ = ["lark_parser", "parse_game", "terminal_patterns"]

_TAG_PARTS = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_ESCAPE = re.compile(r"\\(.)")
_RESULT_WORD = re.compile(r"(?:won|lost|\*)", re.IGNORECASE)


class _Build(Transformer[Token, Any]):
    """Inline transformer: turns parse events into tagged tuples for :func:`_assemble`."""

    def tag(self, children: list[Token]) -> tuple[str, Token]:
        return ("tag", children[0])

    def comment(self, children: list[Token]) -> tuple[str, Token]:
        return ("comment", children[0])

    def result(self, children: list[Token]) -> tuple[str, Token]:
        return ("result", children[0])

    def card(self, children: list[Token]) -> Token:
        return children[0]

    def deal(self, children: list[Token]) -> tuple[Token, Move, int]:
        cards = _cards(children[1:]) if len(children) > 1 else None
        return children[0], Move.deal(cards), children[-1].end_pos or 0

    def wind(self, children: list[Token]) -> tuple[Token, Move, int]:
        cards = _cards(children[1:]) if len(children) > 1 else None
        return children[0], Move.wind(cards), children[-1].end_pos or 0

    def open(self, children: list[Token]) -> tuple[Token, Move, int]:
        return children[0], Move.open(_number(children[1])), children[1].end_pos or 0

    def gather(self, children: list[Token]) -> tuple[Token, Move, int]:
        return children[0], Move.gather(_number(children[1])), children[1].end_pos or 0

    def card_move(self, children: list[Token]) -> tuple[Token, Move, int]:
        token = children[0]
        try:
            return token, Move.parse_card_move(token), token.end_pos or 0
        except InvalidMoveError as exc:  # the grammar and the move regex disagree
            raise _TokenError(token, str(exc), in_move=True) from None

    def move(self, children: list[Any]) -> tuple[str, Any]:
        number = children.pop(0) if isinstance(children[0], Token) else None
        if number is not None:
            _number(number, number[:-1])
        (first, move, end), *rest = children
        annotation = rest[0] if rest else None
        if annotation is not None and annotation.start_pos != end:
            raise _TokenError(
                annotation,
                "an annotation is joined to its move, without a space before it",
                in_move=True,
                own=0,
            )
        return ("move", (number, first, move, annotation))


class _TokenError(Exception):
    """A token the grammar accepts but whose content is wrong (raised during parsing)."""

    def __init__(self, token: Token, message: str, *, in_move: bool = False, own: int = 1) -> None:
        super().__init__(message)
        self.token, self.message, self.in_move = token, message, in_move
        self.own = own  # 1: the fault is in the next move; 0: in the last one parsed


def _number(token: Token, digits: str | None = None) -> int:
    """A ray number or move number; too many digits is an error at the token."""
    try:
        return int(check_digits(token if digits is None else digits))
    except InvalidMoveError as exc:
        raise _TokenError(token, str(exc), in_move=True) from None


def _cards(tokens: list[Token]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in tokens)


@cache
def lark_parser() -> Lark:
    """The grammar's LALR parser, built once (it takes a tenth of a second)."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        start="game",
        transformer=_Build(),
        maybe_placeholders=False,
    )


_parser = lark_parser


def terminal_patterns() -> dict[str, str]:
    """Each terminal of the grammar as a Python regular expression, by name."""
    return {t.name: t.pattern.to_regexp() for t in lark_parser().terminals}


def _unescape(token: Token, raw: str, where: int) -> str:
    """Undo ``\\"`` and ``\\\\``; any other escape is an error (SPEC 5.1)."""
    for m in _ESCAPE.finditer(raw):
        if m.group(1) not in '"\\':
            raise _TokenError(
                token,
                f"unknown escape '\\{m.group(1)}' in a tag value: only \\\" and \\\\ are allowed",
            )
    return _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw


def _comment_text(token: Token) -> str:
    """A comment's text without its marks; CRLF inside a { } comment reads as a line break."""
    text = str(token)
    if text.startswith("{"):
        return text[1:-1].replace("\r\n", "\n").strip()
    return text[1:].strip()


class _Locator:
    """Turns positions inside a game's text into positions in its file."""

    def __init__(self, line: int, column: int) -> None:
        self.line, self.column = line, column

    def __call__(self, line: int, column: int) -> tuple[int, int]:
        if line == 1:
            return self.line, self.column + column - 1
        return self.line + line - 1, column

    def token(self, token: Token) -> tuple[int, int]:
        return self(token.line or 1, token.column or 1)


def _assemble(items: list[tuple[str, Any]], where: _Locator, index: int) -> Game:
    """Build a :class:`Game` from the parsed items, attaching comments to moves."""
    tags: list[Tag] = []
    start_comments: list[str] = []
    moves: list[dict[str, Any]] = []
    result = None
    result_pos: tuple[int, int] | tuple[None, None] = (None, None)
    for kind, value in items:
        if kind == "move":
            number, first, move, annotation = value
            line, column = where.token(first)
            moves.append(
                {
                    "move": move,
                    "text": str(first) if move.kind is MoveKind.CARD else str(move),
                    "number": int(number[:-1]) if number is not None else None,
                    "annotation": str(annotation) if annotation is not None else None,
                    "comments": [],
                    "line": line,
                    "column": column,
                }
            )
        elif kind == "comment":
            (moves[-1]["comments"] if moves else start_comments).append(_comment_text(value))
        elif kind == "tag":
            m = _TAG_PARTS.fullmatch(value)
            assert m is not None
            line, column = where.token(value)
            tags.append(Tag(m.group(1), _unescape(value, m.group(2), 0), line, column))
        else:
            result = result_of_token(str(value))
            result_pos = where.token(value)
    first_line = where.line
    return Game(
        tags=tuple(tags),
        moves=tuple(
            GameMove(
                m["move"],
                m["text"],
                m["number"],
                m["annotation"],
                tuple(m["comments"]),
                m["line"],
                m["column"],
            )
            for m in moves
        ),
        result=result,
        comments=tuple(start_comments),
        index=index,
        line=first_line,
        column=where.column,
        result_line=result_pos[0],
        result_column=result_pos[1],
    )


def parse_game(text: str, line0: int, column0: int, index: int) -> Game:
    """Parse one game's text, which starts at ``line0:column0`` of its file.

    A syntax error yields the moves before it, with ``game.error`` set."""
    where = _Locator(line0, column0)
    try:
        return _assemble(_parse_items(text), where, index)
    except _TokenError as exc:
        line, column = where.token(exc.token)
        move_no = exc.own if exc.in_move else None
        error: LogError = LogSyntaxError(
            exc.message, line=line, column=column, game=index, move=move_no
        )
        cut = exc.token.start_pos or 0
    except UnexpectedInput as exc:
        error, cut = _explain(exc, text, where, index)
    prefix = _prefix_game(text[:cut], where, index)
    moves = prefix.moves if prefix is not None else ()
    if error.move is not None:
        error.move += len(moves)
    tags = prefix.tags if prefix is not None else ()
    comments = prefix.comments if prefix is not None else ()
    return Game(
        tags=tags,
        moves=moves,
        comments=comments,
        index=index,
        line=line0,
        column=column0,
        error=error,
    )


def _parse_items(text: str) -> list[tuple[str, Any]]:
    """The game's items as :class:`_Build` makes them: ``(kind, value)`` pairs."""
    # The parser's transformer turns each child of the game into such a pair.
    return cast("list[tuple[str, Any]]", _parser().parse(text).children)


def _prefix_game(text: str, where: _Locator, index: int) -> Game | None:
    """The moves before a syntax error: parse the text up to it (best effort)."""
    for cut in (len(text), _last_move_start(text)):
        try:
            return _assemble(_parse_items(text[:cut]), where, index)
        except (UnexpectedInput, _TokenError):
            continue
    return None


_MOVE_START = re.compile(r"(?:^|\s)(?:\d+\.)?(?:deal|open|gather|wind)\b", re.IGNORECASE)


def _last_move_start(text: str) -> int:
    starts = [m.start() for m in _MOVE_START.finditer(text)]
    return starts[-1] if starts else 0


_WORD = re.compile(r"\S+")
_SOURCE_RE = re.compile(r"r\d+(?:\.\d+)?|c\d+(?:\.[lr])?|w(?:\.[lr])?|[ak]", re.IGNORECASE)
_CARD_RE = re.compile(r"(?:10|[2-9ajqkt])[shdc♠♥♦♣♤♡♢♧]", re.IGNORECASE)
_TARGET_RE = re.compile(r"a[12]?|k|r\d+", re.IGNORECASE)
_EXPECT_NUMBER = {"OPEN": "open", "GATHER": "gather"}
_MOVE_NUMBER = re.compile(r"[0-9]+\.")
_JOINED_ANNOTATION = re.compile(r"(.+?)([!?]+)")


def _explain(exc: UnexpectedInput, text: str, where: _Locator, index: int) -> tuple[LogError, int]:
    """Turn a Lark error into a player's sentence, at the start of the offending word."""
    unexpected = exc.token.type if isinstance(exc, UnexpectedToken) else None
    at_end = isinstance(exc, UnexpectedEOF) or unexpected == "$END"
    if at_end:
        pos = len(text.rstrip())
    else:
        pos = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
    while pos > 0 and not text[pos - 1].isspace():
        pos -= 1
    m = _WORD.match(text, pos)
    word = m.group() if m else ""
    found = f"'{clip(word)}'" if word else "the end of the game"
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    line, column = where(line, column)
    expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    previous = clip(_previous_word(text, pos))
    if at_end:  # the game ends too early: explain what the last word lacks, placed at it
        message, in_move = _diagnose("", "the end of the game", expected, clip(word), None)
    else:
        message, in_move = _diagnose(clip(word), found, expected, previous, unexpected)
    error = LogSyntaxError(
        message, line=line, column=column, game=index, move=1 if in_move else None, text=word
    )
    if not in_move:
        error.text = None
    return error, pos


def _previous_word(text: str, pos: int) -> str:
    words = text[:pos].split()
    return words[-1] if words else ""


def _diagnose(
    word: str, found: str, expected: set[str], previous: str, unexpected: str | None
) -> tuple[str, bool]:
    """The message for an unreadable ``word``, and whether it is part of a move.

    ``unexpected`` is the type of the token the parser did not expect, or ``None`` when no
    token could be read at all."""
    if _MOVE_NUMBER.fullmatch(previous) and (unexpected is not None or not word):
        return f"a move number must be followed by a move, found {found}", True
    if word.startswith("{") and unexpected is None:
        return "this { comment is never closed: a } must end it", False
    if word.startswith("["):
        return (
            'a tag is written [Name "value"]: a name of letters, digits and _, a value in '
            'double quotes on one line, with \\" and \\\\ the only escapes',
            False,
        )
    if expected & {"RAY_NUMBER"} and previous.lower() in ("open", "gather"):
        return f"expected a ray number 1 to 13 after '{previous.lower()}', found {found}", True
    joined = _JOINED_ANNOTATION.fullmatch(word)
    if unexpected == "ANNOTATION" and joined:
        return (
            "an annotation is one of ! ? !! ?? !? ?!, joined to the end of its move; "
            f"found '{joined.group(2)}' after '{joined.group(1)}'",
            True,
        )
    if expected == {"ANNOTATION"} or word[:1] in "!?":
        return f"an annotation (! ? !! ?? !? ?!) must follow a move, found {found}", True
    if expected and expected <= {"$END", "<END-OF-FILE>"} and unexpected is not None:
        return (
            f"the game ended at its result token, so {found} cannot follow it "
            "(a result token stands apart from its move, after white space)",
            False,
        )
    if _RESULT_WORD.fullmatch(word):
        return f"a result token ends a game; it cannot follow {previous!r}", False
    if re.fullmatch(r"\d+\.?", word):
        if previous.endswith("."):
            return f"a move number must be followed by a move, found {found}", True
        return f"a move number is written with a dot, as '{word.rstrip('.')}.', found {found}", True
    if not word:
        if previous.lower() in ("open", "gather"):
            return f"expected a ray number 1 to 13 after '{previous.lower()}', found {found}", True
        return f"expected a move, found {found}", True
    return _diagnose_move(word, found, previous), True


def _diagnose_move(word: str, found: str, previous: str) -> str:
    if ">" in word:
        before, _, after = word.partition(">")
        if not _TARGET_RE.fullmatch(after):
            return (
                "expected a target after '>': A or K (in sun-3 A, A1, A2 or an empty ray "
                f"like r5), found '{after}'"
            )
        if ":" in before:
            source, _, card = before.partition(":")
            if not _SOURCE_RE.fullmatch(source):
                return (
                    "expected a source before ':' like r5, r5.2, c1, c1.L, w, w.R, A or K, "
                    f"found '{source}'"
                )
            if not _CARD_RE.fullmatch(card):
                return f"expected a card like QD or 10H after ':', found '{card}'"
        elif not (_SOURCE_RE.fullmatch(before) or _CARD_RE.fullmatch(before)):
            return (
                f"expected a card like QD or 10H, or a source like r5, before '>', found '{before}'"
            )
        return f"a card move is SOURCE:CARD>TARGET, like r5:QD>K; found {found}"
    if ":" in word or _SOURCE_RE.fullmatch(word) or _CARD_RE.fullmatch(word):
        after_cards = previous.lower() in ("deal", "wind") or _CARD_RE.fullmatch(previous)
        if after_cards and ":" not in word and not _CARD_RE.fullmatch(word):
            return f"expected a card like QD or 10H, found {found}"
        return f"a card move needs a target: SOURCE:CARD>TARGET, like r5:QD>K; found {found}"
    if (
        len(word) <= 3
        and word[:1].isalnum()
        and (previous.lower() in ("deal", "wind") or _CARD_RE.fullmatch(previous))
    ):
        return f"expected a card like QD or 10H, found {found}"
    return (
        "expected a move (deal, open N, gather N, wind, or a card move like r5:QD>K) "
        f"or a result (won, lost, *), found {found}"
    )


def comments_in(text: str, line0: int, column0: int) -> tuple[str, ...]:
    """The comments of a text that holds nothing else (what follows a file's last game)."""
    try:
        return _assemble(_parse_items(text), _Locator(line0, column0), 0).comments
    except (UnexpectedInput, _TokenError):
        return ()
