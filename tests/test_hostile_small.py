"""The smaller hostile cases of issue 33 (item 12): an empty path named as such, a loop of
links said in the OS's words, ``fmt`` on a terminal showing a log's control characters
as visible stand-ins, and Ctrl-C at ``record``'s prompt doing what docs/limits.md says."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import ptykit
import pytest

EMPTY = "sunlog: an empty path names no file (is a variable unset?)"


def sunlog(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sunlog", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    "args", [["show"], ["moves"], ["render"], ["convert"], ["fmt"], ["solve"], ["html"]]
)
def test_an_empty_path_is_named_as_such(args: list[str]) -> None:
    ran = sunlog(*args, "")
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.strip() == EMPTY


def test_stats_from_a_loop_of_links_says_so(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    ran = sunlog("stats", "--from", tmp_path / "a")
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.strip() == f"sunlog: {tmp_path / 'a'}: too many levels of symbolic links"


def test_fmt_on_a_terminal_shows_escape_and_bell_as_stand_ins(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    log = tmp_path / "esc.sun"
    log.write_text('[Deal "1"]\n\ndeal { a\x1b[31mred\x07 }\n*\n')
    child = ptykit.spawn(
        sys.executable, ["-m", "sunlog", "fmt", str(log)], encoding="utf-8", timeout=30
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "deal { a\u241b[31mred\u2407 }" in child.before
    assert "\x1b" not in child.before and "\x07" not in child.before
    # off a terminal, fmt writes the log as it is (a file keeps its bytes)
    assert "\x1b[31mred\x07" in sunlog("fmt", log).stdout


def test_ctrl_c_at_the_record_prompt_quits_as_limits_md_says(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    log = tmp_path / "game.sun"
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}
    child = ptykit.spawn(
        sys.executable,
        ["-m", "sunlog", "record", str(log), "--deal", "7"],
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=30,
        env=env,
    )
    try:
        child.expect_exact("move 1> ")
        child.sendline("deal")
        child.expect_exact("move 2> ")
        child.sendintr()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert log.read_text().endswith("deal\n*\n")
    limits = (Path(__file__).resolve().parent.parent / "docs" / "limits.md").read_text()
    assert "Ctrl-C at `record`'s prompt is `quit`" in limits


def test_a_game_of_a_megabyte_of_tags_is_not_blamed_on_a_comment(tmp_path: Path) -> None:
    log = tmp_path / "tags.sun"
    log.write_text("".join(f'[T{i} "{"x" * 20}"]\n' for i in range(40_000)))
    ran = sunlog("check", log)
    assert ran.returncode == 1
    assert "longer than 1 MiB of text: refusing to read it (a real game is a few kB)" in ran.stdout
    assert "comment never closed" not in ran.stdout
    unclosed = tmp_path / "brace.sun"
    unclosed.write_text("deal {\n" + ("x" * 60 + "\n") * 20_000 + "*\n")
    assert "(is a { comment never closed?)" in sunlog("check", unclosed).stdout


@pytest.mark.parametrize("number", ["\u0661.", "\uff13."], ids=["arabic-indic", "fullwidth"])
def test_a_move_number_in_other_digits_says_so(tmp_path: Path, number: str) -> None:
    log = tmp_path / "digits.sun"
    log.write_text(f"{number} deal\n*\n")
    ran = sunlog("check", log)
    assert ran.returncode == 1
    assert f"a move number is written in the digits 0 to 9, found '{number}'" in ran.stdout


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_its_bom_is_not_utf8(tmp_path: Path, encoding: str) -> None:
    log = tmp_path / "u16.sun"
    log.write_bytes('[Deal "1"]\n\ndeal\n*\n'.encode(encoding))
    ran = sunlog("check", log)
    assert ran.returncode == 1
    assert "the file is not UTF-8 text (every other byte is 0: is it UTF-16?)" in ran.stdout
