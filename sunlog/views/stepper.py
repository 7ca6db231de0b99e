"""Step through a game move by move: the engine of ``sunlog replay``, independent of Typer.

:class:`Stepper` walks the positions with ``Board.push``/``Board.pop`` (one move per step,
never a replay from scratch); :func:`run_interactive` drives it from single keys on a
terminal, and :func:`render_frames` prints every position in turn when there is none.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import NamedTuple

from rich.console import Console, Group, RenderableType
from rich.text import Text

from sunlog.engine.board import Board, Status
from sunlog.engine.errors import clip
from sunlog.engine.moves import Move
from sunlog.views.terminal import (
    Words,
    board_compact,
    board_renderable,
    board_text,
    use_color,
    visible,
)

__all__ = [
    "Entry",
    "KeyReader",
    "Stepper",
    "fit_screen",
    "render_frames",
    "run_interactive",
    "screen_renderable",
    "terminal_keys",
]


class Entry(NamedTuple):
    """One move of a log: the move, its text, its annotation (``!``, ``?!``...) and comments."""

    move: Move
    text: str
    annotation: str | None = None
    comments: tuple[str, ...] = ()

    def label(self, number: int) -> str:
        """``12. r5:QD>K!``: the move number, the text and the annotation."""
        return f"{number}. {self.text}{self.annotation or ''}"


class Stepper:
    """The positions of one game, walked one move at a time on a single board.

    ``board`` is the position before the first entry; the stepper owns it from then on.
    Entries are checked once at the start: a log that goes wrong is cut at its first
    move that cannot be played, and :attr:`error` says why.
    """

    def __init__(
        self,
        board: Board,
        entries: Sequence[Entry | tuple[Move, str, str | None, tuple[str, ...]]],
        *,
        start_comments: Sequence[str] = (),
        tags: Sequence[tuple[str, str]] = (),
        at: int = 0,
    ) -> None:
        self.board = board
        self.entries = [Entry._make(entry) for entry in entries]
        self.start_comments = tuple(start_comments)
        self.tags = tuple(tags)
        self.error: str | None = None
        self._index = 0
        self._check()
        self.jump(at)

    def _check(self) -> None:
        """Play every entry once and take them back; cut the log at a move that fails."""
        played = 0
        for number, entry in enumerate(self.entries, 1):
            try:
                self.board.push(entry.move)
            except ValueError as exc:
                self.error = f"move {number} ({entry.text}) cannot be played: {exc}"
                del self.entries[number - 1 :]
                break
            played += 1
        for _ in range(played):
            self.board.pop()

    @property
    def index(self) -> int:
        """How many moves have been played: 0 (the start) to :attr:`total`."""
        return self._index

    @property
    def total(self) -> int:
        """How many moves the game has (those that can be played)."""
        return len(self.entries)

    @property
    def current(self) -> Entry | None:
        """The move that led to the shown position, ``None`` at the start."""
        return self.entries[self._index - 1] if self._index else None

    @property
    def comments(self) -> tuple[str, ...]:
        """The comments of the current move, or of the game's start."""
        entry = self.current
        return self.start_comments if entry is None else entry.comments

    def next(self) -> bool:
        """Play the next move; ``False`` at the end."""
        if self._index >= self.total:
            return False
        self.board.push(self.entries[self._index].move)
        self._index += 1
        return True

    def prev(self) -> bool:
        """Take back the current move; ``False`` at the start."""
        if self._index == 0:
            return False
        self.board.pop()
        self._index -= 1
        return True

    def jump(self, number: int) -> int:
        """Go to the position after move ``number`` (clamped to 0..total); return where."""
        target = max(0, min(number, self.total))
        while self._index < target:
            self.next()
        while self._index > target:
            self.prev()
        return self._index

    def first(self) -> None:
        """Go to the start, before any move."""
        self.jump(0)

    def last(self) -> None:
        """Go to the position after the last move."""
        self.jump(self.total)

    def header(self) -> str:
        """``after move N: <move>`` for the shown position."""
        entry = self.current
        if entry is None:
            return "after move 0: (start of the game)"
        return visible(f"after move {self._index}: {entry.text}{entry.annotation or ''}")

    def last_move_text(self) -> str | None:
        """The current move's text and annotation, as the board shows it."""
        entry = self.current
        return None if entry is None else visible(f"{entry.text}{entry.annotation or ''}")


