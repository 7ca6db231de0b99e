"""``sunlog show``, ``moves`` and ``replay``: positions, --at, --game, --json, errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.engine.board import Board
from sunlog.engine.moves import Move
from sunlog.notation import parse_games
from sunlog.notation.replay import replay
from sunlog.notation.resources import schema
from sunlog.views import stepper
from sunlog.views.terminal import board_text

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
WON = SAMPLES / "won-sun.sun"
CLUB = SAMPLES / "club-night.sun"
PHYSICAL = SAMPLES / "physical.sun"
ILLEGAL = SAMPLES / "invalid" / "illegal-move.sun"


def run(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def board_after(path: Path, at: int | None = None, game: int = 1) -> Board:
    chosen = parse_games(path.read_text())[game - 1]
    result = replay(chosen, upto=at)
    assert result.error is None
    return result.board


def won_moves() -> int:
    return len(parse_games(WON.read_text())[0].moves)


# ------------------------------------------------------------------ show


def test_show_prints_the_final_board_as_plain_text_off_a_terminal() -> None:
    result = run("show", WON)
    assert result.exit_code == 0
    board = board_after(WON)
    last = parse_games(WON.read_text())[0].moves[-1]
    assert result.stdout == board_text(board, last_move=last.text, with_legend=True)
    assert (
        result.stdout.splitlines()[-1] == "marks: [3S] playable card, 3S* put down by the last move"
    )
    assert "| won" in result.stdout.splitlines()[0]
    assert "foundations 104 of 104" in result.stdout


def test_show_at_n_is_the_board_after_the_first_n_moves() -> None:
    result = run("show", WON, "--at", "30")
    assert result.exit_code == 0
    assert "move 30: " in result.stdout
    assert result.stdout.startswith(board_text(board_after(WON, 30)).splitlines()[0])


def test_show_at_0_is_the_board_before_any_move() -> None:
    result = run("show", WON, "--at", "0")
    assert result.exit_code == 0
    assert "stock 104 (0 of 8 deals made)" in result.stdout


def test_show_at_beyond_the_moves_is_a_usage_error() -> None:
    total = won_moves()
    result = run("show", WON, "--at", str(total + 1))
    assert result.exit_code == 2
    assert result.stderr == (
        f"sunlog: {WON}: game 1 has {total} moves: --at must be 0 to {total}\n"
    )
    assert run("show", WON, "--at", str(total)).exit_code == 0


def test_show_game_k_picks_the_kth_game() -> None:
    result = run("show", CLUB, "--game", "3", "--json")
    assert result.exit_code == 0
    shown = json.loads(result.stdout)
    assert shown.pop("last_move") is not None and shown.pop("playable") and shown.pop("legal_moves")
    assert shown == board_after(CLUB, game=3).to_json()
    assert shown["variant"] == "sun-2"


def test_show_game_beyond_the_file_is_a_usage_error() -> None:
    result = run("show", CLUB, "--game", "4")
    assert result.exit_code == 2
    assert result.stderr == f"sunlog: {CLUB}: the file holds 3 games: --game must be 1 to 3\n"
    assert run("show", CLUB, "--game", "0").exit_code == 2


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.sun")), ids=lambda p: p.name)
def test_show_json_is_the_position_object_and_fits_the_schema(path: Path) -> None:
    import jsonschema

    result = run("show", path, "--json", "--at", "25")
    assert result.exit_code == 0
    position = json.loads(result.stdout)
    jsonschema.validate(position, schema("position"))
    actions = {k: position.pop(k) for k in ("last_move", "playable", "legal_moves")}
    assert position == board_after(path, 25).to_json()
    assert position["move_count"] == 25
    assert actions["legal_moves"] == run("moves", path, "--at", "25").stdout.splitlines()


def test_show_json_of_a_whole_won_game_says_won() -> None:
    position = json.loads(run("show", WON, "--json").stdout)
    assert position["status"] == "won"
    assert position["move_count"] == won_moves()


def test_show_an_invalid_game_prints_the_board_before_the_fault_and_the_error() -> None:
    result = run("show", ILLEGAL)
    assert result.exit_code == 1
    assert result.stdout == run("show", ILLEGAL, "--at", "20").stdout
    assert "move 20: r10:2H>A" in result.stdout
    heading, source, marks = result.stderr.splitlines()
    assert heading.startswith(f"{ILLEGAL}:9:23: move 21 '7D>A': no 7D is playable here")
    assert source == "  deal r3:KD>K r10:2H>A 7D>A"
    assert marks == "                        ^~~~"


def test_show_before_the_fault_is_fine() -> None:
    result = run("show", ILLEGAL, "--at", "20")
    assert result.exit_code == 0
    assert "move 20: r10:2H>A" in result.stdout


def test_show_a_false_result_is_an_error_only_for_the_whole_game() -> None:
    path = SAMPLES / "invalid" / "false-result.sun"
    assert run("show", path).exit_code == 1
    assert run("show", path, "--at", "20").exit_code == 0


def test_show_a_syntax_error_after_the_position_does_not_stop_it(tmp_path: Path) -> None:
    log = tmp_path / "cut.sun"
    log.write_text('[Deal "20261129"]\ndeal r1:AC>A r8:AS>A r2:2S>A bogus r11:KH>K\n*\n')
    assert run("show", log, "--at", "3").exit_code == 0
    late = run("show", log, "--at", "5")
    assert late.exit_code == 2
    assert late.stdout == ""
    assert late.stderr.startswith(
        "sunlog: --at 5 is beyond the first fault, at move 5 (--at must be 0 to 4): "
        f"{log}:2:30: move 5 'bogus'"
    )
    whole = run("show", log)
    assert whole.exit_code == 1
    assert "move 4: r2:2S>A" in whole.stdout
    assert f"{log}:2:30: " in whole.stderr


def test_show_reads_stdin() -> None:
    result = run("show", "-", "--json", input=WON.read_text())
    assert result.exit_code == 0
    assert json.loads(result.stdout)["status"] == "won"


def test_show_stdin_error_shows_the_source_line() -> None:
    result = run("show", "-", input=ILLEGAL.read_text())
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1] == "  deal r3:KD>K r10:2H>A 7D>A"


def test_show_in_colour_uses_rich_with_a_title() -> None:
    # What a terminal gets; --color always gives the same to a pipe (tests/test_cli_options.py).
    result = run("--color", "always", "show", WON, "--at", "5")
    assert result.exit_code == 0
    assert f"{WON} game 1, move 5" in result.stdout
    assert "foundations" in result.stdout


# ------------------------------------------------------------------ moves


def test_moves_lists_the_legal_moves_in_canonical_form() -> None:
    result = run("moves", WON, "--at", "30")
    assert result.exit_code == 0
    board = board_after(WON, 30)
    assert result.stdout.splitlines() == [str(m) for m in board.legal_moves()]
    for line in result.stdout.splitlines():
        copy = board.copy()
        move = Move.parse(line)
        copy.push(move)
        assert str(board.canonical(move)) == line


def test_moves_of_a_won_game_is_empty() -> None:
    result = run("moves", WON)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_moves_of_a_physical_game_notes_the_deal_it_cannot_list() -> None:
    result = run("moves", PHYSICAL, "--at", "3")
    assert result.exit_code == 0
    assert "deal" not in result.stdout.split()
    assert "also legal: deal C1 ... C13" in result.stderr


def test_moves_after_a_fault_is_exit_1_and_at_beyond_is_exit_2() -> None:
    assert run("moves", ILLEGAL).exit_code == 1
    assert run("moves", ILLEGAL, "--at", "20").exit_code == 0
    assert run("moves", WON, "--at", "100000").exit_code == 2


# ------------------------------------------------------------------ replay


def test_replay_without_a_terminal_prints_every_position() -> None:
    result = run("replay", WON)
    assert result.exit_code == 0
    headers = [line for line in result.stdout.splitlines() if line.startswith("after move ")]
    assert len(headers) == won_moves() + 1
    assert headers[0] == "after move 0: (start of the game)"
    assert headers[1] == "after move 1: deal"
    assert '[Deal "1"]' in result.stdout


def test_replay_at_n_prints_only_that_position() -> None:
    result = run("replay", WON, "--at", "12")
    assert result.exit_code == 0
    headers = [line for line in result.stdout.splitlines() if line.startswith("after move ")]
    assert len(headers) == 1 and headers[0].startswith("after move 12: ")
    assert "move 12: " in result.stdout


def test_replay_at_beyond_the_moves_is_a_usage_error() -> None:
    assert run("replay", WON, "--at", "100000").exit_code == 2


def test_replay_of_an_invalid_log_stops_at_the_fault_and_exits_1() -> None:
    result = run("replay", ILLEGAL)
    assert result.exit_code == 1
    headers = [line for line in result.stdout.splitlines() if line.startswith("after move ")]
    assert len(headers) == 21  # the start and moves 1..20
    assert f"stopped: {ILLEGAL}:9:23: move 21 '7D>A'" in result.stdout
    assert result.stderr.splitlines()[1] == "  deal r3:KD>K r10:2H>A 7D>A"


def test_replay_of_a_bad_tag_exits_1_without_positions() -> None:
    result = run("replay", SAMPLES / "invalid" / "bad-tag.sun")
    assert result.exit_code == 1
    assert "after move" not in result.stdout
    assert "unknown variant 'sun-4'" in result.stderr


def test_replay_shows_comments() -> None:
    result = run("replay", CLUB, "--game", "1")
    assert result.exit_code == 0
    assert "; the spec's example deal, stopped after the opening" in result.stdout
    assert "; a } in a comment forces the ; form" in result.stdout


def test_replay_on_a_terminal_steps_with_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = iter(["n", "n", "n", "p", "g", "1", "0", "enter", "q"])

    @contextmanager
    def fake_keys() -> Iterator[stepper.KeyReader]:
        yield lambda: next(keys)

    monkeypatch.setattr(cli.common, "interactive", lambda: True)
    monkeypatch.setattr(stepper, "terminal_keys", fake_keys)
    result = run("replay", WON, "--at", "5")
    assert result.exit_code == 0
    out = result.stdout
    for shown in (5, 6, 7, 8, 7, 10):
        assert f"move {shown} of {won_moves()}" in out
    assert out.rindex("move 10 of") > out.rindex("move 7 of")


# ------------------------------------------------- a broken log (issue 14.4)


def broken_log(tmp_path: Path) -> Path:
    """Deal 1 with an illegal fourth move (2S is not on ray 8)."""
    log = tmp_path / "broken.sun"
    log.write_text('[Deal "20261129"]\ndeal r1:AC>A r8:AS>A r8:2S>A r11:KH>K\n*\n')
    return log


def test_show_json_of_a_broken_log_is_the_position_before_the_fault(tmp_path: Path) -> None:
    log = broken_log(tmp_path)
    result = run("show", log, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["move_count"] == 3
    assert result.stderr.splitlines()[0].startswith(f"{log}:2:22: move 4 'r8:2S>A': ")
    assert result.stderr.splitlines()[1:] == [
        "  deal r1:AC>A r8:AS>A r8:2S>A r11:KH>K",
        "                       ^~~~~~~",
    ]


def test_moves_of_a_broken_log_lists_the_moves_before_the_fault(tmp_path: Path) -> None:
    log = broken_log(tmp_path)
    result = run("moves", log)
    assert result.exit_code == 1
    assert result.stdout == run("moves", log, "--at", "3").stdout != ""
    assert f"{log}:2:22: move 4 'r8:2S>A'" in result.stderr


def test_render_of_a_broken_log_draws_the_position_before_the_fault(tmp_path: Path) -> None:
    log = broken_log(tmp_path)
    result = run("render", log)
    assert result.exit_code == 1
    assert result.stdout == run("render", log, "--at", "3").stdout
    assert result.stdout.startswith("<svg") or "<svg" in result.stdout
    assert f"{log}:2:22: move 4" in result.stderr


def test_html_of_a_broken_log_replays_the_valid_part(tmp_path: Path) -> None:
    log = broken_log(tmp_path)
    result = run("html", log)
    assert result.exit_code == 1
    assert "r8:AS>A" in result.stdout and "r8:2S>A" not in result.stdout
    assert f"{log}:2:22: move 4" in result.stderr


@pytest.mark.parametrize("command", ["show", "moves", "render", "replay"])
def test_at_beyond_the_fault_is_a_usage_error_naming_it(command: str, tmp_path: Path) -> None:
    log = broken_log(tmp_path)
    result = run(command, log, "--at", "4")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "sunlog: --at 4 is beyond the first fault, at move 4 (--at must be 0 to 3): "
        f"{log}:2:22: move 4 'r8:2S>A': " + result.stderr.split("move 4 'r8:2S>A': ", 1)[1]
    )
    assert run(command, log, "--at", "3").exit_code == 0


@pytest.mark.parametrize("command", ["show", "moves", "render", "html", "replay"])
def test_a_log_whose_tags_are_at_fault_shows_the_error_only(command: str) -> None:
    result = run(command, SAMPLES / "invalid" / "bad-tag.sun")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "unknown variant 'sun-4'" in result.stderr


def test_a_false_result_shows_the_final_position_and_the_error() -> None:
    path = SAMPLES / "invalid" / "false-result.sun"
    result = run("show", path)
    assert result.exit_code == 1
    total = len(parse_games(path.read_text())[0].moves)
    assert f"move {total}: " in result.stdout
    assert "the log says" in result.stderr


def test_moves_of_a_game_with_a_deal_number_does_not_ask_for_the_cards() -> None:
    result = run("moves", WON, "--at", "3")
    assert result.exit_code == 0
    assert "deal" in result.stdout.split()
    assert "the deck is not known" not in result.stderr
