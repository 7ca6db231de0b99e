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
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import Enum
from itertools import accumulate
from typing import Any

from sunlog.engine.board import DEALS, RAYS, Board, Status, Variant
from sunlog.engine.cards import CARDS, Card
from sunlog.engine.deal import SplitMix64, shuffle
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.rules import PileKind, gather_out, takes
from sunlog.play.bounds import row_blocked

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


def _rebuilt(value: Any) -> tuple[Any, tuple[Any, ...]]:
    """``__reduce__`` of a frozen dataclass: its class and its fields. Compiled by mypyc,
    such a class cannot take its state back by assignment, as pickle and deepcopy do."""
    return type(value), tuple(getattr(value, field.name) for field in fields(value))


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
        return _rebuilt(self)

    def to_json(self, log: str | None = None) -> dict[str, Any]:
        """``{"deal", "variant", "verdict", "nodes", "seconds", "log"}``.

        ``log`` is what the caller makes of the line (a whole ``.sun`` game, say); without
        it, the line's moves in canonical notation separated by spaces, or ``None``.
        """
        if log is None and self.line is not None:
            log = " ".join(map(str, self.line))
        return {
            "deal": self.deal,
            "variant": self.variant,
            "verdict": self.verdict.value,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "log": log,
        }


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
        return _rebuilt(self)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary: the fields above, moves in canonical notation."""
        return {
            "deal": self.deal,
            "variant": self.variant,
            "last_winnable": self.last_winnable,
            "losing_move": self.losing_move,
            "continuation": (
                None if self.continuation is None else [str(m) for m in self.continuation]
            ),
            "verdicts": [None if v is None else v.value for v in self.verdicts],
            "certain": self.certain,
            "unknown": self.unknown,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


# ------------------------------------------------------------------ position key


def position_key(board: Board) -> bytes:
    """A compact key of ``board``'s position, equal exactly when the positions are equal.

    Every field of :meth:`Board.key` is written length-prefixed, so the encoding is
    injective; the move history does not count.
    """
    out = bytearray(
        (
            _VARIANT_CODE[board.variant],
            board.deals,
            board.open_ray or 0,
            board.opened,
            board.gathered,
            int(board.stage),
        )
    )
    _put(out, board.stock)
    for ray in board.rays:
        _put(out, ray)
    for pile in board.foundations:
        _put(out, pile)
    out.append(len(board.clouds))
    for cloud in board.clouds:
        _put(out, cloud)
    _put(out, board.wind_row)
    return bytes(out)


_VARIANT_CODE = {Variant.SUN: 0, Variant.SUN2: 1, Variant.SUN3: 2}
_NONE = 255  # the length byte of an absent list (lists hold at most 104 cards)


def _put(out: bytearray, cards: Sequence[int] | None) -> None:
    if cards is None:
        out.append(_NONE)
    else:
        out.append(len(cards))
        out.extend(cards)


# ------------------------------------------------------------- foundation tables
#
# The search keeps one code per suit. In sun and sun-2 it is ``a * 14 + k`` for the heights
# a (aces pile) and k (kings pile). Between-foundation moves are possible exactly when
# a + k == 13 and both piles hold more than their base can hide: then any split with
# 1 <= a <= 12 can be reached from any other, back and forth, so those twelve positions
# are one class and the search stores it as (1, 12). In sun-3 the code is ``lo * 14 + hi``
# of the two aces piles' heights, sorted (the two piles are interchangeable).

_COMPLETE = 13 * 14 + 13
_FLUID = 1 * 14 + 12


def _fluid(a: int, k: int) -> bool:
    return a + k == 13 and 1 <= a <= 12


def _sun_code(a: int, k: int) -> int:
    return _FLUID if _fluid(a, k) else a * 14 + k


def _sun_fit(a: int, k: int, rank: int) -> int:
    """The suit's code after a card of ``rank`` (1..13) goes onto it, or -1 if none fits.

    From the fluid class a card of rank r always ends as aces A..r and kings K..r, whichever
    pile takes it. Where both piles take the card from a fixed split, the choice that lands
    in the fluid class is kept: it can do everything the other can (docs/solver.md).
    """
    if _fluid(a, k):
        return _sun_code(rank, 14 - rank)
    options = []
    if takes(PileKind.ACES, a, rank - 1):
        options.append((rank, k))
    if takes(PileKind.KINGS, k, rank - 1):
        options.append((a, k + 1))
    if not options:
        return -1
    for new_a, new_k in options:
        if _fluid(new_a, new_k):
            return _FLUID
    return _sun_code(*options[0])


def _sun3_fit(lo: int, hi: int, rank: int) -> int:
    if takes(PileKind.ACES, lo, rank - 1):
        lo = rank
    elif takes(PileKind.ACES, hi, rank - 1):
        hi = rank
    else:
        return -1
    return min(lo, hi) * 14 + max(lo, hi)


def _fit_table(fit: Any) -> tuple[int, ...]:
    """``table[code * 13 + rank - 1]``: the code after the card, or -1."""
    return tuple(fit(code // 14, code % 14, r) for code in range(14 * 14) for r in range(1, 14))


def _want_table(fit: tuple[int, ...]) -> tuple[int, ...]:
    """``table[suit * 256 + code]``: a bit mask of the cards of ``suit`` that fit on it."""
    table = [0] * 1024
    for suit in range(4):
        for code in range(14 * 14):
            for r in range(13):
                if fit[code * 13 + r] >= 0:
                    table[suit * 256 + code] |= 1 << (suit * 13 + r)
    return tuple(table)


_SUN_FIT = _fit_table(_sun_fit)
#: ``_UP[code]``: how many of the suit's 26 cards its piles hold (either variant's code).
_UP = bytes(code // 14 + code % 14 for code in range(14 * 14))
_SUN3_FIT = _fit_table(_sun3_fit)
_SUIT = bytes(c // 13 for c in range(52))
_SUIT_OF = bytes(c // 13 if c < 52 else 4 for c in range(256))  # for bytes.translate
_RANK = bytes(c % 13 for c in range(52))

# ------------------------------------------------------------------ search state

# Abstract moves: (kind, ...). Card moves: (kind, place, index, pos, card[, ray]).
_Step = tuple[int, ...]
_FOUND, _PARK, _DEAL, _OPEN, _GATHER, _WIND = range(6)
_RAY, _CLOUD, _ROW = range(3)
_DEAL_MOVE: _Step = (_DEAL,)
_NO_RAYS = (b"",) * RAYS
# Typed _Step, not tuple[int]: mypyc keeps a fixed-length tuple unboxed and boxes it anew
# at each use, so `move is _WIND_MOVE` would never hold in the compiled build.
_WIND_MOVE: _Step = (_WIND,)


class _State:
    """One position in the search's compact form (immutable once made).

    ``rays`` and ``clouds`` are tuples of ``bytes`` (inner/left card first), ``row`` the
    wind row still on the table, ``found`` one code per suit; ``open_ray`` is 1-based, 0
    for none. Emptied clouds stay so that cloud numbers match the board's.
    """

    __slots__ = (
        "clouds",
        "deals",
        "found",
        "gathered",
        "open_ray",
        "opened",
        "rays",
        "row",
        "stage",
    )

    def __init__(
        self,
        rays: tuple[bytes, ...],
        clouds: tuple[bytes, ...],
        row: bytes | None,
        found: bytes,
        deals: int,
        stage: int,
        opened: int,
        open_ray: int,
        gathered: int,
    ) -> None:
        self.rays = rays
        self.clouds = clouds
        self.row = row
        self.found = found
        self.deals = deals
        self.stage = stage
        self.opened = opened
        self.open_ray = open_ray
        self.gathered = gathered

    @classmethod
    def from_board(cls, board: Board) -> _State:
        found = board.foundations
        sizes = [(len(found[s]), len(found[s + 4])) for s in range(4)]
        if board.rules.two_aces_piles:
            codes = bytes(min(a, b) * 14 + max(a, b) for a, b in sizes)
        else:
            codes = bytes(_sun_code(a, k) for a, k in sizes)
        return cls(
            tuple(bytes(r) for r in board.rays),
            tuple(bytes(c) for c in board.clouds),
            None if board.wind_row is None else bytes(board.wind_row),
            codes,
            board.deals,
            int(board.stage),
            board.opened,
            board.open_ray or 0,
            board.gathered,
        )


class _Limit(Exception):
    """The node or time budget ran out."""


class _Searcher:
    """Depth-first search with a table of visited positions, for one variant and deck."""

    def __init__(
        self,
        board: Board,
        max_nodes: int | None,
        timeout: float | None,
        known_lost: set[bytes] | None = None,
        prune: bool = True,
    ) -> None:
        self.variant = board.variant
        self.reduce = prune  # independent cards: a closed set of suits first (docs/solver.md)
        self.prune = prune  # the lost-proofs and safe moves after the wind (docs/solver.md)
        self.sun3 = board.rules.two_aces_piles
        self.can_open = board.rules.opens
        self.fit = _SUN3_FIT if self.sun3 else _SUN_FIT
        self.want = _want_table(self.fit)
        deck = board.deck
        self.deck = None if deck is None else bytes(deck)
        self.wind_state: int | None = None
        self.wind_orders: dict[int, list[int]] = {}
        if board.deal_number is not None:
            rng = SplitMix64(board.deal_number)
            for _ in range(103):
                rng.next()
            self.wind_state = rng.state
        self.max_nodes = max_nodes
        self.deadline = None if timeout is None else time.perf_counter() + timeout
        self.nodes = 0
        self.cut = False
        self.visited: dict[bytes, int] = {}
        self.known_lost = known_lost if known_lost is not None else set()

    # ---------------------------------------------------------------- keys

    def key(self, s: _State) -> bytes:
        """The table key: equal for positions that are the same for winning (see the docs)."""
        stage = s.stage
        if stage == 4:
            cells = b""
            if self.sun3:
                cells = bytes(sorted(r[0] for r in s.rays if r))
            assert s.row is not None
            return b"\x04" + s.found + s.row + b"\xff" + cells
        rays = s.rays
        if stage == 1:
            head = bytes((1, s.deals))
        elif stage == 2:
            head = bytes((2, s.opened))
        else:
            g = s.gathered
            if not self.sun3:
                while g < RAYS and not rays[g]:
                    g += 1
            head = bytes((3, g))
        clouds = b"\xfd".join([c for c in s.clouds if c])  # emptied clouds make no difference
        return head + s.found + b"\xff".join(rays) + b"\xfe" + clouds

    # --------------------------------------------------------------- moves

    def moves(self, s: _State) -> tuple[list[_Step], list[_Step], list[_Step]]:
        """The moves worth trying from ``s``: to the foundations (best first), stage actions,
        parking on empty rays; pruned as docs/solver.md says."""
        found = s.found
        if found == _COMPLETE4:
            return [], [], []  # won: no move is legal
        fit, want = self.fit, self.want
        fits = want[found[0]] | want[found[1] + 256] | want[found[2] + 512] | want[found[3] + 768]
        # Scores 3 (uncovers a card that fits next), 2 (other ray tops, row and cloud ends),
        # 1 (empties its ray), 0 (dug out of the open ray below its top); kept in that order.
        best: list[_Step] = []
        good: list[_Step] = []
        last_ones: list[_Step] = []
        digs: list[_Step] = []
        parks: list[_Step] = []
        sun3, after_wind = self.sun3, s.stage == 4
        rays = s.rays
        empties = [n for n in range(RAYS) if not rays[n]] if sun3 else []
        if after_wind and empties:
            empties = empties[:1]  # after the wind every empty ray is the same free cell
        park_rays = bool(empties) and not after_wind
        open_index = s.open_ray - 1
        for n, ray in enumerate(rays):
            if not ray:
                continue
            last = len(ray) - 1
            card = ray[last]
            if fits >> card & 1:
                if last:  # it uncovers a card: better still if that one fits next
                    below = ray[last - 1]
                    suit = _SUIT[card]
                    if _SUIT[below] == suit:
                        code = fit[found[suit] * 13 + _RANK[card]]
                        nice = fit[code * 13 + _RANK[below]] >= 0
                    else:
                        nice = bool(fits >> below & 1)
                    (best if nice else good).append((_FOUND, _RAY, n, last, card))
                else:
                    last_ones.append((_FOUND, _RAY, n, last, card))
            if park_rays:
                for e in empties:
                    parks.append((_PARK, _RAY, n, last, card, e))
            if n == open_index:
                for pos in range(last - 1, -1, -1):
                    card = ray[pos]
                    if card == ray[pos + 1]:
                        continue  # the same position as taking its equal neighbour
                    if fits >> card & 1:
                        if pos:
                            below = ray[pos - 1]
                            suit = _SUIT[card]
                            if _SUIT[below] == suit:
                                code = fit[found[suit] * 13 + _RANK[card]]
                                nice = fit[code * 13 + _RANK[below]] >= 0
                            else:
                                nice = bool(fits >> below & 1)
                            (good if nice else last_ones).append((_FOUND, _RAY, n, pos, card))
                        else:
                            digs.append((_FOUND, _RAY, n, pos, card))
                    if park_rays:
                        for e in empties:
                            parks.append((_PARK, _RAY, n, pos, card, e))
        rows = [(_CLOUD, k, cloud) for k, cloud in enumerate(s.clouds) if cloud]
        if s.row:
            if after_wind and sun3 and self._dead(s):
                return [], [], []
            if after_wind and self.prune and not sun3 and row_blocked(s.row, found, fit):
                return [], [], []  # some suit cannot clear its own cards: lost (bounds.py)
            rows.append((_ROW, 0, s.row))
        for place, index, row in rows:
            # Both ends, unless taking either gives the same row (all its cards equal).
            left, right = row[0], row[-1]
            ends: tuple[tuple[int, int], ...] = ((0, left),)
            if len(row) > 1 and (left != right or row.count(left) != len(row)):
                ends = ((0, left), (len(row) - 1, right))
            for pos, card in ends:
                if fits >> card & 1:
                    good.append((_FOUND, place, index, pos, card))
                for e in empties:
                    parks.append((_PARK, place, index, pos, card, e))
        best.extend(good)
        best.extend(last_ones)
        best.extend(digs)
        if after_wind and self.prune:
            for move in best:
                if _UP[found[_SUIT[move[4]]]] == 25:
                    return [move], [], []  # the last card of its suit goes up at once
        return best, self._stage_actions(s), parks

    def _stage_actions(self, s: _State) -> list[_Step]:
        if s.stage == 4:
            return []
        if s.deals < DEALS:
            return [_DEAL_MOVE] if self.deck is not None else []
        rays = s.rays
        actions: list[_Step] = []
        if s.stage < 3 and self.can_open:
            # Opening an empty ray only gives up the open ray: never better than not opening.
            actions.extend((_OPEN, n) for n in range(s.opened + 1, RAYS + 1) if rays[n - 1])
        first = next((n for n in range(s.gathered + 1, RAYS + 1) if rays[n - 1]), None)
        if first is not None:
            actions.append((_GATHER, first))
        else:
            actions.append(_WIND_MOVE)
        if self.sun3:
            # Gathering an empty ray matters only in sun-3 (it turns rays into cells).
            stop = RAYS if first is None else first - 1
            actions.extend((_GATHER, n) for n in range(s.gathered + 1, stop + 1))
        return actions

    def _dead(self, s: _State) -> bool:
        """After the wind in sun-3: no card can reach a foundation, even by parking (3.7)."""
        row = s.row
        assert row is not None
        free = sum(1 for r in s.rays if not r)
        cards = [r[0] for r in s.rays if r]
        cards += row[: free + 1]
        cards += row[max(0, len(row) - free - 1) :]
        fit, found = self.fit, s.found
        return all(fit[found[_SUIT[c]] * 13 + _RANK[c]] < 0 for c in cards)

    # --------------------------------------------------------------- apply

    def child(self, s: _State, move: _Step) -> _State:
        kind = move[0]
        if kind <= _PARK:
            place, index, pos, card = move[1], move[2], move[3], move[4]
            rays, clouds, row, found = s.rays, s.clouds, s.row, s.found
            if place == _RAY:
                ray = rays[index]
                rays = (*rays[:index], ray[:pos] + ray[pos + 1 :], *rays[index + 1 :])
            elif place == _CLOUD:
                cloud = clouds[index]
                cloud = cloud[1:] if pos == 0 else cloud[:-1]
                clouds = (*clouds[:index], cloud, *clouds[index + 1 :])
            else:
                assert row is not None
                row = row[1:] if pos == 0 else row[:-1]
            if kind == _FOUND:
                suit = _SUIT[card]
                code = self.fit[found[suit] * 13 + _RANK[card]]
                found = found[:suit] + bytes((code,)) + found[suit + 1 :]
            else:
                dst = move[5]
                rays = (*rays[:dst], bytes((card,)), *rays[dst + 1 :])
            return _State(
                rays, clouds, row, found, s.deals, s.stage, s.opened, s.open_ray, s.gathered
            )
        if kind == _DEAL:
            assert self.deck is not None
            start = s.deals * RAYS
            dealt = self.deck[start : start + RAYS]
            rays = tuple(ray + dealt[i : i + 1] for i, ray in enumerate(s.rays))
            return _State(
                rays,
                s.clouds,
                s.row,
                s.found,
                s.deals + 1,
                s.stage,
                s.opened,
                s.open_ray,
                s.gathered,
            )
        if kind == _OPEN:
            n = move[1]
            return _State(s.rays, s.clouds, s.row, s.found, s.deals, 2, n, n, s.gathered)
        if kind == _GATHER:
            return self._gather(s, move[1])
        return self._wind(s)

    def _gather(self, s: _State, n: int) -> _State:
        rays = list(s.rays)
        onto, cloud = gather_out(rays[n - 1], n)
        rays[n - 1] = b""
        for i in range(len(onto)):
            rays[n + i] += onto[i : i + 1]
        clouds = s.clouds
        if cloud:
            clouds = (*clouds, cloud)
        return _State(tuple(rays), clouds, s.row, s.found, s.deals, 3, s.opened, 0, n)

    def _wind(self, s: _State) -> _State:
        collected = b"".join(s.clouds) + b"".join(s.rays)
        row = bytes(map(collected.__getitem__, self._wind_order(len(collected))))
        clouds = (b"",) * len(s.clouds)
        return _State(_NO_RAYS, clouds, row, s.found, s.deals, 4, s.opened, 0, s.gathered)

    def _wind_order(self, size: int) -> list[int]:
        """Where each card of the wind row comes from in the collected list.

        The shuffle's draws depend only on the generator's state and the list's length
        (SPEC 4.4), so for each length it is one fixed permutation: shuffle the indices once.
        """
        order = self.wind_orders.get(size)
        if order is None:
            assert self.wind_state is not None
            order = list(range(size))
            shuffle(order, SplitMix64(self.wind_state))
            self.wind_orders[size] = order
        return order

    # -------------------------------------------------------------- search

    def search(self, root: _State, level: int | None = None) -> list[_Step] | None:
        """A winning line of abstract moves from ``root``, or ``None`` if the search found none.

        ``level`` bounds the deviations from greedy play: a deal, open or gather taken
        while a card could go to a foundation costs one (the wind and parking are free);
        ``None`` means no bound. The search is exhaustive, and ``None`` a proof, exactly
        when no move was skipped for want of deviations: then ``self.cut`` stays false.
        Raises :class:`_Limit` when the node or time budget runs out.
        """
        self.cut = False
        if root.found == _COMPLETE4:
            return []
        known_lost = self.known_lost
        visited: dict[bytes, int] = {}
        self.visited = visited
        root_key = self.key(root)
        if root_key in known_lost:
            return None
        budget = -1 if level is None else level
        visited[root_key] = budget
        self._count()
        frames: list[list[Any]] = [[root, self._children(root, budget), 0]]
        line: list[_Step] = []
        while frames:
            frame = frames[-1]
            state, moves, i = frame
            if i == len(moves):
                frames.pop()
                if line:
                    line.pop()
                continue
            frame[2] = i + 1
            move, left = moves[i]
            if move is _WIND_MOVE and self.wind_state is None:
                line.append(move)  # a row of the player's choosing wins (see _name_wind)
                return line
            child = self.child(state, move)
            if child.found == _COMPLETE4:
                line.append(move)
                return line
            key = self.key(child)
            seen = visited.get(key)
            if (seen is not None and seen >= left) or key in known_lost:
                continue
            visited[key] = left
            self._count()
            line.append(move)
            frames.append([child, self._children(child, left), 0])
        return None

    def _children(self, s: _State, budget: int) -> list[tuple[_Step, int]]:
        """The moves from ``s`` with the deviation budget each child keeps (-1: unbounded)."""
        found, actions, parks = self.moves(s)
        if (
            self.reduce
            and len(found) > 1
            and not self.sun3
            and (s.stage == 4 or (budget == 0 and _WIND_MOVE not in actions))
        ):
            # Only card moves to the foundations are tried here until nothing fits (after
            # the wind, or where no deviation is left): a closed set of suits goes first.
            found = self._persistent(s, found)
        out = [(m, budget) for m in found]
        if actions:
            if not found or budget < 0:
                out.extend((m, budget) for m in actions)
            else:
                early = []
                for m in actions:
                    if m is _WIND_MOVE:
                        out.append((m, budget))  # a wind row is a fresh chance: always try
                    elif budget > 0:
                        early.append((m, budget - 1))
                    else:
                        self.cut = True
                out = early + out
        if budget < 0:
            out.extend((m, budget) for m in parks)
        else:
            for m in parks:
                if m[1] == _RAY and len(s.rays[m[2]]) == 1:
                    # A ray's only card moved to another ray: legal, and it matters before
                    # the wind (ray positions do), but such moves chain without end; only
                    # the unbounded round tries them.
                    self.cut = True
                else:
                    out.append((m, budget))
        return out

    def _persistent(self, s: _State, found: list[_Step]) -> list[_Step]:
        """A persistent subset of ``found`` where only card moves to the foundations are
        allowed until nothing fits: the moves of a closed set of suits (docs/solver.md,
        *Independent cards*). Every position where nothing fits that ``found`` reaches, the
        subset reaches too."""
        fsuits = 0
        counts = [0, 0, 0, 0]
        for m in found:
            suit = _SUIT[m[4]]
            fsuits |= 1 << suit
            counts[suit] += 1
        if fsuits & (fsuits - 1) == 0:
            return found  # one suit only: nothing to choose
        code = s.found
        rays = s.rays
        joined = b"\xff".join(rays)
        ends = list(accumulate([len(ray) + 1 for ray in rays]))  # past each ray's separator
        open_index = s.open_ray - 1
        middles = [
            (1 << _SUIT[row[0]] | 1 << _SUIT[row[-1]], row[1:-1])
            for row in (*s.clouds, s.row or b"")
            if len(row) > 2
        ]
        # covers[suit]: the suits of the cards that cover a card of ``suit`` that fits now
        # (on a ray, its outer card; in a cloud or the row, its two end cards). A fluid suit
        # takes any of its cards: counted as covered by every suit, which is always safe.
        covers = [0, 0, 0, 0]
        for suit in range(4):
            if code[suit] == _FLUID:
                covers[suit] = 15
                continue
            cover = 1 << suit
            for card in _WANTED[suit * 256 + code[suit]]:
                at = joined.find(card)
                while at >= 0:
                    n = bisect_right(ends, at)
                    if at != ends[n] - 2 and n != open_index:
                        cover |= 1 << _SUIT[rays[n][-1]]
                    at = joined.find(card, at + 1)
                for ends_of, middle in middles:
                    if card in middle:
                        cover |= ends_of
            covers[suit] = cover
        for via in range(4):  # close the relation (Warshall): covers[suit] is then S
            bit = 1 << via
            for suit in range(4):
                if covers[suit] & bit:
                    covers[suit] |= covers[via]
        # Before the wind, card moves must not empty the rays: the wind would then be possible
        # (a stage action among card moves). Rays holding a card of the chosen suits cannot
        # be emptied before one of those suits' moves is played. (Before stage 3 every card
        # is on a ray; after the wind there are no stage actions.)
        ray_suits = 15
        if s.stage == 3:
            ray_suits = 0
            for suit in set(joined.translate(_SUIT_OF)):
                ray_suits |= 1 << suit
        best, size = 0, len(found)
        for first in range(4):
            closed = covers[first]
            if not fsuits >> first & 1 or closed & fsuits == fsuits or not closed & ray_suits:
                continue
            count = sum(counts[suit] for suit in range(4) if closed >> suit & 1)
            if count < size:
                best, size = closed, count
        if not best:
            return found
        return [m for m in found if best >> _SUIT[m[4]] & 1]

    def _count(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Limit
        if (
            self.deadline is not None
            and not self.nodes & 1023
            and time.perf_counter() > self.deadline
        ):
            raise _Limit


_COMPLETE4 = bytes((_COMPLETE,)) * 4
#: ``_WANTED[suit * 256 + code]``: the cards of ``suit`` that fit on its code (sun, sun-2).
_WANTED = tuple(
    bytes(suit * 13 + r for r in range(13) if code < 196 and _SUN_FIT[code * 13 + r] >= 0)
    for suit in range(4)
    for code in range(256)
)


# ------------------------------------------------------------ realizing a line


def _realize(board: Board, line: Sequence[_Step]) -> tuple[Move, ...]:
    """Replay an abstract line on a copy of ``board``: the canonical moves, checked."""
    b = board.copy()
    out: list[Move] = []

    def play(move: Move) -> None:
        canon = b.canonical(move)
        b.push(canon)
        out.append(canon)

    for step in line:
        kind = step[0]
        if kind == _DEAL:
            play(Move.deal())
        elif kind == _OPEN:
            play(Move.open(step[1]))
        elif kind == _GATHER:
            play(Move.gather(step[1]))
        elif kind == _WIND and b.deal_number is None:
            _name_wind(b, play)
        elif kind == _WIND:
            play(Move.wind())
        elif kind == _PARK:
            play(_source_move(b, step)._replace(target=Target.RAY, target_ray=step[5] + 1))
        else:
            _place(b, step, play)
    if b.status() is not Status.WON:
        raise AssertionError(f"solver bug: its line does not win ({b.on_foundations()} cards up)")
    return tuple(out)


def _source_move(b: Board, step: _Step) -> Move:
    """A card move from the step's source, written in full (position and end)."""
    place, index, pos, card = step[1], step[2], step[3], CARDS[step[4]]
    if place == _RAY:
        depth = len(b.ray(index + 1)) - pos
        return Move(MoveKind.CARD, index + 1, card, Place.RAY, depth=depth)
    end = End.LEFT if pos == 0 else End.RIGHT
    if place == _CLOUD:
        return Move(MoveKind.CARD, index + 1, card, Place.CLOUD, end=end)
    return Move(MoveKind.CARD, None, card, Place.WIND, end=end)


