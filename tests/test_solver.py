"""Tests of the solver: winning lines replay, verdicts match a brute force, keys are exact.

The brute force here uses nothing but the board's public rules (``legal_moves``, ``push``,
``pop``, ``key``), so it shares no code, no pruning and no abstraction with the solver.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sunlog.engine.board import Board, Stage, Status
from sunlog.engine.cards import CARDS, Card
from sunlog.engine.moves import Move, MoveKind, Place, Target
from sunlog.play.search import Searcher
from sunlog.play.solver import (
    Analysis,
    SolveResult,
    Verdict,
    analyze,
    position_key,
    solve,
    solve_deal,
)
from sunlog.play.solverstate import State

VARIANTS = ("sun", "sun-2", "sun-3")


# ------------------------------------------------------------------ helpers


def c(text: str) -> list[Card]:
    return [Card.parse(w) for w in text.split()]


def up(suit: int) -> list[Card]:
    return [CARDS[suit * 13 + r] for r in range(13)]


def trivial_deck(variant: str) -> list[Card]:
    """Deals 1-4 are the suits A..K, deals 5-8 the suits K..A (A..K again in sun-3)."""
    second = [up(s) if variant == "sun-3" else up(s)[::-1] for s in range(4)]
    return [card for suit in [up(s) for s in range(4)] + second for card in suit]


def play_trivial(variant: str, keep: int = 0, plays: tuple[int, ...] = ()) -> Board:
    """Play the trivial deck, leaving the last ``keep`` cards of deal 8 on their rays (or
    playing rays 1..``plays[k]`` of deal k+1), then gather every ray: the board waits for a
    wind (it has no deal number, so the row is named)."""
    plays = plays or (13,) * 7 + (13 - keep,)
    board = Board(variant, deck=trivial_deck(variant))
    for k in range(8):
        board.push(Move.deal())
        target = Target.KINGS if variant != "sun-3" and k >= 4 else Target.ACES
        for n in range(1, plays[k] + 1):
            board.push(Move(MoveKind.CARD, n, board.rays[n - 1][-1], Place.RAY, target=target))
    for n in range(1, 14):
        if board.rays[n - 1]:
            board.push(Move.gather(n))
    return board


def endgame(variant: str, keep: int, row: str) -> Board:
    board = play_trivial(variant, keep)
    board.push(Move.wind(c(row)))
    return board


def replay(start: Board, line: tuple[Move, ...]) -> Board:
    board = start.copy()
    for move in line:
        assert board.canonical(move) == move, f"{move} is not canonical"
        board.push(move)
    return board


class TooBig(Exception):
    pass


def brute_force(board: Board, limit: int = 20_000) -> bool:
    """Whether a win is reachable, by the board's own rules and nothing else."""
    board = board.copy()
    seen: set[object] = set()

    def reach() -> bool:
        if board.status() is Status.WON:
            return True
        key = board.key()
        if key in seen:
            return False
        seen.add(key)
        if len(seen) > limit:
            raise TooBig
        for move in board.legal_moves():
            board.push(move)
            try:
                if reach():
                    return True
            finally:
                board.pop()
        return False

    return reach()


@cache
def winning_line(variant: str, deal: int) -> tuple[Move, ...]:
    result = solve_deal(deal, variant, max_nodes=200_000)
    assert result.verdict is Verdict.WON and result.line is not None
    return result.line


def endgames(variant: str, deal: int, max_cards: int) -> Iterator[Board]:
    """Positions after a wind blown early: from each position of a winning line where the
    wind is legal, with at most ``max_cards`` cards left, blow it (a different row each)."""
    board = Board(variant, deal=deal)
    for move in winning_line(variant, deal):
        if board.is_legal(Move.wind()) and 104 - board.on_foundations() <= max_cards:
            after = board.copy()
            after.push(Move.wind())
            yield after
        board.push(move)


