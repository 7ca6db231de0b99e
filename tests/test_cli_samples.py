"""The bundled samples: each valid one checks valid, each invalid one fails as it says.

Also: ``samples/make_samples.py`` still makes every sample, and the README's example
of ``check`` output is what ``check`` prints.
"""

from __future__ import annotations

import json
import re
import runpy
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.engine.moves import MoveKind, Target
from sunlog.notation import parse_games
from sunlog.notation.game import Game
from sunlog.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
INVALID = SAMPLES / "invalid"

#: Each invalid sample: the move at fault (None: tags or result), line, column, message.
EXPECTED_ERRORS = {
    "ambiguous.sun": (
        12,
        8,
        6,
        "AC>A can be read 2 ways with different results: write r11:AC>A or r13:AC>A",
    ),
    "bad-card.sun": (2, 6, 6, "an ace is written A: write r5:AS>K"),
    "bad-tag.sun": (None, 2, 1, "unknown variant 'sun-4': expected sun, sun-2 or sun-3"),
    "false-result.sun": (None, 10, 1, "the log says won, but only 16 of the 104 cards"),
    "illegal-move.sun": (
        21,
        9,
        23,
        "no 7D is playable here: the playable cards are 2S JS KS, 5H 6H 7H 10H, 3D 6D 8D, 3C 5C JC",
    ),
    "third-copy.sun": (
        2,
        5,
        43,
        "deal 2 names a third 6D: there are only two of each card; if a new game begins "
        "here, end the one before with its result token (won, lost or *) or begin this one "
        "with its tags",
    ),
    "wrong-move-number.sun": (5, 7, 6, "move 5 is numbered 6.: write 5."),
}


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args])


def games(name: str) -> list[Game]:
    return parse_games((SAMPLES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.sun")), ids=lambda p: p.name)
def test_every_sample_checks_valid(path: Path) -> None:
    result = run("check", "--json", path)
    assert result.exit_code == 0, result.stdout
    assert all(json.loads(line)["valid"] for line in result.stdout.splitlines())


def test_the_samples_are_the_ones_the_readme_and_makefile_name() -> None:
    names = {p.name for p in SAMPLES.glob("*.sun")}
    assert names == {
        "won-sun.sun",
        "lost-sun.sun",
        "sun-2.sun",
        "sun-3.sun",
        "physical.sun",
        "club-night.sun",
    }
    assert {p.name for p in INVALID.glob("*.sun")} == set(EXPECTED_ERRORS)
    assert "samples/won-sun.sun" in (ROOT / "Makefile").read_text()


@pytest.mark.parametrize("name", sorted(EXPECTED_ERRORS))
def test_every_invalid_sample_fails_with_its_message(name: str) -> None:
    path = INVALID / name
    move, line, column, message = EXPECTED_ERRORS[name]
    result = run("check", "--json", path)
    assert result.exit_code == 1
    (report,) = [json.loads(x) for x in result.stdout.splitlines()]
    assert report["valid"] is False
    error = report["error"]
    assert (error["move"], error["line"], error["column"]) == (move, line, column)
    assert error["message"].startswith(message)
    human = run("check", path)
    heading = human.stdout.splitlines()[0]
    assert heading.startswith(f"{path}:{line}:{column}: ")
    assert human.stdout.splitlines()[2].strip().startswith("^")


def test_checking_the_samples_directory_finds_every_log() -> None:
    result = run("check", "--json", SAMPLES)
    assert result.exit_code == 1
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    invalid = sorted(Path(x["path"]).name for x in lines if not x["valid"])
    assert invalid == sorted(EXPECTED_ERRORS)
    assert sum(1 for x in lines if x["valid"]) == 8  # club-night holds three games


def test_won_and_lost_samples_end_as_they_claim() -> None:
    for name, status in (("won-sun.sun", "won"), ("lost-sun.sun", "lost")):
        (game,) = games(name)
        assert game.result == status
        assert replay(game).board.status().value == status


def test_variant_samples() -> None:
    (sun2,) = games("sun-2.sun")
    assert sun2.tag("Variant") == "sun-2"
    assert replay(sun2).error is None
    (sun3,) = games("sun-3.sun")
    assert sun3.tag("Variant") == "sun-3"
    parks = [gm for gm in sun3.moves if gm.move.target is Target.RAY]
    assert len(parks) >= 2  # it uses temporary places


def test_physical_sample_names_its_deals_and_wind_row() -> None:
    (game,) = games("physical.sun")
    assert game.tag("Deal") is None and game.tag("Deck") is None
    deals = [gm.move for gm in game.moves if gm.move.kind is MoveKind.DEAL]
    assert len(deals) == 8 and all(d.cards is not None and len(d.cards) == 13 for d in deals)
    winds = [gm.move for gm in game.moves if gm.move.kind is MoveKind.WIND]
    assert len(winds) == 1 and winds[0].cards
    assert replay(game).error is None


def test_club_night_has_comments_annotations_and_move_numbers() -> None:
    found = games("club-night.sun")
    assert len(found) == 3
    assert [g.claimed_result for g in found] == ["*", "won", "*"]
    text = (SAMPLES / "club-night.sun").read_text()
    assert "{ " in text and "; " in text
    moves = [gm for g in found for gm in g.moves]
    assert {gm.annotation for gm in moves} >= {"!", "?!", "!!", "!?", "?"}
    assert any(gm.number is not None for gm in moves)
    assert found[0].comments and found[2].final_comments


def test_make_samples_still_makes_every_sample(tmp_path: Path) -> None:
    """The script that made the samples still runs and makes the same kinds of logs.

    Not byte for byte: the samples come from the policies, which may be tuned; the kept
    files are checked for themselves by the tests above."""
    sys.path.insert(0, str(SAMPLES))
    try:
        module = runpy.run_path(str(SAMPLES / "make_samples.py"), run_name="make_samples")
        module["main"]([str(tmp_path)])
    finally:
        sys.path.remove(str(SAMPLES))
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.sun"))
    kept = sorted(p.relative_to(SAMPLES) for p in SAMPLES.rglob("*.sun"))
    assert made == kept
    for rel in made:
        expected = 1 if rel.parts[0] == "invalid" else 0
        assert run("check", str(tmp_path / rel)).exit_code == expected, rel


def test_readme_error_example_is_what_check_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ (sunlog check [^\n]+)\n(.*?)```", readme, re.DOTALL)
    assert block is not None, "the README shows an example of check's error output"
    command, shown = block.group(1), block.group(2)
    args = command.split()[1:]
    result = CliRunner().invoke(cli.app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert shown == result.stdout + result.stderr
