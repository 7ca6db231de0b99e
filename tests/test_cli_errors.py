"""Bad input never gives a traceback: every command answers with a message and 1 or 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import sunlog.engine
from sunlog import __version__, cli

ROOT = Path(__file__).resolve().parent.parent
WON = ROOT / "samples" / "won-sun.sun"

#: The commands that read one PATH, with the options that make them run to the end.
ONE_PATH = [["show"], ["show", "--json"], ["moves"], ["replay"], ["convert"], ["fmt"]]


def run(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def clean(result: Result) -> None:
    """No traceback, and the exception (if any) is the exit."""
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )


def bad_inputs(tmp: Path) -> dict[str, tuple[Path, int]]:
    """Inputs that are not logs (exit 1) or cannot be read at all (exit 2)."""
    (tmp / "empty.sun").write_bytes(b"")
    (tmp / "binary.sun").write_bytes(bytes(range(256)) * 4)
    (tmp / "latin1.sun").write_bytes('[Event "café"]\n*\n'.encode("latin-1"))
    (tmp / "comments.sun").write_text("; nothing but a comment\n{ and another }\n")
    (tmp / "garbage.sun").write_text("hello world\n")
    (tmp / "unclosed.sun").write_text('[Deal "1"]\ndeal { never closed\n')
    (tmp / "notgame.json").write_text('{"a": 1}')
    (tmp / "broken.json").write_text('{"format": "sunlog/1", "games": [')
    (tmp / "array.json").write_text("[1, 2, 3]")
    (tmp / "dir").mkdir()
    return {
        "empty": (tmp / "empty.sun", 1),
        "binary": (tmp / "binary.sun", 1),
        "latin1": (tmp / "latin1.sun", 1),
        "comments": (tmp / "comments.sun", 1),
        "garbage": (tmp / "garbage.sun", 1),
        "unclosed": (tmp / "unclosed.sun", 1),
        "notgame": (tmp / "notgame.json", 1),
        "broken": (tmp / "broken.json", 1),
        "array": (tmp / "array.json", 1),
        "missing": (tmp / "missing.sun", 2),
        "directory": (tmp / "dir", 2),
    }


@pytest.mark.parametrize("command", ONE_PATH, ids=" ".join)
def test_one_path_commands_answer_bad_input_with_a_message(
    command: list[str], tmp_path: Path
) -> None:
    for name, (path, code) in bad_inputs(tmp_path).items():
        if command == ["fmt"] and path.suffix == ".json" and name != "missing":
            code = 2  # fmt refuses JSON before reading it as a log
        result = run(*command, path)
        clean(result)
        assert result.exit_code == code, (name, result.stdout, result.stderr)
        assert result.stderr.strip(), name
        first = result.stderr.splitlines()[0]
        assert first.startswith(("sunlog: ", f"{path}:")), (name, first)


def test_check_answers_every_bad_input_in_one_run(tmp_path: Path) -> None:
    inputs = bad_inputs(tmp_path)
    result = run("check", *(path for path, _ in inputs.values()))
    clean(result)
    assert result.exit_code == 2
    assert f"sunlog: {inputs['missing'][0]}: no such file or directory" in result.stderr
    assert f"sunlog: {inputs['directory'][0]}: no .sun logs in this directory" in result.stderr
    for name, (path, code) in inputs.items():
        if code == 1:
            assert f"{path}" in result.stdout, name


@pytest.mark.parametrize("command", [["show"], ["moves"], ["replay"], ["convert"], ["check"]])
def test_stdin_that_is_not_a_log(command: list[str]) -> None:
    for data in (b"", b"\xff\xfe\x00", b"{]"):
        result = run(*command, "-", input=data)
        clean(result)
        assert result.exit_code == 1, (data, result.stderr)


def test_usage_errors_exit_2() -> None:
    for args in (
        ["show"],
        ["show", WON, "--at", "-1"],
        ["show", WON, "--game", "x"],
        ["convert", WON, "--to", "pdf"],
        ["nosuchcommand"],
        ["check", "--nosuchoption", WON],
    ):
        result = run(*args)
        clean(result)
        assert result.exit_code == 2, args


def test_help_of_every_command() -> None:
    for command in ("check", "show", "replay", "moves", "convert", "fmt"):
        result = run(command, "--help")
        assert result.exit_code == 0
        assert "Usage" in result.stdout


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    build = " (compiled)" if sunlog.engine.COMPILED else ""  # see tests/test_build.py
    assert result.stdout == f"sunlog {__version__}{build}\n"


def test_python_dash_m_sunlog_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sunlog", "check", "--json", str(WON)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert '"valid": true' in done.stdout


def test_a_closed_pipe_is_not_a_traceback() -> None:
    done = subprocess.run(
        f"{sys.executable} -m sunlog replay {WON} | head -n 1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout == "after move 0: (start of the game)\n"
    assert "Traceback" not in done.stderr
