"""The ``sunlog`` console script (and ``python -m sunlog``): one command line, Typer's.

:func:`main` runs the Typer app of :mod:`~sunlog.cli.root`, which imports a command's
module only when that command is asked for: ``sunlog --version`` loads no command and no
rules, ``sunlog check`` only check's. Around it, :func:`main` gives a standard stream
closed at start a stand-in, says Ctrl-C as every command says it, and makes output that
could not be written an exit 2. This module itself imports only what Python has loaded
when the script starts, so that a Ctrl-C while sunlog loads comes under main's handler.
"""

from __future__ import annotations

import sys

__all__ = ["main"]

# Typer's exit code for Ctrl-C outside a command (and ours while starting): main() makes
# it 2, with the words our commands say.
_TYPER_INTERRUPTED = 130


def main() -> None:
    """Entry point of the ``sunlog`` script and of ``python -m sunlog``.

    A standard stream closed at start gets a stand-in, and what is still buffered is
    written before the exit code is chosen: output that could not be written (closed,
    full, its reader gone) makes it 2, without a traceback (docs/limits.md).
    """
    try:
        from sunlog.cli import outputs

        outputs.adopt_standard_streams()
        code = _run(sys.argv[1:])
    except KeyboardInterrupt:  # while starting, before a command took over
        from sunlog.cli import outputs

        code = _TYPER_INTERRUPTED
    if code == _TYPER_INTERRUPTED:  # Typer's silent 130: said and exited as our commands do
        from sunlog.cli.exits import INTERRUPTED, USAGE

        outputs.to_stderr(INTERRUPTED)
        code = USAGE
    sys.exit(outputs.finish(code))


def _run(args: list[str]) -> int:
    """Run the Typer app on ``args``; its exit code."""
    from sunlog.cli import outputs
    from sunlog.cli.root import app

    try:
        app(args, prog_name="sunlog")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except OSError as exc:  # writing --version, help or a usage error (outside any command)
        outputs.to_stderr(f"sunlog: {outputs.stream_cause(exc)}")
        return 2
    return 0