def random_walk(board: Board, rng: random.Random, steps: int) -> Iterator[Board]:
    """Play at random (card moves more often than stage actions) from a copy of ``board``,
    yielding the position before each move: the same board object, moved on after."""
    board = board.copy()
    for _ in range(steps):
        yield board
        moves = board.legal_moves()
        if not moves:
            return
        cards = [m for m in moves if m.kind is MoveKind.CARD]
        pool = cards if cards and rng.random() < 0.75 else moves
        board.push(rng.choice(pool))


# ------------------------------------------------------------- winning lines


@pytest.mark.parametrize("variant", VARIANTS)
def test_trivial_deck_is_won_before_the_wind(variant: str) -> None:
    board = Board(variant, deck=trivial_deck(variant))
    result = solve(board)
    assert result.verdict is Verdict.WON and result.line is not None
    assert replay(board, result.line).status() is Status.WON
    assert all(m.kind is not MoveKind.WIND for m in result.line)
    assert sum(m.kind is MoveKind.DEAL for m in result.line) == 8


@pytest.mark.parametrize(("variant", "deal"), [("sun", 1), ("sun", 5), ("sun-2", 2), ("sun-3", 1)])
def test_winning_line_replays_on_a_fresh_board(variant: str, deal: int) -> None:
    line = winning_line(variant, deal)
    board = replay(Board(variant, deal=deal), line)
    assert board.status() is Status.WON
    assert board.move_count == len(line)


def test_winning_line_from_the_middle_of_a_game() -> None:
    line = winning_line("sun", 5)
    board = Board("sun", deal=5)
    for move in line[:60]:
        board.push(move)
    result = solve(board, max_nodes=200_000)
    assert result.verdict is Verdict.WON and result.line is not None
    assert replay(board, result.line).status() is Status.WON


def test_sun3_lines_do_not_wander() -> None:
    """Moving a lone card from ray to empty ray chains without end; the greedy rounds leave
    it out, so lines stay the length of a game (this deal once gave 17,848 moves)."""
    line = winning_line("sun-3", 482)
    assert len(line) < 200
    assert replay(Board("sun-3", deal=482), line).status() is Status.WON


def test_sun_lines_use_moves_between_foundations() -> None:
    """The solver treats a suit's splits between its two piles as one; its lines must then
    spell out the shifts (A:...>K, K:...>A), and they replay."""
    shifts = [
        m
        for deal in (1, 5)
        for m in winning_line("sun", deal)
        if m.source in (Place.ACES, Place.KINGS)
    ]
    assert shifts


def test_already_won_board_needs_no_move() -> None:
    board = Board("sun", deck=trivial_deck("sun"))
    board = replay(board, solve(board).line or ())
    result = solve(board)
    assert result.verdict is Verdict.WON and result.line == ()


# ---------------------------------------------------------- after the wind


def test_short_row_that_cannot_be_won_is_proved_lost() -> None:
    # The clubs' kings pile wants 4C 3C 2C AC; after 4C the ends are AC and 2C: stuck.
    board = endgame("sun-2", 4, "4C AC 3C 2C")
    assert board.status() is Status.PLAYING
    result = solve(board)
    assert result.verdict is Verdict.LOST and result.line is None
    assert not brute_force(board)


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_short_row_won_from_both_ends(variant: str) -> None:
    board = endgame(variant, 4, "4C 2C AC 3C")
    result = solve(board)
    assert result.verdict is Verdict.WON and result.line is not None
    assert [str(m) for m in result.line] == ["w:4C>K", "w:3C>K", "w:2C>K", "w:AC>K"]
    assert replay(board, result.line).status() is Status.WON


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_playing_a_fitting_card_at_once_can_lose(variant: str) -> None:
    """Why the solver plays no move "for free" after the wind (docs/solver.md): clubs are
    up to 4C and down to 7C; 5C fits at the left end, but playing it first loses, while
    5C 6C from the right, 6C onto the kings pile, then the left end, wins."""
    board = play_trivial(variant, plays=(13, 13, 13, 4, 13, 13, 13, 7))
    board.push(Move.wind(c("5C 4C 3C 2C AC 7C 8C 9C 10C JC QC KC 6C 6C 5C")))
    assert solve(board).verdict is Verdict.WON and brute_force(board)
    board.push(Move.parse("w.L:5C>A"))  # now 4C and 5C are the ends: neither pile takes one
    assert board.status() is Status.LOST
    assert solve(board).verdict is Verdict.LOST


