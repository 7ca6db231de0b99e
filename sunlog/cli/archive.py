"""``sunlog select``, ``split`` and ``summary``: a club's archive of many games.

The filters, duplicates and joining are :mod:`sunlog.notation.select`'s; this module
reads the paths, writes the games and says what it did (docs/archive.md).
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from typing import IO, Annotated, TextIO

import typer

from sunlog.cli import inputs, outputs
from sunlog.cli.common import OutOpt, QuietOpt, app, err, guarded, json_line
from sunlog.cli.exits import INVALID, OK
from sunlog.cli.inputs import STDIN, CliError
from sunlog.engine.board import Status, Variant
from sunlog.notation.errors import LogError
from sunlog.notation.reader import Headers
from sunlog.notation.select import (
    Candidate,
    GameDigests,
    Range,
    Selection,
    as_written,
    joined,
    line_end,
    parse_reached,
    parse_tag_filter,
)

PathsArg = Annotated[
    list[str],
    typer.Argument(
        metavar="PATH", help="Log files, directories (every *.sun below) or - for stdin."
    ),
]


def _games(paths: list[str], problems: list[int], *, written: bool = True) -> Iterator[Candidate]:
    """Each game of the paths, in file order then game order, with its text as the file
    holds it when it is to be ``written`` (:func:`as_written`: the file is read a second
    time, line ends untranslated; a pipe is read whole once). A path that cannot be read
    (exit 2), a file that is not a log and a game unreadable before its tags end (exit 1)
    are reported on stderr and their exit codes kept in ``problems``; reading goes on."""
    for item in inputs.expand_paths(paths):
        if isinstance(item, CliError):
            err(str(item))
            problems.append(item.code)
            continue
        try:
            if item == STDIN or not written:
                once = inputs.stdin_text(item)
            else:  # a pipe given by its path is read whole, to be read again
                once = inputs.read_once(item)
            games = _reported(inputs.headers_from(item, stdin_text=once), item, problems)
            if not written:
                yield from map(Candidate, games)
                continue
            first = next(games, None)  # a path that is no log fails before it is reopened
            if first is None:
                continue
            with _untranslated(item, once) as source:
                yield from as_written(chain((first,), games), source)
        except CliError as exc:
            err(str(exc))
            problems.append(exc.code)
        except LogError as exc:  # a whole-file fault: the games before it were given
            exc.path = item
            err(f"sunlog: {exc}")
            problems.append(INVALID)


def _untranslated(path: str, once: str | None) -> TextIO:
    """The text of ``path`` with its line ends as written (``once``: the text of a path
    that can be read only once, already read)."""
    if once is not None:
        return io.StringIO(once, newline="")
    try:
        binary = open(path, "rb")  # noqa: SIM115  # the caller's with closes it
    except OSError as exc:
        raise inputs.os_error(exc, path) from None
    return io.TextIOWrapper(binary, encoding="utf-8", errors="surrogateescape", newline="")


def _reported(games: Iterator[Headers], path: str, problems: list[int]) -> Iterator[Headers]:
    """``games``, each unreadable before its tags end said on stderr as ``check`` says it."""
    for headers in games:
        if headers.error is not None:  # its tags are unknown: an invalid log
            headers.error.path = path
            err(str(headers.error))
            problems.append(INVALID)
        yield headers


def _usage(option: str, exc: ValueError) -> CliError:
    return CliError(f"{option}: {exc}")


def _selection(
    tag: list[str] | None,
    tag_match: list[str] | None,
    variant: list[str] | None,
    result: list[str] | None,
    valid: bool | None,
    deal: list[str] | None,
    moves: str | None,
    reached: list[str] | None,
    invert: bool,
) -> Selection:
    """The filters as given on the command line; a value that means nothing is exit 2."""
    try:
        tags = tuple(parse_tag_filter(t) for t in tag or ())
    except ValueError as exc:
        raise _usage("--tag", exc) from None
    patterns = []
    for text in tag_match or ():
        try:
            name, expression = parse_tag_filter(text)
            patterns.append((name, re.compile(expression)))
        except ValueError as exc:  # re.error is a ValueError
            raise _usage("--tag-match", exc) from None
    try:
        variants = tuple(Variant.parse(v) for v in variant or ())
    except ValueError as exc:
        raise _usage("--variant", exc) from None
    results = tuple(r.strip().lower() for r in result or ())
    for r in results:
        if r not in ("won", "lost", "*"):
            raise CliError(f"--result: {r!r} is no result: write won, lost or *")
    try:
        deals = tuple(Range.parse(d) for d in deal or ())
    except ValueError as exc:
        raise _usage("--deal", exc) from None
    try:
        move_range = None if moves is None else Range.parse(moves)
    except ValueError as exc:
        raise _usage("--moves", exc) from None
    try:
        stages = tuple(parse_reached(r) for r in reached or ())
    except ValueError as exc:
        raise _usage("--reached", exc) from None
    return Selection(
        tags=tags,
        patterns=tuple(patterns),
        variants=variants,
        results=results,
        valid=valid,
        deals=deals,
        moves=move_range,
        reached=stages,
        invert=invert,
    )


@dataclass
class _Tally:
    seen: int = 0
    kept: int = 0
    unreadable: int = 0
    duplicates: int = 0


@app.command(epilog="Example: sunlog select club/ --tag Player=Ann --result won -o ann-won.sun")
@guarded
def select(
    paths: PathsArg,
    tag: Annotated[
        list[str] | None,
        typer.Option(metavar="NAME=VALUE", help="A tag with this exact value (repeatable)."),
    ] = None,
    tag_match: Annotated[
        list[str] | None,
        typer.Option(metavar="NAME=REGEX", help="A tag whose value this regex finds."),
    ] = None,
    variant: Annotated[
        list[str] | None, typer.Option(metavar="V", help="sun, sun-2 or sun-3.")
    ] = None,
    result: Annotated[
        list[str] | None,
        typer.Option(metavar="R", help="The claimed result: won, lost or *."),
    ] = None,
    valid: Annotated[
        bool | None,
        typer.Option("--valid/--invalid", help="Games that replay without a fault, or not."),
    ] = None,
    deal: Annotated[
        list[str] | None,
        typer.Option("--deal", "-d", metavar="N", help="A deal number or a range A-B."),
    ] = None,
    moves: Annotated[
        str | None, typer.Option(metavar="MIN-MAX", help="How many moves, as written.")
    ] = None,
    reached: Annotated[
        list[str] | None,
        typer.Option(metavar="STAGE", help="Games that reached stage 2, 3 or wind."),
    ] = None,
    dedupe: Annotated[
        bool, typer.Option("--dedupe", help="Drop a game already kept (same deck, moves).")
    ] = False,
    duplicates: Annotated[
        bool, typer.Option("--duplicates", help="List each copy and its original instead.")
    ] = False,
    invert: Annotated[bool, typer.Option("--invert", help="Keep the games that fail.")] = False,
    count: Annotated[bool, typer.Option("--count", help="Print only how many match.")] = False,
    strip_comments: Annotated[
        bool, typer.Option("--strip-comments", help="Leave out every comment.")
    ] = False,
    output: OutOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Write the games that pass every filter, each exactly as written.

    Games come in file order, then game order. Filtering by tags alone reads no move;
    --result and --moves read the moves, --valid, --invalid and --reached replay.
    A game unreadable before its tags end passes no tag filter. Exit 0 (even when no
    game matches), 1 when an input is not a log or a game's tags cannot be read, 2
    for a usage or I/O error.
    """
    chosen = _selection(tag, tag_match, variant, result, valid, deal, moves, reached, invert)
    if output not in (None, STDIN):
        for path in paths:
            if path != STDIN and os.path.exists(path) and outputs.same_file(path, output):
                raise CliError("refusing to overwrite the input: choose another -o", path=output)
    if STDIN in paths:
        inputs.read_stdin()
    problems: list[int] = []
    tally = _Tally()
    kept = _kept(
        _games(paths, problems, written=not (count or duplicates)),
        chosen,
        tally,
        dedupe or duplicates,
        duplicates and not count,
    )
    if count or duplicates:
        for _ in kept:
            pass
        if count:
            typer.echo(str(tally.duplicates if duplicates else tally.kept))
    else:
        texts = joined(kept)
        if strip_comments:
            texts = _without_comments(texts)
        _write(texts, output)
    if not quiet:
        _say(tally, dedupe or duplicates)
    raise typer.Exit(max(problems, default=OK))


