"""Every LogError carries a code saying what kind of fault it is, and what branches on the
kind (the hints replay adds, what record calls the end) reads the code, never the words."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from sunlog import cli
from sunlog.notation import errors, replay, session, syntax
from sunlog.notation.errors import LogError, LogErrorCode
from sunlog.notation.jsonio import read_json_games
from sunlog.notation.reader import read_games
from sunlog.notation.replay import replay as replay_game
from sunlog.notation.session import Session

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "sunlog" / "schemas" / "game.json").read_text())


def fault(text: str) -> LogError:
    """The first fault of a one-game log: its reading's, else its replay's."""
    try:
        (game,) = read_games(io.StringIO(text))
    except LogError as exc:
        return exc
    error = replay_game(game).error
    assert error is not None
    return error


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('[Deal "1"]\ndeal r5:QX *\n', LogErrorCode.CARD_EXPECTED),
        ('[Deal "1"]\ndeal r13:K>K *\n', LogErrorCode.CARD_EXPECTED),
        ('[Deal "1"]\ndeal r5: *\n', LogErrorCode.CARD_EXPECTED),
        ('[Deal "1"]\ndeal r5:KC *\n', LogErrorCode.TARGET_EXPECTED),
        ('[Deal "1"]\ndeal r5:KC> *\n', LogErrorCode.TARGET_EXPECTED),
        ('[Deal "1"]\ndeal r5:KC>Q *\n', LogErrorCode.TARGET_EXPECTED),
        ('[Deal "1"]\ndeal xyzzy *\n', LogErrorCode.UNKNOWN_WORD),
        ('[Deal "1"]\ndeal 1-0\n', LogErrorCode.SYNTAX),
        ('[Deal "1"]\n[Deal "2"]\ndeal *\n', LogErrorCode.TAG),
        ('[Variant "sun-9"]\ndeal *\n', LogErrorCode.TAG),
        ('[Deal "1"]\n1. deal 3. r5:KC>K *\n', LogErrorCode.MOVE_NUMBER),
        ('[Deal "1"]\ndeal r5:QD>K *\n', LogErrorCode.ILLEGAL_MOVE),
        ('[Deal "1"]\n[Result "won"]\ndeal lost\n', LogErrorCode.RESULT_MISMATCH),
        ('[Deal "1"]\ndeal won\n', LogErrorCode.FALSE_RESULT),
        ("; nothing but a comment\n", LogErrorCode.NO_GAME),
        ("deal \udcff\n", LogErrorCode.NOT_UTF8),
        ("deal " + "x" * 2_000_000 + "\n", LogErrorCode.TOO_LONG),
    ],
)
def test_each_kind_of_fault_has_its_code(text: str, code: LogErrorCode) -> None:
    assert fault(text).code is code


def test_a_short_form_with_two_results_is_an_ambiguous_move() -> None:
    two_aces = (
        "deal r5:KC>K r13:KH>K deal r2:AD>A r3:QC>K r10:JC>K r4:10C>K r9:9C>K r11:KS>K deal r2:AS>A"
    )
    error = fault(f'[Deal "1"]\n{two_aces} AC>A *\n')
    assert error.code is LogErrorCode.AMBIGUOUS_MOVE


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{not json", LogErrorCode.NOT_JSON),
        ('{"format": "sunlog/9", "games": []}', LogErrorCode.NOT_A_DOCUMENT),
        ('{"format": "sunlog/1", "games": [{"moves": 3}]}', LogErrorCode.NOT_A_DOCUMENT),
        ('{"format": "sunlog/1", "games": []}', LogErrorCode.NO_GAME),
    ],
)
def test_json_that_is_not_a_document_has_its_code(text: str, code: LogErrorCode) -> None:
    with pytest.raises(LogError) as caught:
        read_json_games(text)
    assert caught.value.code is code


def test_record_refuses_a_typed_result_with_its_code() -> None:
    played = Session.new(deal=1).play("deal won")
    assert played.error is not None and played.error.code is LogErrorCode.MOVES_ONLY


def test_check_json_writes_the_code_and_the_schema_knows_every_code(tmp_path: Path) -> None:
    log = tmp_path / "bad.sun"
    log.write_text('[Deal "1"]\ndeal r5:KC *\n')
    result = CliRunner().invoke(cli.app, ["check", "--json", str(log)])
    line = json.loads(result.stdout)
    assert line["error"]["code"] == "target-expected"
    error_schema = SCHEMA["$defs"]["game"]["properties"]["error"]
    jsonschema.validate(line["error"], error_schema)
    codes = error_schema["oneOf"][1]["properties"]["code"]["enum"]
    assert codes == [code.value for code in LogErrorCode]
    old = {key: value for key, value in line["error"].items() if key != "code"}
    jsonschema.validate(old, error_schema)  # the output of earlier versions still validates
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**line["error"], "code": "no-such-code"}, error_schema)


def test_an_error_keeps_its_code_through_a_worker_process() -> None:
    error = fault('[Deal "1"]\ndeal r5:KC *\n')
    error.path = "x.sun"
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.code, str(copy), copy.at_end) == (
        type(error),
        error.code,
        str(error),
        error.at_end,
    )


# What branches on a kind reads the code: reworded, the messages lead to the same hints.


def test_a_reworded_missing_target_still_gets_its_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (errors, syntax):
        monkeypatch.setattr(module, "NEEDS_TARGET", "this move has no target")
        monkeypatch.setattr(module, "TARGET_EXPECTED", "no target after the arrow")
    assert fault('[Deal "1"]\ndeal r5:KC *\n').message == (
        "this move has no target: SOURCE:CARD>TARGET, like r5:QD>K; found 'r5:KC'; "
        "here it can be r5:KC>K"
    )
    assert fault('[Deal "1"]\ndeal r5:KC> *\n').message.endswith("; here it can be r5:KC>K")


def test_a_reworded_unreadable_card_still_gets_its_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (errors, syntax):
        monkeypatch.setattr(module, "CARD_EXPECTED", "no card after the colon")
        monkeypatch.setattr(module, "NO_SUIT", "lacks its suit")
    assert fault('[Deal "1"]\ndeal r5:KX *\n').message == (
        "no card after the colon, found 'KX'; ray 5's outer card is KC"
    )
    assert fault('[Deal "1"]\ndeal r13:K>K *\n').message.endswith("; ray 13's outer card is KH")


def test_a_message_that_only_reads_like_a_kind_gets_no_hint() -> None:
    """The hints follow the code: a fault of another kind whose words begin the same way
    (a tag value here) is left as it is."""
    error = fault('[Deal "1"]\n[Variant "a card move needs a target"]\ndeal *\n')
    assert error.code is LogErrorCode.TAG
    assert "here it can be" not in error.message


def test_a_reworded_end_of_the_game_is_still_the_end_of_the_line_in_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for module in (errors, syntax, replay, session):
        monkeypatch.setattr(module, "END_OF_GAME", "where the text stops")
    assert fault('[Deal "1"]\ndeal open\n').message.endswith("found where the text stops")
    recorded = Session.new(deal=1)
    recorded.play("deal")
    error = recorded.play("open").error
    assert error is not None and error.at_end
    assert error.message.endswith("found the end of the line")
    short = Session.new(deal=1).play("deal 3H").error
    assert short is not None and short.at_end
    assert "it ends at 3H, at the end of the line" in short.message


def test_words_like_the_end_elsewhere_in_a_message_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a fault at the end is said to be at the end of the typed line."""
    recorded = Session.new(deal=1)
    error = recorded.play("r5:QD>K").error
    assert error is not None and not error.at_end
