"""Policies that play Sun by themselves, and :func:`play`, which runs a whole game with one.

A policy is a small named object: :meth:`Policy.plan` looks at a :class:`~sunlog.engine.board.Board`
and returns the moves it means to play next, in order (one move, or a batch up to and
including the next stage action); :meth:`Policy.choose` is the first of them. Every move is
one of ``board.legal_moves()`` in canonical form, and a policy sees what a player sees: the
rays, clouds, wind row and foundations, never the order of the stock or of a wind row still
to come.

- ``random``: uniform over the useful card moves; each stage action weighs only
  :data:`STAGE_WEIGHT` of a card move, so a game runs its course before the sun sets.
- ``greedy``: plays every foundation move before the next stage action (details in
  :class:`GreedyPolicy`); between foundations only to let a waiting card on.
- ``patient``: greedy, but no moves between foundations before the wind.
- ``lookahead`` (the default): in sun and sun-2 plans the split of each suit between its
  two piles by a search over the layout once the stock is dealt; in every variant searches
  the wind row once it lies face up (details in :class:`LookaheadPolicy`).

A game a policy plays ends ``won`` or ``lost`` (SPEC 3.7) whenever the deal is known; it
ends ``*`` only if the deck or the wind row is unknown, or at :data:`MAX_MOVES` moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol

from sunlog.engine.board import DEALS, RAYS, Board, Stage, Status, Variant
from sunlog.engine.cards import Card
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.rules import NEXT_RANK, PileKind, gather_out

__all__ = [
    "DEFAULT_POLICY",
    "MAX_MOVES",
    "POLICIES",
    "STAGE_WEIGHT",
    "GreedyPolicy",
    "LookaheadPolicy",
    "PatientPolicy",
    "Policy",
    "RandomPolicy",
    "game_rng",
    "get_policy",
    "play",
]

#: A safety net: :func:`play` stops a game after this many moves (no policy gets near it).
MAX_MOVES = 5000
#: The weight of one stage action in :class:`RandomPolicy`, against 1 for a card move.
STAGE_WEIGHT = 0.1

# ------------------------------------------------------------------------------------------
# The policy protocol


class Policy(Protocol):
    """What :func:`play` and the command line need of a policy."""

    name: str
    description: str

    def plan(self, board: Board, rng: random.Random) -> list[Move]:
        """The moves to play next, in order (legal one after another); empty: stop here."""
        ...

    def choose(self, board: Board, rng: random.Random) -> Move | None:
        """The next move, or ``None`` when the policy stops."""
        ...


class _BasePolicy:
    """Shared plumbing: :meth:`choose` is the first move of :meth:`plan`."""

    name = ""
    description = ""

    def plan(self, board: Board, rng: random.Random) -> list[Move]:
        raise NotImplementedError

    def choose(self, board: Board, rng: random.Random) -> Move | None:
        """The first move of :meth:`plan`, or ``None`` when the policy stops."""
        moves = self.plan(board, rng)
        return moves[0] if moves else None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


# ------------------------------------------------------------------------------------------
# A compact model of the position, for fast planning
#
# Cards are ints 0..51 (suit * 13 + rank - 1). In sun and sun-2 a suit's foundations are two
# numbers: ``lo`` the aces pile's top rank (0 = empty) and ``hi`` the kings pile's top rank
# (14 = empty); both piles are always runs (A..lo, K..hi). In sun-3 ``lo`` and ``hi`` are the
# top ranks of the first and second aces piles.

_RAY, _CLOUD, _WIND = 0, 1, 2
# Steps a plan is made of, translated into moves by _emit. A card step is
# (_PLAY, kind, index, pos, how) with ``how`` one of _ON_LO (aces pile; sun-3: first pile),
# _ON_HI (kings pile; sun-3: second pile) or _COMMIT (shift between the piles of a suit that
# meet, then put the card on); (_PARK, kind, index, pos, ray) parks a card on an empty ray
# (sun-3); stage actions are (_DEAL,), (_OPEN, n), (_GATHER, n), (_WIND,).
_PLAY, _PARK, _DEAL, _OPEN, _GATHER, _WIND_STEP = range(6)
_ON_LO, _ON_HI, _COMMIT = 1, 2, 3
_Step = tuple[int, ...]
_Spot = tuple[int, int, int, int]  # (kind, index, pos, card)


class _Model:
    """The position as plain lists and ints: cheap to copy and to play forward."""

    __slots__ = (
        "clouds",
        "deals",
        "gathered",
        "has_stage2",
        "hi",
        "lo",
        "open_ray",
        "opened",
        "placed",
        "rays",
        "stage",
        "three",
        "wind",
    )

    three: bool
    has_stage2: bool
    rays: list[list[int]]
    clouds: list[list[int]]
    wind: list[int] | None
    lo: list[int]
    hi: list[int]
    placed: int
    deals: int
    opened: int
    open_ray: int
    gathered: int
    stage: int

    @classmethod
    def from_board(cls, board: Board) -> _Model:
        m = _Model.__new__(_Model)
        m.three = board.rules.two_aces_piles
        m.has_stage2 = board.rules.opens
        m.rays = [list(ray) for ray in board.rays]
        m.clouds = [list(cloud) for cloud in board.clouds]
        m.wind = None if board.wind_row is None else list(board.wind_row)
        found = board.foundations
        m.lo = [len(found[s]) for s in range(4)]
        if m.three:
            m.hi = [len(found[s + 4]) for s in range(4)]
        else:
            m.hi = [14 - len(found[s + 4]) for s in range(4)]
        m.placed = sum(map(len, found))
        m.deals = board.deals
        m.opened = board.opened
        m.open_ray = board.open_ray or 0
        m.gathered = board.gathered
        m.stage = int(board.stage)
        return m

    def copy(self) -> _Model:
        m = _Model.__new__(_Model)
        m.three = self.three
        m.has_stage2 = self.has_stage2
        m.rays = [ray[:] for ray in self.rays]
        m.clouds = [cloud[:] for cloud in self.clouds]
        m.wind = None if self.wind is None else self.wind[:]
        m.lo = self.lo[:]
        m.hi = self.hi[:]
        m.placed = self.placed
        m.deals = self.deals
        m.opened = self.opened
        m.open_ray = self.open_ray
        m.gathered = self.gathered
        m.stage = self.stage
        return m

    # -------------------------------------------------------------------- foundations

    def meeting(self, suit: int) -> bool:
        """sun/sun-2: the suit's piles meet (kings top one above aces top): shifts possible."""
        a, k = self.lo[suit], self.hi[suit]
        return not self.three and k == a + 1 and a >= 1 and k <= 13

    def committed(self, suit: int) -> bool:
        """sun/sun-2: the suit's piles overlap (its split is fixed) or it is complete."""
        return self.lo[suit] >= self.hi[suit]

    def direct(self, card: int) -> int:
        """Where ``card`` goes without shifting: _ON_LO, _ON_HI or 0 (an ace prefers its
        aces pile, a king its kings pile: the other choice only loses flexibility)."""
        suit, rank = divmod(card, 13)
        on_lo = _ACES_NEXT[self.lo[suit]] == rank
        on_hi = self.hi_next(suit) == rank
        if on_lo and not (on_hi and rank == 12 and not self.three):
            return _ON_LO
        return _ON_HI if on_hi else 0

    def hi_next(self, suit: int) -> int:
        """The rank (0..12) the suit's second pile takes next, -1 if none: a second aces
        pile (sun-3), else the kings pile (``hi`` is its top rank, 14 when empty)."""
        k = self.hi[suit]
        return _ACES_NEXT[k] if self.three else _KINGS_NEXT[14 - k]

    def place(self, card: int, how: int) -> None:
        suit, r = divmod(card, 13)
        r += 1
        if how == _ON_LO:
            self.lo[suit] = r
        elif how == _ON_HI:
            self.hi[suit] = r
        else:  # commit: after shifting, the card lies on one pile and both tops are r
            self.lo[suit] = self.hi[suit] = r
        self.placed += 1

    # ---------------------------------------------------------------------- the table

    def spots(self) -> Iterator[_Spot]:
        """Every playable card off the foundations, rays first (outer first), then clouds
        and the wind row (left end first)."""
        open_ray = self.open_ray
        for n, ray in enumerate(self.rays):
            if not ray:
                continue
            if n + 1 == open_ray:
                for pos in range(len(ray) - 1, -1, -1):
                    yield (_RAY, n, pos, ray[pos])
            else:
                yield (_RAY, n, len(ray) - 1, ray[-1])
        for k, cloud in enumerate(self.clouds):
            if cloud:
                yield (_CLOUD, k, 0, cloud[0])
                if len(cloud) > 1:
                    yield (_CLOUD, k, len(cloud) - 1, cloud[-1])
        row = self.wind
        if row:
            yield (_WIND, 0, 0, row[0])
            if len(row) > 1:
                yield (_WIND, 0, len(row) - 1, row[-1])

    def pile(self, kind: int, index: int) -> list[int]:
        if kind == _RAY:
            return self.rays[index]
        if kind == _CLOUD:
            return self.clouds[index]
        assert self.wind is not None
        return self.wind

    def uncovers(self, kind: int, index: int) -> bool:
        """Whether taking a card from this pile makes another card playable."""
        pile = self.pile(kind, index)
        if kind == _RAY:
            return len(pile) > 1 and index + 1 != self.open_ray
        return len(pile) > 2

    def empty_rays(self) -> list[int]:
        return [n for n, ray in enumerate(self.rays) if not ray]

    def apply(self, step: _Step) -> None:
        """Play one step on the model."""
        op = step[0]
        if op == _PLAY:
            _, kind, index, pos, how = step
            self.place(self.pile(kind, index).pop(pos), how)
        elif op == _PARK:
            _, kind, index, pos, ray = step
            self.rays[ray].append(self.pile(kind, index).pop(pos))
        elif op == _DEAL:
            raise ValueError("the model does not know the stock")
        elif op == _OPEN:
            self.open_ray = self.opened = step[1]
            self.stage = Stage.SUN_PLAYS
        elif op == _GATHER:
            self.gather(step[1])
        else:
            raise ValueError("the model does not know the wind row")

    def gather(self, n: int) -> None:
        ray = self.rays[n - 1]
        onto, cloud = gather_out(ray[:], n)
        ray.clear()
        for i, card in enumerate(onto):
            self.rays[n + i].append(card)
        if cloud:
            self.clouds.append(cloud)
        self.gathered = n
        self.open_ray = 0
        self.stage = Stage.SUNSET

    def next_action(self) -> _Step | None:
        """After the 8th deal, the stage action a careful player takes when no card move is
        left: open the next ray that holds cards, else gather the next, else ``None`` (the
        wind is next). Rays are opened in order: opening ray N loses nothing that opening a
        later ray first would keep."""
        if self.stage < Stage.SUNSET and self.has_stage2:
            for n in range(self.opened + 1, RAYS + 1):
                if self.rays[n - 1]:
                    return (_OPEN, n)
        for n in range(self.gathered + 1, RAYS + 1):
            if self.rays[n - 1]:
                return (_GATHER, n)
        return None


