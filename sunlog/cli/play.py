"""Playing: ``play`` (a policy plays a deal), ``stats``, ``solve`` and ``analyze``."""

from __future__ import annotations

import os
import stat
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from sunlog.cli import common, exits, inputs, reports
from sunlog.cli.common import (
    LAST_DEAL,
    AtOpt,
    GameOpt,
    MaxNodesOpt,
    TimeoutOpt,
    VariantOption,
    app,
    count_bar,
    err,
    guarded,
    write_output,
)
from sunlog.cli.inputs import CliError
from sunlog.engine import Variant
from sunlog.notation import jsonlayout
from sunlog.play.policies import POLICIES

#: ``play`` without ``--deal`` picks a deal below this: a number a person can say and
#: type again (every deal up to 2^64 - 1 stays playable with ``--deal``).
SAYABLE_DEALS = 1_000_000

if TYPE_CHECKING:
    #: A policy's name (at run time the choice below).
    PolicyName = str
else:
    #: ``--policy``: a choice of the policies sunlog has, so that a shell completes it and
    #: a wrong one is refused as any choice is.
    PolicyName = StrEnum("PolicyName", {name.upper(): name for name in POLICIES})

PolicyOption = Annotated[
    PolicyName | None,
    typer.Option(
        "--policy",
        "-p",
        metavar="NAME",
        case_sensitive=False,
        help="random, greedy, patient or lookahead (the default).",
    ),
]

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from rich.progress import Progress as RichProgress

    from sunlog.engine.board import Board
    from sunlog.play.batch import BatchProgress
    from sunlog.play.study import Figures

#: What a search under :func:`_searching` finds.
_Found = TypeVar("_Found")

JobsOpt = Annotated[
    int,
    typer.Option("--jobs", "-j", min=0, metavar="N", help="Processes (0: one per core)."),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Run on this dask.distributed scheduler, tcp://host:8786 (the cluster extra).",
    ),
]


def parse_deals(text: str) -> range:
    """``A-B`` (or ``N``) as the range of deals A..B; a usage error for anything else."""
    first, dash, last = text.strip().partition("-")
    try:
        a = int(first)
        b = int(last) if dash else a
    except ValueError:
        raise CliError(f"--deals: {text!r} is not a range A-B of deal numbers") from None
    if not 0 <= a <= b <= LAST_DEAL:
        raise CliError(f"--deals: {text!r}: need 0 <= A <= B < 2^64")
    return range(a, b + 1)


def _progress_text(variant: str, counts: BatchProgress) -> str:
    low, high = counts.interval()
    return (
        f"{variant}: won {counts.won} lost {counts.lost} unknown {counts.unknown}, "
        f"winnable {low:.1%}..{high:.1%}"
    )


