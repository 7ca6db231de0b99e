"""How often Sun comes out: a policy's results over a range of deals, with a Wilson interval.

:func:`run_stats` plays deals D..D+N-1 with one policy and sums up what happened. Every game
depends only on (variant, policy, deal), so the figures are the same on every run and for
any number of processes: ``jobs`` splits the deals into fixed chunks played by a
``ProcessPoolExecutor`` and adds the chunks up in order. ``python -m sunlog.play.stats`` prints
the figures (``--json`` for programs); ``sunlog stats`` takes the same options.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sunlog.engine.board import Board, Variant
from sunlog.play.jsonable import json_fields
from sunlog.play.policies import DEFAULT_POLICY, Policy, get_policy, play
from sunlog.play.wilson import wilson
from sunlog.play.workers import pooled

__all__ = [
    "CHUNK",
    "STAGE_KEYS",
    "GameSummary",
    "StatsResult",
    "play_deals",
    "run_stats",
    "wilson",
]

#: Deals per task handed to a worker process (the split never changes the figures).
CHUNK = 50
#: The keys of ``wins_by_stage``: the stage a game was won in.
STAGE_KEYS = ("1", "2", "3", "wind")


@dataclass(frozen=True)
class GameSummary:
    """What :func:`run_stats` keeps of one game."""

    deal: int
    status: str  # "won", "lost" or "playing" (an unfinished game)
    stage: str  # one of STAGE_KEYS: the stage the game ended in
    on_foundations: int
    moves: int

    @classmethod
    def of(cls, deal: int, board: Board) -> GameSummary:
        return cls(
            deal,
            board.status().value,
            str(board.stage.json),
            board.on_foundations(),
            board.move_count,
        )


#: The fields :meth:`StatsResult.to_json` writes first, in order.
_RESULT_FIELDS = ("variant", "policy", "first_deal", "games", "wins", "win_rate", "ci95")


@dataclass(frozen=True)
class StatsResult:
    """The figures of one run: wins, their stages, cards on the foundations at the end."""

    variant: str
    policy: str
    first_deal: int
    games: int
    wins: int
    lost: int
    unfinished: int
    wins_by_stage: dict[str, int] = field(default_factory=dict)
    #: games by the number of cards on the foundations at their end
    distribution: dict[int, int] = field(default_factory=dict)
    moves: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def mean_on_foundations(self) -> float:
        total = sum(count * games for count, games in self.distribution.items())
        return total / self.games if self.games else 0.0

    @property
    def last_deal(self) -> int:
        return self.first_deal + self.games - 1

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON object (``distribution`` keys are strings, ascending)."""
        named = json_fields(self, _RESULT_FIELDS)
        return {
            **named,
            "wins_by_stage": {key: self.wins_by_stage.get(key, 0) for key in STAGE_KEYS},
            **json_fields(self, ("lost", "unfinished", "mean_on_foundations")),
            "mean_moves": self.moves / self.games if self.games else 0.0,
            "distribution": {str(k): v for k, v in sorted(self.distribution.items())},
        }

    def to_text(self) -> str:
        """A report for people: the win rate with its interval, then the details."""
        low, high = self.ci95
        stages = "  ".join(f"{key}: {self.wins_by_stage.get(key, 0)}" for key in STAGE_KEYS)
        lines = [
            f"{self.variant}, policy {self.policy}, deals {self.first_deal}..{self.last_deal}"
            f" ({self.games} games)",
            f"won          {self.wins} = {self.win_rate:.2%}"
            f"  (95% CI {low:.2%} .. {high:.2%}, Wilson)",
            f"won in stage {stages}",
            f"lost         {self.lost}",
            f"cards on the foundations at the end: mean {self.mean_on_foundations:.1f}",
        ]
        if self.unfinished:
            lines.append(f"unfinished   {self.unfinished}")
        lines += _histogram(self.distribution, self.games)
        return "\n".join(lines)

    @classmethod
    def from_games(
        cls, variant: str, policy: str, first_deal: int, games: Sequence[GameSummary]
    ) -> StatsResult:
        """Add up game summaries."""
        tally = _Tally()
        tally.add(games)
        return tally.result(variant, policy, first_deal)