# ------------------------------------------------------------------ pipes


def _comment_lines(comments: Sequence[str], width: int = 100) -> list[str]:
    """Each line of the comments as ``; ...``, control characters made visible and a long
    one cut to ``width`` (a 50 kB comment is still one line of a frame)."""
    lines = (line.strip() for comment in comments for line in comment.strip().splitlines())
    return [clip("; " + visible(line), max(width, 10)) for line in lines]


def render_frames(stepper: Stepper, *, width: int = 100) -> Iterator[str]:
    """Every position from the start to the end as plain text, each under its header line.

    The first frame also lists the tags; each frame shows its move's comments as ``; ...``
    lines. The stepper is left where it was.
    """
    start = stepper.index
    try:
        stepper.first()
        while True:
            lines = [stepper.header()]
            if stepper.index == 0:
                lines += [visible(f'[{name} "{value}"]') for name, value in stepper.tags]
            lines += _comment_lines(stepper.comments, width)
            board = board_text(stepper.board, last_move=stepper.last_move_text(), width=width)
            yield "\n".join(lines) + "\n\n" + board
            if not stepper.next():
                break
        if stepper.error:
            yield visible(f"stopped: {stepper.error}") + "\n"
    finally:
        stepper.jump(start)


# ------------------------------------------------------------- the screen

#: Key names a :data:`KeyReader` returns besides single characters.
RIGHT, LEFT, HOME, END = "right", "left", "home", "end"
ENTER, ESC, BACKSPACE, CTRL_C, EOF, UNKNOWN = "enter", "esc", "backspace", "ctrl-c", "eof", "?"

#: Returns the next key pressed: a character, or one of the key names above.
KeyReader = Callable[[], str]

_NEXT = {"n", "N", RIGHT, " "}
_PREV = {"p", "P", LEFT}
_FIRST = {"f", "F", HOME}
_LAST = {"l", "L", END}
_QUIT = {"q", "Q", ESC, CTRL_C, EOF}
_MOVES = {"m", "M"}
HELP = (
    "n/space/right: next",
    "p/left: back",
    "f/Home: first",
    "l/End: last",
    "g N Enter: go to move N",
    "m: legal moves",
    "q/Esc: quit",
)
#: The keys in one line of a small terminal.
SHORT_HELP = "n next  p back  f first  l last  g N go to  m moves  q quit"


def legal_moves_text(board: Board) -> str:
    """What the ``m`` key says: the legal moves at the position shown, canonical, or why
    there are none to list (a game over; a deal or wind that must name its cards)."""
    if board.status() is not Status.PLAYING:
        return f"the game is {board.status().value}: no move is legal"
    moves = [str(m) for m in board.legal_moves()]
    if not moves:
        return "legal: none listed (the next deal or the wind names its cards)"
    return "legal: " + " ".join(moves)


def _move_window(stepper: Stepper, window: int, color: bool) -> Words:
    """The moves around the current one, the current one bracketed (reversed in colour)."""
    low = max(1, stepper.index - window)
    high = min(stepper.total, stepper.index + window)
    items = [Text("...")] if low > 1 else []
    for number in range(low, high + 1):
        label = stepper.entries[number - 1].label(number)
        if number != stepper.index:
            items.append(Text(label))
        elif color:
            items.append(Text(label, style="reverse bold"))
        else:
            items.append(Text(f"[{label}]"))
    if high < stepper.total:
        items.append(Text("..."))
    if not stepper.total:
        items.append(Text("(no moves)"))
    return Words(items)


def screen_renderable(
    stepper: Stepper,
    *,
    color: bool,
    prompt: str | None = None,
    message: str | None = None,
    window: int = 6,
) -> RenderableType:
    """One screen of the replay: board, moves around the current one, comment and help."""
    title = f"move {stepper.index} of {stepper.total}"
    board = board_renderable(
        stepper.board, last_move=stepper.last_move_text(), title=title, color=color
    )
    parts: list[RenderableType] = [board, _move_window(stepper, window, color)]
    parts += [
        Text(line, style="italic" if color else "") for line in _comment_lines(stepper.comments)
    ]
    if stepper.error and stepper.index == stepper.total:
        parts.append(Text(visible(f"stopped: {stepper.error}"), style="red" if color else ""))
    if message:
        parts.append(Text(message, style="yellow" if color else ""))
    if prompt is not None:
        parts.append(Text(f"go to move (0-{stepper.total}, Enter; Esc cancels): {prompt}_"))
    else:
        parts.append(Words([Text(item, style="dim" if color else "") for item in HELP], "   "))
    return Group(*parts)


