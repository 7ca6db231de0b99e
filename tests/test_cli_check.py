"""``sunlog check``: reports with path:line:col and a caret, JSON lines, -j, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.notation import parse_games, quickcheck
from sunlog.notation.errors import LogErrorCode
from sunlog.notation.jsonio import document_json, game_to_json

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
WON = SAMPLES / "won-sun.sun"
BAD_CARD = SAMPLES / "invalid" / "bad-card.sun"
ILLEGAL = SAMPLES / "invalid" / "illegal-move.sun"

#: The shape of one line of ``check --json`` (SPEC 7).
CHECK_LINE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["path", "game", "valid", "moves", "result", "error"],
    "additionalProperties": False,
    "properties": {
        "path": {"type": "string"},
        "game": {"type": ["integer", "null"], "minimum": 1},
        "valid": {"type": "boolean"},
        "moves": {"type": "integer", "minimum": 0},
        "result": {"enum": ["won", "lost", "*", None]},
        "error": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["move", "line", "column", "message"],
                    "additionalProperties": False,
                    "properties": {
                        "move": {"type": ["integer", "null"], "minimum": 1},
                        "line": {"type": ["integer", "null"], "minimum": 1},
                        "column": {"type": ["integer", "null"], "minimum": 1},
                        "message": {"type": "string", "minLength": 1},
                        "code": {"enum": [code.value for code in LogErrorCode]},
                    },
                },
            ]
        },
    },
}

GOOD_GAME = '[Deal "20261129"]\n\ndeal r1:AC>A r8:AS>A\n*\n'


def run(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def json_lines(result: Result) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    import jsonschema

    for line in lines:
        jsonschema.validate(line, CHECK_LINE_SCHEMA)
    return lines


def no_traceback(result: Result) -> None:
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


# ------------------------------------------------------------------ valid logs


def test_valid_file_exits_0_prints_nothing_and_a_summary_on_stderr() -> None:
    result = run("check", WON)
    assert result.exit_code == 0
    assert result.stdout == ""
    moves = len(parse_games(WON.read_text())[0].moves)
    assert result.stderr == f"1 game, 1 valid, 0 invalid, {moves} moves replayed (1 file)\n"


def test_quiet_drops_the_summary() -> None:
    result = run("check", "-q", WON)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_verbose_lists_valid_games_too() -> None:
    result = run("check", "-v", SAMPLES / "club-night.sun")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert lines[1].startswith(f"{SAMPLES / 'club-night.sun'}: game 2: valid, ")
    assert lines[1].endswith(", won")


def test_directory_checks_every_sun_file_below_it_sorted(tmp_path: Path) -> None:
    for folder in ("b", ".hidden", "b/.deeper", "dir.sun"):
        (tmp_path / folder).mkdir()
    for name in ("b/z.sun", "a.sun", "b/a.sun", ".hidden/x.sun", "b/.deeper/y.sun", ".h.sun"):
        (tmp_path / name).write_text(GOOD_GAME)
    (tmp_path / "b-c.sun").write_text(GOOD_GAME)
    (tmp_path / "notes.txt").write_text("not a log")
    (tmp_path / "gone.sun").symlink_to(tmp_path / "nowhere.sun")
    (tmp_path / "link.sun").symlink_to(tmp_path / "a.sun")
    expected = ("a.sun", "b/a.sun", "b/z.sun", "b-c.sun", "link.sun")  # as paths sort
    for given in (tmp_path, f"{tmp_path}/", f"{tmp_path}/./"):
        result = run("check", "--json", given)
        assert result.exit_code == 0
        paths = [line["path"] for line in json_lines(result)]
        assert paths == [str(tmp_path / n) for n in expected]
        assert "(5 files)" in result.stderr


# ------------------------------------------------------------------ error reports


def test_invalid_game_is_reported_with_path_line_column_move_and_caret() -> None:
    result = run("check", BAD_CARD)
    assert result.exit_code == 1
    why = "an ace is written A: write r5:AS>K"
    assert result.stdout.splitlines() == [
        f"{BAD_CARD}:6:6: move 2 'r5:1S>K': {why}",
        "  deal r5:1S>K r13:KH>K",
        "       ^~~~~~~",
    ]
    assert result.stderr.startswith("1 game, 0 valid, 1 invalid, 1 move replayed")


def test_caret_lines_up_under_tabs(tmp_path: Path) -> None:
    log = tmp_path / "tabs.sun"
    log.write_text('[Deal "20261129"]\n\tdeal\tr1:AC>A\tr1:AS>A\n*\n')
    result = run("check", log)
    assert result.exit_code == 1
    heading, source, marks = result.stdout.splitlines()
    assert heading.startswith(f"{log}:2:15: move 3 'r1:AS>A': ")
    assert source == "  \tdeal\tr1:AC>A\tr1:AS>A"
    assert marks == "  \t    \t       \t^~~~~~~"


def test_long_line_is_cut_around_the_column(tmp_path: Path) -> None:
    log = tmp_path / "long.sun"
    moves = " ".join(["deal", "{ " + "x" * 200 + " }", "r1:QQ>A"])
    log.write_text(f'[Deal "20261129"]\n{moves}\n*\n')
    result = run("check", log)
    assert result.exit_code == 1
    source, marks = result.stdout.splitlines()[1:]
    assert source.startswith("  ...") and len(source) < 140
    assert marks.index("^") == source.index("r1:QQ>A")


def test_bom_and_crlf_do_not_move_the_caret(tmp_path: Path) -> None:
    log = tmp_path / "dos.sun"
    log.write_bytes(b'\xef\xbb\xbf[Deal "20261129"]\r\ndeal r1:9S>K\r\n*\r\n')
    result = run("check", log)
    assert result.exit_code == 1
    heading, source, marks = result.stdout.splitlines()
    assert heading.startswith(f"{log}:2:6: move 2 'r1:9S>K': ")
    assert source == "  deal r1:9S>K"
    assert marks == "       ^~~~~~~"


def test_verbose_shows_the_board_before_the_faulty_move() -> None:
    result = run("check", "--verbose", ILLEGAL)
    assert result.exit_code == 1
    out = result.stdout
    assert "the board before move 21:" in out
    # The board is the position after move 20, where 7D lies under other cards.
    assert "    move 20: r10:2H>A" in out
    assert "foundations 16 of 104" in out


def test_every_game_of_a_file_is_reported_and_reading_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "three.sun"
    log.write_text(
        GOOD_GAME
        + '\n[Deal "20261129"]\ndeal r1:AC>K\n*\n'
        + '\n[Deal "20261129"]\ndeal r1:AC>A blah\n*\n'
        + "\n"
        + GOOD_GAME
    )
    result = run("check", "--json", log)
    assert result.exit_code == 1
    lines = json_lines(result)
    assert [(x["game"], x["valid"]) for x in lines] == [
        (1, True),
        (2, False),
        (3, False),
        (4, True),
    ]
    assert lines[1]["error"]["line"] == 7
    assert lines[1]["error"]["move"] == 2
    assert lines[2]["error"]["move"] == 3
    assert lines[2]["moves"] == 2
    assert lines[2]["result"] is None
    assert "4 games, 2 valid, 2 invalid" in result.stderr


def test_the_quick_lane_changes_no_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain valid games take check's quick lane; the reports are those of the general way."""
    log = tmp_path / "mixed.sun"
    log.write_text(
        GOOD_GAME
        + '\n[Deal "20261129"]\n{ commented }\ndeal r1:A\u2663>A r8:AS>A\n*\n'  # general way
        + '\n[Deal "20261129"]\ndeal r1:AC>A r8:AS>A\nwon\n'
        + '\n[Deal "20261129"]\n1. deal 2. r1:AC>A! 3. r8:AS>A\n'
    )
    quick = run("check", "--json", log)
    quick_text = run("check", "--verbose", log)
    monkeypatch.setattr(quickcheck, "quick_check", lambda text, index=1: None)
    general = run("check", "--json", log)
    assert quick.exit_code == general.exit_code == 1
    assert quick.stdout == general.stdout
    assert quick_text.stdout == run("check", "--verbose", log).stdout
    assert [(x["game"], x["valid"], x["moves"]) for x in json_lines(quick)] == [
        (1, True, 3),
        (2, True, 3),
        (3, False, 3),
        (4, True, 3),
    ]


