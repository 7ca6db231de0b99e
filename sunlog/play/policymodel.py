"""The policies' compact model of a position, and the play it makes fast: every wanted card
at once, stage actions in order, up to the wind.

Cards are ints 0..51 (suit * 13 + rank - 1). In sun and sun-2 a suit's foundations are two
numbers: ``lo`` the aces pile's top rank (0 = empty) and ``hi`` the kings pile's top rank
(14 = empty); both piles are always runs (A..lo, K..hi). In sun-3 ``lo`` and ``hi`` are the
top ranks of the first and second aces piles. What each pile takes next comes from the
shared rule tables (:data:`~sunlog.engine.rules.NEXT_RANK`), and a gathered ray is dealt out
by :func:`~sunlog.engine.rules.gather_out`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from sunlog.engine.board import DEALS, RAYS, Board, Stage
from sunlog.engine.rules import NEXT_RANK, PileKind, gather_out

__all__ = ["Model", "Step"]

RAY, CLOUD, WIND = 0, 1, 2
# Steps a plan is made of, translated into moves by emit. A card step is
# (PLAY, kind, index, pos, how) with ``how`` one of ON_LO (aces pile; sun-3: first pile),
# ON_HI (kings pile; sun-3: second pile) or COMMIT (shift between the piles of a suit that
# meet, then put the card on); (PARK, kind, index, pos, ray) parks a card on an empty ray
# (sun-3); stage actions are (DEAL,), (OPEN, n), (GATHER, n), (WIND,).
PLAY, PARK, DEAL, OPEN, GATHER, WIND_STEP = range(6)
ON_LO, ON_HI, COMMIT = 1, 2, 3
Step = tuple[int, ...]
Spot = tuple[int, int, int, int]  # (kind, index, pos, card)


class Model:
    """The position as plain lists and ints: cheap to copy and to play forward.

    ``three``: sun-3 (two aces piles a suit, else an aces and a kings pile);
    ``has_stage2``: rays can be opened (not in sun-2).
    """

    # Not a dataclass: the lookahead copies one for each play-out, and compiled by mypyc a
    # dataclass's generated __init__ stays interpreted.
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

    def __init__(
        self,
        three: bool,
        has_stage2: bool,
        rays: list[list[int]],
        clouds: list[list[int]],
        wind: list[int] | None,
        lo: list[int],
        hi: list[int],
        placed: int,
        deals: int,
        opened: int,
        open_ray: int,
        gathered: int,
        stage: int,
    ) -> None:
        self.three, self.has_stage2 = three, has_stage2  # the variant
        self.rays, self.clouds, self.wind = rays, clouds, wind  # the table
        self.lo, self.hi, self.placed = lo, hi, placed  # the foundations
        self.deals, self.opened, self.open_ray = deals, opened, open_ray  # the stages
        self.gathered, self.stage = gathered, stage

    @classmethod
    def from_board(cls, board: Board) -> Model:
        rules, found = board.rules, board.foundations
        three = rules.two_aces_piles
        second = [len(found[s + 4]) for s in range(4)]
        return cls(
            three,
            rules.opens,
            [list(ray) for ray in board.rays],
            [list(cloud) for cloud in board.clouds],
            None if board.wind_row is None else list(board.wind_row),
            [len(found[s]) for s in range(4)],
            second if three else [14 - height for height in second],
            sum(map(len, found)),
            board.deals,
            board.opened,
            board.open_ray or 0,
            board.gathered,
            int(board.stage),
        )

    def copy(self) -> Model:
        """An independent copy: the lists are copied, the numbers shared."""
        return Model(
            self.three,
            self.has_stage2,
            [ray[:] for ray in self.rays],
            [cloud[:] for cloud in self.clouds],
            None if self.wind is None else self.wind[:],
            self.lo[:],
            self.hi[:],
            self.placed,
            self.deals,
            self.opened,
            self.open_ray,
            self.gathered,
            self.stage,
        )

    # -------------------------------------------------------------------- foundations

    def meeting(self, suit: int) -> bool:
        """sun/sun-2: the suit's piles meet (kings top one above aces top): shifts possible."""
        a, k = self.lo[suit], self.hi[suit]
        return not self.three and k == a + 1 and a >= 1 and k <= 13

    def committed(self, suit: int) -> bool:
        """sun/sun-2: the suit's piles overlap (its split is fixed) or it is complete."""
        return self.lo[suit] >= self.hi[suit]

    def direct(self, card: int) -> int:
        """Where ``card`` goes without shifting: ON_LO, ON_HI or 0 (an ace prefers its
        aces pile, a king its kings pile: the other choice only loses flexibility)."""
        suit, rank = divmod(card, 13)
        on_lo = ACES_NEXT[self.lo[suit]] == rank
        on_hi = self.hi_next(suit) == rank
        if on_lo and not (on_hi and rank == 12 and not self.three):
            return ON_LO
        return ON_HI if on_hi else 0

    def hi_next(self, suit: int) -> int:
        """The rank (0..12) the suit's second pile takes next, -1 if none: a second aces
        pile (sun-3), else the kings pile (``hi`` is its top rank, 14 when empty)."""
        k = self.hi[suit]
        return ACES_NEXT[k] if self.three else KINGS_NEXT[14 - k]

    def place(self, card: int, how: int) -> None:
        suit, r = divmod(card, 13)
        r += 1
        if how == ON_LO:
            self.lo[suit] = r
        elif how == ON_HI:
            self.hi[suit] = r
        else:  # commit: after shifting, the card lies on one pile and both tops are r
            self.lo[suit] = self.hi[suit] = r
        self.placed += 1

    # ---------------------------------------------------------------------- the table

    def spots(self) -> Iterator[Spot]:
        """Every playable card off the foundations, rays first (outer first), then clouds
        and the wind row (left end first)."""
        open_ray = self.open_ray
        for n, ray in enumerate(self.rays):
            if not ray:
                continue
            if n + 1 == open_ray:
                for pos in range(len(ray) - 1, -1, -1):
                    yield (RAY, n, pos, ray[pos])
            else:
                yield (RAY, n, len(ray) - 1, ray[-1])
        for k, cloud in enumerate(self.clouds):
            if cloud:
                yield (CLOUD, k, 0, cloud[0])
                if len(cloud) > 1:
                    yield (CLOUD, k, len(cloud) - 1, cloud[-1])
        row = self.wind
        if row:
            yield (WIND, 0, 0, row[0])
            if len(row) > 1:
                yield (WIND, 0, len(row) - 1, row[-1])

    def pile(self, kind: int, index: int) -> list[int]:
        if kind == RAY:
            return self.rays[index]
        if kind == CLOUD:
            return self.clouds[index]
        assert self.wind is not None
        return self.wind

    def uncovers(self, kind: int, index: int) -> bool:
        """Whether taking a card from this pile makes another card playable."""
        pile = self.pile(kind, index)
        if kind == RAY:
            return len(pile) > 1 and index + 1 != self.open_ray
        return len(pile) > 2

    def empty_rays(self) -> list[int]:
        return [n for n, ray in enumerate(self.rays) if not ray]

    def apply(self, step: Step) -> None:
        """Play one step on the model."""
        op = step[0]
        if op == PLAY:
            _, kind, index, pos, how = step
            self.place(self.pile(kind, index).pop(pos), how)
        elif op == PARK:
            _, kind, index, pos, ray = step
            self.rays[ray].append(self.pile(kind, index).pop(pos))
        elif op == DEAL:
            raise ValueError("the model does not know the stock")
        elif op == OPEN:
            self.open_ray = self.opened = step[1]
            self.stage = Stage.SUN_PLAYS
        elif op == GATHER:
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

    def next_action(self) -> Step | None:
        """After the 8th deal, the stage action a careful player takes when no card move is
        left: open the next ray that holds cards, else gather the next, else ``None`` (the
        wind is next). Rays are opened in order: opening ray N loses nothing that opening a
        later ray first would keep."""
        if self.stage < Stage.SUNSET and self.has_stage2:
            for n in range(self.opened + 1, RAYS + 1):
                if self.rays[n - 1]:
                    return (OPEN, n)
        for n in range(self.gathered + 1, RAYS + 1):
            if self.rays[n - 1]:
                return (GATHER, n)
        return None