def _move_line(stepper: Stepper, width: int, color: bool) -> Text:
    """The current move and as many of its neighbours as fit in one line of ``width``."""
    if not stepper.total:
        return Text("(no moves)")
    labels = {n: stepper.entries[n - 1].label(n) for n in range(1, stepper.total + 1)}
    current = max(1, stepper.index)
    low = high = current
    used = len(labels[current]) + 2 + 8  # the brackets, and room for both "..."

    def fits(n: int) -> bool:
        return used + 1 + len(labels[n]) <= width

    grew = True
    while grew:
        grew = False
        if high < stepper.total and fits(high + 1):
            high += 1
            used += 1 + len(labels[high])
            grew = True
        if low > 1 and fits(low - 1):
            low -= 1
            used += 1 + len(labels[low])
            grew = True
    out = Text("... " if low > 1 else "")
    for n in range(low, high + 1):
        if n > low:
            out.append(" ")
        if n != stepper.index:
            out.append(labels[n])
        elif color:
            out.append(labels[n], style="reverse bold")
        else:
            out.append(f"[{labels[n]}]")
    if high < stepper.total:
        out.append(" ...")
    out.truncate(width)
    return out


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def compact_screen(
    stepper: Stepper,
    *,
    color: bool,
    width: int,
    height: int,
    prompt: str | None = None,
    message: str | None = None,
) -> RenderableType:
    """One screen of the replay for a small terminal: every line within ``width``, and
    ``height - 1`` lines at most (the cursor keeps the last), the board's top included."""
    below: list[RenderableType] = [_move_line(stepper, width, color)]
    comments = _comment_lines(stepper.comments)
    if len(comments) > 2:
        comments = [*comments[:1], f"; ... ({len(comments) - 1} more comment lines)"]
    below += [Text(_cut(line, width), style="italic" if color else "") for line in comments]
    if stepper.error and stepper.index == stepper.total:
        below.append(Text(_cut(f"stopped: {stepper.error}", width), style="red" if color else ""))
    if message:
        below.append(Text(_cut(message, width), style="yellow" if color else ""))
    if prompt is not None:
        below.append(
            Text(_cut(f"go to move (0-{stepper.total}, Enter; Esc cancels): {prompt}_", width))
        )
    else:
        below.append(Text(_cut(SHORT_HELP, width), style="dim" if color else ""))
    title = f"move {stepper.index} of {stepper.total}"
    board = board_compact(
        stepper.board, title=title, color=color, width=width, lines=height - 1 - len(below)
    )
    return Group(board, *below)


def _size(console: Console, renderable: RenderableType) -> tuple[int, int]:
    """The lines and the widest line ``renderable`` takes on ``console``."""
    lines = console.render_lines(renderable, console.options, pad=False)
    widest = max((sum(seg.cell_length for seg in line) for line in lines), default=0)
    return len(lines), widest


def fit_screen(
    stepper: Stepper,
    console: Console,
    *,
    color: bool,
    prompt: str | None = None,
    message: str | None = None,
    window: int = 6,
) -> RenderableType:
    """The full screen when it fits the console (one line left for the cursor), else the
    compact one (:func:`compact_screen`)."""
    width, height = console.size
    full = screen_renderable(stepper, color=color, prompt=prompt, message=message, window=window)
    lines, widest = _size(console, full)
    if lines <= height - 1 and widest <= width:
        return full
    return compact_screen(
        stepper, color=color, width=width, height=height, prompt=prompt, message=message
    )


def run_interactive(
    stepper: Stepper, console: Console, *, read_key: KeyReader | None = None, window: int = 6
) -> int:
    """Step through the game from single keys until quit; return the move reached.

    Without ``read_key`` the keys come from the terminal in cbreak mode (restored on every
    exit, exceptions included); tests pass their own reader.
    """
    if read_key is not None:
        return _loop(stepper, console, read_key, window)
    with terminal_keys() as reader:
        return _loop(stepper, console, reader, window)


