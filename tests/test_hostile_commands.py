"""The hostile-input suite: every command of ``sunlog.cli.app`` over every hostile input
(docs/limits.md): exit 1 or 2, a one-line cause, no traceback, and bounded memory and
time, asserted by running each case in a child process under ``resource`` limits
(``RLIMIT_AS``, ``RLIMIT_CPU``).

The commands come from the app: every command that takes a PATH argument gets every
input, every numeric option of every command gets 10,000 digits and a negative number.
The quick lane runs the cheap cases in-process (a few seconds); the slow lane runs all of
them, heavy ones included (a 50 MB line, a 100 MB comment, a million games), each in a
limited child. Big inputs are made in ``tmp_path`` at test time.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import errno
import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hostilekit import WON, Ran, assert_one_line_cause, commands, run_all, sunlog
from typer.testing import CliRunner

from sunlog import cli
from sunlog.notation.errors import LogError
from sunlog.notation.jsonio import read_json_games

DIGITS = "9" * 10_000

#: Options that keep a command short whatever its input.
#: Where split (whose -o DIR is required) writes its files, removed at exit.
_SPLIT_DIR = tempfile.mkdtemp(prefix="sunlog-hostile-split-")
atexit.register(shutil.rmtree, _SPLIT_DIR, True)

BUDGET = {
    "solve": ["--max-nodes", "100"],
    "analyze": ["--max-nodes", "100"],
    "split": ["-o", _SPLIT_DIR],
}

#: More ways to run a command over a path ("convert both ways").
VARIANTS = {"convert": [["--jsonl"], ["--to", "sun"]], "fmt": [["--check"]]}


def path_commands() -> list[list[str]]:
    """Each command that takes a PATH (with its variants), as the words before it."""
    found = []
    for name, command in sorted(commands().items()):
        if any(p.param_type_name == "argument" for p in command.params):
            for extra in [[], *VARIANTS.get(name, [])]:
                found.append([name, *BUDGET.get(name, []), *extra])
    return found


@dataclass(frozen=True)
class Case:
    """One hostile input: a name, how to make it in a directory, and what it is."""

    name: str
    make: Callable[[Path], Path]
    #: the exit codes every command may give (convert, which does not replay, may accept
    #: a log that only the rules refuse)
    codes: tuple[int, ...] = (1,)
    rules_only: bool = False
    heavy: bool = False


def data(name: str, content: bytes) -> Callable[[Path], Path]:
    def make(tmp: Path) -> Path:
        path = tmp / name
        path.write_bytes(content)
        return path

    return make


def chunks(name: str, head: str, body: str, times: int, tail: str) -> Callable[[Path], Path]:
    """A big file written piece by piece: ``head``, ``body`` ``times`` times, ``tail``."""

    def make(tmp: Path) -> Path:
        path = tmp / name
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(head)
            for _ in range(times):
                handle.write(body)
            handle.write(tail)
        return path

    return make


def directory(tmp: Path) -> Path:
    (tmp / "dir").mkdir(exist_ok=True)
    return tmp / "dir"


def symlink_loop(tmp: Path) -> Path:
    with contextlib.suppress(FileExistsError):
        (tmp / "loop-a.sun").symlink_to("loop-b.sun")
        (tmp / "loop-b.sun").symlink_to("loop-a.sun")
    return tmp / "loop-a.sun"


def newline_name(tmp: Path) -> Path:
    path = tmp / "two\nlines\x1b[31m.sun"
    path.write_bytes(b'[Deal "1"]\ndeal r1:9C>A *\n')
    return path


def million_games(tmp: Path) -> Path:
    """A million tiny games, the last one broken."""
    game = '[Deal "1"]\ndeal *\n'
    return chunks("million.sun", "", game * 1000, 1000, '[Deal "1"]\ndeal open -1 *\n')(tmp)


def json_game(**change: Any) -> bytes:
    game = {"tags": [], "variant": "sun", "comments": [], "moves": [], "result": "*"}
    game["final_comments"] = []
    return json.dumps({**game, **change}).encode()


DEAL_1 = '[Deal "1"]\n'

CASES = [
    Case("empty", data("empty.sun", b"")),
    Case("binary", data("binary.sun", bytes(range(256)) * 64)),
    Case("invalid UTF-8", data("latin1.sun", DEAL_1.encode() + b"deal {caf\xe9} *\n")),
    Case("UTF-16", data("utf16.sun", (DEAL_1 + "deal *\n").encode("utf-16"))),
    Case("UTF-16 without BOM", data("utf16le.sun", (DEAL_1 + "deal *\n").encode("utf-16-le"))),
    Case(
        "10^6 open braces",
        data("braces.sun", DEAL_1.encode() + b"deal " + b"{" * 10**6),
        heavy=True,
    ),
    Case(
        "10^6 close braces",
        data("closing.sun", DEAL_1.encode() + b"deal " + b"}" * 10**6),
        heavy=True,
    ),
    Case("10^6 nested brackets", data("brackets.sun", b"[" * 10**6 + b"]" * 10**6), heavy=True),
    Case("open N", data("open.sun", f"{DEAL_1}deal open {DIGITS} *\n".encode())),
    Case("gather N", data("gather.sun", f"{DEAL_1}deal gather {DIGITS} *\n".encode())),
    Case("move number", data("number.sun", f"{DEAL_1}{DIGITS}. deal *\n".encode())),
    Case("ray number", data("ray.sun", f"{DEAL_1}deal r{DIGITS}:KC>K *\n".encode())),
    Case("Deal tag", data("deal.sun", f'[Deal "{DIGITS}"]\ndeal *\n'.encode()), rules_only=True),
    Case("open -1", data("negative.sun", f"{DEAL_1}deal open -1 *\n".encode())),
    Case("r-1", data("negative-ray.sun", f"{DEAL_1}deal r-1:KC>K *\n".encode())),
    Case("Deal -1", data("negative-deal.sun", b'[Deal "-1"]\ndeal *\n'), rules_only=True),
    Case("move number -1", data("negative-number.sun", f"{DEAL_1}-1. deal *\n".encode())),
    Case("a directory", directory, codes=(2,)),
    Case("a missing file", lambda tmp: tmp / "missing.sun", codes=(2,)),
    Case("a symlink loop", symlink_loop, codes=(2,)),
    Case("/dev/zero", lambda tmp: Path("/dev/zero"), codes=(1, 2)),  # 2: too big to read whole
    Case("a name with a newline and an escape", newline_name, rules_only=True),
    Case("JSON nested 10^6 deep", data("bomb.json", b'{"moves": ' + b"[" * 10**6), heavy=True),
    Case("JSON arrays nested deep", data("deep.json", b"[" * 100_000 + b"]" * 100_000)),
    Case("JSON NaN", data("nan.json", json_game(comments=[]).replace(b"[]", b"NaN", 1))),
    Case("JSON duplicate keys", data("dup.json", b'{"moves": [], ' + json_game()[1:])),
    Case("JSON wrong types", data("types.json", json_game(moves={"kind": "deal"}))),
    Case(
        "JSON 10,000 digits",
        data("digits.json", json_game(result=0).replace(b"0", DIGITS.encode())),
    ),
    Case("JSON not a game", data("other.json", b'{"format": "sunlog/1", "games": [7]}')),
    Case("a 50 MB line", chunks("line.sun", DEAL_1, "deal " * 10_000, 1000, ""), heavy=True),
    Case(
        "a 100 MB comment",
        chunks("comment.sun", DEAL_1 + "deal {", "x" * 99 + "\n", 10**6, "} *\n"),
        heavy=True,
    ),
    Case(
        "a tag value of 10^7 characters",
        chunks("tag.sun", '[Event "', "x" * 10_000, 1000, '"]\n[Deal "1"]\ndeal r1:9C>A *\n'),
        heavy=True,
    ),
]


def expected(words: list[str], case: Case) -> tuple[int, ...]:
    """The exit codes a command may give on a case."""
    codes = case.codes
    if case.rules_only and words[0] == "convert":
        codes = (0, *codes)  # convert keeps what only the rules refuse
    if words[0] == "fmt" and case.name.startswith("JSON"):
        codes = (1, 2)  # fmt refuses JSON (2), unless it is not text (1)
    if case.name == "/dev/zero" and words[:2] == ["fmt", "--check"]:
        codes = (2,)  # --check needs a regular file
    if words[0] in ("select", "split", "summary") and case.name.startswith("JSON"):
        codes = (2,)  # they read .sun logs as written, and refuse JSON (as fmt does)
    elif words[0] in ("select", "split") and codes == (1,):
        codes = (0, 1)  # a game is written as it is; 1 only where its tags cannot be read
    if words[0] == "record":  # FILE is a log to go on with: refused as invalid (1) or
        codes = (1, 2)  # as not one it can go on with (2: JSON, several games, too big)
        if case.name in ("empty", "a missing file"):
            codes = (0,)  # record starts a new game in an empty or missing FILE
    return codes


def cheap_cases() -> list[Case]:
    return [c for c in CASES if not c.heavy]


# ------------------------------------------------------------------ the quick lane


def run_in_process(words: list[str], path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli.app, [*words, "--", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        words,
        path,
        repr(result.exception),
    )
    if words[0] == "check" and result.stdout.strip():  # check reports on stdout
        return result.exit_code, result.stdout
    return result.exit_code, result.stderr or result.stdout


@pytest.mark.parametrize("words", path_commands(), ids=" ".join)
def test_every_command_gives_a_one_line_cause_for_every_cheap_case(
    words: list[str], tmp_path: Path
) -> None:
    for case in cheap_cases():
        path = case.make(tmp_path)
        code, text = run_in_process(words, path)
        assert code in expected(words, case), (case.name, code, text[:300])
        if code == 0:
            continue
        first = text.splitlines()[0]
        assert "Traceback" not in text and "internal error" not in text, (case.name, text)
        assert first.startswith("sunlog: ") or ":" in first, (case.name, first)
        assert first.isprintable() and len(first) < 400, (case.name, first[:200])


def number_kind(param: Any) -> str | None:
    """``int`` or ``float`` for an option whose value is a number (Click's type names:
    ``int`` or ``integer``, ``int range``, ``float``, ``float range``), else None."""
    kind = {"integer": "int"}.get(param.type.name.split()[0], param.type.name.split()[0])
    return kind if kind in ("int", "float") else None


def numeric_options() -> list[tuple[str, str, Any]]:
    """Every option of every command whose value is a number: (command, option, param)."""
    found = []
    for name, command in sorted(commands().items()):
        for param in command.params:
            if param.param_type_name == "option" and number_kind(param):
                found.append((name, param.opts[0], param))
    return found


def with_required(name: str) -> list[str]:
    """What a command needs besides the option under test."""
    takes_path = any(p.param_type_name == "argument" for p in commands()[name].params)
    return [str(WON)] if takes_path else []


SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    "value",
    [
        DIGITS,
        pytest.param("-1", marks=SLOW),
        pytest.param("nan", marks=SLOW),
        pytest.param("-" + DIGITS, marks=SLOW),
        pytest.param("inf", marks=SLOW),
        pytest.param("1e999", marks=SLOW),
        pytest.param("0x10", marks=SLOW),
    ],
)
def test_every_numeric_option_refuses_absurd_numbers_with_exit_2(value: str) -> None:
    checked = 0
    for name, option, param in numeric_options():
        minimum = getattr(param.type, "min", None)
        if value.startswith("-") and minimum is None and value != "-" + DIGITS:
            continue  # a number that may be negative (--seed)
        unbounded = getattr(param.type, "max", None) is None
        infinite = value in ("inf", "1e999", DIGITS)  # as a float, 10,000 digits are inf
        if infinite and unbounded and number_kind(param) == "float":
            continue  # --timeout inf: no time limit, as asked
        words = [name, *with_required(name), option, value]
        result = CliRunner().invoke(cli.app, words)
        assert result.exit_code == 2, (words[:3], value[:10], result.exit_code, result.stderr)
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr
        assert result.stderr.strip()
        checked += 1
    assert checked >= 5


def test_ten_thousand_digit_deal_numbers_are_refused() -> None:
    for words in (["play", "--deal", DIGITS], ["solve", "--deal", DIGITS]):
        result = CliRunner().invoke(cli.app, words)
        assert result.exit_code == 2 and "Traceback" not in result.stderr


def wrong_types(value: Any) -> list[Any]:
    """Values of other types than ``value``'s."""
    if value is None:
        return [{}, [1]]
    if isinstance(value, bool):
        return ["true", {}]
    if isinstance(value, int):
        return ["1", 1.5, True, {}]
    if isinstance(value, str):
        return [1, ["x"], {}, None]
    if isinstance(value, list):
        return ["x", {}, 1]
    return [[], "x", 1]


