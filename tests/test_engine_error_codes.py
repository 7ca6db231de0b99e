"""Every engine error carries a MoveErrorCode naming what was wrong, so that callers
branch on the code, never on the wording (which the messages' own tests pin)."""

from __future__ import annotations

import pickle

import pytest
from enginekit import board_from_deals, play

from sunlog.engine.board import Board
from sunlog.engine.errors import (
    AmbiguousMoveError,
    BoardArgumentError,
    IllegalMoveError,
    InvalidMoveError,
    MoveErrorCode,
)
from sunlog.engine.moves import Move, MoveKind

C = MoveErrorCode
D1 = "5H AS 9C 2S 4D KH QC 7S AD 3C JD 10H 6C"
D2 = "8S AH KD 3S 9H 4C 6D JS 2C QH 7C 5D 10S"


def code_of(board: Board, text: str) -> MoveErrorCode:
    with pytest.raises((IllegalMoveError, AmbiguousMoveError)) as info:
        board.push_text(text)
    return info.value.code  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", C.EMPTY_MOVE),
        ("open x", C.NO_RAY_NUMBER),
        ("r1:AS >A", C.SPACES_IN_CARD_MOVE),
        ("deal ZZ", C.BAD_CARD),
        ("r1:XX>A", C.NOT_A_MOVE),
        ("open " + "9" * 30, C.TOO_MANY_DIGITS),
    ],
)
def test_unreadable_moves_say_why_by_code(text: str, code: MoveErrorCode) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(text)
    assert info.value.code is code


def test_stage_one_faults_have_their_codes() -> None:
    board = board_from_deals("sun", [D1, D2])
    assert code_of(board, "r2:AS>A") is C.NOT_DEALT_YET
    assert code_of(board, "gather 1") is C.DEALS_NOT_DONE
    play(board, "deal")
    assert code_of(board, "r2:5H>A") is C.NOT_THERE
    assert code_of(board, "r2:AH>A") is C.IN_STOCK  # AH comes with the next deal
    assert code_of(board, "r1:5H>A") is C.NO_FIT
    assert code_of(board, "r14:5H>A") is C.NO_SUCH_RAY
    assert code_of(board, "c1:5H>A") is C.NO_SUCH_CLOUD
    assert code_of(board, "w:5H>A") is C.NO_WIND_ROW
    assert code_of(board, "AH>A") is C.IN_STOCK
    assert code_of(board, "r2:AS>K") is C.NO_FIT
    assert code_of(board, "r2:AS>A1") is C.WRONG_TARGET
    assert code_of(board, "r2:AS>r3") is C.WRONG_TARGET
    assert code_of(board, "deal 5H AS") is C.DEAL_SIZE
    assert code_of(board, "deal " + D1) is C.DEAL_MISMATCH
    play(board, "r2:AS>A")
    assert code_of(board, "r2>A") is C.EMPTY_PILE
    assert code_of(board, "A:AS>K") is C.BASE_NEVER_MOVES
    assert code_of(board, "AS>A") is C.NOT_PLAYABLE  # one AS is dealt: no deal left out


def test_a_physical_deal_names_its_cards() -> None:
    board = Board("sun")
    assert code_of(board, "deal") is C.DECK_UNKNOWN
    play(board, "deal AS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS")
    assert code_of(board, "AH>A") is C.NOT_PLAYABLE  # no deck: no stock to look in
    assert code_of(board, "r2:AH>A") is C.NOT_THERE
    assert code_of(board, "deal AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH") is C.THIRD_COPY


def test_sun2_and_sun3_refusals_have_their_codes() -> None:
    board = board_from_deals("sun-2", [D1, D2])
    assert code_of(board, "open 1") is C.NO_STAGE_2
    sun3 = board_from_deals("sun-3", [D1, D2])
    play(sun3, "deal")
    assert code_of(sun3, "r6:KH>K") is C.WRONG_TARGET
    assert code_of(sun3, "r1:5H>r2") is C.RAY_NOT_EMPTY


