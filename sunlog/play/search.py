"""The solver's search: depth first over the compact positions, with a table of visited
positions, in rounds that allow more and more deviations from greedy play (docs/solver.md
says what it prunes and why that is sound)."""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from sunlog.engine.board import DEALS, RAYS, Board
from sunlog.engine.deal import SplitMix64, shuffle
from sunlog.engine.rules import gather_out
from sunlog.play.bounds import row_blocked
from sunlog.play.solverstate import (
    CLOUD,
    COMPLETE4,
    DEAL,
    DEAL_MOVE,
    FLUID,
    FOUND,
    GATHER,
    NO_RAYS,
    OPEN,
    PARK,
    RANK,
    RAY,
    ROW,
    SUIT,
    SUIT_OF,
    SUN3_FIT,
    SUN_FIT,
    UP,
    WANTED,
    WIND_MOVE,
    State,
    Step,
    want_table,
)

__all__ = ["NO_LIMITS", "PROGRESS_NODES", "Limit", "Limits", "Searcher"]

#: How often a search calls its ``progress``: every this many positions visited.
PROGRESS_NODES = 4096


class Limit(Exception):
    """The node or time budget ran out."""


@dataclass(frozen=True)
class Limits:
    """What a search may spend (``None``: no limit), and whom it tells how far it has got:
    ``progress`` is called with the positions visited every :data:`PROGRESS_NODES`."""

    max_nodes: int | None = None
    timeout: float | None = None
    progress: Callable[[int], None] | None = None


#: A search without limits, that tells nobody.
NO_LIMITS = Limits()


