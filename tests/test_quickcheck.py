"""The quick lane of ``check`` (sunlog.notation.quickcheck) against the general way of checking.

The quick lane may only ever say "valid, n moves, result r", and only when the general
way (reader, then replay) says exactly that; on anything else it must step aside. These
tests hold it to both halves: it takes plain logs (so the fast path is really used) and
agrees with the general way on plain, decorated, damaged and random logs.
"""

from __future__ import annotations

import io
import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from notationkit import PIECES, VARIANTS, mutate, random_gen_game, real_logs, render

from sunlog.engine.board import Board
from sunlog.engine.moves import MoveKind
from sunlog.notation import read_games, write_game
from sunlog.notation.errors import LogError
from sunlog.notation.game import Game, Tag
from sunlog.notation.quickcheck import ValidGame, check_games, quick_check
from sunlog.notation.replay import replay
from sunlog.notation.terminals import SPACES
from sunlog.play.policies import play

#: Examples per property; raise it for a longer hunt: ``SUNLOG_FUZZ_EXAMPLES=5000 pytest ...``.
ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(
    max_examples=int(os.environ.get("SUNLOG_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def verdicts(read: Callable[[io.StringIO], Iterator[Game | ValidGame]], text: str) -> list[Any]:
    """(index, valid, moves, claimed result) per game of ``text`` as ``check`` reports it,
    reading with ``read``; the file's error last, if any."""
    out: list[Any] = []
    try:
        for item in read(io.StringIO(text)):
            if isinstance(item, ValidGame):
                out.append((item.index, True, item.moves, item.result))
            else:
                result = replay(item)
                claimed = item.result_claim if item.error is None else None
                out.append((item.index, result.valid, result.moves, claimed))
    except LogError as exc:
        out.append(("file", str(exc)))
    return out


def general(text: str) -> list[Any]:
    """The verdicts the general way: every game read whole, then replayed."""
    return verdicts(read_games, text)


def assert_agree(text: str) -> None:
    """Both ways give the same verdicts: a verdict of the quick lane is never wrong."""
    assert verdicts(check_games, text) == general(text)


def written(deal: int, variant: str, policy: str = "greedy", *, result: str = "*") -> str:
    board = play(deal, variant, policy)
    tags = (Tag("Variant", variant), Tag("Deal", str(deal)))
    return write_game(Game.of_moves(board.move_stack, tags), result=result)


# ------------------------------------------------------------ it takes plain logs


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_plain_logs_take_the_quick_lane_with_the_general_verdict(variant: str, policy: str) -> None:
    for deal in range(1, 6):
        text = written(deal, variant, policy)
        verdict = quick_check(text, 3)
        (_, valid, moves, claimed) = general(text)[0]
        assert valid
        assert verdict == ValidGame(3, moves, claimed)


def test_a_won_game_claimed_won_takes_the_quick_lane() -> None:
    deal = next(d for d in range(1, 50) if play(d, "sun", "lookahead").is_won())
    text = written(deal, "sun", "lookahead", result="won")
    verdict = quick_check(text)
    assert verdict is not None and verdict.result == "won"


def test_move_numbers_annotations_and_any_case_take_the_quick_lane() -> None:
    text = '[Deal "7"]\n1. DEAL 2. deal\n3. Deal 4. deal 5. deal 6. deal 7. deal 8. deal *\n'
    assert quick_check(text) == ValidGame(1, 8, "*")
    board = play(7, "sun", "greedy")
    moves = [str(m) for m in board.move_stack]
    card = next(i for i, m in enumerate(moves) if ">" in m)
    moves[card] = moves[card].upper() + "!?"
    numbered = " ".join(f"{i}. {m}" for i, m in enumerate(moves, 1))
    verdict = quick_check(f'[Deal "7"]\n{numbered}\n')
    assert verdict == ValidGame(1, len(moves), "*")
    assert general(f'[Deal "7"]\n{numbered}\n') == [(1, True, len(moves), "*")]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('[Deal "7"]\n1. { a comment } deal *', "a comment between number and move"),
        ('[Deal "7"]\n1. ; a comment\ndeal *', "a line comment between number and move"),
        ('[Deal "7"]\ndeal { never closed deal *', "a brace never closed"),
        ('[Deal "7"]\ndeal } deal *', "a stray closing brace"),
        ('[Deal "7"]\n[Event "{"] r1:XX>Q }"]\ndeal *', "a brace in a tag value is no comment"),
        ('[Deal "7"]\n[Event ";"] r1:XX>Q\ndeal *', "a ; in a tag value is no comment"),
        ('[Deal "7"]\n[Bad {x}\ndeal *', "a broken tag"),
        ('[Deal "7"]\ndeal\u2003deal *', "white space beyond ASCII"),
        ('[Deal "7"]\ndeal\vdeal *', "white space the grammar does not know"),
        ('[Deal "7"]\ndeal\x1cdeal *', "white space the grammar does not know"),
        ('[Deal "7"]\ndeal\xa0deal *', "white space the grammar does not know"),
        ('[Deal "7"]\ndeal\x85deal *', "white space the grammar does not know"),
        ('[Deal "7"]\nd\u00e9al *', "a letter beyond ASCII in a word"),
        ('[Deal "7"]\nw\u0131nd *', "a dotless i, which the grammar's WIND folds"),
        ('[Deal "7"]\ndeal\x00 *', "a control character in a word"),
        ('[Deal "7"]\n[Event "a \\x b"]\ndeal *', "an escape of neither quote nor backslash"),
        ('[Deal "7"]\n[Event "a \\\nb"]\ndeal *', "an escaped line break in a tag value"),
        ('[Deal "7"]\n1.{} deal *', "a comment joined to a move number"),
        ('[Deal "7"]\n1.2.deal *', "two move numbers joined"),
        ('[Deal "7"]\n1.5H *', "a card joined to a move number"),
        ('[Deal "7"]\n1.deal 2.deal.3.deal *', "a move number joined after a move"),
        ('[Deal "7"]\n1.deal 2 .deal *', "a move number's dot apart from it"),
        ('[Deal "7"]\n1.deal .2.deal *', "a dot before a move number"),
        ('[Deal "7"]\n' + "deal " * 8 + "open 1 !? *", "an annotation apart from its ray"),
        ('[Deal "7"]\n' + "deal " * 8 + "open! 1 *", "an annotated open keyword"),
        ('[Deal "7"]\n2. deal *', "a wrong move number"),
        ('[Deal "7"]\n1. *', "a move number without its move"),
        ('[Deal "7"]\n1. 2. deal *', "two move numbers"),
        ('[Deal "7"]\ndeal won', "a false result"),
        ('[Deal "7"]\n[Result "won"]\ndeal *', "a result tag that disagrees"),
        ('[Deal "7"]\n[Deal "8"]\ndeal *', "a tag twice"),
        ('[Variant "sun-4"]\n[Deal "7"]\ndeal *', "an unknown variant"),
        ("deal *", "a deal whose cards are not named"),
        ('[Deal "7"]\ndeal r1:AS>A *', "an illegal move"),
        ('[Deal "7"]\ndeal 9H *', "a card where a move should be"),
        ('[Deal "7"]\nopen 3 *', "a stage action out of turn"),
        ('[Deal "7"]\ndeal r1:AS>A!!! *', "three annotation marks"),
        ('[Deal "7"]\ndeal r1:AS>A ! *', "an annotation apart from its move"),
        ('[Deal "7"]\ndeal r1:AS>Ax *', "a word that is no move"),
        ('[Deal "7"]\ndeal deal[Event "x"] *', "a tag after the moves"),
    ],
)
def test_the_quick_lane_steps_aside(text: str, why: str) -> None:
    assert quick_check(text) is None, why
    assert_agree(text)


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ('[Deal "7"]\n[Event "a \\"b\\" \\\\ c"]\ndeal *', 1),
        ('[Annotator "\\\\"]\n[Deal "7"]\ndeal *', 1),
        ('[Deal "7"]\n1.deal 2.deal!? 3. deal *', 3),
        ('[Deal "7"]\n' + "deal " * 8 + "open 1!? *", 9),
        ('[Deal "7"]\n' + "deal " * 8 + "9.open 1! 10.gather 1?? *", 10),
    ],
)
def test_escapes_joined_numbers_and_annotated_rays_take_the_quick_lane(
    text: str, moves: int
) -> None:
    assert quick_check(text) == ValidGame(1, moves, "*")
    assert general(text) == [(1, True, moves, "*")]


