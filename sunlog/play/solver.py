"""A search solver for Sun: is a position won, lost, or unknown within limits? (issue 8).

Given a deal number the whole game is fixed, the wind row included (SPEC 4.4), so whether a
position can be won has an answer. :func:`solve` searches depth-first over the legal moves
with a table of visited positions and returns a winning line, a proof that none exists (the
search was exhaustive) or "unknown" when its node or time budget ran out. :func:`analyze`
finds where a recorded game that was not won let its win slip. ``docs/solver.md`` explains
what the search prunes and why that is sound.

The search runs on its own compact copy of the position (rays and rows as ``bytes``, one
small integer per suit for the foundations) for speed; the winning line it finds is replayed
on a real :class:`~sunlog.engine.board.Board`, which writes the canonical moves and checks them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from sunlog.engine.board import DEALS, Board, Status, Variant
from sunlog.engine.moves import Move
from sunlog.play.realize import realize
from sunlog.play.search import Limit, Limits, Searcher
from sunlog.play.solverstate import State, Step, position_key
from sunlog.play.verdicts import Analysis, SolveResult, Verdict

__all__ = [
    "Analysis",
    "SolveResult",
    "Verdict",
    "analyze",
    "position_key",
    "solve",
    "solve_deal",
]

#: Default budget of :func:`solve`: positions visited (all rounds of the search together).
DEFAULT_MAX_NODES = 1_000_000
#: Default budget of :func:`analyze`, for each position it searches.
ANALYZE_MAX_NODES = 200_000
#: The rounds of the search: how far each may deviate from greedy play (``None``: freely).
LEVELS: tuple[int | None, ...] = (0, 1, 2, None)


def solve(
    board: Board,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> SolveResult:
    """Can ``board``'s position still be won? Search within ``max_nodes`` positions and
    ``timeout`` seconds (``None``: no limit).

    With a deal number the wind row is the deal's own (SPEC 4.4). Without one the player
    names the row (SPEC 3.5), so any position before the wind is won by naming a good one.
    ``progress``, if given, is called with the positions searched so far every few
    thousand positions (an exception it raises, such as KeyboardInterrupt, ends the
    search). Raises ``ValueError`` when the deck is unknown and deals remain.
    """
    return _solve(board, Limits(max_nodes, timeout, progress))


def _solve(
    board: Board, limits: Limits, *, known_lost: set[bytes] | None = None, prune: bool = True
) -> SolveResult:
    start = time.perf_counter()
    deal, variant = board.deal_number, board.variant.value
    status = board.status()
    if status is Status.WON:
        return SolveResult(
            Verdict.WON, 0, time.perf_counter() - start, (), deal=deal, variant=variant
        )
    if status is Status.LOST:
        return SolveResult(
            Verdict.LOST, 1, time.perf_counter() - start, None, deal=deal, variant=variant
        )
    if board.deck is None and board.deals < DEALS:
        raise ValueError("the deck is not known: the solver needs a Deal or Deck tag")
    searcher = Searcher(board, limits, known_lost, prune)
    root = State.from_board(board)
    found: list[Step] | None = None
    try:
        for level in LEVELS:
            found = searcher.search(root, level)
            if found is not None or not searcher.cut:
                break
    except Limit:
        seconds = time.perf_counter() - start
        return SolveResult(
            Verdict.UNKNOWN, searcher.nodes, seconds, None, deal=deal, variant=variant
        )
    seconds = time.perf_counter() - start
    if found is None:
        if searcher.cut:  # pragma: no cover - the last level is unbounded
            raise AssertionError("solver bug: the unbounded search was cut")
        if known_lost is not None:
            known_lost.update(searcher.visited)
        return SolveResult(Verdict.LOST, searcher.nodes, seconds, None, deal=deal, variant=variant)
    line = realize(board, found)
    return SolveResult(
        Verdict.WON, searcher.nodes, time.perf_counter() - start, line, deal=deal, variant=variant
    )


def solve_deal(
    deal: int,
    variant: Variant | str = Variant.SUN,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
) -> SolveResult:
    """Solve deal number ``deal`` of ``variant`` from its start (before the first deal)."""
    return solve(Board(variant, deal=deal), max_nodes=max_nodes, timeout=timeout)


def analyze(
    initial: Board,
    moves: Sequence[Move],
    *,
    max_nodes: int | None = ANALYZE_MAX_NODES,
    timeout: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> Analysis:
    """Find where a recorded game lost its win: the last position still winnable, the move
    played from it, and a winning continuation from there.

    ``initial`` is the position before ``moves`` (usually a fresh board). Winnability only
    ever goes from yes to no along a game, so positions are probed from the end backwards
    in growing steps, then by bisection: a few searches, each within the given limits.
    ``progress``, if given, is called with the positions searched so far by all of them,
    every few thousand positions and after each search.
    """
    start = time.perf_counter()
    n = len(moves)
    boards = _Positions(initial, moves)
    results: dict[int, SolveResult] = {}
    known_lost: set[bytes] = set()
    searched = 0  # positions of the searches done

    def told(nodes: int) -> None:
        if progress is not None:
            progress(searched + nodes)

    limits = Limits(max_nodes, timeout, None if progress is None else told)

    def probe(k: int) -> Verdict:
        nonlocal searched
        if k not in results:
            results[k] = found = _solve(boards.at(k), limits, known_lost=known_lost)
            searched += found.nodes
            told(0)
        return results[k].verdict

    lo: int | None = None
    if probe(n) is Verdict.WON:
        lo = hi = n
    else:
        hi, step = n, 1
        while hi > 0:
            k = max(0, n - step)
            if probe(k) is Verdict.WON:
                lo = k
                break
            hi, step = k, step * 2
        if lo is not None:
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if probe(mid) is Verdict.WON:
                    lo = mid
                else:
                    hi = mid
    verdicts = _verdicts(n, {k: r.verdict for k, r in results.items()})
    return Analysis(
        last_winnable=lo,
        losing_move=None if lo is None or lo == n else lo + 1,
        continuation=None if lo is None else results[lo].line,
        verdicts=verdicts,
        unknown=any(r.verdict is Verdict.UNKNOWN for r in results.values()),
        nodes=sum(r.nodes for r in results.values()),
        seconds=time.perf_counter() - start,
        deal=initial.deal_number,
        variant=initial.variant.value,
    )


class _Positions:
    """The positions of a recorded game, reached by pushing and popping one board."""

    def __init__(self, initial: Board, moves: Sequence[Move]) -> None:
        self.board = initial.copy()
        self.base = len(self.board.move_stack)
        self.moves = moves
        for move in moves:  # check the whole game first: an illegal move is the caller's
            self.board.push(move)

    def at(self, k: int) -> Board:
        board = self.board
        while len(board.move_stack) - self.base > k:
            board.pop()
        while len(board.move_stack) - self.base < k:
            board.push(self.moves[len(board.move_stack) - self.base])
        return board


def _verdicts(n: int, probed: dict[int, Verdict]) -> tuple[Verdict | None, ...]:
    """Probed verdicts plus what they imply: won before a won position, lost after a lost."""
    out: list[Verdict | None] = [None] * (n + 1)
    for k, v in probed.items():
        out[k] = v
    last_won = max((k for k, v in probed.items() if v is Verdict.WON), default=-1)
    first_lost = min((k for k, v in probed.items() if v is Verdict.LOST), default=n + 1)
    for k in range(last_won + 1):
        out[k] = Verdict.WON
    for k in range(first_lost, n + 1):
        out[k] = Verdict.LOST
    return tuple(out)
