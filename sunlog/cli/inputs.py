"""Reading the command line's inputs: finding logs below directories, reading files and
standard input (with size limits), telling JSON from notation, and choosing a game.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, TextIO, TypeVar

from sunlog.notation.errors import LogError, LogErrorCode, LogSyntaxError

if TYPE_CHECKING:
    from sunlog.notation.game import Game
    from sunlog.notation.quickcheck import ValidGame
    from sunlog.notation.reader import Headers
    from sunlog.notation.replay import Replay


#: The path that means standard input.
STDIN = "-"


#: What an empty path (``sunlog show ""``) is said to be.
EMPTY_PATH = "an empty path names no file (is a variable unset?)"


#: Suffixes of notation logs, found when a directory is given.
LOG_SUFFIX = ".sun"


#: What a reader of notation yields: a Game, or (check's quick lane) a ValidGame too.
_G = TypeVar("_G")

# What reads a notation stream: read_games, or check_games for check's quick lane.
_Reader = Callable[[TextIO], Iterator[_G]]


#: Suffixes read as JSON (a document, JSON Lines or one game).
JSON_SUFFIXES = (".json", ".jsonl")


#: Notation read whole (standard input) is refused beyond
#: this many bytes; check, show, convert and fmt stream a .sun file of any size
#: (docs/limits.md).
MAX_INPUT_BYTES = 4 * 1024 * 1024


#: JSON, always read whole, is refused beyond this many bytes (it is some 14 times the size
#: of its notation, so convert's JSON of a file of MAX_INPUT_BYTES converts back).
MAX_JSON_BYTES = 64 * 1024 * 1024


# JSON input begins with an object whose first member is a quoted name, its colon and the
# start of a value, or is an empty object. A `{ comment }` of the notation may open with a
# quote too (`{"Sunday" at the club}`, `{"Note": played at home}`): what follows the name
# tells them apart. A document cut off early (in the name, after the colon) is still JSON.
_NAME_OPEN = r'"(?:[^"\\\n]|\\.)*'  # a JSON string without its closing quote
_VALUE_START = r'(?:["{[0-9-]|(?:true|false|null)\b|$)'
_JSON_START = re.compile(
    rf'[\ufeff\s]*\{{\s*(?:{_NAME_OPEN}(?:"\s*(?::\s*{_VALUE_START}|$)|$)|\}}\s*$)'
)


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
    """An I/O error as a :class:`CliError` with the OS's own words (exit 2); for an empty
    path, which the OS cannot name, what it most likely is."""
    if not path:
        return CliError(EMPTY_PATH)
    cause = exc.strerror or str(exc)
    if isinstance(exc, IsADirectoryError):
        cause = "is a directory"
    elif isinstance(exc, FileNotFoundError):
        cause = "no such file or directory"
    return CliError(cause.lower() if cause[:1].isupper() else cause, path=path)


def expand_paths(paths: Sequence[str]) -> Iterator[str | CliError]:
    """Each path as given, a directory as every ``*.sun`` below it (sorted), or an error.

    Hidden directories (``.git``...) are skipped; ``-`` stands for standard input.
    """
    for path in paths:
        if path == STDIN:
            yield path
            continue
        if not path:  # an unset shell variable, most likely
            yield CliError(EMPTY_PATH)
            continue
        if os.path.isdir(path):
            from pathlib import PurePath  # its spelling of the directory (a/./b as a/b)

            found = _logs_below(str(PurePath(path)))
            if not found:
                yield CliError(f"no {LOG_SUFFIX} logs in this directory", path=path)
            yield from found
        elif os.path.exists(path):
            yield path
        else:
            try:  # the OS's own words: a loop of links is not a missing file
                os.stat(path)
                yield CliError("no such file or directory", path=path)
            except OSError as exc:
                yield os_error(exc, path)


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
            code=LogErrorCode.NOT_UTF8,
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


def read_once(path: str) -> str | None:
    """The whole text of what can be read only once: standard input, or a pipe or FIFO
    given by its path (``<(cmd)``, ``/dev/stdin``), with standard input's size limits.
    ``None`` for a file that can be read again (it is streamed). For a caller that must
    know the format before reading the games (``convert``'s default target)."""
    if path == STDIN:
        return read_stdin()
    try:
        fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return None  # the open that follows says what is wrong
    return read_text(path) if fifo else None


def input_is_json(path: str, stdin_text: str | None = None) -> bool:
    """Whether a path holds JSON: by its name, else (stdin and other names) by its start.

    For standard input (or a pipe read by :func:`read_once`), pass the text read from it.
    Another path that is not a regular file (a pipe, a FIFO) is never opened here: reading
    it would consume it, so its format is decided on the one handle that reads it
    (:func:`read_games_from`).
    """
    if path == STDIN or stdin_text is not None:
        return is_json_input(path, stdin_text)
    if is_json_path(path) or path.lower().endswith(LOG_SUFFIX):
        return is_json_path(path)
    if not _is_regular(path):
        return False
    with _open_binary(path) as handle:
        return looks_like_json(_head(handle).decode("utf-8", errors="replace"))


def _is_regular(path: str) -> bool:
    """Whether ``path`` names a regular file (one that can be read twice)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # the open that follows says what is wrong, in the OS's words


def games_from_text(text: str, *, json_input: bool) -> Iterator[Game]:
    """The games of a text: JSON through :mod:`sunlog.notation.jsonio`, else the notation reader."""
    from sunlog.notation.reader import read_games

    return _games_of_text(text, json_input, read_games)


def _games_of_text(text: str, json_input: bool, reader: _Reader[_G]) -> Iterator[_G | Game]:
    if json_input:
        from sunlog.notation.jsonio import read_json_games

        yield from read_json_games(text)
        return
    yield from reader(io.StringIO(text, newline=None))


def read_games_from(path: str, *, stdin_text: str | None = None) -> Iterator[Game]:
    """Stream the games of a path: a ``.sun`` file is read a game at a time.

    Standard input is read whole first; ``stdin_text`` is the text the caller already read
    (of standard input, or of a pipe by :func:`read_once`).
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


def headers_from(path: str, *, stdin_text: str | None = None) -> Iterator[Headers]:
    """The tags of each game of a ``.sun`` path, each with its text as written
    (:func:`sunlog.notation.read_headers`: no move is read). A JSON input is refused:
    its games are not text as written."""
    from functools import partial

    from sunlog.notation.reader import Headers, read_headers

    refused = CliError("a JSON log: this reads .sun logs (sunlog convert first)", path=path)
    if path == STDIN and stdin_text is None:
        stdin_text = read_stdin()
    if is_json_path(path) or (stdin_text is not None and is_json_input(path, stdin_text)):
        raise refused
    # Any other path is opened once (a pipe gives its bytes once): JSON found in it is
    # refused at its first game.
    for item in _games_of_path(path, stdin_text, partial(read_headers, path=path)):
        if not isinstance(item, Headers):
            raise refused
        yield item


def _games_of_path(path: str, stdin_text: str | None, reader: _Reader[_G]) -> Iterator[_G | Game]:
    if path == STDIN or stdin_text is not None:
        text = read_stdin() if stdin_text is None else stdin_text
        yield from _games_of_text(text, is_json_input(path, text), reader)
        return
    # One open, whatever the path is: a pipe (<(cmd), /dev/stdin) or a FIFO gives its bytes
    # once, so the format is decided from the bytes read on the handle that reads the rest.
    with _open_binary(path) as handle:
        try:
            head = b"" if path.lower().endswith(LOG_SUFFIX) else _head(handle)
        except OSError as exc:
            raise os_error(exc, path) from None
        json_input = is_json_path(path) or (
            bool(head) and looks_like_json(head.decode("utf-8", errors="replace"))
        )
        if json_input:
            limit = max(MAX_INPUT_BYTES, MAX_JSON_BYTES) + 1
            try:
                data = head + handle.read(limit - len(head))
            except OSError as exc:
                raise os_error(exc, path) from None
            _check_input_size(data, path)
            yield from _games_of_text(decode(data, path), True, reader)
            return
        binary: IO[bytes] = handle
        if head and handle.seekable():  # a regular file: read it from its start again
            handle.seek(0)
        elif head:  # a pipe: the bytes read, then the rest
            binary = io.BufferedReader(_Replayed(head, handle))
        # surrogateescape: the reader finds a byte that is not UTF-8 and says where it is
        stream = io.TextIOWrapper(
            binary,
            encoding="utf-8",
            errors="surrogateescape",
            newline=None,
        )
        try:
            yield from reader(stream)
        except OSError as exc:
            raise os_error(exc, path) from None
        finally:
            stream.detach()


class _Replayed(io.RawIOBase):
    """A binary stream that gives ``head`` (bytes already read from ``rest``) again, then
    the rest of ``rest``: the sniffed start of a pipe is not lost."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            n = min(len(view), len(self._head))
            view[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read1(len(view)) if hasattr(self._rest, "read1") else b""
        view[: len(data)] = data
        return len(data)


#: What is read of a file whose name does not say its format, to tell JSON from notation.
_HEAD_BYTES = 4096


def _head(handle: IO[bytes]) -> bytes:
    """The first :data:`_HEAD_BYTES` of a stream (fewer only at its end): a pipe may give
    them in several reads."""
    parts: list[bytes] = []
    size = 0
    while size < _HEAD_BYTES:
        part = handle.read1(_HEAD_BYTES - size) if hasattr(handle, "read1") else b""
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def _open_binary(path: str) -> io.BufferedReader:
    """``open(path, "rb")``, the OS's error as a :class:`CliError` naming the path."""
    try:
        return open(path, "rb")  # the caller's with closes it
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