def test_sun3_digs_with_free_rays() -> None:
    # The second clubs pile wants 10C JC QC KC: after 10C, JC lies between KC and QC.
    board = endgame("sun-3", 4, "10C KC JC QC")
    result = solve(board)
    assert result.verdict is Verdict.WON and result.line is not None
    assert any(m.target is Target.RAY for m in result.line)
    assert replay(board, result.line).status() is Status.WON


def test_sun3_row_deeper_than_the_free_rays_is_lost() -> None:
    """After AC the cards wanted (2C, AH, AD) lie 18 deep from either end, and 13 free
    rays let one dig 13 cards: nothing else fits, so the position is lost."""
    board = Board("sun-3", deck=trivial_deck("sun-3"))
    for k in range(8):
        board.push(Move.deal())
        for n in range(1, 14) if k < 5 else ():
            card = board.rays[n - 1][-1]
            board.push(Move(MoveKind.CARD, n, card, Place.RAY, target=Target.ACES))
    for n in range(1, 14):
        board.push(Move.gather(n))
    hearts, diamonds, clubs = up(1), up(2), up(3)
    row = [
        clubs[0],
        *hearts[:0:-1],
        *diamonds[:6:-1],
        clubs[1],
        hearts[0],
        diamonds[0],
        *diamonds[6:0:-1],
        *clubs[:1:-1],
    ]
    board.push(Move.wind(row))
    assert board.status() is Status.PLAYING
    result = solve(board)
    assert result.verdict is Verdict.LOST
    board.push(Move.parse("w:AC>A"))
    assert board.status() is Status.LOST


@pytest.mark.parametrize(("variant", "deal"), [("sun", 2), ("sun", 4), ("sun-2", 4)])
def test_verdicts_after_the_wind_match_a_brute_force(variant: str, deal: int) -> None:
    """Winds blown early in real deals give rows of up to 10 cards, some winnable and some
    not; walking on from them at random, every verdict must match the brute force."""
    rng = random.Random(deal)
    seen = {Verdict.WON: 0, Verdict.LOST: 0}
    for start in endgames(variant, deal, 10):
        for board in random_walk(start, rng, 6):
            try:
                expected = brute_force(board)
            except TooBig:
                continue
            result = solve(board)
            assert result.verdict is (Verdict.WON if expected else Verdict.LOST), board.to_json()
            seen[result.verdict] += 1
            if result.line is not None:
                assert replay(board, result.line).status() is Status.WON
    assert seen[Verdict.WON] and seen[Verdict.LOST], seen


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_verdicts_before_the_wind_match_a_brute_force(variant: str) -> None:
    """Just before the wind, with the deal's own row to come: whether to play the last few
    cards first changes the row, and the search must weigh every choice as the rules do.
    Positions of a winning line where the wind may blow (winnable), and the first such
    position of random games (which have left too many cards: lost)."""
    deal = 4 if variant == "sun-2" else 2
    positions = []
    board = Board(variant, deal=deal)
    for move in winning_line(variant, deal):
        if board.stage is not Stage.WIND and board.is_legal(Move.wind()):
            positions.append(board.copy())
        board.push(move)
    for seed in range(3):
        for board in random_walk(Board(variant, deal=seed), random.Random(seed), 1000):
            if board.stage is not Stage.WIND and board.is_legal(Move.wind()):
                positions.append(board.copy())
                break
    seen = {Verdict.WON: 0, Verdict.LOST: 0}
    for position in positions:
        try:
            expected = brute_force(position, limit=5_000)
        except TooBig:
            continue
        result = solve(position)
        assert result.verdict is (Verdict.WON if expected else Verdict.LOST)
        seen[result.verdict] += 1
    assert seen[Verdict.WON] >= 3 and seen[Verdict.LOST] >= 3, seen