@pytest.mark.parametrize("apart", [False, True])
def test_joined_numbers_beside_a_source_with_a_dot_take_the_quick_lane(apart: bool) -> None:
    """A cloud's end (c3.L:9D>A) holds a dot too: move numbers joined to their moves are
    then read word by word (the words are not split at each dot), and still agree."""
    board = play(97, "sun-2", "greedy")
    moves = write_game(Game.of_moves(board.move_stack, [Tag("Deal", "97")])).split("\n\n")[1]
    words = re.findall(r"(?:open|gather) \d+|\S+", moves)[:-1]  # each move, no result
    assert any(".L:" in w or ".R:" in w for w in words)
    numbered = " ".join(f"{i}.{' ' if apart else ''}{w}" for i, w in enumerate(words, 1))
    text = f'[Variant "sun-2"]\n[Deal "97"]\n{numbered}\n*\n'
    assert quick_check(text) == ValidGame(1, len(words), "*")
    assert general(text) == [(1, True, len(words), "*")]
    broken = text.replace(".L:", ". L:", 1).replace(".R:", ". R:", 1)
    assert quick_check(broken) is None
    assert_agree(broken)


def test_suit_symbols_and_text_beyond_ascii_in_tags_take_the_quick_lane() -> None:
    board = play(7, "sun", "greedy")
    moves = " ".join(str(m).replace("S", "\u2660").replace("H", "\u2661") for m in board.move_stack)
    text = f'[Event "caf\u00e9 \u2663"]\n[Deal "7"]\n{moves}\n*\n'
    assert "\u2660" in text and "\u2661" in text
    assert quick_check(text) == ValidGame(1, len(board.move_stack), "*")
    assert general(text) == [(1, True, len(board.move_stack), "*")]


