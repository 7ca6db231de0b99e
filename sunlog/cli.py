"""The ``sunlog`` command line (Typer): thin commands over the library.

Exit codes (SPEC 7): 0 all good, 1 an invalid log, 2 a usage or I/O error. Errors are
printed as ``sunlog: <path>: <cause>`` on standard error, never as a traceback. The
plumbing (finding files, reading them, error reports with a caret) is in
:mod:`sunlog.cliutil`; heavy modules are imported by the commands that need them.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Annotated, Any, TypeVar

import typer

from sunlog import cliutil
from sunlog.cliutil import STDIN, CliError
from sunlog.notation.errors import LogError

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

# ------------------------------------------------------------------ shared options

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


def _err(text: str) -> None:
    typer.echo(text, err=True)


def guarded(command: F) -> F:
    """Run a command, turning our errors and I/O errors into a message and an exit code."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except CliError as exc:
            _err(str(exc))
            raise typer.Exit(exc.code) from None
        except LogError as exc:  # a file that is not a log
            _err(_not_a_log(exc))
            raise typer.Exit(INVALID) from None
        except BrokenPipeError:  # the reader went away (| head): stop quietly
            _silence_stdout()
            raise typer.Exit(USAGE) from None
        except (OSError, UnicodeError) as exc:
            _err(f"sunlog: {exc}")
            raise typer.Exit(USAGE) from None

    return run  # type: ignore[return-value]


def _not_a_log(exc: LogError) -> str:
    """A whole-file fault: with its line and a caret when it has one, else ``sunlog: ...``."""
    if exc.line is None or exc.path is None:
        where = f"{exc.path}: " if exc.path else ""
        return cliutil.printable(f"sunlog: {where}{exc.message}")
    source = cliutil.source_line(exc.path, exc.line, text=_stdin_cache(exc.path))
    return cliutil.error_report(exc, None, source)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (as under a test runner)
        pass


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _invalid(report: str) -> typer.Exit:
    """Print an invalid log's report on stderr; the exit that goes with it."""
    _err(report)
    return typer.Exit(INVALID)


def _load(path: str, game: int, at: int | None, *, canonical: bool = False) -> Any:
    """The chosen game and its replay up to ``at``; exits 1 with the report if it breaks."""
    chosen = _read_game(path, game)
    return chosen, _checked(path, chosen, at, canonical=canonical)


def _checked(path: str, chosen: Any, at: int | None, *, canonical: bool = False) -> Any:
    """The replay of a game up to ``at``; exits 1 with the report if it breaks first."""
    replayed = cliutil.position_at(chosen, at, path, canonical=canonical)
    if replayed.error is not None:
        source = None
        if replayed.error.line is not None:
            source = cliutil.source_line(path, replayed.error.line, text=_stdin_cache(path))
        raise _invalid(cliutil.error_report(replayed.error, chosen.index, source))
    return replayed


def _stdin_cache(path: str) -> str | None:
    """Standard input's text once read (so that a caret can show its lines)."""
    return cliutil.stdin_text(path)


def _read_game(path: str, index: int) -> Any:
    """The chosen game of a path (standard input is read whole, once)."""
    return cliutil.load_game(path, index)


def _with_path(path: str, load: Callable[[], Any]) -> Any:
    try:
        return load()
    except LogError as exc:
        exc.path = path
        raise


# ------------------------------------------------------------------ check


