"""Tests of the solver's lost-proofs and safe moves after the wind (``sunlog/play/bounds.py``).

Each pruning is checked the way docs/solver.md argues it: the pruned search and the unpruned
one give the same verdict on every position, and both agree with a brute force that knows
nothing but the board's own rules. The positions are small explicit ones: the trivial deck
with a chosen set of cards left unplayed, and the wind row named in a chosen order.
"""

from __future__ import annotations

import random

import pytest
from test_solver import TooBig, brute_force, c, play_trivial, random_walk, replay

import sunlog.engine
from sunlog.engine.board import Board, Status
from sunlog.engine.cards import CARDS
from sunlog.engine.moves import Move, MoveKind, Place, Target
from sunlog.play.bounds import clearable, row_blocked
from sunlog.play.search import Limit, Limits, Searcher
from sunlog.play.solver import Verdict, _solve
from sunlog.play.solverstate import DEAL, SUN_FIT, State


def codes(text: str) -> bytes:
    return bytes(c(text))


def suit_code(aces: int, kings: int) -> int:
    """The solver's foundation code of a suit with these pile heights (not the fluid class)."""
    return aces * 14 + kings


def test_a_suit_row_in_order_clears() -> None:
    # Aces pile complete, kings pile down to 5C (K..5, 9 cards): 4C 3C 2C AC from either end.
    assert clearable(codes("4C 3C 2C AC"), suit_code(13, 9), SUN_FIT)
    assert clearable(codes("AC 2C 3C 4C"), suit_code(13, 9), SUN_FIT)
    assert clearable(codes("4C 2C AC 3C"), suit_code(13, 9), SUN_FIT)


def test_a_suit_row_out_of_order_is_blocked() -> None:
    # After 4C the ends are AC and 2C, and the kings pile wants 3C.
    assert not clearable(codes("4C AC 3C 2C"), suit_code(13, 9), SUN_FIT)
    assert not clearable(codes("2C 3C"), suit_code(13, 9), SUN_FIT)


def test_both_piles_of_a_suit_count() -> None:
    # Aces up to 4C, kings down to 7C: 5C and 6C are each wanted twice.
    row = codes("5C 4C 3C 2C AC 7C 8C 9C 10C JC QC KC 6C 6C 5C")
    assert not clearable(codes("5C 4C"), suit_code(4, 7), SUN_FIT)
    assert clearable(row, suit_code(4, 7), SUN_FIT)


def test_a_row_is_blocked_when_one_suit_is() -> None:
    found = bytes((suit_code(13, 13),) * 3 + (suit_code(13, 9),))
    assert row_blocked(codes("4C AC 3C 2C"), found, SUN_FIT)
    assert not row_blocked(codes("4C 2C AC 3C"), found, SUN_FIT)


def test_the_bound_proves_a_row_lost_before_any_search() -> None:
    board = play_trivial("sun-2", 4)
    board.push(Move.wind(c("4C AC 3C 2C")))
    pruned = _solve(board, Limits())
    plain = _solve(board, Limits(), prune=False)
    assert pruned.verdict is plain.verdict is Verdict.LOST
    assert pruned.nodes < plain.nodes


# ------------------------------------------------ pruned against unpruned, on many positions


