"""Moves to the foundations (SPEC 3.1), between foundations, and sun-3's two aces piles."""

from __future__ import annotations

import pytest
from enginekit import board_from_deals, cards, down, legal_texts, play, up

from sunlog.engine.board import Board
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError
from sunlog.engine.moves import Move

# Rays 1..13: AS 3S KS JS 2S QS AH KH 5D 2H 9C 4C 7D
MIXED = "AS 3S KS JS 2S QS AH KH 5D 2H 9C 4C 7D"


def mixed(variant: str) -> Board:
    return board_from_deals(variant, [MIXED], dealt=1)


def hearts_split() -> Board:
    """Sun: hearts aces pile A..7H and kings pile KH..8H; ray 7 holds the other 7H."""
    board = board_from_deals("sun", [up("H"), down("H")])
    play(board, "deal " + " ".join(f"r{i}:{c}>A" for i, c in enumerate(up("H", "A", "7"), 1)))
    play(board, "deal " + " ".join(f"r{i}:{c}>K" for i, c in enumerate(down("H", "K", "8"), 1)))
    assert board.aces_pile(1) == cards(up("H", "A", "7"))
    assert board.kings_pile(1) == cards(down("H", "K", "8"))
    return board


# ------------------------------------------------------------------ building


def test_ace_starts_an_aces_pile_and_it_builds_up_by_one(variant: str) -> None:
    board = mixed(variant)
    play(board, "r1:AS>A")
    assert board.aces_pile(0) == cards("AS")
    with pytest.raises(
        IllegalMoveError, match=r"3S cannot go onto the .*aces pile of spades: its top"
    ):
        board.push_text("r2:3S>A1" if variant == "sun-3" else "r2:3S>A")
    play(board, "r5:2S>A r2:3S>A")
    assert board.aces_pile(0) == cards("AS 2S 3S")


def test_aces_pile_refuses_a_wrong_rank_naming_the_card_it_takes() -> None:
    board = play(mixed("sun"), "r1:AS>A")
    with pytest.raises(
        IllegalMoveError,
        match="3S cannot go onto the aces pile of spades: its top is AS, so it takes 2S",
    ):
        board.push_text("r2:3S>A")


def test_only_an_ace_starts_an_aces_pile(variant: str) -> None:
    board = play(mixed(variant), "r1:AS>A")
    # 2H is one above AS, but it goes to the hearts pile, which is empty
    with pytest.raises(
        IllegalMoveError, match=r"2H cannot start the .*aces pile of hearts: an empty"
    ):
        board.push_text("r10:2H>A1" if variant == "sun-3" else "r10:2H>A")
    play(board, "r7:AH>A r10:2H>A")
    assert board.aces_pile(1) == cards("AH 2H")


def test_king_starts_a_kings_pile_and_it_builds_down_by_one() -> None:
    for variant in ("sun", "sun-2"):
        board = mixed(variant)
        play(board, "r3:KS>K")
        with pytest.raises(
            IllegalMoveError,
            match="JS cannot go onto the kings pile of spades: its top is KS, so it takes QS",
        ):
            board.push_text("r4:JS>K")
        play(board, "r6:QS>K r4:JS>K")
        assert board.kings_pile(0) == cards("KS QS JS")
        with pytest.raises(
            IllegalMoveError,
            match="5D cannot start the kings pile of diamonds: an empty pile takes only a king",
        ):
            board.push_text("r9:5D>K")


