"""How ``--help`` reads: arguments and options named as people type them.

Typer writes a type after some parameters (``--json <bool>``, ``PATH <list[str]>``) and
braces around required arguments (``{PATH...}...``). :class:`App` gives each command the
:class:`Command` below, which names an argument ``PATH``, ``PATH...`` or ``[PATH]`` and an
option by its metavar only; :class:`Group` lists each command's whole first sentence, where
Click would cut it short with ``...``. Only Typer's public classes and Click's public
methods (``collect_usage_pieces``, ``format_options``, ``format_commands``) are used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

__all__ = ["CONTEXT_SETTINGS", "MARKUP_MODE", "App", "Command", "Context", "Group"]

#: Click's ``Context`` and ``HelpFormatter`` as the methods below receive them: Typer
#: keeps its Click private (``typer._click`` since 0.26), so they are named as ``Any``.
Context = Any
HelpFormatter = Any

#: The settings of the ``--help`` text: Click's plain layout, which rewraps paragraphs to
#: the terminal (Rich's keeps each line break of a docstring, and adds a type column).
MARKUP_MODE = None

#: ``-h`` wherever ``--help`` works (Click passes the setting down to every command).
CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"]}

F = TypeVar("F", bound=Callable[..., Any])


def argument_name(param: TyperArgument) -> str:
    """``PATH`` as the usage line writes it: ``PATH...`` for several, ``[PATH]`` if optional."""
    name = param.metavar or (param.name or "ARG").upper()
    if param.nargs != 1:
        name += "..."
    return name if param.required else f"[{name}]"


class Command(TyperCommand):
    """A command whose help names its parameters without Typer's type labels."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            # An option that takes a value is shown with its metavar, never a `<type>`.
            takes_value = isinstance(param, TyperOption) and not (param.is_flag or param.count)
            if takes_value and param.metavar is None:
                param.metavar = (param.name or "value").upper()

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        """Read the command line as Click does; a value refused is quoted clipped, so that
        the error about a 10,000-digit number stays one readable line."""
        try:
            parsed: list[str] = super().parse_args(ctx, args)
        except typer.BadParameter as exc:
            import re

            from sunlog.engine.errors import clip

            exc.message = re.sub(r"'([^']*)'", lambda m: repr(clip(m[1])), exc.message)
            raise
        return parsed

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        """``[OPTIONS] PATH...`` rather than ``[OPTIONS] {PATH...}...``."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                pieces.append(argument_name(param))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The arguments (name and help) and the options, as two definition lists."""
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                if not param.hidden:
                    arguments.append((argument_name(param).strip("[]"), param.help or ""))
                continue
            record = param.get_help_record(ctx)
            if record is not None:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


class Group(TyperGroup):
    """The command list of ``sunlog --help``: each command with its first sentence whole."""

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1 << 16)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class App(typer.Typer):
    """A Typer app whose commands are :class:`Command` unless told otherwise."""

    def command(
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **settings: Any
    ) -> Callable[[F], F]:
        decorate: Callable[[F], F] = super().command(name, cls=cls or Command, **settings)
        return decorate