def test_physical_games_name_their_cards_in_the_quick_lane() -> None:
    """Deals and the wind row named card by card (no Deal tag) take the quick lane."""
    text = (ROOT / "samples" / "physical.sun").read_text(encoding="utf-8")
    (expected,) = general(text)
    assert expected[1] and re.search(r"\bwind( [0-9TJQKA]+[SHDC]){2,}", text)
    assert quick_check(text) == ValidGame(*expected[:1], *expected[2:])


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda t: t.replace("deal ", "deal { c } ", 1), "a comment among a deal's cards"),
        (lambda t: t.replace("deal ", "deal! ", 1), "cards after an annotated deal"),
        (lambda t: re.sub(r"(deal [^ ]+) ", r"\1! ", t, count=1), "a card annotated mid-deal"),
        (lambda t: re.sub(r"(wind [^ ]+) ", r"\1?? ", t, count=1), "a card annotated mid-wind"),
        (lambda t: re.sub(r"(deal [^ ]+) ", r"\1 \1 ", t, count=1), "a card too many"),
        (lambda t: re.sub(r"(deal [^ ]+) [^ ]+ ", r"\1 ", t, count=1), "a card too few"),
        (lambda t: re.sub(r"(wind [^ ]+) ", r"\1 \1 ", t, count=1), "a wind row card too many"),
        (lambda t: t.replace("\ndeal ", "\n5H deal ", 1), "a card before any deal"),
    ],
)
def test_physical_games_step_aside_where_their_cards_are_wrong(
    change: Callable[[str], str], why: str
) -> None:
    text = (ROOT / "samples" / "physical.sun").read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text, why
    assert quick_check(changed) is None, why
    assert_agree(changed)


def test_a_deal_or_wind_annotated_after_its_last_card_takes_the_quick_lane() -> None:
    text = (ROOT / "samples" / "physical.sun").read_text(encoding="utf-8")
    changed = re.sub(r"(deal [^\n]*?[SHDC])\n", r"\1!\n", text, count=1)
    changed = re.sub(r"(wind [^\n]*?) (w:)", r"\1!? \2", changed, count=1)
    assert changed.count("!") == text.count("!") + 2
    (expected,) = general(changed)
    assert expected[1]
    assert quick_check(changed) == ValidGame(*expected[:1], *expected[2:])


