"""The command line and positions: ``show LOG --at N --position`` prints a string from
which ``[Position "..."]`` and the rest of the moves replay as the whole game, for every
sample (each variant, a physical game); ``--position STRING`` stands for a log in show,
moves, solve, analyze, render, html and replay, and starts ``record``; solve names what
it solved; ``str`` and ``_repr_svg_`` draw as ``show`` and ``render`` do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.engine.board import Board
from sunlog.notation import parse_games
from sunlog.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
LOGS = ["won-sun.sun", "lost-sun.sun", "sun-2.sun", "sun-3.sun", "physical.sun"]
START = "sun 1 1/0/0 3S/5C/AC/4S/7S/KS/9C/5H/8C/AC/7H/4D/AS .,.,.,./.,.,.,. - - #777"


def run(*args: str | Path, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def board_after(path: Path, at: int | None = None) -> Board:
    result = replay(parse_games(path.read_text())[0], upto=at)
    assert result.error is None
    return result.board


@pytest.mark.parametrize("name", LOGS)
def test_the_tail_of_a_log_under_its_position_replays_as_the_whole_game(
    name: str, tmp_path: Path
) -> None:
    log = SAMPLES / name
    (game,) = parse_games(log.read_text())[:1]
    total = len(game.moves)
    final = run("show", log, "--position")
    assert final.exit_code == 0 and final.stdout.count("\n") == 1
    for at in sorted({0, 1, total // 3, total // 2, total - 1, total}):
        shown = run("show", log, "--at", at, "--position")
        assert shown.exit_code == 0, shown.output
        (line,) = shown.stdout.splitlines()
        assert Board.from_position(line) == board_after(log, at)
        numbered = " ".join(f"{at + i}. {gm.text}" for i, gm in enumerate(game.moves[at:], 1))
        tail = tmp_path / f"tail-{at}.sun"
        tail.write_text(f'[Position "{line}"]\n\n{numbered} *\n')
        assert run("check", tail).exit_code == 0
        assert run("show", tail, "--position").stdout == final.stdout


def test_show_json_holds_the_position_string() -> None:
    shown = run("show", SAMPLES / "won-sun.sun", "--at", "30", "--json")
    obj = json.loads(shown.stdout)
    assert obj["position"] == board_after(SAMPLES / "won-sun.sun", 30).position()
    assert Board.from_json(obj) == board_after(SAMPLES / "won-sun.sun", 30)


@pytest.mark.parametrize("command", ["show", "moves", "render", "html", "replay", "analyze"])
def test_every_viewer_takes_a_position_string(command: str) -> None:
    done = run(command, "--position", START)
    assert done.exit_code == 0, done.output
    assert done.stdout


def test_show_and_moves_from_a_string_see_its_position() -> None:
    moves = run("moves", "--position", START).stdout.split()
    assert moves == [str(m) for m in Board.from_position(START).legal_moves()]
    shown = run("show", "--position", START, "--json")
    assert json.loads(shown.stdout)["position"] == START


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["show", "--position", "sun 1 1/0/0"], "8 fields"),
        (["moves", "--position", START.replace("5C", "5X")], "column 16 (rays)"),
        (["render", SAMPLES / "won-sun.sun", "--position", START], "not both"),
        (["moves"], "give a log PATH"),
        (["solve", "--deal", "3", "--position", START], "either a PATH"),
    ],
)
def test_position_usage_errors_exit_2(args: list[str | Path], words: str) -> None:
    done = run(*args)
    assert done.exit_code == 2
    assert words in done.output


def test_solve_names_what_it_solved() -> None:
    log = SAMPLES / "won-sun.sun"
    done = run("solve", log, "--at", "40", "--max-nodes", "20000")
    assert done.exit_code == 0
    assert "the position after move 40 of deal 1 (sun)" in done.stderr
    start = run("solve", "--deal", "1", "--max-nodes", "1000")
    assert "deal 1 (sun)" in start.stderr and "position after" not in start.stderr
    physical = run("solve", "--position", START, "--max-nodes", "20000")
    assert "the position after move 1 of deal 777 (sun)" in physical.stderr
    assert f'[Position "{START}"]' in physical.stdout  # the winning log starts there


def test_record_starts_at_a_position(tmp_path: Path) -> None:
    log = tmp_path / "what-if.sun"
    done = run("record", log, "--position", START, input="r3:AC>A\ndeal\n")
    assert done.exit_code == 0, done.output
    (game,) = parse_games(log.read_text())
    assert game.tag("Position") == START and len(game.moves) == 2
    assert replay(game).board.move_count == 3
    again = run("record", log, "--position", START, input="")
    assert again.exit_code == 2 and "already" in again.output
    mixed = run("record", tmp_path / "x.sun", "--position", START, "--deal", "3", input="")
    assert mixed.exit_code == 2 and not (tmp_path / "x.sun").exists()


@pytest.mark.parametrize("name", ["won-sun.sun", "sun-3.sun", "physical.sun"])
def test_str_and_svg_draw_as_show_and_render(name: str) -> None:
    log = SAMPLES / name
    board = board_after(log, 25)
    assert str(board) == run("show", log, "--at", "25").stdout
    assert board._repr_svg_() == run("render", log, "--at", "25").stdout
