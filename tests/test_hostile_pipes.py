"""Inputs that can be read once: a pipe given as a path (``<(cmd)``, ``/dev/stdin``,
``/dev/fd/N``) and a named FIFO. Every command that takes a path reads it on one handle
and decides JSON or notation from the bytes read there (issue 33, item 1).

Each child runs under a timeout that kills it: the old code hung forever on a FIFO.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from hostilekit import WON

WON_TEXT = WON.read_bytes()
JSON_GAME = b'{"format": "sunlog/1", "games": [{"tags": [], "moves": [], "result": "*"}]}\n'


def run(args: Sequence[str | Path], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    """``python -m sunlog ARGS``, killed after 30 seconds (a hang fails, never blocks CI)."""
    return subprocess.run(
        [sys.executable, "-m", "sunlog", *map(str, args)],
        capture_output=True,
        timeout=30,
        check=False,
        **kwargs,  # type: ignore[call-overload]
    )


@contextmanager
def fifo_feeding(tmp_path: Path, data: bytes, name: str = "pipe") -> Iterator[Path]:
    """A named FIFO a thread writes ``data`` into (once, for one reader)."""
    path = tmp_path / name
    os.mkfifo(path)

    def feed() -> None:
        try:
            with open(path, "wb") as out:
                out.write(data)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        if writer.is_alive():  # nobody opened it: open it once to let the writer go
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            writer.join(5)
            os.close(fd)
        writer.join(5)


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["show"],
        ["moves", "--at", "10"],
        ["replay", "--at", "3"],
        ["render"],
        ["html"],
        ["convert", "--no-check"],
        ["fmt"],
        ["solve", "--at", "150", "--max-nodes", "1000"],
    ],
    ids=lambda a: a[0],
)
def test_a_fifo_not_named_sun_is_read_once(tmp_path: Path, args: list[str]) -> None:
    with fifo_feeding(tmp_path, WON_TEXT) as fifo:
        ran = run([*args, fifo])
    assert ran.returncode == 0, ran.stderr.decode()
    assert (ran.stdout + ran.stderr).strip()
    assert b"no game" not in ran.stderr


def test_a_fifo_of_json_converts_back_to_notation(tmp_path: Path) -> None:
    with fifo_feeding(tmp_path, JSON_GAME) as fifo:
        ran = run(["convert", "--to", "sun", fifo])
    assert (ran.returncode, ran.stdout) == (0, b"*\n"), ran.stderr.decode()


@pytest.mark.parametrize("data", [WON_TEXT, JSON_GAME], ids=["notation", "json"])
def test_dev_stdin_as_a_path_is_read_once(data: bytes) -> None:
    ran = run(["check", "/dev/stdin"], input=data)
    assert ran.returncode == 0, ran.stderr.decode()
    assert b"1 valid" in ran.stderr


def test_a_process_substitution_is_read_once() -> None:
    """``sunlog check <(cat won.sun)``: the shell passes ``/dev/fd/N``, a pipe."""
    read, write = os.pipe()
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "sunlog", "check", f"/dev/fd/{read}"],
            pass_fds=(read,),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        os.close(read)
        with os.fdopen(write, "wb") as out:
            write = -1
            with suppress(BrokenPipeError):
                out.write(WON_TEXT)
        _, err = child.communicate(timeout=30)
    finally:
        if write != -1:
            os.close(write)
    assert child.returncode == 0, err.decode()
    assert b"1 valid" in err


def test_a_pipe_bigger_than_the_sniffed_head_loses_nothing(tmp_path: Path) -> None:
    """The first 4 KiB read to tell JSON from notation are given to the reader again."""
    many = b"\n".join([WON_TEXT] * 40)
    with fifo_feeding(tmp_path, many) as fifo:
        ran = run(["check", fifo])
    assert ran.returncode == 0, ran.stderr.decode()
    assert b"40 games, 40 valid" in ran.stderr


def test_convert_of_a_fifo_of_json_writes_notation_by_default(tmp_path: Path) -> None:
    """The default target is the other format: it is decided from the FIFO's own bytes."""
    with fifo_feeding(tmp_path, JSON_GAME) as fifo:
        ran = run(["convert", fifo])
    assert (ran.returncode, ran.stdout) == (0, b"*\n"), ran.stderr.decode()