def test_comments_of_both_kinds_take_the_quick_lane() -> None:
    text = (
        '{ before the tags }[Deal "7"] ; and\n[Event "{;}"]{ between }\n'
        "{ caf\u00e9, { not nested\n over lines }; won [x] {\n"
        "1. deal{}2. deal ;\n deal! { ; } deal?! {won} deal deal deal { * } deal *"
    )
    assert quick_check(text) == ValidGame(1, 8, "*")
    assert general(text) == [(1, True, 8, "*")]


def test_open_and_gather_take_their_ray_from_the_next_word() -> None:
    board = play(11, "sun", "greedy")
    text = written(11, "sun")
    assert any(m.kind.value == "open" for m in board.move_stack)
    assert quick_check(text) is not None
    assert re.search(r"\bopen 1\b", text)
    assert quick_check(re.sub(r"\bopen 1\b", "open\n 1", text)) is not None  # any spacing
    padded = re.sub(r"\bopen 1\b", "open 01", text)
    assert quick_check(padded) == quick_check(text)  # 01 reads as 1, as the grammar says
    assert general(padded)[0][1]


# ------------------------------------------------------------ logs as people write them

_SYMBOLS = {"S": "♠♤", "H": "♥♡", "D": "♦♢", "C": "♣♧"}


def people_log(deal: int, variant: str, rng: random.Random, *, mixed: bool) -> str:
    """A greedy game as a person writes it: short forms; ``mixed`` adds move numbers (apart
    or joined), suit symbols, any case, annotations, comments and an escaped tag value."""
    board = Board(variant, deal=deal)
    words = []
    for i, move in enumerate(play(deal, variant, "greedy").move_stack, 1):
        form = board.shortest(move) if not mixed or rng.random() < 0.7 else move
        board.push(move)
        word = str(form)
        if mixed:
            if form.card is not None and rng.random() < 0.3:
                suit = rng.choice(_SYMBOLS[str(form.card)[-1]])
                word = word.replace(str(form.card), str(form.card)[:-1] + suit, 1)
            word = word.lower() if rng.random() < 0.2 else word
            if rng.random() < 0.1:
                word += rng.choice(("!", "?", "!!", "??", "!?", "?!"))
            roll = rng.random()
            word = f"{i}.{word}" if roll < 0.15 else f"{i}. {word}" if roll < 0.3 else word
            if rng.random() < 0.05:
                word += rng.choice((" { a note }", " ; a line comment\n"))
        words.append(word)
    tags = [f'[Variant "{variant}"]', f'[Deal "{deal}"]']
    if mixed:
        tags.insert(rng.randint(0, 2), '[Annotator "a \\"quoted\\" \\\\ name"]')
    return "\n".join([*tags, "", " ".join(words), "*", ""])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("mixed", [False, True], ids=["short", "mixed"])
def test_logs_as_people_write_them_take_the_quick_lane(variant: str, mixed: bool) -> None:
    rng = random.Random(variant)
    for deal in range(1, 5):
        text = people_log(deal, variant, rng, mixed=mixed)
        (expected,) = general(text)
        assert expected[1], text
        assert quick_check(text) == ValidGame(1, *expected[2:]), text


@SETTINGS
@given(
    st.integers(1, 10**6),
    st.sampled_from(VARIANTS),
    st.booleans(),
    st.integers(0, 3),
    st.randoms(use_true_random=False),
)
def test_short_and_mixed_logs_agree_whole_and_damaged(
    deal: int, variant: str, mixed: bool, damage: int, rng: random.Random
) -> None:
    text = people_log(deal, variant, rng, mixed=mixed)
    if damage == 0:
        assert quick_check(text) is not None
    for _ in range(damage):
        text = mutate(text, rng)
    assert_agree(text)