def _place(b: Board, step: _Step, play: Any) -> None:
    """Put the step's card on a foundation, shifting between the suit's piles if needed."""
    move = _source_move(b, step)
    card = move.card
    assert card is not None
    suit, rank = card // 13, card % 13 + 1
    first, second = b.foundations[suit], b.foundations[suit + 4]
    if b.rules.two_aces_piles:
        target = Target.ACES1 if takes(PileKind.ACES, len(first), rank - 1) else Target.ACES2
        play(move._replace(target=target))
        return
    a, k = len(first), len(second)
    if _fluid(a, k):
        want = rank - 1 if rank >= 2 else 1
        # Each shift is played at once: the piles are read again after it.
        while len(first := b.aces_pile(suit)) > want:
            play(Move(MoveKind.CARD, card=first[-1], source=Place.ACES, target=Target.KINGS))
        while len(b.aces_pile(suit)) < want:
            top_king = b.kings_pile(suit)[-1]
            play(Move(MoveKind.CARD, card=top_king, source=Place.KINGS, target=Target.ACES))
        target = Target.ACES if rank >= 2 else Target.KINGS
    elif takes(PileKind.ACES, a, rank - 1) and takes(PileKind.KINGS, k, rank - 1):
        target = Target.KINGS if rank == 13 else Target.ACES  # the choice that stays fluid
    else:
        target = Target.ACES if takes(PileKind.ACES, a, rank - 1) else Target.KINGS
    play(move._replace(target=target))