def _batch_bar(
    variant: str, total: int
) -> tuple[RichProgress, Callable[[BatchProgress], None]] | None:
    """A rich progress bar on stderr (done/total, the running interval); None off a terminal."""
    if not common.stderr_is_terminal():
        return None
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from sunlog.cli.checking import stderr_bar

    bar = stderr_bar(
        TextColumn("{task.description}"),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    task = bar.add_task(variant, total=total)
    bar.start()

    def update(counts: BatchProgress) -> None:
        bar.update(task, completed=counts.done, description=_progress_text(variant, counts))

    return bar, update


def _searching(
    text: str, path: str | None, search: Callable[[Callable[[int], None] | None], _Found]
) -> _Found:
    """Run ``search`` (given the progress callback, or ``None``) under a rich spinner on
    stderr (a terminal) saying ``text``: what it does, ``{nodes:,}`` the positions
    searched so far, and the budget. Nothing is drawn off a terminal. The solver's
    ``ValueError`` (an unknown deck) is a usage error about ``path``."""
    shown = None
    if common.stderr_is_terminal():
        from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

        from sunlog.cli.checking import stderr_bar

        shown = stderr_bar(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
        task = shown.add_task(text.format(nodes=0), total=None)
        shown.start()

    def update(nodes: int) -> None:
        if shown is not None:
            shown.update(task, description=text.format(nodes=nodes))

    try:
        return search(None if shown is None else update)
    except ValueError as exc:
        raise CliError(str(exc), path=path) from None
    finally:
        if shown is not None:
            shown.stop()


def _budget_text(timeout: float | None) -> str:
    """The time part of a search budget, if there is one."""
    return "" if timeout is None else f", {timeout:g} s at most"


def _solve_batch(
    deals_text: str,
    variant: str,
    max_nodes: int,
    timeout: float | None,
    output: str | None,
    jobs: int,
    lines: bool,
    scheduler: str | None,
    quiet: bool,
) -> None:
    """``solve --deals A-B -o FILE``: solve the deals FILE lacks, one line each as they end."""
    from sunlog.play.batch import BatchError, BatchSettings, run_batch
    from sunlog.play.cluster import ClusterError

    deals = parse_deals(deals_text)
    if output is None or output == "-":
        raise CliError("--deals needs -o FILE: the results file (it is also what resumes)")
    if scheduler is not None and jobs != 1:
        raise CliError("give -j N or --scheduler ADDRESS, not both")
    try:
        settings = BatchSettings(variant, max_nodes, timeout, lines)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    shown = _batch_bar(settings.variant, deals.stop - deals.start)  # len() fails past 2^63
    try:
        try:
            summary = run_batch(
                deals,
                settings,
                output,
                jobs=jobs or (os.cpu_count() or 1),
                scheduler=scheduler,
                progress=None if shown is None else shown[1],
            )
        finally:
            if shown is not None:
                shown[0].stop()
    except (BatchError, ClusterError) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:  # reading, locking or writing the results file
        raise inputs.os_error(exc, output) from None
    except KeyboardInterrupt:
        err(f"sunlog: {output}: interrupted; run the same command again to go on")
        raise typer.Exit(exits.USAGE) from None
    counts = summary.progress
    if summary.dropped:
        err(f"sunlog: {output}: cut off a half-written last line ({summary.dropped} bytes)")
    common.summary(
        f"deals {deals.start}-{deals.stop - 1}: {_progress_text(settings.variant, counts)} "
        f"(95% Wilson); {summary.solved} solved now, {counts.skipped} already in {output}",
        quiet,
    )


@app.command(epilog="Example: sunlog play --deal 5 --policy greedy -o deal5.sun")
@guarded
def play(
    deal: Annotated[
        int | None,
        common.deal_option("The deal (default: a random one under a million)."),
    ] = None,
    variant: VariantOption = Variant.SUN,
    policy: PolicyOption = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="S", help="The policy's random seed (default: the deal)."),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the game as one JSON object.")
    ] = False,
    output: common.OutOpt = None,
    quiet: common.QuietOpt = False,
) -> None:
    """Play a deal by a named policy and print the log (its result on stderr).

    The log names the deal, the variant and the player (the policy), so that check and
    replay read it back; the same options always play the same game.
    """
    import secrets

    from sunlog.engine.board import Status
    from sunlog.notation.game import Game, Tag
    from sunlog.notation.writer import write_game
    from sunlog.play.policies import DEFAULT_POLICY, get_policy
    from sunlog.play.policies import play as play_game

    kind = variant
    chosen = get_policy(policy or DEFAULT_POLICY)
    number = secrets.randbelow(SAYABLE_DEALS) if deal is None else deal
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

        text = jsonlayout.dumps(game_to_json(game)) + "\n"  # one line, as every --json
    else:
        text = write_game(game)
    write_output(text, output, [])
    common.summary(
        f"deal {number} ({kind.value}) by {chosen.name}: {result} after "
        f"{reports.plural(board.move_count, 'move')}, {board.on_foundations()} of 104 cards home",
        quiet,
    )