# ------------------------------------------------------------------ --json


def test_json_line_of_a_valid_game_is_exactly_spec_7() -> None:
    result = run("check", "--json", WON)
    assert result.exit_code == 0
    moves = len(parse_games(WON.read_text())[0].moves)
    assert json_lines(result) == [
        {"path": str(WON), "game": 1, "valid": True, "moves": moves, "result": "won", "error": None}
    ]


def test_json_error_names_the_move_line_and_column() -> None:
    result = run("check", "--json", ILLEGAL)
    (line,) = json_lines(result)
    assert line["valid"] is False
    assert line["moves"] == 20
    assert line["error"]["move"] == 21
    assert (line["error"]["line"], line["error"]["column"]) == (9, 23)
    assert line["error"]["message"].startswith("no 7D is playable here")


def test_json_error_move_is_null_for_a_fault_in_the_tags_or_the_result() -> None:
    result = run(
        "check",
        "--json",
        SAMPLES / "invalid" / "bad-tag.sun",
        SAMPLES / "invalid" / "false-result.sun",
    )
    tags, claim = json_lines(result)
    assert tags["error"]["move"] is None and tags["error"]["line"] == 2
    assert claim["error"]["move"] is None
    assert claim["result"] == "won"


@pytest.mark.parametrize(("tag", "claimed"), [("WON", "won"), ("Lost", "lost"), ("maybe", None)])
def test_json_result_is_the_claim_in_lower_case_or_null(tag: str, claimed: str | None) -> None:
    """A Result tag in another case claims its word; one that is no result claims nothing."""
    result = run("check", "--json", "-", input=f'[Deal "1"]\n[Result "{tag}"]\ndeal\n')
    (line,) = json_lines(result)
    assert line["result"] == claimed
    assert not line["valid"]


