"""Hostile input: the command line never shows a traceback, and every limit holds.

First, every command over a corpus of bad files (empty, binary, a huge single line, deep
braces, bad UTF-8, a directory, a missing path, JSON that is not a game, a truncated log,
control characters): exit 1 or 2, and a cause on one line. Then each limit of
``docs/limits.md``: a comment of 100 MB, a tag value of millions of characters, a line of
hundreds of MB and a file of many games are refused or streamed, in bounded memory. Big
inputs are made lazily (a generator of lines, a stream that makes its text as it is read)
or written in chunks, so that the tests stay light.
"""

from __future__ import annotations

import io
import itertools
import json
import re
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

import sunlog.cli.inputs as cliutil
import sunlog.notation.jsonio as jsonio
import sunlog.notation.reader as notation
import sunlog.notation.syntax as syntax
from sunlog import cli
from sunlog.notation import read_games
from sunlog.notation.errors import LogSyntaxError
from sunlog.notation.replay import replay
from sunlog.notation.terminals import patterns

ROOT = Path(__file__).resolve().parent.parent
WON = ROOT / "samples" / "won-sun.sun"

#: Each command that reads a PATH, with options that keep it short.
PATH_COMMANDS = [
    ["check"],
    ["check", "--json"],
    ["show"],
    ["show", "--json"],
    ["moves"],
    ["replay"],
    ["convert"],
    ["convert", "--jsonl"],
    ["convert", "--to", "sun"],
    ["fmt"],
    ["fmt", "--check"],
    ["render"],
    ["html"],
    ["solve", "--max-nodes", "100"],
    ["analyze", "--max-nodes", "100"],
]


