"""The lookahead policy's two searches: the split of each suit between its piles once the
stock is dealt (sun and sun-2), and the wind row once it lies face up."""

from __future__ import annotations

from collections.abc import Sequence

from sunlog.play.policymodel import (
    COMMIT,
    PARK,
    PLAY,
    RAY,
    WIND,
    Model,
    Step,
    advance,
    play_wanted,
    run_to_wind,
)

# ------------------------------------------------------------------------------------------
# The split search (sun and sun-2, after the 8th deal)

_BRANCH = -1  # a target under search: every rank that turns up is tried as the first move


class SplitSearch:
    """Search over the first move of every suit whose split is open.

    From the 8th deal to the wind the game is fully known and, apart from those first moves,
    best played by taking every card that fits (see :func:`play_wanted`). So a plan is a target
    rank per suit, and its worth is the cards on the foundations when the wind must blow
    (104: won). The search tries one suit at a time with the others fixed, over every rank
    that becomes playable for it (coordinate descent), then pairs of suits, then all open
    suits together, until it finds a win or spends its budget of play-outs.
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.playouts = 0
        self.best = -1
        self.best_targets: list[int] = [0, 0, 0, 0]

    def search(self, m: Model) -> list[int]:
        open_suits = [s for s in range(4) if not m.committed(s)]
        self._leaf(run_to_wind(m.copy(), self.best_targets), self.best_targets)
        for _ in range(4):  # coordinate descent, at most four rounds
            before = self.best
            for suit in open_suits:
                self._explore(m, [suit])
                if self.best == 104:
                    return self.best_targets
            if self.best == before:
                break
        for i, first in enumerate(open_suits):
            for second in open_suits[i + 1 :]:
                self._explore(m, [first, second])
                if self.best == 104 or self.playouts >= self.budget:
                    return self.best_targets
        if len(open_suits) > 2:
            self._explore(m, open_suits)
        return self.best_targets

    def _explore(self, m: Model, suits: list[int]) -> None:
        targets = list(self.best_targets)
        for suit in suits:
            targets[suit] = _BRANCH
        self._dfs(m.copy(), targets, [0, 0, 0, 0])

    def _dfs(self, m: Model, targets: list[int], tried: list[int]) -> None:
        """Play on; at each card that could make a searched suit's first move, try both
        making it (the suit's target becomes that rank) and never making it."""
        fixed = [max(t, 0) for t in targets]
        want = play_wanted(m, fixed)
        exposed: list[int] | None = None  # None: look at every playable card
        candidates: set[int] = set()
        while True:
            if m.placed == 104:
                self._leaf(104, fixed)
                return
            if exposed is None:
                candidates = self._candidates(m, targets, tried)
            if candidates and (exposed is None or any(c in candidates for c in exposed)):
                found = next((s for s in m.spots() if s[3] in candidates), None)
                if found is not None:
                    break
            exposed = advance(m)
            if exposed is None:
                self._leaf(m.placed, fixed)
                return
            if any(card in want for card in exposed):
                want = play_wanted(m, fixed, None, want)
                exposed = None
        kind, index, pos, card = found
        suit, rank = card // 13, card % 13 + 1
        taken = m.copy()
        taken.place(taken.pile(kind, index).pop(pos), COMMIT)
        with_it = list(targets)
        with_it[suit] = rank
        self._dfs(taken, with_it, tried)
        if self.best == 104 or self.playouts >= self.budget:
            return
        without = list(tried)
        without[suit] |= 1 << rank
        self._dfs(m, targets, without)

    @staticmethod
    def _candidates(m: Model, targets: list[int], tried: list[int]) -> set[int]:
        """The cards that could make the first move of a searched suit whose piles meet."""
        candidates = set()
        for suit in range(4):
            if targets[suit] == _BRANCH and m.meeting(suit):
                for rank in range(1, 14):
                    if not (tried[suit] >> rank) & 1:
                        candidates.add(suit * 13 + rank - 1)
        return candidates

    def _leaf(self, value: int, targets: Sequence[int]) -> None:
        self.playouts += 1
        if value > self.best:
            self.best = value
            self.best_targets = list(targets)


# ------------------------------------------------------------------------------------------
# After the wind: the row lies face up, so search it


class WindSearch:
    """The line that puts the most cards on the foundations from the wind row (all of them
    when the game can still be won): depth first, each position visited once.

    In sun and sun-2 both playable ends are tried whenever they fit. In sun-3 a card that
    fits is always played at once (nothing is ever lost by it), and when none fits, the
    search parks the left or the right end card on an empty ray.
    """

    def __init__(self, m: Model, max_states: int) -> None:
        self.m = m
        self.row = m.wind or []
        self.i, self.j = 0, len(self.row)
        self.max_states = max_states
        self.seen: set[tuple[object, ...]] = set()
        self.path: list[Step] = []
        self.best, self.best_path = m.placed, list[Step]()
        # sun-3: cards parked on rays (card, ray) and the rays free to park on
        self.cells = [(ray[-1], n) for n, ray in enumerate(m.rays) if len(ray) == 1]
        self.free = m.empty_rays() if m.three else []

    def run(self) -> list[Step]:
        self._visit()
        return self.best_path

    def _visit(self) -> bool:
        m = self.m
        key = (self.i, self.j, tuple(m.lo), tuple(m.hi), tuple(sorted(self.cells)))
        if key in self.seen or len(self.seen) >= self.max_states:
            return False
        self.seen.add(key)
        if m.placed > self.best:
            self.best, self.best_path = m.placed, self.path[:]
        if m.placed == 104:
            return True
        return any(self._try(*option) for option in self._options())

    def _ends(self) -> list[tuple[int, int]]:
        row, i, j = self.row, self.i, self.j
        if i >= j:
            return []
        return [(row[i], -1), (row[j - 1], -2)] if j - i > 1 else [(row[i], -1)]

    def _options(self) -> list[tuple[int, int, int]]:
        """(card, where, how): ``where`` -1 the left end, -2 the right end, else a parked
        card's index; ``how`` 0 parks the card."""
        m = self.m
        options = []
        for card, where in self._ends():
            how = m.direct(card) or (COMMIT if m.meeting(card // 13) else 0)
            if how:
                options.append((card, where, how))
        for k, (card, _) in enumerate(self.cells):
            how = m.direct(card)
            if how:
                options.append((card, k, how))
        if not m.three:
            return options
        if options:
            return options[:1]
        parked = {ray for _, ray in self.cells}
        if any(ray not in parked for ray in self.free):
            return [(card, where, 0) for card, where in self._ends()]
        return []

    def _try(self, card: int, where: int, how: int) -> bool:
        """Play one option, search on, and undo it unless it led to a win."""
        m, i, j = self.m, self.i, self.j
        lo, hi = m.lo[:], m.hi[:]
        if where >= 0:
            parked = self.cells.pop(where)
            self.path.append((PLAY, RAY, parked[1], 0, how))
        else:
            pos = 0 if where == -1 else j - i - 1
            if where == -1:
                self.i += 1
            else:
                self.j -= 1
            if how:
                self.path.append((PLAY, WIND, 0, pos, how))
            else:
                used = {ray for _, ray in self.cells}
                ray = next(n for n in self.free if n not in used)
                self.cells.append((card, ray))
                self.path.append((PARK, WIND, 0, pos, ray))
        if how:
            m.place(card, how)
        if self._visit():
            return True
        self.path.pop()
        if how:
            m.lo, m.hi = lo, hi
            m.placed -= 1
        if where >= 0:
            self.cells.insert(where, parked)
        else:
            self.i, self.j = i, j
            if not how:
                self.cells.pop()
        return False
