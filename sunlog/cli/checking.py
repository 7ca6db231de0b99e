"""What ``sunlog check`` does: expand the paths, check every game (in ``-j`` processes when
asked), print the reports and the summary, and choose the exit code (:func:`run_check`,
which the command in :mod:`sunlog.cli.check` runs). Also the one look of the progress bars
and the one-line wording of I/O errors and bugs that the guard of :mod:`~sunlog.cli.common`
prints.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from sunlog.cli import inputs, reports
from sunlog.cli.exits import INVALID, OK, USAGE
from sunlog.cli.inputs import STDIN, CliError
from sunlog.notation import jsonlayout
from sunlog.notation.errors import LogError

if TYPE_CHECKING:  # rich is imported only when a bar is shown
    from rich.progress import Progress as RichProgress
    from rich.progress import ProgressColumn

__all__ = [
    "PROGRESS_FILES",
    "Echo",
    "Progress",
    "internal_error",
    "io_cause",
    "not_a_log",
    "progress_bar",
    "run_check",
    "silence_stdout",
    "stderr_bar",
]


#: Files from which ``check`` shows a progress bar (only when stderr is a terminal).
PROGRESS_FILES = 20

#: Print a line on stdout (``err=False``) or stderr (the command passes ``typer.echo``).
Echo = Callable[[str, bool], None]
#: A progress bar fed each file's number of games, then ``None`` at the end.
Progress = Callable[[int | None], None]


def run_check(
    paths: list[str],
    *,
    json_out: bool,
    verbose: bool,
    jobs: int,
    quiet: bool,
    echo: Echo,
    progress: Callable[[list[str]], Progress],
) -> int:
    """Check every game of ``paths``, print the reports and the summary; the exit code."""
    files: list[str] = []
    code = OK
    for found in inputs.expand_paths(paths):
        if isinstance(found, CliError):
            echo(str(found), True)
            code = USAGE
        else:
            files.append(found)
    stdin_text = inputs.read_stdin() if STDIN in files else None
    totals = reports.CheckTotals()
    bar = progress(files)
    for item in _reports(files, verbose=verbose, jobs=jobs, stdin_text=stdin_text, bar=bar):
        if isinstance(item, CliError):
            echo(str(item), True)
            code = USAGE
            continue
        totals.add(item)
        for warning in item.warnings:  # on stderr: the verdict and the JSON stay as they are
            echo(warning, True)
        if json_out:
            echo(jsonlayout.dumps(item.to_json()), False)
        elif not item.valid or verbose:
            echo(item.text(), False)
    if not quiet and files:
        echo(totals.summary(len(files)), True)
    if code == OK and totals.invalid:
        code = INVALID
    return code


def _reports(
    files: list[str], *, verbose: bool, jobs: int, stdin_text: str | None, bar: Progress
) -> Iterator[reports.CheckReport | CliError]:
    """Every game's report, file after file in the order given, and a :class:`CliError`
    for a file that could not be read. With ``jobs`` above 1 the files are checked in
    that many processes; alone, a file's reports stream as its games are checked."""
    workers = jobs or (os.cpu_count() or 1)
    try:
        if workers > 1 and len(files) > 1:
            from sunlog.play.workers import worker_pool

            with worker_pool(min(workers, len(files))) as pool:
                texts = [stdin_text if f == STDIN else None for f in files]
                # Several files a task when there are many: fewer round trips between processes.
                chunk = max(1, min(8, len(files) // (4 * workers)))
                tasks = [
                    pool.submit(
                        reports.check_files, files[i : i + chunk], verbose, texts[i : i + chunk]
                    )
                    for i in range(0, len(files), chunk)
                ]
                for task in tasks:  # in the order given, whatever order they finish in
                    for report in task.result():
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


def stderr_bar(*columns: ProgressColumn | str, redirect_stdout: bool = False) -> RichProgress:
    """A transient rich progress bar on standard error (a terminal), not yet started: the
    one look of check's, stats' and solve's bars. ``columns`` as rich takes them."""
    from rich.console import Console
    from rich.progress import Progress as RichProgress

    return RichProgress(
        *columns,
        console=Console(stderr=True, force_terminal=True),
        transient=True,
        redirect_stdout=redirect_stdout,
        redirect_stderr=False,
    )


def progress_bar(files: list[str], *, shown: bool, redirect_stdout: bool) -> Progress:
    """A rich progress bar on stderr when ``shown`` (stderr is a terminal, many files)."""
    if not shown:
        return lambda checked: None
    # Reports printed meanwhile go above the bar only when stdout is that same terminal.
    progress = stderr_bar(redirect_stdout=redirect_stdout)
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


def not_a_log(exc: LogError) -> str:
    """A whole-file fault: with its line and a caret when it has one, else ``sunlog: ...``."""
    if exc.line is None or exc.path is None:
        where = f"{exc.path}: " if exc.path else ""
        return reports.printable(f"sunlog: {where}{exc.message}")
    source = reports.source_line(exc.path, exc.line, text=inputs.stdin_text(exc.path))
    return reports.error_report(exc, None, source)


def io_cause(exc: OSError | UnicodeError) -> str:
    """An I/O error on one line: ``path: cause`` when it names a file, else the cause."""
    from sunlog.cli import outputs

    if not isinstance(exc, OSError) or exc.strerror is None:
        return reports.printable(str(exc))
    where = f"{reports.printable(str(exc.filename))}: " if exc.filename is not None else ""
    return where + outputs.stream_cause(exc)


def internal_error(exc: BaseException) -> str:
    """A bug's one-line report: never a traceback on a user."""
    if isinstance(exc, MemoryError):
        return "sunlog: out of memory"
    what = reports.printable(f"{type(exc).__name__}: {exc}")[:300]
    return f"sunlog: internal error (a bug in sunlog, please report it): {what}"


def silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (as under a test runner)
        pass
