"""``sunlog check``: parse and replay every game of the files; report each invalid one."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    pass
from sunlog.cli import common, inputs, reports
from sunlog.cli.common import INVALID, OK, USAGE, app, err, guarded
from sunlog.cli.inputs import STDIN, CliError


@app.command(epilog="Example: sunlog check samples/*.sun --json")
@guarded
def check(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH", help="Log files, directories (every *.sun below) or - for stdin."
        ),
    ],
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="One JSON object a game, a line: path, game, valid, moves, result, error.",
        ),
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
    for item in inputs.expand_paths(paths):
        if isinstance(item, CliError):
            err(str(item))
            code = USAGE
        else:
            files.append(item)
    stdin_text = inputs.read_stdin() if STDIN in files else None
    totals = reports.CheckTotals()
    for found in _reports(files, verbose=verbose, jobs=jobs, stdin_text=stdin_text):
        if isinstance(found, CliError):
            err(str(found))
            code = USAGE
            continue
        totals.add(found)
        if json_out:
            typer.echo(reports.dumps(found.to_json()))
        elif not found.valid or verbose:
            typer.echo(found.text())
    if not quiet and files:
        err(totals.summary(len(files)))
    if code == OK and totals.invalid:
        code = INVALID
    raise typer.Exit(code)


def _reports(
    files: list[str], *, verbose: bool, jobs: int, stdin_text: str | None
) -> Iterator[reports.CheckReport | CliError]:
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
                    reports.check_file, files, [verbose] * len(files), texts, chunksize=chunk
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
                for item in reports.check_reports(path, verbose, text):
                    games += isinstance(item, reports.CheckReport)
                    yield item
                bar(games)
    finally:
        bar(None)


def _progress(files: list[str]) -> Callable[[int | None], None]:
    """A rich progress bar on stderr when it is a terminal and there are many files."""
    if len(files) < common.PROGRESS_FILES or not common.stderr_is_terminal():
        return lambda checked: None
    from rich.console import Console
    from rich.progress import Progress

    # Reports printed meanwhile go above the bar only when stdout is that same terminal.
    progress = Progress(
        console=Console(stderr=True, force_terminal=True),
        transient=True,
        redirect_stdout=common.stdout_is_terminal(),
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
