"""The root of the command line: the Typer app, its own options and its commands by name.

The app knows each command's name and module; a command's module is imported when the
command is asked for (by the command line, ``--help`` or shell completion), so that
``sunlog --version`` loads no command and ``sunlog check`` loads only check's. This module
imports Typer and :mod:`~sunlog.cli.helptext`, nothing of sunlog's rules or notation.
"""

from __future__ import annotations

import importlib
import os
import sys
from enum import StrEnum
from typing import Annotated, Any, TextIO

import typer
import typer.main

from sunlog.cli import helptext

__all__ = ["COMMANDS", "Color", "Commands", "app", "color_wanted"]

#: Each command and the module that defines it, in the order of ``sunlog --help``: by
#: job (checking; viewing; converting; an archive; playing; recording).
COMMANDS = {
    "check": "check",
    "show": "view",
    "moves": "view",
    "replay": "view",
    "render": "view",
    "html": "view",
    "convert": "convert",
    "fmt": "convert",
    "select": "archive",
    "split": "archive",
    "summary": "archive",
    "play": "play",
    "stats": "play",
    "solve": "play",
    "analyze": "play",
    "record": "record",
}


class Color(StrEnum):
    """``--color``: colour on a terminal only (unless ``NO_COLOR``/``FORCE_COLOR`` say
    otherwise), always (a pipe into ``less -R``), or never."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


class _Settings:
    """What the root options chose for this run (set by the root callback on each run)."""

    color = Color.AUTO


def color_wanted(stream: TextIO | None = None) -> bool:
    """Whether output to ``stream`` (stdout by default) is coloured: ``--color always`` or
    ``never`` decide; with ``auto``, a non-empty ``NO_COLOR`` says no, a non-empty
    ``FORCE_COLOR`` says yes, else colour only on a terminal."""
    if _Settings.color is not Color.AUTO:
        return _Settings.color is Color.ALWAYS
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    stream = sys.stdout if stream is None else stream
    try:
        return stream is not None and stream.isatty()
    except ValueError:  # a closed stream
        return False


class Commands(helptext.Group):
    """The command group: a command's module is imported when the command is asked for."""

    def list_commands(self, ctx: helptext.Context) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: helptext.Context, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"{__package__}.{COMMANDS[cmd_name]}")
            built: Any = typer.main.get_command(app)  # every command registered so far
            self.commands.update(
                (name, command) for name, command in built.commands.items() if name in COMMANDS
            )
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: helptext.Context, args: list[str]) -> Any:
        """A word that names no command: every command is loaded first, so that the
        error can say which one was meant."""
        if args and args[0] not in COMMANDS:
            for name in COMMANDS:
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)


app = helptext.App(
    name="sunlog",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=Commands,
    rich_markup_mode=helptext.MARKUP_MODE,
    context_settings=helptext.CONTEXT_SETTINGS,
    epilog="Example: sunlog check samples/*.sun",
)


def _print_version(value: bool) -> None:
    if value:
        from sunlog.cli.version import version_line

        typer.echo(version_line())
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
    color: Annotated[
        Color,
        typer.Option(
            "--color",
            metavar="WHEN",
            help="Colour: auto (a terminal; NO_COLOR, FORCE_COLOR), always or never.",
            case_sensitive=False,
        ),
    ] = Color.AUTO,
) -> None:
    """Check, show, replay and convert logs (.sun files) of the patience game Sun.

    Exit codes: 0 all good, 1 an invalid log, 2 a usage or I/O error.
    """
    _Settings.color = color
