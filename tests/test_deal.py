"""Deal numbers (SPEC 4): SplitMix64, the Fisher–Yates deal and the wind shuffle.

The reference functions below are written again from the spec's text, independently of
``sunlog.engine.deal``, so a slip in either shows up as a mismatch.
"""

from __future__ import annotations

import pytest
from enginekit import cards
from hypothesis import given, settings
from hypothesis import strategies as st

from sunlog.engine.board import Board
from sunlog.engine.cards import CARDS, DECK_ORDER
from sunlog.engine.deal import MAX_DEAL, SplitMix64, deal_deck, shuffle, wind_row

M64 = 2**64


def reference_draws(state: int, count: int) -> tuple[list[int], int]:
    """SplitMix64 exactly as SPEC 4.2 words it: ``count`` draws, and the final state."""
    out = []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) % M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M64
        out.append(z ^ (z >> 31))
    return out, state


def reference_shuffle(items: list[str], draws: list[int]) -> list[str]:
    """Fisher–Yates of SPEC 4.3 with the given draws, i from len-1 down to 1."""
    items = list(items)
    it = iter(draws)
    for i in range(len(items) - 1, 0, -1):
        j = next(it) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


ORDERED = [str(c) for c in DECK_ORDER]

# SPEC 4's table: first 13 cards (ray 1 first) and the last card of the stock.
TABLE = [
    (0, "3H 8C JS 6S 4H 2D 10S 7H AD 8H 10H 6S AD", "10D"),
    (1, "6D 7D JS 8S KC 7H 6C 8S 6S 9S 5S 10D KH", "7C"),
    (42, "QH 6S 9S 5D AH 10H 8C 4D 5S 8D 3D JS 8S", "10S"),
    (20261129, "AC 2S 9S 9C 6H 8S 7D AS AS 4C KH 6D 3D", "KD"),
]


def test_splitmix64_state_zero_gives_the_spec_vectors() -> None:
    rng = SplitMix64(0)
    assert rng.next() == 0xE220A8397B1DCDAF
    assert rng.next() == 0x6E789E6AA1B965F4


@pytest.mark.parametrize("state", [0, 1, 42, 20261129, MAX_DEAL - 1, 0x9E3779B97F4A7C15])
def test_splitmix64_matches_the_spec_formula_and_wraps_at_2_64(state: int) -> None:
    rng = SplitMix64(state)
    draws, final = reference_draws(state, 200)
    assert [rng.next() for _ in range(200)] == draws
    assert rng.state == final
    assert all(0 <= d < M64 for d in draws)


@pytest.mark.parametrize("state", [-1, MAX_DEAL])
def test_splitmix64_refuses_a_state_outside_64_bits(state: int) -> None:
    with pytest.raises(ValueError, match="0 to 2\\^64-1"):
        SplitMix64(state)


@pytest.mark.parametrize(("number", "first", "last"), TABLE)
def test_deal_table_first_13_cards_and_last_card(number: int, first: str, last: str) -> None:
    deck = deal_deck(number)
    assert deck[:13] == cards(first)
    assert str(deck[-1]) == last


@pytest.mark.parametrize(("number", "first", "last"), TABLE)
def test_first_deal_puts_the_table_cards_on_rays_1_to_13(
    number: int, first: str, last: str
) -> None:
    board = Board("sun", deal=number)
    board.push_text("deal")
    assert [ray[-1] for ray in board.rays] == cards(first)
    assert board.stock is not None and str(board.stock[-1]) == last


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=MAX_DEAL - 1))
def test_deal_deck_is_fisher_yates_of_the_ordered_deck(number: int) -> None:
    draws, _ = reference_draws(number, 103)
    assert [str(c) for c in deal_deck(number)] == reference_shuffle(ORDERED, draws)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=MAX_DEAL - 1))
def test_every_deal_holds_two_copies_of_each_card(number: int) -> None:
    deck = deal_deck(number)
    assert len(deck) == 104
    assert sorted(deck) == sorted(CARDS + CARDS)


def test_ordered_deck_starts_with_ace_of_spades_before_shuffling() -> None:
    assert ORDERED[0] == "AS" and ORDERED[13] == "AH" and ORDERED[52] == "AS"


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=MAX_DEAL - 1),
    st.lists(st.sampled_from(CARDS), max_size=60),
)
def test_wind_row_continues_the_generator_after_103_draws(number: int, collected: list) -> None:
    draws, _ = reference_draws(number, 103 + max(0, len(collected) - 1))
    expected = reference_shuffle([str(c) for c in collected], draws[103:])
    assert [str(c) for c in wind_row(number, collected)] == expected


def test_wind_row_leaves_the_collected_list_alone_and_keeps_its_cards() -> None:
    collected = cards("5H 3S KD 5H 10C AS 2D")
    before = list(collected)
    row = wind_row(42, collected)
    assert collected == before
    assert sorted(row) == sorted(collected)


def test_wind_row_of_one_card_or_none_is_that_card_or_empty() -> None:
    assert wind_row(7, cards("QS")) == cards("QS")
    assert wind_row(7, []) == []


def test_shuffle_uses_draw_modulo_i_plus_one_from_the_top_index_down() -> None:
    items = cards("AS 2S 3S 4S 5S")
    rng = SplitMix64(9)
    shuffle(items, rng)
    draws, _ = reference_draws(9, 4)
    assert [str(c) for c in items] == reference_shuffle(["AS", "2S", "3S", "4S", "5S"], draws)


@pytest.mark.parametrize("length", [*range(0, 12), 51, 52, 103, 104, 105, 130])
@pytest.mark.parametrize("state", [0, 9, MAX_DEAL - 1, MAX_DEAL - 0x9E3779B97F4A7C15])
def test_shuffle_of_any_length_makes_the_draws_of_the_spec_and_leaves_its_state(
    length: int, state: int
) -> None:
    """All draws at once (a deck or shorter) or one at a time (longer): the same draws, and
    the generator left where ``length - 1`` draws leave it, wrapping at 2^64."""
    items = [CARDS[k % 52] for k in range(length)]
    rng = SplitMix64(state)
    shuffle(items, rng)
    draws, final = reference_draws(state, max(0, length - 1))
    assert [str(c) for c in items] == reference_shuffle(
        [str(CARDS[k % 52]) for k in range(length)], draws
    )
    assert rng.state == (final if length > 1 else state)


@pytest.mark.parametrize("number", [-1, MAX_DEAL])
def test_board_refuses_a_deal_number_outside_64_bits(number: int) -> None:
    with pytest.raises(ValueError, match="0 to 2\\^64-1"):
        Board("sun", deal=number)


def test_largest_deal_number_is_accepted() -> None:
    board = Board("sun", deal=MAX_DEAL - 1)
    board.push_text("deal")
    assert board.deals == 1