@dataclass
class _Tally:
    """Running sums of game summaries: chunks are folded in as they finish, in any order
    (sums do not care), so memory stays flat however many games are played."""

    games: int = 0
    wins: int = 0
    lost: int = 0
    unfinished: int = 0
    moves: int = 0
    by_stage: Counter[str] = field(default_factory=Counter)
    distribution: Counter[int] = field(default_factory=Counter)

    def add(self, games: Iterable[GameSummary]) -> int:
        """Fold in some games; how many there were."""
        before = self.games
        for g in games:
            self.games += 1
            self.moves += g.moves
            self.distribution[g.on_foundations] += 1
            if g.status == "won":
                self.wins += 1
                self.by_stage[g.stage] += 1
            elif g.status == "lost":
                self.lost += 1
            elif g.status == "playing":
                self.unfinished += 1
        return self.games - before

    def result(self, variant: str, policy: str, first_deal: int) -> StatsResult:
        return StatsResult(
            variant=variant,
            policy=policy,
            first_deal=first_deal,
            games=self.games,
            wins=self.wins,
            lost=self.lost,
            unfinished=self.unfinished,
            wins_by_stage={key: self.by_stage.get(key, 0) for key in STAGE_KEYS},
            distribution=dict(sorted(self.distribution.items())),
            moves=self.moves,
        )


def _histogram(distribution: dict[int, int], games: int, width: int = 40) -> list[str]:
    """The distribution in bands of ten cards (104, a win, on its own), as text bars."""
    bands: Counter[str] = Counter()
    for count, n in distribution.items():
        band = "104" if count == 104 else f"{count // 10 * 10}-{min(count // 10 * 10 + 9, 103)}"
        bands[band] += n
    order = [f"{b}-{min(b + 9, 103)}" for b in range(0, 104, 10)] + ["104"]
    lines = ["  cards      games"]
    for band in order:
        if bands[band]:
            bar = "#" * max(1, round(width * bands[band] / games))
            lines.append(f"  {band:>7}  {bands[band]:>7}  {bar}")
    return lines


def play_deals(variant: str, policy: Policy | str, deals: Sequence[int]) -> list[GameSummary]:
    """Play each deal with ``policy`` and summarise it (the work of one chunk)."""
    chosen = get_policy(policy)
    return [GameSummary.of(deal, play(deal, variant, chosen)) for deal in deals]


def run_stats(
    variant: Variant | str,
    policy: Policy | str = DEFAULT_POLICY,
    games: int = 1000,
    first_deal: int = 1,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    scheduler: str | None = None,
) -> StatsResult:
    """Play deals ``first_deal`` .. ``first_deal + games - 1`` and add up the results.

    ``jobs`` processes share the work in chunks of :data:`CHUNK` deals, or the tasks go to
    the ``dask.distributed`` scheduler at ``scheduler``; the result is the same for any
    ``jobs`` and on a cluster. ``progress(done, total)`` is called as games finish.
    """
    variant = variant if isinstance(variant, Variant) else Variant.parse(variant)
    chosen = get_policy(policy)
    if games < 0:
        raise ValueError(f"the number of games must be 0 or more, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    if first_deal < 0 or first_deal + games > 1 << 64:
        raise ValueError("deal numbers are 0 to 2^64-1")
    last = first_deal + games
    chunks = (range(start, min(start + CHUNK, last)) for start in range(first_deal, last, CHUNK))
    tally = _Tally()
    if progress:
        progress(0, games)
    if scheduler is not None:
        from sunlog.play.cluster import run_on_cluster

        tasks = (
            (
                f"sunlog-stats-{variant.value}-{chosen.name}-{chunk.start}",
                (variant.value, chosen.name, chunk),
            )
            for chunk in chunks
        )
        finished: Iterator[list[GameSummary]] = run_on_cluster(scheduler, play_deals, tasks)
    elif jobs == 1 or games <= CHUNK:
        finished = (play_deals(variant.value, chosen, chunk) for chunk in chunks)
    else:
        finished = _parallel(chunks, variant.value, chosen, jobs)
    try:
        for played in finished:
            tally.add(played)
            if progress:
                progress(tally.games, games)
    finally:  # Ctrl-C: the workers stop now
        if isinstance(finished, Generator):
            finished.close()
    return tally.result(variant.value, chosen.name, first_deal)


def _parallel(
    chunks: Iterator[range], variant: str, policy: Policy, jobs: int
) -> Iterator[list[GameSummary]]:
    """Play ``chunks`` in ``jobs`` processes; each chunk's games as it finishes, in any
    order."""
    return pooled(jobs, play_deals, ((variant, policy, chunk) for chunk in chunks))


if __name__ == "__main__":  # one command line: `sunlog stats`, with its options and words
    print(
        "python -m sunlog.play.stats is gone: run `sunlog stats` with the same options "
        "(sunlog stats -h lists them)",
        file=sys.stderr,
    )
    sys.exit(2)
