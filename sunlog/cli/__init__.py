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
    """Entry point of the ``sunlog`` console script and of ``python -m sunlog``."""
    app(prog_name="sunlog")