@app.command()
@guarded
def check(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH...", help="Log files, directories (every *.sun below) or - for stdin."
        ),
    ],
    json_out: Annotated[
        bool, typer.Option("--json", help="One JSON object per game per line (SPEC 7).")
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", help="Show the board before each faulty move."),
    ] = False,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", min=0, metavar="N", help="Check files in N processes."),
    ] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary line.")] = False,
) -> None:
    """Parse and replay every game; report each invalid one with path:line:col and why.

    Exit 0 when every game is valid, 1 when some log is invalid (or a file is not a log:
    empty, not UTF-8, not a game), 2 when a path is missing or unreadable.
    """
    files: list[str] = []
    code = OK
    for item in cliutil.expand_paths(paths):
        if isinstance(item, CliError):
            _err(str(item))
            code = USAGE
        else:
            files.append(item)
    stdin_text = cliutil.read_stdin() if STDIN in files else None
    totals = cliutil.CheckTotals()
    for item in _reports(files, verbose=verbose, jobs=jobs, stdin_text=stdin_text):
        if isinstance(item, CliError):
            _err(str(item))
            code = USAGE
            continue
        totals.add(item)
        if json_out:
            typer.echo(cliutil.dumps(item.to_json()))
        elif not item.valid or verbose:
            typer.echo(item.text())
    if not quiet and files:
        _err(totals.summary(len(files)))
    if code == OK and totals.invalid:
        code = INVALID
    raise typer.Exit(code)


