"""Benchmark of the rules engine: random legal games on a fixed set of deals.

``python bench/bench_engine.py [--short] [--deals N] [--seed S]`` plays, for each variant,
one random game per deal number: a uniform random choice among the card moves of
``legal_moves()``, a stage action (deal, open, gather, wind) only when no card move is
left or with probability 0.1, so that games run their course. A game ends when no move is
legal, when it is lost after the wind (a lost game of sun could shift cards for ever), or
after 2,000 moves. Every move is then popped again.

Printed per variant: moves pushed per second and µs per push, ``legal_moves()`` calls per
second, µs per pop, ms per whole random game, and how the games ended. Figures only: no
speed is asserted, since it depends on the machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from sunlog.engine.board import Board, Stage, Status, Variant
from sunlog.engine.moves import Move, MoveKind

VARIANTS = (Variant.SUN, Variant.SUN2, Variant.SUN3)
#: The fixed deal numbers: the spec's four, then a deterministic spread over 64 bits.
SPEC_DEALS = (0, 1, 42, 20261129)
MAX_MOVES = 2000
STAGE_WEIGHT = 0.1


def deal_numbers(count: int) -> list[int]:
    """``count`` fixed deal numbers: SPEC 4's table first, then multiples of a 64-bit odd."""
    spread = [(k * 0x9E3779B97F4A7C15) % 2**64 for k in range(1, count + 1)]
    return [*SPEC_DEALS, *spread][:count]


@dataclass
class Tally:
    """Times and counts summed over the games of one variant."""

    games: int = 0
    pushes: int = 0
    push_s: float = 0.0
    legal_calls: int = 0
    legal_s: float = 0.0
    pops: int = 0
    pop_s: float = 0.0
    game_s: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)


def choose(moves: list[Move], rng: random.Random) -> Move:
    """A card move uniformly at random; a stage action if none, or with probability 0.1."""
    cards = [m for m in moves if m.kind is MoveKind.CARD]
    if cards and (len(cards) == len(moves) or rng.random() >= STAGE_WEIGHT):
        return rng.choice(cards)
    return rng.choice([m for m in moves if m.kind is not MoveKind.CARD])


def play_game(variant: Variant, deal: int, rng: random.Random, tally: Tally) -> None:
    """Play one random game, timing each ``legal_moves()`` and ``push``, then pop it all."""
    clock = time.perf_counter
    board = Board(variant, deal=deal)
    start = clock()
    ending = "cap"
    for _ in range(MAX_MOVES):
        t = clock()
        moves = board.legal_moves()
        tally.legal_s += clock() - t
        tally.legal_calls += 1
        if not moves:
            ending = board.status().value
            break
        move = choose(moves, rng)
        t = clock()
        board.push(move)
        tally.push_s += clock() - t
        tally.pushes += 1
        if board.stage is Stage.WIND and board.status() is Status.LOST:
            ending = "lost"
            break
    tally.game_s += clock() - start
    tally.endings[ending] += 1
    tally.games += 1
    t = clock()
    while board.move_stack:
        board.pop()
        tally.pops += 1
    tally.pop_s += clock() - t


def report(variant: Variant, tally: Tally) -> str:
    """One line of figures for a variant."""
    push_rate = tally.pushes / tally.push_s if tally.push_s else 0.0
    legal_rate = tally.legal_calls / tally.legal_s if tally.legal_s else 0.0
    push_us = 1e6 * tally.push_s / max(tally.pushes, 1)
    legal_us = 1e6 * tally.legal_s / max(tally.legal_calls, 1)
    pop_us = 1e6 * tally.pop_s / max(tally.pops, 1)
    game_ms = 1e3 * tally.game_s / max(tally.games, 1)
    per_game = tally.pushes / max(tally.games, 1)
    endings = ", ".join(f"{k} {v}" for k, v in sorted(tally.endings.items()))
    return (
        f"{variant.value:<6} {tally.games:>5} {per_game:>8.0f} {push_rate:>10,.0f} "
        f"{push_us:>8.1f} {legal_rate:>10,.0f} {legal_us:>9.1f} {pop_us:>7.1f} "
        f"{game_ms:>9.1f}   {endings}"
    )


HEADER = (
    f"{'variant':<6} {'games':>5} {'moves/g':>8} {'push/s':>10} {'µs/push':>8} "
    f"{'legal/s':>10} {'µs/legal':>9} {'µs/pop':>7} {'ms/game':>9}   endings"
)


def main(argv: list[str] | None = None) -> int:
    """Parse the options, play the games and print one line per variant."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="a quick run for CI")
    parser.add_argument("--deals", type=int, default=None, help="deals per variant")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random choices")
    args = parser.parse_args(argv)
    count = args.deals if args.deals is not None else (12 if args.short else 100)
    deals = deal_numbers(count)
    print(f"engine: {len(deals)} random games per variant, at most {MAX_MOVES} moves each")
    print(HEADER)
    started = time.perf_counter()
    for variant in VARIANTS:  # warm up: the first calls pay for imports and caches
        play_game(variant, 0, random.Random(0), Tally())
    for variant in VARIANTS:
        rng = random.Random(args.seed)
        tally = Tally()
        for deal in deals:
            play_game(variant, deal, rng, tally)
        print(report(variant, tally), flush=True)
    print(f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
