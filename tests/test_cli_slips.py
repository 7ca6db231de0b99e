"""The slips a new player makes at the table and what ``sunlog check`` and the library say
of them (issue 32): a deal left out, a card written without its target right after a deal,
a third copy of a card, a letter of another alphabet, a misspelled move word, a wrong move
number. Each is read through the CLI (the report, the caret and the exit code) and
through the library (the error's code, line and column)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.engine.board import Board
from sunlog.engine.errors import IllegalMoveError, MoveErrorCode
from sunlog.engine.moves import Move
from sunlog.notation.errors import LogError, LogErrorCode
from sunlog.notation.reader import read_games
from sunlog.notation.replay import replay

#: Deal number 20261129 (SPEC 4): its first three deals, ray 1 first.
DEAL = 20261129
FIRST = "AC 2S 9S 9C 6H 8S 7D AS AS 4C KH 6D 3D"
SECOND = "3S JD 10S AC JH 5H 3H 5H 8H KC JC 7H 9D"
#: A physical game's first deal, as named at the table.
TABLE = "8D 5S 8S 9D KC 10C JD QD AD JC 3H 5H AC"


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.app, list(args), input=input)


def report(text: str) -> list[str]:
    """``check -`` of ``text``, which must be invalid (exit 1): heading, source, caret."""
    result = run("check", "-", input=text)
    assert result.exit_code == 1, result.stdout
    return result.stdout.splitlines()


def json_error(text: str) -> dict[str, Any]:
    """The ``error`` object of ``check --json -`` (exit 1)."""
    result = run("check", "--json", "-", input=text)
    assert result.exit_code == 1, result.stdout
    (line,) = result.stdout.splitlines()
    error: dict[str, Any] = json.loads(line)["error"]
    return error


def fault(text: str) -> LogError:
    """The first fault of a one-game log, through the library: its reading's, else its
    replay's."""
    (game,) = read_games(io.StringIO(text))
    error = replay(game).error
    assert error is not None
    return error


# ------------------------------------------------------------------ a deal left out


def test_a_card_of_the_next_deal_asks_whether_a_deal_was_left_out() -> None:
    text = f'[Deal "{DEAL}"]\n\ndeal r1:AC>A r2:3H>A\n'
    lines = report(text)
    assert lines[0] == (
        "-:3:14: move 3 'r2:3H>A': ray 2's outer card is 2S, not 3H, and 3H has not been "
        "dealt yet: it comes with the next deal (was a deal left out?)"
    )
    assert lines[2] == "               ^~~~~~~"
    error = fault(text)
    assert (error.code, error.line, error.column, error.move) == (
        LogErrorCode.ILLEGAL_MOVE,
        3,
        14,
        3,
    )


def test_a_short_form_of_a_card_still_in_the_stock_says_so_and_what_is_playable() -> None:
    error = json_error(f'[Deal "{DEAL}"]\ndeal 3H>A\n')
    assert error["message"] == (
        "3H has not been dealt yet: it comes with the next deal (was a deal left out?); the "
        "playable cards are AS 2S 8S 9S, 6H KH, 3D 6D 7D, AC 4C 9C"
    )


def test_a_card_of_a_later_deal_names_that_deal() -> None:
    error = json_error(f'[Deal "{DEAL}"]\ndeal r2:QH>K\n')
    assert error["message"] == (
        "ray 2's outer card is 2S, not QH, and QH has not been dealt yet: it comes with deal 4"
    )


def test_the_engine_gives_a_card_in_the_stock_its_own_code() -> None:
    board = Board("sun", deal=DEAL)
    board.push(Move.deal())
    with pytest.raises(IllegalMoveError) as caught:
        board.push(Move.parse("r2:3H>A"))
    assert caught.value.code is MoveErrorCode.IN_STOCK
    with pytest.raises(IllegalMoveError) as caught:
        board.push(Move.parse("r8:AS>K"))  # AS is there: the target is the fault
    assert caught.value.code is MoveErrorCode.NO_FIT


def test_a_covered_card_is_not_said_to_be_in_the_stock() -> None:
    """A copy on the table, under another card, is the likelier fault than a deal left out."""
    board = Board("sun", deal=DEAL)
    board.push(Move.deal())
    board.push(Move.deal())
    with pytest.raises(IllegalMoveError) as caught:
        board.push(Move.parse("r2:2S>A"))  # 2S lies under JD; the other 2S is in the stock
    assert caught.value.code is MoveErrorCode.NOT_THERE
    assert str(caught.value) == "ray 2's outer card is JD, not 2S, and no 2S is playable anywhere"
