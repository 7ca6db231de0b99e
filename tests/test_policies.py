"""The policies: legal moves only, games that end, the preferences they document."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sunlog import Board, Card, Move, MoveKind, Place, Stage, Status
from sunlog.engine.cards import DECK_ORDER, Rank
from sunlog.engine.deal import deal_deck
from sunlog.play.policies import (
    DEFAULT_POLICY,
    MAX_MOVES,
    POLICIES,
    GreedyPolicy,
    LookaheadPolicy,
    PatientPolicy,
    RandomPolicy,
    game_rng,
    get_policy,
    play,
)

VARIANTS = ("sun", "sun-2", "sun-3")
NAMES = ("random", "greedy", "patient", "lookahead")


def checked_game(board: Board, name: str, seed: int = 0) -> list[list[Move]]:
    """Play ``board`` to its end with policy ``name``, checking that every planned move is
    one of the legal moves where it is played; returns the plans."""
    policy = get_policy(name)
    rng = game_rng(name, board.variant, seed)
    plans = []
    while board.status() is Status.PLAYING and board.move_count < MAX_MOVES:
        plan = policy.plan(board, rng)
        if not plan:
            break
        for move in plan:
            assert move in board.legal_moves(), f"{name} planned {move} at move {board.move_count}"
            board.push(move)
        plans.append(plan)
    return plans


def replay(board: Board) -> list[Board]:
    """The positions before each move of ``board``'s game (a fresh board per position)."""
    fresh = Board(board.variant, deal=board.deal_number, deck=board.deck)
    positions = []
    for move in board.move_stack:
        positions.append(fresh.copy())
        fresh.push(move)
    return positions


def is_shift(move: Move) -> bool:
    return move.source in (Place.ACES, Place.KINGS)


FIRST_SPADES = ("AS", "KS", "2S", "QS", "3S", "JS", "4S", "10S", "5S", "9S", "6S", "8S", "7S")


def deck_with_meeting_spades() -> list[Card]:
    """A deck whose first deal is one spade of each rank (A K 2 Q 3 J 4 10 5 9 6 8 7), so the
    spade piles meet at 7/8, and whose second deal starts with the other 3S."""
    first = [Card.parse(text) for text in FIRST_SPADES]
    rest = list(DECK_ORDER)
    for card in [*first, Card.parse("3S")]:
        rest.remove(card)
    return [*first, Card.parse("3S"), *rest]


def moves_until_deal(board: Board, name: str, deals: int) -> list[str]:
    policy, rng = get_policy(name), game_rng(name, board.variant, 0)
    played = []
    while board.deals < deals:
        for move in policy.plan(board, rng):
            board.push(move)
            played.append(str(move))
    return played


# ------------------------------------------------------------------------------- registry


def test_registry_names_every_policy_and_the_default_is_the_lookahead() -> None:
    assert list(POLICIES) == ["random", "greedy", "patient", "lookahead"]
    assert DEFAULT_POLICY == "lookahead"
    for name, policy in POLICIES.items():
        assert policy.name == name
        assert policy.description
    assert isinstance(get_policy("Greedy "), GreedyPolicy)
    assert isinstance(get_policy("random"), RandomPolicy)
    assert isinstance(get_policy("patient"), PatientPolicy)
    assert isinstance(get_policy(DEFAULT_POLICY), LookaheadPolicy)


def test_get_policy_passes_a_policy_object_through() -> None:
    custom = LookaheadPolicy(budget=10)
    assert get_policy(custom) is custom


def test_get_policy_rejects_an_unknown_name_and_lists_the_known_ones() -> None:
    with pytest.raises(
        ValueError, match=r"unknown policy 'best'.*random, greedy, patient, lookahead"
    ):
        get_policy("best")


# --------------------------------------------------------------------- legal, and ending


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", NAMES)
def test_policy_plays_only_legal_moves_and_finishes_its_games(variant: str, name: str) -> None:
    for deal in (1, 2, 3):
        board = Board(variant, deal=deal)
        checked_game(board, name, deal)
        assert board.status() in (Status.WON, Status.LOST), (variant, name, deal)


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    deal=st.integers(0, 2**64 - 1),
    prefix=st.integers(0, 80),
    name=st.sampled_from(("greedy", "lookahead")),
)
def test_policy_takes_over_any_position_and_finishes(
    variant: str, deal: int, prefix: int, name: str
) -> None:
    board = Board(variant, deal=deal)
    rng = random.Random(deal)
    random_policy = get_policy("random")
    while board.move_count < prefix and board.status() is Status.PLAYING:
        for move in random_policy.plan(board, rng):
            board.push(move)
    checked_game(board, name, deal)
    assert board.status() in (Status.WON, Status.LOST)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", NAMES)
