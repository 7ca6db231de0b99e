"""End of game (SPEC 3.7): ``won``, ``lost`` and ``playing``, and what stays legal after."""

from __future__ import annotations

import random

import pytest
from enginekit import board_from_deals, cards, deal_all, down, legal_texts, named_wind, play, up
from enginekit import sunset as sunset_board
from notationkit import random_playout

from sunlog.engine.board import Board, Stage, Status
from sunlog.engine.cards import Card
from sunlog.engine.errors import IllegalMoveError
from sunlog.engine.moves import Move


def whole_game(variant: str) -> Board:
    """A deck of whole suits, one a deal, every card played as it comes: won in stage 1."""
    if variant == "sun-3":
        deals = [up(s) for s in "SSHHDDCC"]
        targets = ["A"] * 8
    else:
        deals = [f(s) for s in "SHDC" for f in (up, down)]
        targets = ["A", "K"] * 4
    board = board_from_deals(variant, deals)
    for deal, target in zip(deals, targets, strict=True):
        play(board, "deal " + " ".join(f"r{i}:{c}>{target}" for i, c in enumerate(deal, 1)))
    return board


def hearts_board(aces_top: str, kings_top: str) -> Board:
    """Sun after 8 deals: hearts aces pile A..aces_top, kings pile K..kings_top, the rest off."""
    board = board_from_deals("sun", [up("H"), down("H")])
    ups, downs = up("H", "A", aces_top), down("H", "K", kings_top)
    play(board, "deal " + " ".join(f"r{i}:{c}>A" for i, c in enumerate(ups, 1)))
    play(board, "deal " + " ".join(f"r{i}:{c}>K" for i, c in enumerate(downs, 1)))
    return deal_all(board)


# --------------------------------------------------------------------- won


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_all_104_cards_on_the_foundations_is_won_whenever_it_happens(variant: str) -> None:
    board = whole_game(variant)
    assert board.on_foundations() == 104 and board.deals == 8
    assert board.status() is Status.WON
    assert board.to_json()["status"] == "won"
    assert board.stage.json == 1  # won in stage 1: no wind needed


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_once_won_no_move_is_legal(variant: str) -> None:
    board = whole_game(variant)
    assert board.legal_moves() == []
    for text in ("gather 1", "wind", "open 3", "AS>A", "A:KS>K"):
        assert not board.is_legal(Move.parse(text))
        with pytest.raises(IllegalMoveError):
            board.push_text(text)
    with pytest.raises(IllegalMoveError, match="the game is won: no move is legal"):
        board.push_text("gather 1")


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_one_card_short_of_104_is_still_playing(variant: str) -> None:
    board = whole_game(variant)
    board.pop()
    assert board.on_foundations() == 103
    assert board.status() is Status.PLAYING
    assert len(board.legal_moves()) >= 1


# -------------------------------------------------------------------- playing


def test_before_the_wind_the_game_is_playing_even_with_no_card_move() -> None:
    board = play(sunset_board(), "gather 9 gather 10 gather 11 gather 12 gather 13")
    assert board.status() is Status.PLAYING
    assert Board("sun").status() is Status.PLAYING
    assert Board("sun", deal=3).to_json()["status"] == "playing"


# ---------------------------------------------------------------- lost: sun


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_lost_when_neither_wind_end_can_ever_reach_a_foundation(variant: str) -> None:
    # sunset: every suit's aces pile takes 9, its kings pile 5; no suit can shift
    board = named_wind(sunset_board(variant), "2C", "QD")
    assert board.status() is Status.LOST
    assert board.to_json()["status"] == "lost"
    assert board.legal_moves() == []


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
@pytest.mark.parametrize(("head", "tail"), [("9S", "QD"), ("2C", "5H"), ("5D", "9C")])
def test_playing_after_the_wind_while_an_end_fits_a_foundation(
    variant: str, head: str, tail: str
) -> None:
    board = named_wind(sunset_board(variant), head, tail)
    assert board.status() is Status.PLAYING
    assert any(t.startswith("w") for t in legal_texts(board))


def test_a_suit_whose_kings_top_is_one_above_its_aces_top_takes_any_of_its_cards() -> None:
    board = named_wind(hearts_board("7", "8"), "3H", "5C")
    assert board.status() is Status.PLAYING
    assert not any(t.startswith("w") for t in legal_texts(board))  # not directly...
    play(board, "A:7H>K A:6H>K A:5H>K A:4H>K A:3H>K")
    assert board.status() is Status.PLAYING
    play(board, "w:3H>A")  # ...but after shifting
    assert board.aces_pile(1)[-1] == cards("3H")[0]


def test_shifting_reaches_a_card_above_the_aces_top_too() -> None:
    board = named_wind(hearts_board("7", "8"), "5C", "JH")
    assert board.status() is Status.PLAYING
    play(board, "K:8H>A K:9H>A K:10H>A K:JH>A w:JH>K")
    assert board.kings_pile(1)[-1] == cards("JH")[0]


def test_no_shifting_with_a_gap_between_the_tops() -> None:
    # aces A..6H, kings K..8H: both 7H are off, so nothing can shift
    board = named_wind(hearts_board("6", "8"), "3H", "5C")
    assert board.status() is Status.LOST
    board = named_wind(hearts_board("6", "8"), "7H", "5C")
    assert board.status() is Status.PLAYING


