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
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import IO, Any

from sunlog.engine.board import Variant
from sunlog.play.solver import solve_deal
from sunlog.play.workers import worker_pool

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


class ResultsFile:
    """A results file open for appending: what it holds, and an fsync'ed writer of lines.

    Opening it takes an exclusive lock (a second writer is refused), cuts off a half-written
    last line, and reads the lines already there.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.dropped = 0  # bytes of a half-written last line that were cut off
        self.records: list[dict[str, Any]] = []
        self._file: IO[bytes] = open(self.path, "a+b")  # noqa: SIM115 (closed in close())
        try:
            if fcntl is not None:
                fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            self._file.close()
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise BatchError(f"{self.path}: another run is writing this file") from None
            raise
        try:
            self._read()
        except BaseException:
            self.close()
            raise

    def _read(self) -> None:
        self._file.seek(0)
        data = self._file.read()
        end = data.rfind(b"\n") + 1  # everything after the last newline is half-written
        if end < len(data):
            self.dropped = len(data) - end
            self._file.truncate(end)
            os.fsync(self._file.fileno())
        for number, raw in enumerate(data[:end].splitlines(), 1):
            if raw.strip():
                text = raw.decode("utf-8", errors="replace")
                self.records.append(parse_line(text, f"{self.path}:{number}"))

    def check(self, settings: BatchSettings) -> None:
        """Refuse to add to a file whose lines for this variant had another budget."""
        for record in self.records:
            if record["variant"] != settings.variant:
                continue
            if (record["max_nodes"], record["timeout"]) != settings.budget():
                made = _budget_text(record["max_nodes"], record["timeout"])
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
        self.records.append(record)

    def close(self) -> None:
        if not self._file.closed:
            if fcntl is not None:
                fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
        from sunlog.play.stats import wilson

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
    records: tuple[dict[str, Any], ...] = field(default=(), repr=False)


def _parallel(deals: Iterable[int], settings: BatchSettings, jobs: int) -> Iterator[dict[str, Any]]:
    """Solve ``deals`` in ``jobs`` processes; results as they finish, in any order.

    Closed early (Ctrl-C, or a consumer that stops), it ends the workers at once.
    """
    with worker_pool(jobs) as pool:
        todo = iter(deals)
        running: set[Future[dict[str, Any]]] = set()
        while True:
            for deal in todo:
                running.add(pool.submit(solve_one, deal, settings))
                if len(running) >= jobs * _WINDOW:
                    break
            if not running:
                return
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()


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
    with ResultsFile(path) as results:
        results.check(settings)
        counts = BatchProgress(total=deals.stop - deals.start)  # len() fails past 2^63
        done: set[int] = set()
        for record in results.records:
            if record["variant"] == settings.variant and record["deal"] not in done:
                done.add(record["deal"])  # a deal repeated in the file counts once
                if record["deal"] in deals:
                    counts.add(record["verdict"])
                    counts.skipped += 1
        todo = (deal for deal in deals if deal not in done)  # lazy: ranges may be huge
        if progress:
            progress(counts)
        if scheduler is not None:
            from sunlog.play.cluster import solve_on_cluster

            stream: Iterator[dict[str, Any]] = solve_on_cluster(scheduler, todo, settings)
        elif jobs == 1:
            stream = _serial(todo, settings)
        else:
            stream = _parallel(todo, settings, jobs)
        solved = 0
        try:
            for record in stream:
                if record["deal"] in done:  # a result delivered twice is written once
                    continue
                done.add(record["deal"])
                results.write(record)
                counts.add(record["verdict"])
                solved += 1
                if progress:
                    progress(counts)
        finally:  # Ctrl-C while writing or drawing: the workers stop now, not when collected
            if isinstance(stream, Generator):
                stream.close()
        return BatchSummary(
            settings,
            deals,
            counts,
            solved,
            dropped=results.dropped,
            records=tuple(r for r in results.records if r["variant"] == settings.variant),
        )
