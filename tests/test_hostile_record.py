"""``sunlog record`` with other writers about (issue 33, item 9): two recorders on one FILE
through real pseudo-terminals (pexpect), another program changing FILE under a recorder,
and a closed standard input. Every child has a timeout and is killed at the end."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ptykit
import pytest

pexpect = pytest.importorskip("pexpect")

DEAL = "20261129"
ENV = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}


@pytest.fixture
def recorders() -> Iterator[list[Any]]:
    """Recorders started on a terminal; each is killed (by its pid) when the test ends."""
    started: list[Any] = []
    yield started
    for child in started:
        if child.isalive():
            child.terminate(force=True)
        child.close()


def record(started: list[Any], log: Path, *extra: str) -> Any:
    child = ptykit.spawn(
        sys.executable,
        ["-m", "sunlog", "record", str(log), *extra],
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=30,
        env=ENV,
    )
    started.append(child)
    return child


def test_a_second_recorder_of_one_file_is_refused(tmp_path: Path, recorders: list[Any]) -> None:
    log = tmp_path / "game.sun"
    first = record(recorders, log, "--deal", DEAL)
    first.expect_exact("move 1> ")
    second = record(recorders, log)
    second.expect(pexpect.EOF)
    second.close()
    assert second.exitstatus == 2, second.before
    assert "another sunlog record is writing this file" in second.before
    first.sendline("deal")  # the first goes on, alone
    first.expect_exact("move 2> ")
    first.sendline("quit")
    first.expect(pexpect.EOF)
    first.close()
    assert first.exitstatus == 0
    assert log.read_text().endswith("deal\n*\n")


def test_a_recorder_after_a_rewrite_still_holds_the_file(
    tmp_path: Path, recorders: list[Any]
) -> None:
    """``undo`` renames a new file over FILE: the recorder locks the new file at once."""
    log = tmp_path / "game.sun"
    first = record(recorders, log, "--deal", DEAL)
    first.expect_exact("move 1> ")
    first.sendline("deal")
    first.expect_exact("move 2> ")
    first.sendline("undo")
    first.expect_exact("move 1> ")
    second = record(recorders, log)
    second.expect(pexpect.EOF)
    second.close()
    assert second.exitstatus == 2, second.before


@pytest.mark.parametrize("change", ["append", "rewrite", "remove"])
def test_a_file_changed_under_a_recorder_stops_it(
    tmp_path: Path, recorders: list[Any], change: str
) -> None:
    log = tmp_path / "game.sun"
    first = record(recorders, log, "--deal", DEAL)
    first.expect_exact("move 1> ")
    first.sendline("deal")
    first.expect_exact("move 2> ")
    theirs = f'[Deal "{DEAL}"]\n\ndeal\n{{ another program was here }}\n*\n'
    if change == "append":
        with log.open("a") as out:
            out.write("{ another program was here }\n")
        theirs = log.read_text()
    elif change == "rewrite":
        other = tmp_path / "other.sun"
        other.write_text(theirs)
        other.replace(log)
    else:
        log.unlink()
    first.sendline("r1:AC>A")
    first.expect(pexpect.EOF)
    first.close()
    assert first.exitstatus == 2, first.before
    assert "since record last wrote it: stopped" in first.before
    if change == "remove":
        assert not log.exists()
    else:
        assert log.read_text() == theirs  # left as the other program made it


def test_record_with_standard_input_closed_creates_nothing(tmp_path: Path) -> None:
    log = tmp_path / "g4.sun"
    ran = subprocess.run(
        [sys.executable, "-m", "sunlog", "record", str(log), "--deal", "4"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: os.close(0),
    )
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.strip() == "sunlog: standard input is closed: record reads the moves from it"
    assert not log.exists()
