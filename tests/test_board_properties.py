"""Properties of the engine over random deals and random legal playouts (hypothesis).

Each example plays a random game (uniform among card moves, stage actions now and then)
and checks, along the way: the 104 cards are all somewhere, two of each; every foundation
pile is a valid sequence; ``legal_moves()`` are all accepted, lead to distinct positions,
and are exactly the positions any fully written move can reach; push then pop restores the
position exactly; ``status()`` agrees with a brute-force search after the wind.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from enginekit import card_census, random_playout, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sunlog.engine.board import RAYS, Board, Stage, Status, Variant
from sunlog.engine.cards import CARDS
from sunlog.engine.deal import MAX_DEAL
from sunlog.engine.errors import AmbiguousMoveError
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.state import STOCK

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
VARIANTS = st.sampled_from(["sun", "sun-2", "sun-3"])
DEALS = st.integers(min_value=0, max_value=MAX_DEAL - 1)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FOUNDATION_TARGETS = (Target.ACES, Target.ACES1, Target.ACES2, Target.KINGS)


# ------------------------------------------------------------------ checks


def check_cards(board: Board) -> None:
    """Two of each card, 104 in all, wherever they lie."""
    census = card_census(board)
    assert sum(census.values()) == 104
    assert all(census[c] == 2 for c in CARDS)


def check_piles(board: Board) -> None:
    """Aces piles go A up by suit, kings piles K down by suit, at most 13 cards each."""
    two_piles = board.variant is Variant.SUN3
    for i, pile in enumerate(board.foundations):
        suit = i % 4
        if not pile:
            continue
        assert len(pile) <= 13
        assert all(c.suit == suit for c in pile)
        ranks = [c.rank for c in pile]
        if i < 4 or two_piles:
            assert ranks == list(range(1, len(pile) + 1))
        else:
            assert ranks == list(range(13, 13 - len(pile), -1))


def every_written_move(board: Board) -> Iterator[Move]:
    """Every card move with its source fully written (each position, each end, each target),
    and every bare stage action: the moves a log could hold here, short forms aside."""
    sources: list[tuple[Place, int | None, int | None, End | None, object]] = []
    for n, ray in enumerate(board.rays, 1):
        for depth in range(1, len(ray) + 1):
            sources.append((Place.RAY, n, depth, None, ray[-depth]))
    for k, cloud in enumerate(board.clouds, 1):
        if cloud:
            sources.append((Place.CLOUD, k, None, End.LEFT, cloud[0]))
            sources.append((Place.CLOUD, k, None, End.RIGHT, cloud[-1]))
    if board.wind_row:
        sources.append((Place.WIND, None, None, End.LEFT, board.wind_row[0]))
        sources.append((Place.WIND, None, None, End.RIGHT, board.wind_row[-1]))
    for i, pile in enumerate(board.foundations):
        if pile:
            sources.append((Place.ACES if i < 4 else Place.KINGS, None, None, None, pile[-1]))
    targets = [(t, None) for t in FOUNDATION_TARGETS] + [(Target.RAY, n) for n in range(1, 14)]
    for place, index, depth, end, card in sources:
        for target, ray in targets:
            yield Move(MoveKind.CARD, index, card, place, depth, end, target, ray)  # type: ignore[arg-type]
    yield Move.deal()
    yield Move.wind()
    for n in range(0, RAYS + 2):
        yield Move.open(n)
        yield Move.gather(n)


def check_legal_moves(board: Board) -> None:
    """Listed moves are accepted, canonical, distinct in result, and push/pop restores."""
    before = snapshot(board)
    listed: dict[object, Move] = {}
    for move in board.legal_moves():
        assert board.is_legal(move)
        assert Move.parse(str(move)) == move
        assert board.canonical(move) == move
        board.push(move)
        key = board.key()
        check_cards(board)
        board.pop()
        assert snapshot(board) == before
        assert key not in listed, f"{move} and {listed.get(key)} give the same position"
        listed[key] = move
    reached: dict[object, Move] = {}
    for move in every_written_move(board):
        if not board.is_legal(move):
            continue
        board.push(move)
        reached.setdefault(board.key(), move)
        board.pop()
    assert snapshot(board) == before
    missing = [str(m) for k, m in reached.items() if k not in listed]
    assert not missing, f"legal but not listed: {missing}"
    assert set(listed) == set(reached)


def _short_forms(board: Board) -> Iterator[Move]:
    """Every fully written card move, and the same without its position (``.D``, ``.L``)."""
    for move in every_written_move(board):
        if move.kind is MoveKind.CARD:
            yield move
            if move.depth is not None or move.end is not None:
                yield move._replace(depth=None, end=None)


def _outcome(board: Board, play: object, before: tuple[object, ...]) -> object:
    """The position a way of playing reaches, or the kind of error it raises; either way
    the board is back at ``before`` (its snapshot) afterwards."""
    try:
        play()  # type: ignore[operator]
    except ValueError as exc:
        assert snapshot(board) == before
        return type(exc)
    key = board.key()
    board.pop()
    assert snapshot(board) == before
    return key


def check_short_forms(board: Board) -> None:
    """A move written without its position (``.D``, ``.L``) plays what the fully written
    move plays, unless another reading gives another position (then it is ambiguous);
    and a refused or ambiguous move leaves the board as it was."""
    before = snapshot(board)  # each outcome checks that the board comes back to it
    for move in every_written_move(board):
        if move.kind is not MoveKind.CARD or (move.depth is None and move.end is None):
            continue
        short = move._replace(depth=None, end=None)
        full = _outcome(board, lambda m=move: board.push(m), before)
        brief = _outcome(board, lambda m=short: board.push(m), before)
        if not isinstance(full, type):  # the full form is legal: a position
            assert brief in (full, AmbiguousMoveError), (move, short)


def check_index(board: Board) -> None:
    """The index of where each card's two copies lie agrees with the piles."""
    counts: dict[tuple[int, int], int] = {}
    for card in CARDS:
        for pile in board.copies(card):
            if pile != STOCK:
                counts[card, pile] = counts.get((card, pile), 0) + 1
    for (card, pile), count in counts.items():
        assert board.pile(pile).count(card) == count, (card, pile)
    assert sum(counts.values()) == board.deals * RAYS  # every card dealt, and no other