class Searcher:
    """Depth-first search with a table of visited positions, for one variant and deck."""

    def __init__(
        self,
        board: Board,
        limits: Limits = NO_LIMITS,
        known_lost: set[bytes] | None = None,
        prune: bool = True,
    ) -> None:
        self.variant = board.variant
        self.progress = limits.progress
        self.reduce = prune  # independent cards: a closed set of suits first (docs/solver.md)
        self.prune = prune  # the lost-proofs and safe moves after the wind (docs/solver.md)
        self.sun3 = board.rules.two_aces_piles
        self.can_open = board.rules.opens
        self.fit = SUN3_FIT if self.sun3 else SUN_FIT
        self.want = want_table(self.fit)
        deck = board.deck
        self.deck = None if deck is None else bytes(deck)
        self.wind_state: int | None = None
        self.wind_orders: dict[int, list[int]] = {}
        if board.deal_number is not None:
            rng = SplitMix64(board.deal_number)
            for _ in range(103):
                rng.next()
            self.wind_state = rng.state
        self.max_nodes = limits.max_nodes
        timeout = limits.timeout
        self.deadline = None if timeout is None else time.perf_counter() + timeout
        self.nodes = 0
        self.cut = False
        self.visited: dict[bytes, int] = {}
        self.known_lost = known_lost if known_lost is not None else set()

    # ---------------------------------------------------------------- keys

    def key(self, s: State) -> bytes:
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

    def moves(self, s: State) -> tuple[list[Step], list[Step], list[Step]]:
        """The moves worth trying from ``s``: to the foundations (best first), stage actions,
        parking on empty rays; pruned as docs/solver.md says."""
        found = s.found
        if found == COMPLETE4:
            return [], [], []  # won: no move is legal
        fit, want = self.fit, self.want
        fits = want[found[0]] | want[found[1] + 256] | want[found[2] + 512] | want[found[3] + 768]
        # Scores 3 (uncovers a card that fits next), 2 (other ray tops, row and cloud ends),
        # 1 (empties its ray), 0 (dug out of the open ray below its top); kept in that order.
        best: list[Step] = []
        good: list[Step] = []
        last_ones: list[Step] = []
        digs: list[Step] = []
        parks: list[Step] = []
        sun3, after_wind = self.sun3, s.stage == 4
        rays = s.rays
        empties = [n for n in range(RAYS) if not rays[n]] if sun3 else []
        if after_wind and empties:
            empties = empties[:1]  # after the wind every empty ray is the same free cell
        park_rays = bool(empties) and not after_wind
        open_index = s.open_ray - 1
        # A ray's outer card scores 3, 2 or 1; a card dug out of the open ray 2, 1 or 0.
        outer, inner = (best, good, last_ones), (good, last_ones, digs)
        for n, ray in enumerate(rays):
            if not ray:
                continue
            last = len(ray) - 1
            for pos in range(last, -1, -1) if n == open_index else (last,):
                card = ray[pos]
                if pos < last and card == ray[pos + 1]:
                    continue  # the same position as taking its equal neighbour
                if fits >> card & 1:
                    tiers = outer if pos == last else inner
                    if pos:  # it uncovers a card: better still if that one fits next
                        nice = self._fits_after(found, fits, card, ray[pos - 1])
                        tiers[0 if nice else 1].append((FOUND, RAY, n, pos, card))
                    else:
                        tiers[2].append((FOUND, RAY, n, pos, card))
                if park_rays:
                    for e in empties:
                        parks.append((PARK, RAY, n, pos, card, e))
        rows = [(CLOUD, k, cloud) for k, cloud in enumerate(s.clouds) if cloud]
        if s.row:
            if after_wind and sun3 and self._dead(s):
                return [], [], []
            if after_wind and self.prune and not sun3 and row_blocked(s.row, found, fit):
                return [], [], []  # some suit cannot clear its own cards: lost (bounds.py)
            rows.append((ROW, 0, s.row))
        for place, index, row in rows:
            # Both ends, unless taking either gives the same row (all its cards equal).
            left, right = row[0], row[-1]
            ends: tuple[tuple[int, int], ...] = ((0, left),)
            if len(row) > 1 and (left != right or row.count(left) != len(row)):
                ends = ((0, left), (len(row) - 1, right))
            for pos, card in ends:
                if fits >> card & 1:
                    good.append((FOUND, place, index, pos, card))
                for e in empties:
                    parks.append((PARK, place, index, pos, card, e))
        best.extend(good)
        best.extend(last_ones)
        best.extend(digs)
        if after_wind and self.prune:
            for move in best:
                if UP[found[SUIT[move[4]]]] == 25:
                    return [move], [], []  # the last card of its suit goes up at once
        return best, self._stage_actions(s), parks

    def _fits_after(self, found: bytes, fits: int, card: int, below: int) -> bool:
        """Whether ``below`` fits a foundation once ``card`` (which fits now) has gone on."""
        suit = SUIT[card]
        if SUIT[below] != suit:
            return bool(fits >> below & 1)
        fit = self.fit
        return fit[fit[found[suit] * 13 + RANK[card]] * 13 + RANK[below]] >= 0

    def _stage_actions(self, s: State) -> list[Step]:
        if s.stage == 4:
            return []
        if s.deals < DEALS:
            return [DEAL_MOVE] if self.deck is not None else []
        rays = s.rays
        actions: list[Step] = []
        if s.stage < 3 and self.can_open:
            # Opening an empty ray only gives up the open ray: never better than not opening.
            actions.extend((OPEN, n) for n in range(s.opened + 1, RAYS + 1) if rays[n - 1])
        first = next((n for n in range(s.gathered + 1, RAYS + 1) if rays[n - 1]), None)
        if first is not None:
            actions.append((GATHER, first))
        else:
            actions.append(WIND_MOVE)
        if self.sun3:
            # Gathering an empty ray matters only in sun-3 (it turns rays into cells).
            stop = RAYS if first is None else first - 1
            actions.extend((GATHER, n) for n in range(s.gathered + 1, stop + 1))
        return actions

    def _dead(self, s: State) -> bool:
        """After the wind in sun-3: no card can reach a foundation, even by parking (3.7)."""
        row = s.row
        assert row is not None
        free = sum(1 for r in s.rays if not r)
        cards = [r[0] for r in s.rays if r]
        cards += row[: free + 1]
        cards += row[max(0, len(row) - free - 1) :]
        fit, found = self.fit, s.found
        return all(fit[found[SUIT[c]] * 13 + RANK[c]] < 0 for c in cards)

    # --------------------------------------------------------------- apply

    def child(self, s: State, move: Step) -> State:
        kind = move[0]
        if kind <= PARK:
            place, index, pos, card = move[1], move[2], move[3], move[4]
            rays, clouds, row, found = s.rays, s.clouds, s.row, s.found
            if place == RAY:
                ray = rays[index]
                rays = (*rays[:index], ray[:pos] + ray[pos + 1 :], *rays[index + 1 :])
            elif place == CLOUD:
                cloud = clouds[index]
                cloud = cloud[1:] if pos == 0 else cloud[:-1]
                clouds = (*clouds[:index], cloud, *clouds[index + 1 :])
            else:
                assert row is not None
                row = row[1:] if pos == 0 else row[:-1]
            if kind == FOUND:
                suit = SUIT[card]
                code = self.fit[found[suit] * 13 + RANK[card]]
                found = found[:suit] + bytes((code,)) + found[suit + 1 :]
            else:
                dst = move[5]
                rays = (*rays[:dst], bytes((card,)), *rays[dst + 1 :])
            return State(
                rays, clouds, row, found, s.deals, s.stage, s.opened, s.open_ray, s.gathered
            )
        if kind == DEAL:
            assert self.deck is not None
            start = s.deals * RAYS
            dealt = self.deck[start : start + RAYS]
            rays = tuple(ray + dealt[i : i + 1] for i, ray in enumerate(s.rays))
            return State(
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
        if kind == OPEN:
            n = move[1]
            return State(s.rays, s.clouds, s.row, s.found, s.deals, 2, n, n, s.gathered)
        if kind == GATHER:
            return self._gather(s, move[1])
        return self._wind(s)

    def _gather(self, s: State, n: int) -> State:
        rays = list(s.rays)
        onto, cloud = gather_out(rays[n - 1], n)
        rays[n - 1] = b""
        for i in range(len(onto)):
            rays[n + i] += onto[i : i + 1]
        clouds = s.clouds
        if cloud:
            clouds = (*clouds, cloud)
        return State(tuple(rays), clouds, s.row, s.found, s.deals, 3, s.opened, 0, n)

    def _wind(self, s: State) -> State:
        collected = b"".join(s.clouds) + b"".join(s.rays)
        row = bytes(map(collected.__getitem__, self._wind_order(len(collected))))
        clouds = (b"",) * len(s.clouds)
        return State(NO_RAYS, clouds, row, s.found, s.deals, 4, s.opened, 0, s.gathered)

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

    def search(self, root: State, level: int | None = None) -> list[Step] | None:
        """A winning line of abstract moves from ``root``, or ``None`` if the search found none.

        ``level`` bounds the deviations from greedy play: a deal, open or gather taken
        while a card could go to a foundation costs one (the wind and parking are free);
        ``None`` means no bound. The search is exhaustive, and ``None`` a proof, exactly
        when no move was skipped for want of deviations: then ``self.cut`` stays false.
        Raises :class:`Limit` when the node or time budget runs out.
        """
        self.cut = False
        if root.found == COMPLETE4:
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
        line: list[Step] = []
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
            if move is WIND_MOVE and self.wind_state is None:
                line.append(move)  # a row of the player's choosing wins (see _name_wind)
                return line
            child = self.child(state, move)
            if child.found == COMPLETE4:
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

    def _children(self, s: State, budget: int) -> list[tuple[Step, int]]:
        """The moves from ``s`` with the deviation budget each child keeps (-1: unbounded)."""
        found, actions, parks = self.moves(s)
        if (
            self.reduce
            and len(found) > 1
            and not self.sun3
            and (s.stage == 4 or (budget == 0 and WIND_MOVE not in actions))
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
                    if m is WIND_MOVE:
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
                if m[1] == RAY and len(s.rays[m[2]]) == 1:
                    # A ray's only card moved to another ray: legal, and it matters before
                    # the wind (ray positions do), but such moves chain without end; only
                    # the unbounded round tries them.
                    self.cut = True
                else:
                    out.append((m, budget))
        return out

    def _persistent(self, s: State, found: list[Step]) -> list[Step]:
        """A persistent subset of ``found`` where only card moves to the foundations are
        allowed until nothing fits: the moves of a closed set of suits (docs/solver.md,
        *Independent cards*). Every position where nothing fits that ``found`` reaches, the
        subset reaches too."""
        fsuits = 0
        counts = [0, 0, 0, 0]
        for m in found:
            suit = SUIT[m[4]]
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
            (1 << SUIT[row[0]] | 1 << SUIT[row[-1]], row[1:-1])
            for row in (*s.clouds, s.row or b"")
            if len(row) > 2
        ]
        # covers[suit]: the suits of the cards that cover a card of ``suit`` that fits now
        # (on a ray, its outer card; in a cloud or the row, its two end cards). A fluid suit
        # takes any of its cards: counted as covered by every suit, which is always safe.
        covers = [0, 0, 0, 0]
        for suit in range(4):
            if code[suit] == FLUID:
                covers[suit] = 15
                continue
            cover = 1 << suit
            for card in WANTED[suit * 256 + code[suit]]:
                at = joined.find(card)
                while at >= 0:
                    n = bisect_right(ends, at)
                    if at != ends[n] - 2 and n != open_index:
                        cover |= 1 << SUIT[rays[n][-1]]
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
            for suit in set(joined.translate(SUIT_OF)):
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
        return [m for m in found if best >> SUIT[m[4]] & 1]

    def _count(self) -> None:
        """One more position visited: raises :class:`Limit` when the budget is spent, and
        tells ``progress`` the count every :data:`PROGRESS_NODES` positions."""
        nodes = self.nodes = self.nodes + 1
        if self.max_nodes is not None and nodes >= self.max_nodes:
            raise Limit
        if nodes & 1023:
            return
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Limit
        if self.progress is not None and not nodes % PROGRESS_NODES:
            self.progress(nodes)
