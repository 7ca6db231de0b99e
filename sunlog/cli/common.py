"""What every command shares: the Typer app, the exit codes, the common options, the guard
that turns errors into a message and an exit code, and loading a game at a position.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.exceptions import TyperException

from sunlog.notation.errors import LogError

if TYPE_CHECKING:
    pass
from sunlog.cli import inputs, outputs, reports
from sunlog.cli.inputs import STDIN, CliError

app = typer.Typer(
    name="sunlog",
    help="Check, show, replay and convert logs (.sun files) of the patience game Sun.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


OK, INVALID, USAGE = 0, 1, 2


#: The last deal number (SPEC 4: 0 <= N < 2^64); a larger one is a usage error.
LAST_DEAL = (1 << 64) - 1


F = TypeVar("F", bound=Callable[..., Any])


PathArg = Annotated[str, typer.Argument(metavar="PATH", help="A log file, or - for stdin.")]


GameOpt = Annotated[
    int, typer.Option("--game", "-g", min=1, metavar="K", help="The K-th game of the file.")
]


AtOpt = Annotated[
    int | None,
    typer.Option("--at", "-n", min=0, metavar="N", help="After the first N moves (default: all)."),
]


def _version() -> str:
    """The installed distribution's version, else the package's own."""
    from importlib import metadata

    try:
        return metadata.version("sunlog")
    except metadata.PackageNotFoundError:
        from sunlog import __version__

        return __version__


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"sunlog {_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            callback=_print_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Check, show, replay and convert logs (.sun files) of the patience game Sun.

    Exit codes: 0 all good, 1 an invalid log, 2 a usage or I/O error.
    """


def err(text: str) -> None:
    """Print a line on stderr; if stderr is closed or gone, the exit code says so instead."""
    outputs.to_stderr(text)


def guarded(command: F) -> F:
    """Run a command, turning our errors and I/O errors into a message and an exit code.

    Standard output is flushed inside, so that an output that cannot be written (its
    reader gone, a full disk, closed) is an exit 2 here, never lost or a traceback.
    """

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            try:
                return command(*args, **kwargs)
            finally:
                if sys.stdout is not None:
                    sys.stdout.flush()
        except (typer.Exit, typer.Abort, TyperException):  # Typer's own: it knows what to do
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
            err(f"sunlog: {_io_cause(exc)}")
            raise typer.Exit(USAGE) from None
        except MemoryError:
            err("sunlog: out of memory")
            raise typer.Exit(USAGE) from None
        except Exception as exc:  # a bug: one line to report, not a traceback on a user
            what = reports.printable(f"{type(exc).__name__}: {exc}")[:300]
            err(f"sunlog: internal error (a bug in sunlog, please report it): {what}")
            raise typer.Exit(USAGE) from None

    return run  # type: ignore[return-value]


def _io_cause(exc: OSError | UnicodeError) -> str:
    """An I/O error on one line: ``path: cause`` when it names a file, else the cause."""
    if not isinstance(exc, OSError) or exc.strerror is None:
        return reports.printable(str(exc))
    where = f"{reports.printable(str(exc.filename))}: " if exc.filename is not None else ""
    return where + outputs.stream_cause(exc)


def _not_a_log(exc: LogError) -> str:
    """A whole-file fault: with its line and a caret when it has one, else ``sunlog: ...``."""
    if exc.line is None or exc.path is None:
        where = f"{exc.path}: " if exc.path else ""
        return reports.printable(f"sunlog: {where}{exc.message}")
    source = reports.source_line(exc.path, exc.line, text=stdin_cache(exc.path))
    return reports.error_report(exc, None, source)


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def invalid(report: str) -> typer.Exit:
    """Print an invalid log's report on stderr; the exit that goes with it."""
    err(report)
    return typer.Exit(INVALID)


def load(path: str, game: int, at: int | None, *, canonical: bool = False) -> Any:
    """The chosen game and its replay up to ``at``; exits 1 with the report if it breaks."""
    chosen = read_game(path, game)
    return chosen, checked(path, chosen, at, canonical=canonical)


def checked(path: str, chosen: Any, at: int | None, *, canonical: bool = False) -> Any:
    """The replay of a game up to ``at``; exits 1 with the report if it breaks first."""
    replayed = inputs.position_at(chosen, at, path, canonical=canonical)
    if replayed.error is not None:
        source = None
        if replayed.error.line is not None:
            source = reports.source_line(path, replayed.error.line, text=stdin_cache(path))
        raise invalid(reports.error_report(replayed.error, chosen.index, source))
    return replayed


def stdin_cache(path: str) -> str | None:
    """Standard input's text once read (so that a caret can show its lines)."""
    return inputs.stdin_text(path)


def read_game(path: str, index: int) -> Any:
    """The chosen game of a path (standard input is read whole, once)."""
    return inputs.load_game(path, index)


def with_path(path: str, load: Callable[[], Any]) -> Any:
    try:
        return load()
    except LogError as exc:
        exc.path = path
        raise


#: Files from which ``check`` shows a progress bar (only when stderr is a terminal).
PROGRESS_FILES = 20


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


#: Options that play and stats share.
VariantOption = Annotated[str, typer.Option("--variant", metavar="V", help="sun, sun-2 or sun-3.")]


PolicyOption = Annotated[
    str | None,
    typer.Option(
        "--policy", "-p", metavar="NAME", help="random, greedy, patient or lookahead (the default)."
    ),
]


def count_bar(what: str, total: int) -> Callable[[int, int], None] | None:
    """A rich progress bar on stderr, fed ``(done, total)``; ``None`` off a terminal."""
    if not stderr_is_terminal():
        return None
    from rich.console import Console
    from rich.progress import Progress

    progress = Progress(
        console=Console(stderr=True, force_terminal=True),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
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


TimeoutOpt = Annotated[
    float | None,
    typer.Option("--timeout", min=0, metavar="S", help="Give up after S seconds."),
]
