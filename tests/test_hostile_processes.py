"""Processes under hostile signals: ``-j N`` workers die with a parent killed alone, so a
pipeline's reader sees the end of its input, and SIGTERM stops a run as Ctrl-C does
(issue 33, item 7). Every child is waited for with a timeout, and any process left over is
killed by its pid when a test ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def children(pid: int) -> set[int]:
    """The pids of a process's children (Linux's /proc)."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.update(int(word) for word in handle.read().split())
        except FileNotFoundError:
            continue
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def wait_for(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def solving(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], set[int]]]:
    """``sunlog solve --deals ... -j 2`` running, its two workers busy; killed at the end."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sunlog",
            "solve",
            "--deals",
            "1-100000",
            "-j",
            "2",
            "--max-nodes",
            "100000000",
            "-o",
            str(tmp_path / "r.jsonl"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a signal to the test's group never reaches it
    )
    workers: set[int] = set()
    try:
        assert wait_for(lambda: len(children(child.pid)) >= 2, 30), "no workers started"
        time.sleep(0.5)  # into their first deals
        workers.update(children(child.pid))
        yield child, workers
    finally:
        for pid in [child.pid, *workers]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        child.communicate(timeout=30)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_end_with_a_parent_killed_alone(
    solving: tuple[subprocess.Popen[bytes], set[int]], sig: signal.Signals
) -> None:
    child, workers = solving
    os.kill(child.pid, sig)  # the parent alone, not its process group
    child.wait(timeout=30)
    assert wait_for(lambda: not any(alive(pid) for pid in workers), 10), "workers outlived"
    assert child.stdout is not None
    assert child.stdout.read() == b""  # the end of the pipe: nobody holds it open


def test_sigterm_stops_a_run_as_ctrl_c_does(
    solving: tuple[subprocess.Popen[bytes], set[int]],
) -> None:
    child, _ = solving
    os.kill(child.pid, signal.SIGTERM)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 2, err.decode()
    assert b"interrupted; run the same command again" in err
    assert b"Traceback" not in err
