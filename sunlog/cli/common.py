"""What every command shares: the Typer app, the exit codes, the common options, the guard
that turns errors into a message and an exit code, and loading a game at a position.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from sunlog.engine import Variant
from sunlog.notation import jsonlayout
from sunlog.notation.errors import LogError

if TYPE_CHECKING:
    from rich.console import Console

    from sunlog.notation.game import Game
    from sunlog.notation.replay import Replay
from sunlog.cli import checking, inputs, outputs, reports, root
from sunlog.cli.exits import INTERRUPTED, INVALID, USAGE
from sunlog.cli.inputs import STDIN, CliError

#: The Typer app (:mod:`~sunlog.cli.root`), on which each command module registers.
app = root.app


#: The last deal number (SPEC 4: 0 <= N < 2^64); a larger one is a usage error.
LAST_DEAL = (1 << 64) - 1


P = ParamSpec("P")
R = TypeVar("R")


PathArg = Annotated[str, typer.Argument(metavar="PATH", help="A log file, or - for stdin.")]


#: A log, or none when ``--position`` gives the position (:func:`chosen_game`).
LogArg = Annotated[
    str | None,
    typer.Argument(
        metavar="PATH",
        help="A log file, or - for stdin (none with --position).",
        show_default=False,
    ),
]
#: ``--position STRING``: start from a position string (docs/positions.md), not a log.
PositionOpt = Annotated[
    str | None,
    typer.Option(
        "--position",
        metavar="STRING",
        help="From this position string, not a log.",
        show_default=False,
    ),
]

GameOpt = Annotated[
    int, typer.Option("--game", "-g", min=1, metavar="K", help="The K-th game of the file.")
]


AtOpt = Annotated[
    int | None,
    typer.Option("--at", "-n", min=0, metavar="N", help="After the first N moves (default: all)."),
]


def err(text: str) -> None:
    """Print a line on stderr; if stderr is closed or gone, the exit code says so instead."""
    outputs.to_stderr(text)


#: ``-q``: the same option, with the same meaning, on every command that says more than
#: its errors on stderr (a summary, a verdict, a note).
QuietOpt = Annotated[
    bool, typer.Option("--quiet", "-q", help="No summary on stderr (errors are still said).")
]


def summary(text: str, quiet: bool) -> None:
    """A summary, a verdict or a note on stderr, unless ``-q`` asked for none."""
    if not quiet:
        err(text)


def json_line(data: object) -> None:
    """Print one JSON object as ``--json`` prints every object: compact, on one line
    (docs/json.md, "--json")."""
    typer.echo(jsonlayout.dumps(data))


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """Run a command, turning our errors and I/O errors into a message and an exit code.

    Standard output is flushed inside, so that an output that cannot be written (its
    reader gone, a full disk, closed) is an exit 2 here, never lost or a traceback.
    """

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            try:
                return command(*args, **kwargs)
            finally:
                if sys.stdout is not None:
                    sys.stdout.flush()
        except (typer.Exit, typer.Abort, typer.BadParameter):  # Typer's: it knows what to do
            raise
        except CliError as exc:
            err(str(exc))
            raise typer.Exit(exc.code) from None
        except LogError as exc:  # a file that is not a log
            err(_not_a_log(exc))
            raise typer.Exit(INVALID) from None
        except BrokenPipeError:  # the reader went away (| head): stop quietly, exit 2
            outputs.silence(sys.stdout)
            raise typer.Exit(USAGE) from None
        except outputs.StreamClosedError as exc:  # started with >&- or <&-
            err(f"sunlog: {exc.strerror}")
            raise typer.Exit(USAGE) from None
        except (OSError, UnicodeError) as exc:
            err(f"sunlog: {checking.io_cause(exc)}")
            raise typer.Exit(USAGE) from None
        except Exception as exc:  # a bug (or MemoryError): one line, not a traceback
            err(checking.internal_error(exc))
            raise typer.Exit(USAGE) from None
        except KeyboardInterrupt:  # Ctrl-C: stopped, not finished (what was written stays)
            err(INTERRUPTED)
            raise typer.Exit(USAGE) from None

    return run


def _not_a_log(exc: LogError) -> str:
    """A whole-file fault: with its line and a caret when it has one, else ``sunlog: ...``."""
    return checking.not_a_log(exc)


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def color_wanted() -> bool:
    """Whether standard output is coloured: ``--color``, then ``NO_COLOR``/``FORCE_COLOR``,
    then whether it is a terminal (:func:`sunlog.cli.root.color_wanted`)."""
    return root.color_wanted()


def color_console() -> Console:
    """A rich console on standard output that writes colour, whatever it is connected to
    (for output :func:`color_wanted` says is coloured: a terminal, or ``less -R``)."""
    from rich.console import Console

    return Console(force_terminal=True, no_color=False, highlight=False)


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def invalid(report: str) -> typer.Exit:
    """Print an invalid log's report on stderr; the exit that goes with it."""
    err(report)
    return typer.Exit(INVALID)


