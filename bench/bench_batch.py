"""Benchmark of batch solving: decided deals per minute of ``solve --deals``, -j 1 and -j 2.

``python bench/bench_batch.py [--short]`` solves a fixed range of deals with
:func:`sunlog.play.batch.run_batch` into a fresh results file, first in this process
(``-j 1``), then in two processes (``-j 2``), and prints per run the deals, how many were
decided (won or proved lost), the wall seconds and the decided deals per minute; the plain
loop over :func:`~sunlog.play.batch.solve_one` without a file shows what writing and
fsync'ing a line per deal costs. The full run uses the default budget (1,000,000
positions); ``--short`` (for CI) a small one, in a few seconds.

Figures are printed, never asserted: speed depends on the machine and on its load. The
runs must agree deal by deal (the solver is deterministic under a node budget): that is
checked, and a disagreement exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sunlog.play.batch import BatchSettings, run_batch, solve_one
from sunlog.play.solver import DEFAULT_MAX_NODES

#: (variant, deals, budget) of the full run and of the short one.
FULL = [("sun-3", range(1, 201), DEFAULT_MAX_NODES), ("sun", range(1, 21), DEFAULT_MAX_NODES)]
SHORT = [("sun-3", range(1, 41), 20_000), ("sun", range(1, 7), 5_000)]


def _timed(work: Callable[[], list[dict[str, Any]]]) -> tuple[list[dict[str, Any]], float]:
    start = time.perf_counter()
    records = work()
    return records, time.perf_counter() - start


def _key(records: list[dict[str, Any]]) -> dict[int, tuple[Any, ...]]:
    return {r["deal"]: (r["verdict"], r["nodes"]) for r in records}


def run_case(variant: str, deals: range, budget: int, folder: Path) -> bool:
    """Time the three ways for one range; print a line each; whether they agreed."""
    settings = BatchSettings(variant, max_nodes=budget)

    def plain() -> list[dict[str, Any]]:
        return [solve_one(deal, settings) for deal in deals]

    def batch(jobs: int) -> Callable[[], list[dict[str, Any]]]:
        path = folder / f"{variant}-{jobs}.jsonl"

        def go() -> list[dict[str, Any]]:
            run_batch(deals, settings, path, jobs=jobs)
            return [json.loads(line) for line in path.read_text().splitlines()]

        return go

    runs = [("loop, no file", plain), ("batch -j 1", batch(1)), ("batch -j 2", batch(2))]
    results = []
    for name, work in runs:
        records, seconds = _timed(work)
        decided = sum(r["verdict"] != "unknown" for r in records)
        rate = 60 * decided / seconds if seconds else 0.0
        print(
            f"{variant:6} {deals.start:>5}-{deals.stop - 1:<5} {budget:>9,} {name:14}"
            f" {len(records):>6} {decided:>7} {seconds:>8.1f} {rate:>10.1f}",
            flush=True,
        )
        results.append(_key(records))
    return all(r == results[0] for r in results)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--short", action="store_true", help="a few seconds, for CI")
    args = parser.parse_args(argv)
    print(
        f"{'variant':6} {'deals':^11} {'budget':>9} {'run':14} {'deals':>6} {'decided':>7}"
        f" {'wall s':>8} {'decided/min':>10}"
    )
    agreed = True
    with tempfile.TemporaryDirectory() as folder:
        for variant, deals, budget in SHORT if args.short else FULL:
            agreed &= run_case(variant, deals, budget, Path(folder))
    if not agreed:
        print("the runs disagree deal by deal: the solver is not deterministic", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