def test_json_summary_goes_to_stderr_so_stdout_is_only_json() -> None:
    result = run("check", "--json", SAMPLES)
    assert result.exit_code == 1
    lines = json_lines(result)
    assert len(lines) == len(result.stdout.splitlines())
    assert "games" in result.stderr


# ------------------------------------------------------------------ inputs


def test_stdin_is_read_with_dash() -> None:
    result = run("check", "--json", "-", input=WON.read_bytes())
    assert result.exit_code == 0
    assert json_lines(result)[0]["path"] == "-"


def test_stdin_errors_show_the_source_line() -> None:
    result = run("check", "-", input=BAD_CARD.read_text())
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1] == "  deal r5:1S>K r13:KH>K"


def test_stdin_json_is_detected_from_its_first_characters() -> None:
    doc = document_json(game_to_json(g) for g in parse_games(WON.read_text()))
    result = run("check", "--json", "-", input=json.dumps(doc))
    assert result.exit_code == 0
    assert json_lines(result)[0]["result"] == "won"


def test_stdin_notation_starting_with_a_brace_comment_is_not_json() -> None:
    result = run("check", "-", input="{ a comment first }\n" + GOOD_GAME)
    assert result.exit_code == 0, result.stdout


@pytest.mark.parametrize(
    ("start", "is_json"),
    [
        ('{"format": "sunlog/1", "games": []}', True),
        ('\ufeff\r\n  {\n  "moves": []}', True),
        ('{"a \\" b" : 1}', True),
        ("{}", True),
        ("{}\n", True),
        ('{"format"', True),  # cut off: still JSON, so its error is a JSON error
        ('{"form', True),
        ('{"games":', True),
        ('{"n": -1}', True),
        ('{"valid": true}', True),
        ('{"Sunday" at the club}', False),
        ('{"Sunday"}\ndeal', False),
        ('{ "x" y: z }', False),
        ('{"Note": played at home}', False),
        ('{"Note": the trueness of it}', False),
        ("{ a comment first }", False),
        ("{}\ndeal", False),
        ('[Event "x"]', False),
        ("deal *", False),
        ("", False),
    ],
)
def test_json_is_told_from_notation_by_its_first_member(start: str, is_json: bool) -> None:
    from sunlog.cli.inputs import looks_like_json

    assert looks_like_json(start) is is_json


def test_stdin_notation_starting_with_a_quoted_comment_is_not_json() -> None:
    # a comment may open with a quote, as a JSON object does; no colon follows the name
    result = run("check", "-", input='{"Sunday" at the club} ' + GOOD_GAME)
    assert result.exit_code == 0, result.stdout


