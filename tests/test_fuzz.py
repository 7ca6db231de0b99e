"""Fuzzing the reader and replay (hypothesis): whatever comes in, only LogError comes out.

Three kinds of input: random text (free Unicode, and text made of the notation's own
pieces, which reaches far deeper), random bytes (decoded as ``sunlog`` decodes a file),
and real logs with random mutations (a token deleted, duplicated or swapped, a card or a
number changed, a line cut, a stray character). For each, reading and replaying every game
raises nothing but :class:`sunlog.notation.errors.LogError`, and every error says where, with a
line and column that lie inside the text. JSON input gets the same treatment. A watchdog
fails any example that runs for a minute (a hang); it never measures speed.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from notationkit import PIECES, mutate, real_logs

from sunlog.notation import parse_games, read_games, write_game
from sunlog.notation.errors import LogError, LogSyntaxError
from sunlog.notation.game import Game
from sunlog.notation.jsonio import game_to_json, read_json_games
from sunlog.notation.replay import replay

#: Examples per property; raise it for a longer hunt: ``SUNLOG_FUZZ_EXAMPLES=5000 pytest ...``.
EXAMPLES = int(os.environ.get("SUNLOG_FUZZ_EXAMPLES", "80"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: Seconds after which an example counts as hung: far beyond any honest run.
HANG_SECONDS = 60


class Hang(Exception):
    """An example ran past :data:`HANG_SECONDS`."""


@contextmanager
def watchdog(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Raise :class:`Hang` in the test if the block runs for ``seconds``."""

    def alarm(_signum: int, _frame: Any) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ------------------------------------------------------------------ the property


def reader_lines(text: str) -> list[str]:
    """The lines as the reader numbers them (a BOM does not count in columns)."""
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


def assert_placed(error: LogError, lines: list[str]) -> None:
    """The error has a line and column, inside the text, and a message."""
    assert error.message.strip(), repr(error)
    assert error.line is not None and error.column is not None, repr(error)
    assert 1 <= error.line <= len(lines), (error, len(lines))
    assert 1 <= error.column <= len(lines[error.line - 1]) + 1, (error, lines[error.line - 1])
    assert str(error).startswith(f"{error.line}:{error.column}: "), str(error)
    assert len(str(error)) < 1000, str(error)[:2000]  # a readable cause, not the input again


def read_and_replay(stream: io.TextIOBase | io.StringIO, text: str) -> list[Game]:
    """Read every game of ``stream`` (whose text is ``text``), replay each, check errors.

    Only LogError may escape, and it must be placed; games read are returned."""
    lines = reader_lines(text)
    games: list[Game] = []
    with watchdog():
        try:
            for game in read_games(stream):
                games.append(game)
                if game.error is not None:
                    assert_placed(game.error, lines)
                    assert game.error.game == game.index
                for canonical in (False, True):
                    result = replay(game, canonical=canonical)
                    if result.error is not None:
                        assert_placed(result.error, lines)
                    else:
                        assert game.error is None
        except LogError as exc:  # the file as a whole: no game, too long, not UTF-8
            assert_placed(exc, lines)
    return games


def check_text(text: str) -> list[Game]:
    return read_and_replay(io.StringIO(text), text)


def check_bytes(data: bytes) -> None:
    """Bytes as ``sunlog`` opens a file: UTF-8 with any line end; both error modes."""
    try:
        text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline=None).read()
    except UnicodeDecodeError:
        text = None
    for errors in ("strict", "surrogateescape"):
        stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors=errors, newline=None)
        if text is not None:
            read_and_replay(stream, text)
            continue
        with watchdog():
            try:
                for game in read_games(stream):
                    replay(game)
            except LogSyntaxError as exc:
                assert "not UTF-8" in exc.message, exc
                assert exc.line is not None and exc.column is not None
                if errors == "surrogateescape":  # the exact place of the first bad byte
                    decoded = data.decode("utf-8", errors="surrogateescape")
                    decoded = io.StringIO(decoded, newline=None).read()
                    line = reader_lines(decoded)[exc.line - 1]
                    assert "\udc80" <= line[exc.column - 1] <= "\udcff", (exc, line)
                    first = min(i for i, c in enumerate(decoded) if "\udc80" <= c <= "\udcff")
                    assert decoded.count("\n", 0, first) + 1 == exc.line
            else:
                pytest.fail("bytes that are not UTF-8 were read without an error")


# ------------------------------------------------------------------ random text

notation_text = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
free_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=300)


@SETTINGS
@given(st.one_of(notation_text, free_text))
def test_random_text_gives_only_placed_log_errors(text: str) -> None:
    check_text(text)


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=40).map("".join))
def test_random_text_after_a_real_game_start_gives_only_placed_log_errors(tail: str) -> None:
    check_text('[Variant "sun"]\n[Deal "7"]\ndeal r1:AS>A deal ' + tail)


# ------------------------------------------------------------------ random bytes


