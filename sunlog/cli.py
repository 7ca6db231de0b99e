"""The ``sunlog`` command line (Typer). Commands are added here; they stay thin."""

from __future__ import annotations

from importlib import metadata
from typing import Annotated

import typer

app = typer.Typer(
    name="sunlog",
    help="Check, show, replay and convert logs (.sun files) of the patience game Sun.",
    no_args_is_help=True,
)


def _version() -> str:
    """The installed distribution's version, else the package's own."""
    try:
        return metadata.version("sunlog")
    except metadata.PackageNotFoundError:
        from sunlog import __version__

        return __version__


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"sunlog {_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            callback=_print_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Check, show, replay and convert logs (.sun files) of the patience game Sun."""


def main() -> None:
    """Entry point of the ``sunlog`` console script and of ``python -m sunlog``."""
    app(prog_name="sunlog")