@SETTINGS
@given(st.integers(1, 10**6), st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_a_short_form_made_ambiguous_or_wrong_agrees(
    deal: int, variant: str, rng: random.Random
) -> None:
    """A card move cut to its bare card where that reads two ways, or to its source where
    the card is another: the quick lane must step aside for the general way's error."""
    board = Board(variant, deal=deal)
    words = []
    for move in play(deal, variant, "greedy").move_stack:
        form = move
        if move.kind is MoveKind.CARD and rng.random() < 0.3:
            form = move._replace(source=None, index=None, depth=None, end=None)
        elif move.kind is MoveKind.CARD and rng.random() < 0.1:
            form = move._replace(card=None)
        board.push(move)
        words.append(str(form))
    assert_agree(f'[Variant "{variant}"]\n[Deal "{deal}"]\n{" ".join(words)}\n*\n')


# ------------------------------------------------------------ it agrees with the general way


@SETTINGS
@given(real_logs(games=3))
def test_decorated_logs_agree(text: str) -> None:
    assert_agree(text)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS), st.booleans(), st.booleans())
def test_plain_random_games_agree_and_take_the_quick_lane(
    seed: int, variant: str, respelled: bool, physical: bool
) -> None:
    rng = random.Random(seed)
    gen = random_gen_game(
        rng, variant=variant, decorate=False, respelled=respelled, physical=physical
    )
    text = render(gen, rng)
    assert_agree(text)
    if gen.result is not None:
        assert quick_check(text) is not None


@SETTINGS
@given(real_logs(games=2), st.integers(1, 3), st.randoms(use_true_random=False))
def test_damaged_logs_agree(text: str, damage: int, rng: random.Random) -> None:
    for _ in range(damage):
        text = mutate(text, rng)
    assert_agree(text)


@SETTINGS
@given(st.integers(1, 10**6), st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_damaged_plain_logs_agree(deal: int, variant: str, rng: random.Random) -> None:
    text = written(deal, variant, "greedy")
    for _ in range(rng.randint(1, 3)):
        text = mutate(text, rng)
    assert_agree(text)


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=40).map("".join))
def test_random_text_after_a_real_game_start_agrees(tail: str) -> None:
    assert_agree('[Variant "sun"]\n[Deal "7"]\ndeal r1:AS>A deal ' + tail)


@pytest.mark.parametrize(
    ("word", "reads"),
    [
        ("R3:q\u2660>a!?", "r3:QS>A"),
        ("10H>K", "10H>K"),
        ("t\u2665>k", "10H>K"),
        ("C1>a?", "c1>A"),
        ("\u26631>A", None),  # a suit symbol where no suit stands
        ("QS>\u2660", None),
        ("Q\u017f>A", None),  # a long s folds to S, but the grammar takes no such S
        ("5\u2661", "deal 5H"),
        ("5\u2661!", "deal 5H"),  # the annotation is the deal's
    ],
)
def test_another_spelling_of_a_word_reads_as_that_word(word: str, reads: str | None) -> None:
    """A move or card in any case, a suit symbol for its letter, reads as the grammar reads
    it, and only where the grammar reads it; check's verdict is the general way's."""
    text = f'[Deal "7"]\ndeal {word} *\n'
    game = read_games(io.StringIO(text)).__next__()
    if reads is None:
        assert game.error is not None
    else:
        assert game.error is None and str(game.moves[-1].move) == reads
    assert_agree(text)


@SETTINGS
@given(st.text(alphabet='{};\n x[]"', max_size=40))
def test_comments_among_the_moves_agree(text: str) -> None:
    """Comments of either kind among the moves, closed or not, give check's verdicts."""
    assert_agree(f'[Deal "7"]\ndeal {text} deal *\n')


@pytest.mark.parametrize(
    "tags",
    [
        '{ a } [Variant "sun"] ; b\n[Deal "7"] { c }',
        '[Variant "sun"]{}[Deal "7"]\n; [Deal "8"]\n',
        '[Variant "sun"] { [Deal "8"] } [Deal "7"]',
    ],
)
def test_comments_before_and_among_the_tags_take_the_quick_lane(tags: str) -> None:
    text = f"{tags}\n1. deal {{ x }} deal ; y\n*\n"
    assert quick_check(text) == ValidGame(1, 2, "*")
    assert_agree(text)


def test_a_move_number_joined_to_its_move_counts() -> None:
    """Joined to its number, a move reads as that number and that move."""
    text = '[Deal "7"]\n1.deal 2.deal 3. deal *\n'
    assert quick_check(text) == ValidGame(1, 3, "*")
    assert quick_check('[Deal "7"]\n1.deal 3.deal *\n') is None  # the number still counts


