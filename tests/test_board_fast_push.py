"""The fast path of ``Board.push`` against its general path, on every form of every move.

``push`` first tries ``try_push``, which finds a card's copies straight from the piles
a move names and plays it when exactly one reading is legal; anything else goes the
general way (``_resolve_card``), which reads every playable card, checks that all legal
readings give the same position (SPEC 5.2) and explains faults. Here, at positions of
random games, every written form of card moves (bare cards, sources without cards,
depths, ends, wrong cards, every target) goes both ways: the fast path may only ever
play a move the general path accepts, with the same resulting position.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from enginekit import random_playout

from sunlog.engine.board import RAYS, Board, Stage
from sunlog.engine.cards import CARDS, Card
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.play.policies import play

TARGETS = [(Target.ACES, None), (Target.ACES1, None), (Target.ACES2, None)]
TARGETS += [(Target.KINGS, None), *((Target.RAY, n) for n in (1, 2, 7, 13, 14))]


def forms(board: Board, rng: random.Random) -> Iterator[Move]:
    """Card moves written every way at this position: right, wrong and out of range."""
    cards: set[Card] = set()
    for pile in (*board.rays, *board.clouds, board.wind_row or [], *board.foundations):
        cards.update(pile[-3:])
        cards.update(pile[:1])
    cards.add(rng.choice(CARDS))
    sources: list[tuple[Place | None, int | None, int | None, End | None]] = [
        (None, None, None, None)
    ]
    for n in range(0, RAYS + 2):
        sources.append((Place.RAY, n, None, None))
        for depth in (1, 2, 3, 0):
            sources.append((Place.RAY, n, depth, None))
    for k in range(0, len(board.clouds) + 2):
        for end in (None, End.LEFT, End.RIGHT):
            sources.append((Place.CLOUD, k, None, end))
    for end in (None, End.LEFT, End.RIGHT):
        sources.append((Place.WIND, None, None, end))
    sources += [(Place.ACES, None, None, None), (Place.KINGS, None, None, None)]
    for target, ray in TARGETS:
        for source, index, depth, end in sources:
            for card in (None, *cards):
                if source is None and card is None:
                    continue
                yield Move(MoveKind.CARD, index, card, source, depth, end, target, ray)


def legal_forms(board: Board) -> Iterator[Move]:
    """The forms of each legal card move: as the writer writes it, the bare card, the
    source alone, with a depth or an end, and onto every other target."""
    for move in board.legal_moves():
        if move.kind is not MoveKind.CARD:
            continue
        yield move
        yield move._replace(source=None, index=None, depth=None, end=None)
        yield move._replace(card=None)
        if move.source is Place.RAY and move.index is not None:
            ray = board.rays[move.index - 1]
            for depth in range(1, len(ray) + 1):
                yield move._replace(depth=depth)
                yield move._replace(depth=depth, card=None)
        if move.source in (Place.CLOUD, Place.WIND):
            for end in (End.LEFT, End.RIGHT, None):
                yield move._replace(end=end)
                yield move._replace(end=end, card=None)
        for target, ray_number in TARGETS:
            yield move._replace(target=target, target_ray=ray_number)


def general(board: Board, move: Move) -> object:
    """The position the general path reaches with ``move`` (undone after), or its error."""
    try:
        reading, _, dst = board._resolve_card(move)
    except ValueError as exc:
        return type(exc)
    board._apply_card(reading, dst)
    key = board.key()
    _, src, pos, pile = board._undo.pop()
    src.insert(pos, pile.pop())
    return key


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
@pytest.mark.parametrize("seed", range(2))
def test_the_fast_path_plays_only_what_the_general_path_plays_the_same_way(
    variant: str, seed: int
) -> None:
    rng = random.Random(seed)
    board = Board(variant, deal=rng.randrange(2**64))
    fast = slow = 0
    for step, _ in enumerate(random_playout(board, rng, max_moves=400, stage_weight=0.2)):
        if step % 10:
            continue
        before = board.key()
        sample = list(forms(board, rng))
        sample = rng.sample(sample, min(len(sample), 150)) + list(legal_forms(board))
        for move in sample:
            expected = general(board, move)
            assert board.key() == before
            if board.try_push(move):
                fast += 1
                assert board.key() == expected, move
                board.pop()
                assert board.key() == before
            elif isinstance(expected, tuple):
                slow += 1  # left to the general path: several readings, or the open ray
    assert fast > 0
    assert fast > 3 * slow  # nearly every legal form goes the fast way


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_every_canonical_card_move_takes_the_fast_path(variant: str) -> None:
    """What a writer emits (and what check reads most) is never left to the general path,
    except a row whose cards are all the same, where either end gives the same result."""
    rng = random.Random(5)
    board = Board(variant, deal=20261201)
    for _ in random_playout(board, rng, max_moves=300, stage_weight=0.2):
        for move in board.legal_moves():
            if move.kind is not MoveKind.CARD:
                continue
            if board.try_push(move):
                board.pop()
                continue
            assert move.source in (Place.CLOUD, Place.WIND), move


def legal_readings(board: Board, move: Move) -> int:
    """How many readings of ``move`` the general path finds legal (0 when none is)."""
    try:
        readings = board._readings(move)
    except ValueError:
        return 0
    legal = 0
    for reading in readings:
        try:
            board._destination(reading, move)
        except ValueError:
            continue
        legal += 1
    return legal


def check_one_reading(board: Board, moves: Iterator[Move], seen: dict[str, int]) -> None:
    """The fast path plays each move exactly when the general path finds one legal
    reading, with the same position, and leaves the board as it was otherwise. Counts
    each case in ``seen``."""
    before = board.key()
    for move in moves:
        legal = legal_readings(board, move)
        expected = general(board, move)
        if board.try_push(move):
            assert legal == 1, move
            assert board.key() == expected, move
            board.pop()
            assert board.key() == before
            seen["one"] += 1
        else:
            assert legal != 1, move
            assert board.key() == before
            seen["none" if legal == 0 else "several"] += 1


def check_bare_cards(board: Board, seen: dict[str, int]) -> None:
    """Every card, bare, onto every target, as :func:`check_one_reading` checks it."""
    moves = (
        Move(MoveKind.CARD, None, card, None, None, None, target, ray)
        for card in CARDS
        for target, ray in TARGETS
    )
    check_one_reading(board, moves, seen)


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_a_row_named_without_a_card_takes_the_fast_path_when_one_end_goes_there(
    variant: str,
) -> None:
    """``c2>A``, ``w>K``: the fast path plays the end whose card goes there when only one
    does, and leaves the rest to the general path (neither: the error; both: different
    positions, or one, which the general path decides)."""
    seen = {"one": 0, "none": 0, "several": 0}
    for seed in range(3):
        deal = 4100 + seed
        board = Board(variant, deal=deal)
        for played in play(deal, variant, "greedy").move_stack:
            board.push(played)
            rows = [(Place.CLOUD, k) for k in range(1, len(board.clouds) + 1)]
            rows += [(Place.WIND, None)] if board.wind_row else []
            moves = (
                Move(MoveKind.CARD, k, None, place, None, None, target, ray)
                for place, k in rows
                for target, ray in TARGETS
            )
            check_one_reading(board, moves, seen)
    assert seen["one"] > 10 and seen["none"] > 10, seen


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
@pytest.mark.parametrize("seed", range(2))
def test_a_bare_card_takes_the_fast_path_exactly_when_one_reading_is_legal(
    variant: str, seed: int
) -> None:
    """Every card, bare, onto every target, in every stage: the fast path plays it exactly
    when the general path finds one legal reading (with the same position), and leaves it
    to the general path when there is none (the error) or several (same result, or the
    ambiguity error, which the general path decides)."""
    deal = 20261202 + seed
    board = Board(variant, deal=deal)
    seen = {"one": 0, "none": 0, "several": 0}
    stages = set()
    for step, played in enumerate(play(deal, variant, "greedy").move_stack):
        board.push(played)
        if step % 3 and board.stage in (Stage.SUNRISE, Stage.SUNSET):  # the others are short
            continue
        stages.add(board.stage)
        check_bare_cards(board, seen)
    wanted = {Stage.SUNRISE, Stage.SUNSET}
    wanted |= set() if variant == "sun-2" else {Stage.SUN_PLAYS}  # sun-2 opens no ray
    wanted |= set() if board.is_won() else {Stage.WIND}  # a game may be won before it
    assert stages >= wanted, stages
    assert all(seen.values()), seen


def test_a_card_parked_before_the_first_gather_is_found_by_the_bare_search() -> None:
    """Until the first gather, the bare card's search looks only at the rays a card's two
    copies were dealt to; a card sun-3 has put onto an empty ray lies elsewhere, so from
    then on the search looks at every ray. Random games of sun-3 that park cards whenever
    they can, checked at every position of stages 1 and 2 (both copies playable, one
    parked, is the case a narrow search would get wrong)."""
    seen = {"one": 0, "none": 0, "several": 0}
    parked = 0
    for seed in range(3):
        rng = random.Random(seed)
        board = Board("sun-3", deal=777 + seed)
        while board.stage in (Stage.SUNRISE, Stage.SUN_PLAYS) and len(board.move_stack) < 150:
            moves = board.legal_moves()
            parks = [m for m in moves if m.target is Target.RAY]
            cards = [m for m in moves if m.kind is MoveKind.CARD]
            if parks and rng.random() < 0.5:
                move = rng.choice(parks)
                parked += 1
            else:
                move = rng.choice(cards if cards and rng.random() < 0.8 else moves)
            board.push(move)
            check_bare_cards(board, seen)
    assert parked > 5 and seen["several"] > 0, (parked, seen)
