"""The ``sunlog`` command line (Typer): thin commands over the library.

Exit codes (SPEC 7): 0 all good, 1 an invalid log, 2 a usage or I/O error. Errors are
printed as ``sunlog: <path>: <cause>`` on standard error, never as a traceback.

One module a job: :mod:`~sunlog.cli.check`; :mod:`~sunlog.cli.view` (show, moves, replay,
render, html); :mod:`~sunlog.cli.convert` (convert, fmt); :mod:`~sunlog.cli.play` (play,
stats, solve, analyze); :mod:`~sunlog.cli.record` (record). They share
:mod:`~sunlog.cli.common` (the app, its options, the guard), :mod:`~sunlog.cli.inputs`
(reading), :mod:`~sunlog.cli.reports` (printing) and :mod:`~sunlog.cli.outputs`
(writing). The CLI imports every other part; nothing imports it.
"""

from __future__ import annotations

# isort: off
# The commands register in this order, which is the order of ``sunlog --help``.
from sunlog.cli import check, view, convert, play, record

# isort: on
from sunlog.cli.common import app

__all__ = ["app", "main"]

_COMMANDS = (check, view, convert, play, record)


def main() -> None:
    """Entry point of the ``sunlog`` console script and of ``python -m sunlog``.

    A standard stream closed at start gets a stand-in, and what is still buffered is
    written before the exit code is chosen: output that could not be written (closed,
    full, its reader gone) makes it 2, without a traceback (docs/limits.md).
    """
    import sys

    from sunlog.cli import outputs

    outputs.adopt_standard_streams()
    try:
        app(prog_name="sunlog")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except OSError as exc:  # writing help or a usage error (outside any command)
        outputs.to_stderr(f"sunlog: cannot write: {outputs.stream_cause(exc)}")
        code = 2
    sys.exit(outputs.finish(code))