def test_a_foundation_card_is_the_pile_base_and_piles_are_listed_base_first() -> None:
    board = play(mixed("sun"), "r3:KS>K r6:QS>K r1:AS>A")
    assert board.to_json()["foundations"]["kings"]["S"] == ["KS", "QS"]
    assert board.to_json()["foundations"]["aces"]["S"] == ["AS"]


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_second_king_ends_the_aces_pile_and_second_ace_the_kings_pile(variant: str) -> None:
    board = board_from_deals(variant, [up("S"), down("S")], dealt=1)
    play(board, " ".join(f"r{i}:{c}>A" for i, c in enumerate(up("S", "A", "Q"), 1)))
    assert sorted(legal_texts(board)) == ["deal", "r13:KS>A", "r13:KS>K"]
    play(board, "r13:KS>A deal")
    assert len(board.aces_pile(0)) == 13
    with pytest.raises(
        IllegalMoveError, match="KS cannot go onto the aces pile of spades: the pile is complete"
    ):
        board.push_text("r1:KS>A")
    play(board, " ".join(f"r{i}:{c}>K" for i, c in enumerate(down("S"), 1)))
    assert board.kings_pile(0) == cards(down("S"))
    assert board.aces_pile(0) == cards(up("S"))
    assert board.on_foundations() == 26
    assert all(not ray for ray in board.rays)


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_ace_may_go_to_either_pile_when_aces_empty_and_kings_topped_by_2(variant: str) -> None:
    board = board_from_deals(variant, [down("S"), up("S")], dealt=1)
    play(board, " ".join(f"r{i}:{c}>K" for i, c in enumerate(down("S", "K", "2"), 1)))
    assert sorted(legal_texts(board)) == ["deal", "r13:AS>A", "r13:AS>K"]
    to_aces, to_kings = board.copy(), board.copy()
    to_aces.push_text("AS>A")
    to_kings.push_text("AS>K")
    assert to_aces.aces_pile(0) == cards("AS") and len(to_aces.kings_pile(0)) == 12
    assert to_kings.aces_pile(0) == [] and len(to_kings.kings_pile(0)) == 13


def test_ace_to_the_kings_pile_then_the_other_ace_starts_the_aces_pile() -> None:
    board = board_from_deals("sun", [down("S"), up("S")], dealt=1)
    play(board, " ".join(f"r{i}:{c}>K" for i, c in enumerate(down("S", "K", "2"), 1)))
    play(board, "r13:AS>K deal r1:AS>A")
    assert len(board.kings_pile(0)) == 13 and board.aces_pile(0) == cards("AS")
    before = board.key()
    board.pop()
    board.pop()
    board.pop()
    play(board, "r13:AS>A")
    assert board.aces_pile(0) == cards("AS") and len(board.kings_pile(0)) == 12
    assert board.key() != before


# -------------------------------------------------------- between foundations


def test_aces_top_moves_onto_the_kings_pile_one_rank_below_its_top() -> None:
    board = hearts_split()
    texts = legal_texts(board)
    assert "A:7H>K" in texts and "K:8H>A" in texts
    play(board, "A:7H>K")
    assert board.aces_pile(1)[-1] == cards("6H")[0] and board.kings_pile(1)[-1] == cards("7H")[0]


def test_kings_top_moves_onto_the_aces_pile_one_rank_above_its_top() -> None:
    board = hearts_split()
    play(board, "K:8H>A")
    assert board.aces_pile(1) == cards(up("H", "A", "8"))
    assert board.kings_pile(1) == cards(down("H", "K", "9"))
    play(board, "K:9H>A A:9H>K A:8H>K")
    assert board.kings_pile(1) == cards(down("H", "K", "8"))


def test_between_foundations_short_forms() -> None:
    for text in ("A:7H>K", "A>K", "A:7h>k"):
        board = hearts_split()
        board.push_text(text)
        assert board.kings_pile(1)[-1] == cards("7H")[0]
    board = hearts_split()
    board.push_text("K>A")
    assert board.aces_pile(1)[-1] == cards("8H")[0]


def test_foundation_top_must_be_the_named_card() -> None:
    board = hearts_split()
    with pytest.raises(IllegalMoveError, match="the aces pile of hearts is topped by 7H, not 6H"):
        board.push_text("A:6H>K")
    with pytest.raises(IllegalMoveError, match="the kings pile of spades is empty"):
        board.push_text("K:5S>A")
    with pytest.raises(IllegalMoveError, match="7H is already on its aces pile"):
        board.push_text("A:7H>A")
    with pytest.raises(IllegalMoveError, match="8H is already on its kings pile"):
        board.push_text("K:8H>K")


