"""Benchmark of the policies: whole games per second, per policy and variant.

``python bench/bench_policies.py [--short] [--games N] [--first-deal D]`` plays deals
D..D+N-1 in one process with each policy (random, greedy, lookahead) in each variant and
prints ms per game (wall clock and CPU), games per second, moves per game and the wins.
``--short`` (for CI) plays a few games of each, a few seconds in all. Figures only: no speed
is asserted, since it depends on the machine; docs/statistics.md has the win rates.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from sunlog.engine.board import Variant
from sunlog.play.policies import POLICIES, play

VARIANTS = (Variant.SUN, Variant.SUN2, Variant.SUN3)
#: Games per policy in ``--short`` mode (the lookahead is the slowest).
SHORT_GAMES = {"random": 10, "greedy": 20, "patient": 20, "lookahead": 5}
DEFAULT_GAMES = 200


@dataclass(frozen=True)
class Timing:
    """The games of one policy in one variant, and how long they took."""

    variant: str
    policy: str
    games: int
    seconds: float  # wall clock
    cpu_seconds: float  # this process's CPU time: steadier on a busy machine
    moves: int
    wins: int

    @property
    def ms_per_game(self) -> float:
        return 1000 * self.seconds / self.games

    @property
    def cpu_ms_per_game(self) -> float:
        return 1000 * self.cpu_seconds / self.games

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")


def time_policy(variant: Variant, policy: str, games: int, first_deal: int = 1) -> Timing:
    """Play ``games`` deals from ``first_deal`` with ``policy`` and time them (wall clock)."""
    moves = wins = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for deal in range(first_deal, first_deal + games):
        board = play(deal, variant, policy)
        moves += board.move_count
        wins += board.is_won()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return Timing(variant.value, policy, games, seconds, cpu, moves, wins)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per (variant, policy)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="a few games of each, for CI")
    parser.add_argument("--games", type=int, default=None, help=f"games each ({DEFAULT_GAMES})")
    parser.add_argument("--first-deal", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        f"{'variant':7} {'policy':10} {'games':>6} {'ms/game':>9} {'cpu ms':>8} {'games/s':>9} "
        f"{'moves/game':>11} {'won':>6}"
    )
    for variant in VARIANTS:
        for policy in POLICIES:
            games = args.games or (SHORT_GAMES.get(policy, 10) if args.short else DEFAULT_GAMES)
            t = time_policy(variant, policy, games, args.first_deal)
            print(
                f"{t.variant:7} {t.policy:10} {t.games:>6} {t.ms_per_game:>9.2f} "
                f"{t.cpu_ms_per_game:>8.2f} "
                f"{t.games_per_second:>9.1f} {t.moves / t.games:>11.1f} {t.wins:>6}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
