"""The replay engine: stepping by push/pop, the frames for pipes, and the key loop."""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import cast

import pytest
from enginekit import SPEC_DEAL, SPEC_MOVES
from rich.console import Console

from sunlog import Board, Move
from sunlog.views.stepper import (
    BACKSPACE,
    CTRL_C,
    END,
    ENTER,
    EOF,
    ESC,
    HOME,
    LEFT,
    RIGHT,
    UNKNOWN,
    Entry,
    Stepper,
    decode_key,
    render_frames,
    run_interactive,
    terminal_keys,
)
from sunlog.views.terminal import board_text

DEAL = SPEC_DEAL


ANNOTATIONS = {39: "!"}
COMMENTS = {5: ("the first arc",), 14: ("short forms: the card alone names its ray",)}


def spec_entries() -> list[Entry]:
    entries = []
    for number, text in enumerate(SPEC_MOVES, 1):
        entries.append(
            Entry(Move.parse(text), text, ANNOTATIONS.get(number), COMMENTS.get(number, ()))
        )
    return entries


def spec_stepper(**kwargs: object) -> Stepper:
    return Stepper(
        Board("sun", deal=DEAL),
        spec_entries(),
        start_comments=("a kitchen game",),
        tags=(("Event", "Kitchen table"), ("Variant", "sun"), ("Deal", str(DEAL))),
        **kwargs,  # type: ignore[arg-type]
    )


def reference_key(count: int) -> tuple[object, ...]:
    """The position after ``count`` SPEC moves, replayed on a fresh board."""
    board = Board("sun", deal=DEAL)
    for entry in spec_entries()[:count]:
        board.push(entry.move)
    return board.key()


REFERENCE = [reference_key(n) for n in range(len(SPEC_MOVES) + 1)]


# ---------------------------------------------------------------- stepping


def test_starts_before_the_first_move() -> None:
    stepper = spec_stepper()
    assert stepper.index == 0 and stepper.total == 41
    assert stepper.board.key() == REFERENCE[0]
    assert stepper.current is None
    assert stepper.comments == ("a kitchen game",)
    assert stepper.error is None


def test_next_walks_every_position_and_stops_at_the_end() -> None:
    stepper = spec_stepper()
    for n in range(1, 42):
        assert stepper.next() is True
        assert stepper.index == n
        assert stepper.board.key() == REFERENCE[n]
    assert stepper.next() is False
    assert stepper.index == 41 and stepper.board.key() == REFERENCE[41]


def test_prev_walks_back_and_stops_at_the_start() -> None:
    stepper = spec_stepper()
    stepper.last()
    for n in range(40, -1, -1):
        assert stepper.prev() is True
        assert stepper.board.key() == REFERENCE[n]
    assert stepper.prev() is False
    assert stepper.index == 0


def test_first_last_and_jump() -> None:
    stepper = spec_stepper()
    stepper.last()
    assert (stepper.index, stepper.board.key()) == (41, REFERENCE[41])
    stepper.first()
    assert (stepper.index, stepper.board.key()) == (0, REFERENCE[0])
    for target in (17, 3, 38, 38, 0, 41, 20):
        assert stepper.jump(target) == target
        assert stepper.board.key() == REFERENCE[target]
    assert stepper.jump(500) == 41 and stepper.board.key() == REFERENCE[41]
    assert stepper.jump(-3) == 0 and stepper.board.key() == REFERENCE[0]


def test_start_at_a_given_move() -> None:
    stepper = spec_stepper(at=14)
    assert stepper.index == 14 and stepper.board.key() == REFERENCE[14]
    assert stepper.comments == ("short forms: the card alone names its ray",)