def test_stdin_json_cut_off_in_its_first_name_is_reported_as_json() -> None:
    result = run("check", "-", input='{"form')
    assert result.exit_code == 1
    assert "not JSON" in result.stdout + result.stderr


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_json_files_are_read_through_jsonio(tmp_path: Path, suffix: str) -> None:
    games = [game_to_json(g) for g in parse_games((SAMPLES / "club-night.sun").read_text())]
    path = tmp_path / f"games{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps(document_json(games)))
    else:
        path.write_text("".join(json.dumps(g) + "\n" for g in games))
    result = run("check", "--json", path)
    assert result.exit_code == 0
    assert [x["game"] for x in json_lines(result)] == [1, 2, 3]


def test_a_fault_in_json_input_names_the_game_and_move(tmp_path: Path) -> None:
    game = game_to_json(parse_games(GOOD_GAME)[0])
    game["moves"][1]["target"] = "K"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document_json([game])))
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}: game 1, move 2 'r1:AC>K': ")


# ------------------------------------------------------------------ exit codes


def test_missing_path_is_exit_2_and_the_other_files_are_still_checked(tmp_path: Path) -> None:
    result = run("check", "--json", tmp_path / "nope.sun", WON)
    assert result.exit_code == 2
    assert f"sunlog: {tmp_path / 'nope.sun'}: no such file or directory" in result.stderr
    assert json_lines(result)[0]["valid"] is True


def test_directory_without_logs_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("hello")
    result = run("check", tmp_path)
    assert result.exit_code == 2
    assert result.stderr == f"sunlog: {tmp_path}: no .sun logs in this directory\n"
    no_traceback(result)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "no game in this file"),
        (b"   \n; only a comment\n", "no game in this file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "the file is not UTF-8 text"),
        (b"[Deal \xc3\x28]", "the file is not UTF-8 text"),
    ],
)
def test_a_file_that_is_not_a_log_is_an_invalid_log(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "x.sun"
    path.write_bytes(content)
    result = run("check", "--json", path)
    no_traceback(result)
    assert result.exit_code == 1
    (line,) = json_lines(result)
    assert line["game"] is None and line["valid"] is False
    assert message in line["error"]["message"]
    assert "(1 file, 1 not a log)" in result.stderr


@pytest.mark.parametrize(
    "content",
    ['{"a": 1}', "[1, 2]", '{"format": "other", "games": []}', "{not json"],
)
def test_json_that_is_not_a_game_is_an_invalid_log(tmp_path: Path, content: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    result = run("check", path)
    no_traceback(result)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}")


def test_an_unreadable_file_is_exit_2(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = tmp_path / "secret.sun"
    path.write_text(GOOD_GAME)
    path.chmod(0)
    result = run("check", path)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"sunlog: {path}: permission denied")


def test_no_path_is_a_usage_error() -> None:
    result = run("check")
    assert result.exit_code == 2


# ------------------------------------------------------------------ -j and progress


def test_parallel_output_is_identical_to_serial() -> None:
    files = sorted(str(p) for p in SAMPLES.rglob("*.sun"))
    serial = run("check", "--json", "-j", "1", *files)
    parallel = run("check", "--json", "-j", "2", *files)
    assert serial.exit_code == parallel.exit_code == 1
    assert parallel.stdout == serial.stdout
    assert parallel.stderr == serial.stderr
    human = run("check", "-v", "-j", "2", *files)
    assert human.stdout == run("check", "-v", *files).stdout


def test_parallel_reads_stdin_in_the_main_process() -> None:
    result = run("check", "--json", "-j", "2", "-", WON, input=BAD_CARD.read_text())
    lines = json_lines(result)
    assert [(x["path"], x["valid"]) for x in lines] == [("-", False), (str(WON), True)]


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    files = [str(WON)] * 3
    monkeypatch.setattr(cli.common, "PROGRESS_FILES", 2)
    plain = run("check", *files)
    assert plain.stderr.count("\n") == 1  # the summary line only
    monkeypatch.setattr(cli.common, "stderr_is_terminal", lambda: True)
    shown = run("check", "--json", *files)
    assert shown.exit_code == 0
    assert len(json_lines(shown)) == 3
    assert "checking" in shown.stderr


def test_an_empty_path_is_a_usage_error_not_the_current_directory(tmp_path: Path) -> None:
    """``sunlog check "$LOG"`` with LOG unset: said plainly, exit 2, nothing else checked."""
    (tmp_path / "a.sun").write_text('[Deal "1"]\ndeal *\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "sunlog", "check", ""],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "sunlog: an empty path names no file (is a variable unset?)"
    assert result.stdout == ""
