"""The ``sunlog`` command line (Typer): thin commands over the library.

Exit codes (SPEC 7): 0 all good, 1 an invalid log, 2 a usage or I/O error. Errors are
printed as ``sunlog: <path>: <cause>`` on standard error, never as a traceback.

One module a job: :mod:`~sunlog.cli.check`; :mod:`~sunlog.cli.view` (show, moves, replay,
render, html); :mod:`~sunlog.cli.convert` (convert, fmt);
:mod:`~sunlog.cli.archive` (select, split, summary); :mod:`~sunlog.cli.play` (play,
stats, solve, analyze); :mod:`~sunlog.cli.record` (record). They share
:mod:`~sunlog.cli.common` (the app, its options, the guard), :mod:`~sunlog.cli.inputs`
(reading), :mod:`~sunlog.cli.reports` (printing) and :mod:`~sunlog.cli.outputs`
(writing). The CLI imports every other part; nothing imports it.

The console script is :func:`sunlog.cli.entry.main`, which runs the Typer app of
:mod:`~sunlog.cli.root`: a command's module is imported when that command is asked for.
This package imports the app only when it is asked for (``sunlog.cli.app``, with every
command registered).
"""

from __future__ import annotations

# Not typing's, as in sunlog/__init__.py: the script imports this package first.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typer import Typer

__all__ = ["app", "main", "typer_app"]

# The command modules (sunlog.cli.root.COMMANDS says which command is in which).
_COMMANDS = ("check", "view", "convert", "archive", "play", "record")


def typer_app() -> Typer:
    """The Typer app with every command registered (as ``sunlog --help`` loads them)."""
    import importlib

    from sunlog.cli.root import app

    for name in _COMMANDS:
        importlib.import_module(f"sunlog.cli.{name}")
    return app


def main() -> None:
    """Entry point of ``python -m sunlog`` and of the ``sunlog`` script (see :mod:`.entry`)."""
    from sunlog.cli.entry import main as entry_main

    entry_main()


def __getattr__(name: str) -> Any:
    """``app``, ``common`` and the command modules, imported when first asked for."""
    if name == "app":
        return typer_app()
    if name in (*_COMMANDS, "common"):
        # A module only: the others stay unloaded until asked for.
        import importlib

        return importlib.import_module(f"sunlog.cli.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