def _kept(
    games: Iterator[Candidate], chosen: Selection, tally: _Tally, dedupe: bool, listing: bool
) -> Iterator[Candidate]:
    first: dict[bytes, str] = {}
    game_digest = GameDigests()
    for game in games:
        tally.seen += 1
        if game.unreadable:
            tally.unreadable += 1
        if not chosen.matches(game):
            continue
        if dedupe:
            digest = game_digest(game)
            if digest in first:
                tally.duplicates += 1
                if listing:
                    where = f"{game.headers.path}:{game.start_line}"
                    typer.echo(f"{where}: same game as {first[digest]}")
                continue
            # 16 bytes a game kept (and its place when copies are listed)
            first[digest] = f"{game.headers.path}:{game.start_line}" if listing else ""
        tally.kept += 1
        yield game


def _say(tally: _Tally, dedupe: bool) -> None:
    games = "game" if tally.seen == 1 else "games"
    line = f"sunlog: kept {tally.kept} of {tally.seen} {games}"
    extra = []
    if dedupe:
        extra.append(f"{tally.duplicates} duplicate{'' if tally.duplicates == 1 else 's'}")
    if tally.unreadable:
        extra.append(f"{tally.unreadable} unreadable before their tags end")
    err(line + (f" ({', '.join(extra)})" if extra else ""))