def test_no_move_between_foundations_is_undone_by_the_next(variant: str, name: str) -> None:
    for deal in (4, 5):
        stack = play(deal, variant, name).move_stack
        for before, after in itertools.pairwise(stack):
            if is_shift(before) and is_shift(after):
                assert not (before.card == after.card and before.source != after.source)


def test_play_returns_the_board_with_its_game() -> None:
    board = play(7, "sun", "greedy")
    again = Board("sun", deal=7)
    for move in board.move_stack:
        again.push(move)
    assert again.key() == board.key()
    assert board.status() is again.status()


def test_play_continues_a_given_board_and_ignores_the_variant_argument() -> None:
    board = Board("sun-3", deal=9)
    board.push(Move.deal())
    result = play(board, "sun", "greedy")
    assert result is board
    assert board.move_stack[0] == Move.deal()
    assert board.status() in (Status.WON, Status.LOST)


def test_play_stops_at_max_moves() -> None:
    board = play(3, "sun", "random", max_moves=10)
    assert board.move_count == 10
    assert board.status() is Status.PLAYING


def test_play_stops_where_the_deck_is_unknown() -> None:
    assert play(Board("sun"), policy="lookahead").move_count == 0


def test_play_stops_before_a_wind_it_cannot_derive() -> None:
    board = play(Board("sun-2", deck=deal_deck(11)), policy="greedy")
    assert board.stage is Stage.SUNSET
    assert board.status() is Status.PLAYING
    assert not any(move.kind is MoveKind.WIND for move in board.move_stack)


def test_choose_is_the_first_move_of_the_plan_and_none_at_the_end() -> None:
    board = Board("sun", deal=12)
    board.push(Move.deal())
    for policy in (GreedyPolicy(), LookaheadPolicy()):
        assert policy.choose(board, random.Random(0)) == policy.plan(board, random.Random(0))[0]
    finished = play(12, "sun", "greedy")
    assert GreedyPolicy().choose(finished, random.Random(0)) is None


# ------------------------------------------------------------------------- reproducible


@pytest.mark.parametrize("name", NAMES)
def test_the_same_deal_gives_the_same_game(name: str) -> None:
    assert play(21, "sun", name).move_stack == play(21, "sun", name).move_stack


def test_random_games_follow_the_seed() -> None:
    first = play(21, "sun", "random").move_stack
    assert play(21, "sun", "random", seed=21).move_stack == first
    assert play(21, "sun", "random", seed=22).move_stack != first


def test_game_rng_is_fixed_by_policy_variant_and_seed() -> None:
    draws = game_rng("random", "sun", 5).random()
    assert game_rng("random", "sun", 5).random() == draws
    assert game_rng("greedy", "sun", 5).random() != draws
    assert game_rng("random", "sun-3", 5).random() != draws
    assert game_rng("random", "sun", 6).random() != draws


# ------------------------------------------------------------- what the policies can see


@pytest.mark.parametrize("name", NAMES)
def test_policies_do_not_look_at_the_stock(name: str) -> None:
    """Two decks that differ only in the last two cards dealt: until the 8th deal the
    policies must plan the same moves."""
    deck = deal_deck(31)
    other = list(deck)
    other[102], other[103] = other[103], other[102]
    assert other != deck
    first, second = Board("sun", deck=deck), Board("sun", deck=other)
    policy = get_policy(name)
    rng_first, rng_second = game_rng(name, "sun", 31), game_rng(name, "sun", 31)
    while first.deals < 8:
        plan = policy.plan(first, rng_first)
        assert policy.plan(second, rng_second) == plan
        for move in plan:
            first.push(move)
            second.push(move)


@pytest.mark.parametrize(("deal", "wind"), [(13, False), (22, True)])
def test_lookahead_plans_up_to_the_wind_without_knowing_the_row(deal: int, wind: bool) -> None:
    """After the 8th deal the plan runs to the wind (deal 22) or to a win (deal 13). With only
    the deck known (no wind row can be derived) the plan is the same, less the wind."""
    by_deal, by_deck = Board("sun", deal=deal), Board("sun", deck=deal_deck(deal))
    policy = LookaheadPolicy()
    while by_deal.deals < 8:
        for move in policy.plan(by_deal, random.Random(0)):
            by_deal.push(move)
            by_deck.push(move)
    plan = policy.plan(by_deal, random.Random(0))
    assert (plan[-1].kind is MoveKind.WIND) is wind
    assert sum(move.is_stage_action and move.kind is MoveKind.WIND for move in plan) == wind
    assert policy.plan(by_deck, random.Random(0)) == (plan[:-1] if wind else plan)


