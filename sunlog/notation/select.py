"""Choosing games of an archive: filters, duplicates, and games joined without merging.

A :class:`Selection` is a set of filters, all of which a game must pass. Each filter
reads only as much as it needs: the tags (``read_headers``: the game is split and its
tags read, no move), the game as written (its moves and result token), or its replay.
:class:`Candidate` reads each of those at most once, when a filter first asks.

:func:`as_written` gives each game's text exactly as its file holds it (line ends, a
BOM, whatever follows its last result), cut where the reader splits the games: what
``select`` writes, byte for byte.

Two games are the same game (:func:`game_digest`) when they have the same variant, the
same deck and the same moves in their canonical forms, whatever their tags, comments,
short forms and layout: what ``select --dedupe`` keeps one of.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TextIO

from sunlog.engine.board import Board, Stage, Variant
from sunlog.engine.moves import Move, MoveKind
from sunlog.notation.errors import LogError
from sunlog.notation.game import Game
from sunlog.notation.reader import BOM, GameText, Headers, parse_game_text
from sunlog.notation.replay import Replay, replay
from sunlog.notation.scanner import Unfit, read_tokens
from sunlog.notation.sinks import BoardSink
from sunlog.notation.tokens import tokens, word_tokens

__all__ = [
    "Candidate",
    "GameDigests",
    "Range",
    "Selection",
    "as_written",
    "game_digest",
    "joined",
    "line_end",
    "parse_reached",
    "parse_tag_filter",
    "strip_comments",
    "without_comments",
]

_RANGE = re.compile(r"\s*([0-9]*)\s*(?:(-)\s*([0-9]*)\s*)?")

#: ``--reached`` words and the stage each names.
REACHED = {"1": Stage.SUNRISE, "2": Stage.SUN_PLAYS, "3": Stage.SUNSET, "wind": Stage.WIND}


@dataclass(frozen=True, slots=True)
class Range:
    """Whole numbers from ``low`` to ``high``, both included; ``None`` leaves a side open."""

    low: int | None = None
    high: int | None = None

    @classmethod
    def parse(cls, text: str) -> Range:
        """``N``, ``A-B``, ``A-`` or ``-B``; raises ValueError saying what to write."""
        m = _RANGE.fullmatch(text)
        if m is None or not (m.group(1) or m.group(3)):
            raise ValueError(f"{text!r} is not a number or a range: write N, A-B, A- or -B")
        low = int(m.group(1)) if m.group(1) else None
        if m.group(2) is None:
            return cls(low, low)
        high = int(m.group(3)) if m.group(3) else None
        if low is not None and high is not None and low > high:
            raise ValueError(f"{text!r} is an empty range: write the smaller number first")
        return cls(low, high)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def parse_tag_filter(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` as its two parts; raises ValueError for text without ``=`` or a name."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise ValueError(f"{text!r} names no tag: write NAME=VALUE, e.g. Player=Ann")
    return name.strip(), value


def parse_reached(text: str) -> Stage:
    """``1``, ``2``, ``3`` or ``wind`` as a :class:`Stage`; raises ValueError otherwise."""
    try:
        return REACHED[text.strip().lower()]
    except KeyError:
        raise ValueError(f"{text!r} is no stage: write 2, 3 or wind") from None


class Candidate:
    """One game of an archive as a selection reads it: its tags at once, the game as
    written and its replay when first asked for (each read once).

    ``written`` is the game's text as its file holds it (:func:`as_written`; the reader's
    text, with ``\\n`` line ends, when not given); ``opens_file`` and ``ends_file`` say
    whether that text begins at its file's start or runs to its end.
    """

    __slots__ = ("_canonical", "_game", "_replay", "ends_file", "headers", "opens_file", "written")

    def __init__(
        self,
        headers: Headers,
        written: str | None = None,
        *,
        opens_file: bool = False,
        ends_file: bool = False,
    ) -> None:
        self.headers = headers
        self.written = headers.text if written is None else written
        self.opens_file = opens_file
        self.ends_file = ends_file
        self._game: Game | None = None
        self._replay: Replay | None = None
        self._canonical = False

    @property
    def unreadable(self) -> bool:
        """Whether the game breaks before its tags end (no tag filter can pass it)."""
        return self.headers.error is not None

    @property
    def start_line(self) -> int:
        """The line of the game's first character that is not white space (its split
        begins right after the result before it)."""
        text = self.headers.text
        return self.headers.line + text[: len(text) - len(text.lstrip())].count("\n")

    @property
    def game(self) -> Game:
        """The game as written: its moves and result token (read, not replayed)."""
        if self._game is None:
            h = self.headers
            self._game = parse_game_text(GameText(h.text, h.line, h.column, h.index))
        return self._game

    def replayed(self, *, canonical: bool = False) -> Replay:
        """The game replayed (with each move's canonical form when asked for)."""
        if self._replay is None or (canonical and not self._canonical):
            self._replay = replay(self.game, canonical=canonical)
            self._canonical = canonical
        return self._replay

    @property
    def variant(self) -> Variant | None:
        """The variant its tags name (``sun`` without a tag), ``None`` for one unknown."""
        value = self.headers.tag("Variant")
        if value is None:
            return Variant.SUN
        try:
            return Variant.parse(value)
        except ValueError:
            return None

    @property
    def deal(self) -> int | None:
        """Its ``Deal`` tag as a number, ``None`` without one (or one that is no number)."""
        value = self.headers.tag("Deal")
        return int(value) if value is not None and value.isascii() and value.isdigit() else None


@dataclass(frozen=True)
class Selection:
    """The filters a game must pass, all of them (an empty selection keeps every game).

    Of the filters a game can pass by one value (a variant, a result, a deal, ...), the
    values given are alternatives; every ``tags`` and ``patterns`` filter must hold.
    """

    tags: tuple[tuple[str, str], ...] = ()
    patterns: tuple[tuple[str, re.Pattern[str]], ...] = ()
    variants: tuple[Variant, ...] = ()
    results: tuple[str, ...] = ()
    valid: bool | None = None
    deals: tuple[Range, ...] = ()
    moves: Range | None = None
    reached: tuple[Stage, ...] = ()
    invert: bool = False

    @property
    def by_tags(self) -> bool:
        """Whether a filter reads the tags (a game unreadable there passes none of them)."""
        return bool(self.tags or self.patterns or self.variants or self.deals)

    @property
    def empty(self) -> bool:
        """No filter at all: every game is kept (joining files)."""
        return not (
            self.by_tags
            or self.results
            or self.valid is not None
            or self.moves is not None
            or self.reached
        )

    def matches(self, game: Candidate) -> bool:
        """Whether ``game`` passes (or, inverted, fails) the filters. A game unreadable
        before its tags end passes no tag filter, inverted or not."""
        if game.unreadable and self.by_tags:
            return False
        return self._passes(game) != self.invert

    def _passes(self, game: Candidate) -> bool:
        headers = game.headers
        for name, value in self.tags:
            if headers.tag(name) != value:
                return False
        for name, pattern in self.patterns:
            found = headers.tag(name)
            if found is None or pattern.search(found) is None:
                return False
        if self.variants and game.variant not in self.variants:
            return False
        if self.deals and not any(game.deal in deals for deals in self.deals):
            return False
        if self.results and game.game.claimed_result not in self.results:
            return False
        if self.moves is not None and len(game.game.moves) not in self.moves:
            return False
        if self.valid is not None and game.replayed().valid != self.valid:
            return False
        if self.reached:
            stage = game.replayed().board.stage
            if not any(stage >= wanted for wanted in self.reached):
                return False
        return True


class GameDigests:
    """The digest of each game (:func:`game_digest`) over one run through an archive.

    A valid game is read once, as ``check`` reads it: each move is pushed as the reader
    reads it. Its moves as read (tags, comments, numbers, case and layout already gone)
    make a first digest. When that is the digest of a game met before in this run, the
    game is that game: its moves as read were that game's canonical forms, or they were
    met before and their canonical digest was kept. Else the canonical forms are read off
    the board as its moves are taken back (``Board.last_played``, then ``pop``): no
    second replay. A game that lane cannot vouch for is read and replayed, and digested
    the same way. Held: a 16-byte digest a game, and a second for a game written in
    other than canonical forms.
    """

    __slots__ = ("_canonical", "_seen")

    def __init__(self) -> None:
        self._seen: set[bytes] = set()  # the digests given
        self._canonical: dict[bytes, bytes] = {}  # of moves as read, when not canonical

    def __call__(self, game: Candidate) -> bytes:
        board = _read_valid(game.headers)
        if board is None:
            return self._given(_replayed_digest(game))
        written = _digest(board, board.move_stack)
        if written in self._seen:
            return written
        digest = self._canonical.get(written)
        if digest is None:
            moves = list(board.move_stack)
            forms = []
            while board.move_stack:
                forms.append(board.last_played().canonical)
                board.pop()
            forms.reverse()
            if forms == moves:
                return self._given(written)
            digest = self._canonical[written] = _digest(board, forms)
        return self._given(digest)

    def _given(self, digest: bytes) -> bytes:
        self._seen.add(digest)
        return digest


def game_digest(game: Candidate) -> bytes:
    """A 16-byte digest of what makes a game itself: its variant, its deck and its moves in
    their canonical forms (a deal naming its cards names them). Tags, comments, move
    numbers, short forms, case and layout change nothing. An invalid game is taken as far
    as it replays, then by its moves as read (and is never the same as a valid game).
    :class:`GameDigests` makes them over many games, faster."""
    return GameDigests()(game)


def _read_valid(headers: Headers) -> Board | None:
    """The board at the end of a game the reader's quick lane finds valid (its moves as
    read in its ``move_stack``); ``None`` for a game that lane cannot vouch for."""
    tokens = word_tokens(headers.text)
    if tokens is None:
        return None
    sink = BoardSink()
    try:
        read_tokens(tokens, sink)
        sink.verdict(headers.index)
    except (Unfit, ValueError):  # ValueError: the engine refuses a move
        return None
    return sink.board


def _replayed_digest(game: Candidate) -> bytes:
    forms: list[Move] = []
    replayed = replay(game.game, observe=lambda board: forms.append(board.last_played().canonical))
    if replayed.valid:
        return _digest(replayed.board, forms)
    # an invalid game: as far as it replays, then its moves as read (never a valid game)
    rest = [gm.move for gm in game.game.moves[len(forms) :]]
    tail = b"!" + _moves_bytes(rest) + game.game.claimed_result.encode()
    return _digest(replayed.board, forms, tail)


def _digest(board: Board, forms: list[Move], tail: bytes = b"") -> bytes:
    h = hashlib.blake2b(digest_size=16)
    deck = board.deck
    h.update(board.variant.value.encode() + b"|" + (b"-" if deck is None else bytes(deck)) + b"|")
    h.update(_moves_bytes(forms))
    h.update(tail)
    return h.digest()


#: Each card move as digested, once written out (card moves are few: a card, a source, a
#: target; a deal or a wind naming its cards is written each time). Bounded all the same.
_CARD_MOVE_BYTES: dict[Move, bytes] = {}
_CARD_MOVES_KEPT = 100_000


def _moves_bytes(moves: list[Move]) -> bytes:
    parts = []
    known = _CARD_MOVE_BYTES
    for move in moves:
        encoded = known.get(move)
        if encoded is None:
            encoded = str(move).encode() + b"|"
            if move.kind is MoveKind.CARD:
                if len(known) >= _CARD_MOVES_KEPT:
                    known.clear()
                known[move] = encoded
        parts.append(encoded)
    return b"".join(parts)


#: A line end as universal newlines read it: ``\\r\\n``, ``\\r`` or ``\\n`` (each one ``\\n``).
_LINE_END = re.compile(r"(\r\n?|\n)")
_BLOCK_CHARS = 1 << 16


class _Untranslated:
    """A file's text with its line ends as written, read a block at a time and given out
    in the pieces the reader's games are, each as long as the file holds it."""

    __slots__ = ("_buffer", "_pos", "_read", "lost")

    def __init__(self, source: TextIO) -> None:
        self._read = source.read
        self._buffer = ""
        self._pos = 0
        self.lost = False  #: the file no longer holds what the reader read

    def _fill(self, size: int) -> None:
        """At least ``size`` characters after the current place (fewer at the file's end)."""
        if self._pos >= _BLOCK_CHARS:
            self._buffer, self._pos = self._buffer[self._pos :], 0
        while len(self._buffer) - self._pos < size:
            block = self._read(max(_BLOCK_CHARS, size))
            if not block:
                return
            self._buffer += block

    def bom(self) -> str:
        """The file's byte order mark, taken, if it begins with one (the reader skips it)."""
        self._fill(1)
        if self._buffer.startswith(BOM, self._pos):
            self._pos += 1
            return BOM
        return ""

    def take(self, text: str) -> str:
        """What follows in the file that the reader read as ``text``: ``text`` itself
        where no line end is ``\\r`` and no line begins with a BOM the reader skipped
        (:data:`~sunlog.notation.reader.BOM`), else ``text`` with the line ends and those
        BOMs as written. Should the file have changed since the reader read it, ``text``."""
        if self.lost:
            return text
        n = len(text)
        self._fill(n + 1)
        buffer, pos = self._buffer, self._pos
        if buffer.startswith(text, pos):
            # no \r and no BOM skipped in it: as read is as written
            self._pos = pos + n
            return text
        self._fill(3 * n + 1)  # a \r\n and a BOM a line at most
        buffer = self._buffer
        at = self._pos
        lines = text.split("\n")  # the reader's line ends are \n alone
        for k, line in enumerate(lines):
            if buffer.startswith(BOM, at) and not line.startswith(BOM):
                at += 1  # a BOM where a game may begin, which the reader skipped
            if not buffer.startswith(line, at):
                break
            at += len(line)
            if k < len(lines) - 1:
                m = _LINE_END.match(buffer, at)
                if m is None:
                    break
                at = m.end()
        else:
            written = buffer[self._pos : at]
            self._pos = at
            return written
        self.lost = True
        return text

    def rest(self) -> str:
        """Whatever the file holds after the last piece taken."""
        if self.lost:
            return ""
        parts = [self._buffer[self._pos :]]
        while block := self._read(_BLOCK_CHARS):
            parts.append(block)
        self._buffer, self._pos = "", 0
        return "".join(parts)


def as_written(games: Iterable[Headers], source: TextIO) -> Iterator[Candidate]:
    """The games one file gave the reader (``games``, read with universal newlines), each
    with its text exactly as the file holds it: ``source`` is the same file read again
    with its line ends untranslated (``newline=""``).

    Every character of the file is in one game's text: a BOM in the first game's, and
    what follows the last result token (comments, SPEC 5.3, and white space) in the last
    game's. Should the file stop being a log partway (``LogError``), the games before the
    fault are given, the last without the rest of the file, and the error raised.
    """
    raw = _Untranslated(source)
    held: Headers | None = None
    opens = True
    try:
        for headers in games:
            if held is not None:
                yield Candidate(held, _first(raw, opens) + raw.take(held.text), opens_file=opens)
                opens = False
            held = headers
    except LogError:
        if held is not None:
            yield Candidate(held, _first(raw, opens) + raw.take(held.text), opens_file=opens)
        raise
    if held is not None:
        text = _first(raw, opens) + raw.take(held.text) + raw.rest()
        yield Candidate(held, text, opens_file=opens, ends_file=not raw.lost)


def _first(raw: _Untranslated, opens: bool) -> str:
    return raw.bom() if opens else ""


def line_end(text: str) -> str:
    """The first line end of ``text`` as written, ``\\n`` when it has none."""
    m = _LINE_END.search(text)
    return "\n" if m is None else m.group()


def _after_line_end(text: str) -> str:
    """``text`` without the line end it begins with, if any."""
    m = _LINE_END.match(text)
    return text if m is None else text[m.end() :]


def _without_bom(text: str) -> str:
    """``text`` without a BOM at its start or right after the line end it begins with."""
    if text.startswith(BOM):
        return text[1:]
    m = _LINE_END.match(text)
    if m is not None and text.startswith(BOM, m.end()):
        return text[: m.end()] + text[m.end() + 1 :]
    return text


def joined(games: Iterable[Candidate]) -> Iterator[str]:
    """The texts of ``games`` as written (:attr:`Candidate.written`), each whole, joined so
    that they read back as the same games (SPEC 5.3: a game ends at its result token or
    the next tag section). Games that follow each other in their file are written as the
    file has them, so that all the games of a file are the file, byte for byte.

    Between two games that did not follow each other: after a game without a result
    token, when the next has no tags, its claimed result token on a line of its own (the
    game then claims what it claimed, and cannot run on into the next); then a line end
    when neither has one there. The first game starts at its own line (not at the end of
    the line of the result before it in its file); a BOM is written only at the start, or
    where the file's own games follow each other; the whole ends with a line end unless
    its last game ends its file. A line end added is the one the game before uses.
    """
    previous: Candidate | None = None
    last = ""
    for game in games:
        text = game.written
        if previous is None:
            if not game.opens_file:
                text = _after_line_end(text)  # the end of the line of the result before it
        elif not _adjacent(previous, game):
            text = _without_bom(text)  # a BOM marks where a file began, not a game
        if previous is not None and not _adjacent(previous, game):
            eol = line_end(previous.written)
            if not game.headers.tags and previous.game.result is None:
                last = eol + previous.game.claimed_result
                yield last
            if _LINE_END.search(last[-1:]) is None and _LINE_END.match(text) is None:
                yield eol
        if text:
            yield text
            last = text
        previous = game
    if previous is not None and not previous.ends_file and last and last[-1] not in "\r\n":
        yield line_end(previous.written)


def _adjacent(first: Candidate, second: Candidate) -> bool:
    """Whether ``second`` is the game after ``first`` in the same reading of one file."""
    a, b = first.headers, second.headers
    return a.path == b.path and b.index == a.index + 1 and not second.opens_file


_COMMENTS = ("BRACE_COMMENT", "LINE_COMMENT")
_GAP = re.compile(r"[ \t]*\0[ \t\0]*")


def strip_comments(text: str) -> str:
    """A game's text without its comments (as the tokenizer reads them: not in a tag's
    value), the rest as written, line ends too. A line left blank by it goes; where a
    comment stood between two words, one space stays."""
    parts: list[str] = []
    pos = 0
    # Each \r as \n, so that a line comment ends at any line end (offsets unchanged).
    for kind, start, end in tokens(text.replace("\r", "\n"), len(text)):
        if kind in _COMMENTS:
            parts += (text[pos:start], "\0")
            pos = end
    if not parts:
        return text
    parts.append(text[pos:])
    pieces = _LINE_END.split("".join(parts))  # line, its end, line, its end, ..., line
    kept = []
    for k in range(0, len(pieces), 2):
        line = pieces[k]
        if "\0" in line:
            line = _GAP.sub(" ", line).strip(" \t")
            if not line:
                continue  # the line and its end go
        kept.append(line + (pieces[k + 1] if k + 1 < len(pieces) else ""))
    return "".join(kept)


def without_comments(game: Game) -> Game:
    """The game without its comments (before the moves, after each, after the result):
    what ``fmt --strip-comments`` writes in canonical form."""
    return replace(
        game,
        comments=(),
        final_comments=(),
        moves=tuple(gm._replace(comments=()) for gm in game.moves),
    )