# ------------------------------------------------- the model against the rules


def _kind_pruned(board: Board, move: Move) -> bool:
    """Moves the solver leaves out on purpose (docs/solver.md, "What is pruned")."""
    if board.status() is Status.LOST:
        return True  # a dead end: nothing there can lead to a win
    if move.kind is MoveKind.OPEN:
        return not board.rays[move.index - 1]  # type: ignore[operator]
    if move.kind is MoveKind.GATHER:
        return board.variant.value != "sun-3" and not board.rays[move.index - 1]  # type: ignore[operator]
    if move.kind is MoveKind.CARD and move.target in (Target.ACES, Target.KINGS):
        # Of two piles that both take the card, the one that leaves the suit's splits
        # mobile is kept; the other may be missing.
        card = move.card
        assert card is not None
        suit, rank = card // 13, card % 13 + 1
        aces, kings = board.foundations[suit], board.foundations[suit + 4]
        if len(aces) == rank - 1 and len(kings) == 13 - rank:
            board.push(move)
            a, k = len(aces), len(kings)
            board.pop()
            return not (a + k == 13 and 1 <= a <= 12)
    return False


def _check_model(board: Board) -> None:
    """The solver's successors of ``board`` against the rules' (by the solver's table key).

    A solver move to a foundation may stand for a few shifts between the suit's piles and
    then the move, so the rules' side gathers the successors of every position reachable
    by shifts alone (which are all one position to the solver).
    """
    searcher = Searcher(board, prune=False)  # prunings: tests/test_bounds.py
    state = State.from_board(board)
    found, actions, parks = searcher.moves(state)
    mine = {searcher.key(searcher.child(state, m)) for m in found + actions + parks}
    own = searcher.key(state)
    theirs: set[bytes] = set()
    shifted, todo = {board.key()}, [board.copy()]
    while todo:
        position = todo.pop()
        for move in position.legal_moves():
            position.push(move)
            key = searcher.key(State.from_board(position))
            theirs.add(key)
            if move.source in (Place.ACES, Place.KINGS) and position.key() not in shifted:
                shifted.add(position.key())
                todo.append(position.copy())
            position.pop()
            if position.key() == board.key() and key not in mine and key != own:
                assert _kind_pruned(position, move), f"{move} is missing at {board.to_json()}"
    assert mine <= theirs, f"moves the rules do not allow at {board.to_json()}"


_WALKS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_WALK = {
    "variant": st.sampled_from(VARIANTS),
    "deal": st.integers(0, 2**64 - 1),
    "seed": st.integers(0, 2**32),
}


@settings(_WALKS, max_examples=6)
@given(**_WALK)
def test_solver_moves_are_the_rules_moves(variant: str, deal: int, seed: int) -> None:
    """A few walks in the quick lane; the hunt below takes ten times as many."""
    solver_moves_are_the_rules_moves(variant, deal, seed)


@pytest.mark.slow
@_WALKS
@given(**_WALK)
def test_solver_moves_are_the_rules_moves_hunt(variant: str, deal: int, seed: int) -> None:
    solver_moves_are_the_rules_moves(variant, deal, seed)


def solver_moves_are_the_rules_moves(variant: str, deal: int, seed: int) -> None:
    """From positions met in random play, in every stage, the solver's successors are the
    board's legal successors, up to the equivalences and prunings the docs list."""
    rng = random.Random(seed)
    chosen = set(rng.sample(range(400), 6))
    last = None
    for i, board in enumerate(random_walk(Board(variant, deal=deal), rng, 400)):
        if i in chosen:
            _check_model(board)
        last = board
    assert last is not None
    _check_model(last)