def _reports(
    files: list[str], *, verbose: bool, jobs: int, stdin_text: str | None
) -> Iterator[cliutil.CheckReport | CliError]:
    """Every game's report, file after file in the order given, and a :class:`CliError`
    for a file that could not be read. With ``jobs`` above 1 the files are checked in
    that many processes; alone, a file's reports stream as its games are checked."""
    workers = jobs or (os.cpu_count() or 1)
    bar = _progress(files)
    try:
        if workers > 1 and len(files) > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=min(workers, len(files))) as pool:
                texts = [stdin_text if f == STDIN else None for f in files]
                # Several files a task when there are many: fewer round trips between processes.
                chunk = max(1, min(8, len(files) // (4 * workers)))
                results = pool.map(
                    cliutil.check_file, files, [verbose] * len(files), texts, chunksize=chunk
                )
                for report in results:
                    bar(len(report.games))
                    yield from report.games
                    if report.io_error is not None:
                        yield report.io_error
        else:
            for path in files:
                text = stdin_text if path == STDIN else None
                games = 0
                for item in cliutil.check_reports(path, verbose, text):
                    games += isinstance(item, cliutil.CheckReport)
                    yield item
                bar(games)
    finally:
        bar(None)


#: Files from which ``check`` shows a progress bar (only when stderr is a terminal).
PROGRESS_FILES = 20


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def _progress(files: list[str]) -> Callable[[int | None], None]:
    """A rich progress bar on stderr when it is a terminal and there are many files."""
    if len(files) < PROGRESS_FILES or not _stderr_is_terminal():
        return lambda checked: None
    from rich.console import Console
    from rich.progress import Progress

    # Reports printed meanwhile go above the bar only when stdout is that same terminal.
    progress = Progress(
        console=Console(stderr=True, force_terminal=True),
        transient=True,
        redirect_stdout=_stdout_is_terminal(),
        redirect_stderr=False,
    )
    task = progress.add_task("checking", total=len(files))
    progress.start()
    games = 0

    def advance(checked: int | None) -> None:
        """One more file done, with ``checked`` games; None: the work is over."""
        nonlocal games
        if checked is None:
            progress.stop()
            return
        games += checked
        progress.update(task, advance=1, description=f"checking ({games} games)")

    return advance


# ------------------------------------------------------------------ show, moves, replay


@app.command()
@guarded
def show(
    path: PathArg,
    game: GameOpt = 1,
    at: AtOpt = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the position object (SPEC 6).")
    ] = False,
) -> None:
    """Print the board after N moves (default: all); --json prints the position object."""
    chosen, replayed = _load(path, game, at)
    board = replayed.board
    if json_out:
        typer.echo(cliutil.dumps_pretty(board.to_json()))
        return
    last = cliutil.last_move_text(chosen, replayed.moves)
    if _stdout_is_terminal():
        from rich.console import Console

        from sunlog.views.terminal import print_board

        title = f"{path} game {chosen.index}, move {replayed.moves}"
        print_board(Console(), board, last_move=last, title=title)
    else:
        from sunlog.views.terminal import board_text

        typer.echo(board_text(board, last_move=last), nl=False)


@app.command()
@guarded
def moves(path: PathArg, game: GameOpt = 1, at: AtOpt = None) -> None:
    """List the legal moves at a position, canonical notation, one a line."""
    _chosen, replayed = _load(path, game, at)
    board = replayed.board
    for move in board.legal_moves():
        typer.echo(str(move))
    for note in cliutil.unlisted_moves(board):
        _err(f"sunlog: also legal: {note}")


@app.command()
@guarded
def replay(path: PathArg, game: GameOpt = 1, at: AtOpt = None) -> None:
    """Step through a game on a terminal; without one, print each position in turn.

    Keys: n/space/right next, p/left back, f/Home first, l/End last, g N Enter go to
    move N, q/Esc quit. Without a terminal, --at N prints only that position.
    """
    from sunlog.views.stepper import render_frames

    chosen = _read_game(path, game)
    cliutil.check_at(chosen, at, path)
    stepper, report = _stepper(path, chosen)
    if _interactive():
        from rich.console import Console

        from sunlog.views.stepper import run_interactive

        stepper.jump(at or 0)
        run_interactive(stepper, Console())
    elif at is not None:
        if at > stepper.total and report is not None:
            raise _invalid(report)
        from sunlog.views.terminal import board_text

        stepper.jump(at)
        typer.echo(stepper.header())
        typer.echo(board_text(stepper.board, last_move=stepper.last_move_text()), nl=False)
        return
    else:
        for i, frame in enumerate(render_frames(stepper)):
            typer.echo(("\n" if i else "") + frame, nl=False)
    if report is not None:
        raise _invalid(report)


def _stepper(path: str, chosen: Any) -> tuple[Any, str | None]:
    """A stepper over the moves of a game up to its first fault, and that fault's report.

    Exits 1 at once when the tags are at fault: there is no position to show.
    """
    from sunlog.notation.replay import new_board
    from sunlog.notation.replay import replay as replay_game
    from sunlog.views.stepper import Entry, Stepper

    full = replay_game(chosen)
    error = full.error
    report = None
    if error is not None:
        error.path = path
        source = None
        if error.line is not None:
            source = cliutil.source_line(path, error.line, text=_stdin_cache(path))
        report = cliutil.error_report(error, chosen.index, source)
        if error.move is None and not full.moves and chosen.moves:
            raise _invalid(report)
    try:
        board = new_board(chosen)
    except LogError as exc:
        exc.path = path
        raise _invalid(cliutil.error_report(exc, chosen.index, None)) from None
    entries = [
        Entry(gm.move, gm.text, gm.annotation, gm.comments) for gm in chosen.moves[: full.moves]
    ]
    tags = [(t.name, t.value) for t in chosen.tags]
    stepper = Stepper(board, entries, start_comments=chosen.comments, tags=tags)
    if error is not None:
        stepper.error = cliutil.error_heading(error, chosen.index)
    return stepper, report


# ------------------------------------------------------------------ convert


class Format(StrEnum):
    """The output of ``convert``."""

    sun = "sun"
    json = "json"


@app.command()
@guarded
def convert(
    path: PathArg,
    to: Annotated[
        Format | None,
        typer.Option("--to", help="sun or json (default: the other one of the input's format)."),
    ] = None,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="JSON Lines: one game per line.")] = False,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="OUT", help="Write here (- for stdout)."),
    ] = None,
) -> None:
    """Notation to JSON (--jsonl for JSON Lines), and JSON back to notation (--to sun).

    The input's format comes from its name (.json, .jsonl) or, for stdin and other
    names, from its first characters. The rules are not checked: run check for that.
    """
    if jsonl and to is Format.sun:
        raise CliError("--jsonl writes JSON: it cannot go with --to sun")
    if output not in (None, STDIN) and cliutil.same_file(path, output):
        raise CliError("refusing to overwrite the input: choose another -o", path=output)
    stdin = cliutil.read_stdin() if path == STDIN else None
    json_input = cliutil.input_is_json(path, stdin)
    target = to or (Format.json if jsonl or not json_input else Format.sun)
    import tempfile

    # The games stream through a spool (memory, then disk when large), so that a file of
    # any size converts, and nothing is written when some game cannot be read.
    with tempfile.SpooledTemporaryFile(
        max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", newline=""
    ) as spool:
        reports = _with_path(path, lambda: _convert_into(spool, path, stdin, target, jsonl))
        if reports:
            raise _invalid("\n".join(reports))
        spool.seek(0)
        if output in (None, STDIN):
            for piece in iter(lambda: spool.read(1 << 16), ""):
                typer.echo(piece, nl=False)
        else:
            try:
                cliutil.write_atomically(output, spool)
            except OSError as exc:
                raise cliutil.os_error(exc, output) from None


