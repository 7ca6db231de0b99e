"""Printing what the command line found: error reports with the source line and a caret,
check's per-game reports and summary, and the solver's analysis. (How JSON is laid out
is the notation's: :mod:`sunlog.notation.jsonlayout`.)
"""

from __future__ import annotations

import functools
import io
import itertools
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from sunlog.cli.inputs import CliError, games_to_check, os_error
from sunlog.notation.errors import LogError
from sunlog.notation.reader import MAX_LINE_CHARS

if TYPE_CHECKING:
    from sunlog.engine.board import Board
    from sunlog.notation.game import Game
    from sunlog.play.solver import Analysis


#: How much of a long source line is shown around the caret, each side.
CONTEXT = 60


def last_move_text(game: Game, count: int) -> str | None:
    """The ``count``-th move as written, with its annotation (for the board's header)."""
    if count <= 0 or count > len(game.moves):
        return None
    gm = game.moves[count - 1]
    return f"{gm.text}{gm.annotation or ''}"


def error_heading(error: LogError, game: int | None = None) -> str:
    """``path:line:col: move N 'text': why``; without a line, ``path: game K, ...``.

    Control characters from the log are shown as visible stand-ins (:func:`printable`)."""
    if error.line is not None or game is None:
        return printable(str(error))
    what = ""
    if error.move is not None:
        what = f", move {error.move}"
        if error.text is not None:
            what += f" {error.text!r}"
    where = f"{error.path}: " if error.path else ""
    return printable(f"{where}game {game}{what}: {error.message}")


def source_line(path: str, line: int, *, text: str | None = None) -> str | None:
    """Line ``line`` (1-based) of a file, read only now; ``text`` for standard input.

    Lines are counted as the reader counts them (universal newlines); a leading BOM is
    dropped, as the reader drops it. ``None`` when the line cannot be read.
    """
    if line < 1:
        return None
    try:
        if text is not None:
            handle: Iterable[str] = io.StringIO(text, newline=None)
            found = next(itertools.islice(handle, line - 1, None), None)
        elif not stat.S_ISREG(os.stat(path).st_mode):
            return None  # a FIFO or a device: reading it again would wait or never end
        else:
            with open(path, encoding="utf-8", errors="replace", newline=None) as f:
                found = _nth_line(f, line)
    except OSError:
        return None
    if found is None:
        return None
    if line == 1:
        found = found.removeprefix("\ufeff")
    return found.rstrip("\r\n")


#: How much of a source line an error report reads: a line the reader takes is whole; a
#: longer one (the reader refused it) is cut there.
SOURCE_CHARS = MAX_LINE_CHARS + 2


def _nth_line(handle: IO[str], line: int) -> str | None:
    """Line ``line`` of a stream, at most :data:`SOURCE_CHARS` of it; the lines before
    it are skipped a piece at a time, so that no line is ever held whole."""
    for _ in range(line - 1):
        while True:
            piece = handle.readline(SOURCE_CHARS)
            if not piece:
                return None
            if piece.endswith("\n"):
                break
    found = handle.readline(SOURCE_CHARS)
    return found or None


def caret(source: str, column: int, length: int = 1) -> str:
    """The source line and, under it, ``^~~~`` from ``column`` (1-based) over ``length``.

    Tabs before the column are kept, so the caret lines up however wide a tab is shown;
    a long line is cut to the part around the column, a long mark to :data:`CONTEXT`.
    """
    length = min(length, CONTEXT)
    start = max(0, column - 1 - CONTEXT)
    end = min(len(source), column - 1 + max(length, 1) + CONTEXT)
    shown = source[start:end]
    lead = "..." if start > 0 else ""
    tail = "..." if end < len(source) else ""
    pad = "".join(c if c == "\t" else " " for c in lead + source[start : column - 1])
    width = max(1, min(length, len(source) - (column - 1)))
    return f"  {lead}{shown}{tail}\n  {pad}^{'~' * (width - 1)}"


