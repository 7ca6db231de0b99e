"""Converting logs: ``convert`` (notation and JSON both ways) and ``fmt`` (canonical form)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from enum import StrEnum
from typing import IO, Annotated

import typer

from sunlog.cli import common, inputs, outputs, reports
from sunlog.cli.common import PathArg, app, err, guarded, invalid, with_path
from sunlog.cli.exits import INVALID, OK, USAGE
from sunlog.cli.inputs import STDIN, CliError
from sunlog.notation.errors import LogError


class Format(StrEnum):
    """The output of ``convert``."""

    sun = "sun"
    json = "json"


@app.command(epilog="Example: sunlog convert samples/won-sun.sun -o won.json")
@guarded
def convert(
    path: PathArg,
    to: Annotated[
        Format | None,
        typer.Option(
            "--to",
            metavar="FORMAT",
            help="sun or json (default: the other one of the input's format).",
        ),
    ] = None,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="JSON Lines: one game per line.")] = False,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="OUT", help="Write here (- for stdout)."),
    ] = None,
    no_check: Annotated[
        bool,
        typer.Option(
            "--no-check", help="JSON of the moves as written only: no replay, no resolved fields."
        ),
    ] = False,
    positions: Annotated[
        bool, typer.Option("--positions", help="Add the position object after every move.")
    ] = False,
) -> None:
    """Notation to JSON (--jsonl for JSON Lines), and JSON back to notation (--to sun).

    The input's format comes from its name (.json, .jsonl) or, for stdin and
    other names, from its first characters. JSON output replays each game and
    adds what each move did (docs/json.md). An invalid game is still converted,
    with "valid": false and its error; it is reported on stderr, and exit 1.
    --no-check skips the replay.
    """
    if jsonl and to is Format.sun:
        raise CliError("--jsonl writes JSON: it cannot go with --to sun")
    if output not in (None, STDIN) and outputs.same_file(path, output):
        raise CliError("refusing to overwrite the input: choose another -o", path=output)
    stdin = inputs.read_once(path)  # standard input or a pipe: its format is in its text
    json_input = inputs.input_is_json(path, stdin)
    target = to or (Format.json if jsonl or not json_input else Format.sun)
    if positions and (no_check or target is Format.sun):
        raise CliError("--positions adds positions to JSON: not with --no-check or to notation")
    import tempfile

    # The games stream through a spool (memory, then disk when large), so that a file of
    # any size converts, and nothing is written when some game cannot be read.
    with tempfile.SpooledTemporaryFile(
        max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", newline=""
    ) as spool:
        mode = Mode(target, jsonl, check=not no_check, positions=positions)
        faults, rule_faults = with_path(path, lambda: _convert_into(spool, path, stdin, mode))
        if faults:
            raise invalid("\n".join(faults))
        spool.seek(0)
        if output in (None, STDIN):
            for piece in iter(lambda: spool.read(1 << 16), ""):
                typer.echo(piece, nl=False, color=True)  # keeps ESC [ (Click drops it)
        else:
            try:
                outputs.write_atomically(output, spool)
            except OSError as exc:
                raise inputs.os_error(exc, output) from None
    if rule_faults:
        raise typer.Exit(INVALID)


@dataclass(frozen=True)
class Mode:
    """What ``convert`` writes: the target format, JSON Lines or not, whether each game is
    replayed and resolved (``check``), with the positions after every move or not."""

    target: Format
    jsonl: bool
    check: bool
    positions: bool


#: What convert keeps in memory before its spool moves to a temporary file.
SPOOL_BYTES = 16 * 1024 * 1024


def _convert_into(out: IO[str], path: str, stdin: str | None, mode: Mode) -> tuple[list[str], int]:
    """Write each game of ``path`` converted to ``out``; return the reports of the games
    that could not be read (then what was written is to be thrown away) and the number of
    games that read well but are invalid (converted, reported on stderr as ``check`` does)."""
    from sunlog.notation.jsonlayout import JsonGames, game_text
    from sunlog.notation.writer import write_game

    faults: list[str] = []
    invalid_games = 0
    first = True
    target = mode.target
    layout = JsonGames(lines=mode.jsonl)
    if target is Format.json:
        out.write(layout.start())
    for game in inputs.read_games_from(path, stdin_text=stdin):
        if game.error is not None:
            game.error.path = path
            line = game.error.line
            source = reports.source_line(path, line, text=stdin) if line else None
            faults.append(reports.error_report(game.error, game.index, source))
            continue
        if faults:
            continue  # nothing will be written: only look for more errors
        if target is Format.sun:
            out.write(("" if first else "\n") + write_game(game))
            first = False
            continue
        text, error = game_text(game, lines=mode.jsonl, check=mode.check, positions=mode.positions)
        if error is not None:
            invalid_games += 1
            err(_rule_report(error, game.index, path, stdin))
        out.write(layout.game(text))
    if target is Format.json:
        out.write(layout.end())
    return faults, invalid_games


def _rule_report(error: LogError, game: int, path: str, stdin: str | None) -> str:
    """An invalid game's report as ``check`` prints it: heading, source line, caret."""
    error.path = path
    error.game = error.game or game
    source = reports.source_line(path, error.line, text=stdin) if error.line else None
    return reports.error_report(error, game, source)


