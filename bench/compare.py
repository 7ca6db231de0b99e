"""sunlog check against python-chess, per move, in the same run (issue: speed side by side).

Plays ``--games`` logs (1,500 by default) with sunlog's own policies and writes them in
every style people and programs write (canonical; short forms; mixed: short forms, move
numbers apart or joined, suit symbols, lower case, annotations, comments and an escaped
tag value; physical: deals and the wind row named; a comment on every line), makes a PGN
of random legal chess games with as many plies, then times

* python-chess: ``chess.pgn.read_game`` over the PGN (parse and replay every ply);
* sunlog: what ``sunlog check`` does for each style's file (parse, replay, every check),
  in process, and the canonical file the general way (without check's quick lane): each
  round times python-chess and every style in turn, and the medians are printed;
* ``sunlog check -q FILE`` as a whole process for each style, against a python-chess
  script reading the PGN; these two comparisons by CPU time, unless ``--wall`` (a shared
  machine's wall clock also counts the waits for a core, which say nothing of either);
* ``sunlog check`` and ``--version`` of a one-game file (medians of repeated runs, as
  hyperfine gives them);
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
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

from sunlog.cli.inputs import read_games_from
from sunlog.cli.reports import check_file, check_game
from sunlog.engine.board import Board
from sunlog.notation import write_game
from sunlog.notation.game import Game, Tag
from sunlog.play.policies import play

SUNLOG = [sys.executable, "-m", "sunlog"]
# Commands run as an installed package runs: with its bytecode cached (a first run writes
# it), even where the environment turns that off.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def chess_pgn(plies_wanted: int, seed: int) -> tuple[str, int]:
    """Random legal chess games as PGN text, until ``plies_wanted`` plies, and their plies."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out, plies = [], 0
    while plies < plies_wanted:
        board, game = chess.Board(), chess.pgn.Game()
        node: chess.pgn.GameNode = game
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
    games: int, policy: str, first_deal: int = 1, *, physical: bool = False
) -> tuple[str, int, int]:
    """``games`` logs played by ``policy`` on deals from ``first_deal`` on;
    ``physical``: as played with real cards, each deal and the wind row named, no Deal tag."""
    texts, total, deal = [], 0, first_deal
    variants = ("sun", "sun-2", "sun-3")
    while deal < first_deal + games:
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


_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def styled_logs(games: int, policy: str, *, mixed: bool, seed: int = 7) -> tuple[str, int]:
    """``games`` logs (as :func:`sun_logs` plays them) as people write them: every card
    move in its shortest form; ``mixed`` also writes move numbers (apart or joined), suit
    symbols, lower case, annotations, comments and an Event tag with escapes, at random
    (each game valid)."""
    rng = random.Random(seed)
    texts, total, deal = [], 0, 1
    variants = ("sun", "sun-2", "sun-3")
    while deal <= games:
        variant = variants[deal % 3]
        played = play(deal, variant, policy).move_stack
        board = Board(variant, deal=deal)
        words = []
        for i, move in enumerate(played, 1):
            form = board.shortest(move) if not mixed or rng.random() < 0.7 else move
            board.push(move)
            word = str(form)
            if mixed:
                if form.card is not None and rng.random() < 0.3:
                    word = re.sub("[SHDC](?=>|$)", lambda m: _SYMBOLS[m.group()], word, count=1)
                if rng.random() < 0.2:
                    word = word.lower()
                if rng.random() < 0.1:
                    word += rng.choice(("!", "?", "!?", "?!", "!!", "??"))
                roll = rng.random()
                if roll < 0.15:
                    word = f"{i}.{word}"
                elif roll < 0.3:
                    word = f"{i}. {word}"
                if rng.random() < 0.05:
                    word += rng.choice((" { a note }", " ; a line comment\n"))
            words.append(word)
        tags = [f'[Variant "{variant}"]', f'[Deal "{deal}"]']
        if mixed:
            tags.insert(0, '[Annotator "a \\"quoted\\" \\\\ name"]')
        lines = [" ".join(words[k : k + 12]) for k in range(0, len(words), 12)]
        texts.append("\n".join([*tags, "", *lines, "*", ""]))
        total += len(played)
        deal += 1
    return "\n".join(texts), total


