"""Looking at a game: ``show``, ``moves``, ``replay``, ``render`` and ``html``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from sunlog.cli import helptext
from sunlog.notation.errors import LogError

if TYPE_CHECKING:
    from sunlog.notation.game import Game
    from sunlog.notation.replay import Replay
    from sunlog.views.stepper import Stepper
from sunlog.cli import common, inputs, reports
from sunlog.cli.common import (
    AtOpt,
    GameOpt,
    LogArg,
    OutOpt,
    PositionOpt,
    app,
    guarded,
    invalid,
    write_output,
)

#: show's ``--position``: alone, print the position string; with a string, start there.
ShowPositionOpt = Annotated[
    str | None,
    typer.Option(
        "--position",
        metavar="[STRING]",
        help="Alone: print the position string only. With STRING: show it, not a log.",
        show_default=False,
    ),
]


class _OptionalPosition(helptext.Command):
    """show's ``--position`` takes a value only when one follows it: last, or before
    another option, it stands alone (the value ``""``: print the position string). A
    position string never begins with ``-``. (Typer 0.28 has no optional values.)"""

    def parse_args(self, ctx: helptext.Context, args: list[str]) -> list[str]:
        args = list(args)
        for i, arg in enumerate(args):
            if arg == "--":
                break
            follows = args[i + 1] if i + 1 < len(args) else None
            if arg == "--position" and (follows is None or follows.startswith("--")):
                args.insert(i + 1, "")
                break
        return super().parse_args(ctx, args)


def _load(
    path: str | None,
    position: str | None,
    game: int,
    at: int | None,
    *,
    canonical: bool = False,
) -> tuple[str, Game, Replay]:
    """The chosen game (of a log or of ``--position``) replayed up to ``at``, to its first
    fault (the commands here show the position before it, then report it)."""
    name, chosen = common.chosen_game(path, position, game)
    return name, chosen, common.checked(name, chosen, at, canonical=canonical, to_fault=True)


@app.command(epilog="Example: sunlog show samples/won-sun.sun --at 60", cls=_OptionalPosition)
@guarded
def show(
    path: LogArg = None,
    game: GameOpt = 1,
    at: AtOpt = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the position as one JSON object.")
    ] = False,
    position: ShowPositionOpt = None,
) -> None:
    """Print the board after N moves (default: all); --json prints the position object,
    with the last move, the playable cards and the legal moves; --position alone prints
    the position string (docs/positions.md) on one line."""
    string_only = position == ""
    path, chosen, replayed = _load(path, None if string_only else position, game, at)
    board = replayed.board
    if string_only:
        typer.echo(board.position())
        return common.fail_if_broken(path, chosen, replayed)
    if json_out:
        from sunlog.notation.jsonio import position_actions

        return _print_json({**board.to_json(), **position_actions(board)}, path, chosen, replayed)
    last = reports.last_move_text(chosen, replayed.moves)
    if common.color_wanted():
        from sunlog.views.terminal import print_board

        title = f"{path} game {chosen.index}, move {replayed.moves}"
        print_board(common.color_console(), board, last_move=last, title=title, with_legend=True)
    else:
        from sunlog.views.terminal import board_text

        typer.echo(board_text(board, last_move=last, with_legend=True), nl=False)
    common.fail_if_broken(path, chosen, replayed)


@app.command(epilog="Example: sunlog moves samples/won-sun.sun -n 60")
@guarded
def moves(
    path: LogArg = None,
    position: PositionOpt = None,
    game: GameOpt = 1,
    at: AtOpt = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="One JSON object: last move, playable, legal moves.")
    ] = False,
    quiet: common.QuietOpt = False,
) -> None:
    """List the legal moves at a position, canonical notation, one a line."""
    path, chosen, replayed = _load(path, position, game, at)
    board = replayed.board
    if json_out:
        from sunlog.notation.jsonio import moves_json

        return _print_json(moves_json(board, reports.unlisted_moves(board)), path, chosen, replayed)
    for move in board.legal_moves():
        typer.echo(str(move))
    for note in reports.unlisted_moves(board):
        common.summary(f"sunlog: also legal: {note}", quiet)
    common.fail_if_broken(path, chosen, replayed)


def _print_json(shown: dict[str, Any], path: str, chosen: Game, replayed: Replay) -> None:
    """``--json`` of ``show`` and ``moves``: the object on one line, as every ``--json``,
    then exit 1 if the log breaks before the position shown."""
    common.json_line(shown)
    common.fail_if_broken(path, chosen, replayed)


@app.command(epilog="Example: sunlog replay samples/club-night.sun --game 2")
@guarded
def replay(
    path: LogArg = None, position: PositionOpt = None, game: GameOpt = 1, at: AtOpt = None
) -> None:
    """Step through a game on a terminal; without one, print each position in turn.

    Keys: n/space/right next, p/left back, f/Home first, l/End last, g N Enter go to
    move N, m the legal moves, q/Esc quit. Without a terminal, --at N prints only that position.
    """
    from sunlog.views.stepper import render_frames

    path, chosen = common.chosen_game(path, position, game)
    inputs.check_at(chosen, at, path)
    stepper, report, error = _stepper(path, chosen)
    if at is not None and at > stepper.total and error is not None:
        raise common.beyond_fault(path, chosen, error, at, stepper.total)
    if common.interactive():
        from rich.console import Console

        from sunlog.views.stepper import run_interactive

        stepper.jump(at or 0)
        run_interactive(stepper, Console())
    elif at is not None:
        from sunlog.views.terminal import board_text

        stepper.jump(at)
        typer.echo(stepper.header())
        typer.echo(board_text(stepper.board, last_move=stepper.last_move_text()), nl=False)
        return  # the position asked for stands before any fault, as with show --at
    else:
        for i, frame in enumerate(render_frames(stepper)):
            typer.echo(("\n" if i else "") + frame, nl=False)
    if report is not None:
        raise invalid(report)


def _stepper(path: str, chosen: Game) -> tuple[Stepper, str | None, LogError | None]:
    """A stepper over the moves of a game up to its first fault, that fault's report, and
    the fault.

    Exits 1 at once when the tags are at fault: there is no position to show.
    """
    from sunlog.notation.replay import new_board
    from sunlog.notation.replay import replay as replay_game
    from sunlog.views.stepper import Entry, Stepper

    full = replay_game(chosen)
    error = full.error
    report = None
    if error is not None:
        report = common.error_text(path, chosen, error)
        if not common.has_position(chosen, error, full.moves):
            raise invalid(report)
    try:
        board = new_board(chosen)
    except LogError as exc:
        exc.path = path
        raise invalid(reports.error_report(exc, chosen.index, None)) from None
    entries = [
        Entry(gm.move, gm.text, gm.annotation, gm.comments) for gm in chosen.moves[: full.moves]
    ]
    tags = [(t.name, t.value) for t in chosen.tags]
    stepper = Stepper(board, entries, start_comments=chosen.comments, tags=tags)
    if error is not None:
        stepper.error = reports.error_heading(error, chosen.index)
    return stepper, report, error


@app.command(epilog="Example: sunlog render samples/won-sun.sun -n 60 -o board.svg")
@guarded
def render(
    path: LogArg = None,
    position: PositionOpt = None,
    game: GameOpt = 1,
    at: AtOpt = None,
    output: OutOpt = None,
    size: Annotated[
        float | None,
        typer.Option(
            "--size",
            min=1,
            max=100_000,
            metavar="PX",
            callback=common.a_number,
            help="Width in pixels (default: natural).",
        ),
    ] = None,
) -> None:
    """Draw the board after N moves (default: all) as an SVG picture."""
    from sunlog.views.svg import board_svg

    path, chosen, replayed = _load(path, position, game, at, canonical=True)
    forms = replayed.canonical or ()
    last = forms[-1] if forms else None
    write_output(board_svg(replayed.board, last_move=last, size=size), output, [path])
    common.fail_if_broken(path, chosen, replayed)


@app.command(epilog="Example: sunlog html samples/won-sun.sun -o won.html")
@guarded
def html(
    path: LogArg = None, position: PositionOpt = None, game: GameOpt = 1, output: OutOpt = None
) -> None:
    """Write a game as one self-contained HTML page that replays it (no network needed)."""
    from sunlog.notation.replay import new_board
    from sunlog.views.html import game_html

    path, chosen, replayed = _load(path, position, game, None)
    valid = chosen.moves[: replayed.moves]  # up to the first fault, if any
    entries = [(gm.move, gm.text, gm.annotation, gm.comments) for gm in valid]
    page = game_html(
        new_board(chosen),
        entries,
        tags=[(t.name, t.value) for t in chosen.tags],
        start_comments=chosen.comments,
    )
    write_output(page, output, [path])
    common.fail_if_broken(path, chosen, replayed)
