"""What a player sees at the table (issue 32), on a real 80x24 terminal (pexpect): the
replay's jump prompt, and text wrapped only between moves and words."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
PLAIN = {"TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}


def spawn(*args: str, env: dict[str, str] | None = None) -> Any:
    """``python -m sunlog ARGS`` on a pseudo-terminal of 80 columns and 24 lines."""
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(
        sys.executable,
        ["-m", "sunlog", *args],
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        env={**os.environ, **(env or PLAIN)},
    )


def test_esc_after_a_refused_jump_in_replay_does_not_quit() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn("replay", str(SAMPLES / "won-sun.sun"))
    child.expect_exact("q quit")
    child.send("g999\r")
    child.expect_exact("no move 999: the game has")
    child.send("\x1b")  # Esc: closes the prompt, the replay goes on
    child.expect_exact("q quit")
    child.send("n")
    child.expect_exact("move 1 of")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_record_lists_the_movable_cards_and_help_shows_the_marks(tmp_path: Path) -> None:
    """On a terminal, ``moves`` names its first list movable (playable keeps the rules'
    meaning), and ``help`` shows the board's marks in the board's own mode."""
    pexpect = pytest.importorskip("pexpect")
    child = spawn("record", str(tmp_path / "game.sun"), "--deal", "20261129")
    child.expect_exact("move 1> ")
    child.sendline("deal")
    child.expect_exact("movable: AS AC KH")
    child.expect_exact("move 2> ")
    child.sendline("help")
    child.expect_exact("marks: [3S] playable card, 3S* put down by the last move")
    child.expect_exact("move 2> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert "playable:" not in (child.before or "")


def test_show_in_colour_explains_its_marks_within_80_columns() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn(
        "show", str(SAMPLES / "won-sun.sun"), "--at", "30", env={"TERM": "xterm-256color"}
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    from rich.text import Text

    lines = [Text.from_ansi(line).plain for line in (child.before or "").splitlines()]
    assert max(len(line) for line in lines) <= 80
    (marks,) = [line for line in lines if "marks:" in line]
    assert "playable, 3♠ put down by the last move, r4 the pile it left" in marks
