"""Programs run on a pseudo-terminal for the tests, started without forking the test process.

``pexpect.spawn`` forks the test process itself (``pty.fork``), and Python 3.12 warns when a
process that runs threads forks (dask leaves some after the cluster tests): the child could
deadlock before it runs the program. Here ``subprocess`` starts the child (fork and exec in
C, no Python in between) with the terminal's far end as its standard streams; a small
trampoline makes that terminal its controlling one, so that Ctrl-C typed there reaches it,
then runs the program in its place. pexpect reads and writes the near end as usual.
"""

from __future__ import annotations

import fcntl
import os
import struct
import subprocess
import sys
import termios
from collections.abc import Mapping, Sequence

from pexpect import fdpexpect

__all__ = ["Pty", "spawn"]

#: Run in the child: take the terminal on standard input as the controlling terminal of
#: this new session, then become the program (same pid).
_TRAMPOLINE = (
    "import fcntl, os, sys, termios\n"
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "os.execvp(sys.argv[1], sys.argv[1:])\n"
)


class Pty(fdpexpect.fdspawn):
    """A program on a pseudo-terminal: pexpect's expect/send on the terminal, and the
    process calls of ``pexpect.spawn`` (``isalive``, ``terminate``, ``sendintr``,
    ``close`` setting ``exitstatus`` and ``signalstatus``)."""

    def __init__(self, process: subprocess.Popen[bytes], master: int, **options: object) -> None:
        super().__init__(master, **options)
        self.process = process
        self.pid = process.pid
        self.exitstatus: int | None = None
        self.signalstatus: int | None = None

    def isalive(self) -> bool:
        return self.process.poll() is None

    def terminate(self, force: bool = False) -> bool:
        if self.isalive():
            self.process.kill() if force else self.process.terminate()
        return True

    def sendintr(self) -> None:
        """Type the terminal's interrupt character (Ctrl-C)."""
        os.write(self.child_fd, termios.tcgetattr(self.child_fd)[6][termios.VINTR])

    def close(self, force: bool = True) -> None:
        """Close the near end and wait for the program; ``force`` ends it if still running."""
        if not self.closed:
            super().close()
        if force and self.isalive():
            self.process.kill()
        code = self.process.wait(timeout=60)
        self.exitstatus = code if code >= 0 else None
        self.signalstatus = -code if code < 0 else None


def spawn(
    command: str,
    args: Sequence[str] = (),
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    dimensions: tuple[int, int] = (24, 80),
    **options: object,
) -> Pty:
    """``command args`` on a new terminal of ``dimensions`` (rows, columns), as
    ``pexpect.spawn`` takes them; ``options`` go to pexpect (``encoding``, ``timeout``)."""
    master, slave = os.openpty()
    rows, columns = dimensions
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", _TRAMPOLINE, command, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=None if env is None else dict(env),
            start_new_session=True,
        )
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    return Pty(process, master, **options)
