"""Options every command line shares: ``-h``, ``--color`` (with ``NO_COLOR`` and
``FORCE_COLOR``), and choices (``--variant``, ``--policy``, ``--to``) that a shell completes
and that refuse a wrong value in one wording, never a validation library's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.cli.root import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
WON = str(ROOT / "samples" / "won-sun.sun")
ESC = "\x1b["


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli.app, list(args), env=env)


def sunlog(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m sunlog ARGS`` with stdout a pipe (not a terminal), ``env`` added."""
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "sunlog", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**clean, **(env or {})},
    )


@pytest.mark.parametrize("words", [(), *[(name,) for name in COMMANDS]], ids=" ".join)
def test_h_is_help_wherever_help_is(words: tuple[str, ...]) -> None:
    short, long = run(*words, "-h"), run(*words, "--help")
    assert (short.exit_code, long.exit_code) == (0, 0), short.output
    assert short.stdout == long.stdout
    assert "-h, --help" in short.stdout


SHOW = ("show", WON, "-n", "3")


@pytest.mark.parametrize(
    ("words", "env", "coloured"),
    [
        ((), {}, False),  # a pipe: plain
        (("--color", "always"), {}, True),  # for less -R
        (("--color", "ALWAYS"), {}, True),
        ((), {"FORCE_COLOR": "1"}, True),
        ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        (("--color", "always"), {"NO_COLOR": "1"}, True),  # the option wins
        (("--color", "never"), {"FORCE_COLOR": "1"}, False),
        (("--color", "auto"), {"FORCE_COLOR": ""}, False),  # empty: as if unset
    ],
)
def test_colour_follows_the_option_then_the_environment(
    words: tuple[str, ...], env: dict[str, str], coloured: bool
) -> None:
    done = sunlog(*words, *SHOW, env=env)
    assert done.returncode == 0, done.stderr
    assert (ESC in done.stdout) is coloured
    assert "move 3:" in done.stdout


def test_colour_is_one_of_three_words() -> None:
    done = sunlog("--color", "sometimes", *SHOW)
    assert done.returncode == 2
    assert "Invalid value for '--color': 'sometimes' is not one of 'auto', 'always', 'never'." in (
        done.stderr
    )


#: A wrong value for each choice, and the choices as the refusal lists them.
CHOICES = [
    (("convert", WON, "--to", "xml"), "'--to'", "'xml'", "'sun', 'json'"),
    (("play", "--variant", "xml"), "'--variant'", "'xml'", "'sun', 'sun-2', 'sun-3'"),
    (("stats", "--variant", "sun4"), "'--variant'", "'sun4'", "'sun', 'sun-2', 'sun-3'"),
    (("solve", "--deal", "3", "--variant", "x"), "'--variant'", "'x'", "'sun', 'sun-2', 'sun-3'"),
    (
        ("record", "g.sun", "--variant", "sun-4"),
        "'--variant'",
        "'sun-4'",
        "'sun', 'sun-2', 'sun-3'",
    ),
    (
        ("play", "--policy", "best"),
        "'--policy' / '-p'",
        "'best'",
        "'random', 'greedy', 'patient', 'lookahead'",
    ),
    (
        ("stats", "-p", "best"),
        "'--policy' / '-p'",
        "'best'",
        "'random', 'greedy', 'patient', 'lookahead'",
    ),
]


@pytest.mark.parametrize(("words", "option", "value", "choices"), CHOICES, ids=str)
def test_a_wrong_choice_is_refused_in_one_wording(
    words: tuple[str, ...], option: str, value: str, choices: str
) -> None:
    result = run(*words)
    assert result.exit_code == 2
    assert f"Invalid value for {option}: {value} is not one of {choices}." in result.stderr
    assert "unknown" not in result.stderr


def test_choices_are_read_in_any_case() -> None:
    result = run("play", "--deal", "3", "--variant", "SUN-2", "--policy", "Greedy")
    assert result.exit_code == 0, result.output
    assert '[Variant "sun-2"]' in result.stdout


#: Wrong values for options of every kind (numbers, ranges, choices, counts).
USAGE_ERRORS = [
    ("check", "-j", "x", WON),
    ("check", "-j", "-1", WON),
    ("show", WON, "--at", "x"),
    ("show", WON, "-n", "-1"),
    ("show", WON, "--game", "0"),
    ("show", WON, "-g", "1e3"),
    ("play", "--deal", "-1"),
    ("play", "--deal", str(1 << 64)),
    ("play", "--variant", "xml"),
    ("stats", "--games", "0"),
    ("solve", "--deal", "1", "--timeout", "nan"),
    ("solve", "--deal", "1", "--max-nodes", "1.5"),
    ("render", WON, "--size", "inf"),
    ("convert", WON, "--to", "xml"),
]


@pytest.mark.parametrize("words", USAGE_ERRORS, ids=" ".join)
def test_no_usage_error_speaks_a_validation_library(words: tuple[str, ...]) -> None:
    result = run(*words)
    assert result.exit_code == 2, result.output
    message = result.stderr
    assert "Invalid value for" in message or "sunlog:" in message, message
    for jargon in ("Value error", "validation error", "Input should", "pydantic", "type=", "[type"):
        assert jargon not in message, message


def _complete(*words: str) -> list[str]:
    """What bash completion offers after ``sunlog WORDS`` (the last word being typed)."""
    env = {
        **os.environ,
        "_SUNLOG_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(["sunlog", *words]),
        "COMP_CWORD": str(len(words)),
    }
    done = subprocess.run(
        [sys.executable, "-m", "sunlog"], capture_output=True, text=True, env=env, check=False
    )
    return done.stdout.split()


