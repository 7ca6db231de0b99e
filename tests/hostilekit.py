"""Running ``sunlog`` as a real process, for the hostile suites: under ``resource`` limits
(address space, CPU seconds), a wall-clock timeout, and with standard streams closed.

The commands come from ``sunlog.cli.app`` itself, so that a command added later (such as
``record``) joins the suites that can drive it without knowing it.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import typer
import typer.main

from sunlog import cli

ROOT = Path(__file__).resolve().parent.parent
WON = ROOT / "samples" / "won-sun.sun"
LOST = ROOT / "samples" / "lost-sun.sun"
ILLEGAL = ROOT / "samples" / "invalid" / "illegal-move.sun"
BAD_CARD = ROOT / "samples" / "invalid" / "bad-card.sun"  # a syntax error: convert too

#: The address space a hostile case may take (sunlog needs about 300 MB at worst).
MEMORY_LIMIT = 1 << 30

#: The CPU seconds a hostile case may take before the kernel stops it.
CPU_LIMIT = 60


@dataclass(frozen=True)
class Ran:
    """What one run of ``sunlog`` did."""

    args: tuple[str, ...]
    code: int
    stdout: bytes
    stderr: bytes
    seconds: float

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", errors="replace")

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")

    def __str__(self) -> str:
        return f"sunlog {' '.join(self.args)[:200]} -> {self.code}: {self.err[:500]!r}"


def commands() -> dict[str, Any]:
    """Every command registered on ``sunlog.cli.app``, by name (Click commands, whose
    ``params`` say what each takes)."""
    group: Any = typer.main.get_command(cli.app)
    return dict(group.commands)


def sunlog(
    args: Sequence[str | Path],
    *,
    stdin: bytes | Path | None = None,
    close: Sequence[int] = (),
    stdout: int | IO[Any] | None = subprocess.PIPE,
    memory: int = MEMORY_LIMIT,
    cpu: int = CPU_LIMIT,
    timeout: float = 120,
    cwd: Path | None = None,
) -> Ran:
    """Run ``python -m sunlog ARGS`` in a child process under limits; ``close`` names the
    standard file descriptors to close in the child before it starts (``>&-``)."""
    words = tuple(str(a) for a in args)

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        for fd in close:
            os.close(fd)

    feed: Any = subprocess.DEVNULL
    data = None
    if isinstance(stdin, Path):
        feed = open(stdin, "rb")  # noqa: SIM115 (closed below)
    elif stdin is not None:
        feed, data = subprocess.PIPE, stdin
    start = time.monotonic()
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "sunlog", *words],
            stdin=None if 0 in close else feed,
            stdout=None if 1 in close else stdout,
            stderr=None if 2 in close else subprocess.PIPE,
            preexec_fn=limits,
            cwd=cwd,
            env={**os.environ, "COLUMNS": "100", "PYTHONFAULTHANDLER": ""},
        )
        out, err = child.communicate(data, timeout=timeout)
    finally:
        if isinstance(stdin, Path):
            feed.close()
    return Ran(words, child.returncode, out or b"", err or b"", time.monotonic() - start)


def run_all(jobs: Sequence[Callable[[], Ran]], *, workers: int = 3) -> list[Ran]:
    """Run several children at once (each is mostly start-up time)."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda job: job(), jobs))


def assert_no_traceback(ran: Ran) -> None:
    text = ran.err + ran.out[:100_000]
    assert "Traceback" not in text, str(ran)
    assert "Exception ignored" not in text, str(ran)
    assert ran.code in (0, 1, 2), str(ran)  # not 120 (a failed flush), nor a signal


def assert_one_line_cause(ran: Ran, *, codes: Sequence[int] = (1, 2)) -> str:
    """Exit 1 or 2, no traceback, and a cause on the first line of stderr (or of stdout,
    for check's reports): short, printable, saying where and what."""
    assert_no_traceback(ran)
    assert ran.code in codes, str(ran)
    text = ran.err if ran.err.strip() else ran.out
    if ran.args[:1] == ("check",) and ran.out.strip():  # check reports on stdout
        text = ran.out
    assert text.strip(), str(ran)
    lines = text.splitlines()
    first = lines[0]
    assert len(first) < 400, str(ran)
    if first.startswith("Usage: "):  # Typer's usage error: the cause is in its box
        assert any("Invalid value" in x or "Error" in x or "Missing" in x for x in lines), str(ran)
        return first
    assert first.startswith("sunlog: ") or ":" in first, str(ran)
    assert len(first.split(": ")[-1]) > 5, str(ran)  # a cause, not only a place
    for line in lines:
        assert line.isprintable(), (str(ran), line[:100])
        assert len(line) < 400, (str(ran), line[:100])
    return first