@app.command(epilog="Example: sunlog fmt --check samples/*.sun")
@guarded
def fmt(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH", help="Log files, directories (every *.sun below) or - for stdin."
        ),
    ],
    in_place: Annotated[
        bool, typer.Option("--in-place", "-i", help="Rewrite the files that change.")
    ] = False,
    check_only: Annotated[
        bool,
        typer.Option("--check", help="Change nothing; exit 1 if some file would change."),
    ] = False,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="With --check or -i: one JSON object a file, a line: path, valid, changed.",
        ),
    ] = False,
    quiet: common.QuietOpt = False,
    strip_comments: Annotated[
        bool, typer.Option("--strip-comments", help="Leave out every comment.")
    ] = False,
) -> None:
    """Rewrite logs in canonical form: to stdout, --in-place, or --check to only report.

    A file with an invalid game is reported (exit 1) and left as it is.
    """
    if in_place and check_only:
        raise CliError("--in-place and --check cannot go together")
    if json_out and not (in_place or check_only):
        raise CliError("--json goes with --check or --in-place (fmt alone prints the logs)")
    if in_place and STDIN in paths:
        raise CliError("--in-place cannot rewrite standard input")
    import tempfile

    code = OK
    changed = unchanged = invalid = 0
    printed = 0
    stdin = inputs.read_stdin() if STDIN in paths else None
    for item in inputs.expand_paths(paths):
        if isinstance(item, CliError):
            err(str(item))
            code = USAGE
            continue
        text = stdin if item == STDIN else None
        try:  # what the file is now (so as not to write over a newer one), and its form
            before = None if text is not None else os.stat(item)
            form = outputs.TextForm.of_text(text or "") if before is None else _form(item)
        except OSError as exc:
            err(str(inputs.os_error(exc, item)))
            code = USAGE
            continue
        if (check_only or in_place) and before is not None and not stat.S_ISREG(before.st_mode):
            # a FIFO or a device cannot be read a second time, nor replaced
            err(f"sunlog: {item}: not a regular file: fmt --check and --in-place need one")
            code = USAGE
            continue
        # The canonical form streams through a spool (memory, then disk when large), with
        # the file's own line ends and BOM.
        with tempfile.SpooledTemporaryFile(
            max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", newline=form.newline
        ) as spool:
            if form.bom:
                spool.write("\ufeff")
            try:
                valid = (
                    _format_into(spool, item, text, strip_comments=True)
                    if strip_comments
                    else _format_into(spool, item, text)
                )
            except CliError as exc:
                err(str(exc))
                code = max(code, exc.code)
                continue
            if not valid:
                code = max(code, INVALID)
                invalid += 1
                if json_out:
                    _file_line(item, valid=False, changed=None)
                continue
            spool.seek(0)
            if check_only or in_place:
                try:
                    same = _same_text(item, text, spool)
                except CliError as exc:
                    err(str(exc))
                    code = USAGE
                    continue
                if same:
                    unchanged += 1
                    if json_out:
                        _file_line(item, valid=True, changed=False)
                    continue
                changed += 1
                if check_only:
                    if json_out:
                        _file_line(item, valid=True, changed=True)
                    else:
                        typer.echo(f"would reformat {item}")
                    code = max(code, INVALID)
                    continue
                spool.seek(0)
                try:
                    outputs.write_atomically(item, spool, replacing=before)
                except OSError as exc:
                    err(str(inputs.os_error(exc, item)))
                    code, changed = USAGE, changed - 1
                    continue
                if json_out:
                    _file_line(item, valid=True, changed=True)
                else:
                    common.summary(f"reformatted {item}", quiet)
            else:
                if printed:
                    typer.echo("")
                if common.stdout_is_terminal():  # a log's ESC or BEL must not act on it
                    for line in spool:
                        typer.echo(_shown(line), nl=False)
                else:
                    for piece in iter(lambda: spool.read(1 << 16), ""):
                        typer.echo(piece, nl=False, color=True)  # keeps ESC [ (Click drops it)
                printed += 1
    if check_only or in_place:
        verb = "would be reformatted" if check_only else "reformatted"
        summary = f"{reports.plural(changed, 'file')} {verb}, {unchanged} unchanged"
        common.summary(
            summary + (f", {invalid} invalid (left as they are)" if invalid else ""), quiet
        )
    raise typer.Exit(code)


