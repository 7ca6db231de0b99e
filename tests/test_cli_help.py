"""Every ``--help`` reads cleanly, for every command the app registers (new ones included).

The commands are found by walking the app, never named here: a command added later is
checked the moment it registers.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict

import pytest
import typer.main
from typer.core import TyperArgument, TyperCommand, TyperOption
from typer.testing import CliRunner

from sunlog import cli
from sunlog.cli.helptext import argument_name

WIDTH = 80

#: What Typer would print and a person should not have to read.
UNWANTED = {
    "<bool>": "a type label after a flag",
    "<list": "a type label after a list argument",
    "{": "braces around an argument",
    "SPEC": "a reference to the spec (users have the docs)",
}

#: A Typer type label such as ``<int>``, ``<str>`` or ``<list[str]>``.
TYPE_LABEL = re.compile(r"<[a-z]+(\[[^\]]*\])?>")


def _group() -> typer.core.TyperGroup:
    group = typer.main.get_command(cli.app)
    assert isinstance(group, typer.core.TyperGroup)
    return group


def _commands() -> dict[str, TyperCommand]:
    commands = {}
    for name, command in _group().commands.items():
        assert isinstance(command, TyperCommand), name
        if not command.hidden:
            commands[name] = command
    return commands


COMMANDS = sorted(_commands())


def _help(*words: str) -> str:
    result = CliRunner().invoke(
        cli.app, [*words, "--help"], terminal_width=WIDTH, env={"COLUMNS": str(WIDTH)}
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_walk_finds_the_commands() -> None:
    # Not a list to keep up to date: only a proof that the walk below sees commands.
    assert {"check", "show", "convert", "play"} <= set(COMMANDS)


@pytest.mark.parametrize("words", [(), *[(name,) for name in COMMANDS]], ids=" ".join)
def test_help_reads_cleanly(words: tuple[str, ...]) -> None:
    text = _help(*words)
    for unwanted, why in UNWANTED.items():
        assert unwanted not in text, f"{why}: {unwanted!r} in\n{text}"
    assert TYPE_LABEL.search(text) is None, text
    assert "......" not in text
    wide = [line for line in text.splitlines() if len(line) > WIDTH]
    assert not wide, wide


@pytest.mark.parametrize("words", [(), *[(name,) for name in COMMANDS]], ids=" ".join)
def test_help_ends_with_one_example(words: tuple[str, ...]) -> None:
    lines = [line.strip() for line in _help(*words).splitlines() if line.strip()]
    assert lines[-1].startswith(" ".join(["Example: sunlog", *words]) + " "), lines[-1]
    assert sum(line.startswith("Example:") for line in lines) == 1


@pytest.mark.parametrize("name", COMMANDS)
def test_usage_names_arguments_as_typed(name: str) -> None:
    usage = _help(name).splitlines()[0]
    for param in _commands()[name].params:
        if isinstance(param, TyperArgument):
            assert argument_name(param) in usage.split(), usage


@pytest.mark.parametrize("name", COMMANDS)
def test_every_parameter_says_what_it_is(name: str) -> None:
    command = _commands()[name]
    assert command.help, name
    for param in command.params:
        if isinstance(param, TyperOption | TyperArgument) and not param.hidden:
            assert param.help, f"{name}: {param.name} has no help"


def _options() -> list[tuple[str, TyperOption]]:
    """Every visible option of the app and of each command, with where it is."""
    group = _group()
    found = [("sunlog", p) for p in group.params if isinstance(p, TyperOption)]
    for name, command in _commands().items():
        found += [(name, p) for p in command.params if isinstance(p, TyperOption)]
    return [(where, p) for where, p in found if not p.hidden]


def test_each_short_option_means_one_long_option_everywhere() -> None:
    longs_of: defaultdict[str, set[str]] = defaultdict(set)
    shorts_of: defaultdict[str, set[str | None]] = defaultdict(set)
    for _where, option in _options():
        names = [*option.opts, *option.secondary_opts]
        shorts = [n for n in names if not n.startswith("--")]
        longs = [n for n in names if n.startswith("--")]
        for long in longs:
            shorts_of[long].update(shorts or [None])
        for short in shorts:
            longs_of[short].update(longs)
    assert longs_of, "no short option found: the walk is broken"
    mixed = {short: longs for short, longs in longs_of.items() if len(longs) != 1}
    assert not mixed, f"a short option standing for several long ones: {mixed}"
    uneven = {long: shorts for long, shorts in shorts_of.items() if len(shorts) != 1}
    assert not uneven, f"a long option with a short form in some commands only: {uneven}"


def test_at_is_n_and_games_has_no_short_form() -> None:
    """The choice made: ``-n`` is ``--at`` (N moves) wherever a position is chosen."""
    names = {tuple(option.opts) for _where, option in _options()}
    assert ("--at", "-n") in names
    assert ("--games",) in names


def test_commands_are_listed_by_job_with_check_first() -> None:
    """``sunlog --help`` lists the commands in the order of their jobs (check; viewing;
    converting; playing; recording), whatever imported a command module first."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "sunlog", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "80"},
    ).stdout
    listed = re.findall(r"^  ([a-z]+)  ", out.split("Commands:")[1], re.M)
    order = ["check", "show", "moves", "replay", "render", "html", "convert", "fmt"]
    assert listed[: len(order)] == order
    assert listed[-1] == "record"
