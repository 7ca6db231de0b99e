"""Reading and writing ``.sun`` logs (SPEC 5): a streaming reader and the canonical writer.

A file is split into games first, without holding it whole in memory: a game ends at its
result token or where the next tag section begins, never at a blank line. Each game is
then parsed with the Lark grammar ``grammar/sun.lark`` (LALR, one coarse terminal per
card move), and syntax errors become sentences a player understands, with line and column.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache
from typing import Any, TextIO

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from sunlog.cards import Card
from sunlog.errors import InvalidMoveError, LogError, LogSyntaxError
from sunlog.game import Game, GameMove, Tag
from sunlog.moves import Move, MoveKind
from sunlog.resources import grammar_text
from sunlog.scanner import Scanner

__all__ = ["parse_games", "read_games", "write_game", "write_games"]

#: A game larger than this (in characters) is refused rather than held in memory.
MAX_GAME_CHARS = 16 * 1024 * 1024

_TAG_PARTS = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_ESCAPE = re.compile(r"\\(.)")
_RESULT_WORD = re.compile(r"(?:won|lost|\*)", re.IGNORECASE)
# Lines without these cannot end or begin a game, nor hold a comment.
_SPECIAL = re.compile(r"[{;\[*]|won|lost", re.IGNORECASE)
# The chunker's view of the text: only what decides where games begin and end.
_LEXEME = re.compile(
    r"""(?P<ws>\s+)
      | (?P<brace>\{[^}]*\}?)
      | (?P<semi>;[^\n]*)
      | (?P<tag>\[(?:"(?:[^"\\\n]|\\.)*"?|[^\]"\n])*\]?)
      | (?P<word>[^\s{;\[]+)""",
    re.VERBOSE,
)


# ------------------------------------------------------------------ splitting


class _Chunk:
    """The text of one game and where it starts in its file."""

    __slots__ = ("column", "has_moves", "line", "parts", "size")

    def __init__(self, line: int, column: int) -> None:
        self.line, self.column = line, column
        self.parts: list[str] = []
        self.has_moves = False
        self.size = 0

    def add(self, text: str) -> None:
        if text:
            self.parts.append(text)
            self.size += len(text)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def is_blank(self) -> bool:
        return not self.text.strip()


def _chunks(lines: Iterable[str]) -> Iterator[_Chunk]:
    """Split a stream of lines into game texts (SPEC 5.3)."""
    chunk = _Chunk(1, 1)
    has_tags = False
    in_brace = False
    line_no = 0
    for line_no, line in enumerate(lines, 1):
        pos = 0
        if line_no == 1 and line.startswith("\ufeff"):
            line = line[1:]
        if in_brace:
            close = line.find("}")
            if close < 0:
                chunk.add(line)
                _check_size(chunk)
                continue
            pos = close + 1
            in_brace = False
        start = 0
        n = len(line)
        if pos == 0 and not _SPECIAL.search(line):  # moves only: nothing decides a boundary
            chunk.add(line)
            chunk.has_moves = chunk.has_moves or not (line.isspace() or not line)  # "" after a BOM
            _check_size(chunk)
            continue
        while pos < n:
            m = _LEXEME.match(line, pos)
            assert m is not None
            kind = m.lastgroup
            end = m.end()
            if kind == "brace" and not m.group().endswith("}"):
                in_brace = True
            elif kind == "tag" and chunk.has_moves:
                chunk.add(line[start:pos])
                yield chunk
                chunk, start, has_tags = _Chunk(line_no, pos + 1), pos, True  # this tag begins it
            elif kind == "tag":
                has_tags = True
            elif kind == "word":
                if _RESULT_WORD.fullmatch(m.group()):
                    chunk.add(line[start:end])
                    chunk.has_moves = True
                    yield chunk
                    chunk, start, has_tags = _Chunk(line_no, end + 1), end, False
                    pos = end
                    continue
                chunk.has_moves = True
            pos = end
        chunk.add(line[start:])
        _check_size(chunk)
    if chunk.has_moves or has_tags or not chunk.is_blank():
        chunk.has_moves = chunk.has_moves or has_tags
        yield chunk


def _check_size(chunk: _Chunk) -> None:
    if chunk.size > MAX_GAME_CHARS:
        raise LogSyntaxError(
            f"the game starting here is longer than {MAX_GAME_CHARS // (1024 * 1024)} MB "
            "of text: refusing to read it (is a { comment never closed?)",
            line=chunk.line,
            column=chunk.column,
        )


# -------------------------------------------------------------------- parsing


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
        return children[0], Move.open(int(children[1])), children[1].end_pos or 0

    def gather(self, children: list[Token]) -> tuple[Token, Move, int]:
        return children[0], Move.gather(int(children[1])), children[1].end_pos or 0

    def card_move(self, children: list[Token]) -> tuple[Token, Move, int]:
        token = children[0]
        try:
            return token, Move.parse_card_move(token), token.end_pos or 0
        except InvalidMoveError as exc:  # the grammar and the move regex disagree
            raise _TokenError(token, str(exc), in_move=True) from None

    def move(self, children: list[Any]) -> tuple[str, Any]:
        number = children.pop(0) if isinstance(children[0], Token) else None
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


def _cards(tokens: list[Token]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in tokens)


@cache
def _parser() -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        start="game",
        transformer=_Build(),
        maybe_placeholders=False,
    )


@cache
def _scanner() -> Scanner:
    return Scanner(_parser())


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

    def __init__(self, chunk: _Chunk) -> None:
        self.line, self.column = chunk.line, chunk.column

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
            result = str(value).lower()
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


def _parse_chunk(chunk: _Chunk, index: int) -> Game:
    """Parse one game's text; a syntax error yields the moves before it and the error."""
    text = chunk.text
    game = _scanner().scan_game(text, chunk.line, chunk.column, index)
    if game is not None:
        return game
    where = _Locator(chunk)
    try:
        return _assemble(_parse_items(text), where, index)
    except _TokenError as exc:
        line, column = where.token(exc.token)
        move_no = exc.own if exc.in_move else None
        error = LogSyntaxError(exc.message, line=line, column=column, game=index, move=move_no)
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
        line=chunk.line,
        column=chunk.column,
        error=error,
    )


def _parse_items(text: str) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = _parser().parse(text).children
    return items


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
    found = f"'{word}'" if word else "the end of the game"
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    line, column = where(line, column)
    expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    previous = _previous_word(text, pos)
    if at_end:  # the game ends too early: explain what the last word lacks, placed at it
        message, in_move = _diagnose("", "the end of the game", expected, word, None)
    else:
        message, in_move = _diagnose(word, found, expected, previous, unexpected)
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


# -------------------------------------------------------------------- reading


def read_games(source: TextIO | Iterable[str]) -> Iterator[Game]:
    """Yield the games of a text stream one at a time (the file is never held whole).

    A game with a syntax error is yielded with ``game.error`` set and the moves before the
    error; reading goes on with the next game. A stream with no game at all raises
    :class:`LogSyntaxError`, as does text that is not UTF-8.
    """
    index = 0
    pending: Game | None = None
    try:
        for chunk in _chunks(source):
            if not chunk.has_moves:  # only comments, after the last game or in an empty file
                if pending is not None:
                    pending = _with_final_comments(pending, _comments_of(chunk))
                continue
            index += 1
            game = _parse_chunk(chunk, index)
            if pending is not None:
                yield pending
            pending = game
    except UnicodeDecodeError as exc:
        raise LogSyntaxError(
            f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    if pending is None:
        raise LogSyntaxError(
            "no game in this file: a log holds at least one game", line=1, column=1
        )
    yield pending


def _comments_of(chunk: _Chunk) -> tuple[str, ...]:
    try:
        game = _assemble(_parse_items(chunk.text), _Locator(chunk), 0)
    except (UnexpectedInput, _TokenError):
        return ()
    return game.comments


def _with_final_comments(game: Game, comments: tuple[str, ...]) -> Game:
    return replace(game, final_comments=game.final_comments + comments)


def parse_games(text: str) -> list[Game]:
    """All games of a string (convenience for tests and small inputs)."""
    return list(read_games(io.StringIO(text)))


# -------------------------------------------------------------------- writing


def escape_tag_value(value: str) -> str:
    """Escape ``\\`` and ``"`` for a tag value."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_comment(text: str) -> str:
    """A comment in the ``{ }`` form, or ``;`` when the text holds a ``}``."""
    if "}" in text:
        if "\n" in text:
            raise ValueError("a comment cannot hold both '}' and a line break")
        return f"; {text}\n"
    return f"{{ {text} }}" if text else "{}"


def write_game(
    game: Game, moves: Iterable[Move] | None = None, *, result: str | None = None
) -> str:
    """Print a game: tags, then one stage action per line with the card moves after it.

    ``moves`` replaces the moves' notation (the canonical forms from a replay); by default
    each move is printed from its parsed value, with its move number. The game always
    ends with its result token.
    """
    out: list[str] = []
    for tag in game.tags:
        out.append(f'[{tag.name} "{escape_tag_value(tag.value)}"]\n')
    if game.tags:
        out.append("\n")
    for comment in game.comments:
        text = format_comment(comment)
        out.append(text if text.endswith("\n") else text + "\n")
    canonical = list(moves) if moves is not None else None
    line: list[str] = []

    def flush() -> None:
        if line:
            joined = " ".join(line)
            out.append(joined if joined.endswith("\n") else joined + "\n")
            line.clear()

    for i, gm in enumerate(game.moves):
        move = canonical[i] if canonical is not None else gm.move
        if move.kind is not MoveKind.CARD:
            flush()
        text = str(move)
        if canonical is None and gm.number is not None:
            text = f"{gm.number}. {text}"
        if gm.annotation:
            text += gm.annotation
        line.append(text)
        for comment in gm.comments:
            line.append(format_comment(comment))
            if line[-1].endswith("\n"):  # a ; comment ends its line
                flush()
    flush()
    out.append(f"{result or game.claimed_result}\n")
    for comment in game.final_comments:
        text = format_comment(comment)
        out.append(text if text.endswith("\n") else text + "\n")
    return "".join(out)


def write_games(games: Iterable[str]) -> str:
    """Join written games with a blank line between them."""
    return "\n".join(games)
