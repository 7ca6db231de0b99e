"""``sunlog convert`` (notation <-> JSON) and ``sunlog fmt`` (the canonical form)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.notation import parse_games
from sunlog.notation.jsonio import FORMAT
from sunlog.notation.replay import replay
from sunlog.notation.resources import schema

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
VALID = sorted(SAMPLES.glob("*.sun"))
WON = SAMPLES / "won-sun.sun"
CLUB = SAMPLES / "club-night.sun"

SHORT = (
    '[Event "short forms"]\n[Deal "20261129"]\n\n'
    "deal R1:ac>a r8>A 2s>A r11>K\n"
    "deal kc>k ; the ray is implied\n"
    "8.r1:3S>A\n"
    "*\n"
)


def run(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def final_keys(text: str) -> list[tuple[Any, ...]]:
    """The final position of every game of a text, which must all be valid."""
    keys = []
    for game in parse_games(text):
        result = replay(game)
        assert result.error is None, result.error
        keys.append(result.board.key())
    return keys


def game_schema() -> dict[str, Any]:
    doc = schema("game")
    return {"$schema": doc["$schema"], "$defs": doc["$defs"], "$ref": "#/$defs/game"}


# ------------------------------------------------------------------ convert


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_sun_to_json_to_sun_is_lossless(path: Path, tmp_path: Path) -> None:
    import jsonschema

    as_json = run("convert", path)
    assert as_json.exit_code == 0
    doc = json.loads(as_json.stdout)
    jsonschema.validate(doc, schema("game"))
    assert doc["format"] == FORMAT
    stored = tmp_path / "log.json"
    stored.write_text(as_json.stdout)
    back = run("convert", stored)
    assert back.exit_code == 0
    assert final_keys(back.stdout) == final_keys(path.read_text())
    # Nothing but whitespace and the form of comments may change: the samples are
    # written by the writer, so they come back exactly.
    assert back.stdout == path.read_text()


def test_jsonl_is_one_game_a_line_and_converts_back() -> None:
    import jsonschema

    result = run("convert", CLUB, "--jsonl")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        jsonschema.validate(json.loads(line), game_schema())
    back = run("convert", "-", input=result.stdout)
    assert back.exit_code == 0
    assert back.stdout == CLUB.read_text()


def test_json_input_is_detected_on_stdin_and_converted_to_notation() -> None:
    doc = run("convert", WON).stdout
    result = run("convert", "-", input=doc)
    assert result.exit_code == 0
    assert result.stdout == WON.read_text()


def test_to_json_of_json_and_to_sun_of_sun(tmp_path: Path) -> None:
    doc = run("convert", WON).stdout
    stored = tmp_path / "won.json"
    stored.write_text(doc)
    assert run("convert", stored, "--to", "json").stdout == doc
    assert run("convert", WON, "--to", "sun").stdout == WON.read_text()


def test_jsonl_with_to_sun_is_a_usage_error() -> None:
    result = run("convert", WON, "--jsonl", "--to", "sun")
    assert result.exit_code == 2
    assert "--jsonl" in result.stderr


def test_output_file_and_dash(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = run("convert", WON, "-o", out)
    assert (result.exit_code, result.stdout) == (0, "")
    assert json.loads(out.read_text())["format"] == FORMAT
    assert run("convert", WON, "-o", "-").stdout == out.read_text()


def test_never_overwrites_the_input(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    log.write_text(WON.read_text())
    (tmp_path / "sub").mkdir()
    for target in (log, tmp_path / "sub" / ".." / "game.sun"):
        result = run("convert", log, "-o", target)
        assert result.exit_code == 2
        assert "refusing to overwrite the input" in result.stderr
    link = tmp_path / "link.sun"
    link.symlink_to(log)
    assert run("convert", log, "-o", link).exit_code == 2
    assert log.read_text() == WON.read_text()


def test_convert_of_a_syntax_error_reports_it_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    bad = SAMPLES / "invalid" / "bad-card.sun"
    result = run("convert", bad, "-o", out)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{bad}:6:6: move 2 'r5:1S>K'")
    assert not out.exists()


def test_convert_no_check_does_not_check_the_rules() -> None:
    """--no-check converts as written (an invalid game: tests/test_convert_resolved.py)."""
    result = run("convert", SAMPLES / "invalid" / "illegal-move.sun", "--no-check")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["games"][0]["moves"][-1]["card"] == "7D"


@pytest.mark.parametrize(("tag", "token"), [("maybe", "*"), ("WON", "won"), ("Lost", "lost")])
def test_convert_writes_a_result_token_that_reads_back(tag: str, token: str) -> None:
    """Without a result token, the writer ends the game with the Result tag's claim as a
    token, or * when the tag is no result; the tag itself is kept as written. (Each of these
    games is invalid, a result claimed after one deal: --no-check converts it with exit 0.)"""
    text = f'[Deal "1"]\n[Result "{tag}"]\ndeal\n'
    for args in (("--to", "sun"), ("--no-check",)):
        result = run("convert", "-", *args, input=text)
        assert result.exit_code == 0, result.output
        if args != ("--to", "sun"):  # JSON: convert it back
            assert json.loads(result.stdout)["games"][0]["result"] == token
            result = run("convert", "-", "--to", "sun", input=result.stdout)
        assert result.stdout.endswith(f"deal\n{token}\n")
        (game,) = parse_games(result.stdout)
        assert game.tag("Result") == tag and game.result == token


def test_convert_of_json_that_is_not_a_game_is_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "sunlog/1", "games": [{"moves": [{"kind": "fly"}]}]}')
    result = run("convert", path)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"sunlog: {path}: games[0].moves[0].kind: unknown move kind")


# ------------------------------------------------------------------ fmt


def test_fmt_writes_the_canonical_form_to_stdout() -> None:
    result = run("fmt", "-", input=SHORT)
    assert result.exit_code == 0
    assert result.stdout == (
        '[Event "short forms"]\n[Deal "20261129"]\n\n'
        "deal r1:AC>A r8:AS>A r2:2S>A r11:KH>K\n"
        "deal r10:KC>K { the ray is implied } r1:3S>A\n"
        "*\n"
    )
    assert final_keys(result.stdout) == final_keys(SHORT)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_fmt_is_a_fixed_point(path: Path) -> None:
    once = run("fmt", path)
    assert once.exit_code == 0
    twice = run("fmt", "-", input=once.stdout)
    assert twice.exit_code == 0
    assert twice.stdout == once.stdout
    assert final_keys(once.stdout) == final_keys(path.read_text())


def test_fmt_of_several_files_separates_them_by_a_blank_line() -> None:
    result = run("fmt", WON, SAMPLES / "sun-2.sun")
    assert result.exit_code == 0
    assert result.stdout == WON.read_text() + "\n" + (SAMPLES / "sun-2.sun").read_text()
    assert len(parse_games(result.stdout)) == 2


def test_fmt_check_lists_files_that_would_change(tmp_path: Path) -> None:
    canonical = tmp_path / "ok.sun"
    canonical.write_text(WON.read_text())
    short = tmp_path / "short.sun"
    short.write_text(SHORT)
    assert run("fmt", "--check", canonical).exit_code == 0
    result = run("fmt", "--check", canonical, short)
    assert result.exit_code == 1
    assert result.stdout == f"would reformat {short}\n"
    assert result.stderr == "1 file would be reformatted, 1 unchanged\n"
    assert short.read_text() == SHORT


def test_fmt_check_does_not_count_crlf_line_ends_as_a_change(tmp_path: Path) -> None:
    """fmt keeps a file's line ends (docs/limits.md): a canonical log saved on Windows is
    canonical."""
    log = tmp_path / "dos.sun"
    log.write_bytes(WON.read_text().replace("\n", "\r\n").encode())
    assert run("fmt", "--check", log).exit_code == 0


def test_fmt_in_place_rewrites_atomically_and_keeps_the_mode(tmp_path: Path) -> None:
    short = tmp_path / "short.sun"
    short.write_text(SHORT)
    short.chmod(0o640)
    result = run("fmt", "--in-place", short)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert f"reformatted {short}" in result.stderr
    assert short.read_text() == run("fmt", "-", input=SHORT).stdout
    assert os.stat(short).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["short.sun"]
    again = run("fmt", "--in-place", short)
    assert again.stderr == "0 files reformatted, 1 unchanged\n"


def test_fmt_leaves_an_invalid_file_untouched(tmp_path: Path) -> None:
    log = tmp_path / "bad.sun"
    text = SHORT.replace("r8>A", "r8>K")
    log.write_text(text)
    result = run("fmt", "--in-place", log)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{log}:4:14: move 3 'r8>K': ")
    assert "1 invalid (left as they are)" in result.stderr
    assert log.read_text() == text
    to_stdout = run("fmt", log)
    assert (to_stdout.exit_code, to_stdout.stdout) == (1, "")


def test_fmt_usage_errors(tmp_path: Path) -> None:
    assert run("fmt", "--in-place", "-", input=SHORT).exit_code == 2
    assert run("fmt", "--in-place", "--check", WON).exit_code == 2
    stored = tmp_path / "won.json"
    stored.write_text(run("convert", WON).stdout)
    result = run("fmt", stored)
    assert result.exit_code == 2
    assert "sunlog convert --to sun" in result.stderr
    assert run("fmt", tmp_path / "missing.sun").exit_code == 2


def test_fmt_of_a_directory_formats_every_log_below_it(tmp_path: Path) -> None:
    (tmp_path / "a.sun").write_text(SHORT)
    (tmp_path / "b.sun").write_text(WON.read_text())
    result = run("fmt", "--check", tmp_path)
    assert result.exit_code == 1
    assert result.stdout == f"would reformat {tmp_path / 'a.sun'}\n"


def test_a_new_output_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    """-o writes through a temporary file, but the file it makes is not private to root:
    it has the bits any new file gets (0666 less the umask)."""
    umask = os.umask(0o022)
    try:
        out = tmp_path / "won.json"
        assert run("convert", WON, "-o", out).exit_code == 0
        assert os.stat(out).st_mode & 0o777 == 0o644
    finally:
        os.umask(umask)


def test_fmt_in_place_streams_a_file_larger_than_what_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fmt writes each game as it is replayed: a file past the read-whole limit is fine."""
    from sunlog.cli import inputs as cliutil

    monkeypatch.setattr(cliutil, "MAX_INPUT_BYTES", 1_000)
    loose = tmp_path / "loose.sun"
    loose.write_text(WON.read_text().replace("r1:", "R1:"), encoding="utf-8")
    assert loose.stat().st_size > 1_000
    assert run("fmt", "--check", loose).exit_code == 1
    assert run("fmt", "--in-place", loose).exit_code == 0
    assert loose.read_text() == run("fmt", WON).stdout
    assert run("fmt", "--check", loose).exit_code == 0