class CountingBoard:
    """A board that counts its pushes and pops.

    It wraps a ``Board`` rather than subclassing it: the compiled build's ``Board`` is a
    native class, which interpreted code cannot subclass. Everything else goes through to
    the board.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.pushes = self.pops = 0

    def push(self, move: Move) -> None:
        self.pushes += 1
        self.board.push(move)

    def pop(self) -> Move:
        self.pops += 1
        return self.board.pop()

    def __getattr__(self, name: str) -> object:
        return getattr(self.board, name)


def test_each_step_is_one_push_or_one_pop() -> None:
    counting = CountingBoard(Board("sun", deal=DEAL))
    stepper = Stepper(cast(Board, counting), spec_entries())
    stepper.jump(30)
    assert counting.board.move_count == 30
    counting.pushes = counting.pops = 0
    stepper.next()
    assert (counting.pushes, counting.pops) == (1, 0)
    stepper.prev()
    stepper.prev()
    assert (counting.pushes, counting.pops) == (1, 2)
    stepper.jump(33)
    assert (counting.pushes, counting.pops) == (5, 2)
    assert stepper.board.key() == REFERENCE[33]


def test_a_log_is_cut_at_its_first_move_that_cannot_be_played() -> None:
    entries = spec_entries()[:5]
    entries.insert(3, Entry(Move.parse("r5:QD>K"), "r5:QD>K"))
    stepper = Stepper(Board("sun", deal=DEAL), entries)
    assert stepper.total == 3
    assert stepper.error is not None
    assert stepper.error.startswith("move 4 (r5:QD>K) cannot be played: ")
    assert stepper.board.key() == REFERENCE[0]
    stepper.last()
    assert stepper.board.key() == REFERENCE[3]


def test_entries_may_be_plain_tuples() -> None:
    stepper = Stepper(Board("sun", deal=DEAL), [(Move.deal(), "deal", None, ())])
    stepper.next()
    assert stepper.current == Entry(Move.deal(), "deal")
    assert stepper.header() == "after move 1: deal"


# ------------------------------------------------------------------ frames


def test_frames_show_every_position_under_its_header() -> None:
    stepper = spec_stepper()
    stepper.jump(7)
    frames = list(render_frames(stepper, width=80))
    assert len(frames) == 42
    assert stepper.index == 7  # left where it was
    assert frames[0].splitlines()[:5] == [
        "after move 0: (start of the game)",
        '[Event "Kitchen table"]',
        '[Variant "sun"]',
        '[Deal "20261129"]',
        "; a kitchen game",
    ]
    assert frames[5].splitlines()[:2] == ["after move 5: r11:KH>K", "; the first arc"]
    assert frames[39].splitlines()[0] == "after move 39: r1:5S>A!"
    for n, frame in enumerate(frames):
        board = Board("sun", deal=DEAL)
        for entry in spec_entries()[:n]:
            board.push(entry.move)
        last = stepper.entries[n - 1] if n else None
        shown = None if last is None else last.text + (last.annotation or "")
        assert frame.endswith(board_text(board, last_move=shown, width=80))
        assert frame.isascii() and "\x1b" not in frame


def test_frames_end_with_the_reason_a_log_stopped() -> None:
    entries = [*spec_entries()[:2], Entry(Move.parse("open 1"), "open 1")]
    frames = list(render_frames(Stepper(Board("sun", deal=DEAL), entries)))
    assert len(frames) == 4
    assert frames[-1].startswith("stopped: move 3 (open 1) cannot be played: ")


# -------------------------------------------------------- the key loop


def recording_reader(stepper: Stepper, keys: list[str]) -> tuple[Callable[[], str], list[int]]:
    """A fake keyboard: hands out ``keys`` and records the move shown before each key."""
    seen: list[int] = []
    source: Iterator[str] = iter(keys)

    def read() -> str:
        seen.append(stepper.index)
        return next(source)

    return read, seen


def run(keys: list[str], *, at: int = 0, color: bool = False) -> tuple[Stepper, list[int], str]:
    stepper = spec_stepper(at=at)
    read, seen = recording_reader(stepper, keys)
    if color:
        console = Console(
            file=io.StringIO(),
            width=100,
            height=60,
            force_terminal=True,
            color_system="standard",
        )
    else:
        console = Console(file=io.StringIO(), width=100, height=60)  # tall: the full layout
    final = run_interactive(stepper, console, read_key=read)
    assert final == stepper.index
    return stepper, seen, console.file.getvalue()  # type: ignore[attr-defined]


def test_keys_move_through_the_game() -> None:
    keys = ["n", "n", RIGHT, " ", "p", LEFT, "l", "f", "N", END, HOME, "x", UNKNOWN, "q"]
    stepper, seen, _ = run(keys)
    assert seen == [0, 1, 2, 3, 4, 3, 2, 41, 0, 1, 41, 0, 0, 0]
    assert stepper.index == 0 and stepper.board.key() == REFERENCE[0]


def test_g_digits_enter_jumps_to_a_move() -> None:
    keys = ["g", "1", "2", ENTER, "g", "5", BACKSPACE, "3", "0", ENTER, "q"]
    stepper, seen, out = run(keys)
    assert seen == [0, 0, 0, 0, 12, 12, 12, 12, 12, 12, 30]
    assert stepper.board.key() == REFERENCE[30]
    assert "go to move (0-41, Enter; Esc cancels): 12_" in out


def test_a_jump_past_the_end_is_refused_and_the_prompt_stays_open() -> None:
    stepper, seen, out = run(["n", "g", "9", "9", ENTER, "2", ENTER, "q"])
    assert seen == [0, 1, 1, 1, 1, 1, 1, 2]  # still at move 1 after the refusal, then 2
    assert stepper.board.key() == REFERENCE[2]
    assert "no move 99: the game has 41 moves (0-41)" in out


def test_esc_after_a_refused_jump_closes_the_prompt_and_does_not_quit() -> None:
    stepper, seen, out = run(["n", "g", "9", "9", "9", ENTER, ESC, "n", "q"])
    assert seen == [0, 1, 1, 1, 1, 1, 1, 1, 2]  # Esc closed the prompt; n still steps
    assert stepper.index == 2
    assert "no move 999: the game has 41 moves (0-41)" in out


def test_esc_cancels_the_jump_prompt_without_quitting() -> None:
    _, seen, _ = run(["n", "g", "7", ESC, "n", "g", ENTER, "n", "q"])
    assert seen == [0, 1, 1, 1, 1, 2, 2, 2, 3]


@pytest.mark.parametrize("quit_key", ["q", "Q", ESC, CTRL_C, EOF])
def test_quit_keys(quit_key: str) -> None:
    stepper, seen, _ = run(["n", quit_key, "n"], at=5)
    assert seen == [5, 6] and stepper.index == 6


def test_ctrl_c_and_the_end_of_the_keys_quit_cleanly() -> None:
    stepper = spec_stepper()

    def interrupted() -> str:
        raise KeyboardInterrupt

    assert run_interactive(stepper, Console(file=io.StringIO()), read_key=interrupted) == 0
    _, seen, _ = run(["n", "n"])  # the fake keyboard runs dry: the loop ends
    assert seen == [0, 1, 2]


def test_messages_at_either_end() -> None:
    _, _, out = run(["p", "l", "n", "q"])
    assert "this is the start of the game" in out
    assert "this is the last move" in out


def test_the_screen_shows_board_moves_comment_and_help() -> None:
    _, _, out = run(["q"], at=5)
    screen = out
    assert "move 5 of 41" in screen
    assert "move 5: r11:KH>K" in screen  # the board's own header
    assert "1. deal 2. r1:AC>A 3. r8:AS>A 4. r2:2S>A [5. r11:KH>K] 6. deal" in screen
    assert "; the first arc" in screen
    assert "n/space/right: next" in screen and "q/Esc: quit" in screen
    assert "\x1b" not in screen


def test_the_move_window_scrolls_and_shows_annotations() -> None:
    _, _, out = run(["q"], at=39)
    assert "... 33. deal 34. r3:9C>K" in out
    assert "[39. r1:5S>A!]" in out
    assert "41. r2:7C>K" in out and "41. r2:7C>K ..." not in out


def test_colour_console_reverses_the_current_move() -> None:
    _, _, out = run(["q"], at=5, color=True)
    assert "\x1b[1;7m5. r11:KH>K" in out or "\x1b[7;1m5. r11:KH>K" in out
    assert "♥" in out


# ------------------------------------------------------------ the terminal


def byte_source(data: bytes) -> tuple[Callable[[], bytes], Callable[[], bool]]:
    stream = io.BytesIO(data)

    def more() -> bool:
        return stream.tell() < len(data)

    return (lambda: stream.read(1)), more


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"n", "n"),
        (b" ", " "),
        (b"7", "7"),
        (b"\r", ENTER),
        (b"\n", ENTER),
        (b"\x7f", BACKSPACE),
        (b"\x03", CTRL_C),
        (b"\x1b", ESC),
        (b"\x1b[C", RIGHT),
        (b"\x1bOD", LEFT),
        (b"\x1b[H", HOME),
        (b"\x1b[1~", HOME),
        (b"\x1b[F", END),
        (b"\x1b[4~", END),
        (b"\x1b[A", UNKNOWN),
        (b"\x1bx", UNKNOWN),
        (b"\xc3", UNKNOWN),
        (b"", EOF),
    ],
)
def test_decode_key(data: bytes, key: str) -> None:
    read_byte, more = byte_source(data)
    assert decode_key(read_byte, more) == key


def test_decode_key_reads_one_key_at_a_time() -> None:
    read_byte, more = byte_source(b"\x1b[Cn\x1b[D\x1b")
    keys = [decode_key(read_byte, more) for _ in range(5)]
    assert keys == [RIGHT, "n", LEFT, ESC, EOF]


posix_only = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX terminal")


@pytest.fixture
def fake_tty(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, int]]:
    """Standard input replaced by the slave end of a pseudo-terminal.

    A watchdog types ``q`` after 30 s, so that a broken reader fails instead of hanging.
    """
    master, slave = os.openpty()
    stdin = os.fdopen(slave, "r", closefd=False)
    monkeypatch.setattr(sys, "stdin", stdin)
    watchdog = threading.Timer(30, os.write, (master, b"qqqq"))
    watchdog.start()
    try:
        yield master, slave
    finally:
        watchdog.cancel()
        stdin.close()
        os.close(master)
        os.close(slave)


@posix_only
def test_the_terminal_is_restored_even_after_an_exception(fake_tty: tuple[int, int]) -> None:
    import termios

    master, slave = fake_tty
    before = termios.tcgetattr(slave)
    with pytest.raises(RuntimeError), terminal_keys() as read_key:
        during = termios.tcgetattr(slave)
        assert not during[3] & termios.ICANON and not during[3] & termios.ECHO
        os.write(master, b"\x1b[Dq")
        assert read_key() == LEFT
        assert read_key() == "q"
        raise RuntimeError("boom")
    assert termios.tcgetattr(slave) == before


@posix_only
def test_run_interactive_reads_the_real_terminal(fake_tty: tuple[int, int]) -> None:
    import termios

    master, slave = fake_tty
    before = termios.tcgetattr(slave)

    def type_keys() -> None:
        """Type once the loop has put the terminal in cbreak mode (or give up after 10 s)."""
        for _ in range(1000):
            if not termios.tcgetattr(slave)[3] & termios.ICANON:
                break
            time.sleep(0.01)
        os.write(master, b"nn\x1b[Cpg12\rq")

    typist = threading.Thread(target=type_keys, daemon=True)
    typist.start()
    stepper = spec_stepper()
    console = Console(file=io.StringIO(), width=100)
    assert run_interactive(stepper, console) == 12
    typist.join()
    assert stepper.board.key() == REFERENCE[12]
    assert termios.tcgetattr(slave) == before


def test_without_a_terminal_keys_come_in_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\nn\ng9\nq\n"))
    stepper = spec_stepper()
    assert run_interactive(stepper, Console(file=io.StringIO(), width=100)) == 9
