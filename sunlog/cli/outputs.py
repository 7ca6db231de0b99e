"""Writing the command line's outputs: files replaced whole, never onto an input, and
standard streams that may be closed, full or gone.

:func:`write_atomically` is the one way a command writes a file (``fmt -i``,
``convert -o``, ``render -o``, ``html -o``, ``play -o``, ``record``); docs/limits.md says
what it guarantees. :func:`adopt_standard_streams` and :func:`finish` make a closed or
broken standard stream an exit code instead of lost output or a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
from dataclasses import dataclass
from typing import IO, Any

#: How much of a file is looked at to learn its line ends and BOM.
_SNIFF_BYTES = 1 << 16

_BOM = "\ufeff"


class TargetChangedError(OSError):
    """The file to rewrite vanished or changed while sunlog read it: it is left alone."""


def write_atomically(
    path: str, text: str | IO[str], *, replacing: os.stat_result | None = None
) -> None:
    """Write ``text`` (a string or a text stream to copy) to ``path`` so that the file
    always holds either its old content or the whole new one.

    A symbolic link is followed and the file it names is replaced (the link stays a
    link). A regular file is replaced by a temporary file beside it, fsync'ed, renamed
    over it, then the directory is fsync'ed; its permission bits and, where the process
    may, its owner and group are kept. A file with several hard links is rewritten in
    place (every link sees the new text) once the new text is whole and fsync'ed beside
    it. A device or a FIFO (``/dev/null``, ``/dev/stdout``) is written into. With
    ``replacing`` (the file's ``os.stat`` when it was read), a file that vanished or
    changed since is left as it is: :class:`TargetChangedError`. Failures are
    :class:`OSError` with the original intact and no temporary file left behind.
    """
    target = _final_target(path)
    try:
        before: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        before = None
    if replacing is not None:
        _check_unchanged(replacing, before)
    if before is not None and stat.S_ISDIR(before.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", path)
    if before is not None and not stat.S_ISREG(before.st_mode):
        with open(target, "w", encoding="utf-8", newline="") as handle:
            _copy(text, handle)
        return
    if before is not None and before.st_nlink > 1:
        _rewrite_in_place(target, text, before)
    else:
        _replace(target, text, before)


def _final_target(path: str) -> str:
    """The file a path names once its symbolic links are followed (a dangling link: the
    file it would create); a loop of links is an ``OSError`` (ELOOP)."""
    if not os.path.islink(path):
        return path
    try:
        return os.path.realpath(path, strict=True)
    except FileNotFoundError:
        return os.path.realpath(path)  # a dangling link: write the file it points to


def _check_unchanged(then: os.stat_result, now: os.stat_result | None) -> None:
    """Refuse to write over a file that is not the one that was read."""
    if now is None:
        raise TargetChangedError(errno.ENOENT, "vanished while sunlog read it: nothing written")
    same = (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) == (
        then.st_dev,
        then.st_ino,
        then.st_size,
        then.st_mtime_ns,
    )
    if not same:
        raise TargetChangedError(
            errno.EBUSY, "changed while sunlog read it: left as it is (run it again)"
        )


def _copy(text: str | IO[str], handle: IO[str]) -> None:
    if isinstance(text, str):
        handle.write(text)
    else:
        import shutil  # here, not at start-up: check writes no file

        shutil.copyfileobj(text, handle)


def _new_temporary(target: str) -> tuple[int, str]:
    directory = os.path.dirname(target) or "."
    name = os.path.basename(target)
    import tempfile  # here, not at start-up: check writes no file

    return tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)


def _replace(target: str, text: str | IO[str], before: os.stat_result | None) -> None:
    """Temporary file beside the target, fsync, keep mode and owner, rename, fsync dir."""
    fd, tmp = _new_temporary(target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            _copy(text, handle)
            handle.flush()
            os.fsync(handle.fileno())
        if before is not None:
            with contextlib.suppress(PermissionError):  # only root may give a file away
                os.chown(tmp, before.st_uid, before.st_gid)
        os.chmod(tmp, before.st_mode & 0o7777 if before is not None else _new_file_mode())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_directory(os.path.dirname(target) or ".")


def _rewrite_in_place(target: str, text: str | IO[str], before: os.stat_result) -> None:
    """Rewrite a hard-linked file in place, from a whole, fsync'ed copy of the new text.

    The space is reserved first (``posix_fallocate``), so a full disk stops the write
    before the file is touched. Should writing fail after that, the error names the
    temporary file that holds the whole new text.
    """
    fd, tmp = _new_temporary(target)
    keep = False  # once the file is touched, the whole new text is kept for the user
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            _copy(text, handle)
            handle.flush()
            os.fsync(handle.fileno())
            size = os.fstat(handle.fileno()).st_size
        with open(target, "r+b") as out:
            _reserve(out.fileno(), before.st_size, size)
            keep = True
            try:
                with open(tmp, "rb") as source:
                    import shutil

                    shutil.copyfileobj(source, out)
                out.truncate(size)
                out.flush()
                os.fsync(out.fileno())
            except OSError as exc:
                cause = exc.strerror or str(exc)
                raise OSError(exc.errno, f"{cause} (the new text is whole in {tmp})") from None
    except BaseException:
        if not keep:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    os.unlink(tmp)
    _fsync_directory(os.path.dirname(target) or ".")


def _reserve(fd: int, old_size: int, new_size: int) -> None:
    """Reserve the blocks a file will need, so that writing it cannot run out of space."""
    if new_size <= old_size or not hasattr(os, "posix_fallocate"):
        return
    try:
        os.posix_fallocate(fd, old_size, new_size - old_size)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, old_size)
        if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
            raise


def _fsync_directory(directory: str) -> None:
    """Make a rename durable; a file system that cannot fsync a directory is let be."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EOPNOTSUPP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _new_file_mode() -> int:
    """The permission bits a new file gets here (0666 less the umask), not mkstemp's 0600."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (or would, once ``b`` exists)."""
    from sunlog.cli.inputs import STDIN  # here: --version imports this module, not the notation

    if a == STDIN or b == STDIN:
        return False
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


# ------------------------------------------------------------------ line ends and BOM


@dataclass(frozen=True)
class TextForm:
    """How a file writes its text: a leading BOM or not, CRLF or LF line ends.

    ``fmt`` keeps both, so that a log saved on Windows stays as its editor wrote it.
    """

    bom: bool = False
    crlf: bool = False

    @property
    def newline(self) -> str:
        """The ``newline=`` that writes these line ends through a text stream."""
        return "\r\n" if self.crlf else "\n"

    @classmethod
    def of_text(cls, text: str) -> TextForm:
        """The form of a text read with its line ends as written; CRLF if its first
        line ends so."""
        end = text.find("\n", 0, _SNIFF_BYTES)
        return cls(bom=text.startswith(_BOM), crlf=end > 0 and text[end - 1] == "\r")

    @classmethod
    def of_file(cls, path: str) -> TextForm:
        """The form of a file, from its first line (an ``OSError`` if it cannot be read)."""
        with open(path, "rb") as handle:
            head = handle.read(_SNIFF_BYTES)
        end = head.find(b"\n")
        return cls(bom=head.startswith(b"\xef\xbb\xbf"), crlf=end > 0 and head[end - 1] == 13)


# ------------------------------------------------------------------ standard streams


class StreamClosedError(OSError):
    """A standard stream that was closed when sunlog started was read or written."""


class _ClosedStream(io.TextIOBase):
    """Stands in for a standard stream whose file descriptor was closed at start.

    Standard input and output raise :class:`StreamClosedError` when used (the command
    says so and exits 2); standard error swallows what is written and remembers that
    something was lost (the exit code then says so).
    """

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, name: str, *, lossy: bool) -> None:
        super().__init__()
        self.name, self.lossy = name, lossy

    def isatty(self) -> bool:
        return False

    def readable(self) -> bool:
        return not self.lossy

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        raise io.UnsupportedOperation(f"{self.name} is closed")

    def write(self, s: str) -> int:
        if self.lossy:
            _LOST.add(self.name)
            return len(s)
        raise StreamClosedError(errno.EBADF, f"{self.name} is closed: the output has nowhere to go")

    def read(self, size: int | None = -1) -> str:
        raise StreamClosedError(errno.EBADF, f"{self.name} is closed: there is nothing to read")

    def flush(self) -> None:
        pass