# ------------------------------------------------------------------ documented behaviour


@pytest.mark.parametrize("variant", VARIANTS)
def test_greedy_plays_every_foundation_move_before_a_stage_action(variant: str) -> None:
    board = play(6, variant, "greedy")
    for position, move in zip(replay(board), board.move_stack, strict=True):
        if move.is_stage_action:
            direct = [
                m
                for m in position.legal_moves()
                if m.kind is MoveKind.CARD and not is_shift(m) and m.target_ray is None
            ]
            assert direct == [], f"{move} with {direct[0]} possible"


def test_greedy_shifts_between_foundations_at_once_to_let_a_waiting_card_on() -> None:
    played = moves_until_deal(Board("sun", deck=deck_with_meeting_spades()), "greedy", 3)
    after_second_deal = played[played.index("deal", 1) + 1 :]
    hearts = [
        f"r{ray}:{rank}H>A"
        for ray, rank in zip(range(2, 14), [Rank(rank).label for rank in range(1, 13)], strict=True)
    ]
    # the hearts first (they fit as they are), then four shifts bring the spade piles
    # from 7/8 down to 3/4 and the waiting 3S goes on
    assert after_second_deal == [*hearts, "A:7S>K", "A:6S>K", "A:5S>K", "A:4S>K", "r1:3S>K", "deal"]


def test_patient_waits_for_a_card_that_fits_the_meeting_piles_as_they_stand() -> None:
    played = moves_until_deal(Board("sun", deck=deck_with_meeting_spades()), "patient", 3)
    assert "r1:3S>K" not in played and not any(text.startswith(("A:", "K:")) for text in played)


@pytest.mark.parametrize("variant", ("sun", "sun-2"))
def test_patient_shifts_between_foundations_only_after_the_wind(variant: str) -> None:
    for deal in (1, 2, 3, 4):
        board = play(deal, variant, "patient")
        stages = [position.stage for position in replay(board)]
        for stage, move in zip(stages, board.move_stack, strict=True):
            if is_shift(move):
                assert stage is Stage.WIND, f"deal {deal}: {move}"


def test_lookahead_leaves_a_meeting_suit_alone_until_the_stock_is_dealt() -> None:
    played = moves_until_deal(Board("sun", deck=deck_with_meeting_spades()), "lookahead", 3)
    assert not any(text.startswith(("A:", "K:")) or "3S" in text for text in played[14:])


@pytest.mark.parametrize("variant", ("sun", "sun-2"))
def test_lookahead_never_fixes_a_split_before_the_8th_deal(variant: str) -> None:
    board = play(8, variant, "lookahead")
    for position, move in zip(replay(board), board.move_stack, strict=True):
        if position.deals == 8:
            break
        if move.kind is MoveKind.CARD:
            suit = move.card // 13
            aces, kings = position.aces_pile(suit), position.kings_pile(suit)
            assert not (aces and kings and len(aces) + len(kings) == 13), str(move)


def test_random_makes_a_waiting_card_fit_by_shifts_then_the_card() -> None:
    # greedy's first 15 moves: deal, the 13 spades, the second deal (3S on ray 1)
    board = play(Board("sun", deck=deck_with_meeting_spades()), policy="greedy", max_moves=15)
    assert board.deals == 2 and board.rays[0] == [Card.parse("3S")]
    plans = [RandomPolicy().plan(board, random.Random(seed)) for seed in range(60)]
    commits = [plan for plan in plans if len(plan) > 1]
    assert commits, "the 3S (which needs shifts) is one of the random choices"
    for plan in commits:
        assert all(is_shift(move) for move in plan[:-1])
        assert str(plan[-1]) in ("r1:3S>A", "r1:3S>K")


def test_sun3_greedy_parks_cards_to_dig() -> None:
    parked = sum(
        move.target_ray is not None
        for deal in (1, 2, 3)
        for move in play(deal, "sun-3", "greedy").move_stack
    )
    assert parked > 0


def test_lookahead_wins_more_than_greedy_on_sun() -> None:
    deals = range(1, 21)
    greedy = sum(play(d, "sun", "greedy").is_won() for d in deals)
    lookahead = sum(play(d, "sun", "lookahead").is_won() for d in deals)
    assert lookahead > greedy