@pytest.mark.parametrize(
    ("words", "offered"),
    [
        (("play", "--variant", ""), {"sun", "sun-2", "sun-3"}),
        (("stats", "--policy", ""), {"random", "greedy", "patient", "lookahead"}),
        (("convert", "--to", ""), {"sun", "json"}),
        (("--color", ""), {"auto", "always", "never"}),
        (("ch",), {"check"}),
    ],
)
def test_a_shell_completes_commands_and_choices(words: tuple[str, ...], offered: set[str]) -> None:
    assert set(_complete(*words)) == offered


def test_there_is_one_command_line_for_stats() -> None:
    """``python -m sunlog.play.stats`` was a second CLI with its own options and words."""
    done = subprocess.run(
        [sys.executable, "-m", "sunlog.play.stats", "--games", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert "run `sunlog stats`" in done.stderr


# ------------------------------------------------------------------ --json and -q
#
# The rule (docs/json.md, "--json"): every --json output is JSON Lines, each object compact
# on one line: a command that answers once prints one line; a stream of records (check: a
# game each, fmt --check: a file each) prints one line a record.

SAMPLES = ROOT / "samples"
LOST = str(SAMPLES / "lost-sun.sun")
RESULTS = str(ROOT / "docs" / "data" / "winnability-sun-1m.jsonl.gz")

ONE_ANSWER = [
    ("show", WON, "-n", "3", "--json"),
    ("moves", WON, "-n", "3", "--json"),
    ("play", "--deal", "3", "-p", "greedy", "--json"),
    ("stats", "--games", "2", "-p", "greedy", "--json"),
    ("stats", "--from", RESULTS, "--json"),
    ("solve", "--deal", "3", "--max-nodes", "500", "--json"),
    ("analyze", LOST, "--max-nodes", "50", "--json"),
]


@pytest.mark.parametrize("words", ONE_ANSWER, ids=" ".join)
def test_a_single_answer_is_one_json_line(words: tuple[str, ...]) -> None:
    result = run(*words)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout[:300]
    assert isinstance(json.loads(lines[0]), dict)


def test_a_stream_of_records_is_one_json_line_a_record(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(SAMPLES, logs)
    files = sorted(str(p) for p in logs.rglob("*.sun"))
    checked = run("check", "--json", *files)
    games = [json.loads(line) for line in checked.stdout.splitlines()]
    assert {game["path"] for game in games} == set(files)
    formatted = run("fmt", "--check", "--json", *files)
    assert formatted.exit_code == 1  # some file would change, some are invalid
    verdicts = [json.loads(line) for line in formatted.stdout.splitlines()]
    assert [v["path"] for v in verdicts] == files
    assert all(set(v) == {"path", "valid", "changed"} for v in verdicts)
    assert any(v["changed"] for v in verdicts) and not all(v["valid"] for v in verdicts)
    assert all(v["changed"] is None for v in verdicts if not v["valid"])
    rewritten = run("fmt", "-i", "--json", *files)
    assert [json.loads(line) for line in rewritten.stdout.splitlines()] == verdicts
    again = run("fmt", "--check", "--json", *files)
    assert not any(json.loads(line)["changed"] for line in again.stdout.splitlines())


def test_fmt_json_goes_with_check_or_in_place() -> None:
    result = run("fmt", "--json", WON)
    assert result.exit_code == 2
    assert "--json goes with --check or --in-place" in result.stderr


SUMMARIES = [
    ("check", WON),
    ("fmt", "--check", WON),
    ("play", "--deal", "3", "-p", "greedy"),
    ("solve", "--deal", "3", "--max-nodes", "500"),
    ("moves", str(SAMPLES / "physical.sun"), "-n", "0"),  # a note: the deal's cards to name
]


@pytest.mark.parametrize("words", SUMMARIES, ids=" ".join)
def test_q_silences_the_summary_of_every_command(words: tuple[str, ...]) -> None:
    said, quiet = run(*words), run(*words, "-q")
    assert said.exit_code == quiet.exit_code == 0, said.output
    assert said.stderr and not quiet.stderr
    assert said.stdout == quiet.stdout


def test_q_keeps_the_errors() -> None:
    result = run("check", "-q", "no/such.sun")
    assert result.exit_code == 2 and "no/such.sun" in result.stderr


def test_solve_deals_q_writes_no_summary(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    said = run("solve", "--deals", "1-2", "--max-nodes", "200", "-o", str(out))
    again = tmp_path / "s.jsonl"
    quiet = run("solve", "--deals", "1-2", "--max-nodes", "200", "-o", str(again), "-q")
    assert said.exit_code == quiet.exit_code == 0, said.output
    assert "deals 1-2" in said.stderr and quiet.stderr == ""
    assert len(again.read_text().splitlines()) == 2


@pytest.mark.parametrize(
    "words",
    [("show", WON, "--at", "9" * 10_000), ("play", "--variant", "x" * 5000)],
    ids=["10,000 digits", "5000 letters"],
)
def test_a_huge_value_is_refused_in_one_readable_line(words: tuple[str, ...]) -> None:
    result = run(*words)
    assert result.exit_code == 2
    last = result.stderr.splitlines()[-1]
    assert last.startswith("Error: Invalid value for") and len(last) < 160, last[:300]
    assert "...'" in last
