"""The recording session (sunlog/notation/session.py): moves checked as check checks them,
the log's text valid after every accepted move, undo, and the result written at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from sunlog.engine.board import Status, Variant
from sunlog.engine.moves import MoveKind
from sunlog.notation import parse_games
from sunlog.notation.replay import replay
from sunlog.notation.session import MAX_TYPED_CHARS, Session, SessionError, Unfinished

ROOT = Path(__file__).resolve().parent.parent
DEAL = 20261129
PHYSICAL_DEAL = "deal 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 8C"


def replayed_moves(text: str) -> list[str]:
    """The moves a log replays to, as written; the log must be valid."""
    (game,) = parse_games(text)
    result = replay(game)
    assert result.error is None, result.error
    return [gm.text for gm in game.moves]


def test_a_new_game_is_a_valid_log_with_its_tags_and_no_move() -> None:
    session = Session.new(Variant.SUN2, DEAL)
    assert session.text == f'[Variant "sun-2"]\n[Deal "{DEAL}"]\n\n'
    assert replayed_moves(session.text) == []
    assert Session.new().text == '[Variant "sun"]\n\n'


def test_accepted_moves_join_the_text_as_typed() -> None:
    session = Session.new(deal=DEAL)
    played = session.play("  deal  ")
    assert [gm.text for gm in played.moves] == ["deal"] and played.error is None
    played = session.play("r1:ac>a   R8:AS>A!  {two aces}")
    assert played.written == "r1:ac>a   R8:AS>A!  {two aces}"
    assert session.text.endswith("deal\nr1:ac>a   R8:AS>A!  {two aces}\n")
    assert replayed_moves(session.text) == ["deal", "r1:ac>a", "R8:AS>A"]
    assert session.moves[-1].comments == ("two aces",)


def test_canonical_writes_the_canonical_forms() -> None:
    session = Session.new(deal=DEAL)
    session.play("deal")
    played = session.play("AC>A r8>A? {mine}", canonical=True)
    assert played.written == "r1:AC>A r8:AS>A? { mine }"
    assert replayed_moves(session.text)[-2:] == ["r1:AC>A", "r8:AS>A"]


def test_an_illegal_move_is_refused_with_checks_message_and_nothing_changes() -> None:
    session = Session.new(deal=DEAL)
    session.play("deal")
    before = session.text
    played = session.play("r8:2S>A")
    assert played.moves == () and played.written == ""
    assert session.text == before
    assert played.error is not None
    assert (played.error.move, played.error.text, played.error.column) == (2, "r8:2S>A", 1)
    # the same words as check gives for the same log
    (game,) = parse_games(before + "r8:2S>A\n")
    expected = replay(game).error
    assert expected is not None and played.error.message == expected.message


def test_an_unreadable_move_is_refused_at_its_column_in_the_typed_line() -> None:
    session = Session.new(deal=DEAL)
    session.play("deal")
    played = session.play("r1:AX>A")
    assert played.moves == ()
    assert played.error is not None and played.error.line is None
    assert played.error.move == 2 and played.error.column is not None
    assert "AX" in played.error.message
    assert replayed_moves(session.text) == ["deal"]


def test_moves_before_a_fault_in_the_line_are_kept_the_rest_refused() -> None:
    session = Session.new(deal=DEAL)
    session.play("deal")
    played = session.play("r1:AC>A r8:AS>A r8:2S>A r11:KH>K")
    assert [gm.text for gm in played.moves] == ["r1:AC>A", "r8:AS>A"]
    assert played.written == "r1:AC>A r8:AS>A"
    assert played.error is not None and played.error.move == 4
    assert played.error.column == len("r1:AC>A r8:AS>A ") + 1
    assert replayed_moves(session.text) == ["deal", "r1:AC>A", "r8:AS>A"]


@pytest.mark.parametrize("typed", ["won", "deal *", '[Deal "1"]', "lost"])
def test_a_result_or_a_tag_cannot_be_typed(typed: str) -> None:
    session = Session.new(deal=DEAL)
    before = session.text
    played = session.play(typed)
    assert played.moves == () and played.error is not None
    assert "record writes the result token itself" in played.error.message
    assert session.text == before


def test_a_too_long_line_is_refused() -> None:
    with pytest.raises(SessionError, match="at most"):
        Session.new(deal=DEAL).play("deal " * (MAX_TYPED_CHARS // 5 + 1))


def test_undo_takes_back_the_last_move_and_its_number_and_comments() -> None:
    session = Session(f'[Deal "{DEAL}"]\n1. deal 2. r1:AC>A {{first}} 3. r8:AS>A!\n')
    assert session.undo().text == "r8:AS>A"
    assert session.text == f'[Deal "{DEAL}"]\n1. deal 2. r1:AC>A {{first}}\n'
    assert session.undo().text == "r1:AC>A"
    assert session.undo().text == "deal"
    assert session.text == f'[Deal "{DEAL}"]\n'
    assert session.board.move_count == 0
    with pytest.raises(SessionError, match="no move to take back"):
        session.undo()


def test_undo_of_several_moves_typed_on_one_line_takes_one_at_a_time() -> None:
    session = Session.new(deal=DEAL)
    session.play("deal r1:AC>A r8:AS>A")
    session.undo()
    assert replayed_moves(session.text) == ["deal", "r1:AC>A"]
    session.play("r9:AS>A")
    assert replayed_moves(session.text) == ["deal", "r1:AC>A", "r9:AS>A"]


def test_going_on_with_a_log_takes_off_its_star() -> None:
    session = Session(f'[Deal "{DEAL}"]\n\ndeal r1:AC>A\n*\n')
    assert session.text == f'[Deal "{DEAL}"]\n\ndeal r1:AC>A\n'
    assert session.board.move_count == 2
    session.play("r8:AS>A")
    assert replayed_moves(session.text) == ["deal", "r1:AC>A", "r8:AS>A"]


def test_a_log_that_is_not_valid_is_refused_with_its_error() -> None:
    from sunlog.notation.errors import LogError

    with pytest.raises(LogError, match="ray 8 is empty"):
        Session(f'[Deal "{DEAL}"]\ndeal r8:AS>A r8:2S>A\n')


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('[Deal "1"]\ndeal *\n[Deal "2"]\ndeal *\n', "holds 2 games"),
        ('[Deal "1"]\n[Result "*"]\ndeal\n', "Result tag"),
    ],
)
def test_logs_that_cannot_be_continued_say_why(text: str, why: str) -> None:
    with pytest.raises(SessionError, match=why):
        Session(text)


def test_a_finished_game_cannot_be_continued(tmp_path: object) -> None:
    from pathlib import Path

    won = (Path(__file__).resolve().parent.parent / "samples" / "won-sun.sun").read_text()
    with pytest.raises(SessionError, match="the game is over: the log says won"):
        Session(won)


def test_the_game_ends_with_its_result_once_it_is_won() -> None:
    from pathlib import Path

    won = (Path(__file__).resolve().parent.parent / "samples" / "won-sun.sun").read_text()
    (game,) = parse_games(won)
    tags = "".join(f'[{t.name} "{t.value}"]\n' for t in game.tags)
    session = Session(tags + "\n")
    for gm in game.moves[:-1]:
        assert session.play(gm.text).error is None
        assert not session.over
    session.play(game.moves[-1].text)
    assert session.over and session.board.status() is Status.WON
    assert session.finish() == "won"
    assert session.text.endswith("\nwon\n")
    assert parse_games(session.text)[0].result == "won"
    assert replay(parse_games(session.text)[0]).error is None
    with pytest.raises(SessionError, match="over"):
        session.play("deal")


def test_finish_on_quit_ends_with_a_star() -> None:
    session = Session.new(deal=DEAL)
    session.play("deal")
    assert session.finish("*") == "*"
    assert session.text.endswith("deal\n*\n")
    assert replayed_moves(session.text) == ["deal"]


def test_a_physical_game_names_its_deals() -> None:
    session = Session.new()
    played = session.play(PHYSICAL_DEAL)
    assert played.error is None and played.unfinished is None
    assert session.board.deal_number is None and session.board.deals == 1


@pytest.mark.parametrize(
    "typed", ["deal", "deal 3H 5S", "deal 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C"]
)
def test_a_deal_of_real_cards_may_go_on_on_the_next_line(typed: str) -> None:
    session = Session.new()
    before = session.text
    played = session.play(typed)
    assert played.error is None and played.moves == ()
    named = len(typed.split()) - 1
    assert played.unfinished == Unfinished(typed, MoveKind.DEAL, 1, named, 13 - named)
    assert session.text == before  # nothing written until the deal is whole


def test_moves_before_an_unfinished_deal_are_written_and_the_deal_waits() -> None:
    session = Session.new()
    session.play(PHYSICAL_DEAL)
    played = session.play("r6:KH>K deal AS 9C")
    assert [gm.text for gm in played.moves] == ["r6:KH>K"]
    assert played.written == "r6:KH>K" and played.error is None
    assert played.unfinished == Unfinished("deal AS 9C", MoveKind.DEAL, 2, 2, 11)
    assert session.text.endswith(PHYSICAL_DEAL + "\nr6:KH>K\n")
    numbered = session.play("3. deal 2C")  # the move number goes with the deal
    assert numbered.moves == ()
    assert numbered.unfinished == Unfinished("3. deal 2C", MoveKind.DEAL, 2, 1, 12)


@pytest.mark.parametrize(
    ("typed", "kept", "column", "why"),
    [
        ("deal 3H 5S r1:3H>A", "deal 3H 5S", 12, "deal 1 names 2 cards, not 13"),
        ("deal 3H 5S 3H 3H 7D", "deal 3H 5S 3H", 15, "deal 1 names a third 3H"),
        ("r1:3H>A", None, 1, ""),  # no deal yet: nothing to keep
        ("deal 3H 5S 3H 3H 3H", "deal 3H 5S 3H", 15, "deal 1 names a third 3H"),
    ],
)
def test_a_deal_that_goes_wrong_keeps_its_good_cards_and_refuses_the_rest(
    typed: str, kept: str | None, column: int, why: str
) -> None:
    """Issue 32, 5: the cards before the fault are kept (the deal waits for the rest);
    the fault, at its own column, refuses the rest of the line."""
    session = Session.new()
    before = session.text
    played = session.play(typed)
    assert played.error is not None and played.error.column == column
    assert played.error.message.startswith(why)
    assert played.moves == () and session.text == before
    if kept is None:
        assert played.unfinished is None
        return
    named = len(kept.split()) - 1
    assert played.unfinished == Unfinished(kept, MoveKind.DEAL, 1, named, 13 - named)


def test_the_fourteenth_card_of_a_deal_is_refused_and_the_deal_of_13_written() -> None:
    session = Session.new()
    played = session.play(PHYSICAL_DEAL + " 9C r6:KH>K")
    assert [gm.text for gm in played.moves] == [PHYSICAL_DEAL]
    assert played.error is not None and played.unfinished is None
    assert played.error.column == len(PHYSICAL_DEAL) + 2  # at 9C
    assert "found '9C'" in played.error.message  # a card after the 13th: the next move
    assert replayed_moves(session.text) == [PHYSICAL_DEAL]


def test_fix_puts_one_card_of_the_last_deal_right() -> None:
    session = Session.new()
    session.play(PHYSICAL_DEAL)
    session.play("r6:KH>K")
    fixed = session.fix(2, "6s")  # ray 2 had 5S: it was 6S
    assert fixed.move.cards is not None and str(fixed.move.cards[1]) == "6S"
    assert replayed_moves(session.text) == [PHYSICAL_DEAL.replace("5S", "6S"), "r6:KH>K"]
    with pytest.raises(SessionError, match="deal 1 cannot name 2H as card 6: "):
        session.fix(6, "2H")  # KH went home from ray 6: a 2H there breaks that move
    with pytest.raises(SessionError, match="takes N from 1 to 13"):
        session.fix(14, "2H")
    with pytest.raises(SessionError, match="fix 1 ZZ: "):
        session.fix(1, "ZZ")
    assert replayed_moves(session.text)[0] == PHYSICAL_DEAL.replace("5S", "6S")


def test_fix_needs_a_deal_that_names_its_cards() -> None:
    with pytest.raises(SessionError, match="none does yet"):
        Session.new().fix(1, "AS")
    session = Session.new(deal=DEAL)
    session.play("deal")
    with pytest.raises(SessionError, match="none does yet"):
        session.fix(1, "AS")


def test_a_short_deal_where_the_deck_is_known_is_refused() -> None:
    played = Session.new(deal=DEAL).play("deal 3H")
    assert played.error is not None and played.unfinished is None
    assert played.error.message == (
        "deal 1 names 1 card, not 13 (one per ray): it ends at 3H, at the end of the line; "
        "the Deal tag fixes the deck: deal alone deals its cards"
    )


def test_what_ends_a_typed_line_is_the_end_of_the_line() -> None:
    session = Session.new(deal=DEAL)
    session.play("deal")
    error = session.play("open").error
    assert error is not None and str(error).endswith("found the end of the line")


def test_the_wind_of_real_cards_may_go_on_on_the_next_line() -> None:
    text = "".join((ROOT / "samples" / "physical.sun").read_text().splitlines(True)[:40])
    session = Session(text)
    assert session.play("wind").unfinished == Unfinished("wind", MoveKind.WIND, 0, 0, 5)
    played = session.play("wind KH QS")
    assert played.error is None
    assert played.unfinished == Unfinished("wind KH QS", MoveKind.WIND, 0, 2, 3)
    assert session.play("wind KH 5C").error is not None  # 5C was not collected
    assert session.play("wind KH KH").error is not None  # one KH is left to collect
    assert session.play("wind KH QS KS JS QH").error is None


def test_a_line_of_comments_only_is_written() -> None:
    session = Session.new(deal=DEAL)
    session.play("deal")
    played = session.play("{ the cat sat on ray 4 }")
    assert played.moves == () and played.error is None
    assert played.written == "{ the cat sat on ray 4 }"
    assert parse_games(session.text)[0].moves[-1].comments == ("the cat sat on ray 4",)


def test_errors_say_which_advice_only_a_whole_log_can_follow() -> None:
    """check keeps the advice (its words are in the message); the session drops it,
    branching on ``LogError.advice``, never on the words."""
    from sunlog.notation.errors import LogAdvice, LogErrorCode

    first = "deal AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    third = "deal 2H AS AS 3H 4H 5H 6H 7H 8H 9H 10H JH QH"
    (game,) = parse_games(f"{first}\n{third}\n")
    error = replay(game).error
    assert error is not None and error.advice == frozenset({LogAdvice.NEW_GAME})
    assert error.message.endswith(LogAdvice.NEW_GAME.words)
    (game,) = parse_games('[Deal "1"]\ndeal foo\n')
    error = game.error if game.error is not None else replay(game).error
    assert error is not None and error.code is LogErrorCode.UNKNOWN_WORD
    assert error.advice == frozenset({LogAdvice.RESULT})
    assert LogAdvice.RESULT.words in error.message
    session = Session.new(deal=DEAL)
    session.play("deal")
    refused = session.play("foo").error
    assert refused is not None and refused.code is LogErrorCode.UNKNOWN_WORD
    assert refused.advice == frozenset() and "result" not in refused.message
