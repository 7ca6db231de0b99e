"""Reading and writing ``.sun`` logs (SPEC 5): a streaming reader and the canonical writer.

A file is split into games first, without holding it whole in memory: a game ends at its
result token or where the next tag section begins, never at a blank line. Each game is
then read by the fast scanner (:mod:`sunlog.notation.scanner`, the grammar's own terminals), or,
when it does not fit, by the Lark grammar ``grammar/sun.lark``, whose syntax errors become
sentences a player understands, with line and column.
"""

from __future__ import annotations

import io
import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import NamedTuple, TextIO

from sunlog.notation.errors import LogError, LogErrorCode, LogSyntaxError
from sunlog.notation.game import Game, Tag
from sunlog.notation.scanner import Unfit, read_tokens
from sunlog.notation.sinks import GameSink, TagSink
from sunlog.notation.tokens import boundary_regexes, located_tokens, result_regex

__all__ = [
    "GameText",
    "Headers",
    "game_texts",
    "parse_game_text",
    "parse_games",
    "read_games",
    "read_headers",
]

#: A game larger than this (in characters) is refused rather than held in memory. A real
#: game is a few kB; at this size, reading one takes at most a few hundred MB (docs/limits.md).
MAX_GAME_CHARS = 1024 * 1024
#: A line longer than this (in characters) is refused before it is read whole.
MAX_LINE_CHARS = 256 * 1024

_COMMENT_START = re.compile(r"[{;]")  # where each may begin (see _without_comments)
_LINE_COMMENT_START = re.compile(";")
# Lines without these cannot end or begin a game, nor hold a comment (what _line_kind
# finds faster; the tests hold it to this).
_SPECIAL = re.compile(r"[{;\[*]|won|lost", re.IGNORECASE)
# A result word in a line beyond ASCII, with the grammar's case folding (``loſt`` is lost).
_RESULT_IN_LINE = re.compile(r"won|lost", re.IGNORECASE)
#: The byte order mark (U+FEFF), which some editors write at a file's start (SPEC 5: a
#: leading one is accepted). One at the start of a line where a game may begin (before
#: its first move, or before a tag) is read as nothing too: it is where a file saved with
#: one begins, in files joined together (``cat a.sun b.sun``), as python-chess's
#: ``read_game`` skips one before each game. Anywhere else it is an error that names it.
BOM = "\ufeff"
# What a file that is not UTF-8 decodes to with errors="surrogateescape" (and lone halves).
_SURROGATE = re.compile("[\ud800-\udfff]")
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


def _without_comments(line: str) -> str:
    """The line with each closed comment (the grammar's BRACE_COMMENT and LINE_COMMENT)
    made one space, in one pass over the line.

    The regex tries every ``{`` of a line that never closes it, each to the line's end: on
    a line of many ``{`` it took seconds. Here the first such ``{`` ends the brace search.
    (:func:`_chunks` asks for it only until a game has moves: after that, a line's
    comments matter only for whether a brace comment stays open.)
    """
    parts: list[str] = []
    pos = 0
    starts = _COMMENT_START
    while (m := starts.search(line, pos)) is not None:
        start = m.start()
        if line[start] == "{":
            end = line.find("}", start) + 1
            if end == 0:  # no "}" follows: from here only a line comment can begin
                starts = _LINE_COMMENT_START
                continue
        else:
            end = line.find("\n", start)
            end = len(line) if end < 0 else end
        parts += (line[pos:start], " ")
        pos = end
    parts.append(line[pos:])
    return "".join(parts)