def test_model_covers_winning_games() -> None:
    for variant, deal in [("sun", 5), ("sun-2", 2), ("sun-3", 1)]:
        board = Board(variant, deal=deal)
        for move in winning_line(variant, deal):
            _check_model(board)
            board.push(move)


@pytest.mark.parametrize("variant", VARIANTS)
def test_gathering_empty_rays(variant: str) -> None:
    """Rays 1 and 2 empty, the rest holding a card: in sun-3 gathering an empty ray is a
    real choice (a card parked there could no longer be gathered); in sun and sun-2 it
    changes nothing, and gathered-up-to-1 and gathered-up-to-2 are one position."""
    board = Board(variant, deck=trivial_deck(variant))
    target = Target.ACES if variant == "sun-3" else Target.KINGS
    for k in range(8):
        board.push(Move.deal())
        for n in range(1, 14 if k < 7 else 3):
            card = board.rays[n - 1][-1]
            board.push(
                Move(MoveKind.CARD, n, card, Place.RAY, target=Target.ACES if k < 4 else target)
            )
    _check_model(board)
    board.push(Move.gather(1))
    _check_model(board)
    key_1 = Searcher(board).key(State.from_board(board))
    board.push(Move.gather(2))
    key_2 = Searcher(board).key(State.from_board(board))
    assert (key_1 == key_2) == (variant != "sun-3")


# ------------------------------------------------------------- position keys


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32))
def test_position_key_is_equal_exactly_when_positions_are(variant: str, seed: int) -> None:
    """Two random games of the same deal meet many positions, some of them equal."""
    walks = []
    for walk_seed in (seed, seed + 1):
        rng = random.Random(walk_seed)
        walk = random_walk(Board(variant, deal=seed % 7), rng, 150)
        walks.append([(position_key(board), board.key()) for board in walk])
    early = walks[0][:30] + walks[1][:30]
    rng = random.Random(seed)
    pairs = [(a, b) for a in early for b in early]
    pairs += [(rng.choice(walks[0]), rng.choice(walks[1])) for _ in range(300)]
    equal = 0
    for (key1, full1), (key2, full2) in pairs:
        assert (key1 == key2) == (full1 == full2)
        equal += key1 == key2
    assert len(pairs) > equal > 0


def test_position_key_ignores_history_but_not_the_position() -> None:
    a, b = Board("sun", deal=20261129), Board("sun", deal=20261129)
    for text in ["deal", "r1:AC>A", "r8:AS>A"]:
        a.push(Move.parse(text))
    for text in ["deal", "r8:AS>A", "r1:AC>A"]:
        b.push(Move.parse(text))
    assert position_key(a) == position_key(b)
    b.pop()
    assert position_key(a) != position_key(b)
    assert position_key(Board("sun", deal=1)) != position_key(Board("sun-3", deal=1))
    assert position_key(Board("sun", deal=1)) != position_key(Board("sun", deal=2))
    assert isinstance(position_key(a), bytes)


def test_search_key_merges_splits_between_foundations() -> None:
    line = winning_line("sun", 5)
    board = Board("sun", deal=5)
    for move in line:
        if move.source in (Place.ACES, Place.KINGS):
            before = Searcher(board).key(State.from_board(board))
            board.push(move)
            after = Searcher(board).key(State.from_board(board))
            assert before == after and position_key(board) != before
        else:
            board.push(move)


# ------------------------------------------------------------ limits and edges


def test_unknown_within_the_limits() -> None:
    result = solve_deal(5, "sun", max_nodes=50)
    assert result.verdict is Verdict.UNKNOWN and result.line is None
    assert result.nodes == 50


def test_unknown_when_the_time_is_up() -> None:
    # A deadline already passed: the search stops at its first look at the clock.
    result = solve(Board("sun-2", deal=3), max_nodes=None, timeout=0.0)
    assert result.verdict is Verdict.UNKNOWN and result.nodes == 1024