def is_closed_stream(stream: object) -> bool:
    """Whether ``stream`` is a standard stream closed at start (or missing)."""
    return stream is None or isinstance(stream, _ClosedStream)


#: The standard streams something was lost on (standard error closed, full or gone).
_LOST: set[str] = set()


def adopt_standard_streams() -> None:
    """Put a stand-in for each standard stream closed at start (``>&-``, ``2>&-``).

    Its file descriptor is opened on ``/dev/null`` too, so that no file sunlog opens
    later takes the number 0, 1 or 2 (and gets messages meant for a terminal).
    """
    names = [("stdin", "standard input"), ("stdout", "standard output")]
    names.append(("stderr", "standard error"))
    for fd, (attribute, name) in enumerate(names):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        with contextlib.suppress(OSError):
            opened = os.open(os.devnull, os.O_RDWR)
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)
        setattr(sys, attribute, _ClosedStream(name, lossy=attribute == "stderr"))


def to_stderr(text: str) -> None:
    """Print a line on standard error; when it cannot be written (closed, full, its
    reader gone), remember that it was lost instead of failing.

    Plain ASCII is written as it is, without importing Typer (the line said when Ctrl-C
    came while sunlog was loading); other text goes through ``typer.echo``, which drops
    escape sequences off a terminal and copes with a stream that cannot encode it.
    """
    stream: Any = sys.stderr
    try:
        if stream is None:
            raise StreamClosedError(errno.EBADF, "standard error is closed")
        if text.isascii() and "\033" not in text:
            stream.write(f"{text}\n")
            stream.flush()
        else:
            import typer

            typer.echo(text, err=True)
    except (OSError, ValueError):
        _LOST.add("standard error")
        silence(stream)


def output_lost() -> bool:
    """Whether some output could not be written (the exit code must not be 0)."""
    return bool(_LOST)


def silence(stream: Any) -> None:
    """Point a standard stream's file descriptor at /dev/null, so that flushing what is
    left in its buffer at exit raises nothing more (and prints no "Exception ignored")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor
        pass


def finish(code: int) -> int:
    """The exit code once what is buffered is written: at least 2 when output was lost.

    A reader that went away (``| head``) ends the output quietly with exit 2; any other
    failure to write standard output is said on standard error, exit 2.
    """
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        silence(sys.stdout)
        _LOST.add("standard output")
    except (OSError, ValueError) as exc:
        silence(sys.stdout)
        _LOST.add("standard output")
        to_stderr(f"sunlog: cannot write to standard output: {stream_cause(exc)}")
    with contextlib.suppress(OSError, ValueError):
        if sys.stderr is not None:
            sys.stderr.flush()
    return max(code, 2) if output_lost() else code


def stream_cause(exc: BaseException) -> str:
    """An error writing a stream, in the OS's words (lower case), without its number."""
    cause = getattr(exc, "strerror", None) or str(exc)
    return cause[:1].lower() + cause[1:]
