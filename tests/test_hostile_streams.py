"""Closed or broken standard streams, for every command (docs/limits.md, "Standard
streams"): standard output closed (``>&-``) or full (``>/dev/full``) is exit 2 with one
line on stderr; a reader that goes away (``| head -1``) ends the output quietly with exit
2; standard error closed (``2>&-``) loses nothing on stdout and makes a lost message
exit 2; standard input closed (``<&-``) is exit 2. Never exit 0 with output lost, never a
traceback. These run real processes with the file descriptors really closed.
"""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from hostilekit import (
    BAD_CARD,
    ILLEGAL,
    LOST,
    WON,
    Ran,
    assert_no_traceback,
    commands,
    run_all,
    sunlog,
)

#: For each command, an invocation that writes to standard output. A command missing
#: here (one added later) is driven by ``--help``, which writes to stdout as well.
WRITES_STDOUT: dict[str, list[str]] = {
    "check": ["check", "--json", str(WON)],
    "show": ["show", str(WON)],
    "moves": ["moves", str(WON), "--at", "0"],
    "replay": ["replay", str(WON)],
    "convert": ["convert", str(WON)],
    "fmt": ["fmt", str(WON)],
    "render": ["render", str(WON)],
    "html": ["html", str(WON)],
    "play": ["play", "--deal", "1", "--policy", "greedy"],
    "stats": ["stats", "--games", "2", "--policy", "greedy"],
    "solve": ["solve", "--deal", "1", "--max-nodes", "50", "--json"],
    "analyze": ["analyze", str(LOST), "--max-nodes", "50", "--json"],
}

#: For each command taking a log, an invocation with an invalid log (its report goes to
#: stderr, except check's); for the others, one with a bad option.
WRITES_STDERR: dict[str, list[str]] = {
    **{name: [name, str(ILLEGAL)] for name in ("show", "moves", "replay", "fmt")},
    "convert": ["convert", str(BAD_CARD)],
    **{name: [name, str(ILLEGAL)] for name in ("render", "html", "analyze", "check")},
    "play": ["play", "--deal", "1", "--policy", "greedy"],  # its result goes to stderr
    "stats": ["stats", "--variant", "sun-9", "--games", "1"],
    "solve": ["solve", str(ILLEGAL)],
}


def stdout_invocation(name: str) -> list[str]:
    return WRITES_STDOUT.get(name, [name, "--help"])


def every_command() -> list[str]:
    return sorted(commands())


def test_the_tables_cover_every_command_but_newcomers_still_run() -> None:
    """The commands of the app are those of the tables (a newcomer runs with --help)."""
    assert set(WRITES_STDOUT) <= set(every_command())
    assert {"check", "convert", "fmt", "stats"} <= set(every_command())


def closed_stdout_is_exit_2(ran: Ran) -> None:
    assert_no_traceback(ran)
    assert ran.code == 2, str(ran)
    lines = ran.err.splitlines()
    assert any(line.startswith("sunlog: ") and "standard output" in line for line in lines), str(
        ran
    )


#: The commands of the quick lane's stream tests (the slow lane runs every command).
QUICK = ("convert", "stats")


def test_closed_stdout_is_exit_2() -> None:
    """``sunlog convert game.sun >&-`` used to exit 0 having written nothing."""
    for ran in run_all([partial(sunlog, WRITES_STDOUT[n], close=[1]) for n in QUICK]):
        closed_stdout_is_exit_2(ran)


@pytest.mark.slow
def test_closed_stdout_is_exit_2_for_every_command() -> None:
    """Each invocation writes to stdout when it is open; closed, it exits 2 saying so."""
    names = every_command()
    for ran in run_all([partial(sunlog, stdout_invocation(n)) for n in names]):
        assert_no_traceback(ran)
        assert ran.stdout.strip(), str(ran)
    for ran in run_all([partial(sunlog, stdout_invocation(n), close=[1]) for n in names]):
        closed_stdout_is_exit_2(ran)


@pytest.mark.slow
def test_help_with_closed_stdout_is_exit_2_for_every_command() -> None:
    jobs = [partial(sunlog, [n, "--help"], close=[1]) for n in every_command()]
    for ran in run_all([*jobs, partial(sunlog, ["--help"], close=[1])]):
        closed_stdout_is_exit_2(ran)


