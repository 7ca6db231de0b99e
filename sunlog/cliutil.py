"""The command line's plumbing: finding logs, reading them, and reporting what went wrong.

:mod:`sunlog.cli` stays a thin layer of Typer commands over these helpers. Nothing here
decides anything about the game: the rules are the board's, the notation the reader's.
Heavy modules (the reader's Lark parser, rich) are imported only when a command needs them.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO

from sunlog.notation.errors import LogError, LogSyntaxError

if TYPE_CHECKING:
    from sunlog.engine.board import Board
    from sunlog.notation.game import Game
    from sunlog.notation.quickcheck import ValidGame
    from sunlog.notation.replay import Replay
    from sunlog.play.solver import Analysis

__all__ = [
    "STDIN",
    "CheckReport",
    "CheckTotals",
    "CliError",
    "FileReport",
    "analysis_lines",
    "caret",
    "check_at",
    "check_file",
    "check_reports",
    "error_heading",
    "expand_paths",
    "games_to_check",
    "is_json_path",
    "load_game",
    "plural",
    "position_at",
    "read_games_from",
    "read_text",
    "source_line",
    "stdin_text",
    "unlisted_moves",
    "write_atomically",
]

#: The path that means standard input.
STDIN = "-"
#: Suffixes of notation logs, found when a directory is given.
LOG_SUFFIX = ".sun"
# What reads a notation stream: read_games, or check_games for check's quick lane.
_Reader = Callable[[TextIO], Iterator[Any]]
#: Suffixes read as JSON (a document, JSON Lines or one game).
JSON_SUFFIXES = (".json", ".jsonl")
#: How much of a long source line is shown around the caret, each side.
CONTEXT = 60
#: Notation read whole (standard input) is refused beyond
#: this many bytes; check, show, convert and fmt stream a .sun file of any size
#: (docs/limits.md).
MAX_INPUT_BYTES = 4 * 1024 * 1024
#: JSON, always read whole, is refused beyond this many bytes (it is some 14 times the size
#: of its notation, so convert's JSON of a file of MAX_INPUT_BYTES converts back).
MAX_JSON_BYTES = 64 * 1024 * 1024

# JSON input begins with an object whose first member is a quoted name (a `{ comment }`
# of the notation does not), or is an empty object.
_JSON_START = re.compile(r'[\ufeff\s]*\{\s*(?:"|\}\s*$)')


class CliError(Exception):
    """A failure the command line reports as ``sunlog: <path>: <cause>`` and exits with.

    ``code`` is 2 for usage and I/O errors, 1 for an invalid log.
    """

    def __init__(self, message: str, *, path: str | None = None, code: int = 2) -> None:
        super().__init__(message)
        self.message, self.path, self.code = message, path, code

    def __str__(self) -> str:
        return f"sunlog: {self.path}: {self.message}" if self.path else f"sunlog: {self.message}"


def os_error(exc: OSError, path: str) -> CliError:
    """An I/O error as a :class:`CliError` with the OS's own words (exit 2)."""
    cause = exc.strerror or str(exc)
    if isinstance(exc, IsADirectoryError):
        cause = "is a directory"
    elif isinstance(exc, FileNotFoundError):
        cause = "no such file or directory"
    return CliError(cause.lower() if cause[:1].isupper() else cause, path=path)


# ------------------------------------------------------------------ finding files


def expand_paths(paths: Sequence[str]) -> Iterator[str | CliError]:
    """Each path as given, a directory as every ``*.sun`` below it (sorted), or an error.

    Hidden directories (``.git``...) are skipped; ``-`` stands for standard input.
    """
    for path in paths:
        if path == STDIN:
            yield path
            continue
        p = Path(path)
        if p.is_dir():
            found = _logs_below(str(p))
            if not found:
                yield CliError(f"no {LOG_SUFFIX} logs in this directory", path=path)
            yield from found
        elif p.exists():
            yield path
        else:
            yield CliError("no such file or directory", path=path)


def _logs_below(top: str) -> list[str]:
    """The ``*.sun`` files below a directory, hidden ones and those in hidden directories
    left out, sorted directory by directory (``a/b.sun`` before ``a-c.sun``, as paths sort).
    ``os.walk`` rather than ``Path.rglob``: several times faster on thousands of files."""
    found = []
    for root, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if name.endswith(LOG_SUFFIX) and not name.startswith("."):
                full = os.path.join(root, name)
                if os.path.isfile(full):  # not a broken link
                    found.append(full)
    return sorted(found, key=lambda f: f.split(os.sep))


