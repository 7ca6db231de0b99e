"""Help at the table: ``record``'s ``hint`` (the solver's next move within a bounded
budget, or why there is none) and ``replay``'s ``m`` key (the legal moves shown)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sunlog import cli
from sunlog.cli import record
from sunlog.engine.board import Board
from sunlog.engine.moves import Move
from sunlog.views.stepper import Entry, Stepper, legal_moves_text, run_interactive

START = "sun 1 1/0/0 3S/5C/AC/4S/7S/KS/9C/5H/8C/AC/7H/4D/AS .,.,.,./.,.,.,. - - #777"


def test_hint_gives_the_first_move_of_a_winning_line() -> None:
    board = Board.from_position(START)
    said = record.hint(board, spinner=False)
    assert said.startswith("hint: ") and "winning line of" in said
    move = Move.parse(said.split()[1])
    assert board.is_legal(move)


def test_hint_says_when_the_budget_ran_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record, "HINT_NODES", 5)
    said = record.hint(Board.from_position(START), spinner=False)
    assert said.startswith("no winning line found within the budget")


def test_hint_without_a_deck_says_why() -> None:
    board = Board("sun")
    assert record.hint(board, spinner=False).startswith("no hint: the deck is not known")


def test_hint_is_a_record_command(tmp_path: Path) -> None:
    log = tmp_path / "h.sun"
    done = CliRunner().invoke(
        cli.app, ["record", str(log), "--position", START], input="hint\nr3:AC>A\n"
    )
    assert done.exit_code == 0, done.output
    assert "hint: " in done.stdout
    assert log.read_text().count("r3:AC>A") == 1  # a hint writes nothing


def _keys(keys: list[str]) -> Iterator[str]:
    yield from keys


def test_the_m_key_lists_the_legal_moves_of_the_position_shown() -> None:
    board = Board.from_position(START)
    stepper = Stepper(board, [Entry(Move.parse("r3:AC>A"), "r3:AC>A")])
    console = Console(file=io.StringIO(), width=200, height=60)
    keys = _keys(["m", "n", "m", "q"])
    run_interactive(stepper, console, read_key=lambda: next(keys))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    first = legal_moves_text(Board.from_position(START))
    after = Board.from_position(START)
    after.push_text("r3:AC>A")
    assert first in shown and legal_moves_text(after) in shown
    assert first.startswith("legal: r3:AC>A") and "r3:AC>A" not in legal_moves_text(after)
    assert "m: legal moves" in shown
