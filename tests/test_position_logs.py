"""Logs that start from a position (``[Position "..."]``): they replay to the same final
position as the whole game, in the general way and in check's quick lane; Variant, Deal
and Deck beside the tag must agree; move numbers go on from the string's count; fmt and
convert keep the tag."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from enginekit import random_playout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sunlog import Board
from sunlog.cli.root import app
from sunlog.engine.deal import MAX_DEAL, deal_deck
from sunlog.notation.errors import LogErrorCode
from sunlog.notation.quickcheck import quick_check
from sunlog.notation.reader import read_games
from sunlog.notation.replay import replay

SETTINGS = settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
RUNNER = CliRunner()


def tail_log(board: Board, moves: list[str], tags: str = "") -> str:
    """The log of a game from ``board``'s position: its tag, then ``moves`` numbered on."""
    first = board.move_count
    numbered = " ".join(f"{first + i}. {m}" for i, m in enumerate(moves, 1))
    return f'{tags}[Position "{board.position()}"]\n\n{numbered} *\n'


@SETTINGS
@given(
    variant=st.sampled_from(["sun", "sun-2", "sun-3"]),
    deal=st.integers(min_value=0, max_value=MAX_DEAL - 1),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    physical=st.booleans(),
    cut=st.floats(min_value=0, max_value=1),
)
def test_a_position_log_replays_to_the_whole_games_end(
    variant: str, deal: int, seed: int, physical: bool, cut: float
) -> None:
    whole = Board(variant, deal=deal)
    named = [whole.named_cards(m) for m in random_playout(whole, random.Random(seed))]
    moves = named if physical else list(whole.move_stack)
    start = Board(variant) if physical else Board(variant, deal=deal)
    final = start.copy()
    for move in moves:
        final.push(move)
    n = int(cut * len(moves))
    for move in moves[:n]:
        start.push(move)
    text = tail_log(start, [str(m) for m in moves[n:]])
    (game,) = read_games(io.StringIO(text))
    done = replay(game)
    assert done.valid, done.error
    assert done.board == final and done.board.position() == final.position()
    assert done.board.move_count == final.move_count
    verdict = quick_check(text)  # check's quick lane agrees
    assert verdict is not None and verdict.moves == len(moves) - n


def _tagged(tags: str) -> str:
    board = Board("sun", deal=777)
    board.push_text("deal")
    return tail_log(board, ["r3:AC>A", "deal"], tags)


@pytest.mark.parametrize(
    ("tags", "line", "words"),
    [
        ('[Variant "sun-3"]\n', 1, "the Variant tag says sun-3, the Position tag sun"),
        ('[Deal "778"]\n', 1, "the Deal tag says 778, the Position tag's stock #777"),
        (
            '[Deck "' + " ".join(map(str, deal_deck(778))) + '"]\n',
            1,
            "the Deck tag's stock after 1 deals is not the Position tag's",
        ),
    ],
)
def test_tags_beside_the_position_must_agree(tags: str, line: int, words: str) -> None:
    (game,) = read_games(io.StringIO(_tagged(tags)))
    error = replay(game).error
    assert error is not None and error.code is LogErrorCode.POSITION
    assert (error.line, error.column) == (line, 1)
    assert words in error.message


@pytest.mark.parametrize(
    "tags",
    [
        '[Variant "sun"]\n',
        '[Deal "777"]\n',
        '[Deck "' + " ".join(map(str, deal_deck(777))) + '"]\n',
        '[Variant "sun"]\n[Deal "777"]\n',
    ],
)
def test_tags_that_agree_are_taken(tags: str) -> None:
    (game,) = read_games(io.StringIO(_tagged(tags)))
    assert replay(game).valid


def test_a_malformed_position_is_refused_at_its_tag() -> None:
    text = '[Event "x"]\n[Position "sun 1 1/0/0 3S/5X"]\n\ndeal *\n'
    (game,) = read_games(io.StringIO(text))
    error = replay(game).error
    assert error is not None and error.code is LogErrorCode.POSITION
    assert (error.line, error.column) == (2, 1)
    assert "in the Position tag: position" in error.message and "fields" in error.message


def test_move_numbers_go_on_from_the_position() -> None:
    board = Board("sun", deal=777)
    board.push_text("deal")
    text = tail_log(board, ["r3:AC>A"]).replace("2. r3", "1. r3")
    (game,) = read_games(io.StringIO(text))
    error = replay(game).error
    assert error is not None and error.code is LogErrorCode.MOVE_NUMBER
    assert "move 2 is numbered 1.: write 2." in error.message


def test_fmt_and_convert_keep_the_tag(tmp_path: Path) -> None:
    board = Board("sun-3", deal=9)
    board.push_text("deal")
    log = tmp_path / "tail.sun"
    log.write_text(tail_log(board, ["deal"]))
    tag = f'[Position "{board.position()}"]'
    formatted = RUNNER.invoke(app, ["fmt", str(log)])
    assert formatted.exit_code == 0 and tag in formatted.stdout
    converted = RUNNER.invoke(app, ["convert", str(log), "-o", str(tmp_path / "tail.json")])
    assert converted.exit_code == 0, converted.output
    document = json.loads((tmp_path / "tail.json").read_text())
    (game,) = document["games"]
    assert {"name": "Position", "value": board.position()} in game["tags"]
    assert game["variant"] == "sun-3" and game["valid"] is True
    back = RUNNER.invoke(app, ["convert", str(tmp_path / "tail.json"), "--to", "sun"])
    assert back.exit_code == 0 and tag in back.stdout and "Variant" not in back.stdout
    checked = RUNNER.invoke(app, ["check", str(log)])
    assert checked.exit_code == 0