def test_already_lost_board() -> None:
    board = endgame("sun-2", 4, "4C AC 3C 2C")
    board.push(Move.parse("w:4C>K"))
    assert board.status() is Status.LOST
    assert solve(board).verdict is Verdict.LOST


@pytest.mark.parametrize("variant", VARIANTS)
def test_without_a_deal_number_the_player_names_a_winning_wind(variant: str) -> None:
    """A Deck tag without a Deal tag leaves the wind row to the player (SPEC 3.5)."""
    deck = list(trivial_deck(variant))
    random.Random(variant).shuffle(deck)
    board = Board(variant, deck=deck)
    result = solve(board, max_nodes=20_000)
    assert result.verdict is Verdict.WON and result.line is not None
    winds = [m for m in result.line if m.kind is MoveKind.WIND]
    assert len(winds) <= 1 and all(m.cards is not None for m in winds)
    assert replay(board, result.line).status() is Status.WON


def test_unknown_deck_cannot_be_solved_before_the_last_deal() -> None:
    board = Board("sun")
    board.push(Move.deal(c("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")))
    with pytest.raises(ValueError, match="deck is not known"):
        solve(board)


def test_result_to_json() -> None:
    result = solve_deal(3, "sun")
    data = result.to_json()
    assert set(data) == {"deal", "variant", "verdict", "nodes", "seconds", "log"}
    assert data["deal"] == 3 and data["variant"] == "sun" and data["verdict"] == "won"
    assert result.line is not None
    assert data["log"] == " ".join(map(str, result.line))
    assert result.to_json(log='[Deal "3"] ...')["log"] == '[Deal "3"] ...'
    unknown = SolveResult(Verdict.UNKNOWN, 7, 0.5, None, deal=9, variant="sun-2").to_json()
    assert unknown["log"] is None and unknown["verdict"] == "unknown"


# ------------------------------------------------------------------- analyze


def test_analyze_a_won_game() -> None:
    line = winning_line("sun", 5)
    analysis = analyze(Board("sun", deal=5), line)
    assert analysis.last_winnable == len(line)
    assert analysis.losing_move is None and analysis.continuation == ()
    assert analysis.certain


def test_analyze_finds_the_move_that_lost() -> None:
    """A winning game of sun deal 2, but the wind blown a few cards early: lost there."""
    line = winning_line("sun", 2)
    board = Board("sun", deal=2)
    k = None
    for i, move in enumerate(line):
        if board.is_legal(Move.wind()):
            after = board.copy()
            after.push(Move.wind())
            if solve(after).verdict is Verdict.LOST:
                k = i
                break
        board.push(move)
    assert k is not None
    played = [*line[:k], Move.wind()]
    board.push(Move.wind())
    rng = random.Random(2)
    while board.legal_moves():  # then play on, at random, as far as it goes
        move = rng.choice(board.legal_moves())
        board.push(move)
        played.append(move)
    analysis = analyze(Board("sun", deal=2), played)
    assert isinstance(analysis, Analysis)
    assert analysis.last_winnable == k and analysis.losing_move == k + 1
    assert analysis.certain and analysis.verdicts[k + 1] is Verdict.LOST
    assert all(v is Verdict.LOST for v in analysis.verdicts[k + 1 :])
    assert analysis.continuation is not None
    position = Board("sun", deal=2)
    for move in played[:k]:
        position.push(move)
    assert replay(position, analysis.continuation).status() is Status.WON
    assert analysis.to_json()["losing_move"] == k + 1


def test_analyze_a_deal_lost_from_the_start() -> None:
    board = endgame("sun-2", 4, "4C AC 3C 2C")
    analysis = analyze(board, [Move.parse("w:4C>K")])
    assert analysis.last_winnable is None and analysis.losing_move is None
    assert analysis.verdicts == (Verdict.LOST, Verdict.LOST)
    assert analysis.certain