@SETTINGS
@given(st.one_of(st.binary(max_size=400), notation_text.map(lambda t: t.encode("utf-8"))))
def test_random_bytes_give_only_log_errors(data: bytes) -> None:
    check_bytes(data)


@SETTINGS
@given(notation_text, st.binary(min_size=1, max_size=3), st.data())
def test_a_bad_byte_is_reported_at_its_line_and_column(
    text: str, junk: bytes, data: st.DataObject
) -> None:
    raw = text.encode("utf-8")
    at = data.draw(st.integers(0, len(raw)))
    check_bytes(raw[:at] + b"\xff" + junk + raw[at:])


# ------------------------------------------------------------------ mutated real logs


@SETTINGS
@given(real_logs(), st.integers(1, 3), st.randoms(use_true_random=False))
def test_mutated_real_logs_give_only_placed_log_errors(
    text: str, damage: int, rng: random.Random
) -> None:
    assert all(g.error is None and replay(g).valid for g in check_text(text))  # the original
    for _ in range(damage):
        text = mutate(text, rng)
    check_text(text)
    check_bytes(text.replace("\n", rng.choice(("\n", "\r\n", "\r"))).encode("utf-8"))


@SETTINGS
@given(real_logs(), st.randoms(use_true_random=False))
def test_a_valid_mutant_writes_back_and_replays_to_the_same_position(
    text: str, rng: random.Random
) -> None:
    """When damage still leaves a valid log, its written form replays to the same place."""
    for game in check_text(mutate(text, rng)):
        first = replay(game, canonical=True)
        if not first.valid:
            continue
        (again,) = parse_games(write_game(game, first.canonical))
        second = replay(again)
        assert second.valid, second.error
        assert second.board.key() == first.board.key()


# ------------------------------------------------------------------ JSON input


def json_children(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists and objects of ``inner`` values (the recursive step of :data:`json_values`)."""
    return st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    json_children,
    max_leaves=12,
)


def check_json(text: str) -> None:
    """JSON input: only LogError (here LogSyntaxError, naming the place in the JSON)."""
    with watchdog():
        try:
            games = read_json_games(text)
        except LogSyntaxError as exc:
            assert exc.message.strip()
            return
        for game in games:
            replay(game)
            replay(game, canonical=True)


def replace_leaf(data: Any, rng: random.Random, value: Any) -> Any:
    """``data`` with one value somewhere inside (a leaf or a whole branch) replaced."""
    if isinstance(data, dict) and data and rng.random() < 0.8:
        key = rng.choice(list(data))
        return {**data, key: replace_leaf(data[key], rng, value)}
    if isinstance(data, list) and data and rng.random() < 0.8:
        k = rng.randrange(len(data))
        return [*data[:k], replace_leaf(data[k], rng, value), *data[k + 1 :]]
    return value


@SETTINGS
@given(json_values)
def test_random_json_gives_only_log_errors(value: Any) -> None:
    check_json(json.dumps(value))
    check_json(json.dumps({"format": "sunlog/1", "games": [value]}))
    check_json(json.dumps({"moves": value}))


@SETTINGS
@given(real_logs(), json_values, st.randoms(use_true_random=False), st.booleans())
def test_mutated_game_json_gives_only_log_errors(
    text: str, value: Any, rng: random.Random, lines: bool
) -> None:
    games = [game_to_json(g) for g in parse_games(text)]
    games = [replace_leaf(g, rng, value) for g in games]
    if lines:
        check_json("\n".join(json.dumps(g) for g in games) + "\n")
    else:
        check_json(json.dumps({"format": "sunlog/1", "games": games}))
    cut = rng.randrange(len(json.dumps(games)) + 1)
    check_json(json.dumps({"format": "sunlog/1", "games": games})[:cut])


# ------------------------------------------------------------------ fixed cases


def _cases() -> dict[str, Callable[[], str]]:
    return {
        "only a BOM": lambda: "\ufeff",
        "a lone result": lambda: "*",
        "nul characters": lambda: "\x00" * 50,
        "open braces": lambda: "{" * 5000,
        "close braces": lambda: "}" * 5000,
        "brackets": lambda: "[" * 5000 + "]" * 5000,
        "quotes and escapes": lambda: '[A "' + '\\"' * 3000 + '"]\n*\n',
        "a tag never closed": lambda: '[Event "never closed\ndeal *',
        "move numbers only": lambda: "1. 2. 3. " * 500,
        "a deal of 2000 cards": lambda: "deal " + "AS " * 2000 + "*",
        "result words glued": lambda: "won" * 300 + "lost*" * 300,
        "unicode line separators": lambda: "deal\u2028r1:AS>A\u2029\x85*\x0b\x0c",
        "surrogate escapes": lambda: "deal \udcff *",
    }


@pytest.mark.parametrize("name", list(_cases()))
def test_awkward_fixed_inputs_give_only_placed_log_errors(name: str) -> None:
    check_text(_cases()[name]())