def fields(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every field of a JSON value, by its path."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield (*path, key), value
            yield from fields(value, (*path, key))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield (*path, i), value
            yield from fields(value, (*path, i))


def test_a_wrong_type_in_every_field_of_a_game_is_a_log_error(tmp_path: Path) -> None:
    """Every field of real games (every kind of move): replaced by a value of another type,
    the reader refuses the document with a LogError (never a TypeError or KeyError)."""
    samples = sorted((WON.parent).glob("*.sun"))
    document = json.loads(_convert_all(samples, tmp_path))
    games = document["games"]
    tried = refused = 0
    seen_kinds: set[tuple[Any, ...]] = set()
    for g, game in enumerate(games):
        for path, value in fields(game):
            # one field of each shape (the first move of each kind, each key of it)
            shape = tuple("#" if isinstance(p, int) else p for p in path)
            if isinstance(path[-1], int) and path[-1] > 0:
                continue
            kind = (shape, _kind_of(game, path))
            if kind in seen_kinds:
                continue
            seen_kinds.add(kind)
            output_only = any(p in OUTPUT_ONLY for p in path if isinstance(p, str))
            for wrong in wrong_types(value):
                broken = copy.deepcopy(games[g])
                _set(broken, path, wrong)
                if output_only:  # the reader ignores what convert adds (docs/json.md)
                    read_json_games(json.dumps(broken))
                    continue
                tried += 1
                try:
                    read_json_games(json.dumps(broken))
                except LogError:
                    refused += 1
                except Exception as exc:
                    pytest.fail(f"{path} = {wrong!r}: {type(exc).__name__}: {exc}")
    assert tried > 100
    assert refused > tried // 2  # some other types are fine (a comment list may be empty)


#: The members ``convert`` adds beside the game as written, which a reader ignores.
OUTPUT_ONLY = frozenset(
    [
        "canonical",
        "played",
        "from",
        "to",
        "dealt",
        "gathered",
        "dealt_to",
        "new_cloud",
        "row",
        "status",
        "stage",
        "valid",
        "error",
        "start_position",
        "position",
    ]
)


def _convert_all(samples: list[Path], tmp: Path) -> str:
    joined = tmp / "all.sun"
    joined.write_text("\n".join(s.read_text() for s in samples))
    result = CliRunner().invoke(cli.app, ["convert", str(joined)])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _kind_of(game: dict[str, Any], path: tuple[Any, ...]) -> Any:
    if len(path) >= 2 and path[0] == "moves":
        return game["moves"][path[1]].get("kind")
    return None


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def test_a_fifo_is_read_like_a_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.sun"
    os.mkfifo(fifo)
    writer = feed_fifo(fifo, b"\x00\xff garbage")
    code, text = run_in_process(["check"], fifo)
    writer.join(timeout=30)
    assert code == 1 and text.startswith(f"{fifo}:1:"), text
    code, text = run_in_process(["fmt", "--check"], fifo)
    assert code == 2 and "not a regular file" in text, text


def feed_fifo(fifo: Path, content: bytes, *, wait: float = 60) -> threading.Thread:
    """Write ``content`` into a FIFO once a reader opens it (giving up after ``wait``)."""

    def write() -> None:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                    raise
                time.sleep(0.01)
                continue
            os.set_blocking(fd, True)
            with contextlib.suppress(BrokenPipeError):
                os.write(fd, content)
            os.close(fd)
            return

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def test_a_leading_dash_is_an_option_unless_after_two_dashes(tmp_path: Path) -> None:
    (tmp_path / "-x.sun").write_bytes(b"garbage")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        as_option = CliRunner().invoke(cli.app, ["check", "-x.sun"])
        as_file = CliRunner().invoke(cli.app, ["check", "--", "-x.sun"])
    finally:
        os.chdir(cwd)
    assert as_option.exit_code == 2 and "No such option" in as_option.stderr
    assert as_file.exit_code == 1 and as_file.stdout.startswith("-x.sun:1:1: ")


# ------------------------------------------------------------------ the slow lane


#: The commands that write to the PATH they are given (record goes on with its FILE).
WRITES_ITS_PATH = ("record",)


def limited(words: list[str], path: Path, cwd: Path) -> Ran:
    return sunlog([*words, "--", path], cwd=cwd)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_command_in_a_limited_process(case: Case, tmp_path: Path) -> None:
    """Each case, each command, in a child limited to 1 GiB of address space and 60 s of
    CPU: exit 1 or 2, one line, no traceback (a MemoryError or SIGXCPU would show)."""
    shared = case.make(tmp_path)
    jobs = []
    for i, words in enumerate(path_commands()):
        path, where = shared, tmp_path
        if words[0] in WRITES_ITS_PATH:  # a fresh input of its own
            where = tmp_path / str(i)
            where.mkdir()
            path = case.make(where)
        jobs.append(partial(limited, words, path, where))
    for words, ran in zip(path_commands(), run_all(jobs, workers=2), strict=True):
        assert "internal error" not in ran.err and "out of memory" not in ran.err, str(ran)
        codes = expected(words, case)
        if 0 in codes and ran.code == 0:
            continue
        assert_one_line_cause(ran, codes=codes)


@pytest.mark.slow
def test_a_fifo_in_a_limited_process(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.sun"
    os.mkfifo(fifo)
    for words in (["check"], ["show"], ["convert"], ["fmt"]):
        writer = feed_fifo(fifo, b"[Deal 1]\n" * 1000)
        ran = sunlog([*words, fifo], timeout=60)
        writer.join(timeout=60)
        assert_one_line_cause(ran, codes=(1,))


@pytest.mark.slow
def test_a_million_tiny_games_stream_in_bounded_memory(tmp_path: Path) -> None:
    """check and convert read them all, show the last: the last one is broken."""
    path = million_games(tmp_path)
    runs: list[list[str | Path]] = [
        ["check", "-q", path],
        ["convert", path],
        ["show", "--game", "1000001", path],
    ]
    jobs = [partial(sunlog, words, memory=1 << 30, cpu=900, timeout=1800) for words in runs]
    for ran in run_all(jobs, workers=2):
        assert_one_line_cause(ran, codes=(1,))
        assert "expected a ray number 1 to 13" in ran.out + ran.err, str(ran)


@pytest.mark.slow
def test_numeric_options_in_limited_processes() -> None:
    jobs = []
    for name, option, param in numeric_options():
        unbounded = getattr(param.type, "max", None) is None
        if unbounded and number_kind(param) == "float":
            continue  # 10,000 digits are inf as a float: --timeout inf is no time limit
        jobs.append(partial(sunlog, [name, *with_required(name), option, DIGITS]))
    for ran in run_all(jobs, workers=2):
        assert_one_line_cause(ran, codes=(2,))
