"""Short forms, ambiguity and canonical forms of card moves (SPEC 5.2) as the board reads them."""

from __future__ import annotations

import random
import re

import pytest
from enginekit import (
    board_from_deals,
    board_from_rays,
    cards,
    deal_all,
    legal_texts,
    play,
    random_playout,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from sunlog.engine.board import Board
from sunlog.engine.cards import Card
from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.notation.terminals import patterns

# Deal 0's first deal (SPEC 4): AD lies on rays 9 and 13, 6S on rays 4 and 12.
DEAL0 = "3H 8C JS 6S 4H 2D 10S 7H AD 8H 10H 6S AD"


def deal0(variant: str = "sun") -> Board:
    board = play(Board(variant, deal=0), "deal")
    assert " ".join(str(r[-1]) for r in board.rays) == DEAL0
    return board


def test_bare_card_with_two_copies_giving_different_positions_is_ambiguous(variant: str) -> None:
    board = deal0(variant)
    with pytest.raises(AmbiguousMoveError, match="AD>A can be read 2 ways with different results"):
        board.push_text("AD>A")
    assert not board.is_legal(Move.parse("AD>A"))
    assert board.move_count == 1


def test_ambiguity_error_names_the_shortest_longer_forms_and_each_is_legal() -> None:
    board = deal0()
    with pytest.raises(AmbiguousMoveError) as info:
        board.push_text("AD>A")
    forms = info.value.candidates
    assert set(forms) == {"r9:AD>A", "r13:AD>A"}  # canonical: no depth where none is needed
    assert f"write {forms[0]} or {forms[1]}" in str(info.value)
    results = set()
    for form in forms:
        trial = board.copy()
        trial.push_text(form)
        results.add(trial.key())
    assert len(results) == 2


def test_long_forms_resolve_the_ambiguity() -> None:
    for text, emptied in (("r9:AD>A", 8), ("r13:AD>A", 12), ("r13>A", 12), ("r9.1:AD>A", 8)):
        board = deal0()
        board.push_text(text)
        assert board.rays[emptied] == []


def test_bare_card_with_one_playable_copy_is_accepted_and_canonical_names_the_ray() -> None:
    board = play(deal0("sun-3"), "r9:AD>A")  # the other AD goes onto the second pile
    assert str(board.canonical(Move.parse("AD>A"))) == "r13:AD>A"
    board.push_text("AD>A")
    assert board.rays[12] == []


def test_bare_card_readings_that_give_the_same_position_are_accepted() -> None:
    # the open ray ends KC KC: either copy leaves the same ray, so KC>K is not ambiguous
    board = board_from_rays("sun", {2: "2D 3D 4D 5D 6D 7D KC KC"}, dealt=8)
    play(board, "open 2")
    assert str(board.canonical(Move.parse("r2.2:KC>K"))) == "r2:KC>K"
    board.push_text("KC>K")
    assert board.rays[1] == cards("2D 3D 4D 5D 6D 7D KC")


def test_no_playable_copy_says_what_is_playable() -> None:
    board = deal0()
    with pytest.raises(
        IllegalMoveError,
        match=r"^5C has not been dealt yet: it comes with the next deal \(was a deal left "
        r"out\?\); the playable cards are "
        r"6S 10S JS, 3H 4H 7H 8H 10H, AD 2D, 8C$",
    ):
        board.push_text("5C>A")


def test_playable_cards_are_listed_by_suit_then_rank() -> None:
    """A 2 ... 10 J Q K within a suit, the suits in the deck's order S H D C."""
    deal = "KS 10S 2S AS QH JH 10H 9H 3D 3C 2C AC 10C"
    board = board_from_deals("sun", [deal], dealt=1)
    with pytest.raises(IllegalMoveError) as caught:
        board.push_text("5D>A")
    assert str(caught.value) == (
        "5D has not been dealt yet: it comes with deal 4; the playable cards are "
        "AS 2S 10S KS, 9H 10H JH QH, 3D, "
        "AC 2C 3C 10C"
    )


def test_wrong_outer_card_message_names_both_cards() -> None:
    board = board_from_deals("sun", ["AS 2S 3S 4S 7H 6S 7S 8S 9S 10S JS QS KS"], dealt=1)
    with pytest.raises(IllegalMoveError) as caught:
        board.push_text("r5:QD>K")
    assert str(caught.value) == (
        "ray 5's outer card is 7H, not QD, and QD has not been dealt yet: it comes with deal 4"
    )


def test_wrong_ray_says_where_the_card_is_and_what_to_write() -> None:
    board = board_from_deals("sun", ["AS 9S 2S 9S 7H 6S 7S 8S 9D 10S JS QS KS"], dealt=1)
    board.push_text("r1:AS>A")
    with pytest.raises(IllegalMoveError) as caught:
        board.push_text("r4:2S>A")
    assert str(caught.value) == "ray 4's outer card is 9S, not 2S; 2S is on ray 3: write r3:2S>A"
    board.push_text("r3:2S>A")  # what the message says to write is legal


def test_wrong_ray_names_every_place_of_the_card() -> None:
    board = deal0()  # AD lies on rays 9 and 13
    with pytest.raises(IllegalMoveError) as caught:
        board.push_text("r4:AD>A")
    assert str(caught.value) == (
        "ray 4's outer card is 6S, not AD; AD is on ray 9 and on ray 13: write r9:AD>A or r13:AD>A"
    )


def test_wrong_ray_of_a_card_that_fits_no_target_says_why() -> None:
    board = deal0()
    with pytest.raises(IllegalMoveError) as caught:
        board.push_text("r1:2D>A")
    assert str(caught.value) == (
        "ray 1's outer card is 3H, not 2D; 2D is on ray 6, but 2D cannot start the aces pile "
        "of diamonds: an empty pile takes only an ace"
    )


def test_wrong_cloud_end_and_wrong_depth_say_where_the_card_is() -> None:
    board = board_from_rays(
        "sun", {1: "2H 3H 4H AS 2S 3S 4S 7H", 2: "6H 7C 8C 9C 9H 10H JH 5D"}, dealt=8
    )
    board.push_text("open 1")
    with pytest.raises(IllegalMoveError) as caught:
        board.push_text("r1.2:5D>A")
    assert str(caught.value) == (
        "card 2 of ray 1 is 4S, not 5D; 5D is on ray 2, but 5D cannot start the aces pile of "
        "diamonds: an empty pile takes only an ace"
    )
    with pytest.raises(IllegalMoveError) as caught:
        board.push_text("r2:AS>A")
    assert str(caught.value) == ("ray 2's outer card is 5D, not AS; AS is on ray 1: write r1:AS>A")


def test_card_that_fits_no_target_is_explained() -> None:
    board = deal0()
    with pytest.raises(
        IllegalMoveError, match=r"^3H cannot start the aces pile of hearts: an empty pile takes"
    ):
        board.push_text("r1:3H>A")


def test_notation_is_case_insensitive_and_reads_t_and_suit_symbols() -> None:
    for text in ("R9:ad>a", "r9:A♦>A", "r9:a♢>a"):
        board = deal0()
        board.push_text(text)
        assert board.rays[8] == []
    board = deal0()
    with pytest.raises(IllegalMoveError, match="10H cannot start the aces pile of hearts"):
        board.push_text("r11:Th>A")


_GRAMMAR_CARD_MOVE = re.compile(patterns()["CARD_MOVE"])


def _joined(*parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map("".join)


# Card moves right and wrong, piece by piece: every case, symbols, leading zeros, numbers
# too big or not ASCII, depths and ends, junk; and random runs of such pieces.
_NUMBER = st.sampled_from(["1", "5", "13", "0", "05", "99", "100", "007", "\uff15", ""])
_CARD_TEXT = _joined(
    st.sampled_from(["A", "a", "10", "T", "t", "Q", "q", "2", "9", "K", "k", "J", "1", ""]),
    st.sampled_from(["S", "s", "H", "D", "d", "C", "c", "\u2660", "\u2665", "\u2662", "X", ""]),
)
_SOURCE = st.one_of(
    st.just(""),
    _joined(st.sampled_from("rRcCwAx"), _NUMBER),
    st.sampled_from(["w", "W", "w.L", "c1.R", "c2.l", "r5.2", "r1.", "A", "a", "K", "k", "x"]),
)
_TARGET = st.one_of(
    st.sampled_from(["A", "a", "A1", "a2", "A3", "K", "k", "Q", ""]),
    _joined(st.sampled_from("rRc"), _NUMBER),
)
_TOKENS = st.one_of(
    _joined(
        _SOURCE,
        st.one_of(st.just(""), _CARD_TEXT, _joined(st.just(":"), _CARD_TEXT)),
        st.sampled_from([">", ">", ">", "", ">>", ":", " >"]),
        _TARGET,
        st.sampled_from(["", "", "", "!", " ", ">", "x"]),
    ),
    st.lists(st.sampled_from([*"rRcCwAaKk:>.L15T0QSsH", "10", "A1", "\u2665"]), max_size=9).map(
        "".join
    ),
)


# An independent reading of a card move token, with a named group for each field: the
# tests' oracle for Move.parse_card_move (which takes apart what the grammar matched).
_ORACLE_CARD = r"(?:10|[2-9AJQKT])[SHDC\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667]"
_ORACLE = re.compile(
    rf"""(?:
        (?:r(?P<ray>\d+)(?:\.(?P<depth>\d+))?
          |c(?P<cloud>\d+)(?:\.(?P<cend>[LR]))?
          |w(?:\.(?P<wend>[LR]))?
          |(?P<pile>[AK])
        )(?::(?P<card>{_ORACLE_CARD}))?
      |(?P<bare>{_ORACLE_CARD})
    )>(?P<target>A[12]?|K|r(?P<tray>\d+))""",
    re.IGNORECASE | re.VERBOSE | re.ASCII,
)


def _oracle(token: str) -> Move | None:
    m = _ORACLE.fullmatch(token)
    if m is None:
        return None
    g = m.groupdict()
    card_text = g["card"] or g["bare"]
    card = Card.parse(card_text) if card_text else None
    index = depth = end = None
    source: Place | None
    if g["ray"] is not None:
        source, index = Place.RAY, int(g["ray"])
        depth = int(g["depth"]) if g["depth"] is not None else None
    elif g["cloud"] is not None:
        source, index = Place.CLOUD, int(g["cloud"])
        end = End(g["cend"].upper()) if g["cend"] else None
    elif g["bare"] is not None:
        source = None
    elif g["pile"] is not None:
        source = Place.ACES if g["pile"].upper() == "A" else Place.KINGS
    else:
        source = Place.WIND
        end = End(g["wend"].upper()) if g["wend"] else None
    if g["tray"] is not None:
        target, target_ray = Target.RAY, int(g["tray"])
    else:
        target, target_ray = Target(g["target"].upper()), None
    return Move(MoveKind.CARD, index, card, source, depth, end, target, target_ray)


@settings(max_examples=1500, deadline=None)
@given(_TOKENS)
def test_a_card_move_reads_as_the_oracle_reads_it_and_only_where_the_grammar_matches(
    token: str,
) -> None:
    """``Move.parse_card_move`` takes apart what the grammar's CARD_MOVE matches whole,
    every field as an independent reading gives it, and refuses anything else."""
    expected = _oracle(token)
    assert (expected is not None) == bool(_GRAMMAR_CARD_MOVE.fullmatch(token)), token
    if expected is None:
        with pytest.raises(InvalidMoveError):
            Move.parse_card_move(token)
        return
    move = Move.parse_card_move(token)
    assert move == expected and type(move) is Move
    assert [type(field) for field in move] == [type(field) for field in expected]


@pytest.mark.parametrize(
    "token",
    [
        *("QD>K", "r5:QD>K", "R5>A", "c2:9S>A", "A:4C>K", "QD>r3", "k>a", "10\u2665>A"),
        *("th>a2", "r13>r1", "r05>A", "r100>A", "w>A", "w.L:3S>A", "r5.2>A", "c1.R>K"),
    ],
)
def test_every_form_of_card_move_is_read(token: str) -> None:
    assert Move.parse_card_move(token) == _oracle(token)


def test_unreadable_moves_raise_invalid_move_error() -> None:
    for text in ("", "r9:AD", "r9:AD>Q", "r9:AD>A extra", "open x", "deal 1S", "gather"):
        with pytest.raises(InvalidMoveError):
            Move.parse(text)


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
@pytest.mark.parametrize("deal", [0, 1, 42, 20261129])
def test_listed_moves_are_canonical_and_round_trip_their_text(variant: str, deal: int) -> None:
    board = Board(variant, deal=deal)
    rng = random.Random(deal)
    steps = 0
    for _ in random_playout(board, rng, max_moves=300):
        steps += 1
        if steps % 7:
            continue
        for move in board.legal_moves():
            assert Move.parse(str(move)) == move
            assert board.canonical(move) == move


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_canonical_form_of_every_long_form_is_the_listed_move(variant: str) -> None:
    board = Board(variant, deal=42)
    rng = random.Random(7)
    for _ in random_playout(board, rng, max_moves=200):
        listed = {str(m) for m in board.legal_moves()}
        for move in board.legal_moves():
            if move.kind is not MoveKind.CARD:
                continue
            long = _long_form(board, move)
            if long is not None:
                assert str(board.canonical(long)) in listed


def _long_form(board: Board, move: Move) -> Move | None:
    """The move with every position written (depth for rays, end for rows)."""
    if move.source is Place.RAY:
        assert move.index is not None
        ray = board.rays[move.index - 1]
        if move.depth is not None:
            return move
        return move._replace(depth=len(ray) - _outermost(ray, move.card))
    if move.source in (Place.CLOUD, Place.WIND):
        if move.end is not None:
            return move
        row = board.wind_row if move.source is Place.WIND else board.clouds[move.index - 1]
        assert row is not None
        end = End.LEFT if row[0] == move.card else End.RIGHT
        return move._replace(end=end)
    return None


def _outermost(ray: list[Card], card: Card | None) -> int:
    return max(i for i, c in enumerate(ray) if c == card)


def test_a2_is_listed_only_where_the_first_pile_takes_the_card_too() -> None:
    board = play(Board("sun-3", deal=0), "deal r9:AD>A")
    texts = legal_texts(board)
    assert "r13:AD>A" in texts and "r13:AD>A2" not in texts
    board = play(Board("sun-3", deal=0), "deal")
    texts = legal_texts(board)
    assert {"r9:AD>A", "r9:AD>A2", "r13:AD>A", "r13:AD>A2"} <= set(texts)


def test_a_written_move_is_checked_whole_before_anything_changes() -> None:
    board = deal_all(Board("sun", deal=42))
    before = board.key()
    for text in ("r1.9:AS>A", "c1>A", "w>A", "A:AS>K", "r1:KS>r2", "open 14"):
        with pytest.raises(IllegalMoveError):
            board.push_text(text)
        assert board.key() == before


def test_shortest_writes_the_bare_card_only_where_it_reads_the_same() -> None:
    """``Board.shortest`` gives what a person would write: the bare card where only one
    copy is playable, the full form where two copies are (SPEC 5.2)."""
    board = Board("sun", deal=20261129)
    board.push(Move.parse("deal"))
    assert str(board.shortest(Move.parse("r1:AC>A"))) == "AC>A"
    # both aces of spades are playable (rays 8 and 9): the bare card would be ambiguous,
    # and the source alone reads the same
    assert str(board.shortest(Move.parse("r8:AS>A"))) == "r8>A"
    assert board.shortest(Move.parse("deal")) == Move.parse("deal")
