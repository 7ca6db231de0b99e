"""Replaying logs against the rules (SPEC 3-5): tags, moves, physical games and results.

Every error is checked for what a player needs: the game, the move index, the line and
column, the move as written, and a sentence saying why.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from notationkit import (
    deck_with_top,
    physical_moves,
    random_playout,
    staircase_deck,
    staircase_moves,
)

from sunlog.engine.board import Board, Stage, Status, Variant
from sunlog.engine.deal import deal_deck
from sunlog.engine.moves import Move, MoveKind
from sunlog.notation import parse_games, write_game
from sunlog.notation.errors import LogError, LogRuleError
from sunlog.notation.game import Game, GameMove
from sunlog.notation.replay import replay

DATA = Path(__file__).parent / "data"
MAX = 2**64 - 1


def one(text: str) -> Game:
    (game,) = parse_games(text)
    return game


def rule_error(text: str) -> LogError:
    game = one(text)
    assert game.error is None, game.error
    error = replay(game).error
    assert isinstance(error, LogRuleError), error
    return error


def deck_text(deck: list[object]) -> str:
    return " ".join(map(str, deck))


def short_deal(deal: int, *, first: int = 0) -> str:
    """The 13 cards of deal ``first + 1`` of deal number ``deal``."""
    return deck_text(deal_deck(deal)[first * 13 : (first + 1) * 13])


# -------------------------------------------------------------------- tags


def test_deal_and_deck_may_both_be_given_when_they_agree() -> None:
    game = one(f'[Deal "1"]\n[Deck "{deck_text(deal_deck(1))}"]\ndeal *')
    result = replay(game)
    assert result.valid
    assert result.board.deal_number == 1
    assert result.board.deck == deal_deck(1)


def test_deal_and_deck_that_disagree() -> None:
    error = rule_error(f'[Deal "1"]\n[Event "x"]\n  [Deck "{deck_text(deal_deck(2))}"]\ndeal *')
    assert error.message == "the Deck tag is not the deck of deal 1"
    assert (error.line, error.column, error.move, error.game) == (3, 3, None, 1)


def test_deck_alone_gives_the_deck_and_a_bare_deal() -> None:
    deck = deal_deck(7)
    result = replay(one(f'[Deck "{deck_text(deck)}"]\ndeal deal *'))
    assert result.valid
    assert result.board.stock == deck[26:]
    assert result.board.deal_number is None


def test_deck_may_use_any_card_spelling() -> None:
    spelled = [str(c).replace("10", "t").lower() for c in deal_deck(3)]
    assert replay(one(f'[Deal "3"]\n[Deck "{" ".join(spelled)}"]\ndeal *')).valid


@pytest.mark.parametrize(
    ("cut", "extra", "message"),
    [
        (0, ["AS"], "a deck has 104 cards, not 105"),
        (1, [], "a deck has 104 cards, not 103"),
        # deal 1 starts with 6D: putting AS there makes three AS and one 6D
        (1, ["AS"], "a deck holds every card exactly twice; here: AS ×3, 6D ×1"),
    ],
)
def test_deck_with_the_wrong_cards(cut: int, extra: list[str], message: str) -> None:
    deck = extra + [str(c) for c in deal_deck(1)][cut:]
    error = rule_error(f'[Deck "{" ".join(deck)}"]\ndeal *')
    assert error.message == message
    assert (error.line, error.column, error.move) == (1, 1, None)


def test_deck_with_a_word_that_is_no_card() -> None:
    deck = [str(c) for c in deal_deck(1)]
    deck[50] = "11H"
    error = rule_error(f'[Event "e"]\n[Deck "{" ".join(deck)}"]\ndeal *')
    assert error.message == "in the Deck tag: expected a card like QD or 10H, found '11H'"
    assert (error.line, error.column) == (2, 1)


@pytest.mark.parametrize("value", ["12a", "-1", " 1", "1 ", "0x10", "", "1e3", "١٢", str(MAX + 1)])
def test_deal_tag_must_be_decimal_digits_below_2_64(value: str) -> None:
    error = rule_error(f'[Deal "{value}"]\ndeal *')
    refused = f"the Deal tag must be a deal number (decimal digits, below 2^64), not {value!r}"
    meant = ': write it without spaces, [Deal "1"]' if value.strip() == "1" else ""
    assert error.message == refused + meant
    assert (error.line, error.column, error.move) == (1, 1, None)


@pytest.mark.parametrize("value", ["0", "007", str(MAX)])
def test_deal_tag_limits(value: str) -> None:
    result = replay(one(f'[Deal "{value}"]\ndeal *'))
    assert result.valid
    assert result.board.deal_number == int(value)


@pytest.mark.parametrize("name", ["Variant", "Deal", "Deck", "Result"])
def test_tags_with_meaning_appear_once(name: str) -> None:
    value = {
        "Variant": "sun",
        "Deal": "1",
        "Deck": deck_text(deal_deck(1)),
        "Result": "*",
    }[name]
    text = f'[{name} "{value}"]\n[Event "between"]\n[{name} "{value}"]\ndeal *'
    error = rule_error(text)
    assert error.message == f"the {name} tag may appear only once"
    assert (error.line, error.column, error.game) == (3, 1, 1)


def test_other_tags_may_repeat_and_keep_their_order() -> None:
    game = one('[Player "A"]\n[Deal "1"]\n[Player "B"]\ndeal *')
    assert replay(game).valid
    assert [(t.name, t.value) for t in game.tags] == [
        ("Player", "A"),
        ("Deal", "1"),
        ("Player", "B"),
    ]


@pytest.mark.parametrize("value", ["sun-4", "sun2", "", "solitaire"])
def test_unknown_variant(value: str) -> None:
    error = rule_error(f'[Deal "1"]\n[Variant "{value}"]\ndeal *')
    assert error.message == f"unknown variant {value!r}: expected sun, sun-2 or sun-3"
    assert (error.line, error.column) == (2, 1)


@pytest.mark.parametrize(
    ("value", "variant"),
    [("sun", Variant.SUN), ("sun-2", Variant.SUN2), ("SUN-3", Variant.SUN3), (None, Variant.SUN)],
)
def test_variant_tag_case_insensitive_and_sun_by_default(
    value: str | None, variant: Variant
) -> None:
    tag = f'[Variant "{value}"]\n' if value is not None else ""
    result = replay(one(f'{tag}[Deal "1"]\ndeal *'))
    assert result.valid
    assert result.board.variant is variant


# ------------------------------------------------------------------ results


def test_result_tag_and_token_that_disagree() -> None:
    error = rule_error('[Result "won"]\n[Deal "1"]\ndeal\n  *\n')
    assert error.message == "the result token says * but the Result tag says won"
    assert (error.line, error.column, error.move) == (4, 3, None)
    error = rule_error('[Result "*"]\n[Deal "1"]\ndeal lost')
    assert error.message == "the result token says lost but the Result tag says *"


def test_result_tag_must_be_a_result() -> None:
    error = rule_error('[Deal "1"]\n[Result "draw"]\ndeal *')
    assert error.message == "the Result tag must be won, lost or *, not 'draw'"
    assert (error.line, error.column) == (2, 1)


def test_result_tag_alone_is_the_claim_and_is_checked() -> None:
    error = rule_error('[Result "won"]\n[Deal "1"]\ndeal\n')
    assert error.message == "the log says won, but only 0 of the 104 cards are on the foundations"
    assert (error.line, error.column) == (1, 1)  # at the Result tag: there is no token


def test_a_false_won() -> None:
    error = rule_error('[Deal "1"]\ndeal r5:KC>K\nwon\n')
    assert error.message == "the log says won, but only 1 of the 104 cards is on the foundations"
    assert (error.line, error.column, error.move, error.game) == (3, 1, None, 1)


def test_a_false_lost_before_the_wind() -> None:
    error = rule_error('[Deal "1"]\ndeal lost')
    assert error.message == (
        "the log says lost, but a game is lost only after the wind, which has not blown"
    )
    assert (error.line, error.column) == (2, 6)


def lost_game(variant: str) -> tuple[Board, list[Move]]:
    """A real game of ``variant`` played at random until it is lost."""
    for seed in range(200):
        board = Board(variant, deal=1000 + seed)
        moves = list(random_playout(board, random.Random(seed), max_moves=600))
        if board.status() is Status.LOST:
            return board, moves
    raise AssertionError("no lost game found")


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_a_true_lost_and_a_false_one_one_move_earlier(variant: str) -> None:
    board, moves = lost_game(variant)
    text = write_game(Game(moves=_game_moves(moves)), result="lost")
    header = f'[Variant "{variant}"]\n[Deal "{board.deal_number}"]\n'
    assert replay(one(header + text)).valid
    # Undo moves until the position is no longer lost: claiming lost there is false.
    while board.status() is Status.LOST:
        board.pop()
        moves.pop()
    if board.stage is Stage.WIND:
        expected = "the log says lost, but a card can still reach a foundation"
    else:
        expected = "the log says lost, but a game is lost only after the wind, which has not blown"
    text = write_game(Game(moves=_game_moves(moves)), result="lost")
    assert rule_error(header + text).message == expected


def _game_moves(moves: list[Move]) -> tuple[GameMove, ...]:
    return Game.of_moves(moves).moves


def test_lost_fixtures_are_lost() -> None:
    for name in ("physical.sun", "utf8-bom.sun"):
        with (DATA / name).open(encoding="utf-8") as handle:
            (game,) = parse_games(handle.read())
        result = replay(game)
        assert result.valid, (name, result.error)
        assert game.claimed_result == "lost"
        assert result.board.status() is Status.LOST
        assert result.board.stage is Stage.WIND


def test_won_fixture_is_a_real_won_game() -> None:
    (game,) = parse_games((DATA / "won-greedy.sun").read_text(encoding="utf-8"))
    result = replay(game)
    assert result.valid, result.error
    assert result.board.status() is Status.WON
    assert result.board.on_foundations() == 104
    # one move short of the end, "won" is false
    short = Game(tags=game.tags, moves=game.moves[:-1], result="won")
    error = replay(short).error
    assert error is not None
    assert error.message == "the log says won, but only 103 of the 104 cards are on the foundations"


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_staircase_decks_are_won_by_dealing_straight_to_the_foundations(variant: str) -> None:
    deck = staircase_deck(variant)
    text = f'[Variant "{variant}"]\n[Deck "{deck_text(deck)}"]\n' + " ".join(
        staircase_moves(variant)
    )
    result = replay(one(text + "\nwon"))
    assert result.valid, result.error
    assert result.moves == 8 * 14
    assert result.board.status() is Status.WON
    error = rule_error(text + "\nlost")
    assert error.message == "the log says lost, but all 104 cards are on the foundations: it is won"
    assert replay(one(text + "\n*")).valid  # unfinished or abandoned: true at any point


def test_no_move_after_a_win() -> None:
    deck = staircase_deck("sun")
    text = f'[Deck "{deck_text(deck)}"]\n' + " ".join(staircase_moves("sun")) + "\nA:KS>K\nwon"
    error = rule_error(text)
    assert error.message == "the game is won: no move is legal"
    assert (error.move, error.text) == (113, "A:KS>K")


# ----------------------------------------------------------- physical games


def test_physical_game_names_its_deals_and_its_wind_row() -> None:
    (game,) = parse_games((DATA / "physical.sun").read_text(encoding="utf-8"))
    assert game.tag("Deal") is None and game.tag("Deck") is None
    deals = [gm.move for gm in game.moves if gm.move.kind is MoveKind.DEAL]
    assert len(deals) == 8 and all(d.cards is not None and len(d.cards) == 13 for d in deals)
    (wind,) = [gm.move for gm in game.moves if gm.move.kind is MoveKind.WIND]
    assert wind.cards is not None
    result = replay(game, canonical=True)
    assert result.valid, result.error
    assert result.canonical is not None
    # without a deck the writer must keep the named cards
    assert [str(m) for m in result.canonical if m.kind is MoveKind.DEAL] == [str(d) for d in deals]
    assert [m for m in result.canonical if m.kind is MoveKind.WIND] == [wind]


def test_physical_stock_is_null_in_json_until_the_8th_deal() -> None:
    board = Board("sun", deal=5)
    moves = list(random_playout(board, random.Random(5), max_moves=40))
    named = physical_moves(moves, board)
    game = one(write_game(Game(moves=_game_moves(named))))
    stocks = []
    for n in range(len(game.moves) + 1):
        result = replay(game, upto=n)
        assert result.valid
        stocks.append((result.board.deals, result.board.to_json()["stock"]))
    assert {stock is None for deals, stock in stocks if deals < 8} == {True}
    assert [stock for deals, stock in stocks if deals == 8 and stock != []] == []
    assert any(deals == 8 for deals, _ in stocks)


def test_physical_game_with_a_third_copy_of_a_card() -> None:
    text = "deal AS AS 2C 2C 3C 3C 4C 4C 5C 5C 6C 6C 7C\n{ fine so far }\nr1:AS>A\n"
    text += "deal 2H 2H 3H AS 3H 4H 4H 5H 5H 6H 6H 7H 7H *"
    error = rule_error(text)
    assert error.message == (
        "deal 2 names a third AS: there are only two of each card; if a new game begins here, "
        "end the one before with its result token (won, lost or *) or begin this one with its "
        "tags"
    )
    assert (
        (error.line, error.column, error.move, error.text)
        == (
            4,
            15,  # the caret under the third AS, not under deal
            3,
            text.splitlines()[3][:-2],
        )
    )


def test_physical_game_needs_named_deals_and_a_named_wind() -> None:
    error = rule_error('[Event "no deck"]\ndeal *')
    assert error.message == "the deck is not known (no Deal or Deck tag): name the 13 cards dealt"
    assert (error.line, error.column, error.move, error.text) == (2, 1, 1, "deal")
    board = Board("sun", deal=9)
    moves = list(random_playout(board, random.Random(9), max_moves=500))
    assert board.stage is Stage.WIND
    named = physical_moves(moves, board)
    cut = next(i for i, m in enumerate(named) if m.kind is MoveKind.WIND)
    bare = [*named[:cut], Move.wind()]
    error = rule_error(write_game(Game(moves=_game_moves(bare))))
    assert error.message.startswith("this game has no Deal tag, so the wind row must be named: ")
    assert error.move == cut + 1


def test_named_deal_is_checked_against_the_deal_tag() -> None:
    cards = short_deal(1).split()
    cards[12] = "KD"
    error = rule_error(f'[Deal "1"]\ndeal {" ".join(cards)} *')
    assert error.message == (
        f"deal 1 names KD for ray 13, but the deck deals KH there (this deal is {short_deal(1)})"
    )
    assert (error.move, error.line, error.column) == (1, 2, 43)  # at KD, ray 13's card
    assert replay(one(f'[Deal "1"]\ndeal {short_deal(1)} deal {short_deal(1, first=1)} *')).valid


def test_named_wind_row_must_hold_exactly_the_collected_cards() -> None:
    board = Board("sun", deal=11)
    moves = list(random_playout(board, random.Random(3), max_moves=500))
    assert board.stage is Stage.WIND
    cut = next(i for i, m in enumerate(moves) if m.kind is MoveKind.WIND)
    named = physical_moves(moves, board)[cut]
    assert named.cards is not None
    row = list(named.cards)
    header = '[Deal "11"]\n'
    played = moves[:cut]
    # the player's own order is allowed, even with a Deal tag
    reordered = Move.wind(row[::-1])
    text = write_game(Game(moves=_game_moves([*played, reordered])))
    assert replay(one(header + text)).valid
    # the last card replaced by another: one missing, one too many
    other = next(c for c in row if c != row[-1])
    swapped = Move.wind([*row[:-1], other])
    text = write_game(Game(moves=_game_moves([*played, swapped])))
    error = rule_error(header + text)
    assert error.message == (
        f"the wind row must hold exactly the {len(row)} collected cards; "
        f"missing {row[-1]}; not collected {other}"
    )
    assert error.move == cut + 1


# ------------------------------------------------------- move errors


def test_short_form_ambiguity_names_the_longer_forms() -> None:
    deck = deck_with_top(["KS", "KS", "2C", "2C", "3C", "3C", "4C", "4C", "5C", "5C", "6C"])
    header = f'[Deck "{deck_text(deck)}"]\n'
    error = rule_error(header + "deal\n  KS>K *")
    assert error.message.startswith("KS>K can be read 2 ways with different results: write ")
    assert (error.line, error.column, error.move, error.text) == (3, 3, 2, "KS>K")
    forms = re.findall(r"\S+>K", error.message.split("write ", 1)[1])
    assert len(forms) == 2
    boards = []
    for form in forms:  # each longer form replays, and they lead to different positions
        result = replay(one(header + f"deal {form} *"))
        assert result.valid
        boards.append(result.board.key())
    assert boards[0] != boards[1]
    assert {f.split(":")[0].split(".")[0] for f in forms} == {"r1", "r2"}


def test_a_short_form_with_one_reading_is_accepted() -> None:
    result = replay(one('[Deal "1"]\ndeal KC>K r13>K *'), canonical=True)
    assert result.valid
    assert [str(m) for m in result.canonical or ()] == ["deal", "r5:KC>K", "r13:KH>K"]


def test_rule_errors_carry_game_move_line_column_and_text() -> None:
    text = '[Deal "1"]\ndeal *\n[Deal "1"]\n{ c }\ndeal\n\n  r5:kc>k   r4:8S>K *'
    first, second = parse_games(text)
    assert replay(first).valid
    error = replay(second).error
    assert isinstance(error, LogRuleError)
    assert (error.game, error.move, error.line, error.column, error.text) == (
        2,
        3,
        7,
        13,
        "r4:8S>K",
    )
    assert (
        error.message == "8S cannot start the kings pile of spades: an empty pile takes only a king"
    )
    assert str(error) == (
        "7:13: move 3 'r4:8S>K': "
        "8S cannot start the kings pile of spades: an empty pile takes only a king"
    )
    assert error.to_json() == {
        "move": 3,
        "line": 7,
        "column": 13,
        "message": "8S cannot start the kings pile of spades: an empty pile takes only a king",
        "code": "illegal-move",
    }


def test_replay_stops_at_the_first_illegal_move() -> None:
    result = replay(one('[Deal "1"]\ndeal r1:AS>A r5:KC>K *'))
    assert result.moves == 1
    assert result.board.move_count == 1
    assert result.error is not None and result.error.move == 2


def test_replay_upto_stops_early_and_does_not_check_the_result() -> None:
    game = one('[Deal "1"]\ndeal r5:KC>K deal won')
    result = replay(game, upto=2)
    assert result.valid
    assert result.moves == 2
    assert result.board.deals == 1
    assert not replay(game).valid


def test_replay_of_a_game_with_a_tag_error_plays_no_move() -> None:
    result = replay(one('[Deal "x"]\ndeal *'))
    assert result.moves == 0
    assert result.board.move_count == 0