def small_endgames(variant: str, rng: random.Random, count: int) -> list[Board]:
    """After-wind positions with 5 to 9 cards of one to three suits left, in random order.

    Deals 1-4 of the trivial deck put each suit up on its aces pile and deals 5-8 down on
    its kings pile; leaving the last few rays of some deals unplayed leaves those cards.
    """
    boards: list[Board] = []
    while len(boards) < count:
        plays = [13] * 8
        for k in rng.sample(range(8), rng.randint(1, 3)):
            plays[k] = 13 - rng.randint(1, 4)
        left = sum(13 - p for p in plays)
        if not 5 <= left <= 9:
            continue
        board = play_trivial(variant, plays=tuple(plays))
        cards = [card for cloud in board.clouds for card in cloud]
        cards += [card for ray in board.rays for card in ray]
        rng.shuffle(cards)
        board.push(Move.wind(cards))
        boards.append(board)
    return boards


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_pruned_and_unpruned_searches_agree_after_the_wind(variant: str) -> None:
    """Same verdict with and without the prunings, and the rules' own (in ``sun-3`` nine
    cards and thirteen free rays always win, and the brute force drowns in parking)."""
    rng = random.Random(17)
    sun3 = variant == "sun-3"
    seen = {Verdict.WON: 0, Verdict.LOST: 0}
    saved = checked = 0
    for board in small_endgames(variant, rng, 60):
        pruned = _solve(board, Limits())
        plain = _solve(board, Limits(), prune=False)
        assert pruned.verdict is plain.verdict, board.to_json()
        expected = None if sun3 else rules_verdict(board)
        if expected is not None:
            assert expected is (pruned.verdict is Verdict.WON), board.to_json()
            checked += 1
        if pruned.line is not None:
            assert replay(board, pruned.line).status() is Status.WON
        seen[pruned.verdict] += 1
        saved += plain.nodes > pruned.nodes or root_moves(board, True) < root_moves(board, False)
    assert seen[Verdict.WON] and (seen[Verdict.LOST] or sun3), seen
    assert saved, "the prunings never made a difference: the test tests nothing"
    assert checked >= 20 or sun3, checked


def root_moves(board: Board, prune: bool) -> int:
    """How many moves the search tries from ``board``'s position."""
    searcher = Searcher(board, prune=prune)
    return sum(map(len, searcher.moves(State.from_board(board))))


def rules_verdict(board: Board) -> bool | None:
    """The brute force's answer, or ``None`` when the position is too big for it."""
    try:
        return brute_force(board, limit=20_000)
    except TooBig:
        return None


@pytest.mark.parametrize(("variant", "deal"), [("sun", 3), ("sun-2", 2), ("sun-3", 2)])
def test_pruning_keeps_the_verdict_of_early_winds(variant: str, deal: int) -> None:
    """The wind blown at the first moment it may, after greedy play of a real deal."""
    board = greedy_to_the_wind(Board(variant, deal=deal))
    pruned = _solve(board, Limits(200_000))
    plain = _solve(board, Limits(200_000), prune=False)
    assert pruned.verdict is plain.verdict
    assert pruned.nodes <= plain.nodes


def greedy_to_the_wind(board: Board, blow: bool = True) -> Board:
    """Play every card that goes up from the table, else the first stage action, until the
    wind has blown (with ``blow`` false: until it may blow; cards may still go up then)."""
    board = board.copy()
    while board.wind_row is None and board.status() is Status.PLAYING:
        if not blow and board.is_legal(Move.wind()):
            break
        moves = board.legal_moves()
        up = [m for m in moves if goes_up(m)]
        board.push(up[0] if up else next(m for m in moves if m.card is None))
    return board


def goes_up(move: Move) -> bool:
    """A card from the table to a foundation (not a shift between a suit's piles)."""
    return move.target in UP and move.source not in (Place.ACES, Place.KINGS)


UP = (Target.ACES, Target.KINGS, Target.ACES1, Target.ACES2)


# ----------------------------------------------------- the long lane: deals 1 to 200


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_lost_verdicts_on_deals_1_to_200_hold_without_pruning(variant: str) -> None:
    """Deals 1-200, each played greedily to the moment the wind may blow: that position
    and the one after the wind. Every "lost" the pruned solver proves there is proved again
    by the unpruned search with a generous budget. (From a deal's start the solver proves
    nothing lost: see docs/solver.md.)"""
    lost = 0
    for deal in range(1, DEALS_CHECKED + 1):
        before = greedy_to_the_wind(Board(variant, deal=deal), blow=False)
        after = greedy_to_the_wind(before)
        for board in (before, after):
            pruned = _solve(board, Limits(20_000))
            if pruned.verdict is not Verdict.LOST:
                continue
            plain = _solve(board, Limits(500_000), prune=False)
            assert plain.verdict is Verdict.LOST, (variant, deal, board.to_json())
            lost += 1
    assert lost >= DEALS_CHECKED // 4, lost


DEALS_CHECKED = 200


# ------------------------------------------- independent cards (before and after the wind)


