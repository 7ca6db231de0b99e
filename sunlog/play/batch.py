"""Solve many deals into a results file that loses nothing: one JSON line per deal, resumable.

:func:`run_batch` solves deals ``A..B`` of one variant and appends one JSON object per deal
to a file as each finishes (flushed and ``fsync``'ed, so a kill loses at most the deal being
written). Run it again with the same settings and it skips the deals already in the file;
a half-written last line (a kill in the middle of a write) is cut off and its deal solved
again. ``jobs`` processes on this machine, or a ``dask.distributed`` cluster
(:mod:`sunlog.play.cluster`), do the same per-deal work, :func:`solve_one`; results arrive in
any order and the file is not sorted (readers key by deal). ``docs/winnability.md`` says how
the study was made; :mod:`sunlog.play.study` reads such files back.

A line is ``{"deal", "variant", "verdict", "nodes", "seconds", "length", "max_nodes",
"timeout"}`` and ``"line"`` (the winning moves as a list, canonical) with ``lines``.
Each line records its budget; a file holds one budget per variant: resuming with other
``max_nodes``/``timeout`` is refused (:class:`BatchError`), so budgets never mix silently.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from sunlog.engine.board import Variant
from sunlog.play.solver import solve_deal
from sunlog.play.workers import pooled

try:  # POSIX: a second writer of the same file is refused
    import fcntl
except ImportError:  # pragma: no cover (Windows: no lock)
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "BatchError",
    "BatchProgress",
    "BatchSettings",
    "BatchSummary",
    "ResultsFile",
    "parse_line",
    "run_batch",
    "solve_one",
]

#: The keys every result line has (``line`` is optional).
KEYS = ("deal", "variant", "verdict", "nodes", "seconds", "length", "max_nodes", "timeout")
_VERDICTS = ("won", "lost", "unknown")
#: Pending tasks per worker process: enough to keep each busy, few enough to stop quickly.
_WINDOW = 4


class BatchError(Exception):
    """A results file that cannot be read or resumed: ``path:line: what is wrong``."""


@dataclass(frozen=True)
class BatchSettings:
    """What decides a deal's result: the variant and the solver's budget (and ``lines``)."""

    variant: str = "sun"
    max_nodes: int | None = 1_000_000
    timeout: float | None = None
    lines: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", Variant.parse(self.variant).value)

    def budget(self) -> tuple[int | None, float | None]:
        """The budget a line records, and that must match to resume."""
        return (self.max_nodes, self.timeout)


def solve_one(deal: int, settings: BatchSettings) -> dict[str, Any]:
    """Solve one deal from its start: the result line as a dict (the work of one task)."""
    result = solve_deal(
        deal, settings.variant, max_nodes=settings.max_nodes, timeout=settings.timeout
    )
    record: dict[str, Any] = {
        "deal": deal,
        "variant": settings.variant,
        "verdict": result.verdict.value,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
        "length": None if result.line is None else len(result.line),
        "max_nodes": settings.max_nodes,
        "timeout": settings.timeout,
    }
    if settings.lines:
        record["line"] = None if result.line is None else [str(move) for move in result.line]
    return record


def parse_line(text: str, where: str) -> dict[str, Any]:
    """One result line, checked; ``where`` (``path:line``) names it in the error."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BatchError(f"{where}: not a JSON line ({exc.msg})") from None
    if not isinstance(record, dict) or any(key not in record for key in KEYS):
        raise BatchError(f"{where}: not a result line (it needs {', '.join(KEYS)})")
    if record["verdict"] not in _VERDICTS:
        raise BatchError(f"{where}: unknown verdict {record['verdict']!r}")
    if not isinstance(record["deal"], int) or not isinstance(record["nodes"], int):
        raise BatchError(f"{where}: deal and nodes must be integers")
    return record


def _budget_text(max_nodes: int | None, timeout: float | None) -> str:
    nodes = "no node limit" if max_nodes is None else f"--max-nodes {max_nodes}"
    return nodes + ("" if timeout is None else f" --timeout {timeout:g}")