def _without_comments(texts: Iterator[str]) -> Iterator[str]:
    from sunlog.notation.select import strip_comments

    for text in texts:
        yield strip_comments(text)


def _write(texts: Iterator[str], output: str | None) -> None:
    """Stream the texts to stdout, or to ``output`` atomically (through a temporary file,
    so that memory stays flat and a failure leaves the old file whole)."""
    if output in (None, STDIN):
        binary = getattr(sys.stdout, "buffer", None)
        if binary is None:  # a text stream only (not the console's)
            for text in texts:
                sys.stdout.write(text)
            return
        sys.stdout.flush()
        for text in texts:  # the bytes as written: no newline translation, UTF-8 always
            binary.write(text.encode("utf-8", "surrogateescape"))
        binary.flush()
        return
    import tempfile

    with tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as spool:
        for text in texts:
            spool.write(text)
        spool.seek(0)
        try:
            outputs.write_atomically(output, spool)
        except OSError as exc:
            raise inputs.os_error(exc, output) from None


# ------------------------------------------------------------------------------ split

#: Names Windows keeps for devices, in any case and with any extension.
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{n}" for p in ("com", "lpt") for n in range(10)}
_UNSAFE = re.compile(r"[^A-Za-z0-9.-]+")
_NAME_TAGS = ("Date", "Player", "Deal")
_PART_CHARS = 40


def file_name(game: Candidate, number: int) -> str:
    """A name for a game's file, from its Date, Player and Deal tags, else its number:
    ASCII letters, digits, ``.``, ``-`` and ``_`` only, no leading dot, no name Windows
    keeps for a device, short enough for every filesystem."""
    parts = []
    for name in _NAME_TAGS:
        value = game.headers.tag(name)
        if value:
            part = _UNSAFE.sub("_", value).strip("._-")[:_PART_CHARS]
            if part:
                parts.append(part)
    stem = "_".join(parts) if parts else f"game-{number:05d}"
    if stem.split(".")[0].lower() in _RESERVED:
        stem = "_" + stem
    return stem + inputs.LOG_SUFFIX


def _create(directory: str, name: str) -> IO[str]:
    """A new file in ``directory`` for ``name``, ``name-2``... when taken: never one that
    exists (``x`` mode: a file made meanwhile, or a name a case-blind disk folds, too)."""
    stem, suffix = os.path.splitext(name)
    for n in range(1, 100_000):
        candidate = name if n == 1 else f"{stem}-{n}{suffix}"
        try:
            return open(os.path.join(directory, candidate), "x", encoding="utf-8", newline="")
        except FileExistsError:
            continue
    raise CliError("no free name left for a game", path=os.path.join(directory, name))


@app.command(epilog="Example: sunlog split club.sun -o games/")
@guarded
def split(
    paths: PathsArg,
    output: Annotated[
        str,
        typer.Option(
            "--output", "-o", metavar="DIR", help="The directory to write (made if missing)."
        ),
    ],
    quiet: QuietOpt = False,
) -> None:
    """Write each game to a file of its own in DIR, exactly as written.

    A file is named from the game's Date, Player and Deal tags (else game-00001.sun by
    its number), in letters every filesystem takes; an existing file is never
    overwritten: the new one gets -2, -3... Join files back with sunlog select.
    """
    try:
        os.makedirs(output, exist_ok=True)
    except OSError as exc:
        raise inputs.os_error(exc, output) from None
    if not os.path.isdir(output):
        raise CliError("not a directory", path=output)
    if STDIN in paths:
        inputs.read_stdin()
    problems: list[int] = []
    written = 0
    for number, game in enumerate(_games(paths, problems), 1):
        text = game.written.removeprefix("\ufeff").lstrip("\r\n")
        if not text.endswith(("\n", "\r")):
            text += line_end(text)
        try:
            with _create(output, file_name(game, number)) as handle:
                handle.write(text)
        except OSError as exc:
            raise inputs.os_error(exc, output) from None
        written += 1
    if not quiet:
        err(f"sunlog: wrote {written} game{'' if written == 1 else 's'} to {output}")
    raise typer.Exit(max(problems, default=OK))


