"""``solve --deals A-B -o FILE`` and ``stats --games N`` under hostile files and sizes
(issue 33, items 2, 4, 5, 6): a file that is not a results file is refused untouched, a
device or FIFO is refused by its path, resuming keeps the deals done rather than the
file's text, and memory stays flat in the number of deals or games."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostilekit import WON


def solve(*args: str | Path, memory: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "sunlog", "solve", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=limit,
    )


@pytest.mark.parametrize(
    "text",
    [b"notes\nline two", WON.read_bytes().rstrip(b"\n"), b'{"deal": 1}\n{"deal":'],
    ids=["notes", "a log", "a bad line before a torn one"],
)
def test_a_file_that_is_not_a_results_file_is_refused_untouched(
    tmp_path: Path, text: bytes
) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(text)
    ran = solve("--deals", "1-2", "--max-nodes", "200", "-o", path)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith(f"sunlog: {path}:1: "), ran.stderr
    assert path.read_bytes() == text


def test_a_torn_results_line_is_still_cut_and_redone(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    assert solve("--deals", "1-2", "--max-nodes", "200", "-o", path).returncode == 0
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"deal":3,"vari')
    ran = solve("--deals", "1-3", "--max-nodes", "200", "-o", path)
    assert ran.returncode == 0, ran.stderr
    assert "cut off a half-written last line (15 bytes)" in ran.stderr
    assert path.read_bytes().startswith(whole)
    assert sorted(json.loads(line)["deal"] for line in path.read_text().splitlines()) == [1, 2, 3]


@pytest.mark.parametrize("device", ["/dev/full", "/dev/zero", "fifo", "dir"])
def test_what_is_not_a_regular_file_is_refused_by_its_path(tmp_path: Path, device: str) -> None:
    target = Path(device)
    if device == "fifo":
        target = tmp_path / "results"
        os.mkfifo(target)
    elif device == "dir":
        target = tmp_path
    elif not target.exists():
        pytest.skip(f"no {device} here")
    ran = solve("--deals", "1-2", "-o", target, memory=1 << 30)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith(f"sunlog: {target}: "), ran.stderr
    assert "regular file" in ran.stderr or "directory" in ran.stderr
    assert "Traceback" not in ran.stderr and "seekable" not in ran.stderr


def test_the_whole_documented_range_runs(tmp_path: Path) -> None:
    """``--deals 0-18446744073709551615``: 2^64 deals, more than len() can count."""
    path = tmp_path / "r.jsonl"
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sunlog",
            "solve",
            "--deals",
            "0-18446744073709551615",
            "--max-nodes",
            "10",
            "-o",
            str(path),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while child.poll() is None and time.monotonic() < deadline:
            if path.exists() and path.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
    assert "internal error" not in err, err
    assert child.returncode == 2 and "interrupted" in err, err
    assert path.read_bytes().count(b"\n") >= 3


@pytest.mark.slow  # a 54 MB file written and read back
def test_resuming_keeps_the_deals_not_the_text(tmp_path: Path) -> None:
    """A 54 MB results file, every deal done: resuming reads it a line at a time."""
    path = tmp_path / "r.jsonl"
    deals = 300_000
    line = (
        '{{"deal":{},"variant":"sun","verdict":"lost","nodes":10,"seconds":0.0,'
        '"length":null,"max_nodes":10,"timeout":null,"line":null,"note":"{}"}}\n'
    )
    with path.open("w") as out:
        out.writelines(line.format(deal, "x" * 40) for deal in range(deals))
    code = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(path), str(deals - 1)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert code.returncode == 0, code.stderr
    peak_mib, out = code.stdout.split(" ", 1)
    assert "0 solved now, 300000 already in" in out, out
    assert int(peak_mib) < 200, f"{peak_mib} MiB to resume a 54 MB file"


# Measured in a child of its own, so that RUSAGE_CHILDREN holds this run alone.
_MEASURE = """
import resource, subprocess, sys
ran = subprocess.run(
    [sys.executable, "-m", "sunlog", "solve", "--deals", "0-" + sys.argv[2],
     "--max-nodes", "10", "-o", sys.argv[1]], capture_output=True, text=True, timeout=100)
assert ran.returncode == 0, ran.stderr
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, ran.stderr)
"""


@pytest.mark.slow  # six seconds of play each
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_stats_of_a_trillion_games_does_not_allocate_them(jobs: str) -> None:
    """``stats --games 10^12`` under a 1 GiB address space: it plays, memory flat, until
    Ctrl-C (the old code built the list of every chunk first)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    child = subprocess.Popen(
        [sys.executable, "-m", "sunlog", "stats", "--games", "1000000000000", "-j", jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
        start_new_session=True,
    )
    try:
        time.sleep(6)
        running = child.poll() is None
        peak_kib = _peak_resident_kib(child.pid)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait(timeout=30)
    assert running, err
    assert peak_kib < 250 * 1024, f"{peak_kib // 1024} MiB after 6 s"
    assert child.returncode == 2 and "interrupted" in err, err
    assert "MemoryError" not in err and "internal error" not in err, err


def _peak_resident_kib(pid: int) -> int:
    """A running process's peak resident memory so far (Linux's VmHWM), in KiB."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except FileNotFoundError:  # it ended already
        pass
    return 0


def test_a_file_that_cannot_be_written_is_named_in_the_error() -> None:
    """``/proc/version`` is a regular file to ``stat`` that refuses appends (EINVAL)."""
    if not Path("/proc/version").exists():
        pytest.skip("no /proc here")
    ran = solve("--deals", "1-2", "-o", "/proc/version")
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith("sunlog: /proc/version: "), ran.stderr