def test_shifting_another_suit_does_not_help() -> None:
    board = named_wind(hearts_board("7", "8"), "5S", "9C")
    assert board.status() is Status.LOST


def test_after_lost_shifting_stays_legal_and_the_game_stays_lost() -> None:
    board = named_wind(hearts_board("7", "8"), "5S", "9C")
    assert set(legal_texts(board)) == {"A:7H>K", "K:8H>A"}
    play(board, "A:7H>K")
    assert board.status() is Status.LOST
    play(board, "A:6H>K K:6H>A K:7H>A")
    assert board.status() is Status.LOST
    assert board.aces_pile(1) == cards(up("H", "A", "7"))


# -------------------------------------------------------------- lost: sun-3


def sun3_row_with_ace_at(index: int) -> Board:
    """sun-3, nothing played, the wind row named with one ace at ``index`` (from the left).

    The seven other aces lie more than 40 cards from either end; only aces fit the empty
    foundations, so the game goes on exactly while 13 parked cards can dig that ace out.
    """
    board = play(deal_all(Board("sun-3", deal=11)), " ".join(f"gather {n}" for n in range(1, 14)))
    rest = [c for cloud in board.clouds for c in cloud]
    aces = [c for c in rest if c.rank == 1]
    others = [c for c in rest if c.rank != 1]
    row = [*others[:index], aces[0], *others[index:52], *aces[1:], *others[52:]]
    assert len(row) == 104 and row.index(aces[0]) == index
    play(board, "wind " + " ".join(map(str, row)))
    return board


def test_sun_3_is_playing_while_digging_with_13_empty_rays_reaches_an_ace() -> None:
    board = sun3_row_with_ace_at(13)
    assert board.status() is Status.PLAYING
    assert not any(">A" in t for t in legal_texts(board))
    for k in range(1, 14):
        play(board, f"w.L>r{k}")
    assert board.wind_row is not None and board.wind_row[0].rank == 1
    assert board.status() is Status.PLAYING
    play(board, "w.L>A")


def test_sun_3_is_lost_when_the_nearest_ace_is_deeper_than_the_empty_rays() -> None:
    board = sun3_row_with_ace_at(14)
    assert board.status() is Status.LOST
    # parking is still legal after lost, and the game stays lost
    assert any(">r" in t for t in legal_texts(board))
    play(board, "w.L>r1")
    assert board.status() is Status.LOST


def test_sun_3_digging_counts_the_empty_rays_left() -> None:
    board = sun3_row_with_ace_at(13)
    play(board, "w.R>r1")  # one ray used from the other end: 12 left, ace now 13 deep
    assert board.status() is Status.LOST
    board.pop()
    play(board, "w.L>r1")  # one card dug from the left: the ace is 12 deep, 12 rays left
    assert board.status() is Status.PLAYING


def test_sun_3_parked_card_that_fits_is_progress() -> None:
    board = sun3_row_with_ace_at(20)
    assert board.status() is Status.LOST
    board.pop()  # undo the wind; name a row with an ace at the right end instead
    assert board.wind_row is None
    named_wind(board, "", "AH")
    assert board.status() is Status.PLAYING
    play(board, "w:AH>r4")
    assert board.status() is Status.PLAYING
    play(board, "r4:AH>A")


def test_sun_3_digging_from_the_right_end_counts_too() -> None:
    board = sun3_row_with_ace_at(14)
    row = list(board.wind_row or [])
    board.pop()
    play(board, "wind " + " ".join(map(str, reversed(row))))
    assert board.status() is Status.LOST
    board.pop()
    row = row[1:] + row[:1]  # the ace moves to index 13
    play(board, "wind " + " ".join(map(str, reversed(row))))
    assert board.status() is Status.PLAYING


def _can_progress_as_written(board: Board) -> bool:
    """SPEC 3.7's test card by card, as the engine wrote it before it looked the cards
    up in a set: each playable card against the two piles of its suit."""
    row = board.wind_row or []
    found = board.foundations
    ends = [ray[-1] for ray in board.rays if ray]
    ends += [c for cloud in board.clouds if cloud for c in (cloud[0], cloud[-1])]

    def fits_aces(pile: list[Card], card: int) -> bool:
        return pile[-1] + 1 == card if pile else card % 13 == 0

    if board.variant.value == "sun-3":
        free = sum(1 for ray in board.rays if not ray)
        ends += row[: free + 1] + row[max(0, len(row) - free - 1) :]
        return any(fits_aces(found[c // 13], c) or fits_aces(found[c // 13 + 4], c) for c in ends)
    ends += (row[0], row[-1]) if row else ()
    for card in ends:
        aces, kings = found[card // 13], found[card // 13 + 4]
        if aces and kings and kings[-1] == aces[-1] + 1:
            return True
        if fits_aces(aces, card) or (kings[-1] - 1 == card if kings else card % 13 == 12):
            return True
    return False


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_the_status_after_the_wind_is_the_rule_card_by_card(variant: str) -> None:
    rng = random.Random(37)
    seen = {Status.PLAYING: 0, Status.LOST: 0}
    for _ in range(60):
        board = Board(variant, deal=rng.randrange(2**64))
        for _move in random_playout(board, rng, max_moves=600):  # each pushed already
            if board.stage is Stage.WIND and not board.is_won():
                expected = Status.PLAYING if _can_progress_as_written(board) else Status.LOST
                assert board.status() is expected
                seen[expected] += 1
    assert min(seen.values()) > 20