# ------------------------------------------------------------------------------------------
# Playing every wanted card at once (the inner loop of the lookahead)
#
# In sun and sun-2 every suit reaches a point where its two piles meet (13 cards on, one of
# each rank): from then on any card of the suit fits after shifting, and the first card put
# on fixes the split for good: with rank r first, the aces pile goes on r+1..K and the kings
# pile r-1..A. ``targets[suit]`` says which rank may make that first move (0: none yet).
# Every other move to a foundation is safe and is played as soon as it is possible.


_ACES_NEXT = NEXT_RANK[PileKind.ACES]
_KINGS_NEXT = NEXT_RANK[PileKind.KINGS]


def _wants(m: _Model, suit: int, target: int) -> dict[int, int]:
    """The cards ``suit`` takes now, each with how it goes on."""
    base = suit * 13
    if m.meeting(suit):
        return {base + target - 1: _COMMIT} if target else {}
    lo, hi = _ACES_NEXT[m.lo[suit]], m.hi_next(suit)
    if lo >= 0 and lo == hi and not m.three:  # one card fits both: see direct
        return {base + lo: _ON_HI if lo == 12 else _ON_LO}
    out = {}
    if hi >= 0:
        out[base + hi] = _ON_HI
    if lo >= 0:
        out[base + lo] = _ON_LO
    return out