def _file_line(path: str, *, valid: bool, changed: bool | None) -> None:
    """``fmt --check --json`` (or ``-i --json``): one file's verdict. ``changed``: whether
    it would be (or was) rewritten; ``null`` for a file with an invalid game."""
    common.json_line({"path": path, "valid": valid, "changed": changed})


def _shown(line: str) -> str:
    """A line for a terminal: its control characters as visible stand-ins (as ``show``
    and ``check`` print them), its line end kept."""
    body = line.rstrip("\r\n")
    return reports.printable(body) + line[len(body) :]


def _form(path: str) -> outputs.TextForm:
    """A file's line ends and BOM; a file that is not a regular one (a FIFO) is not
    peeked at, since reading it would consume it."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        return outputs.TextForm()
    return outputs.TextForm.of_file(path)


def _format_into(
    out: IO[str], path: str, stdin: str | None, *, strip_comments: bool = False
) -> bool:
    """Write the canonical form of a file's games to ``out``, one game at a time; False
    after reporting an invalid game (then what was written is to be thrown away)."""
    from sunlog.notation.replay import replay as replay_game
    from sunlog.notation.writer import write_game

    if inputs.input_is_json(path, stdin):
        raise CliError("fmt formats notation; for JSON use: sunlog convert --to sun", path=path)
    ok = True
    first = True
    try:
        for game in inputs.read_games_from(path, stdin_text=stdin):
            result = replay_game(game, canonical=True)
            if result.error is not None:
                result.error.path = path
                line = result.error.line
                source = reports.source_line(path, line, text=stdin) if line else None
                err(reports.error_report(result.error, game.index, source))
                ok = False
            elif ok:
                if strip_comments:
                    from sunlog.notation.select import without_comments

                    game = without_comments(game)
                out.write(("" if first else "\n") + write_game(game, result.canonical))
                first = False
    except LogError as exc:
        exc.path = path
        source = reports.source_line(path, exc.line, text=stdin) if exc.line else None
        err(reports.error_report(exc, None, source))
        return False
    return ok


def _same_text(path: str, stdin: str | None, formatted: IO[str]) -> bool:
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
    except FileNotFoundError:
        raise CliError("vanished while sunlog read it: nothing written", path=path) from None
    except OSError as exc:
        raise inputs.os_error(exc, path) from None
