"""What the solver answers: a :class:`Verdict`, the :class:`SolveResult` of one position and
the :class:`Analysis` of a recorded game, each with its JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from sunlog.engine.moves import Move
from sunlog.play.jsonable import json_fields, rebuilt

__all__ = ["Analysis", "SolveResult", "Verdict"]


class Verdict(Enum):
    """What the search proved: a win exists, no win exists, or it could not tell."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SolveResult:
    """The answer of :func:`solve` for one position.

    ``line`` holds the canonical moves from the given position to the win (empty when the
    position is already won), or ``None`` unless the verdict is ``won``. ``nodes`` counts
    the distinct positions the search visited.
    """

    verdict: Verdict
    nodes: int
    seconds: float
    line: tuple[Move, ...] | None
    deal: int | None = None
    variant: str = "sun"

    @property
    def won(self) -> bool:
        return self.verdict is Verdict.WON

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def to_json(self, log: str | None = None) -> dict[str, Any]:
        """``{"deal", "variant", "verdict", "nodes", "seconds", "log"}``.

        ``log`` is what the caller makes of the line (a whole ``.sun`` game, say); without
        it, the line's moves in canonical notation separated by spaces, or ``None``.
        """
        if log is None and self.line is not None:
            log = " ".join(map(str, self.line))
        named = json_fields(self, ("deal", "variant", "verdict", "nodes"))
        return {**named, "seconds": round(self.seconds, 3), "log": log}


@dataclass(frozen=True)
class Analysis:
    """Where a recorded game lost its win (see :func:`analyze`).

    Positions are numbered by the moves played: position ``k`` is the one after ``k``
    moves. ``last_winnable`` is the last position proved winnable (``None`` if none was),
    ``losing_move`` the 1-based index of the move played from it (``None`` when the game
    is still winnable at its end), ``continuation`` a winning line from ``last_winnable``.
    ``verdicts[k]`` is what is known of position ``k``: examined by a search, or implied
    (a position before a winnable one is winnable, one after a lost one is lost); ``None``
    when not examined. ``unknown`` says some search ran out of budget.
    """

    last_winnable: int | None
    losing_move: int | None
    continuation: tuple[Move, ...] | None
    verdicts: tuple[Verdict | None, ...]
    unknown: bool
    nodes: int
    seconds: float
    deal: int | None = None
    variant: str = "sun"

    @property
    def certain(self) -> bool:
        """Whether the answer is proved: the win was lost exactly at ``losing_move``."""
        if self.last_winnable is None:
            return bool(self.verdicts) and self.verdicts[0] is Verdict.LOST
        if self.losing_move is None:
            return True
        return self.verdicts[self.losing_move] is Verdict.LOST

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary: the fields above, moves in canonical notation."""
        named = json_fields(self, _ANALYSIS_FIELDS)
        return {**named, "seconds": round(self.seconds, 3)}


#: The fields of :meth:`Analysis.to_json`, in order (``seconds`` follows, rounded).
_ANALYSIS_FIELDS = (
    "deal",
    "variant",
    "last_winnable",
    "losing_move",
    "continuation",
    "verdicts",
    "certain",
    "unknown",
    "nodes",
)