# --------------------------------------------------------- a wind row of one's own


def _name_wind(b: Board, play: Any) -> None:
    """Without a deal number the wind row is the player's (SPEC 3.5): name one that wins.

    The row lays each suit's missing cards in the order its piles take them, so playing
    it from the left end puts every card up.
    """
    plan: list[tuple[Card, Target]] = []
    for suit in range(4):
        first, second = b.foundations[suit], b.foundations[suit + 4]
        ranks = range(len(first) + 1, 14)
        plan += [(CARDS[suit * 13 + r - 1], Target.ACES1) for r in ranks]
        if b.rules.two_aces_piles:
            ranks = range(len(second) + 1, 14)
            plan += [(CARDS[suit * 13 + r - 1], Target.ACES2) for r in ranks]
        else:
            ranks = range(13 - len(second), 0, -1)
            plan += [(CARDS[suit * 13 + r - 1], Target.KINGS) for r in ranks]
    play(Move.wind([card for card, _ in plan]))
    for card, target in plan:
        if target is Target.ACES1 and not b.rules.two_aces_piles:
            target = Target.ACES
        play(Move(MoveKind.CARD, None, card, Place.WIND, end=End.LEFT, target=target))


# ------------------------------------------------------------------- public API


def solve(
    board: Board,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
) -> SolveResult:
    """Can ``board``'s position still be won? Search within ``max_nodes`` positions and
    ``timeout`` seconds (``None``: no limit).

    With a deal number the wind row is the deal's own (SPEC 4.4). Without one the player
    names the row (SPEC 3.5), so any position before the wind is won by naming a good one.
    Raises ``ValueError`` when the deck is unknown and deals remain.
    """
    return _solve(board, max_nodes=max_nodes, timeout=timeout)


def _solve(
    board: Board,
    *,
    max_nodes: int | None,
    timeout: float | None,
    known_lost: set[bytes] | None = None,
    prune: bool = True,
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
    searcher = _Searcher(board, max_nodes, timeout, known_lost, prune)
    root = _State.from_board(board)
    found: list[_Step] | None = None
    try:
        for level in LEVELS:
            found = searcher.search(root, level)
            if found is not None or not searcher.cut:
                break
    except _Limit:
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
    line = _realize(board, found)
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
) -> Analysis:
    """Find where a recorded game lost its win: the last position still winnable, the move
    played from it, and a winning continuation from there.

    ``initial`` is the position before ``moves`` (usually a fresh board). Winnability only
    ever goes from yes to no along a game, so positions are probed from the end backwards
    in growing steps, then by bisection: a few searches, each within the given limits.
    """
    start = time.perf_counter()
    n = len(moves)
    boards = _Positions(initial, moves)
    results: dict[int, SolveResult] = {}
    known_lost: set[bytes] = set()

    def probe(k: int) -> Verdict:
        if k not in results:
            results[k] = _solve(
                boards.at(k), max_nodes=max_nodes, timeout=timeout, known_lost=known_lost
            )
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