def test_the_game_won_and_the_wind_have_codes() -> None:
    from sunlog.play.solver import solve_deal

    won = solve_deal(3, "sun", max_nodes=20_000)
    assert won.line is not None
    board = Board("sun", deal=3)
    for move in won.line:
        board.push(move)
    assert code_of(board, "gather 13") is C.GAME_WON
    assert code_of(board, "wind") is C.GAME_WON


def test_an_ambiguous_short_form_has_the_ambiguous_code() -> None:
    error = AmbiguousMoveError("two ways", ("r1:AC>A", "r2:AC>A"))
    assert error.code is C.AMBIGUOUS
    twin = pickle.loads(pickle.dumps(IllegalMoveError("no", C.NO_FIT)))
    assert twin.code is C.NO_FIT and str(twin) == "no"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": None}, "a variant is sun, sun-2 or sun-3 .* not NoneType None"),
        ({"variant": "sun-4"}, "unknown variant 'sun-4'"),
        ({"deal": 1.5}, "a deal number is a whole number 0 to 2\\^64-1, not float 1.5"),
        ({"deal": True}, "a deal number is a whole number 0 to 2\\^64-1, not bool True"),
        ({"deal": "7"}, "not str '7'"),
        ({"deal": -1}, "a deal number is 0 to 2\\^64-1, not -1"),
        ({"deal": 2**64}, "a deal number is 0 to 2\\^64-1, not 18446744073709551616"),
        ({"deck": "AS 2S"}, "a deck is a sequence of 104 Cards, not str"),
        ({"deck": 5}, "a deck is a sequence of 104 Cards, not int"),
        ({"deck": list(range(104))}, "a deck holds Cards, not int 0"),
        ({"deck": []}, "a deck has 104 cards, not 0"),
    ],
)
def test_the_constructor_refuses_arguments_it_cannot_take(
    kwargs: dict[str, object], message: str
) -> None:
    variant = kwargs.pop("variant", "sun")
    with pytest.raises(BoardArgumentError, match=message):
        Board(variant, **kwargs)  # type: ignore[arg-type]


def test_a_deal_or_wind_naming_numbers_instead_of_cards_is_refused() -> None:
    """Move.deal refuses what is not a Card; a Move built field by field is refused by
    push, before anything is dealt."""
    with pytest.raises(InvalidMoveError, match="0 is not a Card") as made:
        Move.deal(tuple(range(13)))  # type: ignore[arg-type]
    assert made.value.code is C.NOT_A_CARD
    board = Board("sun")
    with pytest.raises(IllegalMoveError, match="a deal names cards, not int 0") as info:
        board.push(Move(MoveKind.DEAL, cards=tuple(range(13))))  # type: ignore[arg-type]
    assert info.value.code is C.NOT_A_CARD
    assert board.deals == 0 and board.move_count == 0
    dealt = Board("sun", deal=1)
    numbers = tuple(int(c) for c in dealt.deck[:13])  # type: ignore[index]
    with pytest.raises(IllegalMoveError, match="a deal names cards"):
        dealt.push(Move(MoveKind.DEAL, cards=numbers))  # type: ignore[arg-type]


def test_a_refusal_that_advises_a_move_carries_it_in_writes() -> None:
    """What the message advises writing is a field, so callers (the notation's hints)
    never look for the word "write" in it."""
    board = Board("sun", deal=1)
    board.push(Move.parse("deal"))
    with pytest.raises(IllegalMoveError) as caught:
        board.push(Move.parse("r2:KC>K"))
    assert caught.value.writes == ("r5:KC>K",)
    assert str(caught.value).endswith("KC is on ray 5: write r5:KC>K")
    with pytest.raises(IllegalMoveError) as caught:
        board.push(Move.parse("r5:KC>A"))
    assert caught.value.writes == ()
    three = Board("sun-3", deal=1)
    three.push(Move.parse("deal"))
    with pytest.raises(IllegalMoveError) as caught:
        three.push(Move.parse("r5:KC>K"))
    assert caught.value.writes == ("A", "A1", "A2")
