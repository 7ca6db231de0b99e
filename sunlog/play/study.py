"""The figures of a winnability study: result files of :mod:`sunlog.play.batch`, summed up.

:func:`load_results` reads one or more results files (JSON Lines, ``.gz`` too) and keeps each
deal once per variant and budget; :func:`summarize` gives, per variant and budget, the deals
won, proved lost and unknown, and the winnability as a 95% Wilson interval bounded both ways
as Blake and Gent do: unknown deals count as lost for the lower end and as won for the upper
end. Also the solve times by decade, and the share of deals decided within smaller budgets:
the search is deterministic and its budget counts positions, so a deal decided after ``n``
positions is decided by exactly the same search under any budget of at least ``n``.
"""

from __future__ import annotations

import gzip
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sunlog.play.batch import BatchError, parse_line
from sunlog.play.jsonable import json_fields
from sunlog.play.wilson import wilson

__all__ = ["TIME_BANDS", "BatchError", "Figures", "Loaded", "load_results", "summarize"]

#: The bands of the histogram of solve times, in seconds: [0, 0.01), [0.01, 0.1), ...
TIME_BANDS = (0.01, 0.1, 1.0, 10.0, 100.0)


@dataclass(frozen=True)
class Loaded:
    """Result lines read from files, each deal once, and what was set aside."""

    records: tuple[dict[str, Any], ...]
    duplicates: int = 0  # the same deal, variant and budget again (kept once)
    partial: int = 0  # half-written last lines (a run still going, or killed)


def _lines(path: str) -> list[bytes]:
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as handle:
            data: bytes = handle.read()
    except (EOFError, gzip.BadGzipFile) as exc:
        raise BatchError(f"{path}: not a whole gzip file ({exc})") from None
    return data.split(b"\n")


def load_results(paths: Iterable[str | os.PathLike[str]]) -> Loaded:
    """Read results files; raises :class:`~sunlog.play.batch.BatchError` for a bad line."""
    seen: set[tuple[Any, ...]] = set()
    records: list[dict[str, Any]] = []
    duplicates = partial = 0
    for source in paths:
        path = os.fspath(source)
        lines = _lines(path)
        if lines[-1].strip():  # no newline at the end: a half-written line
            partial += 1
        for number, raw in enumerate(lines[:-1], 1):
            if not raw.strip():
                continue
            record = parse_line(raw.decode("utf-8", errors="replace"), f"{path}:{number}")
            key = (record["variant"], record["max_nodes"], record["timeout"], record["deal"])
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
            records.append(record)
    return Loaded(tuple(records), duplicates, partial)


@dataclass(frozen=True)
class Figures:
    """One variant at one budget: the verdicts, the interval, times and budgets."""

    variant: str
    max_nodes: int | None
    timeout: float | None
    deals: int
    won: int
    lost: int
    unknown: int
    first_deal: int
    last_deal: int
    seconds: float
    #: deals by solve time: the band's upper bound in seconds (``None``: above the last)
    times: tuple[tuple[float | None, int], ...] = ()
    #: (budget in positions, deals decided within it), for 10^3, 10^4, ... and the budget
    decided_within: tuple[tuple[int, int], ...] = ()
    contiguous: bool = field(default=True)

    @property
    def interval(self) -> tuple[float, float]:
        """Winnability, 95% Wilson: unknown as lost for the low end, as won for the high."""
        return (
            wilson(self.won, self.deals)[0],
            wilson(self.won + self.unknown, self.deals)[1],
        )

    @property
    def decided(self) -> int:
        return self.won + self.lost

    def to_json(self) -> dict[str, Any]:
        named = json_fields(self, _FIGURES_FIELDS)
        return {
            **named,
            "winnable": list(self.interval),
            "won_share": self.won / self.deals if self.deals else 0.0,
            "decided_share": self.decided / self.deals if self.deals else 0.0,
            "seconds": round(self.seconds, 3),
            "times": [{"below": below, "deals": n} for below, n in self.times],
            "decided_within": [
                {"max_nodes": budget, "decided": n, "share": n / self.deals if self.deals else 0.0}
                for budget, n in self.decided_within
            ],
        }


#: The fields :meth:`Figures.to_json` writes first, in order.
_FIGURES_FIELDS = (
    "variant",
    "max_nodes",
    "timeout",
    "deals",
    "first_deal",
    "last_deal",
    "contiguous",
    "won",
    "lost",
    "unknown",
)


def _budgets(max_nodes: int | None, most: int) -> list[int]:
    """10^3, 10^4, ... below the run's budget, then the budget (or the most nodes seen)."""
    top = max_nodes if max_nodes is not None else max(most, 1)
    budgets = []
    power = 1000
    while power < top:
        budgets.append(power)
        power *= 10
    return [*budgets, top]


def _figures(key: tuple[Any, ...], group: Sequence[dict[str, Any]]) -> Figures:
    variant, max_nodes, timeout = key
    verdicts = Counter(r["verdict"] for r in group)
    deals = sorted(r["deal"] for r in group)
    bands: Counter[float | None] = Counter()
    for r in group:
        bands[next((b for b in TIME_BANDS if r["seconds"] < b), None)] += 1
    decided_nodes = [r["nodes"] for r in group if r["verdict"] != "unknown"]
    budgets = _budgets(max_nodes, max((r["nodes"] for r in group), default=0))
    return Figures(
        variant=variant,
        max_nodes=max_nodes,
        timeout=timeout,
        deals=len(group),
        won=verdicts["won"],
        lost=verdicts["lost"],
        unknown=verdicts["unknown"],
        first_deal=deals[0],
        last_deal=deals[-1],
        seconds=sum(r["seconds"] for r in group),
        times=tuple((b, bands[b]) for b in (*TIME_BANDS, None) if bands[b]),
        decided_within=tuple((b, sum(n <= b for n in decided_nodes)) for b in budgets),
        contiguous=deals[-1] - deals[0] + 1 == len(deals),
    )


_ORDER = {"sun": 0, "sun-3": 1, "sun-2": 2}


def summarize(records: Iterable[dict[str, Any]]) -> list[Figures]:
    """The figures per variant and budget (sun, sun-3, sun-2; budgets ascending)."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault((r["variant"], r["max_nodes"], r["timeout"]), []).append(r)

    def order(key: tuple[Any, ...]) -> tuple[Any, ...]:
        variant, nodes, timeout = key
        return (_ORDER.get(variant, 9), variant, nodes is None, nodes or 0, timeout or 0)

    return [_figures(key, groups[key]) for key in sorted(groups, key=order)]
