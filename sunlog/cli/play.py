"""Playing: ``play`` (a policy plays a deal), ``stats``, ``solve`` and ``analyze``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    pass
from sunlog.cli import common, reports
from sunlog.cli.common import (
    LAST_DEAL,
    AtOpt,
    GameOpt,
    MaxNodesOpt,
    PathArg,
    PolicyOption,
    TimeoutOpt,
    VariantOption,
    app,
    count_bar,
    err,
    guarded,
    load,
    write_output,
)
from sunlog.cli.inputs import CliError


@app.command(epilog="Example: sunlog play --deal 5 --policy greedy -o deal5.sun")
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

        text = reports.dumps(game_to_json(game)) + "\n"
    else:
        text = write_game(game)
    write_output(text, output, [])
    err(
        f"deal {number} ({kind.value}) by {chosen.name}: {result} after "
        f"{reports.plural(board.move_count, 'move')}, {board.on_foundations()} of 104 cards home"
    )


@app.command(epilog="Example: sunlog stats --policy greedy --games 200 -j 2")
@guarded
def stats(
    variant: VariantOption = "sun",
    policy: PolicyOption = None,
    games: Annotated[
        int, typer.Option("--games", min=0, metavar="N", help="How many deals.")
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
    bar = count_bar("playing", games) if games >= common.PROGRESS_FILES else None
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
    typer.echo(reports.dumps(result.to_json()) if json_out else result.to_text())


@app.command(epilog="Example: sunlog solve --deal 7 --variant sun-3")
@guarded
def solve(
    path: Annotated[
        str | None,
        typer.Argument(metavar="PATH", help="A log: solve its position (- for stdin)."),
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
    the verdict on stderr; --json prints one object: deal, variant, verdict, nodes, seconds
    and log. Exit 0 whatever the verdict (won, lost, or unknown within the budget).
    """
    from sunlog.engine.board import Board, Variant
    from sunlog.notation.game import Game, Tag
    from sunlog.play.solver import solve as solve_position

    if (path is None) == (deal is None):
        raise CliError("give either a PATH or --deal N")
    if path is not None:
        chosen, replayed = load(path, game, at)
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
        typer.echo(reports.dumps(result.to_json(log=log)))
        return
    what = f"deal {result.deal}" if result.deal is not None else "this position"
    verdict = {
        "won": f"won: a winning line of {len(result.line or ())} moves",
        "lost": "lost: no sequence of moves wins",
        "unknown": "unknown: the search ran out of budget (raise --max-nodes or --timeout)",
    }[result.verdict.value]
    err(
        f"{what} ({result.variant}): {verdict}; "
        f"{reports.plural(result.nodes, 'position')} searched in {result.seconds:.2f} s"
    )
    if log is not None:
        typer.echo(log, nl=False)


@app.command(epilog="Example: sunlog analyze samples/lost-sun.sun --max-nodes 50000")
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

    chosen, _replayed = load(path, game, None)
    moves = [gm.move for gm in chosen.moves]
    try:
        found = analyze_game(new_board(chosen), moves, max_nodes=max_nodes, timeout=timeout)
    except ValueError as exc:
        raise CliError(str(exc), path=path) from None
    if json_out:
        typer.echo(reports.dumps({"path": path, "game": chosen.index, **found.to_json()}))
        return
    for line in reports.analysis_lines(found, chosen, len(moves)):
        typer.echo(line)