# ------------------------------------------------------------------------------------------
# Playing every wanted card at once (the inner loop of the lookahead)
#
# In sun and sun-2 every suit reaches a point where its two piles meet (13 cards on, one of
# each rank): from then on any card of the suit fits after shifting, and the first card put
# on fixes the split for good: with rank r first, the aces pile goes on r+1..K and the kings
# pile r-1..A. ``targets[suit]`` says which rank may make that first move (0: none yet).
# Every other move to a foundation is safe and is played as soon as it is possible.


ACES_NEXT = NEXT_RANK[PileKind.ACES]
KINGS_NEXT = NEXT_RANK[PileKind.KINGS]


def _wants(m: Model, suit: int, target: int) -> dict[int, int]:
    """The cards ``suit`` takes now, each with how it goes on."""
    base = suit * 13
    if m.meeting(suit):
        return {base + target - 1: COMMIT} if target else {}
    lo, hi = ACES_NEXT[m.lo[suit]], m.hi_next(suit)
    if lo >= 0 and lo == hi and not m.three:  # one card fits both: see direct
        return {base + lo: ON_HI if lo == 12 else ON_LO}
    out = {}
    if hi >= 0:
        out[base + hi] = ON_HI
    if lo >= 0:
        out[base + lo] = ON_LO
    return out