def error_report(error: LogError, game: int | None, source: str | None) -> str:
    """The heading, then the source line with a caret under the column when known: under
    the move as written when it stands there, else under the word at the column (the card
    of a deal that is mistyped, the ray number of an open).

    Control characters from the log are shown as visible stand-ins (:func:`printable`)."""
    lines = [error_heading(error, game)]
    if source is not None and error.column is not None:
        source = printable(source)
        rest = source[error.column - 1 :]
        if error.text and rest.startswith(printable(error.text)):
            length = len(error.text)
        else:
            word = _WORD_AT.match(rest)
            length = len(word.group()) if word else 1
        lines.append(caret(source, error.column, length))
    return "\n".join(lines)


_WORD_AT = re.compile(r"\S{1,40}")


@functools.cache
def _unprintable() -> re.Pattern[str]:
    """Control characters, line separators and undecodable bytes from a log, which would act
    on the terminal or split a one-line report. Compiled on first use: its ranges take about
    a millisecond, which a valid log's check never needs."""
    return re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures: ␛ for ESC, ␋ for VT...
    return "\u2421" if code == 0x7F else "\ufffd"


def printable(text: str) -> str:
    """``text`` with each control character shown as one visible character (tabs kept), so
    that a report stays on its lines and a caret under it stays in place."""
    return _unprintable().sub(_stand_in, text)


@dataclass(frozen=True)
class CheckReport:
    """What checking one game (or a file that is not a log) gave, as ``check`` prints it.

    ``game`` is ``None`` for a fault in the file as a whole (not UTF-8, no game, JSON that
    is not a sunlog document); ``source`` is the faulty line, ``board`` (with ``--verbose``)
    the board before the faulty move.
    """

    path: str
    game: int | None
    moves: int
    result: str | None
    error: LogError | None = None
    source: str | None = None
    board: str | None = None
    warnings: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        """The line ``check --json`` prints (SPEC 7)."""
        return {
            "path": self.path,
            "game": self.game,
            "valid": self.valid,
            "moves": self.moves,
            "result": self.result,
            "error": None if self.error is None else self.error.to_json(),
        }

    def text(self) -> str:
        """The human report of an invalid game (heading, source line, caret, board)."""
        if self.error is None:
            result = f", {self.result}" if self.result else ""
            return f"{self.path}: game {self.game}: valid, {self.moves} moves{result}"
        out = error_report(self.error, self.game, self.source)
        if self.board is not None:
            what = f"move {self.error.move}" if self.error.move else "the fault"
            out += f"\n  the board before {what}:\n" + _indent(self.board, "    ")
        return out


def _indent(text: str, prefix: str) -> str:
    return "".join(prefix + line if line.strip() else line for line in text.splitlines(True))


@dataclass(frozen=True)
class FileReport:
    """The reports of one file's games, or the I/O error that stopped it (exit 2)."""

    path: str
    games: list[CheckReport] = field(default_factory=list)
    io_error: CliError | None = None


def check_game(game: Game, path: str, *, verbose: bool, text: str | None) -> CheckReport:
    """Replay one game and report it; the source line is read only for an error."""
    from sunlog.notation.replay import replay

    result = replay(game)
    error = result.error
    claimed = game.result_claim if game.error is None else None
    warnings = tag_warnings(game, path)
    if error is None:
        return CheckReport(path, game.index, result.moves, claimed, warnings=warnings)
    error.path = path
    error.game = error.game or game.index
    source = None
    if error.line is not None:
        source = source_line(path, error.line, text=text)
    board = None
    if verbose and (error.move is not None or result.moves):
        board = board_plain(result.board)
    return CheckReport(path, game.index, result.moves, claimed, error, source, board, warnings)


def tag_warnings(game: Game, path: str) -> tuple[str, ...]:
    """``path:line:col: warning: ...`` for each tag whose name is a tag with meaning in
    another case (``[variant "sun-3"]``): it stays an unknown tag, which means nothing."""
    from sunlog.notation.replay import miscased_tags

    lines = []
    for tag, meant in miscased_tags(game):
        where = ":".join(str(p) for p in (path, tag.line, tag.column) if p is not None)
        lines.append(
            printable(
                f"{where}: warning: tag names are case-sensitive, so [{tag.name} ...] is not "
                f"the {meant} tag and means nothing here (did you mean {meant}?)"
            )
        )
    return tuple(lines)