def general_check(path: str) -> None:
    """What ``check`` does for a file without its quick lane: read each game whole, replay."""
    for game in read_games_from(path):
        assert check_game(game, path, verbose=False, text=None).valid


def best_of(
    repeats: int, run: Callable[[], object], clock: Callable[[], float] = time.perf_counter
) -> float:
    """The fastest of ``repeats`` timed calls (the least disturbed by other work)."""
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        run()
        best = min(best, clock() - start)
    return best


def children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command_cpu(args: list[str]) -> float:
    """CPU seconds of one run of a command: what it cost, however busy the machine."""
    start = children_cpu()
    subprocess.run(args, capture_output=True, check=False, env=ENV)
    return children_cpu() - start


def time_chess(pgn: str) -> Callable[[], None]:
    """What python-chess does for the PGN: read every game (parse and replay each ply)."""
    import chess.pgn

    def run() -> None:
        handle = io.StringIO(pgn)
        while chess.pgn.read_game(handle) is not None:
            pass

    return run


def command_seconds(args: list[str], repeats: int) -> float:
    return best_of(repeats, lambda: subprocess.run(args, capture_output=True, check=False, env=ENV))


def command_seconds_once(args: list[str]) -> float:
    return command_seconds(args, 1)


def command_median(args: list[str], runs: int) -> float:
    """The median seconds of ``runs`` runs of a command (as hyperfine reports it)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, capture_output=True, check=False, env=ENV)
        times.append(time.perf_counter() - start)
    return median(times)


def side_by_side(commands: list[list[str]]) -> float:
    """Seconds for running ``commands`` all at once, until the last one ends."""
    start = time.perf_counter()
    running = [
        subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        for c in commands
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
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=ENV
    )
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
    parser.add_argument("--games", type=int, default=1500, help="games a style")
    parser.add_argument("--keep", metavar="DIR", help="write the files here and keep them")
    parser.add_argument(
        "--styles-only",
        action="store_true",
        help="only the styles and the start-up (no -j, memory)",
    )
    parser.add_argument(
        "--wall",
        action="store_true",
        help="time the styles by the wall clock, not by CPU time (a quiet machine only)",
    )
    args = parser.parse_args(argv)
    try:
        import chess  # noqa: F401
    except ImportError:
        print("python-chess is not installed: pip install -e '.[bench]'")
        return 0
    games = 60 if args.short else args.games
    repeats = 2 if args.short else 5
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="sunlog-compare-"))
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        text, moves, _ = sun_logs(games, args.policy)
        pgn, plies = chess_pgn(moves, seed=1)
        (tmp / "chess.pgn").write_text(pgn, encoding="utf-8")
        physical_text, physical_moves, _ = sun_logs(games, args.policy, physical=True)
        short_text, short_moves = styled_logs(games, args.policy, mixed=False)
        mixed_text, mixed_moves = styled_logs(games, args.policy, mixed=True)
        # name, file text, moves, how it is checked
        styles: list[tuple[str, str, int, Callable[[str], object]]] = [
            ("canonical", text, moves, check_file),
            ("canonical, general path", text, moves, general_check),
            ("short forms", short_text, short_moves, check_file),
            ("mixed (short forms, numbers, symbols, annotations, comments)", mixed_text,
             mixed_moves, check_file),
            ("physical (deals and the wind row named)", physical_text, physical_moves,
             check_file),
            ("commented (a { comment } on every line)", text.replace("\n", " { note }\n"),
             moves, check_file),
        ]  # fmt: skip
        paths = []
        for k, (name, body, _, _) in enumerate(styles):
            path = tmp / f"style{k}.sun"
            path.write_text(body, encoding="utf-8")
            paths.append(path)
            reports = check_file(str(path)).games
            assert reports and all(r.valid for r in reports), name
        # CPU time by default: on a shared machine the wall clock also counts the time a
        # program waits for a core, which says nothing of either program.
        clock = time.perf_counter if args.wall else time.process_time
        run_whole = command_seconds_once if args.wall else command_cpu
        print(
            f"{games} games a style ({args.policy}); python-chess read_game on {plies} plies "
            f"of random legal games; median of {repeats} rounds, each timing python-chess "
            f"and every style in turn, by {'the wall clock' if args.wall else 'CPU time'}"
        )
        chess_run = time_chess(pgn)
        per_move: list[list[float]] = [[] for _ in styles]
        ratios: list[list[float]] = [[] for _ in styles]
        chess_times = []
        for _ in range(repeats):
            chess_s = best_of(1, chess_run, clock)
            chess_times.append(chess_s)
            for k, (_, _, count, check) in enumerate(styles):
                seconds = best_of(1, lambda: check(str(paths[k])), clock)  # noqa: B023
                per_move[k].append(1e6 * seconds / count)
                ratios[k].append((count / seconds) / (plies / chess_s))
        chess_us = 1e6 * median(chess_times) / plies
        print(f"  python-chess: {chess_us:.2f} us a ply")
        print(f"  {'style':<62} {'us a move':>9} {'x python-chess':>15}")
        for k, (name, _, _, _) in enumerate(styles):
            print(f"  {name:<62} {median(per_move[k]):9.2f} {median(ratios[k]):15.2f}")
        # Whole processes: `sunlog check -q FILE` against a python-chess script on the PGN.
        chess_cmd = [
            sys.executable,
            "-c",
            "import chess.pgn, sys\nwith open(sys.argv[1]) as f:\n"
            "    while chess.pgn.read_game(f) is not None: pass",
            str(tmp / "chess.pgn"),
        ]
        print("  as whole processes (start-up included), median of rounds:")
        whole_rows: list[list[float]] = [[] for _ in styles]
        chess_whole = []
        for _ in range(repeats):
            chess_whole.append(run_whole(chess_cmd))
            for k, (_, _, _, check) in enumerate(styles):
                if check is check_file:
                    whole_rows[k].append(run_whole([*SUNLOG, "check", "-q", str(paths[k])]))
        chess_w = median(chess_whole)
        print(f"  python-chess script: {chess_w:.3f} s")
        for (name, _, count, _), whole in zip(styles, whole_rows, strict=True):
            if whole:
                seconds = median(whole)
                ratio = (count / seconds) / (plies / chess_w)
                print(f"  sunlog check {name:<49} {seconds:7.3f} s {ratio:8.2f}x")
        one = tmp / "one.sun"
        one.write_text(text.split("\n\n[")[0] + "\n", encoding="utf-8")
        runs = 5 if args.short else 21
        start_s = command_median([*SUNLOG, "check", "-q", str(one)], runs)
        script = Path(sys.executable).with_name("sunlog")  # the console script beside python
        script_s = version_s = float("nan")
        if script.exists():
            script_s = command_median([str(script), "check", "-q", str(one)], runs)
            version_s = command_median([str(script), "--version"], runs)
        python_s = command_median([sys.executable, "-c", "pass"], runs)
        print(
            f"sunlog check of a one-game file (median of {runs} runs): {start_s:.3f} s with "
            f"python -m sunlog, {script_s:.3f} s with the sunlog script (target < 0.15 s); "
            f"sunlog --version {version_s:.3f} s; a bare python {python_s:.3f} s"
        )

        if args.styles_only:
            return 0
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
        for k in range(1, 8 if args.short else max(2, 13_000 // games)):
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
        j_ratios = sorted(r[0] / r[1] for r in rounds)
        print(
            f"sunlog check of {files} files: -j 1 {j1:.3f} s, -j 2 {j2:.3f} s (best of "
            f"{repeats}): {j1 / j2:.2f}x; round by round {min(j_ratios):.2f}x to "
            f"{max(j_ratios):.2f}x, median {median(j_ratios):.2f}x "
            f"(target 1.8x on {os.cpu_count()} cores)"
        )
        print(
            f"  the machine's ceiling: two independent -j 1 runs on the halves at once take "
            f"{both:.3f} s: {j1 / both:.2f}x"
        )

        for count in (2_000, 20_000) if args.short else (10_000, 1_000_000):
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
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
