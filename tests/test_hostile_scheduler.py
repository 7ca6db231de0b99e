"""``--scheduler`` with an address that is malformed or names a closed loopback port
(issue 33, item 8): a usage error at once, or a connection failure said as one, never a
minute's wait, a ``Client.__del__`` traceback or "out of memory". Only loopback addresses
and malformed strings are used: nothing here goes on the network."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("distributed")

COMMANDS = [
    ["stats", "--games", "10"],
    ["solve", "--deals", "1-2", "--max-nodes", "100", "-o", "{tmp}/r.jsonl"],
]


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(args: list[str], tmp: str) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    ran = subprocess.run(
        [sys.executable, "-m", "sunlog", *(a.format(tmp=tmp) for a in args)],
        capture_output=True,
        text=True,
        timeout=40,
        check=False,
    )
    return ran, time.monotonic() - start


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(
    "address",
    ["not an address", "tcp://", "tcp://127.0.0.1:99999", "http://127.0.0.1:8786", "a b:1"],
)
def test_a_malformed_address_is_a_usage_error_at_once(
    command: list[str], address: str, tmp_path: object
) -> None:
    ran, seconds = run([*command, "--scheduler", address], str(tmp_path))
    assert ran.returncode == 2, ran.stderr
    assert "is not a scheduler's address: write tcp://HOST:PORT" in ran.stderr
    assert "Traceback" not in ran.stderr
    assert seconds < 20


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_closed_port_is_a_connection_failure_at_once(
    command: list[str], tmp_path: object
) -> None:
    address = f"tcp://127.0.0.1:{closed_port()}"
    ran, seconds = run([*command, "--scheduler", address], str(tmp_path))
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith(f"sunlog: cannot reach the dask scheduler at {address}: ")
    assert "memory" not in ran.stderr and "Traceback" not in ran.stderr
    assert seconds < 20


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_server_that_is_not_a_scheduler_is_said_as_such(
    command: list[str], tmp_path: object
) -> None:
    """A loopback port where another server answers (HTTP here): dask read its first
    bytes as a message's length and ran out of memory, reported as `out of memory`."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    stop = threading.Event()

    def answer() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn, contextlib.suppress(OSError):
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 10)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        ran, seconds = run([*command, "--scheduler", address], str(tmp_path))
    finally:
        stop.set()
        thread.join(5)
        server.close()
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith(f"sunlog: cannot reach the dask scheduler at {address}: ")
    assert "is not a dask scheduler" in ran.stderr
    assert "out of memory" not in ran.stderr and "Traceback" not in ran.stderr
    assert seconds < 35
