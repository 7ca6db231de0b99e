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
from typing import Protocol

from sunlog.engine.board import DEALS, Board, Stage, Status, Variant
from sunlog.engine.moves import Move, MoveKind, Place, Target
from sunlog.play.emit import emit
from sunlog.play.lookahead import SplitSearch, WindSearch
from sunlog.play.policymodel import (
    CLOUD,
    COMMIT,
    DEAL,
    PARK,
    PLAY,
    RAY,
    WIND,
    WIND_STEP,
    Model,
    Step,
    play_wanted,
    run_to_wind,
    stage_step,
)

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
# The policies


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
        m = Model.from_board(board)
        first_empty = next((n + 1 for n, ray in enumerate(board.rays) if not ray), None)
        choices: list[Move | Step] = []
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
                    choices.append((PLAY, kind, index, pos, COMMIT))
                    weights.append(1.0)
        if not choices:
            return []
        choice = rng.choices(choices, weights)[0]
        return [choice] if isinstance(choice, Move) else emit(board, [choice])


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
        return emit(board, _greedy_batch(Model.from_board(board), self.shifts_before_wind))

    #: Whether it shifts between foundations before the wind (after it, it always may).
    shifts_before_wind = True


class PatientPolicy(GreedyPolicy):
    """:class:`GreedyPolicy`, except that before the wind it never moves a card between
    foundations: a suit whose piles meet takes only a card that fits one of its piles as
    they stand, so its split is left open longer. The same as greedy in sun-3."""

    name = "patient"
    description = "greedy, but no moves between foundations before the wind"
    shifts_before_wind = False


def _greedy_batch(m: Model, shifts: bool = True) -> list[Step]:
    """The greedy policy's card moves up to and including the next stage action."""
    steps: list[Step] = []
    while m.placed < 104:
        macro = _greedy_steps(m, shifts or m.stage == Stage.WIND)
        if not macro:
            break
        for step in macro:
            m.apply(step)
        steps += macro
    if m.placed < 104:
        action = stage_step(m)
        if action is not None:
            steps.append(action)
    return steps


def _greedy_steps(m: Model, shifts: bool = True) -> list[Step]:
    """The greedy policy's next card move (with the shifts or parking it needs), if any;
    ``shifts`` allows moves between foundations."""
    best: Step | None = None
    for kind, index, pos, card in m.spots():
        how = m.direct(card)
        if how:
            if m.uncovers(kind, index):
                return [(PLAY, kind, index, pos, how)]
            best = best or (PLAY, kind, index, pos, how)
    if best is not None:
        return [best]
    if m.three:
        return _dig(m)
    if shifts:
        for kind, index, pos, card in m.spots():
            if m.meeting(card // 13):
                return [(PLAY, kind, index, pos, COMMIT)]
    return []


def _dig(m: Model) -> list[Step]:
    """sun-3: park the fewest covering cards on empty rays to free a card that fits."""
    free = m.empty_rays()
    best: tuple[int, int, int, int] | None = None  # (depth, kind, index, side)
    for n, ray in enumerate(m.rays):
        if n + 1 != m.open_ray:
            for depth in range(1, min(len(free), len(ray) - 1) + 1):
                if m.direct(ray[-1 - depth]):
                    if best is None or depth < best[0]:
                        best = (depth, RAY, n, 1)
                    break
    rows = [(CLOUD, k, cloud) for k, cloud in enumerate(m.clouds)]
    if m.wind:
        rows.append((WIND, 0, m.wind))
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
    steps: list[Step] = []
    for k in range(depth):
        pos = 0 if (kind != RAY and side == 0) else size - 1 - k
        steps.append((PARK, kind, index, pos, free[k]))
    pos = 0 if (kind != RAY and side == 0) else size - 1 - depth
    card = m.pile(kind, index)[pos if side == 1 or kind == RAY else depth]
    steps.append((PLAY, kind, index, pos, m.direct(card)))
    return steps


class LookaheadPolicy(_BasePolicy):
    """Plans ahead over the cards it can see; the strongest policy, and the default.

    In sun and sun-2:

    - Before the 8th deal (the stock is unknown) it plays every card that fits, except that
      it never makes the first move of a suit whose piles meet: that move fixes how the
      suit's last 13 cards split between its piles, and it waits for the plan.
    - After the 8th deal everything up to the wind is known. It searches for the first move
      of each open suit (see :class:`SplitSearch`) that puts the most cards on before the
      wind (a win if it can), then plays that line to the wind: every card that fits, each
      ray that holds cards opened in turn (sun), each gathered in turn.

    In sun-3 no split is to be chosen (both piles of a suit build up): until the wind it
    plays like :class:`GreedyPolicy`, parking cards on empty rays to dig.

    After the wind, in every variant, it searches the row (see :class:`WindSearch`) for a
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
        m = Model.from_board(board)
        steps: list[Step] = []
        if m.stage == Stage.WIND:
            steps = WindSearch(m, self.wind_states).run()
            if not steps:  # the search ran out of budget: let the greedy rules finish
                return GreedyPolicy().plan(board, rng)
        elif m.three:
            steps = _greedy_batch(m)
        elif m.deals < DEALS:
            play_wanted(m, (0, 0, 0, 0), steps)
            if m.placed < 104:
                steps.append((DEAL,))
        else:
            targets = SplitSearch(self.budget).search(m)
            if run_to_wind(m, targets, steps) < 104:
                steps.append((WIND_STEP,))
        return emit(board, steps)

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