# ---------------------------------------------------------------------------- summary


@dataclass
class _Group:
    games: int = 0
    won: int = 0
    lost: int = 0
    unfinished: int = 0
    invalid: int = 0
    moves: int = 0
    longest: int = 0

    def add(self, game: Candidate) -> None:
        self.games += 1
        replayed = game.replayed()
        if not replayed.valid:
            self.invalid += 1
            return
        status = replayed.board.status()
        if status is Status.WON:
            self.won += 1
        elif status is Status.LOST:
            self.lost += 1
        else:
            self.unfinished += 1
        self.moves += replayed.moves
        self.longest = max(self.longest, replayed.moves)

    @property
    def valid(self) -> int:
        return self.games - self.invalid

    def figures(self) -> dict[str, int | float | None]:
        from sunlog.play.wilson import wilson

        low, high = wilson(self.won, self.valid)
        return {
            "games": self.games,
            "won": self.won,
            "lost": self.lost,
            "unfinished": self.unfinished,
            "invalid": self.invalid,
            "won_share": self.won / self.valid if self.valid else None,
            "won_low": low if self.valid else None,
            "won_high": high if self.valid else None,
            "average_moves": self.moves / self.valid if self.valid else None,
            "longest": self.longest if self.valid else None,
        }


@app.command(epilog="Example: sunlog summary club/ --by Event")
@guarded
def summary(
    paths: PathsArg,
    by: Annotated[
        list[str] | None,
        typer.Option(metavar="TAG", help="Group by this tag (repeatable; default Player)."),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="One JSON object a group, a line.")
    ] = False,
) -> None:
    """Games, won, lost, unfinished and invalid per player and variant, with the share
    won (95% Wilson interval) and the average and longest game in moves.

    Every game is replayed: a valid game counts by its result, an invalid one as
    invalid only. The share won and the moves are of the valid games. Exit 1 when
    some game is invalid (as check), 2 for a usage or I/O error.
    """
    keys = tuple(by or ("Player",))
    if STDIN in paths:
        inputs.read_stdin()
    problems: list[int] = []
    groups: dict[tuple[str, ...], _Group] = {}
    for game in _games(paths, problems, written=False):
        variant = game.variant
        key = (
            *(game.headers.tag(name) or "" for name in keys),
            variant.value if variant is not None else game.headers.tag("Variant") or "",
        )
        groups.setdefault(key, _Group()).add(game)
    invalid = sum(group.invalid for group in groups.values())
    if invalid:  # as check: a log with an invalid game is an invalid log
        err(f"sunlog: {invalid} invalid game{'' if invalid == 1 else 's'} (sunlog check says why)")
        problems.append(INVALID)
    ordered = sorted(groups.items())
    if json_out:
        for key, group in ordered:
            json_line({"group": dict(zip((*keys, "Variant"), key, strict=True)), **group.figures()})
    else:
        _table(keys, ordered)
    raise typer.Exit(max(problems, default=OK))


def _table(keys: tuple[str, ...], ordered: list[tuple[tuple[str, ...], _Group]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for name in (*keys, "Variant"):
        table.add_column(name)
    for name in ("games", "won", "lost", "unfin.", "invalid", "won %", "95% CI", "avg", "max"):
        table.add_column(name, justify="right")
    for key, group in ordered:
        f = group.figures()
        share = "-" if f["won_share"] is None else f"{100 * float(f['won_share']):.1f}"
        interval = (
            "-"
            if f["won_low"] is None
            else f"{100 * float(f['won_low']):.1f}-{100 * float(f['won_high'] or 0):.1f}"
        )
        average = "-" if f["average_moves"] is None else f"{float(f['average_moves']):.1f}"
        longest = "-" if f["longest"] is None else str(f["longest"])
        table.add_row(
            *(k or "-" for k in key),
            str(group.games),
            str(group.won),
            str(group.lost),
            str(group.unfinished),
            str(group.invalid),
            share,
            interval,
            average,
            longest,
        )
    Console(file=sys.stdout, width=200, soft_wrap=True).print(table)


__all__ = ["file_name", "select", "split", "summary"]
