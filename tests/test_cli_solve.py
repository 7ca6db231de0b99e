"""``sunlog render``, ``html``, ``play``, ``stats``, ``solve``, ``analyze``: thin commands."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.notation import parse_games, write_game
from sunlog.notation.replay import replay
from sunlog.views.svg import board_svg

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
WON = SAMPLES / "won-sun.sun"
LOST = SAMPLES / "lost-sun.sun"
ILLEGAL = SAMPLES / "invalid" / "illegal-move.sun"


def run(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


# ------------------------------------------------------------------ render, html


def test_render_draws_the_position_after_n_moves() -> None:
    result = run("render", WON, "--at", "40")
    assert result.exit_code == 0
    assert result.stdout.startswith("<svg ")
    assert 'data-move-count="40"' in result.stdout
    game = parse_games(WON.read_text())[0]
    replayed = replay(game, upto=40, canonical=True)
    assert replayed.canonical is not None
    expected = board_svg(replayed.board, last_move=replayed.canonical[-1])
    assert result.stdout == expected


def test_render_to_a_file_and_size(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = run("render", WON, "-o", out, "--size", "300")
    assert (result.exit_code, result.stdout) == (0, "")
    assert out.read_text().startswith("<svg ")
    assert run("render", WON, "-o", WON).exit_code == 2


def test_render_and_html_of_an_invalid_log_exit_1() -> None:
    for command in ("render", "html"):
        result = run(command, ILLEGAL)
        assert result.exit_code == 1
        assert result.stdout != ""  # the position before the fault (issue 14.4)
        assert result.stderr.startswith(f"{ILLEGAL}:9:23: move 21 '7D>A'")
    assert run("render", ILLEGAL, "--at", "20").exit_code == 0


def test_html_is_one_self_contained_page(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = run("html", SAMPLES / "club-night.sun", "--game", "2", "-o", out)
    assert result.exit_code == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "http://" not in page.replace("http://www.w3.org", "")
    assert "a fine start" in page  # the comments travel with the moves


# ------------------------------------------------------------------ play


def test_play_prints_a_log_that_checks_valid_with_its_result(tmp_path: Path) -> None:
    result = run("play", "--deal", "3", "--policy", "greedy", "--variant", "sun-2")
    assert result.exit_code == 0
    (game,) = parse_games(result.stdout)
    assert [(t.name, t.value) for t in game.tags] == [
        ("Event", "sunlog play"),
        ("Player", "sunlog greedy"),
        ("Variant", "sun-2"),
        ("Deal", "3"),
    ]
    replayed = replay(game)
    assert replayed.error is None
    status = replayed.board.status().value
    assert game.result == status
    assert result.stderr.startswith(f"deal 3 (sun-2) by greedy: {status} after ")
    assert run("play", "--deal", "3", "--policy", "greedy", "--variant", "sun-2").stdout == (
        result.stdout
    )


def test_play_with_a_seed_names_it_and_json_output(tmp_path: Path) -> None:
    import jsonschema

    from sunlog.notation.resources import schema

    out = tmp_path / "game.json"
    result = run("play", "--deal", "5", "--policy", "random", "--seed", "9", "--json", "-o", out)
    assert (result.exit_code, result.stdout) == (0, "")
    data = json.loads(out.read_text())
    doc = schema("game")
    jsonschema.validate(data, {"$defs": doc["$defs"], "$ref": "#/$defs/game"})
    assert {"name": "Seed", "value": "9"} in data["tags"]
    checked = run("check", "--json", out)
    assert checked.exit_code == 0


def test_play_without_a_deal_picks_one_and_says_which() -> None:
    result = run("play")
    assert result.exit_code == 0
    (game,) = parse_games(result.stdout)
    deal = game.tag("Deal")
    assert deal is not None and 0 <= int(deal) < 10**6  # a number a person can say
    assert result.stderr.startswith(f"deal {deal} (sun) by lookahead: ")
    assert replay(game).error is None


def test_play_picks_a_different_deal_under_a_million_each_time() -> None:
    deals = set()
    for _ in range(5):
        result = run("play", "--policy", "random")
        assert result.exit_code == 0
        deal = parse_games(result.stdout)[0].tag("Deal")
        assert deal is not None and len(deal) <= 6
        deals.add(int(deal))
    assert len(deals) > 1  # still random (five draws below a million all equal: ~1e-24)


def test_play_usage_errors() -> None:
    bad = run("play", "--deal", "1", "--policy", "clever")
    assert bad.exit_code == 2
    assert "Invalid value for '--policy' / '-p': 'clever' is not one of" in bad.stderr
    assert run("play", "--deal", "1", "--variant", "sun-7").exit_code == 2
    assert run("play", "--deal", "-1").exit_code == 2


# ------------------------------------------------------------------ stats


def test_stats_json_is_run_stats_and_independent_of_jobs() -> None:
    from sunlog.play.stats import run_stats

    args = ["stats", "--games", "12", "--first-deal", "40", "--policy", "greedy", "--json"]
    one = run(*args)
    assert one.exit_code == 0
    expected = run_stats("sun", "greedy", 12, first_deal=40).to_json()
    assert json.loads(one.stdout) == json.loads(json.dumps(expected))
    assert run(*args, "-j", "2").stdout == one.stdout


def test_stats_text_report() -> None:
    result = run("stats", "--games", "5", "--variant", "sun-2", "--policy", "greedy")
    assert result.exit_code == 0
    assert result.stdout.startswith("sun-2, policy greedy, deals 1..5 (5 games)\n")
    assert "95% CI" in result.stdout


def test_stats_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["stats", "--games", "20", "--variant", "sun-2", "--policy", "greedy", "--json"]
    quiet = run(*args)
    assert quiet.stderr == ""
    monkeypatch.setattr(cli.common, "stderr_is_terminal", lambda: True)
    shown = run(*args)
    assert shown.exit_code == 0
    assert shown.stdout == quiet.stdout
    assert "playing" in shown.stderr


def test_stats_usage_errors() -> None:
    assert run("stats", "--policy", "clever").exit_code == 2
    assert run("stats", "--variant", "sun-7", "--games", "1").exit_code == 2
    assert run("stats", "--games", "-1").exit_code == 2


# ------------------------------------------------------------------ solve


def test_solve_a_deal_prints_a_winning_log_that_checks_won(tmp_path: Path) -> None:
    result = run("solve", "--deal", "3")
    assert result.exit_code == 0
    assert result.stderr.startswith("deal 3 (sun): won: a winning line of ")
    (game,) = parse_games(result.stdout)
    assert game.tag("Deal") == "3"
    log = tmp_path / "solved.sun"
    log.write_text(result.stdout)
    checked = run("check", "--json", log)
    assert checked.exit_code == 0
    assert json.loads(checked.stdout)["result"] == "won"


def test_solve_json() -> None:
    result = run("solve", "--deal", "3", "--variant", "sun-3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["deal"], data["variant"]) == (3, "sun-3")
    assert data["verdict"] == "won"
    (game,) = parse_games(data["log"])
    assert game.tag("Variant") == "sun-3"
    assert replay(game).board.status().value == "won"


def test_solve_a_position_of_a_log_keeps_the_moves_played() -> None:
    result = run("solve", LOST, "--at", "40")
    assert result.exit_code == 0
    (solved,) = parse_games(result.stdout)
    (played,) = parse_games(LOST.read_text())
    assert [gm.move for gm in solved.moves[:40]] == [gm.move for gm in played.moves[:40]]
    assert replay(solved).board.status().value == "won"
    assert solved.tag("Event") == played.tag("Event")


def test_solve_with_a_tiny_budget_says_unknown() -> None:
    result = run("solve", "--deal", "1", "--max-nodes", "5")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "unknown: the search ran out of budget" in result.stderr


def test_solve_usage_errors() -> None:
    assert run("solve").exit_code == 2
    assert run("solve", WON, "--deal", "3").exit_code == 2
    bad = run("solve", "--deal", "3", "--variant", "sun-9")
    assert bad.exit_code == 2 and "'sun-9' is not one of 'sun', 'sun-2', 'sun-3'" in bad.stderr
    physical = run("solve", SAMPLES / "physical.sun", "--at", "20")
    assert physical.exit_code == 2
    assert "the deck is not known" in physical.stderr
    assert run("solve", ILLEGAL).exit_code == 1


# ------------------------------------------------------------------ analyze


def test_analyze_an_unfinished_winnable_game(tmp_path: Path) -> None:
    (game,) = parse_games(WON.read_text())
    cut = len(game.moves) - 10
    log = tmp_path / "part.sun"
    log.write_text(write_game(replace(game, moves=game.moves[:cut], result="*")))
    result = run("analyze", log, "--max-nodes", "5000")
    assert result.exit_code == 0
    assert result.stdout == f"the game can still be won after its last move ({cut})\n"


def test_analyze_json_fields() -> None:
    result = run("analyze", LOST, "--max-nodes", "3000", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["path"] == str(LOST) and data["game"] == 1
    total = len(parse_games(LOST.read_text())[0].moves)
    assert len(data["verdicts"]) == total + 1
    assert data["verdicts"][-1] == "lost"  # the game ends lost after the wind
    for key in ("last_winnable", "losing_move", "continuation", "certain", "unknown"):
        assert key in data


def test_analyze_an_invalid_log_exits_1() -> None:
    assert run("analyze", ILLEGAL).exit_code == 1