def run(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def write_chunks(path: Path, chunks: Iterator[str]) -> Path:
    """Write a big file piece by piece, never holding it whole."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        for chunk in chunks:
            handle.write(chunk)
    return path


def bad_files(tmp: Path) -> dict[str, tuple[Path, int]]:
    """The corpus: each bad input and the exit code it must give (1 invalid, 2 I/O)."""
    won = WON.read_text(encoding="utf-8")
    files = {
        "empty.sun": b"",
        "binary.sun": bytes(range(256)) * 16,
        "invalid-utf8.sun": b'[Event "caf\xe9"]\n[Deal "1"]\ndeal *\n',
        "bom-only.sun": b"\xef\xbb\xbf",
        "deep-braces.sun": b"{" * 50_000 + b"}" * 50_000,
        "unclosed-brace.sun": b'[Deal "1"]\ndeal {' + b"{\n" * 20_000,
        "deep-brackets.sun": b"[" * 50_000 + b"]" * 50_000,
        "truncated.sun": won[: won.index("deal r2:AS>A") + 8].encode(),
        "controls.sun": '[Deal "1"]\ndeal \x1b[2J\x07 r1\x0b\u2028\x85 *\n'.encode(),
        "not-a-game.json": b'{"format": "sunlog/1", "games": [{"moves": 5}]}',
        "array.json": b"[1, 2, 3]",
        "deep.json": b"[" * 100_000,
        "deep-game.json": b'{"moves": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "surrogate.json": b'{"moves": [], "tags": [{"name": "Event", "value": "\\ud800"}]}',
        "truncated.json": b'{"format": "sunlog/1", "games": [{"moves": [{"kind": "de',
        "latin1.json": '{"moves": [], "comments": ["café"]}'.encode("latin-1"),
    }
    out = {}
    for name, data in files.items():
        (tmp / name).write_bytes(data)
        out[name] = (tmp / name, 1)
    huge = write_chunks(tmp / "huge-line.sun", itertools.repeat("deal " * 1000, 100))
    out["huge-line.sun"] = (huge, 1)
    (tmp / "dir").mkdir()
    out["dir"] = (tmp / "dir", 2)
    out["missing.sun"] = (tmp / "missing.sun", 2)
    return out


def assert_one_line_cause(result: Result, path: Path, stream: str) -> None:
    """A cause on one line (naming the path), short lines, no traceback, no controls."""
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    text = result.stdout if stream == "stdout" else result.stderr
    assert text.strip(), (path.name, result.stdout, result.stderr)
    first = text.splitlines()[0]
    assert first.startswith(("sunlog: ", f"{path}:")), (path.name, first)
    assert len(first.split(": ", 2)[-1]) > 10, first  # a cause, not just a place
    for line in text.splitlines():  # the report (a position shown beside it may be long)
        assert len(line) < 400, (path.name, line[:100])
    for line in (result.stdout + result.stderr).splitlines():
        assert line.isprintable(), (path.name, line)


@pytest.mark.parametrize("command", PATH_COMMANDS, ids=" ".join)
def test_every_command_answers_every_bad_file_with_a_one_line_cause(
    command: list[str], tmp_path: Path
) -> None:
    for name, (path, code) in bad_files(tmp_path).items():
        result = run(*command, path)
        expected = {code}
        if command[0] == "fmt" and path.suffix == ".json" and code == 1:
            expected = {1, 2}  # fmt refuses JSON (2), if it is UTF-8 text (else 1)
        if command[0] == "check" and name == "dir":
            expected = {2}  # a directory without logs
        assert result.exit_code in expected, (name, result.exit_code, result.stderr)
        stream = "stdout" if command[0] == "check" and code == 1 else "stderr"
        if command == ["check", "--json"] and code == 1:
            report = json.loads(result.stdout.splitlines()[0])
            assert report["valid"] is False
            assert report["error"]["message"]
            continue
        assert_one_line_cause(result, path, stream)


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--variant", "sun-4"],
        ["play", "--policy", "no-such-policy"],
        ["play", "--deal", "-1"],
        ["play", "--deal", "18446744073709551616"],
        ["stats", "--variant", "x", "--games", "1"],
        ["stats", "--games", "-5"],
        ["solve"],
        ["solve", "--deal", "1", WON],
        ["show", WON, "--game", "0"],
        ["show", WON, "--game", "99"],
        ["show", WON, "--at", "100000"],
    ],
    ids=lambda a: " ".join(map(str, a)),
)
def test_commands_without_a_bad_file_answer_bad_options_with_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr.strip()


def test_bad_standard_input_gives_a_one_line_cause() -> None:
    for data in (b"", b"\x80abc", b"{" * 50_000, b"[" * 100_000, b'{"moves": 1}', b"\x00" * 99):
        for command in (["check"], ["show"], ["convert"], ["fmt"]):
            result = run(*command, "-", input=data)
            assert result.exit_code in (1, 2), (command, data[:10], result.stderr)
            stream = "stdout" if command == ["check"] and result.stdout else "stderr"
            assert_one_line_cause(result, Path("-"), stream)


@pytest.mark.parametrize("head", ["", '[Deal "1"]\ndeal '], ids=["alone", "in a game"])
def test_a_line_of_unclosed_braces_is_read_at_once(head: str, tmp_path: Path) -> None:
    """The longest line there may be, of "{" that nothing closes: the splitter and the
    quick lane once tried each "{" to the line's end (minutes for this line)."""
    path = tmp_path / "braces.sun"
    path.write_text(head + "{" * (notation.MAX_LINE_CHARS - len(head) - 1) + "\n")
    for command in (["check"], ["show"]):
        result = run(*command, path)
        assert result.exit_code == 1
        assert_one_line_cause(result, path, "stdout" if command == ["check"] else "stderr")


@given(st.text(alphabet="{};\n\r a", max_size=16))
def test_the_splitters_comment_blanking_is_its_regex(line: str) -> None:
    terminals = patterns()  # the grammar's comments, closed
    comments = re.compile(f"{terminals['BRACE_COMMENT']}|{terminals['LINE_COMMENT']}")
    assert notation._without_comments(line) == comments.sub(" ", line)


# ------------------------------------------------------------------ not UTF-8


def test_a_byte_that_is_not_utf8_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    """Deep in a big file too: the stream reader and the whole-file reader agree."""
    games = "".join(f'[Deal "{i}"]\ndeal *\n' for i in range(3000))
    data = games.encode() + b'[Event "caf\xe9"]\n'
    path = tmp_path / "bad.sun"
    path.write_bytes(data)
    line = games.count("\n") + 1
    for command in (["show", "--game", "3001"], ["convert"], ["check"]):
        result = run(*command, path)
        assert result.exit_code == 1
        out = result.stdout if command == ["check"] else result.stderr
        assert out.startswith(f"{path}:{line}:12: the file is not UTF-8 text ("), out[:200]
    assert result.stderr.startswith("3000 games, 3000 valid")  # the games before it count
    read = []
    with pytest.raises(LogSyntaxError) as caught:  # a strict stream: the line, or soon after
        for game in read_games(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")):
            read.append(game)
    assert [g.index for g in read] == list(range(1, len(read) + 1))
    assert caught.value.line is not None and caught.value.line <= line
    assert caught.value.column == 1


def test_a_lone_surrogate_in_text_is_refused_at_its_place() -> None:
    with pytest.raises(LogSyntaxError) as caught:
        list(read_games(io.StringIO('[Deal "1"]\ndeal {\ud83d} *\n')))
    assert (caught.value.line, caught.value.column) == (2, 7)
    assert "U+D83D" in caught.value.message


# ------------------------------------------------------------------ the limits


def comment_lines(megabytes: int, *, taken: list[int]) -> Iterator[str]:
    """A game whose ``{`` comment runs for ``megabytes`` MB, one 1 kB line at a time;
    ``taken`` counts the lines the reader asked for."""
    yield '[Event "long comment"]\n'
    yield "{"
    line = "x" * 1023 + "\n"
    for _ in range(megabytes * 1024):
        taken[0] += 1
        yield line
    yield "}\n*\n"


def test_a_100_mb_comment_is_refused_after_reading_one_game_s_worth() -> None:
    taken = [0]
    with pytest.raises(LogSyntaxError) as caught:
        list(read_games(comment_lines(100, taken=taken)))
    error = caught.value
    assert (error.line, error.column) == (1, 1)  # where the game starts
    assert "longer than 1 MiB" in error.message
    assert "never closed" in error.message
    assert taken[0] <= notation.MAX_GAME_CHARS // 1024 + 1  # 1 MiB of the 100 MB, no more


def test_a_game_longer_than_the_limit_is_refused_where_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(notation, "MAX_GAME_CHARS", 4096)
    first = '[Deal "1"]\ndeal *\n'
    fits = "deal\n" + "; a comment line of forty characters ..\n" * 100 + "*\n"
    assert len(fits) <= 4096
    games = list(read_games(io.StringIO(first + fits)))
    assert [g.error for g in games] == [None, None]
    too_long = "deal " + "r1:AS>A " * 600 + "*\n"
    with pytest.raises(LogSyntaxError) as caught:
        list(read_games(io.StringIO(first + "\n" + too_long)))
    assert (caught.value.line, caught.value.column) == (2, 7)  # just after the `*`
    assert "longer than 4 KiB" in caught.value.message


def test_a_comment_file_of_20_mb_is_refused_by_the_cli_in_modest_memory(tmp_path: Path) -> None:
    path = tmp_path / "comment.sun"
    write_chunks(
        path,
        itertools.chain(['[Deal "1"]\ndeal {'], itertools.repeat("x" * 1023 + "\n", 20 * 1024)),
    )
    tracemalloc.start()
    try:
        result = run("check", path)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:1:1: the game starting here is longer than 1 MiB")
    assert peak < 16 * 1024 * 1024, peak  # a few game-sizes, not the 20 MB file


def test_a_tag_value_of_millions_of_characters_is_refused_without_reading_it(
    tmp_path: Path,
) -> None:
    path = write_chunks(
        tmp_path / "tag.sun",
        itertools.chain(
            ['[Event "club"]\n[Annotator "'], itertools.repeat("y" * 1000, 5000), ['"]\ndeal *\n']
        ),
    )
    tracemalloc.start()
    try:
        with open(path, encoding="utf-8") as handle, pytest.raises(LogSyntaxError) as caught:
            list(read_games(handle))
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (caught.value.line, caught.value.column) == (2, 1)
    assert "longer than 256 KiB" in caught.value.message
    assert peak < 4 * notation.MAX_LINE_CHARS * 4, peak  # the 5 M characters never in memory
    result = run("show", path)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:2:1: this line is longer than 256 KiB")


class EndlessLine(io.TextIOBase):
    """A text stream of one line of ``size`` characters, made as it is read; ``served``
    counts the characters handed out."""

    def __init__(self, size: int) -> None:
        self.left = size
        self.served = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        n = self.left if size is None or size < 0 else min(size, self.left)
        self.left -= n
        self.served += n
        return "r" * n

    def read(self, size: int | None = -1) -> str:
        return self.readline(size)


def test_a_line_of_500_mb_is_refused_after_reading_the_limit() -> None:
    stream = EndlessLine(500 * 1024 * 1024)
    with pytest.raises(LogSyntaxError) as caught:
        list(read_games(stream))  # type: ignore[arg-type]
    assert (caught.value.line, caught.value.column) == (1, 1)
    assert stream.served <= notation.MAX_LINE_CHARS + 2


def test_a_line_at_the_limit_is_read_and_one_past_it_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(notation, "MAX_LINE_CHARS", 1000)
    line = "; " + "z" * 998
    (game,) = read_games(io.StringIO(f"{line}\ndeal *\n"))
    assert game.comments == ("z" * 998,)
    (game,) = read_games(io.StringIO(f"deal *\n{line}"))  # the last line, without "\n"
    assert game.final_comments == ("z" * 998,)
    with pytest.raises(LogSyntaxError) as caught:
        list(read_games(io.StringIO(f"deal *\n{line}z\n")))
    assert (caught.value.line, caught.value.column) == (2, 1)
    assert "longer than 1000 characters" in caught.value.message


def tiny_games(count: int, *, taken: list[int] | None = None) -> Iterator[str]:
    """``count`` tiny games (``taken`` counts the lines handed out)."""
    for i in range(count):
        if taken is not None:
            taken[0] += 2
        yield f'[Deal "{i}"]\n'
        yield "deal *\n"


def test_the_reader_streams_a_file_of_any_number_of_games() -> None:
    """Each game is yielded as soon as the next one begins: an endless file still reads."""
    taken = [0]
    games = read_games(tiny_games(10**12, taken=taken))
    first = list(itertools.islice(games, 1000))
    assert [g.tag("Deal") for g in first] == [str(i) for i in range(1000)]
    assert taken[0] <= 2 * 1001 + 2  # one game ahead, no more


def peak_while_reading(count: int) -> int:
    """The peak of memory allocated while reading ``count`` tiny games."""
    tracemalloc.start()
    try:
        for game in read_games(tiny_games(count)):
            assert game.error is None
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_while_reading_does_not_grow_with_the_number_of_games() -> None:
    peak_while_reading(100)  # warm the caches (the scanner's regex, interned strings)
    small, big = peak_while_reading(300), peak_while_reading(3000)
    assert big < small * 1.5 + 64 * 1024, (small, big)


def test_check_streams_a_file_of_many_games(tmp_path: Path) -> None:
    path = write_chunks(tmp_path / "many.sun", tiny_games(2000))
    result = run("check", path)
    assert result.exit_code == 0, result.stdout[:300]
    assert result.stderr == "2000 games, 2000 valid, 0 invalid, 2000 moves replayed (1 file)\n"


# ------------------------------------------------------------------ JSON


def test_json_nested_too_deeply_is_a_log_error() -> None:
    for text in ("[" * 100_000, '{"a":' * 100_000, '{"moves": []}\n' + "[" * 100_000):
        with pytest.raises(LogSyntaxError) as caught:
            jsonio.read_json_games(text)
        assert caught.value.line is not None


def test_json_longer_than_the_limit_is_refused_before_parsing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jsonio, "MAX_JSON_CHARS", 1000)
    small = json.dumps({"moves": [], "comments": ["x" * 100]})
    assert jsonio.read_json_games(small)
    with pytest.raises(LogSyntaxError) as caught:
        jsonio.read_json_games(json.dumps({"moves": [], "comments": ["x" * 1000]}))
    assert "longer than" in caught.value.message


def test_input_read_whole_is_refused_beyond_its_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Notation read whole (standard input) and JSON have each their limit; check,
    convert and fmt stream a .sun file of any size."""
    monkeypatch.setattr(cliutil, "MAX_INPUT_BYTES", 10_000)
    monkeypatch.setattr(cliutil, "MAX_JSON_BYTES", 30_000)
    big_sun = write_chunks(tmp_path / "big.sun", tiny_games(1000))  # 18 kB
    assert run("fmt", "--check", big_sun).exit_code in (0, 1)  # it streams: no refusal
    result = run("fmt", "-", input=big_sun.read_bytes())
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("sunlog: -: larger than 10000 bytes: too big")
    assert_one_line_cause(result, "-", "stderr")
    as_json = tmp_path / "big.json"
    assert run("convert", "--jsonl", big_sun, "-o", as_json).exit_code == 0  # it streams
    assert as_json.stat().st_size > 30_000
    result = run("show", as_json)
    assert result.exit_code == 2 and "too big to read whole" in result.stderr
    monkeypatch.setattr(cliutil, "MAX_INPUT_BYTES", 10_000)
    monkeypatch.setattr(cliutil, "MAX_JSON_BYTES", 10**9)
    assert run("show", as_json).exit_code == 0  # JSON has its own, larger limit
    result = run("check", "-", input=big_sun.read_bytes())
    assert result.exit_code == 2
    assert result.stderr.startswith("sunlog: -: larger than")
    assert run("check", big_sun).exit_code == 0  # check streams a file: no limit


# ------------------------------------------------------------------ speed of the fast path


def test_games_ending_in_white_space_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game ended by the next tag section (or the end of the file) ends in white space;
    the scanner reads it, and the Lark path (for errors only) is never asked."""

    def no_lark(*_args: object) -> None:
        raise AssertionError("a valid game went to the slow path")

    monkeypatch.setattr(syntax, "parse_game", no_lark)
    text = '[Deal "1"]\ndeal r13:KH>K  \n\n[Deal "2"]\ndeal\t\r\n \n'
    games = list(read_games(io.StringIO(text)))
    assert [len(g.moves) for g in games] == [2, 1]
    assert all(replay(g).valid for g in games)


# ------------------------------------------------------------------ regressions


@pytest.mark.parametrize(
    "text",
    [
        "open {n}",
        "gather {n}",
        "{n}. deal",
        "r{n}:AS>A",
        "r1.{n}:AS>A",
        "c{n}>A",
        "r1:AS>r{n}",
    ],
)
def test_a_number_of_thousands_of_digits_is_a_syntax_error_at_its_move(text: str) -> None:
    """Python refuses to convert more than 4300 digits: that was a bare ValueError."""
    source = '[Deal "1"]\ndeal ' + text.format(n="9" * 5000) + " *\n"
    (game,) = read_games(io.StringIO(source))
    assert isinstance(game.error, LogSyntaxError)
    assert (game.error.line, game.error.move) == (2, 2)
    assert "a number of 5000 digits" in game.error.message
    assert len(str(game.error)) < 300


def test_a_deal_tag_of_thousands_of_digits_is_a_rule_error() -> None:
    (game,) = read_games(io.StringIO(f'[Deal "{"7" * 5000}"]\ndeal *\n'))
    error = replay(game).error
    assert error is not None and (error.line, error.column) == (1, 1)
    assert "the Deal tag must be a deal number" in error.message
    assert len(error.message) < 200


def test_json_with_a_number_of_thousands_of_digits_is_a_log_error() -> None:
    with pytest.raises(LogSyntaxError, match="thousands of digits"):
        jsonio.read_json_games('{"moves": [{"kind": "open", "ray": ' + "9" * 5000 + "}]}")


def test_a_huge_word_is_clipped_in_the_message() -> None:
    (game,) = read_games(io.StringIO('[Deal "1"]\ndeal ' + "x" * 200_000 + " *\n"))
    assert game.error is not None
    assert len(str(game.error)) < 300
    assert "xxx..." in str(game.error)


@pytest.mark.parametrize("command", ["play", "solve"])
def test_a_deal_number_beyond_2_64_is_a_usage_error(command: str) -> None:
    """It was a ValueError from the deal generator, shown as a traceback."""
    result = run(command, "--deal", str(2**64))
    assert result.exit_code == 2, (result.exception, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr


def test_control_characters_of_a_log_are_shown_as_visible_stand_ins(tmp_path: Path) -> None:
    path = tmp_path / "esc.sun"
    path.write_text('[Deal "1"]\ndeal \x1b[2J\x07\n*\n', encoding="utf-8")
    result = run("show", path)
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert "found '\u241b'" in result.stderr  # ␛, in the cause
    assert "  deal \u241b[2J\u2407\n" in result.stderr  # and in the source line, one for one


def test_json_text_with_a_lone_surrogate_is_refused() -> None:
    with pytest.raises(LogSyntaxError, match="lone surrogate"):
        jsonio.read_json_games('{"moves": [], "comments": ["\\udc80"]}')