def _chunks(source: TextIO | Iterable[str]) -> Iterator[_Chunk]:
    """Split a stream into game texts (SPEC 5.3), reading it in the pieces of :func:`_pieces`.

    A line that may begin or end a game is read in the lexemes of
    :func:`~sunlog.notation.tokens.boundary_regexes` (the grammar's comments and tag
    values, broken ones read as far as they reach); a word that is the grammar's RESULT
    ends a game, a tag after a move begins the next one.
    """
    lexemes, tag_line = boundary_regexes()
    is_tag_line = tag_line.fullmatch
    is_result = result_regex().fullmatch
    chunk = _Chunk(1, 1)
    has_tags = False
    in_brace = False
    line_no = 0
    try:
        for line_no, line, plain in _pieces(source):
            pos = 0
            if line_no == 1:
                if line.startswith(BOM):
                    line = line[1:]
                _refuse_utf16(line)
            elif (
                line.startswith(BOM) and not in_brace and (not chunk.has_moves or line[1:2] == "[")
            ):
                line = line[1:]  # where a game may begin: files saved with one, joined
            n = len(line)
            if plain:
                pass  # checked as a block: lines short enough, UTF-8
            elif n > MAX_LINE_CHARS or not (line.isascii() or _is_unicode(line)):
                _check_line(line, line_no)
            if in_brace:
                close = line.find("}")
                if close < 0:
                    chunk.add(line)
                    _check_size(chunk)
                    continue
                pos = close + 1
                in_brace = False
            else:
                if plain:  # no line of it begins or ends a game
                    kind = _COMMENTS if "{" in line or ";" in line else _MOVES
                else:
                    kind = _line_kind(line)
                    if kind == _BOUNDARY and not chunk.has_moves and is_tag_line(line):
                        has_tags = True  # a tag alone on its line, before any move
                        chunk.add(line)
                        _check_size(chunk)
                        continue
                if kind != _BOUNDARY:  # nothing here begins or ends a game
                    if kind == _MOVES:
                        outside = line
                    else:  # moves and comments
                        outside = ""
                        if not chunk.has_moves:  # its first character outside any comment
                            first = line.lstrip()[:1]
                            chunk.has_moves = first != "" and first != "{" and first != ";"
                        last_open, last_close = line.rfind("{"), line.rfind("}")
                        if chunk.has_moves and (last_open < last_close or ";" not in line):
                            # Only whether a brace comment is left open: the last { is
                            # after the last } (each { before the last } closes; with no
                            # line comment, the last { is outside any comment).
                            in_brace = last_open > last_close
                        else:  # what is outside the comments
                            outside = _without_comments(line)
                            brace = outside.find("{")  # a brace comment left open runs on
                            if brace >= 0:
                                in_brace, outside = True, outside[:brace]
                    chunk.parts.append(line)
                    chunk.size += n
                    if not chunk.has_moves and outside and not outside.isspace():  # "" after a BOM
                        chunk.has_moves = True
                    if chunk.size > MAX_GAME_CHARS:
                        _check_size(chunk)
                    continue
            start = 0
            while pos < n:
                m = lexemes.match(line, pos)
                assert m is not None
                lexeme = m.lastgroup
                end = m.end()
                if lexeme == "brace" and not m.group().endswith("}"):
                    in_brace = True
                elif lexeme == "tag" and chunk.has_moves:
                    chunk.add(line[start:pos])
                    _check_size(chunk)
                    yield chunk
                    # this tag begins the next game
                    chunk, start, has_tags = _Chunk(line_no, pos + 1), pos, True
                elif lexeme == "tag":
                    has_tags = True
                elif lexeme == "word":
                    if is_result(m.group()):
                        chunk.add(line[start:end])
                        chunk.has_moves = True
                        _check_size(chunk)
                        yield chunk
                        chunk, start, has_tags = _Chunk(line_no, end + 1), end, False
                        pos = end
                        continue
                    chunk.has_moves = True
                pos = end
            chunk.add(line[start:])
            _check_size(chunk)
    except UnicodeDecodeError as exc:  # from the stream, decoding the next lines
        raise LogSyntaxError(
            f"the file is not UTF-8 text ({exc.reason}), at this line or soon after it",
            code=LogErrorCode.NOT_UTF8,
            line=line_no + 1,
            column=1,
        ) from None
    if chunk.has_moves or has_tags or not chunk.is_blank():
        chunk.has_moves = chunk.has_moves or has_tags
        yield chunk


_MOVES, _COMMENTS, _BOUNDARY = range(3)


def _line_kind(line: str) -> int:
    """What a line may hold: moves only, moves and comments, or perhaps a game's boundary
    (a tag, a result token: the splitter then reads it token by token).

    str methods do what :data:`_SPECIAL` does several times faster; a line with a long s
    keeps the regex for the result words, whose case folding is the grammar's (``loſt``
    is ``lost`` to both: the long s is the only character beyond ASCII it folds so).
    """
    if "[" in line or "*" in line:
        return _BOUNDARY
    if "o" in line or "O" in line:  # won and lost both hold one; nothing else folds to it
        low = line.lower()  # beyond ASCII, no character lowers to a letter of won or lost
        if "won" in low or "lost" in low:
            return _BOUNDARY
        if not line.isascii() and "\u017f" in line and _RESULT_IN_LINE.search(line):
            return _BOUNDARY  # the long s, which the grammar folds to s
    return _COMMENTS if "{" in line or ";" in line else _MOVES


