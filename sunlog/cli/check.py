"""``sunlog check``: parse and replay every game of the files; report each invalid one."""

from __future__ import annotations

from typing import Annotated

import typer

from sunlog.cli import checking, common
from sunlog.cli.common import app, guarded


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
    quiet: common.QuietOpt = False,
) -> None:
    """Parse and replay every game; report each invalid one with path:line:col and why.

    Exit 0 when every game is valid, 1 when some log is invalid (or a file is not a log:
    empty, not UTF-8, not a game), 2 when a path is missing or unreadable.
    """
    code = checking.run_check(
        paths,
        json_out=json_out,
        verbose=verbose,
        jobs=jobs,
        quiet=quiet,
        echo=_echo,
        progress=_progress,
    )
    raise typer.Exit(code)


def _echo(text: str, err: bool) -> None:
    typer.echo(text, err=err)


def _progress(files: list[str]) -> checking.Progress:
    """A rich progress bar on stderr when it is a terminal and there are many files."""
    return checking.progress_bar(
        files,
        shown=len(files) >= common.PROGRESS_FILES and common.stderr_is_terminal(),
        redirect_stdout=common.stdout_is_terminal(),
    )
