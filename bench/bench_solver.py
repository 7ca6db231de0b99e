"""Benchmark of the solver: nodes per second, and the time to solve a fixed set of deals.

``python bench/bench_solver.py [--short]`` solves a fixed list of deals of the three
variants, each within a fixed node budget, and prints per deal the verdict, the positions
visited, the seconds and the nodes per second, then the totals. ``--short`` (for CI) runs
a handful of small searches in a few seconds.

``python bench/bench_solver.py --census 1-1000 --variant sun --max-nodes 100000`` solves a
range of deal numbers and prints how many were won, proved lost and left unknown (the
figures of docs/solver.md); ``--jsonl FILE`` also writes one line per deal.

Figures are printed, never asserted: speed depends on the machine. Node budgets, unlike
time limits, make the verdicts themselves reproducible.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from sunlog.engine.board import Board, Status
from sunlog.play.solver import SolveResult, Verdict, solve_deal

#: (variant, deal, node budget) of the full run: quick wins, slow wins, searches cut off.
FULL = (
    [("sun", d, 200_000) for d in range(1, 11)]
    + [("sun-2", d, 200_000) for d in (2, 4, 9, 13, 15)]
    + [("sun-2", d, 100_000) for d in (1, 3)]
    + [("sun-3", d, 200_000) for d in range(1, 11)]
)
#: The short run, a few seconds; its last search runs to its budget (raw search speed).
SHORT = [
    ("sun", 3, 20_000),
    ("sun", 5, 20_000),
    ("sun-2", 9, 20_000),
    ("sun-3", 1, 20_000),
    ("sun-2", 1, 30_000),
]


def _check(result: SolveResult, variant: str, deal: int) -> None:
    """A winning line must replay to a won game: a benchmark that lies is worse than none."""
    if result.line is None:
        return
    board = Board(variant, deal=deal)
    for move in result.line:
        board.push(move)
    if board.status() is not Status.WON:
        raise SystemExit(f"{variant} deal {deal}: the winning line does not win")


def run_set(cases: Sequence[tuple[str, int, int]]) -> None:
    """Solve each case, print a line for it and the totals."""
    header = ("variant", "deal", "verdict", "nodes", "wall s", "cpu s", "nodes/s")
    print("{:7} {:>6} {:8} {:>9} {:>7} {:>7} {:>8}".format(*header))
    nodes = 0
    wall = cpu = 0.0
    verdicts: Counter[str] = Counter()
    for variant, deal, budget in cases:
        start = time.process_time()
        result = solve_deal(deal, variant, max_nodes=budget)
        used = time.process_time() - start
        _check(result, variant, deal)
        rate = result.nodes / used if used else 0.0
        print(
            f"{variant:7} {deal:>6} {result.verdict.value:8} {result.nodes:>9} "
            f"{result.seconds:>7.2f} {used:>7.2f} {rate:>8.0f}",
            flush=True,
        )
        nodes += result.nodes
        wall += result.seconds
        cpu += used
        verdicts[result.verdict.value] += 1
    summary = ", ".join(f"{v.value} {verdicts[v.value]}" for v in Verdict)
    print(f"total: {len(cases)} deals ({summary}) in {wall:.1f} s ({cpu:.1f} s of CPU)")
    print(f"nodes per CPU second: {nodes / cpu if cpu else 0.0:.0f} ({nodes} nodes)")


def census(variant: str, first: int, last: int, budget: int, jsonl: Path | None) -> None:
    """Solve deals ``first..last`` of ``variant`` within ``budget`` nodes each; print counts."""
    verdicts: Counter[str] = Counter()
    nodes = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    out = jsonl.open("a", encoding="utf-8") if jsonl else None
    try:
        for deal in range(first, last + 1):
            result = solve_deal(deal, variant, max_nodes=budget)
            _check(result, variant, deal)
            verdicts[result.verdict.value] += 1
            nodes += result.nodes
            if out:
                record = result.to_json()
                record["moves"] = None if result.line is None else len(result.line)
                out.write(json.dumps(record) + "\n")
                out.flush()
    finally:
        if out:
            out.close()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    total = last - first + 1
    print(f"{variant} deals {first}..{last}, at most {budget} nodes each:")
    for verdict in Verdict:
        count = verdicts[verdict.value]
        print(f"  {verdict.value:8} {count:5}  ({100 * count / total:.1f}%)")
    decided = verdicts[Verdict.WON.value] + verdicts[Verdict.LOST.value]
    print(f"  {seconds:.0f} s ({cpu:.0f} s of CPU), {nodes} nodes")
    print(f"  nodes per CPU second: {nodes / cpu if cpu else 0:.0f}")
    print(f"  decided deals per CPU minute: {60 * decided / cpu if cpu else 0:.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: the fixed set (``--short`` for CI) or a ``--census`` of a deal range."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="a few seconds, for CI")
    parser.add_argument("--census", metavar="FIRST-LAST", help="solve a range of deals")
    parser.add_argument("--variant", default="sun", choices=["sun", "sun-2", "sun-3"])
    parser.add_argument("--max-nodes", type=int, default=100_000, help="budget per deal")
    parser.add_argument("--jsonl", type=Path, help="with --census: one JSON line per deal")
    args = parser.parse_args(argv)
    if args.census:
        first, _, last = args.census.partition("-")
        census(args.variant, int(first), int(last or first), args.max_nodes, args.jsonl)
    else:
        run_set(SHORT if args.short else FULL)
        print("(nodes/s counts CPU time, so that a busy machine does not skew it; wall s is")
        print(" what a user waits, line replay included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