def check_reports(
    path: str, verbose: bool = False, stdin_text: str | None = None
) -> Iterator[CheckReport | CliError]:
    """Check the games of one file one at a time, yielding each report as it is made (so a
    file of a million games is never held whole); a file that cannot be read ends with the
    :class:`CliError` saying why."""
    from sunlog.notation.quickcheck import ValidGame

    try:
        for game in games_to_check(path, stdin_text=stdin_text):
            if isinstance(game, ValidGame):  # the quick lane found it valid
                yield CheckReport(path, game.index, game.moves, game.result)
            else:
                yield check_game(game, path, verbose=verbose, text=stdin_text)
    except LogError as exc:  # the file as a whole is not a log (or stops being one)
        exc.path = path
        source = source_line(path, exc.line, text=stdin_text) if exc.line else None
        yield CheckReport(path, None, 0, None, exc, source)
    except CliError as exc:
        yield exc
    except OSError as exc:
        yield os_error(exc, path)


def check_file(path: str, verbose: bool = False, stdin_text: str | None = None) -> FileReport:
    """Check every game of one file and keep the reports (a worker process's job with -j)."""
    games: list[CheckReport] = []
    for item in check_reports(path, verbose, stdin_text):
        if isinstance(item, CliError):
            return FileReport(path, games, item)
        games.append(item)
    return FileReport(path, games)


def check_files(paths: list[str], verbose: bool, stdin_texts: list[str | None]) -> list[FileReport]:
    """:func:`check_file` for several files: one task of a worker with -j, so that many
    small files cost fewer round trips between processes."""
    return [check_file(p, verbose, t) for p, t in zip(paths, stdin_texts, strict=True)]


def board_plain(board: Board) -> str:
    """The board as plain text (rich is imported only here)."""
    from sunlog.views.terminal import board_text

    return board_text(board)


class CheckTotals:
    """Counts for the summary line of ``check``."""

    def __init__(self) -> None:
        self.games = self.valid = self.invalid = self.moves = self.not_logs = 0

    def add(self, report: CheckReport) -> None:
        if report.game is None:
            self.not_logs += 1
            self.invalid += 1
            return
        self.games += 1
        self.moves += report.moves
        if report.valid:
            self.valid += 1
        else:
            self.invalid += 1

    def summary(self, files: int) -> str:
        invalid = self.invalid - self.not_logs
        text = (
            f"{plural(self.games, 'game')}, {self.valid} valid, {invalid} invalid, "
            f"{plural(self.moves, 'move')} replayed ({plural(files, 'file')}"
        )
        if self.not_logs:
            text += f", {self.not_logs} not a log"
        return text + ")"


def plural(n: int, word: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def unlisted_moves(board: Board) -> list[str]:
    """Legal moves that cannot be listed because their cards must be named."""
    from sunlog.engine.board import DEALS, Stage
    from sunlog.engine.moves import Move

    if board.is_won():
        return []
    if board.deals < DEALS and board.stock is None:
        return ["deal C1 ... C13 (the deck is not known: name the 13 cards dealt)"]
    if board.deals < DEALS:
        return []
    if board.stage is Stage.WIND or board.deal_number is not None:
        return []
    collected = board.collected()
    if board.is_legal(Move.wind(collected)):
        n = len(collected)
        return [f"wind C1 ... C{n} (no Deal tag: name the row of the {n} collected cards)"]
    return []


def analysis_lines(found: Analysis, chosen: Game, total: int, *, won: bool = False) -> list[str]:
    """What :func:`sunlog.play.solver.analyze` found, in sentences; ``won`` when the game
    itself ends won (then there is no win to lose, whatever the search says)."""
    if won:
        return [f"the game was won: all 104 cards are on the foundations after move {total}"]
    proved = "" if found.certain else " (not proved: some searches ran out of budget)"
    if found.last_winnable is None:
        if found.certain:
            return ["no position of this game could be won: the deal is lost from the start"]
        return ["no winnable position was found within the budget (raise --max-nodes or --timeout)"]
    if found.losing_move is None:
        return [f"the game can still be won after its last move ({total}){proved}"]
    gm = chosen.moves[found.losing_move - 1]
    lines = [
        f"the last winnable position is after move {found.last_winnable} of {total}",
        f"move {found.losing_move} {gm.text}{gm.annotation or ''} let the win slip{proved}",
    ]
    if found.continuation:
        line = " ".join(str(m) for m in found.continuation)
        lines.append(f"a winning line from there ({len(found.continuation)} moves): {line}")
    return lines
