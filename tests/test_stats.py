"""run_stats and the Wilson interval: figures that are right, pinned and reproducible."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from sunlog import Board, cli
from sunlog.play.policies import play
from sunlog.play.stats import CHUNK, STAGE_KEYS, GameSummary, StatsResult, run_stats, wilson

RUNNER = CliRunner()

# ---------------------------------------------------------------------------------- Wilson


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),  # published values of the 95% Wilson score interval
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_matches_published_values(
    wins: int, games: int, low: float, high: float
) -> None:
    got = wilson(wins, games)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_holds_the_rate_and_narrows_with_more_games() -> None:
    for games in (1, 7, 100, 10_000):
        for wins in {0, games // 3, games}:
            low, high = wilson(wins, games)
            assert 0.0 <= low <= wins / games <= high <= 1.0
    assert (
        wilson(300, 1000)[1] - wilson(300, 1000)[0]
        > wilson(3000, 10000)[1] - wilson(3000, 10000)[0]
    )


def test_wilson_interval_of_no_games_is_everything_and_nonsense_is_refused() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(-1, 2)


# ------------------------------------------------------------------------------- figures


def test_stats_agree_with_the_games_played_one_by_one() -> None:
    result = run_stats("sun", "greedy", 12, first_deal=40)
    boards = [play(deal, "sun", "greedy") for deal in range(40, 52)]
    assert result.games == 12
    assert result.wins == sum(board.is_won() for board in boards)
    assert result.lost == sum(board.status().value == "lost" for board in boards)
    assert result.mean_on_foundations == pytest.approx(
        sum(board.on_foundations() for board in boards) / 12
    )
    assert sum(result.distribution.values()) == 12
    assert result.distribution.get(104, 0) == result.wins
    assert sum(result.wins_by_stage.values()) == result.wins


@pytest.mark.parametrize(
    ("variant", "policy", "won"),
    [
        ("sun", "greedy", [9, 11, 17]),
        ("sun-2", "lookahead", [17, 20]),
        ("sun-3", "random", [1, 3, 5, 11, 12, 13, 17]),
    ],
)
def test_pinned_wins_over_deals_1_to_20(variant: str, policy: str, won: list[int]) -> None:
    """Pinned after checking each win by replaying its moves on a fresh board."""
    result = run_stats(variant, policy, 20)
    assert result.wins == len(won)
    for deal in won:
        board = Board(variant, deal=deal)
        for move in play(deal, variant, policy).move_stack:
            board.push(move)
        assert board.is_won()


def test_pinned_figures_over_deals_1_to_20() -> None:
    figures = {
        (variant, policy): run_stats(variant, policy, 20).to_json()
        for variant, policy in [("sun", "greedy"), ("sun", "lookahead"), ("sun-3", "random")]
    }
    greedy = figures["sun", "greedy"]
    assert greedy["wins"] == 3
    assert greedy["wins_by_stage"] == {"1": 0, "2": 0, "3": 2, "wind": 1}
    assert greedy["mean_on_foundations"] == pytest.approx(85.3)
    lookahead = figures["sun", "lookahead"]
    assert lookahead["wins"] == 20
    assert lookahead["wins_by_stage"] == {"1": 0, "2": 0, "3": 20, "wind": 0}
    random_sun3 = figures["sun-3", "random"]
    assert (random_sun3["wins"], random_sun3["lost"]) == (7, 13)
    assert random_sun3["wins_by_stage"] == {"1": 0, "2": 0, "3": 2, "wind": 5}
    assert random_sun3["mean_on_foundations"] == pytest.approx(75.15)


def test_two_processes_give_exactly_the_figures_of_one() -> None:
    games = CHUNK + 15  # two chunks, the second short
    one = run_stats("sun-3", "random", games, first_deal=500, jobs=1)
    two = run_stats("sun-3", "random", games, first_deal=500, jobs=2)
    assert two == one
    assert two.to_json() == one.to_json()


def test_the_same_arguments_give_the_same_figures() -> None:
    assert run_stats("sun", "random", 10, first_deal=77) == run_stats(
        "sun", "random", 10, first_deal=77
    )


def test_progress_is_reported_from_zero_to_all_games() -> None:
    calls: list[tuple[int, int]] = []
    run_stats(
        "sun-2", "greedy", CHUNK + 5, progress=lambda done, total: calls.append((done, total))
    )
    assert calls[0] == (0, CHUNK + 5)
    assert calls[-1] == (CHUNK + 5, CHUNK + 5)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": -1}, "number of games"),
        ({"jobs": 0}, "jobs"),
        ({"first_deal": 2**64 - 1, "games": 2}, "deal numbers"),
        ({"variant": "moon"}, "unknown variant"),
        ({"policy": "best"}, "unknown policy"),
    ],
)
def test_run_stats_refuses_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"variant": "sun", "policy": "greedy", "games": 1}
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        run_stats(**arguments)  # type: ignore[arg-type]


def test_no_games_give_empty_figures() -> None:
    result = run_stats("sun", "greedy", 0)
    assert (result.games, result.wins, result.win_rate, result.ci95) == (0, 0, 0.0, (0.0, 1.0))


# ---------------------------------------------------------------------------------- JSON


def test_json_has_the_documented_shape() -> None:
    data = run_stats("sun", "greedy", 5, first_deal=9).to_json()
    assert json.loads(json.dumps(data)) == data
    for key in ("variant", "policy", "games", "wins", "win_rate", "ci95", "wins_by_stage"):
        assert key in data
    assert (data["variant"], data["policy"], data["games"]) == ("sun", "greedy", 5)
    assert list(data["wins_by_stage"]) == list(STAGE_KEYS)
    low, high = data["ci95"]
    assert low <= data["win_rate"] <= high
    assert data["win_rate"] == data["wins"] / 5
    assert sum(data["distribution"].values()) == 5
    assert math.isclose(
        data["mean_on_foundations"],
        sum(int(k) * v for k, v in data["distribution"].items()) / 5,
    )


def test_summary_of_games_counts_wins_by_stage() -> None:
    games = [
        GameSummary(1, "won", "3", 104, 120),
        GameSummary(2, "won", "wind", 104, 150),
        GameSummary(3, "lost", "wind", 90, 140),
        GameSummary(4, "playing", "2", 50, 5000),
    ]
    result = StatsResult.from_games("sun", "test", 1, games)
    assert result.wins_by_stage == {"1": 0, "2": 0, "3": 1, "wind": 1}
    assert (result.wins, result.lost, result.unfinished) == (2, 1, 1)
    assert result.distribution == {50: 1, 90: 1, 104: 2}
    assert result.mean_on_foundations == pytest.approx(87.0)
    assert "unfinished   1" in result.to_text()


# ------------------------------------------------------------------------ sunlog stats


def test_stats_prints_json() -> None:
    result = RUNNER.invoke(
        cli.app, ["stats", "--variant", "sun-3", "--policy", "greedy", "--games", "3", "--json"]
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["variant"], data["policy"], data["games"]) == ("sun-3", "greedy", 3)


def test_stats_prints_a_report() -> None:
    result = RUNNER.invoke(
        cli.app, ["stats", "--policy", "greedy", "--games", "4", "--first-deal", "9"]
    )
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("sun, policy greedy, deals 9..12 (4 games)\n")
    assert "95% CI" in out and "Wilson" in out
    assert "won in stage 1: 0  2: 0  3: " in out


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "-3"],
        ["--games", "0"],
        ["--games", "ten"],
        ["--first-deal", "-1"],
        ["-j", "-1"],
        ["--first-deal", str(2**64 - 1), "--games", "2"],
    ],
)
def test_stats_refuses_bad_arguments_with_exit_code_2(args: list[str]) -> None:
    result = RUNNER.invoke(cli.app, ["stats", *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_python_m_stats_points_to_sunlog_stats() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "sunlog.play.stats", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "sunlog stats" in done.stderr