def play_wanted(
    m: Model,
    targets: Sequence[int],
    steps: list[Step] | None = None,
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
            steps.append((PLAY, kind, index, pos, how))
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
                        take(RAY, n, pos, ray.pop(pos))
                        changed = True
                        pos = len(ray) - 1
                    else:
                        pos -= 1
            else:
                while ray and ray[-1] in want:
                    take(RAY, n, len(ray) - 1, ray.pop())
                    changed = True
        for k, row in enumerate(m.clouds):
            changed |= _close_row(row, CLOUD, k, want, take)
        if m.wind:
            changed |= _close_row(m.wind, WIND, 0, want, take)
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


def advance(m: Model, steps: list[Step] | None = None) -> list[int] | None:
    """Take the next stage action after the 8th deal (see :meth:`Model.next_action`) and
    return the cards it makes playable; ``None`` when only the wind is left."""
    action = m.next_action()
    if action is None:
        return None
    if steps is not None:
        steps.append(action)
    n = action[1]
    if action[0] == OPEN:
        m.apply(action)
        return m.rays[n - 1]
    clouds = len(m.clouds)
    m.gather(n)
    exposed = [ray[-1] for ray in m.rays[n:] if ray]
    if len(m.clouds) > clouds:
        exposed += (m.clouds[-1][0], m.clouds[-1][-1])
    return exposed


def run_to_wind(m: Model, targets: Sequence[int], steps: list[Step] | None = None) -> int:
    """Play the model on to the wind (exclusive): every wanted card, then the next stage
    action, and so on. Returns the cards on the foundations at the end."""
    want = play_wanted(m, targets, steps)
    while m.placed < 104:
        exposed = advance(m, steps)
        if exposed is None:
            break
        if any(card in want for card in exposed):
            want = play_wanted(m, targets, steps, want)
    return m.placed


def stage_step(m: Model) -> Step | None:
    """The next stage action when no card move is wanted: deal, open or gather the next ray
    holding cards, the wind; ``None`` after the wind."""
    if m.deals < DEALS:
        return (DEAL,)
    action = m.next_action()
    if action is not None:
        return action
    return (WIND_STEP,) if m.stage < Stage.WIND else None
