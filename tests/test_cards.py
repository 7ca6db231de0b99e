"""Cards (SPEC 1): every accepted spelling reads, writers print the canonical ASCII form."""

from __future__ import annotations

import pytest

from sunlog.engine.cards import CARDS, DECK_ORDER, Card, Rank, Suit, parse_card

SYMBOLS = {"S": "♠♤", "H": "♥♡", "D": "♦♢", "C": "♣♧"}


def test_there_are_52_distinct_cards_indexed_suit_times_13_plus_rank() -> None:
    assert len(CARDS) == 52
    for suit in Suit:
        for rank in Rank:
            card = Card.of(rank, suit)
            assert int(card) == suit * 13 + rank - 1
            assert card.rank is rank and card.suit is suit


def test_canonical_names_are_rank_then_suit_with_10_not_t() -> None:
    names = [str(c) for c in CARDS]
    assert " ".join(names[:13]) == "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    assert names[13] == "AH" and names[26] == "AD" and names[39] == "AC"
    assert str(Card.of(10, Suit.H)) == "10H"
    assert not any("T" in n for n in names)


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_canonical_name_parses_back_to_the_same_card(card: Card) -> None:
    assert Card.parse(str(card)) is card


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("TH", "10H"),
        ("th", "10H"),
        ("10h", "10H"),
        ("Ts", "10S"),
        ("qd", "QD"),
        ("kC", "KC"),
        ("aS", "AS"),
        ("7c", "7C"),
    ],
)
def test_t_for_ten_and_lower_case_are_read(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("suit", "SHDC")
def test_both_sets_of_suit_symbols_are_read(suit: str) -> None:
    for symbol in SYMBOLS[suit]:
        for rank in ("A", "7", "10", "T", "Q", "k"):
            card = Card.parse(rank + symbol)
            assert card.suit is Suit[suit]
            assert str(card) == f"{'10' if rank == 'T' else rank.upper()}{suit}"


@pytest.mark.parametrize("text", ["", "1S", "11H", "ZS", "QX", "Q", "S", "10", "AS ", "♠A", "QDD"])
def test_malformed_cards_are_refused_with_a_message(text: str) -> None:
    with pytest.raises(ValueError, match="expected a card like QD or 10H"):
        Card.parse(text)


def test_parse_card_is_card_parse() -> None:
    assert parse_card("t♥") is Card.parse("10H")


def test_cards_are_shared_instances_and_behave_as_ints() -> None:
    assert Card(5) is CARDS[5]
    assert Card.parse("6S") == 5
    assert repr(Card.parse("10D")) == "Card('10D')"
    assert f"{Card.parse('QH'):>4}" == "  QH"


def test_colours_hearts_and_diamonds_are_red() -> None:
    assert [s.is_red for s in Suit] == [False, True, True, False]
    assert Card.parse("5H").is_red and Card.parse("KD").is_red
    assert not Card.parse("5S").is_red and not Card.parse("KC").is_red


def test_rank_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        Card.of(0, Suit.S)
    with pytest.raises(ValueError):
        Card.of(14, Suit.S)


def test_ordered_deck_is_two_copies_suits_s_h_d_c_ranks_a_to_k() -> None:
    assert len(DECK_ORDER) == 104
    assert DECK_ORDER[0] == Card.parse("AS")
    assert DECK_ORDER[51] == Card.parse("KC")
    assert DECK_ORDER[52] == Card.parse("AS")
    assert DECK_ORDER[:52] == DECK_ORDER[52:] == CARDS