@app.command(epilog="Example: sunlog stats --policy greedy --games 200 -j 2")
@guarded
def stats(
    variant: VariantOption = Variant.SUN,
    policy: PolicyOption = None,
    games: Annotated[
        int, typer.Option("--games", min=1, metavar="N", help="How many deals (1 or more).")
    ] = 1000,
    first_deal: Annotated[
        int, typer.Option("--first-deal", min=0, metavar="D", help="The first deal.")
    ] = 1,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", min=0, metavar="N", help="Processes (0: one per core)."),
    ] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    sources: Annotated[
        list[str] | None,
        typer.Option(
            "--from",
            metavar="FILE",
            help="Sum up results files of solve --deals instead (repeat for several).",
        ),
    ] = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Play deals D..D+N-1 with a policy: how often it wins, with a 95% Wilson interval.

    The figures depend only on the options, never on -j or --scheduler. With --from FILE,
    the solver's results instead: per variant won / proved lost / unknown and winnability
    as a 95% Wilson interval (unknown as lost for the low end, as won for the high end).
    """
    from sunlog.play.cluster import ClusterError
    from sunlog.play.policies import DEFAULT_POLICY
    from sunlog.play.stats import run_stats

    if sources:
        if policy is not None or scheduler is not None:
            raise CliError("--from FILE sums up solver results: no --policy or --scheduler")
        _study(sources, json_out)
        return
    if scheduler is not None and jobs != 1:
        raise CliError("give -j N or --scheduler ADDRESS, not both")
    workers = jobs or (os.cpu_count() or 1)
    bar = count_bar("playing", games) if games >= common.PROGRESS_FILES else None
    try:
        result = run_stats(
            variant.value,
            policy or DEFAULT_POLICY,
            games,
            first_deal=first_deal,
            jobs=workers,
            progress=bar,
            scheduler=scheduler,
        )
    except (ValueError, ClusterError) as exc:
        raise CliError(str(exc)) from None
    finally:
        if bar is not None:
            bar(-1, games)
    if json_out:
        common.json_line(result.to_json())
    else:
        typer.echo(result.to_text())


def _study(sources: list[str], json_out: bool) -> None:
    """``stats --from FILE...``: the figures of solver results, as a table or JSON."""
    from sunlog.play.batch import BatchError
    from sunlog.play.study import load_results, summarize

    for source in sources:
        try:  # the OS's own words: a loop of links is not a missing file
            regular = stat.S_ISREG(os.stat(source).st_mode)
        except OSError as exc:
            raise inputs.os_error(exc, source) from None
        if not regular:
            raise CliError("not a file", path=source)
    try:
        loaded = load_results(sources)
    except BatchError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise inputs.os_error(exc, str(exc.filename or sources[0])) from None
    figures = summarize(loaded.records)
    if loaded.partial:
        err(f"sunlog: ignored {reports.plural(loaded.partial, 'half-written last line')}")
    if loaded.duplicates:
        err(f"sunlog: counted {reports.plural(loaded.duplicates, 'repeated deal')} once")
    if json_out:
        common.json_line({"results": [f.to_json() for f in figures]})
        return
    _print_study(figures)


def _deals_text(first: int, last: int, contiguous: bool) -> str:
    return f"{first}-{last}" if contiguous else f"{first}-{last} (gaps)"


def _print_study(figures: Sequence[Figures]) -> None:
    """The table of verdicts and intervals, then per row the times and the budgets."""
    import sys

    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stdout, highlight=False, width=100)
    if not figures:
        console.print("no results")
        return
    table = Table(title="Winnability (95% Wilson; unknown as lost / as won)")
    for name in ("variant", "max nodes", "deals", "won", "lost", "unknown", "winnable"):
        table.add_column(name, justify="left" if name == "variant" else "right")
    for f in figures:
        low, high = f.interval
        table.add_row(
            f.variant,
            "none" if f.max_nodes is None else f"{f.max_nodes:,}",
            f"{f.deals} ({_deals_text(f.first_deal, f.last_deal, f.contiguous)})",
            str(f.won),
            str(f.lost),
            str(f.unknown),
            f"{low:.2%} .. {high:.2%}",
        )
    console.print(table)
    for f in figures:
        budget = "no limit" if f.max_nodes is None else f"{f.max_nodes:,} positions"
        timeout = "" if f.timeout is None else f", timeout {f.timeout} s"
        console.print(f"\n{f.variant} at {budget}{timeout}: solve times ({f.seconds:.0f} s in all)")
        lower = 0.0
        for below, n in f.times:
            band = f"{lower:g}-{below:g} s" if below is not None else f">= {lower:g} s"
            bar = "#" * max(1, round(40 * n / f.deals))
            console.print(f"  {band:>12} {n:>7}  {bar}")
            lower = below if below is not None else lower
        console.print("  decided within a budget of")
        for nodes, n in f.decided_within:
            share = n / f.deals if f.deals else 0.0
            bar = "#" * round(40 * share)
            console.print(f"  {nodes:>12,} {share:>7.1%}  {bar}")


@app.command(epilog="Example: sunlog solve --deal 7 --variant sun-3")
@guarded
def solve(
    path: Annotated[
        str | None,
        typer.Argument(metavar="PATH", help="A log: solve its position (- for stdin)."),
    ] = None,
    deal: Annotated[
        int | None,
        common.deal_option("Solve deal N from its start."),
    ] = None,
    variant: Annotated[
        Variant,
        typer.Option(
            "--variant",
            metavar="V",
            case_sensitive=False,
            help="sun, sun-2 or sun-3 (with --deal, --deals).",
        ),
    ] = Variant.SUN,
    game: GameOpt = 1,
    at: AtOpt = None,
    position: common.PositionOpt = None,
    max_nodes: MaxNodesOpt = 1_000_000,
    timeout: TimeoutOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    deals: Annotated[
        str | None,
        typer.Option(
            "--deals", metavar="A-B", help="Solve deals A..B into -o FILE, one JSON line each."
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="FILE", help="With --deals: the results file."),
    ] = None,
    jobs: JobsOpt = 1,
    lines: Annotated[
        bool, typer.Option("--lines", help="With --deals: write each winning line too.")
    ] = False,
    scheduler: SchedulerOpt = None,
    quiet: common.QuietOpt = False,
) -> None:
    """Can a deal (--deal N) or a log's position (PATH, --at N) still be won?

    Prints the winning game as a log (the moves played, then the solver's line) on stdout,
    the verdict on stderr; --json prints one object: deal, variant, verdict, nodes, seconds
    and log. Exit 0 whatever the verdict (won, lost, or unknown within the budget).

    --deals A-B -o FILE solves many deals, appending one JSON line per deal to FILE as each
    finishes; the same command again skips the deals FILE holds (docs/winnability.md).
    """
    from sunlog.engine.board import Board
    from sunlog.notation.game import Game, Tag
    from sunlog.play.solver import solve as solve_position

    if deals is not None:
        if path is not None or deal is not None or position is not None:
            raise CliError("give --deals A-B without a PATH, --deal N or --position")
        if json_out or at is not None:
            raise CliError("--json and --at go with one deal or a PATH: --deals writes JSON lines")
        _solve_batch(
            deals, variant.value, max_nodes, timeout, output, jobs, lines, scheduler, quiet
        )
        return
    if output is not None or lines or scheduler is not None or jobs != 1:
        raise CliError("-o, -j, --lines and --scheduler go with --deals A-B")
    if deal is not None and (path is not None or position is not None):
        raise CliError("give either a PATH, --position STRING or --deal N")
    if deal is None:
        path, chosen = common.chosen_game(path, position, game)
        replayed = common.checked(path, chosen, at)
        board = replayed.board
        tags = tuple(t for t in chosen.tags if t.name != "Result")
        played = [gm.move for gm in chosen.moves[: replayed.moves]]
    else:
        kind = variant
        board = Board(kind, deal=deal)
        tags = (Tag("Variant", kind.value), Tag("Deal", str(deal)))
        played = []
    what = solved_name(board, from_deal=deal is not None)
    budget = f"{max_nodes:,} positions{_budget_text(timeout)}"
    result = _searching(
        f"solving {what} ({board.variant.value}): {{nodes:,}} of at most {budget}",
        path,
        lambda told: solve_position(board, max_nodes=max_nodes, timeout=timeout, progress=told),
    )
    log = None
    if result.line is not None:
        from sunlog.notation.writer import write_game

        solved = Game.of_moves([*played, *result.line], tags, "won")
        log = write_game(solved)
    if json_out:
        common.json_line(result.to_json(log=log))
        return
    verdict = {
        "won": f"won: a winning line of {len(result.line or ())} moves",
        "lost": "lost: no sequence of moves wins",
        "unknown": "unknown: the search ran out of budget (raise --max-nodes or --timeout)",
    }[result.verdict.value]
    common.summary(
        f"{what} ({result.variant}): {verdict}; "
        f"{reports.plural(result.nodes, 'position')} searched in {result.seconds:.2f} s",
        quiet,
    )
    if log is not None:
        typer.echo(log, nl=False)


def solved_name(board: Board, *, from_deal: bool = False) -> str:
    """What a search was asked about, in words: ``deal 777`` from its start, else ``the
    position after move 40 of deal 777`` (of the game, without a deal number)."""
    deal = board.deal_number
    if from_deal or (board.move_count == 0 and deal is not None):
        return f"deal {deal}"
    of = f" of deal {deal}" if deal is not None else ""
    return f"the position after move {board.move_count}{of}"


@app.command(epilog="Example: sunlog analyze samples/lost-sun.sun --max-nodes 50000")
@guarded
def analyze(
    path: common.LogArg = None,
    position: common.PositionOpt = None,
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

    path, chosen = common.chosen_game(path, position, game)
    replayed = common.checked(path, chosen, None)
    moves = [gm.move for gm in chosen.moves]
    start = new_board(chosen)
    budget = f"at most {max_nodes:,} a search{_budget_text(timeout)}"
    found = _searching(
        f"analyzing {len(moves)} moves: {{nodes:,}} positions ({budget})",
        path,
        lambda told: analyze_game(
            start, moves, max_nodes=max_nodes, timeout=timeout, progress=told
        ),
    )
    if json_out:
        common.json_line({"path": path, "game": chosen.index, **found.to_json()})
        return
    won = replayed.board.is_won()
    if start.move_count:  # a game from a Position tag: say where it starts
        typer.echo(f"from {solved_name(start)}, move numbers counted from there")
    for line in reports.analysis_lines(found, chosen, len(moves), won=won):
        for piece in _on_terminal(line):
            typer.echo(piece)


def _on_terminal(line: str) -> list[str]:
    """``line`` wrapped to the terminal between moves and words (a long winning line
    would be broken inside a move by the terminal); whole when stdout is no terminal."""
    import shutil
    import sys

    if not sys.stdout.isatty():
        return [line]
    from sunlog.views.terminal import wrap_words

    return wrap_words(line, shutil.get_terminal_size().columns, indent="  ")
