"""Stage 1, "Sunrise" (SPEC 3.2): the 8 deals, and the outer card of every ray playable."""

from __future__ import annotations

import pytest
from enginekit import board_from_deals, cards, deck_from_deals, legal_texts, play

from sunlog.engine.board import Board, Stage
from sunlog.engine.cards import Card
from sunlog.engine.errors import IllegalMoveError
from sunlog.engine.moves import Move

# Deal 1 puts AS on ray 2, KH on ray 6 and AD on ray 9; deal 2 covers AS with AH.
D1 = "5H AS 9C 2S 4D KH QC 7S AD 3C JD 10H 6C"
D2 = "8S AH KD 3S 9H 4C 6D JS 2C QH 7C 5D 10S"
DEALS = [D1, D2]


def fresh(variant: str = "sun") -> Board:
    return board_from_deals(variant, DEALS)


def test_nothing_can_be_played_before_the_first_deal(variant: str) -> None:
    board = fresh(variant)
    with pytest.raises(IllegalMoveError, match="nothing can be played before the first deal"):
        board.push_text("r2:AS>A")
    with pytest.raises(IllegalMoveError, match="nothing can be played before the first deal"):
        board.push_text("AS>A")
    for action in ("gather 1", "wind"):
        with pytest.raises(IllegalMoveError, match="only after the 8th deal \\(0 made, 8 to go\\)"):
            board.push_text(action)
    assert legal_texts(board) == ["deal"]


def test_open_before_the_8th_deal_is_refused(variant: str) -> None:
    board = fresh(variant)
    play(board, "deal deal deal")
    expected = "sun-2 has no stage 2" if variant == "sun-2" else "open is possible only after"
    with pytest.raises(IllegalMoveError, match=expected):
        board.push_text("open 1")


def test_deal_puts_one_card_on_the_outer_end_of_each_ray_ray_1_first(variant: str) -> None:
    board = fresh(variant)
    deck = deck_from_deals(DEALS)
    play(board, "deal")
    assert board.rays == [[c] for c in cards(D1)]
    assert board.stock == deck[13:]
    play(board, "deal")
    assert board.rays == [[a, b] for a, b in zip(cards(D1), cards(D2), strict=True)]
    assert board.stock == deck[26:]
    assert board.deals == 2 and board.stage is Stage.SUNRISE


def test_deal_covers_an_emptied_ray_too(variant: str) -> None:
    board = play(fresh(variant), "deal r2:AS>A")
    assert board.rays[1] == []
    play(board, "deal")
    assert board.rays[1] == cards("AH")
    assert all(len(ray) == 2 for i, ray in enumerate(board.rays) if i != 1)


def test_there_are_exactly_eight_deals_and_a_ninth_is_refused(variant: str) -> None:
    board = fresh(variant)
    for k in range(8):
        assert "deal" in legal_texts(board)
        play(board, "deal")
        assert board.deals == k + 1
    assert board.stock == []
    assert all(len(ray) == 8 for ray in board.rays)
    assert "deal" not in legal_texts(board)
    with pytest.raises(IllegalMoveError, match="all 8 deals have been made"):
        board.push_text("deal")


# The card moves after deal 1: in sun-3 an ace may start either aces pile and a king
# has nowhere to go.
AFTER_D1 = {
    "sun": ["r2:AS>A", "r6:KH>K", "r9:AD>A"],
    "sun-2": ["r2:AS>A", "r6:KH>K", "r9:AD>A"],
    "sun-3": ["r2:AS>A", "r2:AS>A2", "r9:AD>A", "r9:AD>A2"],
}


def test_outer_card_of_every_ray_is_playable_after_a_deal(variant: str) -> None:
    board = play(fresh(variant), "deal")
    assert sorted(legal_texts(board)) == sorted([*AFTER_D1[variant], "deal"])


def test_taking_the_outer_card_frees_the_card_under_it(variant: str) -> None:
    board = play(fresh(variant), "deal deal")
    assert "r2:AS>A" not in legal_texts(board)
    play(board, "r2:AH>A")
    assert board.rays[1] == cards("AS")
    assert "r2:AS>A" in legal_texts(board)
    play(board, "r2:AS>A")
    assert board.rays[1] == [] and board.aces_pile(0) == cards("AS")


def test_a_covered_card_is_not_playable(variant: str) -> None:
    board = play(fresh(variant), "deal deal")
    with pytest.raises(IllegalMoveError, match="ray 2's outer card is AH, not AS"):
        board.push_text("r2:AS>A")
    with pytest.raises(IllegalMoveError, match="only the outer card of ray 2 \\(AH\\) is playable"):
        board.push_text("r2.2:AS>A")
    with pytest.raises(IllegalMoveError, match="no AS is playable here: the playable cards are"):
        board.push_text("AS>A")