def _close(
    m: _Model,
    targets: Sequence[int],
    steps: list[_Step] | None = None,
    want: dict[int, int] | None = None,
) -> dict[int, int]:
    """Play every card the foundations take (commits only as ``targets`` allow), recording
    the steps in ``steps`` if given. Returns the cards wanted afterwards (none playable);
    ``want`` passes that dict back in when no card has gone on since."""
    if want is None:
        want = {}
        for suit in range(4):
            want.update(_wants(m, suit, targets[suit]))
    if not want:
        return want
    rays, open_ray = m.rays, m.open_ray

    def take(kind: int, index: int, pos: int, card: int) -> None:
        how = want[card]
        suit = card // 13
        for other in [c for c in want if c // 13 == suit]:
            del want[other]
        if steps is not None:
            steps.append((_PLAY, kind, index, pos, how))
        m.place(card, how)
        want.update(_wants(m, suit, targets[suit]))

    changed = True
    while changed and want:
        changed = False
        for n in range(RAYS):
            ray = rays[n]
            if not ray:
                continue
            if n + 1 == open_ray:
                pos = len(ray) - 1
                while pos >= 0:
                    if ray[pos] in want:
                        take(_RAY, n, pos, ray.pop(pos))
                        changed = True
                        pos = len(ray) - 1
                    else:
                        pos -= 1
            else:
                while ray and ray[-1] in want:
                    take(_RAY, n, len(ray) - 1, ray.pop())
                    changed = True
        for k, row in enumerate(m.clouds):
            changed |= _close_row(row, _CLOUD, k, want, take)
        if m.wind:
            changed |= _close_row(m.wind, _WIND, 0, want, take)
    return want


def _close_row(
    row: list[int], kind: int, index: int, want: dict[int, int], take: Callable[..., None]
) -> bool:
    """Take wanted cards from both ends of a cloud or the wind row, left end first."""
    changed = False
    while row:
        if row[0] in want:
            take(kind, index, 0, row.pop(0))
        elif row[-1] in want:
            take(kind, index, len(row) - 1, row.pop())
        else:
            break
        changed = True
    return changed


def _advance(m: _Model, steps: list[_Step] | None = None) -> list[int] | None:
    """Take the next stage action after the 8th deal (see :meth:`_Model.next_action`) and
    return the cards it makes playable; ``None`` when only the wind is left."""
    action = m.next_action()
    if action is None:
        return None
    if steps is not None:
        steps.append(action)
    n = action[1]
    if action[0] == _OPEN:
        m.apply(action)
        return m.rays[n - 1]
    clouds = len(m.clouds)
    m.gather(n)
    exposed = [ray[-1] for ray in m.rays[n:] if ray]
    if len(m.clouds) > clouds:
        exposed += (m.clouds[-1][0], m.clouds[-1][-1])
    return exposed


def _run(m: _Model, targets: Sequence[int], steps: list[_Step] | None = None) -> int:
    """Play the model on to the wind (exclusive): every wanted card, then the next stage
    action, and so on. Returns the cards on the foundations at the end."""
    want = _close(m, targets, steps)
    while m.placed < 104:
        exposed = _advance(m, steps)
        if exposed is None:
            break
        if any(card in want for card in exposed):
            want = _close(m, targets, steps, want)
    return m.placed


# ------------------------------------------------------------------------------------------
# The split search (sun and sun-2, after the 8th deal)

_BRANCH = -1  # a target under search: every rank that turns up is tried as the first move


class _SplitSearch:
    """Search over the first move of every suit whose split is open.

    From the 8th deal to the wind the game is fully known and, apart from those first moves,
    best played by taking every card that fits (see :func:`_close`). So a plan is a target
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

    def search(self, m: _Model) -> list[int]:
        open_suits = [s for s in range(4) if not m.committed(s)]
        self._leaf(_run(m.copy(), self.best_targets), self.best_targets)
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

    def _explore(self, m: _Model, suits: list[int]) -> None:
        targets = list(self.best_targets)
        for suit in suits:
            targets[suit] = _BRANCH
        self._dfs(m.copy(), targets, [0, 0, 0, 0])

    def _dfs(self, m: _Model, targets: list[int], tried: list[int]) -> None:
        """Play on; at each card that could make a searched suit's first move, try both
        making it (the suit's target becomes that rank) and never making it."""
        fixed = [max(t, 0) for t in targets]
        want = _close(m, fixed)
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
            exposed = _advance(m)
            if exposed is None:
                self._leaf(m.placed, fixed)
                return
            if any(card in want for card in exposed):
                want = _close(m, fixed, None, want)
                exposed = None
        kind, index, pos, card = found
        suit, rank = card // 13, card % 13 + 1
        taken = m.copy()
        taken.place(taken.pile(kind, index).pop(pos), _COMMIT)
        with_it = list(targets)
        with_it[suit] = rank
        self._dfs(taken, with_it, tried)
        if self.best == 104 or self.playouts >= self.budget:
            return
        without = list(tried)
        without[suit] |= 1 << rank
        self._dfs(m, targets, without)

    @staticmethod
    def _candidates(m: _Model, targets: list[int], tried: list[int]) -> set[int]:
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


class _WindSearch:
    """The line that puts the most cards on the foundations from the wind row (all of them
    when the game can still be won): depth first, each position visited once.

    In sun and sun-2 both playable ends are tried whenever they fit. In sun-3 a card that
    fits is always played at once (nothing is ever lost by it), and when none fits, the
    search parks the left or the right end card on an empty ray.
    """

    def __init__(self, m: _Model, max_states: int) -> None:
        self.m = m
        self.row = m.wind or []
        self.i, self.j = 0, len(self.row)
        self.max_states = max_states
        self.seen: set[tuple[object, ...]] = set()
        self.path: list[_Step] = []
        self.best, self.best_path = m.placed, list[_Step]()
        # sun-3: cards parked on rays (card, ray) and the rays free to park on
        self.cells = [(ray[-1], n) for n, ray in enumerate(m.rays) if len(ray) == 1]
        self.free = m.empty_rays() if m.three else []

    def run(self) -> list[_Step]:
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
            how = m.direct(card) or (_COMMIT if m.meeting(card // 13) else 0)
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
            self.path.append((_PLAY, _RAY, parked[1], 0, how))
        else:
            pos = 0 if where == -1 else j - i - 1
            if where == -1:
                self.i += 1
            else:
                self.j -= 1
            if how:
                self.path.append((_PLAY, _WIND, 0, pos, how))
            else:
                used = {ray for _, ray in self.cells}
                ray = next(n for n in self.free if n not in used)
                self.cells.append((card, ray))
                self.path.append((_PARK, _WIND, 0, pos, ray))
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


# ------------------------------------------------------------------------------------------
# From steps to moves


def _emit(board: Board, steps: Iterable[_Step]) -> list[Move]:
    """The canonical moves that play ``steps`` from ``board`` (left as it was). Stops early
    at a stage action the board cannot take (a deck or wind row that is not known)."""
    moves: list[Move] = []
    try:
        for step in steps:
            for move in _step_moves(board, step):
                if move is None:
                    return moves
                board.push(move)
                moves.append(move)
    finally:
        for _ in moves:
            board.pop()
    return moves


# The target of a card step by (sun-3?, how).
_TARGETS = {
    False: {_ON_LO: Target.ACES, _ON_HI: Target.KINGS},
    True: {_ON_LO: Target.ACES1, _ON_HI: Target.ACES2},
}


def _step_moves(board: Board, step: _Step) -> Iterator[Move | None]:
    """The moves of one step; each is pushed before the next is made. ``None``: stop."""
    op = step[0]
    if op in (_PLAY, _PARK):
        _, kind, index, pos, arg = step
        if op == _PARK:
            yield _card_move(board, kind, index, pos, Target.RAY, arg + 1)
        elif arg == _COMMIT:
            yield from _commit_moves(board, kind, index, pos)
        else:
            yield _card_move(board, kind, index, pos, _TARGETS[board.variant is Variant.SUN3][arg])
        return
    if op == _DEAL:
        move = Move.deal()
    elif op == _OPEN:
        move = Move.open(step[1])
    elif op == _GATHER:
        move = Move.gather(step[1])
    else:
        move = Move.wind()
    yield move if board.is_legal(move) else None


def _card_move(
    board: Board, kind: int, index: int, pos: int, target: Target, target_ray: int | None = None
) -> Move:
    """The canonical move taking the card at (kind, index, pos) to ``target``."""
    if kind == _RAY:
        ray = board.ray(index + 1)
        move = Move(
            MoveKind.CARD, index + 1, ray[pos], Place.RAY, len(ray) - pos, None, target, target_ray
        )
    else:
        row = board.clouds[index] if kind == _CLOUD else board.wind_row
        assert row is not None
        end = End.LEFT if pos == 0 else End.RIGHT
        place = Place.CLOUD if kind == _CLOUD else Place.WIND
        number = index + 1 if kind == _CLOUD else None
        move = Move(MoveKind.CARD, number, row[pos], place, None, end, target, target_ray)
    return board.canonical(move)


def _commit_moves(board: Board, kind: int, index: int, pos: int) -> Iterator[Move]:
    """Shift between the two piles of a suit that meet until the card fits, then put it on
    (the fewer shifts of the two ways)."""
    card = _card_at(board, kind, index, pos)
    suit, rank = divmod(card, 13)
    rank += 1
    top = len(board.aces_pile(suit))
    options = []
    if rank >= 2:
        options.append((abs(top - (rank - 1)), rank - 1, Target.ACES))
    if rank <= 12:
        options.append((abs(top - rank), rank, Target.KINGS))
    _, goal, target = min(options, key=lambda o: o[0])
    # The caller plays each move yielded: the piles are read again after it.
    while len(aces := board.aces_pile(suit)) > goal:
        yield board.canonical(Move(MoveKind.CARD, None, aces[-1], Place.ACES, target=Target.KINGS))
    while len(board.aces_pile(suit)) < goal:
        top_king = board.kings_pile(suit)[-1]
        yield board.canonical(Move(MoveKind.CARD, None, top_king, Place.KINGS, target=Target.ACES))
    yield _card_move(board, kind, index, pos, target)


def _card_at(board: Board, kind: int, index: int, pos: int) -> Card:
    if kind == _RAY:
        return board.ray(index + 1)[pos]
    row = board.clouds[index] if kind == _CLOUD else board.wind_row
    assert row is not None
    return row[pos]


# ------------------------------------------------------------------------------------------
# The policies


def _stage_step(m: _Model) -> _Step | None:
    """The next stage action when no card move is wanted: deal, open or gather the next ray
    holding cards, the wind; ``None`` after the wind."""
    if m.deals < DEALS:
        return (_DEAL,)
    action = m.next_action()
    if action is not None:
        return action
    return (_WIND_STEP,) if m.stage < Stage.WIND else None


class RandomPolicy(_BasePolicy):
    """Uniform over the useful card moves, with each stage action weighing only
    :data:`STAGE_WEIGHT` of a card move.

    Useful card moves: every move to a foundation; in sun and sun-2 also each card that
    fits a suit whose piles meet after shifting (the shifts and the card count as one
    choice); in sun-3 parking a card on the first empty ray, unless it is its ray's only
    card. Bare moves between foundations are never chosen, so no game can go round in
    circles: every choice puts a card on, fills an empty ray (at most 13 in a row) or is a
    stage action.
    """

    name = "random"
    description = "uniform over useful card moves; stage actions weigh 0.1"

    def plan(self, board: Board, rng: random.Random) -> list[Move]:
        if board.status() is not Status.PLAYING:
            return []
        m = _Model.from_board(board)
        first_empty = next((n + 1 for n, ray in enumerate(board.rays) if not ray), None)
        choices: list[Move | _Step] = []
        weights: list[float] = []
        for move in board.legal_moves():
            if move.kind is not MoveKind.CARD:
                choices.append(move)
                weights.append(STAGE_WEIGHT)
            elif _useful(board, move, first_empty):
                choices.append(move)
                weights.append(1.0)
        if not m.three:
            for kind, index, pos, card in m.spots():
                if m.meeting(card // 13) and not m.direct(card):
                    choices.append((_PLAY, kind, index, pos, _COMMIT))
                    weights.append(1.0)
        if not choices:
            return []
        choice = rng.choices(choices, weights)[0]
        return [choice] if isinstance(choice, Move) else _emit(board, [choice])


def _useful(board: Board, move: Move, first_empty: int | None) -> bool:
    """A card move the random policy may choose: not a bare move between foundations, and
    a card parked only on the first empty ray, never its ray's only card."""
    if move.source is Place.ACES or move.source is Place.KINGS:
        return False
    if move.target is not Target.RAY:
        return True
    if move.target_ray != first_empty:
        return False
    ray = move.index if move.source is Place.RAY else None
    return not (ray is not None and len(board.ray(ray)) == 1)


class GreedyPolicy(_BasePolicy):
    """Every foundation move at once, then the next stage action.

    Precisely, it plays the first card that fits a foundation without shifting, preferring
    a card whose taking uncovers another (from a closed ray of two or more cards, or from
    a cloud or the wind row of three or more); ties go to the first in the order rays 1..13
    (an open ray's cards outer first), clouds 1.., the wind row (left end first). An ace
    goes to its aces pile and a king to its kings pile when both would take it. When no
    card fits: in sun and sun-2 it shifts between the piles of a suit that meet, only to let
    the first playable card of that suit on (which fixes the suit's split at once); in
    sun-3 it parks the fewest cards on empty rays that uncover a card that fits. Then the
    stage action: deal; open the next ray that holds cards (every ray in turn); gather the
    next; the wind. After the wind it plays on until the game is won or lost.
    """

    name = "greedy"
    description = "every foundation move first; shifts only to let a waiting card on"

    def plan(self, board: Board, rng: random.Random) -> list[Move]:
        if board.status() is not Status.PLAYING:
            return []
        return _emit(board, _greedy_batch(_Model.from_board(board), self.shifts_before_wind))

    #: Whether it shifts between foundations before the wind (after it, it always may).
    shifts_before_wind = True


class PatientPolicy(GreedyPolicy):
    """:class:`GreedyPolicy`, except that before the wind it never moves a card between
    foundations: a suit whose piles meet takes only a card that fits one of its piles as
    they stand, so its split is left open longer. The same as greedy in sun-3."""

    name = "patient"
    description = "greedy, but no moves between foundations before the wind"
    shifts_before_wind = False


def _greedy_batch(m: _Model, shifts: bool = True) -> list[_Step]:
    """The greedy policy's card moves up to and including the next stage action."""
    steps: list[_Step] = []
    while m.placed < 104:
        macro = _greedy_steps(m, shifts or m.stage == Stage.WIND)
        if not macro:
            break
        for step in macro:
            m.apply(step)
        steps += macro
    if m.placed < 104:
        action = _stage_step(m)
        if action is not None:
            steps.append(action)
    return steps


def _greedy_steps(m: _Model, shifts: bool = True) -> list[_Step]:
    """The greedy policy's next card move (with the shifts or parking it needs), if any;
    ``shifts`` allows moves between foundations."""
    best: _Step | None = None
    for kind, index, pos, card in m.spots():
        how = m.direct(card)
        if how:
            if m.uncovers(kind, index):
                return [(_PLAY, kind, index, pos, how)]
            best = best or (_PLAY, kind, index, pos, how)
    if best is not None:
        return [best]
    if m.three:
        return _dig(m)
    if shifts:
        for kind, index, pos, card in m.spots():
            if m.meeting(card // 13):
                return [(_PLAY, kind, index, pos, _COMMIT)]
    return []


def _dig(m: _Model) -> list[_Step]:
    """sun-3: park the fewest covering cards on empty rays to free a card that fits."""
    free = m.empty_rays()
    best: tuple[int, int, int, int] | None = None  # (depth, kind, index, side)
    for n, ray in enumerate(m.rays):
        if n + 1 != m.open_ray:
            for depth in range(1, min(len(free), len(ray) - 1) + 1):
                if m.direct(ray[-1 - depth]):
                    if best is None or depth < best[0]:
                        best = (depth, _RAY, n, 1)
                    break
    rows = [(_CLOUD, k, cloud) for k, cloud in enumerate(m.clouds)]
    if m.wind:
        rows.append((_WIND, 0, m.wind))
    for kind, index, row in rows:
        for side in (0, 1):
            for depth in range(1, min(len(free), len(row) - 1) + 1):
                if m.direct(row[depth] if side == 0 else row[-1 - depth]):
                    if best is None or depth < best[0]:
                        best = (depth, kind, index, side)
                    break
    if best is None:
        return []
    depth, kind, index, side = best
    size = len(m.pile(kind, index))
    steps: list[_Step] = []
    for k in range(depth):
        pos = 0 if (kind != _RAY and side == 0) else size - 1 - k
        steps.append((_PARK, kind, index, pos, free[k]))
    pos = 0 if (kind != _RAY and side == 0) else size - 1 - depth
    card = m.pile(kind, index)[pos if side == 1 or kind == _RAY else depth]
    steps.append((_PLAY, kind, index, pos, m.direct(card)))
    return steps


class LookaheadPolicy(_BasePolicy):
    """Plans ahead over the cards it can see; the strongest policy, and the default.

    In sun and sun-2:

    - Before the 8th deal (the stock is unknown) it plays every card that fits, except that
      it never makes the first move of a suit whose piles meet: that move fixes how the
      suit's last 13 cards split between its piles, and it waits for the plan.
    - After the 8th deal everything up to the wind is known. It searches for the first move
      of each open suit (see :class:`_SplitSearch`) that puts the most cards on before the
      wind (a win if it can), then plays that line to the wind: every card that fits, each
      ray that holds cards opened in turn (sun), each gathered in turn.

    In sun-3 no split is to be chosen (both piles of a suit build up): until the wind it
    plays like :class:`GreedyPolicy`, parking cards on empty rays to dig.

    After the wind, in every variant, it searches the row (see :class:`_WindSearch`) for a
    win, else for the most cards on; in sun-3 the search parks cards on the empty rays.
    """

    name = "lookahead"
    description = "searches the split of each suit once the stock is dealt, then the wind row"

    def __init__(self, budget: int = 1500, wind_states: int = 100_000) -> None:
        self.budget = budget
        self.wind_states = wind_states

    def plan(self, board: Board, rng: random.Random) -> list[Move]:
        if board.status() is not Status.PLAYING:
            return []
        m = _Model.from_board(board)
        steps: list[_Step] = []
        if m.stage == Stage.WIND:
            steps = _WindSearch(m, self.wind_states).run()
            if not steps:  # the search ran out of budget: let the greedy rules finish
                return GreedyPolicy().plan(board, rng)
        elif m.three:
            steps = _greedy_batch(m)
        elif m.deals < DEALS:
            _close(m, (0, 0, 0, 0), steps)
            if m.placed < 104:
                steps.append((_DEAL,))
        else:
            targets = _SplitSearch(self.budget).search(m)
            if _run(m, targets, steps) < 104:
                steps.append((_WIND_STEP,))
        return _emit(board, steps)

    def __repr__(self) -> str:
        return f"LookaheadPolicy(budget={self.budget}, wind_states={self.wind_states})"


# ------------------------------------------------------------------------------------------
# Registry and play()

#: The policies by name, strongest last.
POLICIES: dict[str, Policy] = {
    policy.name: policy
    for policy in (RandomPolicy(), GreedyPolicy(), PatientPolicy(), LookaheadPolicy())
}
#: The policy ``sunlog play`` and ``sunlog stats`` use unless told otherwise.
DEFAULT_POLICY = "lookahead"


def get_policy(name: str | Policy) -> Policy:
    """The policy called ``name`` (a policy object is returned as it is)."""
    if not isinstance(name, str):
        return name
    try:
        return POLICIES[name.strip().lower()]
    except KeyError:
        known = ", ".join(POLICIES)
        raise ValueError(f"unknown policy {name!r}: expected one of {known}") from None


def game_rng(policy: str, variant: Variant | str, seed: int) -> random.Random:
    """The random source of one game: fixed by the policy's name, the variant and the seed
    (the deal number by default), the same in every process and on every run."""
    variant = variant if isinstance(variant, Variant) else Variant.parse(variant)
    return random.Random(f"sunlog/{policy}/{variant.value}/{seed}")


def play(
    board_or_deal: Board | int,
    variant: Variant | str = Variant.SUN,
    policy: Policy | str = DEFAULT_POLICY,
    *,
    seed: int | None = None,
    max_moves: int = MAX_MOVES,
) -> Board:
    """Play a game with ``policy`` to its end and return the board (its ``move_stack`` is
    the game). ``board_or_deal`` is a deal number (dealt in ``variant``) or a board to play
    on from where it stands (its own variant counts). The game ends when it is won or lost,
    when the policy has no move (an unknown deck or wind row), or after ``max_moves``."""
    if isinstance(board_or_deal, Board):
        board = board_or_deal
    else:
        board = Board(variant, deal=board_or_deal)
    chosen = get_policy(policy)
    if seed is None:
        seed = board.deal_number or 0
    rng = game_rng(chosen.name, board.variant, seed)
    played = 0
    while played < max_moves and board.status() is Status.PLAYING:
        moves = chosen.plan(board, rng)
        if not moves:
            break
        for move in moves[: max_moves - played]:
            board.push(move)
        played += len(moves)
    return board