#: What convert keeps in memory before its spool moves to a temporary file.
SPOOL_BYTES = 16 * 1024 * 1024


def _convert_into(out: Any, path: str, stdin: str | None, target: Format, jsonl: bool) -> list[str]:
    """Write each game of ``path`` converted to ``out``; return the reports of the games
    that could not be read (then what was written is to be thrown away)."""
    from sunlog.notation.jsonio import FORMAT, game_to_json
    from sunlog.notation.writer import write_game

    reports: list[str] = []
    first = True
    document = target is Format.json and not jsonl
    if document:
        out.write(f'{{\n  "format": {cliutil.dumps(FORMAT)},\n  "games": [\n')
    for game in cliutil.read_games_from(path, stdin_text=stdin):
        if game.error is not None:
            game.error.path = path
            line = game.error.line
            source = cliutil.source_line(path, line, text=stdin) if line else None
            reports.append(cliutil.error_report(game.error, game.index, source))
            continue
        if reports:
            continue  # nothing will be written: only look for more errors
        if target is Format.sun:
            out.write(("" if first else "\n") + write_game(game))
        elif jsonl:
            out.write(cliutil.dumps(game_to_json(game)) + "\n")
        else:  # the document's layout, as dumps_pretty writes it, one game at a time
            out.write(
                ("" if first else ",\n") + "    " + cliutil.dumps_pretty(game_to_json(game), "    ")
            )
        first = False
    if document:
        out.write("\n  ]\n}\n")
    return reports


# ------------------------------------------------------------------ fmt


@app.command()
@guarded
def fmt(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH...", help="Log files, directories (every *.sun below) or - for stdin."
        ),
    ],
    in_place: Annotated[
        bool, typer.Option("--in-place", "-i", help="Rewrite the files that change.")
    ] = False,
    check_only: Annotated[
        bool,
        typer.Option("--check", help="Change nothing; exit 1 if some file would change."),
    ] = False,
) -> None:
    """Rewrite logs in canonical form: to stdout, --in-place, or --check to only report.

    A file with an invalid game is reported (exit 1) and left as it is.
    """
    if in_place and check_only:
        raise CliError("--in-place and --check cannot go together")
    if in_place and STDIN in paths:
        raise CliError("--in-place cannot rewrite standard input")
    import tempfile

    code = OK
    changed = unchanged = invalid = 0
    printed = 0
    stdin = cliutil.read_stdin() if STDIN in paths else None
    for item in cliutil.expand_paths(paths):
        if isinstance(item, CliError):
            _err(str(item))
            code = USAGE
            continue
        text = stdin if item == STDIN else None
        # The canonical form streams through a spool (memory, then disk when large).
        with tempfile.SpooledTemporaryFile(
            max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", newline=""
        ) as spool:
            try:
                valid = _format_into(spool, item, text)
            except CliError as exc:
                _err(str(exc))
                code = max(code, exc.code)
                continue
            if not valid:
                code = max(code, INVALID)
                invalid += 1
                continue
            spool.seek(0)
            if check_only or in_place:
                if _same_text(item, text, spool):
                    unchanged += 1
                    continue
                changed += 1
                if check_only:
                    typer.echo(f"would reformat {item}")
                    code = max(code, INVALID)
                    continue
                spool.seek(0)
                try:
                    cliutil.write_atomically(item, spool)
                except OSError as exc:
                    raise cliutil.os_error(exc, item) from None
                _err(f"reformatted {item}")
            else:
                if printed:
                    typer.echo("")
                for piece in iter(lambda: spool.read(1 << 16), ""):
                    typer.echo(piece, nl=False)
                printed += 1
    if check_only or in_place:
        verb = "would be reformatted" if check_only else "reformatted"
        summary = f"{cliutil.plural(changed, 'file')} {verb}, {unchanged} unchanged"
        _err(summary + (f", {invalid} invalid (left as they are)" if invalid else ""))
    raise typer.Exit(code)