def load(
    path: str, game: int, at: int | None, *, canonical: bool = False, to_fault: bool = False
) -> tuple[Game, Replay]:
    """The chosen game and its replay up to ``at``; exits 1 with the report if it breaks.

    With ``to_fault``, a replay that stopped at a fault is returned with its ``error``:
    the caller shows the position before the fault, then :func:`fail_if_broken` prints
    the error and exits 1 (what the commands that look at a game do).
    """
    chosen = read_game(path, game)
    return chosen, checked(path, chosen, at, canonical=canonical, to_fault=to_fault)


def checked(
    path: str, chosen: Game, at: int | None, *, canonical: bool = False, to_fault: bool = False
) -> Replay:
    """The replay of a game up to ``at``; exits 1 with the report if it breaks first.

    With ``to_fault``, the replay up to the first fault when that comes first: it exits
    1 at once only when there is no position to show (the tags are at fault), and
    ``--at`` beyond the fault is a usage error (exit 2) that names the fault.
    """
    replayed = inputs.position_at(chosen, at, path, canonical=canonical)
    error = replayed.error
    if error is None:
        return replayed
    if not to_fault or not has_position(chosen, error, replayed.moves):
        raise invalid(error_text(path, chosen, error))
    if at is not None and at > replayed.moves:
        raise beyond_fault(path, chosen, error, at, replayed.moves)
    return replayed


def has_position(chosen: Game, error: LogError, moves: int) -> bool:
    """Whether a game stopped by ``error`` after ``moves`` moves has a position to show:
    not when its tags are at fault (no board, or a syntax error before any move)."""
    from sunlog.notation.replay import new_board

    if error.move is not None or moves:
        return True
    try:
        new_board(chosen)
    except LogError:
        return False
    return not (error is chosen.error and not chosen.moves)


def beyond_fault(path: str, chosen: Game, error: LogError, at: int, moves: int) -> CliError:
    """``--at N`` past a game's first fault: a usage error that says where the fault is."""
    where = f"move {error.move}" if error.move is not None else "the end of the game"
    return CliError(
        f"--at {at} is beyond the first fault, at {where} (--at must be 0 to {moves}): "
        f"{reports.error_heading(error, chosen.index)}",
        path=None,
    )


def error_text(path: str, chosen: Game, error: LogError) -> str:
    """A fault's report as ``check`` prints it: heading, source line and caret."""
    error.path = path
    source = None
    if error.line is not None:
        source = reports.source_line(path, error.line, text=stdin_cache(path))
    return reports.error_report(error, chosen.index, source)


def fail_if_broken(path: str, chosen: Game, replayed: Replay) -> None:
    """After the position before a fault was shown: the fault's report, and exit 1."""
    if replayed.error is not None:
        raise invalid(error_text(path, chosen, replayed.error))


