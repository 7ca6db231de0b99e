"""An atheris harness for the reader and replay: any bytes in, only LogError out.

The bytes are opened as ``sunlog`` opens a file (UTF-8, any line end), read with
:func:`sunlog.notation.read_games`, and every game is replayed. Anything but a
:class:`sunlog.notation.errors.LogError` (or a subclass) is a bug, and so is an error without a line
and column or with a message that repeats the input at length. A game that replays well
must also write back (canonical form) to a log that replays to the same position. See
``fuzz/README.md`` for how to run it.
"""

from __future__ import annotations

import io
import sys

import atheris

with atheris.instrument_imports():
    import sunlog.notation.syntax  # noqa: F401 (the Lark path, which the reader imports lazily)
    from sunlog.notation import parse_games, read_games, write_game
    from sunlog.notation.errors import LogError
    from sunlog.notation.game import Game
    from sunlog.notation.replay import replay

#: Longer inputs are cut: the fuzzer looks for wrong behaviour, not for slow input.
MAX_INPUT = 64 * 1024


def _stream(data: bytes) -> io.TextIOWrapper:
    """The bytes as a text stream, opened as ``sunlog`` opens a file."""
    return io.TextIOWrapper(
        io.BytesIO(data), encoding="utf-8", errors="surrogateescape", newline=None
    )


def _check(error: LogError) -> None:
    """Every error says where, in a message of reasonable length."""
    if error.line is None or error.column is None:
        raise AssertionError(f"an error without line and column: {error!r}")
    if len(str(error)) > 1000:
        raise AssertionError(f"an error message of {len(str(error))} characters")


def _round_trip(game: Game) -> None:
    """A valid game, written in canonical form and read back, reaches the same position."""
    first = replay(game, canonical=True)
    if first.error is not None:
        _check(first.error)
        return
    (again,) = parse_games(write_game(game, first.canonical))
    second = replay(again)
    if second.error is not None or second.board.key() != first.board.key():
        raise AssertionError(f"the canonical form does not replay the same: {second.error}")


def TestOneInput(data: bytes) -> None:  # atheris's name
    """One run: read and replay every game of ``data``; only LogError may come out."""
    try:
        for game in read_games(_stream(data[:MAX_INPUT])):
            if game.error is not None:
                _check(game.error)
            result = replay(game)
            if result.error is not None:
                _check(result.error)
            else:
                _round_trip(game)
    except LogError as exc:
        _check(exc)


def main() -> None:
    """Run the fuzzer with libFuzzer's command line (``-max_total_time=600 fuzz/corpus``)."""
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