# ------------------------------------------------------------ status oracle


def is_progress(move: Move) -> bool:
    """A move putting a card that is off the foundations onto one."""
    return (
        move.kind is MoveKind.CARD
        and move.source not in (Place.ACES, Place.KINGS)
        and move.target in FOUNDATION_TARGETS
    )


def can_progress(board: Board) -> bool:
    """Brute force: can any sequence of legal moves put another card onto a foundation?

    In sun and sun-2 the only other moves after the wind shift cards between one suit's
    two piles, so each suit is searched alone. In sun-3 the only other moves park cards;
    a state is the wind row and the set of parked cards, whatever rays they are on.
    """
    if any(is_progress(m) for m in board.legal_moves()):
        return True
    if board.variant is Variant.SUN3:
        return _search(board, lambda m: m.target is Target.RAY, _parked_key, set())
    for suit in range(4):

        def shifts(m: Move, suit: int = suit) -> bool:
            return (
                m.source in (Place.ACES, Place.KINGS)
                and m.card is not None
                and (m.card.suit == suit)
            )

        def suit_key(b: Board, suit: int = suit) -> object:
            return (tuple(b.foundations[suit]), tuple(b.foundations[suit + 4]))

        if _search(board, shifts, suit_key, set()):
            return True
    return False


def _parked_key(board: Board) -> object:
    return (tuple(board.wind_row or ()), tuple(sorted(c for r in board.rays for c in r)))


def _search(board: Board, allowed, key, seen: set) -> bool:  # type: ignore[no-untyped-def]
    k = key(board)
    if k in seen:
        return False
    seen.add(k)
    moves = board.legal_moves()
    if any(is_progress(m) for m in moves):
        return True
    for move in moves:
        if allowed(move):
            board.push(move)
            try:
                if _search(board, allowed, key, seen):
                    return True
            finally:
                board.pop()
    return False


def check_status(board: Board) -> None:
    status = board.status()
    if board.on_foundations() == 104:
        assert status is Status.WON
    elif board.stage is not Stage.WIND:
        assert status is Status.PLAYING
    else:
        expected = Status.PLAYING if can_progress(board) else Status.LOST
        assert status is expected, f"status {status.value}, brute force {expected.value}"


# --------------------------------------------------------------- properties


