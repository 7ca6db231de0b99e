"""Round trips over every sample and over generated logs: nothing changes the final position.

For each game: notation -> JSON -> notation, and notation -> canonical -> notation, replay
to the same final position (the whole position object, and the board's key); the
canonical form is a fixed point (formatting it again gives the same text). The samples
also go the whole way through the command line (``convert``, ``convert --to sun``,
``fmt``, ``show --json``), as a user would run them.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from notationkit import VARIANTS, greedy_playout, real_logs
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.engine.board import Board
from sunlog.notation import parse_games, read_games, write_game, write_games
from sunlog.notation.game import Game, Tag
from sunlog.notation.jsonio import document_json, game_to_json, read_json_games
from sunlog.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
#: Every valid log that ships: the samples and the notation fixtures.
VALID_LOGS = sorted(ROOT.glob("samples/*.sun")) + sorted(
    p
    for p in (ROOT / "tests" / "data").glob("*.sun")
    if p.name not in ("bad-games.sun", "no-game.sun")
)
SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def read_file(path: Path) -> list[Game]:
    with open(path, encoding="utf-8", newline=None) as handle:
        return list(read_games(handle))


def final(game: Game) -> dict[str, Any]:
    """The final position of a valid game, as the position object (SPEC 6)."""
    result = replay(game)
    assert result.valid, result.error
    return result.board.to_json()


def canonical_text(game: Game) -> str:
    result = replay(game, canonical=True)
    assert result.valid, result.error
    return write_game(game, result.canonical)


def through_json(games: list[Game], *, lines: bool) -> list[Game]:
    """Notation -> JSON text (a document, or JSON Lines) -> notation -> games."""
    data = [game_to_json(g) for g in games]
    if lines:
        text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in data)
    else:
        text = json.dumps(document_json(data), ensure_ascii=False)
    back = read_json_games(text)
    return parse_games(write_games(write_game(g) for g in back))


def assert_round_trips(games: list[Game]) -> None:
    """Every round trip of the module docstring, for the games of one file."""
    positions = [final(g) for g in games]
    keys = [replay(g).board.key() for g in games]
    for lines in (False, True):
        again = through_json(games, lines=lines)
        assert [final(g) for g in again] == positions
        assert [replay(g).board.key() for g in again] == keys
        assert [game_to_json(g) for g in again] == [game_to_json(g) for g in games]
    canonical = [canonical_text(g) for g in games]
    reread = parse_games(write_games(canonical))
    assert [final(g) for g in reread] == positions
    assert [replay(g).board.key() for g in reread] == keys
    assert [canonical_text(g) for g in reread] == canonical  # a fixed point
    assert [write_game(g) for g in reread] == canonical  # printed as it stands
    for text, game in zip(canonical, reread, strict=True):  # and through JSON
        (back,) = read_json_games(json.dumps(game_to_json(game)))
        assert canonical_text(back) == text


# ------------------------------------------------------------------ the samples


@pytest.mark.parametrize("path", VALID_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_valid_log_round_trips_to_the_same_final_position(path: Path) -> None:
    games = read_file(path)
    assert games
    assert_round_trips(games)


def run(*args: str | Path, input: str | None = None) -> Result:
    result = CliRunner().invoke(cli.app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def shown(path: Path, game: int) -> dict[str, Any]:
    result = run("show", "--json", "--game", str(game), path)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize("name", ["won-sun.sun", "lost-sun.sun", "sun-3.sun", "physical.sun"])
def test_samples_round_trip_through_the_command_line(name: str, tmp_path: Path) -> None:
    path = ROOT / "samples" / name
    count = len(read_file(path))
    as_json = tmp_path / "game.json"
    assert run("convert", path, "-o", as_json).exit_code == 0
    as_sun = tmp_path / "back.sun"
    assert run("convert", "--to", "sun", as_json, "-o", as_sun).exit_code == 0
    formatted = run("fmt", path)
    assert formatted.exit_code == 0, formatted.stderr
    canonical = tmp_path / "canonical.sun"
    canonical.write_text(formatted.stdout, encoding="utf-8")
    again = run("fmt", canonical)
    assert again.stdout == formatted.stdout  # fmt is a fixed point
    assert run("fmt", "--check", canonical).exit_code == 0
    for k in range(1, count + 1):
        expected = shown(path, k)
        for other in (as_json, as_sun, canonical):
            assert shown(other, k) == expected, (other.name, k)


# ------------------------------------------------------------------ generated logs


def generated_logs() -> st.SearchStrategy[str]:
    """A file of one to three real games, each written loosely (any spelling, comments)."""
    return real_logs(games=3, max_moves=150, newlines=("\n", "\r\n"))


@SETTINGS
@given(generated_logs())
def test_generated_logs_round_trip_to_the_same_final_position(text: str) -> None:
    games = list(read_games(io.StringIO(text, newline=None)))
    assert all(g.error is None for g in games)
    assert_round_trips(games)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("deal", [3, 11])
def test_whole_games_to_their_end_round_trip(variant: str, deal: int) -> None:
    """Greedy games run through every stage (the wind too), which random play rarely does."""
    board = Board(variant, deal=deal)
    moves = list(greedy_playout(board))
    status = board.status().value
    tags = (Tag("Variant", variant), Tag("Deal", str(deal)))
    result = status if status != "playing" else "*"
    game = Game.of_moves(moves, tags, result)
    (read,) = parse_games(write_game(game))
    assert replay(read).board.key() == board.key()
    assert_round_trips([read])
