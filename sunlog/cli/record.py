"""Recording a game as it is played: ``sunlog record FILE``.

The game itself is a :class:`~sunlog.notation.session.Session`; this module reads the
player's lines, prints the board, and keeps FILE in step with the session, so that FILE
is a valid log after every accepted move, whenever the process stops (docs/recording.md).
"""

from __future__ import annotations

import contextlib
import errno
import mmap
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sunlog.cli import common, exits, outputs, reports
from sunlog.cli.common import app, err, guarded
from sunlog.cli.inputs import CliError, os_error, read_text
from sunlog.engine import Status, Variant
from sunlog.engine.moves import MoveKind
from sunlog.notation.errors import LogError

try:  # POSIX: a second recorder of the same file is refused
    import fcntl
except ImportError:  # pragma: no cover (Windows: no lock)
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from sunlog.engine.board import Board
    from sunlog.notation.session import Played, Session, Unfinished

#: The commands besides moves, as ``help`` lists them.
COMMANDS = {
    "undo": "take back the last move (or the deal or wind still naming its cards)",
    "fix": "fix N CARD: make card N (ray N) of the last deal, or of the wind, CARD",
    "moves": "list the movable cards and the legal moves",
    "board": "show the board again",
    "hint": "the solver's next move from here (a short search)",
    "help": "show this help",
    "quit": "stop: the log ends with * (Ctrl-D does the same)",
}


#: A terminal with fewer lines than this shows the compact board (the full one takes 30).
TALL = 36