def _check_size(chunk: _Chunk) -> None:
    if chunk.size > MAX_GAME_CHARS:
        text = chunk.text  # the error's path only: the hint says what the text shows
        unclosed = text.rfind("{") > text.rfind("}")
        hint = "is a { comment never closed?" if unclosed else "a real game is a few kB"
        raise LogSyntaxError(
            f"the game starting here is longer than {_size(MAX_GAME_CHARS)} "
            f"of text: refusing to read it ({hint})",
            code=LogErrorCode.TOO_LONG,
            line=chunk.line,
            column=chunk.column,
        )


def _is_unicode(line: str) -> bool:
    """Whether a line holds no surrogate (what a byte that is not UTF-8 decodes to with
    ``errors="surrogateescape"``): a quick test before :func:`_check_line` names one."""
    try:
        line.encode()
    except UnicodeEncodeError:
        return False
    return True


def _refuse_utf16(first: str) -> None:
    """UTF-16 without its BOM reads as UTF-8 (ASCII text, a 0 byte every other byte):
    refuse it as not UTF-8 at its first line, rather than as a strange tag or move."""
    if "\x00" in first:
        text = first.split("\n", 1)[0] if first.find("\n") > 1 else first[:200]
        # a byte that is not UTF-8 at all is named as such first (its own error)
        if len(text) >= 4 and _is_unicode(text) and text.count("\x00") * 2 >= len(text) - 1:
            raise LogSyntaxError(
                "the file is not UTF-8 text (every other byte is 0: is it UTF-16?)",
                code=LogErrorCode.NOT_UTF8,
                line=1,
                column=first.index("\x00") + 1,
            )


def _check_line(line: str, line_no: int) -> None:
    """Refuse a line beyond :data:`MAX_LINE_CHARS`, and text that is not UTF-8."""
    n = len(line)
    if n > MAX_LINE_CHARS and (n > MAX_LINE_CHARS + 1 or line[-1] != "\n"):
        raise LogSyntaxError(
            f"this line is longer than {_size(MAX_LINE_CHARS)}: refusing to read it "
            "(a log's lines are short: is this a log?)",
            code=LogErrorCode.TOO_LONG,
            line=line_no,
            column=1,
        )
    if not line.isascii():
        bad = _SURROGATE.search(line)
        if bad is not None:
            code = ord(bad.group())
            what = f"byte 0x{code - 0xDC00:02X}" if code >= 0xDC80 else f"U+{code:04X}"
            raise LogSyntaxError(
                f"the file is not UTF-8 text ({what} is not part of a character)",
                code=LogErrorCode.NOT_UTF8,
                line=line_no,
                column=bad.start() + 1,
            )


def _size(chars: int) -> str:
    """``1 MiB``, ``256 KiB``, ``100 characters``: a limit as people read it."""
    for unit, scale in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if chars >= scale and chars % scale == 0:
            return f"{chars // scale} {unit}"
    return f"{chars} characters"