def is_json_path(path: str) -> bool:
    """Whether a file's name says JSON (``.json``, ``.jsonl``)."""
    return path != STDIN and path.lower().endswith(JSON_SUFFIXES)


def looks_like_json(text: str) -> bool:
    """Whether text whose name says nothing is JSON rather than notation."""
    return _JSON_START.match(text[:4096]) is not None


# ------------------------------------------------------------------ reading


_STDIN: list[str] = []


def read_stdin() -> str:
    """Standard input as text: UTF-8 strictly, line ends as written (kept for carets)."""
    limit = max(MAX_INPUT_BYTES, MAX_JSON_BYTES) + 1
    data = sys.stdin.buffer.read(limit) if hasattr(sys.stdin, "buffer") else sys.stdin.read(limit)
    _check_input_size(data, STDIN)
    text = data if isinstance(data, str) else decode(data, STDIN)
    _STDIN[:] = [text]
    return text


def stdin_text(path: str) -> str | None:
    """The text standard input gave when ``path`` is ``-`` and it was read, else ``None``."""
    return _STDIN[0] if path == STDIN and _STDIN else None


def decode(data: bytes, path: str | None = None) -> str:
    """UTF-8 text, or the reader's error for text that is not UTF-8, at the bad byte's line
    and column (lines and columns counted as the reader counts them)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = io.StringIO(data[: exc.start].decode("utf-8"), newline=None).read()
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        if line == 1 and before.startswith("\ufeff"):
            column -= 1
        raise LogSyntaxError(
            f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})",
            line=line,
            column=column,
            path=path,
        ) from None


def _check_input_size(data: bytes | str, path: str) -> None:
    """Refuse input read whole beyond :data:`MAX_INPUT_BYTES` (notation) or
    :data:`MAX_JSON_BYTES` (JSON), with exit 2."""
    if len(data) <= min(MAX_INPUT_BYTES, MAX_JSON_BYTES):
        return
    head = data[:4096]
    head = head if isinstance(head, str) else head.decode("utf-8", errors="replace")
    json_input = is_json_input(path, head)
    limit = MAX_JSON_BYTES if json_input else MAX_INPUT_BYTES
    if len(data) > limit:
        hint = (
            "split it for this command"
            if json_input
            else "give it as a file: check, show, convert and fmt stream a .sun file of any size"
        )
        raise CliError(f"larger than {_size(limit)}: too big to read whole ({hint})", path=path)


def _size(n: int) -> str:
    """A size in bytes as people read it: ``4 MiB``, ``10000 bytes``."""
    mib = 1024 * 1024
    return f"{n // mib} MiB" if n % mib == 0 else f"{n} bytes"


def read_text(path: str) -> str:
    """A whole file (or standard input) as text, line ends as written; refused beyond
    :data:`MAX_INPUT_BYTES` (notation) or :data:`MAX_JSON_BYTES` (JSON)."""
    if path == STDIN:
        return read_stdin()
    try:
        with open(path, "rb") as handle:
            data = handle.read(max(MAX_INPUT_BYTES, MAX_JSON_BYTES) + 1)
    except OSError as exc:
        raise os_error(exc, path) from None
    _check_input_size(data, path)
    return decode(data, path)


def is_json_input(path: str, text: str | None) -> bool:
    """JSON by the name's suffix; for standard input and other names, by the first chars."""
    if is_json_path(path):
        return True
    if path.lower().endswith(LOG_SUFFIX) or text is None:
        return False
    return looks_like_json(text)


def input_is_json(path: str, stdin_text: str | None = None) -> bool:
    """Whether a path holds JSON: by its name, else (stdin and other names) by its start.
    For standard input, pass the text already read from it."""
    if path == STDIN:
        return is_json_input(path, stdin_text)
    if is_json_path(path) or path.lower().endswith(LOG_SUFFIX):
        return is_json_path(path)
    return looks_like_json(_peek(path))


def games_from_text(text: str, *, json_input: bool) -> Iterator[Game]:
    """The games of a text: JSON through :mod:`sunlog.notation.jsonio`, else the notation reader."""
    from sunlog.notation.reader import read_games

    return _games_of_text(text, json_input, read_games)


def _games_of_text(text: str, json_input: bool, reader: _Reader) -> Iterator[Any]:
    if json_input:
        from sunlog.notation.jsonio import read_json_games

        yield from read_json_games(text)
        return
    yield from reader(io.StringIO(text, newline=None))