def test_closed_stderr_loses_no_output_and_a_lost_message_is_exit_2() -> None:
    """``sunlog stats --games 300 2>&-`` used to exit 1 with no word (a traceback with
    nowhere to go)."""
    stats = ["stats", "--games", "30", "--policy", "greedy"]
    opened, closed = run_all([partial(sunlog, stats), partial(sunlog, stats, close=[2])])
    assert opened.code == closed.code == 0, (str(opened), str(closed))
    assert closed.stdout == opened.stdout and b"won" in closed.stdout
    play = sunlog(WRITES_STDERR["play"], close=[2])
    assert play.code == 2 and play.stdout.startswith(b"[Event")  # the log is whole


@pytest.mark.slow
def test_closed_stderr_for_every_command() -> None:
    """Stdout as with stderr open; exit 0 if nothing was meant for stderr, else 2."""
    names = every_command()
    normal = run_all([partial(sunlog, stdout_invocation(n)) for n in names])
    shut = run_all([partial(sunlog, stdout_invocation(n), close=[2]) for n in names])
    for opened, closed in zip(normal, shut, strict=True):
        assert closed.code == (2 if opened.stderr else opened.code), (str(opened), str(closed))
        if opened.args[0] not in ("play", "solve", "analyze", "stats"):  # timings vary
            assert closed.stdout == opened.stdout, str(closed)
    failing = [WRITES_STDERR[n] for n in names if n in WRITES_STDERR]
    normal = run_all([partial(sunlog, a) for a in failing])
    shut = run_all([partial(sunlog, a, close=[2]) for a in failing])
    for opened, closed in zip(normal, shut, strict=True):
        assert opened.stderr, str(opened)
        assert closed.code == 2, (str(opened), str(closed))  # the message is lost: exit 2
        assert closed.stdout == opened.stdout, str(closed)


@pytest.mark.slow
def test_closed_stdin_is_exit_2_with_one_line_for_every_command_reading_it() -> None:
    readers = [n for n in every_command() if n in WRITES_STDERR and n not in ("play", "stats")]
    for ran in run_all([partial(sunlog, [n, "-"], close=[0]) for n in readers]):
        assert_no_traceback(ran)
        assert ran.code == 2, str(ran)
        assert ran.err.splitlines()[0] == (
            "sunlog: standard input is closed: there is nothing to read"
        ), str(ran)


def test_closed_stdin_for_check() -> None:
    ran = sunlog(["check", "-"], close=[0])
    assert ran.code == 2, str(ran)
    assert ran.err.startswith("sunlog: standard input is closed"), str(ran)


def many_games(tmp_path: Path) -> Path:
    log = tmp_path / "many.sun"
    log.write_text("\n".join([WON.read_text()] * 400))
    return log


def reader_goes_away(args: list[str]) -> Ran:
    """Run with stdout a pipe from which one line is read, then closed (``| head -1``)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "sunlog", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read()
    child.wait(timeout=120)
    return Ran(tuple(args), child.returncode, first, err, 0.0)


def test_a_reader_that_goes_away_ends_the_output_quietly_with_exit_2(tmp_path: Path) -> None:
    """``sunlog convert big.sun | head -1``: no message (the reader left on purpose), no
    "Exception ignored", and not exit 0."""
    ran = reader_goes_away(["convert", str(many_games(tmp_path))])
    assert ran.stdout == b"{\n"
    assert ran.code == 2 and ran.stderr == b"", str(ran)


@pytest.mark.slow
def test_a_reader_that_goes_away_for_every_command_with_much_output(tmp_path: Path) -> None:
    many = str(many_games(tmp_path))
    cases = [
        ["check", "--json", many],
        ["convert", many],
        ["convert", "--jsonl", many],
        ["fmt", many],
        ["replay", str(WON)],
    ]
    for ran in run_all([partial(reader_goes_away, a) for a in cases]):
        assert ran.stdout, str(ran)
        assert_no_traceback(ran)
        assert ran.code == 2, str(ran)
        assert ran.stderr == b"", str(ran)


def test_a_full_stdout_is_exit_2_with_one_line() -> None:
    with open("/dev/full", "wb") as full:
        ran = sunlog(["convert", str(WON)], stdout=full)
    assert_no_traceback(ran)
    assert ran.code == 2
    assert ran.err.splitlines() == ["sunlog: no space left on device"], str(ran)