class LogFile:
    """FILE as the session wants it: grown by appends, rewritten atomically to shrink.

    An append is one ``write`` on a file opened with ``O_APPEND``, then ``fsync``: a
    process killed at any instant leaves the old text or the new. The kernel copies a
    write into the file a page at a time and can stop between pages for a fatal signal
    (SIGKILL), so an append that would cross a page boundary is preceded by whitespace up
    to it (harmless in a log). Anything else (undo, taking off a ``*``) is written to a
    temporary file renamed over FILE (:func:`~sunlog.cli.outputs.write_atomically`).

    One recorder a file: FILE is held under an exclusive lock (the new file after each
    rename too), and a second ``record`` is refused. Before each write, FILE must still be
    what this recorder last wrote (its inode, size and modification time): if another
    program changed it, recording stops and FILE is left as that program made it.
    """

    def __init__(self, path: str, text: str | None, lock: _Lock | None = None) -> None:
        """``text`` is what FILE holds now, ``None`` when it does not exist yet; ``lock``
        holds FILE as it is now (by default, FILE is locked here)."""
        self.path = path
        self.text = text
        if lock is None:
            lock = _Lock.take(path)
            lock.seen = _identity(os.fstat(lock.fd)) if text is not None else None
        self.lock = lock

    def sync(self, text: str) -> None:
        """Make FILE hold ``text``: an append when it only grows, else a rewrite."""
        self.lock.check_unchanged()
        if self.text is not None and text.startswith(self.text):
            if len(text) > len(self.text):
                self._append(text[len(self.text) :].encode("utf-8"))
        else:
            self._rewrite(text)
        self.text = text
        self.lock.seen = _identity(os.stat(self.path))

    def _append(self, data: bytes) -> None:
        page = max(mmap.PAGESIZE, 4096)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            used = os.fstat(fd).st_size % page
            if used and used + len(data) > page and len(data) <= page:
                _write_all(fd, b" " * (page - used - 1) + b"\n")
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)

    def _rewrite(self, text: str) -> None:
        outputs.write_atomically(self.path, text)
        fd = os.open(self.path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_directory(self.path)
        self.lock.take_again()

    def close(self) -> None:
        self.lock.close()


#: What tells that a file is still the one a recorder wrote: device, inode, size, mtime.
_Identity = tuple[int, int, int, int]


def _identity(st: os.stat_result) -> _Identity:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class _Lock:
    """An exclusive ``flock`` on FILE, and what FILE was when this recorder last wrote it."""

    def __init__(self, path: str, fd: int) -> None:
        self.path = path
        self.fd = fd
        self.seen: _Identity | None = None

    @classmethod
    def take(cls, path: str) -> _Lock:
        """Lock FILE (created empty when missing); exit 2 when another recorder holds it."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NONBLOCK, 0o666)
        except OSError as exc:
            raise os_error(exc, path) from None
        lock = cls(path, -1)
        lock._hold(fd)
        return lock

    def _hold(self, fd: int) -> None:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EAGAIN, errno.EACCES):
                    raise CliError(
                        "another sunlog record is writing this file: one recorder a file",
                        path=self.path,
                    ) from None
                raise os_error(exc, self.path) from None
        if self.fd >= 0:
            os.close(self.fd)
        self.fd = fd

    def take_again(self) -> None:
        """After a rename put a new file at FILE: hold that one."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as exc:
            raise os_error(exc, self.path) from None
        self._hold(fd)

    def check_unchanged(self) -> None:
        """Refuse to write when FILE is no longer what this recorder last wrote."""
        if self.seen is None:
            return
        try:
            now: _Identity | None = _identity(os.stat(self.path))
        except FileNotFoundError:
            now = None
        if now != self.seen:
            what = "was removed" if now is None else "was changed by another program"
            raise CliError(
                f"{what} since record last wrote it: stopped, nothing more written "
                "(record it again to go on from what it holds)",
                path=self.path,
            )

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # the lock goes with it
            self.fd = -1


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def _fsync_directory(path: str) -> None:
    """Make a rename in ``path``'s directory durable (where the platform allows it)."""
    try:
        fd = os.open(Path(path).resolve().parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@app.command(epilog="Example: sunlog record kitchen.sun --deal 20261129")
@guarded
def record(
    path: Annotated[
        str, typer.Argument(metavar="FILE", help="The log to write: a new file, or one to go on.")
    ],
    deal: Annotated[
        int | None,
        common.deal_option("The deal number (default: none, a game with real cards)."),
    ] = None,
    variant: Annotated[
        Variant | None,
        typer.Option(
            "--variant",
            metavar="V",
            case_sensitive=False,
            help="sun (the default), sun-2 or sun-3.",
        ),
    ] = None,
    canonical: Annotated[
        bool, typer.Option("--canonical", help="Write moves in canonical form, not as typed.")
    ] = False,
    position: common.PositionOpt = None,
) -> None:
    """Record a game as it is played: each move is checked, then written to FILE.

    Without --deal, a game with real cards: each deal names its 13 cards.
    An existing FILE is read, and the game goes on from its last move.
    Type moves in the notation (several on a line if you like), or undo,
    fix, moves, board, help, quit. FILE is a valid log after every accepted
    move; it ends with won or lost when the game does, and with * on quit
    (docs/recording.md). Off a terminal, moves are read from stdin, and
    the exit code is 1 when a line was refused.
    """
    from sunlog.notation.session import SessionError

    if not _stdin_open():
        raise CliError("standard input is closed: record reads the moves from it")
    if position is not None:
        _check_position(position, deal, variant)
    session, log = _open(path, deal, variant, position)
    shell = _Shell(session, log, canonical, interactive=common.interactive())
    try:
        refused = shell.run()
    except SessionError as exc:
        raise CliError(str(exc), path=path) from None
    except OSError as exc:
        raise os_error(exc, path) from None
    except KeyboardInterrupt:  # not at the prompt (there it quits): FILE is valid as it is
        err(f"sunlog: {path}: interrupted; it holds every move accepted")
        raise typer.Exit(exits.USAGE) from None
    finally:
        log.close()
    if refused and not shell.interactive:
        raise typer.Exit(exits.INVALID)


#: The budget of ``hint``: a search that answers within a few seconds at the table.
HINT_NODES = 200_000
HINT_SECONDS = 10.0


def hint(board: Board, *, spinner: bool) -> str:
    """``hint``: the first move of a winning line the solver finds from ``board`` within
    :data:`HINT_NODES` positions and :data:`HINT_SECONDS` seconds (a spinner on stderr
    meanwhile, on a terminal), or why there is none."""
    from sunlog.play.solver import Verdict, solve

    if board.status() is not Status.PLAYING:
        return f"no hint: the game is {board.status().value}"
    try:
        if spinner:
            from rich.console import Console

            with Console(stderr=True).status("searching for a winning line..."):
                found = solve(board, max_nodes=HINT_NODES, timeout=HINT_SECONDS)
        else:
            found = solve(board, max_nodes=HINT_NODES, timeout=HINT_SECONDS)
    except ValueError as exc:  # a physical game's deck before its 8th deal
        return f"no hint: {exc}"
    if found.verdict is Verdict.WON and found.line:
        return f"hint: {found.line[0]} (a winning line of {len(found.line)} moves)"
    if found.verdict is Verdict.LOST:
        return "no hint: no sequence of moves wins from here"
    return (
        "no winning line found within the budget "
        f"({reports.plural(found.nodes, 'position')} in {found.seconds:.1f} s)"
    )


def _stdin_open() -> bool:
    """Whether standard input is open (``record FILE <&-`` closes it)."""
    return not outputs.is_closed_stream(sys.stdin)


def _check_position(position: str, deal: int | None, kind: Variant | None) -> None:
    """``--position``: a string that reads (else exit 2, its field named), without the
    options that the string answers already."""
    if deal is not None or kind is not None:
        raise CliError("--position holds the variant and the deal: drop --deal and --variant")
    common.position_game(position)


def _open(
    path: str, deal: int | None, kind: Variant | None, position: str | None = None
) -> tuple[Session, LogFile]:
    """The session for FILE, which this recorder then holds: a new game, or the game FILE
    holds (refused when invalid). A FILE created here is removed again if that fails."""
    existed = os.path.lexists(path)
    lock = _Lock.take(path)
    try:
        return _start(path, kind, deal, lock, position)
    except BaseException:
        lock.close()
        if not existed:
            with contextlib.suppress(OSError):
                if os.stat(path).st_size == 0:
                    os.unlink(path)
        raise


def _start(
    path: str, kind: Variant | None, deal: int | None, lock: _Lock, position: str | None = None
) -> tuple[Session, LogFile]:
    from sunlog.notation.session import Session, SessionError

    text = read_text(path)
    lock.seen = _identity(os.fstat(lock.fd))
    if text and position is not None:
        raise CliError("the log holds a game already: --position starts a new one", path=path)
    if not text:
        session = Session.new(kind or Variant.SUN, deal, position)
        log = LogFile(path, text, lock)
        try:
            log.sync(session.text)
        except OSError as exc:
            raise os_error(exc, path) from None
        return session, log
    try:
        session = Session(text)
    except LogError as exc:
        exc.path = path
        source = reports.source_line(path, exc.line) if exc.line is not None else None
        raise common.invalid(reports.error_report(exc, exc.game or 1, source)) from None
    except SessionError as exc:
        raise CliError(str(exc), path=path) from None
    board = session.board
    if kind is not None and kind is not board.variant:
        raise CliError(
            f"the log is a game of {board.variant.value}, not {kind.value}: drop --variant",
            path=path,
        )
    if deal is not None and deal != board.deal_number:
        what = (
            "a game without a deal number"
            if board.deal_number is None
            else (f"deal {board.deal_number}")
        )
        raise CliError(f"the log is {what}, not deal {deal}: drop --deal", path=path)
    log = LogFile(path, text.removeprefix("\ufeff"), lock)
    try:
        log.sync(session.text)
    except OSError as exc:
        raise os_error(exc, path) from None
    return session, log


class _Shell:
    """The dialogue: a line read, a move checked and written, or a command done."""

    def __init__(self, session: Session, log: LogFile, canonical: bool, *, interactive: bool):
        self.session = session
        self.log = log
        self.canonical = canonical
        self.interactive = interactive
        self.refused = 0
        self.unfinished: Unfinished | None = None  # a deal or wind the next line goes on

    # ---------------------------------------------------------------- output

    def say(self, text: str) -> None:
        """A line on stdout: on a terminal, wrapped between words, never inside a move."""
        for line in self._wrapped(text):
            typer.echo(line)

    def warn(self, text: str) -> None:
        """A line on stderr, wrapped as :meth:`say` wraps."""
        for line in self._wrapped(text):
            err(line)

    def _wrapped(self, text: str) -> list[str]:
        if not self.interactive:
            return [text]
        import shutil

        from sunlog.views.terminal import wrap_words

        return wrap_words(text, shutil.get_terminal_size().columns, indent="  ")

    def show_board(self) -> None:
        board = self.session.board
        last = reports.last_move_text(self.session.game, len(self.session.moves))
        if self.interactive:
            from rich.console import Console

            from sunlog.views.terminal import board_compact, print_board, use_color

            console = Console()
            width, height = console.size
            if height < TALL or width < 80:  # the board, its moves and the prompt in view
                title = f"{self.log.path}, move {len(self.session.moves)}"
                console.print(
                    board_compact(board, title=title, color=use_color(console), width=width)
                )
            else:
                print_board(console, board, last_move=last, title=self.log.path, with_legend=True)
        else:
            from sunlog.views.terminal import board_text

            typer.echo(board_text(board, last_move=last), nl=False)

    def show_moves(self) -> None:
        board = self.session.board
        moves = [str(m) for m in self.session.legal_moves()]
        notes = reports.unlisted_moves(board)
        if self.interactive:
            cards = movable_cards(board)
            self.say("movable: " + (" ".join(cards) if cards else "none"))
            self.say("legal: " + (" ".join(moves) if moves else "none listed"))
            for note in notes:
                self.say(f"also legal: {note}")
            return
        for text in moves:
            self.say(text)
        for note in notes:
            self.say(f"also legal: {note}")

    def show_help(self) -> None:
        from sunlog.views.terminal import legend

        self.say("Type a move in the notation (short forms too: AS>A, r3>K; several on a line).")
        for name, what in COMMANDS.items():
            self.say(f"  {name:6} {what}")
        self.say("A playable card is one the rules let move (a ray's outer card, any card of")
        self.say("the open ray, a cloud's or the wind row's ends); a movable card is a")
        self.say("playable card that a legal move takes now.")
        if self.interactive:  # the marks of the board as it is drawn here
            from rich.console import Console

            from sunlog.views.terminal import use_color

            console = Console(highlight=False)
            console.print(legend(color=use_color(console)))
        else:
            self.say(legend(color=False).plain)

    # ------------------------------------------------------------------ loop

    def run(self) -> int:
        """Read lines until quit, the end of input or the end of the game; the number of
        lines refused."""
        session = self.session
        what = session.board.variant.value
        number = session.board.deal_number
        what += f", deal {number}" if number is not None else ", real cards"
        moves = len(session.moves)
        if self.interactive:
            self.say(f"recording {self.log.path} ({what}, {moves} moves so far); help for help")
            self.show_board()
            self.show_moves()
        for line in self._lines():
            word = line.strip().lower()
            if word in ("quit", "exit"):
                break
            if word == "undo" and self.unfinished is not None:
                self.say(f"took back {_what(self.unfinished)}: {self.unfinished.text}")
                self.unfinished = None
            elif word.split()[:1] == ["fix"]:
                if self._fix(word.split()[1:]):
                    return self.refused
            elif word in COMMANDS:
                self._command(word)
            elif self._play(line):
                return self.refused
        self._finish()
        return self.refused

    def _lines(self) -> Iterator[str]:
        """Typed lines: with readline (and Tab completion) on a terminal; else stdin's."""
        if not self.interactive:
            yield from (line.rstrip("\r\n") for line in sys.stdin)
            return
        _complete_with(lambda: [str(m) for m in self.session.legal_moves()] + list(COMMANDS))
        while True:
            try:
                left = self.unfinished
                more = f", {reports.plural(left.to_come, 'card')} to come" if left else ""
                yield input(f"move {len(self.session.moves) + 1}{more}> ")
            except (EOFError, KeyboardInterrupt):
                self.say("")
                return

    def _command(self, word: str) -> None:
        from sunlog.notation.session import SessionError

        if word == "undo":
            try:
                gone = self.session.undo()
            except SessionError as exc:
                self.warn(f"sunlog: {exc}")
                return
            self.log.sync(self.session.text)
            self.say(f"took back move {len(self.session.moves) + 1}: {gone.text}")
            if self.interactive:
                self.show_board()
                self.show_moves()
        elif word == "moves":
            self.show_moves()
        elif word == "board":
            self.show_board()
        elif word == "hint":
            self.say(hint(self.session.board, spinner=self.interactive))
        else:
            self.show_help()

    def _fix(self, words: list[str]) -> bool:
        """``fix N CARD``: card N of the deal or wind being named, else of the last one
        accepted, made CARD; ``True`` when the game is over (as after a move)."""
        from sunlog.notation.session import SessionError

        if len(words) != 2 or not words[0].isdigit():
            self.warn("sunlog: write fix N CARD, as in fix 3 4H (N: the card's place, its ray)")
            return False
        position, card = int(words[0]), words[1]
        try:
            if self.unfinished is not None:  # the move still naming its cards, typed again
                text = self.unfinished.fixed(position, card)
                self.unfinished = None
                return self._play(text)
            fixed = self.session.fix(position, card)
        except SessionError as exc:
            self.warn(f"sunlog: {exc}")
            return False
        self.log.sync(self.session.text)
        number = next(i for i, gm in enumerate(self.session.moves, 1) if gm is fixed)
        self.say(f"move {number} is now: {fixed.text}")
        if self.interactive:
            self.show_board()
            self.show_moves()
        return False

    def _play(self, line: str) -> bool:
        """Check and write one line of moves; ``True`` when the game is over."""
        from sunlog.notation.session import SessionError

        if self.unfinished is not None:  # the deal or wind the last line left goes on
            line = f"{self.unfinished.text} {line.strip()}"
            self.unfinished = None
        try:
            played = self.session.play(line, canonical=self.canonical)
        except SessionError as exc:
            self.refused += 1
            self.warn(f"sunlog: {exc}")
            return False
        if played.moves:
            self.log.sync(self.session.text)
            first = len(self.session.moves) - len(played.moves) + 1
            for number, gm in enumerate(played.moves, first):
                self.say(f"move {number}: {gm.text}{gm.annotation or ''}")
        if played.error is not None:
            self._refuse(line.strip(), played)
        if played.unfinished is not None:
            self.unfinished = played.unfinished
            self.say(_awaiting(played.unfinished))
        if self.session.over:
            token = self.session.finish()
            self.log.sync(self.session.text)
            if self.interactive:
                self.show_board()
            self.say(f"the game is {token}: {self.log.path} ends with {token}")
            return True
        if played.moves and self.interactive:
            self.show_board()
            self.show_moves()
        return False

    def _refuse(self, typed: str, played: Played) -> None:
        assert played.error is not None
        self.refused += 1
        heading, *source = refusal(played.error, typed).split("\n")
        self.warn(heading)
        for line in source:  # the typed line and its caret, aligned: never wrapped
            err(line)
        kept = []
        if played.moves:
            kept.append(f"the {reports.plural(len(played.moves), 'move')} before it written")
        if played.unfinished is not None:
            left = played.unfinished
            cards = reports.plural(left.named, "card")
            kept.append(f"{_what(left)} keeps the {cards} before it")
        if kept:
            self.warn(f"{' and '.join(kept)}; nothing from it on: type the rest again")
        else:
            self.warn("nothing written: type it again, or help")

    def _finish(self) -> None:
        if self.unfinished is not None:
            left = self.unfinished
            self.say(f"{_what(left)} was not finished, and is not written: {left.text}")
        if self.session.result is None:
            token = self.session.finish("*")
            self.log.sync(self.session.text)
            count = reports.plural(len(self.session.moves), "move")
            self.say(f"{self.log.path}: {count}, ends with {token} (record it again to go on)")


def _what(unfinished: Unfinished) -> str:
    """``deal 3`` (its number among the deals) or ``the wind``."""
    return f"deal {unfinished.deal}" if unfinished.kind is MoveKind.DEAL else "the wind"


def _awaiting(unfinished: Unfinished) -> str:
    """What an unfinished deal or wind names so far, and what it waits for."""
    what, cards = _what(unfinished), reports.plural(unfinished.to_come, "card")
    if not unfinished.named:
        row = ", ray 1 first" if unfinished.kind is MoveKind.DEAL else ", left to right"
        return f"{what}: type the {cards} it names{row} (undo drops it)"
    them = "it" if unfinished.to_come == 1 else "them"
    return f"{what} names {unfinished.named} so far, {cards} to come: type {them} (undo drops it)"


def refusal(error: LogError, typed: str) -> str:
    """``refused: move N 'text': why`` (``check``'s words), then the typed line with a caret
    under the fault (its column counts in the typed line)."""
    heading = str(LogError(error.message, code=error.code, move=error.move, text=error.text))
    out = "refused: " + reports.printable(heading)
    column = error.column
    if column is not None:
        shown = reports.printable(typed)
        length = 1
        if error.text and shown[column - 1 :].startswith(reports.printable(error.text)):
            length = len(error.text)
        out += "\n" + reports.caret(shown, column, length)
    return out


def movable_cards(board: Board) -> list[str]:
    """The movable cards: the playable cards off the foundations that a legal move takes
    now (off the rays, clouds and wind), in rank order. (Playable alone means free to
    move by the rules, whether or not a move takes it now: docs/rules.md.)"""
    from sunlog.engine.moves import Move, MoveKind, Place

    found = {
        m.card
        for m in board.legal_moves()
        if isinstance(m, Move)
        and m.kind is MoveKind.CARD
        and m.card is not None
        and m.source not in (Place.ACES, Place.KINGS)
    }
    return [str(c) for c in sorted(found, key=lambda c: (c.rank, c.suit))]


def _complete_with(words: Callable[[], list[str]]) -> None:
    """Tab completion of the words ``words()`` gives, where the platform has readline."""
    try:
        import readline
    except ImportError:
        return

    def complete(text: str, state: int) -> str | None:
        matches = [w for w in words() if w.lower().startswith(text.lower())]
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
