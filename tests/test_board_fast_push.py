"""``Board.push`` on every written form of card moves, against an oracle made of public
behaviour only: ``legal_moves()`` (every legal move once per distinct result) and
``last_played()`` (where each one takes its card from and puts it).

A written form (a bare card, a source without its card, a depth, an end, a wrong card,
any target) means each legal move whose card, source and target it agrees with (SPEC
5.2). ``push`` must play it when those moves all give one position, raise
:class:`AmbiguousMoveError` when they give several, and :class:`IllegalMoveError` when
there is none, leaving the board as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from enginekit import random_playout

from sunlog.engine.board import RAYS, Board
from sunlog.engine.cards import CARDS, Card
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.played import AcesSpot, CardMoved, CloudSpot, KingsSpot, RaySpot, WindSpot
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


def effects(board: Board) -> list[tuple[Move, CardMoved, tuple[object, ...]]]:
    """Each legal card move here with what it does and the position it leaves."""
    found = []
    for move in board.legal_moves():
        if move.kind is not MoveKind.CARD:
            continue
        board.push(move)
        played = board.last_played()
        key = board.key()
        board.pop()
        assert isinstance(played, CardMoved)
        found.append((move, played, key))
    return found


def _source_agrees(board: Board, form: Move, played: CardMoved) -> bool:
    source = played.source
    if form.source is None:
        return True
    if form.source is Place.RAY:
        if not isinstance(source, RaySpot) or form.index != source.ray:
            return False
        ray = board.rays[source.ray - 1]
        if form.depth is not None:  # any copy of the run the listed move takes
            assert source.depth is not None
            low, high = sorted((form.depth, source.depth))
            if form.depth > 1 and source.ray != board.open_ray:
                return False  # below the outer card: only the open ray's cards
            return (
                low >= 1
                and high <= len(ray)
                and all(c == played.card for c in ray[len(ray) - high :][: high - low + 1])
            )
        if form.card is None:  # the outer card, or any card of the open ray
            return source.depth == 1 or source.ray == board.open_ray
        # the outermost copy of the card
        return source.depth == 1 + ray[::-1].index(played.card)
    if form.source is Place.CLOUD:
        if not isinstance(source, CloudSpot) or form.index != source.cloud:
            return False
        return _end_agrees(form.end, source.end, board.clouds[source.cloud - 1])
    if form.source is Place.WIND:
        row = board.wind_row or []
        return isinstance(source, WindSpot) and _end_agrees(form.end, source.end, row)
    if form.source is Place.ACES:
        return isinstance(source, AcesSpot)
    return isinstance(source, KingsSpot)


def _end_agrees(written: End | None, end: End, row: list[Card]) -> bool:
    """Either end, when none is written or the row holds one card only (both ends give
    the same result, and legal_moves lists the left one)."""
    return written is None or written is end or len(set(row)) == 1


def _target_agrees(board: Board, form: Move, played: CardMoved) -> bool:
    target = played.target
    sun3 = board.variant.value == "sun-3"
    if form.target is Target.RAY:
        return isinstance(target, RaySpot) and target.ray == form.target_ray
    if form.target is Target.KINGS:
        return isinstance(target, KingsSpot)
    if not isinstance(target, AcesSpot):
        return False
    if form.target is Target.ACES1 or form.target is Target.ACES2:
        return sun3 and target.pile == (1 if form.target is Target.ACES1 else 2)
    if not sun3:
        return True
    # sun-3's A: the first of the two aces piles that takes the card
    first = board.aces_pile(played.card // 13, 1)
    takes_first = len(first) == played.card % 13
    return target.pile == (1 if takes_first else 2)


def meanings(board: Board, form: Move, known: list[tuple[Move, CardMoved, tuple[object, ...]]]):
    """The positions of the legal moves ``form`` can mean (the oracle)."""
    return {
        key
        for _, played, key in known
        if (form.card is None or form.card == played.card)
        and _source_agrees(board, form, played)
        and _target_agrees(board, form, played)
    }


def check_forms(board: Board, moves: Iterator[Move]) -> dict[str, int]:
    """push agrees with the oracle on each form, and leaves the board as it was when it
    refuses one. Returns how many forms were played, ambiguous and illegal."""
    seen = {"played": 0, "ambiguous": 0, "illegal": 0}
    known = effects(board)
    before, count = board.key(), board.move_count
    for form in moves:
        expected = meanings(board, form, known)
        try:
            board.push(form)
        except AmbiguousMoveError as exc:
            assert len(expected) > 1, (form, exc)
            seen["ambiguous"] += 1
        except IllegalMoveError as exc:
            assert not expected, (form, exc)
            seen["illegal"] += 1
        else:
            assert expected == {board.key()}, form
            assert board.is_legal(form) or len(expected) == 1
            board.pop()
            seen["played"] += 1
        assert board.key() == before and board.move_count == count, form
    return seen


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
@pytest.mark.parametrize("seed", range(2))
def test_push_plays_a_form_exactly_when_its_legal_meanings_give_one_position(
    variant: str, seed: int
) -> None:
    rng = random.Random(seed)
    board = Board(variant, deal=rng.randrange(2**64))
    total = {"played": 0, "ambiguous": 0, "illegal": 0}
    for step, _ in enumerate(random_playout(board, rng, max_moves=400, stage_weight=0.2)):
        if step % 10:
            continue
        sample = list(forms(board, rng))
        sample = rng.sample(sample, min(len(sample), 150)) + list(legal_forms(board))
        for name, count in check_forms(board, iter(sample)).items():
            total[name] += count
    assert total["played"] > 0 and total["illegal"] > 0


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_every_canonical_card_move_is_played(variant: str) -> None:
    """What a writer emits is always legal, and lands where last_played says."""
    rng = random.Random(5)
    board = Board(variant, deal=20261201)
    for _ in random_playout(board, rng, max_moves=300, stage_weight=0.2):
        for move in board.legal_moves():
            if move.kind is not MoveKind.CARD:
                continue
            board.push(move)
            played = board.last_played()
            assert isinstance(played, CardMoved) and played.canonical == move
            board.pop()


def bare_cards() -> Iterator[Move]:
    """Every card, bare, onto every target."""
    return (
        Move(MoveKind.CARD, None, card, None, None, None, target, ray)
        for card in CARDS
        for target, ray in TARGETS
    )


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_rows_named_without_a_card_and_bare_cards_follow_the_oracle(variant: str) -> None:
    """``c2>A``, ``w>K`` and ``QD>K`` through whole games: played when their legal
    meanings give one position, ambiguous when several, illegal when none."""
    seen = {"played": 0, "ambiguous": 0, "illegal": 0}
    for seed in range(3):
        deal = 4100 + seed
        board = Board(variant, deal=deal)
        for step, played in enumerate(play(deal, variant, "greedy").move_stack):
            board.push(played)
            rows = [(Place.CLOUD, k) for k in range(1, len(board.clouds) + 1)]
            rows += [(Place.WIND, None)] if board.wind_row else []
            moves = [
                Move(MoveKind.CARD, k, None, place, None, None, target, ray)
                for place, k in rows
                for target, ray in TARGETS
            ]
            if step % 7 == 0:
                moves += bare_cards()
            for name, count in check_forms(board, iter(moves)).items():
                seen[name] += count
    assert seen["played"] > 0 and seen["illegal"] > 0