def test_a_base_never_moves() -> None:
    board = hearts_split()
    play(board, " ".join(f"A:{c}>K" for c in down("H", "7", "2")))
    assert board.aces_pile(1) == cards("AH")
    assert "A:AH>K" not in legal_texts(board)
    with pytest.raises(
        IllegalMoveError, match="AH is the base of the aces pile of hearts, and a base never moves"
    ):
        board.push_text("A:AH>K")
    with pytest.raises(IllegalMoveError, match="no aces pile has a card that can move"):
        board.push_text("A>K")
    play(board, " ".join(f"K:{c}>A" for c in up("H", "2", "Q")))
    assert board.kings_pile(1) == cards("KH")
    with pytest.raises(
        IllegalMoveError, match="KH is the base of the kings pile of hearts, and a base never moves"
    ):
        board.push_text("K:KH>A")


def test_nothing_moves_onto_an_empty_pile_from_another_foundation() -> None:
    board = board_from_deals("sun", [down("S"), up("S")], dealt=1)
    play(board, " ".join(f"r{i}:{c}>K" for i, c in enumerate(down("S"), 1)))
    assert board.kings_pile(0)[-1] == cards("AS")[0] and board.aces_pile(0) == []
    assert not any(t.startswith("K:") for t in legal_texts(board))
    with pytest.raises(
        IllegalMoveError,
        match="the aces pile of spades is empty, and nothing moves onto an empty pile",
    ):
        board.push_text("K:AS>A")
    board = board_from_deals("sun", [up("S"), down("S")], dealt=1)
    play(board, " ".join(f"r{i}:{c}>A" for i, c in enumerate(up("S"), 1)))
    with pytest.raises(
        IllegalMoveError,
        match="the kings pile of spades is empty, and nothing moves onto an empty pile",
    ):
        board.push_text("A:KS>K")


def test_moves_between_foundations_in_sun_2_too() -> None:
    board = board_from_deals("sun-2", [up("H"), down("H")])
    play(board, "deal " + " ".join(f"r{i}:{c}>A" for i, c in enumerate(up("H", "A", "7"), 1)))
    play(board, "deal " + " ".join(f"r{i}:{c}>K" for i, c in enumerate(down("H", "K", "8"), 1)))
    assert {"A:7H>K", "K:8H>A"} <= set(legal_texts(board))
    play(board, "A:7H>K K:7H>A")
    assert board.aces_pile(1)[-1] == cards("7H")[0]


def test_bare_card_reads_the_foundation_top_as_well_as_rays() -> None:
    # 7H is the aces top and ray 7's outer card: both fit the kings pile, results differ
    board = hearts_split()
    with pytest.raises(AmbiguousMoveError, match="7H>K can be read 2 ways") as info:
        board.push_text("7H>K")
    readings = info.value.candidates
    assert len(readings) == 2 and "A:7H>K" in readings
    assert any(r.startswith("r7") for r in readings)
    results = set()
    for text in readings:
        reading = board.copy()
        reading.push_text(text)
        results.add(reading.key())
    assert len(results) == 2
    # 8H is only on the kings pile (ray 8 holds 8H under 6H): the bare form reads it
    board.push_text("8H>A")
    assert board.aces_pile(1)[-1] == cards("8H")[0]


# ------------------------------------------------------------------- sun-3


def test_sun_3_has_no_moves_between_foundations() -> None:
    board = board_from_deals("sun-3", [up("S")], dealt=1)
    play(board, "r1:AS>A r2:2S>A r3:3S>A")
    assert not any(t.startswith(("A:", "K:")) for t in legal_texts(board))
    for text in ("A:3S>A2", "A>A2", "K:3S>A"):
        with pytest.raises(IllegalMoveError, match="never playable in sun-3"):
            board.push_text(text)
    with pytest.raises(IllegalMoveError, match="no 3S is playable here"):
        board.push_text("3S>A2")