def stdin_cache(path: str) -> str | None:
    """Standard input's text once read (so that a caret can show its lines)."""
    return inputs.stdin_text(path)


#: What a game from ``--position`` is called in messages, where a log has its path.
POSITION_SOURCE = "--position"


def chosen_game(path: str | None, position: str | None, index: int) -> tuple[str, Game]:
    """The chosen game of a log, or the game of no moves at ``--position``'s string,
    with the name messages give it; a usage error (exit 2) when both or neither is given,
    or the string is not a position (its field and column named)."""
    if position is not None:
        if path is not None:
            raise CliError("give a log PATH or --position STRING, not both")
        return POSITION_SOURCE, position_game(position)
    if path is None:
        raise CliError("give a log PATH (or --position STRING)")
    return path, read_game(path, index)


def position_game(text: str) -> Game:
    """A game of no moves under ``[Position "text"]``: read by the one reader, so that it
    starts as such a log would."""
    import io

    from sunlog.engine import Board
    from sunlog.notation.reader import read_games

    try:
        Board.from_position(text)
    except ValueError as exc:
        raise CliError(f"--position: {exc}") from None
    (game,) = read_games(io.StringIO(f'[Position "{text.strip()}"]\n*\n'))
    return game


def read_game(path: str, index: int) -> Game:
    """The chosen game of a path (standard input is read whole, once)."""
    return inputs.load_game(path, index)


def with_path(path: str, load: Callable[[], R]) -> R:
    """What ``load`` returns; a :class:`LogError` it raises is given ``path`` first."""
    try:
        return load()
    except LogError as exc:
        exc.path = path
        raise


#: Files from which ``check`` shows a progress bar (only when stderr is a terminal).
PROGRESS_FILES = checking.PROGRESS_FILES


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


OutOpt = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="OUT", help="Write here (- or nothing: stdout)."),
]


def write_output(text: str, output: str | None, sources: list[str]) -> None:
    """Print ``text``, or write it to ``output`` (atomically), never onto an input."""
    if output in (None, STDIN):
        typer.echo(text, nl=False)
        return
    if any(outputs.same_file(path, output) for path in sources):
        raise CliError("refusing to overwrite the input: choose another -o", path=output)
    try:
        outputs.write_atomically(output, text)
    except OSError as exc:
        raise inputs.os_error(exc, output) from None


#: ``--variant`` of play, stats and solve: a choice of the engine's variants, so that a
#: shell completes it and a wrong one is refused as any choice is.
VariantOption = Annotated[
    Variant,
    typer.Option("--variant", metavar="V", case_sensitive=False, help="sun, sun-2 or sun-3."),
]


def deal_option(help_text: str) -> Any:
    """``--deal N`` (``-d``) of play, solve and record: one deal number, 0 to 2^64-1."""
    return typer.Option("--deal", "-d", min=0, max=LAST_DEAL, metavar="N", help=help_text)


def count_bar(what: str, total: int) -> Callable[[int, int], None] | None:
    """A rich progress bar on stderr, fed ``(done, total)``; ``None`` off a terminal."""
    if not stderr_is_terminal():
        return None
    progress = checking.stderr_bar()
    task = progress.add_task(what, total=total)
    progress.start()

    def update(done: int, _total: int) -> None:
        if done < 0:
            progress.stop()
        else:
            progress.update(task, completed=done)

    return update


MaxNodesOpt = Annotated[
    int,
    typer.Option("--max-nodes", min=1, metavar="N", help="Give up after N positions."),
]


def a_number(value: float | None) -> float | None:
    """An option's float, refused when it is ``nan`` (which every range lets through)."""
    if value is not None and math.isnan(value):
        raise typer.BadParameter(f"{value} is not a number.")
    return value


TimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--timeout", min=0, metavar="S", callback=a_number, help="Give up after S seconds."
    ),
]