def test_a_game_in_any_case_takes_the_quick_lane() -> None:
    """Every letter of the notation reads the same in either case."""
    board = play(7, "sun", "greedy")
    moves = [str(m) for m in board.move_stack]
    lower = f'[Deal "7"]\n{" ".join(m.lower() for m in moves)}\n'
    mixed = f'[Deal "7"]\n{" ".join(m.title() for m in moves)}\n'
    assert quick_check(lower) == ValidGame(1, len(moves), "*")
    assert quick_check(mixed) == ValidGame(1, len(moves), "*")
    assert_agree(lower)
    assert_agree(mixed)


def test_a_letter_beyond_ascii_is_not_upper_cased_into_a_move() -> None:
    """upper() turns the long s (U+017F) into S; the quick lane upper-cases ASCII text only,
    so r3:A\u017f>A stays no move while r3:AS>A, the first move of deal 7, is one."""
    assert quick_check('[Deal "7"]\ndeal r3:AS>A *') == ValidGame(1, 2, "*")
    text = '[Deal "7"]\ndeal r3:A\u017f>A *'
    assert quick_check(text) is None
    assert_agree(text)


def test_every_odd_space_between_words_steps_aside_with_its_error() -> None:
    """Every white space of str.split() and of the regex ``\\s`` that is not the grammar's
    (space, tab, newline, form feed, return) between two moves: the quick lane steps
    aside, and check names it."""
    spaces = re.compile(r"\s")
    odd = [c for c in map(chr, range(0x110000)) if spaces.match(c) and c not in SPACES]
    assert len(odd) == 24
    for char in odd:
        text = f'[Deal "7"]\ndeal{char}deal *\n'
        assert quick_check(text) is None
        (verdict,) = general(text)
        assert verdict[1] is False
        assert_agree(text)


@SETTINGS
@given(st.text(alphabet=st.sampled_from("ab \t\n\x0b\x1c\x1f\xa0\u2003\u2660\u3000"), max_size=30))
def test_odd_spaces_among_the_moves_agree(text: str) -> None:
    assert_agree(f'[Deal "7"]\ndeal {text}\n')


@SETTINGS
@given(st.text(alphabet=st.sampled_from('a\\" '), max_size=12))
def test_a_tag_value_with_escapes_reads_as_the_general_way_reads_it(value: str) -> None:
    """\\\\ and \\" read from left to right, as the reader reads them; any other escape
    (or a value the tag pattern does not take) sends the game the general way."""
    text = f'[Event "{value}"]\n[Deal "7"]\ndeal *\n'
    game = next(read_games(io.StringIO(text)))
    assert (quick_check(text) is not None) is (game.error is None)
    if game.error is None:
        assert game.tags[0].value == value.replace("\\\\", "\0").replace('\\"', '"').replace(
            "\0", "\\"
        )
    assert_agree(text)


_EVERY_SYMBOL = "\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667"


@SETTINGS
@given(
    st.sampled_from(
        ["KS>K", "r5:QH>A", "10D>A", "a2>a", "r3>K", "c1>A", "w>A", "wind", "gather", "deal"]
    ),
    st.sampled_from(_EVERY_SYMBOL),
    st.integers(0, 8),
    st.sampled_from(["", "!", "?!"]),
)
def test_a_suit_symbol_before_the_arrow_reads_as_its_letter_and_nowhere_else(
    word: str, symbol: str, at: int, annotation: str
) -> None:
    """Wherever a suit symbol stands in a word (in place of a suit or not), both ways
    agree on the game."""
    at = min(at, len(word))
    spelled = word[:at] + symbol + word[at:]
    for candidate in (spelled, word.replace("S>", symbol + ">")):
        text = f'[Deal "7"]\ndeal deal {candidate}{annotation} *\n'
        assert_agree(text)


def test_odd_white_space_in_a_tag_value_or_a_comment_is_only_text() -> None:
    """Where the grammar reads white space as text (a tag's value, a comment), the words
    are the grammar's tokens still: the quick lane takes the game."""
    for text in ('[Deal "7"]\n[Event "a\xa0b"]\ndeal *', '[Deal "7"]\ndeal { a\x0bb } deal *'):
        assert quick_check(text) is not None
        assert_agree(text)