SUN3_PAIRS = "AS AS 2S 2S 3S 3S 4S 4S 5S 5S 6S 6S 7S"


def test_sun_3_ace_may_start_either_aces_pile() -> None:
    board = board_from_deals("sun-3", [SUN3_PAIRS], dealt=1)
    texts = legal_texts(board)
    assert {"r1:AS>A", "r1:AS>A2", "r2:AS>A", "r2:AS>A2"} <= set(texts)
    play(board, "r1:AS>A2")
    assert board.aces_pile(0, 1) == [] and board.aces_pile(0, 2) == cards("AS")


def test_sun_3_target_a_is_the_first_pile_that_takes_the_card() -> None:
    board = board_from_deals("sun-3", [SUN3_PAIRS], dealt=1)
    play(board, "r1:AS>A")
    assert board.aces_pile(0, 1) == cards("AS")
    # the first pile takes 2S, not AS: A means the second pile for AS
    play(board, "r2:AS>A")
    assert board.aces_pile(0, 2) == cards("AS")
    assert board.aces_pile(0, 1) == cards("AS")


def test_sun_3_a1_and_a2_choose_the_pile() -> None:
    board = board_from_deals("sun-3", [SUN3_PAIRS], dealt=1)
    play(board, "r1:AS>A1")
    with pytest.raises(
        IllegalMoveError,
        match="AS cannot go onto the first aces pile of spades: its top is AS, so it takes 2S",
    ):
        board.push_text("r2:AS>A1")
    play(board, "r2:AS>A2 r3:2S>A2 r4:2S>A1")
    assert board.aces_pile(0, 1) == cards("AS 2S") == board.aces_pile(0, 2)
    play(board, "r5:3S>A1")
    with pytest.raises(
        IllegalMoveError,
        match="3S cannot go onto the first aces pile of spades: its top is 3S, so it takes 4S",
    ):
        board.push_text("r6:3S>A1")
    play(board, "r6:3S>A")
    assert board.aces_pile(0, 2) == cards("AS 2S 3S")


def test_sun_3_equal_tops_give_two_different_moves() -> None:
    board = board_from_deals("sun-3", [SUN3_PAIRS], dealt=1)
    play(board, "r1:AS>A r2:AS>A")
    texts = legal_texts(board)
    assert {"r3:2S>A", "r3:2S>A2", "r4:2S>A", "r4:2S>A2"} <= set(texts)
    one = board.copy()
    one.push_text("r3:2S>A")
    two = board.copy()
    two.push_text("r3:2S>A2")
    assert one.key() != two.key()


def test_sun_3_a2_is_written_only_where_the_first_pile_also_takes_the_card() -> None:
    board = board_from_deals("sun-3", [SUN3_PAIRS], dealt=1)
    play(board, "r1:AS>A")
    texts = legal_texts(board)
    assert "r2:AS>A" in texts and "r2:AS>A2" not in texts
    assert str(board.canonical(Move.parse("r2:AS>A2"))) == "r2:AS>A"
    assert str(board.canonical(Move.parse("r3:2S>A1"))) == "r3:2S>A"


def test_sun_3_has_no_kings_piles() -> None:
    board = board_from_deals("sun-3", [MIXED], dealt=1)
    with pytest.raises(IllegalMoveError, match="sun-3 has no kings piles: write A, A1 or A2"):
        board.push_text("r3:KS>K")
    with pytest.raises(
        IllegalMoveError, match="KS fits neither aces pile of spades \\(tops: empty and empty\\)"
    ):
        board.push_text("r3:KS>A")
    with pytest.raises(ValueError, match="sun-3 has no kings piles"):
        board.kings_pile(0)


def test_a1_and_a2_are_refused_outside_sun_3() -> None:
    for variant in ("sun", "sun-2"):
        board = mixed(variant)
        for text in ("r1:AS>A1", "r1:AS>A2"):
            with pytest.raises(
                IllegalMoveError, match="A1 and A2 name the two aces piles of sun-3"
            ):
                board.push_text(text)