def read_games_from(path: str, *, stdin_text: str | None = None) -> Iterator[Game]:
    """Stream the games of a path: a ``.sun`` file is read a game at a time.

    Standard input is read whole first (``stdin_text`` when the caller already did).
    Raises :class:`LogSyntaxError` for a file that is not a log, :class:`CliError` for
    one that cannot be read.
    """
    from sunlog.notation.reader import read_games

    return _games_of_path(path, stdin_text, read_games)


def games_to_check(path: str, *, stdin_text: str | None = None) -> Iterator[Game | ValidGame]:
    """As :func:`read_games_from`, except that a notation game the quick lane of
    :mod:`sunlog.notation.quickcheck` finds valid comes as its :class:`ValidGame`."""
    from sunlog.notation.quickcheck import check_games

    return _games_of_path(path, stdin_text, check_games)


def _games_of_path(path: str, stdin_text: str | None, reader: _Reader) -> Iterator[Any]:
    if path == STDIN:
        text = read_stdin() if stdin_text is None else stdin_text
        yield from _games_of_text(text, is_json_input(path, text), reader)
        return
    if is_json_path(path):
        yield from _games_of_text(read_text(path), True, reader)
        return
    if not path.lower().endswith(LOG_SUFFIX):
        head = _peek(path)
        if looks_like_json(head):
            yield from _games_of_text(read_text(path), True, reader)
            return
    try:
        # surrogateescape: the reader finds a byte that is not UTF-8 and says where it is
        with open(path, encoding="utf-8", errors="surrogateescape", newline=None) as handle:
            yield from reader(handle)
    except OSError as exc:
        raise os_error(exc, path) from None