def _pieces(source: TextIO | Iterable[str]) -> Iterator[tuple[int, str, bool]]:
    """A stream as (line number, text, plain) pieces for :func:`_chunks`: a line, or several
    lines together (``plain``) where none of them may begin or end a game.

    Lines of moves and comments are most of a log, and a test of each for a tag or a
    result costs more than reading it. A stream that can be read ahead without changing
    what it says (a file or a string: seekable, decoding errors replaced or escaped) is
    read a block at a time, each cut at a line's end, and the lines of a block between
    its lines that hold a ``[``, a ``*``, ``won`` or ``lost`` (any case) go as one piece.
    A block that is not UTF-8, holds a line too long, a ``\\r``, a :data:`BOM` or a
    character whose case folding :func:`_line_kind` treats apart goes line by line, as
    any other stream does: :func:`_chunks` then names the line at fault. Lines end at
    ``\\n`` either way.
    """
    if not isinstance(source, io.TextIOBase) or not _reads_ahead(source):
        for line_no, line in enumerate(_lines(source), 1):
            yield line_no, line, False
        return
    read, readline = source.read, source.readline
    line_no = 1
    while block := read(_BLOCK_CHARS):
        if block[-1] != "\n":
            block += readline(MAX_LINE_CHARS + 2)  # to the line's end, or far enough
        last = len(block) - block.rfind("\n", 0, len(block) - 1) - 1  # the last line's length
        if (
            (block.isascii() or (_is_unicode(block) and "\u017f" not in block and BOM not in block))
            and last <= MAX_LINE_CHARS
            and "\r" not in block
        ):
            # The block's ASCII letters in lower case, one byte a character (beyond ASCII,
            # no character lowers to a letter of won or lost but the long s, kept apart).
            view = block.encode("ascii", "replace").lower()
            line_no = yield from _runs(block, view, line_no)
            continue
        lines = block.split("\n")
        tail = lines.pop()  # what follows the last "\n": "" but at the end of the stream
        for k, line in enumerate(lines, line_no):
            yield k, line + "\n", False
        if tail:
            yield line_no + len(lines), tail, False
        line_no += len(lines)


def _reads_ahead(source: io.TextIOBase) -> bool:
    """Whether :func:`_pieces` may read ``source`` a block at a time: a string, or a file
    that replaces or escapes what is not UTF-8 (so reading ahead raises nothing early)."""
    if isinstance(source, io.StringIO):
        return True
    return (
        isinstance(source, io.TextIOWrapper)
        and source.errors in ("replace", "surrogateescape")
        and source.seekable()
    )


def _runs(block: str, view: bytes, line_no: int) -> Generator[tuple[int, str, bool], None, int]:
    """The pieces of a block of whole lines that starts at line ``line_no``: each line that
    holds a ``[``, a ``*``, ``won`` or ``lost`` alone, the lines between them together
    (found in ``view``, the block's characters in lower case); returns the line number
    after the block."""
    ahead = [view.find(word) for word in _BOUNDARY_WORDS]
    start = 0  # where the lines not yet given begin
    end = len(block)
    while start < end:
        for k, at in enumerate(ahead):
            if 0 <= at < start:
                ahead[k] = view.find(_BOUNDARY_WORDS[k], start)
        found = [at for at in ahead if at >= 0]
        if not found:
            yield line_no, block[start:], True
            return line_no + block.count("\n", start)
        at = min(found)
        begin = block.rfind("\n", start, at) + 1 or start  # the boundary line's start
        if begin > start:
            yield line_no, block[start:begin], True
            line_no += block.count("\n", start, begin)
        stop = block.find("\n", at) + 1 or end
        yield line_no, block[begin:stop], False
        line_no += 1
        start = stop
    return line_no


#: How much of a stream :func:`_pieces` reads at a time (then to the end of that line).
_BLOCK_CHARS = 1 << 16
#: What :func:`_line_kind` looks for, in a block's lower case.
_BOUNDARY_WORDS = (b"[", b"*", b"won", b"lost")


def _lines(source: TextIO | Iterable[str]) -> Iterator[str]:
    """The lines of a stream, each read at most a little past :data:`MAX_LINE_CHARS`, so
    that a hostile line is never held whole (:func:`_chunks` names a decoding error's line)."""
    readline = getattr(source, "readline", None)
    return iter(partial(readline, MAX_LINE_CHARS + 2), "") if readline else iter(source)


# -------------------------------------------------------------------- reading


class GameText(NamedTuple):
    """One game's text as the file splits (SPEC 5.3), and where it starts in the file.

    ``index`` counts the games from 1; it is 0 for text holding only comments (what
    follows a file's last result token), which belongs to the game before it.
    """

    text: str
    line: int
    column: int
    index: int  # type: ignore[assignment]  # a field, over tuple.index