class _Exits(Searcher):
    """A searcher that records the exits of the card-moves-only stretches: the positions
    it searched where a stage action (or the wind) was among the moves tried, or no card
    fits at all."""

    exits: set[bytes]

    def _children(self, s: State, budget: int) -> list[tuple[tuple[int, ...], int]]:
        out = super()._children(s, budget)
        if not self.moves(s)[0] or any(move[0] >= DEAL for move, _ in out):
            self.exits.add(self.key(s))
        return out


def exits(board: Board, level: int | None, reduce: bool) -> tuple[bool, set[bytes], int] | None:
    """Whether the search round ``level`` wins, the exits it met and the positions it
    searched; ``None`` when the round needs more than 30,000 positions."""
    searcher = _Exits(board, Limits(30_000))
    searcher.reduce = reduce  # the other prunings stay: they decide what an exit is
    searcher.exits = set()
    try:
        won = searcher.search(State.from_board(board), level) is not None
    except Limit:
        return None
    return won, searcher.exits, searcher.nodes


@pytest.mark.skipif(
    sunlog.engine.COMPILED,
    reason="records exits by subclassing the solver's Searcher, which a compiled build does "
    "not allow (interpreted classes cannot inherit from compiled ones); the source is the "
    "same, and the pure build runs it",
)
@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_independent_cards_keep_every_exit(variant: str) -> None:
    """docs/solver.md, *Independent cards*: where only card moves to the foundations are
    tried, the search plays the cards of a closed set of suits first. That must leave the
    set of positions where a stage action is taken (or nothing fits) exactly as it was,
    in every bounded round; the unbounded round agrees on the verdict."""
    rng = random.Random(4)
    compared = smaller = 0
    for deal in range(1, 40):
        if compared >= 12:
            break
        walk = random_walk(Board(variant, deal=deal), rng, 400)
        chosen = [b.copy() for b in walk if b.deals == 8 and rng.random() < 0.1][:2]
        for board in chosen:
            for level in (0, 1):
                reduced, plain = exits(board, level, True), exits(board, level, False)
                if reduced is None or plain is None:
                    continue
                assert reduced[0] == plain[0], board.to_json()
                if not plain[0]:
                    assert reduced[1] == plain[1], board.to_json()
                    assert reduced[2] <= plain[2]
                    compared += 1
                    smaller += reduced[2] < plain[2]
    assert compared >= 12, compared
    assert smaller, "the reduction never made a difference: the test tests nothing"


def test_independent_cards_never_hide_the_wind() -> None:
    """Step 2 of the argument: card moves must not empty the rays before a chosen move, or
    the wind (a stage action) becomes possible in between. Here, after gathering ray 12,
    AC lies on ray 13 and AS alone in a cloud, both wanted by their kings piles: playing
    AC first empties the rays, and the wind may then blow with AS still out. Spades alone
    would be the smaller set, but no spade is on a ray, so the clubs' move must be kept."""
    down = [CARDS[s * 13 + r] for s in range(4) for r in range(12, -1, -1)]
    clubs, diamonds, hearts, spades = (down[s * 13 : s * 13 + 13] for s in (3, 2, 1, 0))
    deck = [CARDS[s * 13 + r] for s in range(4) for r in range(13)]  # deals 1-4: A..K
    deck += [*clubs[:11], clubs[12], clubs[11]]  # ray 12 gets AC, ray 13 gets 2C
    deck += diamonds + hearts
    deck += [*spades[:11], spades[12], spades[11]]
    board = Board("sun-2", deck=deck)
    for k in range(8):
        board.push(Move.deal())
        for n in range(1, 14):
            if k in (4, 7) and n == 12:
                continue  # leave AC, then AS, on ray 12
            target = Target.ACES if k < 4 else Target.KINGS
            board.push(Move(MoveKind.CARD, n, board.rays[n - 1][-1], Place.RAY, target=target))
    board.push(Move.gather(12))
    assert [len(r) for r in board.rays] == [0] * 12 + [1] and board.clouds == [[CARDS[0]]]
    searcher = Searcher(board)
    state = State.from_board(board)
    found = searcher.moves(state)[0]
    assert sorted(m[4] for m in found) == [0, 39]  # AS from the cloud, AC from ray 13
    assert 39 in [m[4] for m in searcher._persistent(state, found)]
    after = board.copy()
    after.push(Move.parse("r13:AC>K"))
    assert after.is_legal(Move.wind([CARDS[0]]))  # a position the search must still reach