def _format_into(out: Any, path: str, stdin: str | None) -> bool:
    """Write the canonical form of a file's games to ``out``, one game at a time; False
    after reporting an invalid game (then what was written is to be thrown away)."""
    from sunlog.notation.replay import replay as replay_game
    from sunlog.notation.writer import write_game

    if cliutil.input_is_json(path, stdin):
        raise CliError("fmt formats notation; for JSON use: sunlog convert --to sun", path=path)
    ok = True
    first = True
    try:
        for game in cliutil.read_games_from(path, stdin_text=stdin):
            result = replay_game(game, canonical=True)
            if result.error is not None:
                result.error.path = path
                line = result.error.line
                source = cliutil.source_line(path, line, text=stdin) if line else None
                _err(cliutil.error_report(result.error, game.index, source))
                ok = False
            elif ok:
                out.write(("" if first else "\n") + write_game(game, result.canonical))
                first = False
    except LogError as exc:
        exc.path = path
        source = cliutil.source_line(path, exc.line, text=stdin) if exc.line else None
        _err(cliutil.error_report(exc, None, source))
        return False
    return ok


def _same_text(path: str, stdin: str | None, formatted: Any) -> bool:
    """Whether a file (or standard input) already reads exactly as ``formatted``, compared
    piece by piece, line ends as written."""
    if stdin is not None:
        return bool(stdin == formatted.read())
    size = 1 << 16
    try:
        with open(path, encoding="utf-8", newline="", errors="replace") as handle:
            while True:
                mine, theirs = handle.read(size), formatted.read(size)
                if mine != theirs:
                    return False
                if not mine:
                    return True
    except OSError as exc:
        raise cliutil.os_error(exc, path) from None


# ------------------------------------------------------------------ pictures


OutOpt = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="OUT", help="Write here (- or nothing: stdout)."),
]


def _write_output(text: str, output: str | None, inputs: list[str]) -> None:
    """Print ``text``, or write it to ``output`` (atomically), never onto an input."""
    if output in (None, STDIN):
        typer.echo(text, nl=False)
        return
    if any(cliutil.same_file(path, output) for path in inputs):
        raise CliError("refusing to overwrite the input: choose another -o", path=output)
    try:
        cliutil.write_atomically(output, text)
    except OSError as exc:
        raise cliutil.os_error(exc, output) from None


@app.command()
@guarded
def render(
    path: PathArg,
    game: GameOpt = 1,
    at: AtOpt = None,
    output: OutOpt = None,
    size: Annotated[
        float | None,
        typer.Option("--size", min=1, metavar="PX", help="Width in pixels (default: natural)."),
    ] = None,
) -> None:
    """Draw the board after N moves (default: all) as an SVG picture."""
    from sunlog.views.svg import board_svg

    _chosen, replayed = _load(path, game, at, canonical=True)
    forms = replayed.canonical or ()
    last = forms[-1] if forms else None
    _write_output(board_svg(replayed.board, last_move=last, size=size), output, [path])


@app.command()
@guarded
def html(path: PathArg, game: GameOpt = 1, output: OutOpt = None) -> None:
    """Write a game as one self-contained HTML page that replays it (no network needed)."""
    from sunlog.notation.replay import new_board
    from sunlog.views.html import game_html

    chosen, _replayed = _load(path, game, None)
    entries = [(gm.move, gm.text, gm.annotation, gm.comments) for gm in chosen.moves]
    page = game_html(
        new_board(chosen),
        entries,
        tags=[(t.name, t.value) for t in chosen.tags],
        start_comments=chosen.comments,
    )
    _write_output(page, output, [path])


