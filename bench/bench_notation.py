"""Benchmark of the notation: reading and replaying a big file of real games.

``python bench/bench_notation.py [--short] [--games N]`` writes (once, cached in a temp
folder) a ``.sun`` file of N games played by random legal moves on random deals of the
three variants, then measures:

- parse only: games read with ``read_games`` (moves/s, MB/s);
- parse + replay: every game replayed and checked, as ``sunlog check`` does;
- peak memory (``ru_maxrss`` of a fresh process) while streaming the first 1,000 and all
  10,000 games, to show that it does not grow with the number of games;
- what ``convert`` costs per move, on the first games of the file: the JSON as written
  (``--no-check``, the conversion before resolution), the resolved JSON (the default:
  replay, canonical forms, places), and with ``--positions``; reading included, JSON Lines
  text made but not written.

The file repeats a pool of a few hundred distinct games (each copy with its own ``Round``
tag), so that making it stays quick; every game is a real one. Figures are printed, never
asserted: speed depends on the machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path

from sunlog.engine.board import Board, Status, Variant
from sunlog.engine.moves import MoveKind
from sunlog.notation import read_games, write_game
from sunlog.notation.game import Game, GameMove, Tag
from sunlog.notation.replay import replay

#: Games of the file that the convert measurement takes (all three variants, physical too).
CONVERT_GAMES, CONVERT_GAMES_SHORT = 1000, 200

HERE = Path(__file__).resolve()
VARIANTS = (Variant.SUN, Variant.SUN2, Variant.SUN3)
#: How many distinct games the file repeats, and how long a random game may run.
POOL, POOL_SHORT = 400, 60
MAX_MOVES = 250


# ---------------------------------------------------------------- the file


def random_game(rng: random.Random, index: int) -> Game:
    """One game played by random legal moves (stage actions now and then), written as a
    player would: tags, a few annotations and comments; a tenth are physical games."""
    variant = VARIANTS[index % 3]
    deal = rng.randrange(2**64)
    board = Board(variant, deal=deal)
    moves: list[GameMove] = []
    physical = index % 10 == 9
    for _ in range(MAX_MOVES):
        legal = board.legal_moves()
        if not legal:
            break
        cards = [m for m in legal if m.kind is MoveKind.CARD]
        stages = [m for m in legal if m.kind is not MoveKind.CARD]
        move = rng.choice(cards if cards and (not stages or rng.random() > 0.15) else stages)
        board.push(move)
        if physical:
            move = board.named_cards(move)
        annotation = rng.choice(("!", "?", "!?")) if rng.random() < 0.03 else None
        comments = ("a comment about this move",) if rng.random() < 0.02 else ()
        moves.append(GameMove(move, str(move), None, annotation, comments))
    status = board.status()
    tags = [Tag("Event", f"Benchmark game {index}"), Tag("Variant", variant.value)]
    if not physical:
        tags.append(Tag("Deal", str(deal)))
    result = status.value if status is not Status.PLAYING else "*"
    return Game(tags=tuple(tags), moves=tuple(moves), result=result)


def pool_texts(size: int) -> list[str]:
    """``size`` distinct games as text, always the same for the same size."""
    rng = random.Random(20261129)
    return [write_game(random_game(rng, i)) for i in range(size)]


def games_file(games: int, pool: int, folder: Path) -> Path:
    """The benchmark file of ``games`` games, made once and cached under ``folder``."""
    source = (
        HERE.read_bytes() + (HERE.parent.parent / "sunlog" / "engine" / "board.py").read_bytes()
    )
    key = hashlib.sha256(source + f"{games}/{pool}".encode()).hexdigest()[:12]
    path = folder / f"bench-{games}-games-{key}.sun"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    texts = pool_texts(pool)
    partial = path.with_suffix(".part")
    with partial.open("w", encoding="utf-8") as out:
        for k in range(games):
            out.write(f'[Round "{k + 1}"]\n')
            out.write(texts[k % pool])
            out.write("\n")
    partial.replace(path)
    print(f"wrote {path} ({games} games) in {time.perf_counter() - start:.1f} s")
    return path


# ------------------------------------------------------------ measuring


def stream(path: Path, limit: int | None = None) -> Iterator[Game]:
    with path.open(encoding="utf-8") as handle:
        yield from islice(read_games(handle), limit)


def parse_only(path: Path) -> tuple[int, int, float, float]:
    """Games and moves read, and the wall-clock and CPU seconds it took."""
    start, cpu = time.perf_counter(), time.process_time()
    games = moves = 0
    for game in stream(path):
        games += 1
        moves += len(game.moves)
    return games, moves, time.perf_counter() - start, time.process_time() - cpu


def parse_and_replay(path: Path) -> tuple[int, int, int, float, float]:
    """Games, moves replayed, invalid games, and the wall-clock and CPU seconds it took."""
    start, cpu = time.perf_counter(), time.process_time()
    games = moves = invalid = 0
    for game in stream(path):
        result = replay(game)
        games += 1
        moves += result.moves
        invalid += not result.valid
    return games, moves, invalid, time.perf_counter() - start, time.process_time() - cpu


def memory_child(path: Path, limit: int) -> dict[str, float]:
    """In a fresh process: peak RSS before and after streaming ``limit`` games."""
    for game in stream(path, 1):  # import and warm up Lark, the scanner, the engine
        replay(game)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    count = 0
    for game in stream(path, limit):
        replay(game)
        count += 1
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"games": count, "before_kb": before, "after_kb": after}


def peak_memory(path: Path, limit: int) -> dict[str, float]:
    command = [sys.executable, str(HERE), "--memory-child", str(path), str(limit)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def convert_costs(path: Path, limit: int) -> dict[str, float]:
    """CPU µs a move of ``convert``'s work on the first ``limit`` games, streamed one game
    at a time as ``convert`` does (reading, JSON, JSON Lines text), best of three rounds
    taken in turns: the JSON
    as written (``--no-check``), the resolved JSON (the default), and with ``--positions``
    (on the first 50 games); and reading alone."""
    from sunlog.notation.jsonlayout import game_text

    def lines(limit: int, *, check: bool, positions: bool = False) -> list[int]:
        """The JSON Lines text of each game, as ``convert --jsonl`` makes it."""
        return [
            len(game_text(g, lines=True, check=check, positions=positions)[0])
            for g in stream(path, limit)
        ]

    works: dict[str, Callable[[], object]] = {
        "read": lambda: sum(1 for _ in stream(path, limit)),
        "written": lambda: lines(limit, check=False),
        "resolved": lambda: lines(limit, check=True),
        "positions": lambda: lines(50, check=True, positions=True),
    }
    best = dict.fromkeys(works, float("inf"))
    for _ in range(3):  # in turns, so that a busy minute weighs on all of them alike
        for name, work in works.items():
            cpu = time.process_time()
            work()
            best[name] = min(best[name], time.process_time() - cpu)
    moves = sum(len(g.moves) for g in stream(path, limit))
    position_moves = sum(len(g.moves) for g in stream(path, 50))
    read, written, resolved, positions = (best[name] for name in works)
    return {
        "games": limit,
        "moves": moves,
        "read": read * 1e6 / moves,
        "written": written * 1e6 / moves,
        "resolved": resolved * 1e6 / moves,
        "positions": positions * 1e6 / position_moves,
    }


def rates(moves: int, games: int, size_mb: float, seconds: float, cpu: float) -> str:
    """Throughput by the wall clock, and by CPU time (steadier on a shared machine)."""
    return (
        f"{seconds:.2f} s: {moves / seconds:,.0f} moves/s, {size_mb / seconds:.2f} MB/s, "
        f"{games / seconds:,.0f} games/s (CPU {cpu:.2f} s: {moves / cpu:,.0f} moves/s, "
        f"{size_mb / cpu:.2f} MB/s)"
    )


# ----------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="a few seconds, for CI")
    parser.add_argument("--games", type=int, help="games in the file (10000; --short 1000)")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "sunlog-bench",
        help="where the generated file is kept",
    )
    parser.add_argument("--memory-child", nargs=2, metavar=("PATH", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child:
        path, limit = args.memory_child
        print(json.dumps(memory_child(Path(path), int(limit))))
        return 0

    games = args.games or (1000 if args.short else 10000)
    path = games_file(games, POOL_SHORT if args.short else POOL, args.cache)
    size_mb = path.stat().st_size / 1e6
    print(f"file: {games} games, {size_mb:.1f} MB ({path})")

    for game in stream(path, 1):  # build the parser and warm the caches before timing
        replay(game)
    n, moves, seconds, cpu = parse_only(path)
    print(f"parse only:      {n} games, {moves} moves: {rates(moves, n, size_mb, seconds, cpu)}")
    n, replayed, invalid, seconds, cpu = parse_and_replay(path)
    print(
        f"parse + replay:  {n} games, {replayed} moves: "
        f"{rates(replayed, n, size_mb, seconds, cpu)}; invalid games: {invalid}"
    )

    # memory first: a child's ru_maxrss starts from what its parent held when it forked
    small = max(1, games // 10)
    rows = [peak_memory(path, small), peak_memory(path, games)]
    for row in rows:
        print(
            f"peak memory streaming {int(row['games']):>6} games (parse + replay): "
            f"{row['after_kb'] / 1024:.1f} MB (after warm-up {row['before_kb'] / 1024:.1f} MB, "
            f"growth {(row['after_kb'] - row['before_kb']) / 1024:.1f} MB)"
        )
    ratio = rows[1]["after_kb"] / rows[0]["after_kb"]
    print(f"peak memory ratio, {games} vs {small} games: {ratio:.2f} (1.00 = no growth)")

    limit = min(games, CONVERT_GAMES_SHORT if args.short else CONVERT_GAMES)
    c = convert_costs(path, limit)
    print(
        f"convert, {int(c['games'])} games, {int(c['moves'])} moves, CPU µs a move "
        f"(reading alone {c['read']:.2f}): JSON as written (--no-check) {c['written']:.2f}; "
        f"resolved (the default) {c['resolved']:.2f}: {c['resolved'] / c['written']:.2f}x; "
        f"with --positions {c['positions']:.1f}"
    )

    if invalid:
        print(f"error: {invalid} generated games did not replay", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