def _peek(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(4096).decode("utf-8", errors="replace")
    except OSError as exc:
        raise os_error(exc, path) from None


def load_game(path: str, index: int) -> Game:
    """The ``index``-th game (1-based) of a file; exit 2 when the file has fewer.

    A fault in the file as a whole comes out as a :class:`LogError` naming the path.
    """
    count = 0
    try:
        for game in read_games_from(path):
            count += 1
            if count == index:
                return game
    except LogError as exc:
        exc.path = path
        raise
    games = "1 game" if count == 1 else f"{count} games"
    raise CliError(f"the file holds {games}: --game must be 1 to {count}", path=path)


# ------------------------------------------------------------------ positions


def check_at(game: Game, at: int | None, path: str) -> None:
    """``--at`` beyond the moves of a game read to its end is a usage error (exit 2)."""
    total = len(game.moves)
    if at is not None and at > total and game.error is None:
        moves = "1 move" if total == 1 else f"{total} moves"
        raise CliError(f"game {game.index} has {moves}: --at must be 0 to {total}", path=path)


def position_at(game: Game, at: int | None, path: str, *, canonical: bool = False) -> Replay:
    """Replay a game up to ``at`` moves (all by default); its error only if it comes first.

    ``--at`` beyond the moves of a readable game is a usage error (exit 2). A syntax
    error after the wanted position does not stop it; one before it does.
    """
    from sunlog.notation.replay import replay

    check_at(game, at, path)
    total = len(game.moves)
    result = replay(game, upto=at, canonical=canonical)
    error = result.error
    if error is not None and error is game.error and at is not None:
        blocks = at > total or (error.move is None and not game.moves)
        if not blocks:
            error = None
    if error is not None:
        error.path = path
        if error.game is None:
            error.game = game.index
    return result if error is result.error else _without_error(result)


def _without_error(result: Replay) -> Replay:
    from dataclasses import replace

    return replace(result, error=None)


def last_move_text(game: Game, count: int) -> str | None:
    """The ``count``-th move as written, with its annotation (for the board's header)."""
    if count <= 0 or count > len(game.moves):
        return None
    gm = game.moves[count - 1]
    return f"{gm.text}{gm.annotation or ''}"


# ------------------------------------------------------------------ error reports


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
        else:
            with open(path, encoding="utf-8", errors="replace", newline=None) as f:
                found = next(itertools.islice(f, line - 1, None), None)
    except OSError:
        return None
    if found is None:
        return None
    if line == 1:
        found = found.removeprefix("\ufeff")
    return found.rstrip("\r\n")


def caret(source: str, column: int, length: int = 1) -> str:
    """The source line and, under it, ``^~~~`` from ``column`` (1-based) over ``length``.

    Tabs before the column are kept, so the caret lines up however wide a tab is shown;
    a long line is cut to the part around the column.
    """
    start = max(0, column - 1 - CONTEXT)
    end = min(len(source), column - 1 + max(length, 1) + CONTEXT)
    shown = source[start:end]
    lead = "..." if start > 0 else ""
    tail = "..." if end < len(source) else ""
    pad = "".join(c if c == "\t" else " " for c in lead + source[start : column - 1])
    width = max(1, min(length, len(source) - (column - 1)))
    return f"  {lead}{shown}{tail}\n  {pad}^{'~' * (width - 1)}"


def error_report(error: LogError, game: int | None, source: str | None) -> str:
    """The heading, then the source line with a caret under the column when known.

    Control characters from the log are shown as visible stand-ins (:func:`printable`)."""
    lines = [error_heading(error, game)]
    if source is not None and error.column is not None:
        source = printable(source)
        length = 1
        if error.text and source[error.column - 1 :].startswith(printable(error.text)):
            length = len(error.text)
        lines.append(caret(source, error.column, length))
    return "\n".join(lines)


# Control characters, line separators and undecodable bytes from a log would act on the
# terminal or split a one-line report; each is shown as one visible character instead.
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures: ␛ for ESC, ␋ for VT...
    return "\u2421" if code == 0x7F else "\ufffd"


def printable(text: str) -> str:
    """``text`` with each control character shown as one visible character (tabs kept), so
    that a report stays on its lines and a caret under it stays in place."""
    return _UNPRINTABLE.sub(_stand_in, text)


# ------------------------------------------------------------------ check


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
    if error is None:
        return CheckReport(path, game.index, result.moves, claimed)
    error.path = path
    error.game = error.game or game.index
    source = None
    if error.line is not None:
        source = source_line(path, error.line, text=text)
    board = None
    if verbose and (error.move is not None or result.moves):
        board = board_plain(result.board)
    return CheckReport(path, game.index, result.moves, claimed, error, source, board)


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
    if board.deals < DEALS:
        return ["deal C1 ... C13 (the deck is not known: name the 13 cards dealt)"]
    if board.stage is Stage.WIND or board.deal_number is not None:
        return []
    collected = [c for cloud in board.clouds for c in cloud]
    collected += [c for ray in board.rays for c in ray]
    if board.is_legal(Move.wind(collected)):
        n = len(collected)
        return [f"wind C1 ... C{n} (no Deal tag: name the row of the {n} collected cards)"]
    return []


# ------------------------------------------------------------------ analysis


def analysis_lines(found: Analysis, chosen: Game, total: int) -> list[str]:
    """What :func:`sunlog.play.solver.analyze` found, in sentences."""
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


# ------------------------------------------------------------------ writing


def write_atomically(path: str, text: str | IO[str]) -> None:
    """Replace a file's content all at once: a temporary file beside it, then a rename.

    ``text`` is a string or a text stream to copy. The file keeps its permission bits;
    nothing is left behind when writing fails.
    """
    target = Path(path)
    directory = target.parent
    mode = _new_file_mode()
    with contextlib.suppress(FileNotFoundError):
        mode = target.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            if isinstance(text, str):
                handle.write(text)
            else:
                shutil.copyfileobj(text, handle)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    """The permission bits a new file gets here (0666 less the umask), not mkstemp's 0600."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (or would, once ``b`` exists)."""
    if a == STDIN or b == STDIN:
        return False
    pa, pb = Path(a), Path(b)
    try:
        if pa.exists() and pb.exists():
            return os.path.samefile(pa, pb)
    except OSError:
        pass
    return pa.resolve() == pb.resolve()


def dumps(obj: Any) -> str:
    """Compact one-line JSON, UTF-8 characters kept (for JSON Lines)."""
    return json.dumps(obj, ensure_ascii=False)


def dumps_pretty(obj: Any, indent: str = "") -> str:
    """Readable JSON: a leaf object (a move, a tag, a pile) on one line, the rest indented.

    A leaf holds only scalars and lists of scalars, so a game reads as one move a line.
    """
    if _is_leaf(obj):
        return dumps(obj)
    inner = indent + "  "
    if isinstance(obj, dict):
        items = [f"{inner}{dumps(k)}: {dumps_pretty(v, inner)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [f"{inner}{dumps_pretty(v, inner)}" for v in obj]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"


def _is_scalar_list(value: Any) -> bool:
    return isinstance(value, list) and not any(isinstance(x, dict | list) for x in value)


def _is_leaf(obj: Any) -> bool:
    """A scalar, a list of scalars, or an object of scalars and lists of scalars."""
    if isinstance(obj, dict):
        return all(not isinstance(v, dict | list) or _is_scalar_list(v) for v in obj.values())
    return not isinstance(obj, list) or _is_scalar_list(obj)