# ------------------------------------------------------------------ play


#: Options that play and stats share.
VariantOption = Annotated[str, typer.Option("--variant", metavar="V", help="sun, sun-2 or sun-3.")]
PolicyOption = Annotated[
    str | None,
    typer.Option(
        "--policy", "-p", metavar="NAME", help="random, greedy, patient or lookahead (the default)."
    ),
]


@app.command()
@guarded
def play(
    deal: Annotated[
        int | None,
        typer.Option(
            "--deal", "-d", min=0, max=LAST_DEAL, metavar="N", help="The deal (default: random)."
        ),
    ] = None,
    variant: VariantOption = "sun",
    policy: PolicyOption = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="S", help="The policy's random seed (default: the deal)."),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the game as one JSON object.")
    ] = False,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="OUT", help="Write here (- or nothing: stdout)."),
    ] = None,
) -> None:
    """Play a deal by a named policy and print the log (its result on stderr).

    The log names the deal, the variant and the player (the policy), so that check and
    replay read it back; the same options always play the same game.
    """
    import secrets

    from sunlog.engine.board import Status, Variant
    from sunlog.notation.game import Game, Tag
    from sunlog.notation.writer import write_game
    from sunlog.play.policies import DEFAULT_POLICY, get_policy
    from sunlog.play.policies import play as play_game

    try:
        kind = Variant.parse(variant)
        chosen = get_policy(policy or DEFAULT_POLICY)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    number = secrets.randbelow(2**64) if deal is None else deal
    board = play_game(number, kind, chosen, seed=seed)
    status = board.status()
    result = "*" if status is Status.PLAYING else status.value
    tags = [
        Tag("Event", "sunlog play"),
        Tag("Player", f"sunlog {chosen.name}"),
        *([Tag("Seed", str(seed))] if seed is not None else []),
        Tag("Variant", kind.value),
        Tag("Deal", str(number)),
    ]
    game = Game.of_moves(board.move_stack, tags, result)
    if json_out:
        from sunlog.notation.jsonio import game_to_json

        text = cliutil.dumps(game_to_json(game)) + "\n"
    else:
        text = write_game(game)
    _write_output(text, output, [])
    _err(
        f"deal {number} ({kind.value}) by {chosen.name}: {result} after "
        f"{cliutil.plural(board.move_count, 'move')}, {board.on_foundations()} of 104 cards home"
    )


