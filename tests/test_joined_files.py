"""Files saved with a byte order mark and joined together (``cat a.sun b.sun``), and
characters drawn as nothing inside a word.

SPEC 5 accepts a BOM at a file's start. Joined, each file's BOM comes to stand at the
start of the line where its first game begins: the reader reads it as nothing there, as
python-chess's ``read_game`` skips one before each game (docs/notation.md). Anywhere else
a BOM, like a zero-width space, is an error that names it at its column (code
``invisible``). ``select`` still writes each game byte for byte."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.notation.errors import LogErrorCode
from sunlog.notation.reader import read_games, read_headers
from sunlog.notation.replay import replay

BOM = "\ufeff"
FIRST = '[Variant "sun"]\n[Deal "42"]\n\ndeal deal\n*\n'
SECOND = '[Variant "sun-2"]\n[Deal "7"]\n\ndeal deal deal\n*\n'


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.app, list(args), input=input)


def write(path: Path, text: str, newline: str = "\n") -> Path:
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_files_saved_with_a_bom_and_joined_read_as_their_games(
    tmp_path: Path, newline: str
) -> None:
    joined = write(tmp_path / "all.sun", BOM + FIRST + BOM + SECOND + BOM + FIRST, newline)
    result = run("check", str(joined))
    assert result.exit_code == 0, result.stdout
    assert "3 games, 3 valid, 0 invalid, 7 moves replayed" in result.stderr
    with joined.open(encoding="utf-8", newline=None) as handle:
        games = list(read_games(handle))
    assert [g.tag("Variant") for g in games] == ["sun", "sun-2", "sun"]
    assert [(g.line, g.moves[0].line, g.moves[0].column) for g in games][1:] == [
        (5, 9, 1),
        (10, 14, 1),
    ]
    assert all(replay(g).error is None for g in games)


def test_a_bom_before_a_tag_begins_the_next_game_after_one_without_a_result() -> None:
    text = '[Deal "42"]\ndeal\n' + BOM + '[Deal "7"]\ndeal deal *\n'
    games = list(read_games(io.StringIO(text)))
    assert [len(g.moves) for g in games] == [1, 2]
    assert [h.tags for h in read_headers(io.StringIO(text))][1][0].value == "7"


def test_a_bom_before_the_moves_of_a_game_without_tags_is_read_as_nothing() -> None:
    text = '[Deal "42"]\ndeal *\n' + BOM + "deal deal *\n"
    games = list(read_games(io.StringIO(text)))
    assert [len(g.moves) for g in games] == [1, 2]
    assert games[1].moves[0].column == 1


def test_a_stream_read_line_by_line_takes_the_bom_as_a_file_does() -> None:
    """Standard input (not seekable) is read a line at a time, a file a block at a time."""
    text = BOM + FIRST + BOM + SECOND
    done = subprocess.run(
        [sys.executable, "-m", "sunlog", "check", "-"],
        input=text.encode(),
        capture_output=True,
    )
    assert done.returncode == 0, done.stdout
    assert b"2 games, 2 valid" in done.stderr


def test_many_lines_between_boms_are_read_as_one_block_would_be(tmp_path: Path) -> None:
    """A block of plain lines (no tag, no result) that holds a BOM is read line by line."""
    notes = "{ a note }\n" * 50
    body = '[Deal "42"]\n' + "deal\n" * 3 + "*\n" + BOM + notes + '[Deal "7"]\ndeal deal\n*\n'

    path = write(tmp_path / "plain.sun", body)
    result = run("check", str(path))
    assert result.exit_code == 0, result.stdout
    assert "2 games, 2 valid" in result.stderr


@pytest.mark.parametrize(
    ("written", "column", "what"),
    [
        (BOM + "deal", 1, "byte order mark (U+FEFF, which some editors write at a file's start)"),
        ("de\u200bal", 3, "zero-width space (U+200B)"),
        ("r13:AC\u200d>A", 7, "zero-width joiner (U+200D)"),
        ("deal\u00ad", 5, "soft hyphen (U+00AD)"),
    ],
)
def test_an_invisible_character_in_a_word_is_named_at_its_column(
    written: str, column: int, what: str
) -> None:
    text = f'[Deal "42"]\ndeal {written}\n'
    result = run("check", "-", input=text)
    assert result.exit_code == 1
    heading = result.stdout.splitlines()[0]
    meant = written.replace(BOM, "").replace("\u200b", "")
    meant = meant.replace("\u200d", "").replace("\u00ad", "")
    assert (
        heading
        == f"-:2:{5 + column}: move 2 {written!r}: an invisible {what} stands here: write {meant}"
    )
    (game,) = read_games(io.StringIO(text))
    error = replay(game).error
    assert error is not None
    assert (error.code, error.line, error.column) == (LogErrorCode.INVISIBLE, 2, 5 + column)


def test_a_bom_inside_a_game_s_moves_is_no_game_boundary() -> None:
    """Only where a game may begin is a BOM nothing: at a line start among moves, it is named."""
    text = '[Deal "42"]\ndeal\n' + BOM + "deal *\n"
    (game,) = read_games(io.StringIO(text))
    error = replay(game).error
    assert error is not None
    assert (error.code, error.line, error.column) == (LogErrorCode.INVISIBLE, 3, 1)


def test_select_writes_joined_files_byte_for_byte(tmp_path: Path) -> None:
    for newline in ("\n", "\r\n"):
        joined = write(tmp_path / "all.sun", BOM + FIRST + BOM + SECOND + BOM + FIRST, newline)
        result = run("select", str(joined))
        assert result.exit_code == 0, result.stderr
        assert result.stdout_bytes == joined.read_bytes()


def test_select_writes_a_bom_only_at_the_start_where_games_are_taken_apart(
    tmp_path: Path,
) -> None:
    joined = write(tmp_path / "all.sun", BOM + FIRST + BOM + SECOND + BOM + FIRST)
    result = run("select", "--tag", "Variant=sun", str(joined))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == BOM + FIRST + FIRST
    again = list(read_games(io.StringIO(result.stdout)))
    assert len(again) == 2 and all(replay(g).error is None for g in again)