@settings(SETTINGS, max_examples=4)
@given(variant=VARIANTS, deal=DEALS, seed=SEEDS)
def test_random_playouts_keep_every_invariant(variant: str, deal: int, seed: int) -> None:
    """A few playouts in the quick lane; the hunt below plays ten times as many."""
    playout_keeps_every_invariant(variant, deal, seed)


@pytest.mark.slow
@SETTINGS
@given(variant=VARIANTS, deal=DEALS, seed=SEEDS)
def test_random_playouts_keep_every_invariant_hunt(variant: str, deal: int, seed: int) -> None:
    playout_keeps_every_invariant(variant, deal, seed)


def playout_keeps_every_invariant(variant: str, deal: int, seed: int) -> None:
    """Play at random, checking cards, piles, moves and status on the way, then undo all."""
    board = Board(variant, deal=deal)
    rng = random.Random(seed)
    history = [snapshot(board)]
    checked = 0
    check_legal_moves(board)
    for _ in random_playout(board, rng, max_moves=400, stage_weight=0.15):
        check_cards(board)
        check_index(board)
        check_piles(board)
        history.append(snapshot(board))
        if rng.random() < 0.04 and checked < 4:
            checked += 1
            check_legal_moves(board)
            check_short_forms(board)
        if board.stage is Stage.WIND and rng.random() < 0.2:
            check_status(board)
    check_legal_moves(board)
    check_status(board)
    while board.move_stack:
        history.pop()
        board.pop()
        assert snapshot(board) == history[-1]
        check_index(board)


@SETTINGS
@given(variant=VARIANTS, deal=DEALS, seed=SEEDS)
def test_games_reach_the_wind_and_status_matches_brute_force(
    variant: str, deal: int, seed: int
) -> None:
    # stage actions now and then (parking and shifting could go on for ever): games end
    board = Board(variant, deal=deal)
    rng = random.Random(seed)
    for _ in random_playout(board, rng, max_moves=3000, stage_weight=0.1):
        if board.stage is Stage.WIND and board.status() is Status.LOST:
            break
    assert board.stage is Stage.WIND or board.status() is Status.WON
    check_status(board)
    check_legal_moves(board)


@SETTINGS
@given(variant=VARIANTS, deal=DEALS, seed=SEEDS)
def test_a_physical_game_naming_its_cards_replays_the_same_positions(
    variant: str, deal: int, seed: int
) -> None:
    known = Board(variant, deal=deal)
    physical = Board(variant)
    rng = random.Random(seed)
    for move in random_playout(known, rng, max_moves=300, stage_weight=0.2):
        if move.kind is MoveKind.DEAL:
            named = Move.deal([ray[-1] for ray in known.rays])
        elif move.kind is MoveKind.WIND:
            named = Move.wind(known.wind_row)
        else:
            named = move
        physical.push(named)
        assert physical.rays == known.rays
        assert physical.foundations == known.foundations
        assert physical.clouds == known.clouds and physical.wind_row == known.wind_row
        assert physical.status() is known.status()
        expected_stock = None if known.deals < 8 else []
        assert physical.stock == expected_stock


@SETTINGS
@given(variant=VARIANTS, deal=DEALS, seed=SEEDS)
def test_copy_is_independent_and_can_be_popped(variant: str, deal: int, seed: int) -> None:
    board = Board(variant, deal=deal)
    rng = random.Random(seed)
    for _ in random_playout(board, rng, max_moves=rng.randrange(1, 250)):
        pass
    before = snapshot(board)
    twin = board.copy()
    assert snapshot(twin) == before
    while twin.move_stack:
        twin.pop()
    assert snapshot(board) == before
    assert twin.key() == Board(variant, deal=deal).key()


def test_copy_has_every_attribute_of_the_board() -> None:
    """``copy`` names each attribute (a compiled Board has no ``__dict__`` to copy): one
    left out is missing on the copy, whichever build runs."""
    board = Board("sun-3", deal=7)
    for _ in random_playout(board, random.Random(7), max_moves=120):
        pass
    twin = board.copy()
    names = [name for name in dir(board) if not name.startswith("__")]
    values = [name for name in names if not callable(getattr(board, name))]
    assert {"variant", "deal_number", "_deck", "_undo", "_rules"} <= set(values)
    for name in values:
        assert getattr(twin, name) == getattr(board, name), name