@dataclass
class BatchProgress:
    """Running counts of one batch (the deals already in the file included)."""

    total: int
    won: int = 0
    lost: int = 0
    unknown: int = 0
    skipped: int = 0

    @property
    def done(self) -> int:
        return self.won + self.lost + self.unknown

    def add(self, verdict: str) -> None:
        setattr(self, verdict, getattr(self, verdict) + 1)

    def interval(self) -> tuple[float, float]:
        """Winnability so far, 95% Wilson, unknown as lost (low end) and as won (high end)."""
        from sunlog.play.wilson import wilson

        return (
            wilson(self.won, self.done)[0],
            wilson(self.won + self.unknown, self.done)[1],
        )


@dataclass(frozen=True)
class BatchSummary:
    """What a batch did: the counts over the whole range, and what this run solved."""

    settings: BatchSettings
    deals: range
    progress: BatchProgress
    solved: int
    dropped: int = 0


#: The longest line a results file may hold (a winning line of moves takes a few KiB).
MAX_LINE_BYTES = 1 << 20

#: How every result line begins (``json.dumps`` of :func:`solve_one`'s dict, compact).
_LINE_START = b'{"deal":'


def _torn(tail: bytes) -> bool:
    """Whether what follows a file's last newline is a result line cut off in its write:
    the start of one (or a part of that start). Anything else is not ours to cut."""
    return tail.startswith(_LINE_START) or _LINE_START.startswith(tail)


class ResultsFile:
    """A results file open for appending: what it holds, and an fsync'ed writer of lines.

    Opening it takes an exclusive lock (a second writer is refused), reads the file a line
    at a time, checking every line, and only then cuts off a half-written last line: a
    file that is not a results file (notes, a log) is refused untouched, and so is a path
    that is not a regular file (a device, a FIFO). What is kept of the lines is small:
    for ``settings``' variant the deals done, their counts within ``deals``, and the
    budgets seen (memory grows with the deals, never with the text of the lines).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        settings: BatchSettings | None = None,
        deals: range | None = None,
    ) -> None:
        self.path = os.fspath(path)
        self.settings = settings
        self.deals = deals if deals is not None else range(0)
        self.dropped = 0  # bytes of a half-written last line that were cut off
        self.lines = 0  # result lines in the file
        self.done: set[int] = set()  # the deals of settings' variant in the file
        self.counts = BatchProgress(total=self.deals.stop - self.deals.start)
        self.budgets: dict[tuple[int | None, float | None], int] = {}  # of settings' variant
        _refuse_special(self.path)
        self._file: IO[bytes] = open(self.path, "a+b")  # noqa: SIM115 (closed in close())
        try:
            _refuse_special(self.path, self._file.fileno())
            if fcntl is not None:
                fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            self._file.close()
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise BatchError(f"{self.path}: another run is writing this file") from None
            raise
        except BaseException:
            self._file.close()
            raise
        try:
            self._read()
        except BaseException:
            self.close()
            raise

    def _read(self) -> None:
        self._file.seek(0)
        whole = 0  # bytes of whole lines read
        number = 0
        while raw := self._file.readline(MAX_LINE_BYTES + 1):
            number += 1
            where = f"{self.path}:{number}"
            if len(raw) > MAX_LINE_BYTES:
                raise BatchError(f"{where}: not a result line (longer than {MAX_LINE_BYTES} bytes)")
            if not raw.endswith(b"\n"):  # the last line, unfinished
                if not _torn(raw):
                    raise BatchError(
                        f"{where}: not a result line, and the file does not end with a line "
                        "break: is this a results file? (nothing was changed)"
                    )
                self.dropped = len(raw)
                break
            whole += len(raw)
            if raw.strip():
                self._add(parse_line(raw.decode("utf-8", errors="replace"), where))
        if self.dropped:  # every line before it is a result line: cut off the torn one
            self._file.truncate(whole)
            os.fsync(self._file.fileno())

    def _add(self, record: dict[str, Any], *, read: bool = True) -> None:
        """Count a line read from the file (``read``) or just written."""
        self.lines += 1
        settings = self.settings
        if settings is None or record["variant"] != settings.variant:
            return
        budget = (record["max_nodes"], record["timeout"])
        self.budgets.setdefault(budget, record["deal"])
        deal = record["deal"]
        if deal not in self.done:  # a deal repeated in the file counts once
            self.done.add(deal)
            if deal in self.deals:
                self.counts.add(record["verdict"])
                self.counts.skipped += read

    def check(self) -> None:
        """Refuse to add to a file whose lines for this variant had another budget."""
        settings = self.settings
        if settings is None:
            return
        for max_nodes, timeout in self.budgets:
            if (max_nodes, timeout) != settings.budget():
                made = _budget_text(max_nodes, timeout)
                asked = _budget_text(settings.max_nodes, settings.timeout)
                raise BatchError(
                    f"{self.path}: its {settings.variant} results were made with {made}, "
                    f"not {asked}: choose another -o (budgets are never mixed in one file)"
                )

    def write(self, record: dict[str, Any]) -> None:
        """Append one line, flushed and fsync'ed before returning."""
        data = (json.dumps(record, separators=(",", ":")) + "\n").encode()
        self._file.write(data)
        self._file.flush()
        os.fsync(self._file.fileno())
        self._add(record, read=False)

    def close(self) -> None:
        if not self._file.closed:
            if fcntl is not None:
                fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _refuse_special(path: str, fd: int | None = None) -> None:
    """A results file is a regular file: a device (``/dev/full``, ``/dev/zero``), a FIFO
    or a directory is refused before anything is read from or written to it."""
    try:
        mode = os.fstat(fd).st_mode if fd is not None else os.stat(path).st_mode
    except FileNotFoundError:
        return  # a new file
    if not stat.S_ISREG(mode):
        what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise BatchError(f"{path}: {what}: -o names the results file (a regular file)")


