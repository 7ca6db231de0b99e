"""The slips a new player makes at the table and what ``sunlog check`` and the library say
of them (issue 32): a deal left out, a card written without its target right after a deal,
a third copy of a card, a letter of another alphabet, a misspelled move word, a wrong move
number. Each is read through the CLI (the report, the caret and the exit code) and
through the library (the error's code, line and column)."""

from __future__ import annotations

import io
import json
from pathlib import Path
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


def test_a_line_of_13_cards_without_deal_asks_whether_deal_is_missing() -> None:
    second = "AH AS 8H 3D JS 6C AS 4S QD AC 9D KH 10H"
    text = f"deal {TABLE} r5:KC>K r9:AD>A\n{second} r1:AH>A\n*\n"
    lines = report(text)
    assert lines[0] == (
        "-:2:1: move 4 'AH': this line names 13 cards without deal before them: is deal "
        f"missing? write deal {second}"
    )
    assert lines[2] == "  ^~"
    error = fault(text)
    assert (error.code, error.line, error.column, error.move) == (
        LogErrorCode.DEAL_LEFT_OUT,
        2,
        1,
        4,
    )
    numbered = json_error(f"1. deal {TABLE}\n2. {second}\n")
    assert numbered["code"] == "deal-left-out" and numbered["column"] == 4


def test_a_line_of_fewer_cards_is_no_deal_left_out() -> None:
    error = fault(f"deal {TABLE} r13:AC>A\nAH AS 8H\n")
    assert error.code is LogErrorCode.TARGET_EXPECTED


# ---------------------------------------------------------------- look-alike letters


@pytest.mark.parametrize(
    ("written", "column", "message"),
    [
        ("c3:АC>K", 4, "'А' is the Cyrillic letter А, not the Latin A: write c3:AC>K"),
        ("r13:КC>K", 5, "'К' is the Cyrillic letter К, not the Latin K: write r13:KC>K"),
        ("r13:AС>A", 6, "'С' is the Cyrillic letter С, not the Latin C: write r13:AC>A"),
        ("r13:aс>a", 6, "'с' is the Cyrillic letter с, not the Latin c: write r13:ac>a"),
        ("r11:3Н>A", 6, "'Н' is the Cyrillic letter Н, not the Latin H: write r11:3H>A"),
        ("r13:ＡC>A", 5, "'Ａ' is the full-width letter Ａ, not the Latin A: write r13:AC>A"),
        ("dеal", 2, "'е' is the Cyrillic letter е, not the Latin e: write deal"),
    ],
)
def test_a_letter_of_another_alphabet_is_named_at_its_column(
    written: str, column: int, message: str
) -> None:
    text = f"deal {TABLE}\n{written}\n"
    lines = report(text)
    assert lines[0] == f"-:2:{column}: move 2 {written!r}: {message}"
    assert lines[2] == " " * (column + 1) + "^" + "~" * (len(written) - column)
    error = fault(text)
    assert (error.code, error.line, error.column) == (LogErrorCode.LOOK_ALIKE, 2, column)


def test_a_look_alike_card_of_a_deal_is_named() -> None:
    lines = report(f"deal {TABLE[:-2]}АC\n")
    assert lines[0].endswith(": 'А' is the Cyrillic letter А, not the Latin A: write AC")
    assert lines[0].startswith("-:1:43: move 1 'deal 8D")


def test_record_names_a_look_alike_letter_too() -> None:
    from sunlog.notation.session import Session

    session = Session.new()
    assert session.play(f"deal {TABLE}").error is None
    error = session.play("r9:AD>A c3:АC>K").error
    assert error is not None
    assert error.code is LogErrorCode.LOOK_ALIKE
    assert error.message == "'А' is the Cyrillic letter А, not the Latin A: write c3:AC>K"
    assert error.column == 12  # in the typed line


