"""sunlog check against python-chess, per move, in the same run (issue: speed side by side).

Makes a PGN of random legal chess games with python-chess and ``.sun`` logs played by
sunlog's own policies, with about the same number of moves, then times

* python-chess: ``chess.pgn.read_game`` over the PGN (parse and replay every ply);
* sunlog: what ``sunlog check`` does for a file (parse, replay, every check), in process;
* the same file without check's quick lane (the general way), with comments, and as
  played with real cards (deals and the wind row named);
* ``sunlog check`` as a command, start to finish, on the same file and on a one-game file;
* ``sunlog check -j 1`` and ``-j 2`` on a directory of many files, beside two independent
  ``-j 1`` runs on its halves at once (what the machine itself gives two processes);
* the peak memory of ``sunlog check`` on files of many small games.

Prints the figures and the ratios; nothing fails on speed. ``--short`` for CI.
Run: ``python bench/compare.py`` (needs the ``bench`` extra: ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sunlog.cli.inputs import read_games_from
from sunlog.cli.reports import check_file, check_game
from sunlog.engine.board import Board
from sunlog.notation import write_game
from sunlog.notation.game import Game, Tag
from sunlog.play.policies import play

SUNLOG = [sys.executable, "-m", "sunlog"]


def chess_pgn(games: int, seed: int) -> tuple[str, int]:
    """Random legal chess games as PGN text, and their number of plies."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out, plies = [], 0
    for _ in range(games):
        board, game = chess.Board(), chess.pgn.Game()
        node = game
        for _ in range(rng.randint(60, 200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
            plies += 1
        out.append(str(game))
    return "\n\n".join(out) + "\n", plies


def sun_logs(
    moves: int, policy: str, first_deal: int = 1, *, physical: bool = False
) -> tuple[str, int, int]:
    """Logs played by ``policy`` on deals from ``first_deal`` on, until ``moves`` moves;
    ``physical``: as played with real cards, each deal and the wind row named, no Deal tag."""
    texts, total, deal = [], 0, first_deal
    variants = ("sun", "sun-2", "sun-3")
    while total < moves:
        variant = variants[deal % 3]
        board = play(deal, variant, policy)
        tags = [Tag("Variant", variant), Tag("Deal", str(deal))]
        played = board.move_stack
        if physical:
            tags.pop()
            again, named = Board(variant, deal=deal), []
            for move in played:
                again.push(move)
                named.append(again.named_cards(move))
            played = named
        texts.append(write_game(Game.of_moves(played, tags), result="*"))
        total += board.move_count
        deal += 1
    return "\n".join(texts), total, deal - first_deal


def general_check(path: str) -> None:
    """What ``check`` does for a file without its quick lane: read each game whole, replay."""
    for game in read_games_from(path):
        assert check_game(game, path, verbose=False, text=None).valid


def best_of(repeats: int, run: object) -> float:
    """The fastest of ``repeats`` timed calls (the least disturbed by other work)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def time_chess(pgn: str) -> float:
    import chess.pgn

    def run() -> None:
        handle = io.StringIO(pgn)
        while chess.pgn.read_game(handle) is not None:
            pass

    return run


def command_seconds(args: list[str], repeats: int) -> float:
    return best_of(repeats, lambda: subprocess.run(args, capture_output=True, check=False))


def side_by_side(commands: list[list[str]]) -> float:
    """Seconds for running ``commands`` all at once, until the last one ends."""
    start = time.perf_counter()
    running = [
        subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in commands
    ]
    for process in running:
        process.wait()
    return time.perf_counter() - start


def peak_rss_mb(args: list[str]) -> float:
    """Peak resident memory of one run of a command, in MB (Linux: ru_maxrss is in KB)."""
    code = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    return int(out.stdout.strip()) / 1024


def tiny_games_file(path: Path, games: int) -> None:
    """A file of many short games (stage actions only), written in chunks."""
    block = "".join(f'[Deal "{n}"]\ndeal deal *\n' for n in range(1000))
    with path.open("w", encoding="utf-8") as handle:
        for _ in range(games // 1000):
            handle.write(block)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="a quick run for CI")
    parser.add_argument("--policy", default="greedy", help="the policy that plays the logs")
    args = parser.parse_args(argv)
    try:
        import chess  # noqa: F401
    except ImportError:
        print("python-chess is not installed: pip install -e '.[bench]'")
        return 0
    chess_games = 40 if args.short else 400
    repeats = 2 if args.short else 5
    tmp = Path(tempfile.mkdtemp(prefix="sunlog-compare-"))
    try:
        pgn, plies = chess_pgn(chess_games, seed=1)
        text, moves, games = sun_logs(plies, args.policy)
        log = tmp / "games.sun"
        log.write_text(text, encoding="utf-8")
        assert all(r.valid for r in check_file(str(log)).games)
        chess_s = best_of(repeats, time_chess(pgn))
        sun_s = best_of(repeats, lambda: check_file(str(log)))
        chess_rate, sun_rate = plies / chess_s, moves / sun_s
        print(
            f"python-chess read_game: {plies} plies in {chess_s:.3f} s: "
            f"{chess_rate:,.0f} plies/s, {1e6 / chess_rate:.2f} us/ply"
        )
        print(
            f"sunlog check (in process): {moves} moves ({games} games, {args.policy}) in "
            f"{sun_s:.3f} s: {sun_rate:,.0f} moves/s, {1e6 / sun_rate:.2f} us/move"
        )
        print(f"ratio sunlog / python-chess per move: {sun_rate / chess_rate:.2f}x (target 5x)")
        # What the quick lane is worth: the same file the general way (scanner, Game values,
        # replay), as check reads a game the quick lane leaves (suit symbols, named deals).
        general_s = best_of(repeats, lambda: general_check(str(log)))
        # Games played with real cards: every deal and the wind row named, no Deal tag.
        physical_text, physical_moves, _ = sun_logs(plies, args.policy, physical=True)
        physical = tmp / "physical.sun"
        physical.write_text(physical_text, encoding="utf-8")
        assert all(r.valid for r in check_file(str(physical)).games)
        physical_s = best_of(repeats, lambda: check_file(str(physical)))
        # And with a comment on every line, as club logs have them (the quick lane takes them).
        commented = tmp / "commented.sun"
        commented.write_text(text.replace("\n", " { note }\n"), encoding="utf-8")
        assert all(r.valid for r in check_file(str(commented)).games)
        commented_s = best_of(repeats, lambda: check_file(str(commented)))
        for what, count, seconds in (
            ("the same file the general way, without the quick lane", moves, general_s),
            ("the same games with a comment on every line", moves, commented_s),
            ("the same games as played with real cards (named deals)", physical_moves, physical_s),
        ):
            rate = count / seconds
            print(
                f"sunlog check, {what}: {rate:,.0f} moves/s, {1e6 / rate:.2f} us/move, "
                f"{rate / chess_rate:.2f}x python-chess"
            )

        whole = command_seconds([*SUNLOG, "check", "-q", str(log)], repeats)
        print(
            f"sunlog check {log.name} as a command: {whole:.3f} s "
            f"({moves / whole:,.0f} moves/s, start-up included)"
        )
        one = tmp / "one.sun"
        one.write_text(text.split("\n\n[")[0] + "\n", encoding="utf-8")
        start_s = command_seconds([*SUNLOG, "check", "-q", str(one)], max(3, repeats))
        script = Path(sys.executable).with_name("sunlog")  # the console script beside python
        script_s = (
            command_seconds([str(script), "check", "-q", str(one)], max(3, repeats))
            if script.exists()
            else float("nan")
        )
        print(
            f"sunlog check of a one-game file: {start_s:.3f} s with python -m sunlog, "
            f"{script_s:.3f} s with the sunlog script (target < 0.3 s)"
        )

        many = tmp / "many"
        many.mkdir()
        chunks = text.split("\n[Variant")
        per_file = max(1, len(chunks) // (16 if args.short else 64))
        for i in range(0, len(chunks), per_file):
            part = "\n[Variant".join(chunks[i : i + per_file])
            if not part.startswith("[Variant"):
                part = "[Variant" + part
            (many / f"part{i:05}.sun").write_text(part + "\n", encoding="utf-8")
        files = len(list(many.iterdir()))
        # Copies make the directory big enough for the processes to pay off: a few seconds
        # of work for one process, against about 0.25 s of start-up that no process shares.
        for k in range(1, 8 if args.short else 32):
            for path in list(many.glob("part*.sun")):
                shutil.copy(path, many / f"copy{k}-{path.name}")
        files = len(list(many.iterdir()))
        # The machine's own ceiling: two independent `-j 1` runs on the two halves at once.
        names = sorted(p.name for p in many.iterdir())
        halves = [tmp / "half1", tmp / "half2"]
        for k, half in enumerate(halves):
            half.mkdir()
            for name in names[k::2]:
                shutil.copy(many / name, half / name)
        # Each round runs -j 1, -j 2 and the halves in turns, so that a busy spell of a
        # shared machine slows them all.
        rounds = [
            (
                command_seconds([*SUNLOG, "check", "-q", "-j", "1", str(many)], 1),
                command_seconds([*SUNLOG, "check", "-q", "-j", "2", str(many)], 1),
                side_by_side([[*SUNLOG, "check", "-q", "-j", "1", str(h)] for h in halves]),
            )
            for _ in range(repeats)
        ]
        j1, j2, both = (min(r[i] for r in rounds) for i in range(3))
        ratios = sorted(r[0] / r[1] for r in rounds)
        print(
            f"sunlog check of {files} files: -j 1 {j1:.3f} s, -j 2 {j2:.3f} s (best of "
            f"{repeats}): {j1 / j2:.2f}x; round by round {min(ratios):.2f}x to "
            f"{max(ratios):.2f}x, median {ratios[len(ratios) // 2]:.2f}x "
            f"(target 1.8x on {os.cpu_count()} cores)"
        )
        print(
            f"  the machine's ceiling: two independent -j 1 runs on the halves at once take "
            f"{both:.3f} s: {j1 / both:.2f}x"
        )

        for count in (10_000, 100_000) if args.short else (10_000, 1_000_000):
            tiny = tmp / f"tiny{count}.sun"
            tiny_games_file(tiny, count)
            size = tiny.stat().st_size / 1e6
            start = time.perf_counter()
            peak = peak_rss_mb([*SUNLOG, "check", "-q", str(tiny)])
            took = time.perf_counter() - start
            print(
                f"sunlog check of {count:,} games ({size:.0f} MB): peak {peak:.0f} MB "
                f"resident, {took:.1f} s (target < 100 MB, flat in the number of games)"
            )
            tiny.unlink()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