def _parallel(deals: Iterable[int], settings: BatchSettings, jobs: int) -> Iterator[dict[str, Any]]:
    """Solve ``deals`` in ``jobs`` processes; results as they finish, in any order."""
    return pooled(jobs, solve_one, ((deal, settings) for deal in deals))


def _serial(deals: Iterable[int], settings: BatchSettings) -> Iterator[dict[str, Any]]:
    for deal in deals:
        yield solve_one(deal, settings)


def run_batch(
    deals: range,
    settings: BatchSettings,
    path: str | os.PathLike[str],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[BatchProgress], None] | None = None,
) -> BatchSummary:
    """Solve every deal of ``deals`` not yet in the file at ``path``, appending a line each.

    ``jobs`` processes here, or the ``dask.distributed`` cluster at ``scheduler``, share
    the work. ``progress`` is called with the running counts before the first result and
    after each. Raises :class:`BatchError` for a file that cannot be resumed.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    with ResultsFile(path, settings, deals) as results:
        results.check()
        counts, done = results.counts, results.done
        todo = (deal for deal in deals if deal not in done)  # lazy: ranges may be huge
        if progress:
            progress(counts)
        if scheduler is not None:
            stream: Iterator[dict[str, Any]] = _on_cluster(scheduler, todo, settings)
        elif jobs == 1:
            stream = _serial(todo, settings)
        else:
            stream = _parallel(todo, settings, jobs)
        solved = 0
        try:
            for record in stream:
                if record["deal"] in done:  # a result delivered twice is written once
                    continue
                results.write(record)  # counted in results.counts and results.done
                solved += 1
                if progress:
                    progress(counts)
        finally:  # Ctrl-C while writing or drawing: the workers stop now, not when collected
            if isinstance(stream, Generator):
                stream.close()
        return BatchSummary(settings, deals, counts, solved, dropped=results.dropped)


def _on_cluster(
    address: str, deals: Iterable[int], settings: BatchSettings
) -> Iterator[dict[str, Any]]:
    """Solve ``deals`` on the dask cluster at ``address``: :func:`solve_one`'s lines."""
    from sunlog.play.cluster import run_on_cluster

    tasks = ((f"sunlog-solve-{settings.variant}-{deal}", (deal, settings)) for deal in deals)
    return run_on_cluster(address, solve_one, tasks)