@pytest.mark.parametrize(
    ("field", "written", "code", "message"),
    [
        ("card", "АC", "look-alike", "'А' is the Cyrillic letter А, not the Latin A: write AC"),
        ("target", "К", "look-alike", "'К' is the Cyrillic letter К, not the Latin K: write K"),
        ("source", "r1З", None, None),  # no look-alike of a Latin letter: the general message
        (
            "card",
            "A\u200bC",
            "invisible",
            "an invisible zero-width space (U+200B) stands here: write AC",
        ),
    ],
)
def test_a_json_move_names_a_look_alike_letter_too(
    field: str, written: str, code: str | None, message: str | None
) -> None:
    """A program or a hand-edited JSON file: the same slips, named at the field."""
    move: dict[str, Any] = {"kind": "card", "source": "r1", "card": "AC", "target": "A"}
    move[field] = written
    document = {"format": "sunlog/1", "games": [{"tags": [], "moves": [move]}]}
    result = run("check", "--json", "-", input=json.dumps(document))
    assert result.exit_code == 1, result.stdout
    error = json.loads(result.stdout.splitlines()[0])["error"]
    if code is None:
        assert error["code"] == "not-a-document"
        assert error["message"].endswith("is not a card move")
    else:
        assert error["code"] == code
        assert error["message"] == f"games[0].moves[0].{field}: {message}"


# ------------------------------------------------------------ a move word misspelled


@pytest.mark.parametrize(
    ("written", "meant"),
    [("dael", "deal"), ("gahter", "gather"), ("wnid", "wind"), ("opne", "open"), ("dela", "deal")],
)
def test_a_misspelled_move_word_asks_did_you_mean(written: str, meant: str) -> None:
    deals = f'[Deal "{DEAL}"]\n' + "deal " * 8
    gathers = " ".join(f"gather {n}" for n in range(1, 14))
    before = {"deal": "", "gather": deals, "open": deals, "wind": f"{deals}{gathers} "}[meant]
    tail = " 1" if meant in ("gather", "open") else ""
    text = f"{before}{written}{tail}\n"
    error = fault(text)
    assert error.message == f"{written!r} is no word of the notation: did you mean {meant}?"
    assert error.code is LogErrorCode.MISSPELLED
    lines = report(text)
    assert lines[0].endswith(f"{written!r}: {error.message}")
    number = before.count("deal") + before.count("gather") + 1
    numbered = fault(f"{before}{number}. {written}{tail}\n")  # the same after its number
    assert (numbered.message, numbered.code) == (error.message, error.code)


@pytest.mark.parametrize("word", ["xyzzy", "dealer", "deck", "go"])
def test_a_word_far_from_every_move_word_is_not_guessed(word: str) -> None:
    error = fault(f"{word}\n")
    assert error.code in (LogErrorCode.SYNTAX, LogErrorCode.UNKNOWN_WORD)  # not misspelled
    assert "did you mean" not in error.message


# ------------------------------------------------- a card without its target, numbered


def test_a_move_number_before_a_card_changes_nothing() -> None:
    """``2. 2c`` says what ``2c`` says where a move is expected."""
    bare = json_error(f"deal {TABLE} r13:AC>A\nad\n")
    numbered = json_error(f"deal {TABLE} r13:AC>A\n3. ad\n")
    assert (
        numbered["message"]
        == bare["message"]
        == (
            "a card move needs a target: SOURCE:CARD>TARGET, like r5:QD>K; found 'ad'; "
            "here it can be ad>A"
        )
    )
    assert (numbered["line"], numbered["column"], numbered["move"]) == (2, 4, 3)
    assert numbered["code"] == "target-expected"


# ------------------------------------------------------ a card after a deal's 13 cards