def _loop(stepper: Stepper, console: Console, read_key: KeyReader, window: int) -> int:
    color = use_color(console)
    prompt: str | None = None
    message: str | None = None
    while True:
        console.clear()
        console.print(
            fit_screen(stepper, console, color=color, prompt=prompt, message=message, window=window)
        )
        message = None
        try:
            key = read_key()
        except (KeyboardInterrupt, EOFError, StopIteration):
            key = CTRL_C
        if prompt is not None:
            prompt, message = _prompt_key(stepper, prompt, key)
            continue
        if key in _QUIT:
            return stepper.index
        if key in _NEXT:
            if not stepper.next():
                message = "this is the last move"
        elif key in _PREV:
            if not stepper.prev():
                message = "this is the start of the game"
        elif key in _FIRST:
            stepper.first()
        elif key in _LAST:
            stepper.last()
        elif key in ("g", "G"):
            prompt = ""
        elif key in _MOVES:
            message = legal_moves_text(stepper.board)


def _prompt_key(stepper: Stepper, prompt: str, key: str) -> tuple[str | None, str | None]:
    """One key typed after ``g``: digits, Backspace, Enter (jump) or Esc (cancel).

    A number past the end is refused and the prompt stays open, empty: the player types
    another, or Esc closes it (an Esc meant for the prompt never quits the replay)."""
    if key.isdigit() and len(key) == 1:
        return prompt + key, None
    if key == BACKSPACE:
        return prompt[:-1], None
    if key == ENTER:
        if not prompt:
            return None, None
        wanted = int(prompt)
        if wanted > stepper.total:  # refused: the prompt stays open, so Esc only cancels it
            return "", f"no move {wanted}: the game has {stepper.total} moves (0-{stepper.total})"
        stepper.jump(wanted)
        return None, None
    if key in (ESC, CTRL_C, EOF):
        return None, None
    return prompt, None


# ---------------------------------------------------------- the terminal

_ESCAPES = {
    b"[C": RIGHT,
    b"OC": RIGHT,
    b"[D": LEFT,
    b"OD": LEFT,
    b"[H": HOME,
    b"OH": HOME,
    b"[1~": HOME,
    b"[7~": HOME,
    b"[F": END,
    b"OF": END,
    b"[4~": END,
    b"[8~": END,
}
_BYTES = {b"\r": ENTER, b"\n": ENTER, b"\x7f": BACKSPACE, b"\x08": BACKSPACE, b"\x03": CTRL_C}


def decode_key(read_byte: Callable[[], bytes], more: Callable[[], bool]) -> str:
    """Decode one key from a byte source; ``more()`` says whether a byte is waiting.

    An arrow or Home/End key arrives as one escape sequence; a lone Esc has nothing after it.
    """
    data = read_byte()
    if not data:
        return EOF
    if data != b"\x1b":
        if data in _BYTES:
            return _BYTES[data]
        char = data.decode("latin-1")
        return char if char.isascii() and char.isprintable() else UNKNOWN
    if not more():
        return ESC
    seq = read_byte()
    if seq not in (b"[", b"O"):
        return UNKNOWN
    while more():
        byte = read_byte()
        seq += byte
        if not byte or 0x40 <= byte[0] <= 0x7E:  # the final byte of a sequence
            break
    return _ESCAPES.get(seq, UNKNOWN)


@contextmanager
def terminal_keys() -> Iterator[KeyReader]:
    """A key reader on standard input: cbreak mode on a POSIX terminal, lines elsewhere.

    The terminal's settings are restored when the block ends, however it ends.
    """
    try:
        import select
        import termios
        import tty
    except ImportError:  # not POSIX: read whole lines, each character a key
        yield _line_keys()
        return
    if not sys.stdin.isatty():
        yield _line_keys()
        return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        # One key at a time, no echo; Ctrl-C still interrupts. TCSANOW keeps keys typed ahead.
        tty.setcbreak(fd, termios.TCSANOW)

        def read_byte() -> bytes:
            return os.read(fd, 1)

        def more() -> bool:
            return bool(select.select([fd], [], [], 0.05)[0])

        yield lambda: decode_key(read_byte, more)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _line_keys() -> KeyReader:
    """Keys from whole lines typed on standard input; an empty line means next."""
    pending: list[str] = []

    def read() -> str:
        if not pending:
            line = sys.stdin.readline()
            if not line:
                return EOF
            pending.extend(line.rstrip("\r\n") or "n")
            pending.append(ENTER)
        return pending.pop(0)

    return read