def test_card_move_messages_for_bad_rays_and_depths() -> None:
    board = play(fresh(), "deal deal r2:AH>A r2:AS>A")
    with pytest.raises(IllegalMoveError, match="there is no ray 14: rays are numbered 1 to 13"):
        board.push_text("r14:AS>A")
    with pytest.raises(IllegalMoveError, match="there is no ray 0"):
        board.push_text("r0>A")
    with pytest.raises(IllegalMoveError, match="ray 2 is empty"):
        board.push_text("r2>A")
    with pytest.raises(IllegalMoveError, match="ray 9 holds 2 cards, so it has no card 3"):
        board.push_text("r9.3:AD>A")
    with pytest.raises(IllegalMoveError, match="ray 9's outer card is 2C, not 3C"):
        board.push_text("r9.1:3C>A")
    with pytest.raises(IllegalMoveError, match="ray 9's outer card is 2C, not 3C"):
        board.push_text("r9:3C>A")


def test_short_forms_of_a_stage_1_move_all_play_the_same_card() -> None:
    for text in ("r9:AD>A", "r9>A", "AD>A", "r9.1:AD>A", "R9:ad>a"):
        board = play(fresh(), "deal")
        board.push_text(text)
        assert board.rays[8] == [] and board.aces_pile(2) == cards("AD")


def test_named_deal_is_checked_against_the_known_deck(variant: str) -> None:
    board = fresh(variant)
    play(board, f"deal {D1}")
    assert board.rays[12] == cards("6C")
    wrong = D2.replace("KD", "KS")
    with pytest.raises(
        IllegalMoveError, match="deal 2 names KS for ray 3, but the deck deals KD there"
    ):
        play(board, f"deal {wrong}")
    with pytest.raises(IllegalMoveError, match="a deal names 13 cards, one per ray, not 12"):
        play(board, "deal " + " ".join(D2.split()[:12]))
    assert board.deals == 1


def test_canonical_form_of_a_named_deal_with_a_known_deck_is_bare_deal() -> None:
    board = fresh()
    assert str(board.canonical(Move.parse(f"deal {D1}"))) == "deal"


def test_physical_game_needs_the_dealt_cards_named(variant: str) -> None:
    board = Board(variant)
    assert board.stock is None and board.deck is None
    with pytest.raises(IllegalMoveError, match=r"the deck is not known .* name the 13 cards dealt"):
        board.push_text("deal")
    assert board.legal_moves() == []
    play(board, f"deal {D1}")
    assert [ray[-1] for ray in board.rays] == cards(D1)
    assert "deal" not in legal_texts(board)
    assert sorted(legal_texts(board)) == sorted(AFTER_D1[variant])
    assert str(board.canonical(Move.parse(f"deal {D2}"))) == f"deal {D2}"


def test_physical_game_refuses_a_third_copy_of_a_card() -> None:
    board = play(Board("sun"), f"deal {D1}")
    third = D1.replace("5H", "AD")  # AD already dealt once; this names it twice more
    with pytest.raises(IllegalMoveError, match="deal 2 names a third AD"):
        play(board, f"deal {third}")
    play(board, f"deal {D1}")  # a second copy of each is fine
    with pytest.raises(IllegalMoveError, match="deal 3 names a third 5H"):
        play(board, f"deal {D1}")


def test_physical_game_stock_is_unknown_until_the_8th_deal() -> None:
    deck = deck_from_deals(DEALS)
    board = Board("sun")
    for k in range(8):
        assert board.stock is None
        assert board.to_json()["stock"] is None
        play(board, "deal " + " ".join(map(str, deck[13 * k : 13 * k + 13])))
    assert board.stock == []
    assert board.to_json()["stock"] == []


def test_deck_must_hold_104_cards_two_of_each() -> None:
    deck = deck_from_deals(DEALS)
    with pytest.raises(ValueError, match="a deck has 104 cards, not 103"):
        Board("sun", deck=deck[:-1])
    tripled = [*deck[:-1], Card.parse("AS")]
    with pytest.raises(ValueError, match="every card exactly twice"):
        Board("sun", deck=tripled)
    with pytest.raises(ValueError, match="not the deck of deal 5"):
        Board("sun", deal=5, deck=deck)


def test_deck_and_deal_number_may_agree() -> None:
    from sunlog.engine.deal import deal_deck

    board = Board("sun", deal=5, deck=deal_deck(5))
    assert board.deck == deal_deck(5)


def test_stage_stays_1_through_the_deals_and_card_moves(variant: str) -> None:
    board = fresh(variant)
    play(board, "deal r2:AS>A deal r2:AH>A deal")
    assert board.stage is Stage.SUNRISE
    assert board.to_json()["stage"] == 1
    assert board.open_ray is None and board.clouds == [] and board.wind_row is None


def test_variant_names_are_read_and_unknown_ones_refused() -> None:
    assert Board(" SUN-3 ").variant.value == "sun-3"
    with pytest.raises(ValueError, match="unknown variant 'sun-4': expected sun, sun-2 or sun-3"):
        Board("sun-4")


def test_pop_undoes_deals_and_card_moves_and_refuses_an_empty_history() -> None:
    board = fresh()
    start = board.key()
    with pytest.raises(IndexError, match="pop from a board with no moves"):
        board.pop()
    play(board, "deal r2:AS>A deal r2:AH>A")
    assert str(board.pop()) == "r2:AH>A"
    assert str(board.pop()) == "deal"
    assert board.rays[1] == [] and board.deals == 1
    board.pop()
    board.pop()
    assert board.key() == start and board.move_stack == []