@app.command()
@guarded
def stats(
    variant: VariantOption = "sun",
    policy: PolicyOption = None,
    games: Annotated[
        int, typer.Option("--games", "-n", min=0, metavar="N", help="How many deals.")
    ] = 1000,
    first_deal: Annotated[
        int, typer.Option("--first-deal", min=0, metavar="D", help="The first deal.")
    ] = 1,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", min=0, metavar="N", help="Processes (0: one per core)."),
    ] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Play deals D..D+N-1 with a policy: how often it wins, with a 95% Wilson interval.

    The figures depend only on the options, never on -j.
    """
    from sunlog.play.policies import DEFAULT_POLICY
    from sunlog.play.stats import run_stats

    workers = jobs or (os.cpu_count() or 1)
    bar = _count_bar("playing", games) if games >= PROGRESS_FILES else None
    try:
        result = run_stats(
            variant,
            policy or DEFAULT_POLICY,
            games,
            first_deal=first_deal,
            jobs=workers,
            progress=bar,
        )
    except ValueError as exc:
        raise CliError(str(exc)) from None
    finally:
        if bar is not None:
            bar(-1, games)
    typer.echo(cliutil.dumps(result.to_json()) if json_out else result.to_text())


def _count_bar(what: str, total: int) -> Callable[[int, int], None] | None:
    """A rich progress bar on stderr, fed ``(done, total)``; ``None`` off a terminal."""
    if not _stderr_is_terminal():
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


# ------------------------------------------------------------------ solver


MaxNodesOpt = Annotated[
    int,
    typer.Option("--max-nodes", min=1, metavar="N", help="Give up after N positions."),
]
TimeoutOpt = Annotated[
    float | None,
    typer.Option("--timeout", min=0, metavar="S", help="Give up after S seconds."),
]


@app.command()
@guarded
def solve(
    path: Annotated[
        str | None,
        typer.Argument(metavar="[PATH]", help="A log: solve its position (- for stdin)."),
    ] = None,
    deal: Annotated[
        int | None,
        typer.Option(
            "--deal", "-d", min=0, max=LAST_DEAL, metavar="N", help="Solve deal N from its start."
        ),
    ] = None,
    variant: Annotated[
        str, typer.Option("--variant", metavar="V", help="sun, sun-2 or sun-3 (with --deal).")
    ] = "sun",
    game: GameOpt = 1,
    at: AtOpt = None,
    max_nodes: MaxNodesOpt = 1_000_000,
    timeout: TimeoutOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Can a deal (--deal N) or a log's position (PATH, --at N) still be won?

    Prints the winning game as a log (the moves played, then the solver's line) on stdout,
    the verdict on stderr; --json prints {"deal", "variant", "verdict", "nodes", "seconds",
    "log"}. Exit 0 whatever the verdict (won, lost, or unknown within the budget).
    """
    from sunlog.engine.board import Board, Variant
    from sunlog.notation.game import Game, Tag
    from sunlog.play.solver import solve as solve_position

    if (path is None) == (deal is None):
        raise CliError("give either a PATH or --deal N")
    if path is not None:
        chosen, replayed = _load(path, game, at)
        board = replayed.board
        tags = tuple(t for t in chosen.tags if t.name != "Result")
        played = [gm.move for gm in chosen.moves[: replayed.moves]]
    else:
        try:
            kind = Variant.parse(variant)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        board = Board(kind, deal=deal)
        tags = (Tag("Variant", kind.value), Tag("Deal", str(deal)))
        played = []
    try:
        result = solve_position(board, max_nodes=max_nodes, timeout=timeout)
    except ValueError as exc:
        raise CliError(str(exc), path=path) from None
    log = None
    if result.line is not None:
        from sunlog.notation.writer import write_game

        solved = Game.of_moves([*played, *result.line], tags, "won")
        log = write_game(solved)
    if json_out:
        typer.echo(cliutil.dumps(result.to_json(log=log)))
        return
    what = f"deal {result.deal}" if result.deal is not None else "this position"
    verdict = {
        "won": f"won: a winning line of {len(result.line or ())} moves",
        "lost": "lost: no sequence of moves wins",
        "unknown": "unknown: the search ran out of budget (raise --max-nodes or --timeout)",
    }[result.verdict.value]
    _err(
        f"{what} ({result.variant}): {verdict}; "
        f"{cliutil.plural(result.nodes, 'position')} searched in {result.seconds:.2f} s"
    )
    if log is not None:
        typer.echo(log, nl=False)


@app.command()
@guarded
def analyze(
    path: PathArg,
    game: GameOpt = 1,
    max_nodes: MaxNodesOpt = 200_000,
    timeout: TimeoutOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
) -> None:
    """Find where a game that was not won let its win slip, and a winning line from there.

    Each probe of a position is a search within --max-nodes/--timeout; the answer says
    whether it is proved. Exit 0 whatever the answer, 1 for an invalid log.
    """
    from sunlog.notation.replay import new_board
    from sunlog.play.solver import analyze as analyze_game

    chosen, _replayed = _load(path, game, None)
    moves = [gm.move for gm in chosen.moves]
    try:
        found = analyze_game(new_board(chosen), moves, max_nodes=max_nodes, timeout=timeout)
    except ValueError as exc:
        raise CliError(str(exc), path=path) from None
    if json_out:
        typer.echo(cliutil.dumps({"path": path, "game": chosen.index, **found.to_json()}))
        return
    for line in cliutil.analysis_lines(found, chosen, len(moves)):
        typer.echo(line)


def main() -> None:
    """Entry point of the ``sunlog`` console script and of ``python -m sunlog``."""
    app(prog_name="sunlog")