def game_texts(source: TextIO | Iterable[str]) -> Iterator[GameText]:
    """Split a text stream into games without reading it whole.

    Raises :class:`LogSyntaxError` for text that is not UTF-8 (decoded with
    ``errors="surrogateescape"``, the error names the first bad byte's line and column),
    a line longer than :data:`MAX_LINE_CHARS`, a game longer than :data:`MAX_GAME_CHARS`,
    and a stream with no game at all: the games before the fault are yielded first.
    """
    index = 0
    for chunk in _chunks(source):
        if chunk.has_moves:
            index += 1
        yield GameText(chunk.text, chunk.line, chunk.column, index if chunk.has_moves else 0)
    if index == 0:
        raise LogSyntaxError(
            "no game in this file: a log holds at least one game",
            line=1,
            column=1,
            code=LogErrorCode.NO_GAME,
        )


def read_games(source: TextIO | Iterable[str]) -> Iterator[Game]:
    """Yield the games of a text stream one at a time (the file is never held whole).

    A game with a syntax error is yielded with ``game.error`` set and the moves before the
    error; reading goes on with the next game. A fault in the stream as a whole raises
    :class:`LogSyntaxError` after the games before it (see :func:`game_texts`).
    """
    pending: Game | None = None
    try:
        for piece in game_texts(source):
            if not piece.index:  # only comments, after the last game
                if pending is not None:
                    pending = _with_final_comments(pending, _comments_of(piece))
                continue
            game = parse_game_text(piece)
            if pending is not None:
                yield pending
            pending = game
    except LogSyntaxError:  # a fault in the file as a whole: the games before it count
        if pending is not None:
            yield pending
        raise
    assert pending is not None  # game_texts raises for a stream without a game
    yield pending


def _comments_of(piece: GameText) -> tuple[str, ...]:
    game = _read(piece)
    if game is not None:
        return game.comments
    from sunlog.notation.syntax import comments_in

    return comments_in(piece.text, piece.line, piece.column)


def _read(piece: GameText) -> Game | None:
    """One game's text read by the state machine into a game, or ``None`` where it stops."""
    sink = GameSink(piece.text, piece.line, piece.column)
    try:
        read_tokens(located_tokens(piece.text), sink)
    except Unfit:
        return None
    return sink.game(piece.index)


def parse_game_text(piece: GameText) -> Game:
    """One game's text as a game: the reader's state machine, else Lark, which explains
    the error (and keeps the moves before it)."""
    game = _read(piece)
    if game is not None:
        return game
    from sunlog.notation.syntax import parse_game

    return parse_game(piece.text, piece.line, piece.column, piece.index)


class Headers(NamedTuple):
    """One game's tags, as :func:`read_headers` reads them without its moves.

    ``text`` is the game as written (what a selection of games writes out unchanged),
    ``line`` and ``column`` where it starts in the file named ``path``; ``error`` is the
    syntax error met before the first move, if any (``tags`` then holds those before it).
    """

    tags: tuple[Tag, ...]
    index: int  # type: ignore[assignment]  # a field, over tuple.index
    line: int
    column: int
    text: str
    path: str | None = None
    error: LogError | None = None

    def tag(self, name: str) -> str | None:
        """The value of the first tag called ``name``, or ``None``."""
        return next((tag.value for tag in self.tags if tag.name == name), None)


def read_headers(source: TextIO | Iterable[str], path: str | None = None) -> Iterator[Headers]:
    """The tags of each game of a text stream, in order, without reading its moves: the
    reader stops at each game's first move, and nothing is replayed (python-chess's
    ``read_headers``). Choosing games by their tags costs the split of the file and the
    tokens of the tags. ``path`` names the stream in what is yielded.

    A fault of the stream as a whole raises as in :func:`game_texts`; a tag the reader
    cannot read is explained as :func:`read_games` explains it (``error``).
    """
    for piece in game_texts(source):
        if not piece.index:
            continue  # comments after the last game
        sink = TagSink(piece.text, piece.line, piece.column)
        try:
            read_tokens(located_tokens(piece.text), sink)
        except Unfit:  # Lark says what is wrong (and reads the tags before it)
            game = parse_game_text(piece)
            yield Headers(
                game.tags, piece.index, piece.line, piece.column, piece.text, path, game.error
            )
            continue
        yield Headers(tuple(sink.tags), piece.index, piece.line, piece.column, piece.text, path)


def _with_final_comments(game: Game, comments: tuple[str, ...]) -> Game:
    return replace(game, final_comments=game.final_comments + comments)


def parse_games(text: str) -> list[Game]:
    """All games of a string (convenience for tests and small inputs)."""
    return list(read_games(io.StringIO(text)))