def test_a_card_on_the_line_after_a_physical_deal_is_reported_at_its_place() -> None:
    text = f"deal {TABLE}\nac\n"
    lines = report(text)
    assert lines == [
        "-:2:1: move 2 'ac': a card move needs a target: SOURCE:CARD>TARGET, like r5:QD>K; "
        "found 'ac'; here it can be ac>A",
        "  ac",
        "  ^~",
    ]
    error = fault(text)
    assert (error.code, error.line, error.column, error.move) == (
        LogErrorCode.TARGET_EXPECTED,
        2,
        1,
        2,
    )
    numbered = fault(f"1. deal {TABLE}\n2. ac\n")
    assert numbered.message == error.message
    assert (numbered.line, numbered.column, numbered.move) == (2, 4, 2)


def test_an_extra_card_of_a_deal_has_the_caret() -> None:
    lines = report(f"deal {TABLE} 4h 5h\n")
    assert lines[0].startswith("-:1:46: move 2 '4h': a card move needs a target")
    assert lines[2] == " " * 47 + "^~"


def test_a_line_of_13_cards_after_a_deal_asks_for_deal() -> None:
    second = "AH AS 8H 3D JS 6C AS 4S QD 2C 9D KH 10H"
    error = fault(f"deal {TABLE}\n{second}\n")
    assert error.code is LogErrorCode.DEAL_LEFT_OUT
    assert (error.line, error.column, error.move) == (2, 1, 2)


# ---------------------------------------------- the caret on the part of a move at fault


def test_a_third_copy_in_a_deal_has_the_caret_on_that_card() -> None:
    second = "deal 2C 7S 3S QH QC 3C 2D 7D 10D 9S 4S 9H 8D"  # 8D: dealt once before
    text = f"deal {TABLE}\n{second}\n{second}\n*\n"
    lines = report(text)
    assert lines[0].startswith("-:3:43: move 3 'deal 2C 7S 3S QH QC 3C 2D 7D 10D 9S 4...': ")
    assert "deal 3 names a third 8D: there are only two of each card" in lines[0]
    assert lines[2] == " " * 44 + "^~"
    error = fault(text)
    assert (error.code, error.line, error.column, error.move) == (
        LogErrorCode.ILLEGAL_MOVE,
        3,
        43,
        3,
    )


def test_a_wrong_move_number_has_the_caret_under_the_number() -> None:
    text = f"1. deal {TABLE}\n2. r9:AD>A 4. r13:AC>A\n"
    lines = report(text)
    assert lines == [
        "-:2:12: move 3 'r13:AC>A': move 3 is numbered 4.: write 3.",
        "  2. r9:AD>A 4. r13:AC>A",
        "             ^~",
    ]
    error = fault(text)
    assert (error.code, error.line, error.column, error.move, error.text) == (
        LogErrorCode.MOVE_NUMBER,
        2,
        12,
        3,
        "r13:AC>A",
    )
    joined = fault(f"1.deal {TABLE}\n\n  22.r9:AD>A\n")
    assert joined.message == "move 2 is numbered 22.: write 2."
    assert (joined.line, joined.column) == (3, 3)


def test_sunlog_record_refuses_a_look_alike_letter_at_its_column(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    result = run("record", str(log), "--deal", str(DEAL), input="deal\nr1:АC>A\nquit\n")
    assert result.exit_code == 1  # off a terminal, a refused line is an error for scripts
    lines = result.stderr.splitlines()
    assert lines[:3] == [
        "refused: move 2 'r1:АC>A': 'А' is the Cyrillic letter А, not the Latin A: write r1:AC>A",
        "  r1:АC>A",
        "     ^",
    ]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("r9:AD>A {Привет\n", LogErrorCode.SYNTAX),  # a comment never closed, whatever it holds
        ("r9:AD>A Привет\n", LogErrorCode.UNKNOWN_WORD),  # Russian words: not misspelled notation
    ],
)
def test_cyrillic_text_that_is_no_notation_is_not_called_a_look_alike(
    text: str, code: LogErrorCode
) -> None:
    error = fault(f"deal {TABLE} r13:AC>A\n{text}")
    assert error.code is code
    assert "Cyrillic" not in error.message
