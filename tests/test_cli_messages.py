"""What ``sunlog check`` tells a person who writes a log by hand at the kitchen table.

Each test is a slip people make with real cards in front of them, and the exact report
they read: the heading (``path:line:col: move N 'as written': why``) and the caret line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.engine.errors import clip
from sunlog.notation.syntax import CARD_SHAPE

ROOT = Path(__file__).resolve().parent.parent
WON = ROOT / "samples" / "won-sun.sun"
#: The first deal of deal number 1 (SPEC 4), ray 1 first.
DEAL1 = "6D 7D JS 8S KC 7H 6C 8S 6S 9S 5S 10D KH"
#: A physical game's first deal, as named at the table.
TABLE = "3H 5S 2H 7S 9D KH 4C 5C 6C 7C 8C 9C JC"


def run(*args: str | Path, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def report(text: str) -> list[str]:
    """``check -`` of ``text``: the lines it prints on stdout (heading, source, caret)."""
    result = run("check", "-", input=text)
    assert result.exit_code == 1, result.stdout
    return result.stdout.splitlines()


def error_of(text: str) -> dict[str, Any]:
    result = run("check", "--json", "-", input=text)
    (line,) = result.stdout.splitlines()
    found: dict[str, Any] = json.loads(line)
    return found


def with_card(deal: str, index: int, word: str) -> str:
    cards = deal.split()
    cards[index] = word
    return " ".join(cards)


# ------------------------------------------------------- a typo inside a named deal


@pytest.mark.parametrize(
    ("word", "why"),
    [
        ("1OD", f"{CARD_SHAPE} (10 is written with the digit 0, not the letter O)"),
        ("0S", f"{CARD_SHAPE} (a ten is written 10 or T)"),
        ("11H", f"{CARD_SHAPE} (the ranks above 10 are J, Q and K)"),
        ("1D", f"{CARD_SHAPE} (an ace is written A)"),
        ("105", CARD_SHAPE),
        ("10", f"it has no suit; {CARD_SHAPE}"),
        ("SQ", "it is written rank first, then suit: write QS"),
        ("H10", "it is written rank first, then suit: write 10H"),
        (
            "Q\u2665\ufe0f",
            "an invisible U+FE0F (a variation selector, which phones and web pages add to "
            "suit symbols) follows the suit: write QH",
        ),
        ("7S,", "the cards of a deal are separated by spaces, not commas"),
    ],
)
@pytest.mark.parametrize("tags", ["", '[Event "Kitchen table"]\n', '[Deal "1"]\n'])
def test_a_mistyped_card_of_a_deal_is_named_with_a_caret_under_it(
    word: str, why: str, tags: str
) -> None:
    first = "1. deal 2. r13:KH>K" if tags.startswith("[Deal") else f"1. deal {TABLE} 2. r6:KH>K"
    deal = TABLE  # the second deal: its cards after the typo are never replayed
    line = f"3. deal {with_card(deal, 4, word)}"
    text = f"{tags}{first}\n{line}\n*\n"
    lines = report(text)
    row = 2 + tags.count("\n")
    column = line.index(word) + 1
    written = " ".join(["deal", *deal.split()[:4], word])
    assert lines[0] == f"-:{row}:{column}: move 3 {written!r}: '{word}' is not a card: {why}"
    assert lines[1] == f"  {line}"
    assert lines[2] == " " * (column + 1) + "^" + "~" * (len(word) - 1)
    found = error_of(text)
    assert found["moves"] == 2
    assert found["error"]["move"] == 3


def test_cards_separated_by_commas_from_the_first() -> None:
    lines = report("deal 2D, 7S, 3H, 5S\n*\n")
    assert lines[0] == (
        "-:1:6: move 1 'deal 2D,': '2D,' is not a card: the cards of a deal are separated "
        "by spaces, not commas"
    )
    assert lines[2] == "       ^~~"


def test_a_mistyped_first_card_of_a_deal_with_a_deal_tag() -> None:
    """The deck is known, yet the player names the cards: the card after it tells."""
    lines = report(f'[Deal "1"]\ndeal {with_card(DEAL1, 0, "6O")}\n*\n')
    assert lines[0] == f"-:2:6: move 1 'deal 6O': '6O' is not a card: {CARD_SHAPE}"


def test_a_mistyped_card_of_the_wind_row() -> None:
    gathers = " ".join(f"gather {n}" for n in range(1, 14))
    text = f'[Deal "1"]\n{"deal " * 8}{gathers}\nwind 3H 1OD 5C\n*\n'
    lines = report(text)
    assert lines[0].startswith(
        "-:3:9: move 22 'wind 3H 1OD': '1OD' is not a card: a card is a rank"
    )
    assert lines[2] == "          ^~~"


def test_a_deal_of_12_cards_says_where_it_ends() -> None:
    short = " ".join(TABLE.split()[:12])
    lines = report(f"deal {short}\nr1:3H>A *\n")
    assert lines[0] == (
        f"-:1:1: move 1 'deal {short}': deal 1 names 12 cards, not 13 (one per ray): it "
        "ends at 9C, before 'r1:3H>A'"
    )
    tagged = error_of(f'[Deal "1"]\ndeal {" ".join(DEAL1.split()[:12])} *\n')
    assert tagged["error"]["message"] == (
        "deal 1 names 12 cards, not 13 (one per ray): it ends at 10D, before the result "
        "token; the Deal tag fixes the deck: deal alone deals its cards"
    )


def test_a_card_after_a_deal_of_13_is_the_next_move_at_its_own_place() -> None:
    """A deal names 13 cards: a 14th is a card move without its target, said at its place."""
    lines = report(f"deal {TABLE} AS\nr1:3H>A *\n")
    assert lines[0] == (
        "-:1:45: move 2 'AS': a card move needs a target: SOURCE:CARD>TARGET, like r5:QD>K; "
        "found 'AS'; and no AS is playable here: the playable cards are 5S 7S, 2H 3H KH, 9D, "
        "4C 5C 6C 7C 8C 9C JC"
    )
    assert lines[2] == " " * 46 + "^~"
    tagged = error_of(f'[Deal "1"]\ndeal {DEAL1} AS 2S\n*\n')
    assert (tagged["moves"], tagged["error"]["move"], tagged["error"]["column"]) == (1, 2, 46)


def test_a_deal_of_14_cards_in_json_says_what_it_read_on_to() -> None:
    """JSON gives a deal's cards as a list: one of 14 is read, and replay says so."""
    cards = [*TABLE.split(), "AS"]
    document = {"format": "sunlog/1", "games": [{"moves": [{"kind": "deal", "cards": cards}]}]}
    result = run("check", "--json", "-", input=json.dumps(document))
    found = json.loads(result.stdout)
    assert found["error"]["message"] == (
        "deal 1 names 14 cards, not 13 (one per ray): after its 13th card, JC, it reads on "
        "to AS (a card to play is written with its target, like AS>A)"
    )


# ------------------------------------------------------------ how a game starts and ends


def test_a_card_move_before_any_deal_says_a_game_starts_with_deal() -> None:
    lines = report('[Deal "1"]\n3S>A deal *\n')
    assert lines[0] == (
        "-:2:1: move 1 '3S>A': nothing can be played before the first deal: a game starts with deal"
    )


def test_cards_without_deal_say_a_game_starts_with_deal() -> None:
    lines = report("3H 5S 2H\n*\n")
    assert lines[0] == (
        "-:1:1: move 1 '3H': expected a move, found the card '3H': a game starts with deal "
        "(deal C1 ... C13 names the cards dealt when the tags do not give the deck)"
    )
    whole = report(f"{TABLE}\n*\n")  # a line of 13 cards: the deal's word is missing
    assert whole[0] == (
        "-:1:1: move 1 '3H': this line names 13 cards without deal before them: is deal "
        f"missing? write deal {TABLE}"
    )


def test_two_physical_games_without_a_result_token_between_them() -> None:
    first = f'[Event "Monday"]\ndeal {TABLE}\nr6:KH>K\n'
    second = f"deal {TABLE}\ndeal {TABLE}\n*\n"  # the result token of Monday was forgotten
    found = error_of(first + second)
    assert found["moves"] == 3
    assert found["error"] == {
        "move": 4,
        "line": 5,
        "column": 6,  # at the third 3H, the deal's first card
        "message": "deal 3 names a third 3H: there are only two of each card; if a new game "
        "begins here, end the one before with its result token (won, lost or *) or begin "
        "this one with its tags",
        "code": "illegal-move",
    }


def test_a_ninth_deal_hints_at_a_missing_result_token() -> None:
    found = error_of(f'[Deal "1"]\n{"deal " * 9}*\n')
    assert found["error"]["message"] == (
        "all 8 deals have been made; if a new game begins here, end the one before with its "
        "result token (won, lost or *) or begin this one with its tags"
    )


# ------------------------------------------------------------------------ moves


def test_a_card_on_another_ray_says_what_to_write() -> None:
    found = error_of('[Deal "1"]\ndeal r4:KH>K *\n')
    assert found["error"]["message"] == (
        "ray 4's outer card is 8S, not KH; KH is on ray 13: write r13:KH>K"
    )
    nowhere = error_of(f"deal {TABLE}\nr4:QC>K *\n")  # no deck: QC is simply nowhere
    assert nowhere["error"]["message"] == (
        "ray 4's outer card is 7S, not QC, and no QC is playable anywhere"
    )


def test_open_after_open_is_one_sentence() -> None:
    found = error_of(f'[Deal "1"]\n{"deal " * 8}open 2 open 2 *\n')
    assert found["error"]["message"] == (
        "open 2: ray 2 is open already, and rays are opened left to right: open a ray from 3 to 13"
    )


# ------------------------------------------------------------------- tags in the wrong case


@pytest.mark.parametrize(
    ("tag", "meant"),
    [('[variant "sun-3"]', "Variant"), ('[deal "777"]', "Deal"), ('[RESULT "*"]', "Result")],
)
def test_a_tag_name_in_the_wrong_case_warns_without_changing_the_verdict(
    tag: str, meant: str
) -> None:
    name = tag[1:].split()[0]
    text = f'{tag}\n[Deal "1"]\ndeal r13:KH>K *\n'
    neutral = text.replace(f"[{name} ", "[Other ")
    for args in (["check", "-"], ["check", "--json", "-"]):
        warned, plain = run(*args, input=text), run(*args, input=neutral)
        assert (warned.exit_code, warned.stdout) == (plain.exit_code, plain.stdout)
        assert warned.stderr.splitlines()[0] == (
            f"-:1:1: warning: tag names are case-sensitive, so [{name} ...] is not the "
            f"{meant} tag and means nothing here (did you mean {meant}?)"
        )
        assert "warning" not in plain.stderr


def test_a_miscased_deal_tag_leaves_the_deck_unknown_and_says_why() -> None:
    result = run("check", "-", input='[deal "777"]\ndeal *\n')
    assert result.exit_code == 1
    assert "the deck is not known (no Deal or Deck tag)" in result.stdout
    assert "did you mean Deal?" in result.stderr


def test_the_right_case_gives_no_warning() -> None:
    result = run("check", "-", input='[Variant "sun"]\n[Deal "1"]\n[Event "x"]\ndeal *\n')
    assert result.exit_code == 0
    assert "warning" not in result.stderr


# ------------------------------------------------------------------------ other commands


def test_analyze_of_a_won_game_says_it_was_won() -> None:
    result = run("analyze", WON, "--max-nodes", "1000")
    assert result.exit_code == 0
    assert result.stdout.startswith(
        "the game was won: all 104 cards are on the foundations after move "
    )
    assert "can still be won" not in result.stdout


def test_stats_of_no_games_is_a_usage_error() -> None:
    result = run("stats", "--games", "0")
    assert result.exit_code == 2
    assert "--games" in result.stderr


def test_a_third_copy_in_the_first_deal_is_a_plain_typo() -> None:
    """No game can have run on into this one: no hint at a missing result token."""
    found = error_of("deal 3H 3H 3H 7S 9D KH 4C 5C 6C 7C 8C 9C JC *\n")
    assert found["error"]["message"] == ("deal 1 names a third 3H: there are only two of each card")


@pytest.mark.parametrize(
    ("moves", "column", "message"),
    [
        ("r13:KH > K", 6, "write r13:KH>K"),
        ("r13 : KH>K", 6, "write r13:KH>K"),
        ("r13: KH>K", 6, "write r13:KH>K"),
        ("r13 : KH > K", 6, "write r13:KH>K"),
        ("KH > K", 6, "write KH>K"),
        ("KH >K", 6, "write KH>K"),
        ("r13 >K", 6, "write r13>K"),
        ("r13: KH>X", 6, "like r5:QD>K; found 'r13:' and then 'KH>X'"),
    ],
)
def test_a_card_move_with_spaces_inside_says_it_is_one_word(
    moves: str, column: int, message: str
) -> None:
    """Where the words joined make a card move, the message names it; where they do not,
    it says what it found. ``KH > K`` after a bare deal is no 14th card of that deal."""
    found = error_of(f'[Deal "1"]\ndeal {moves} *\n')
    joiner = ": " if message.startswith("write") else ", "
    assert found["error"] == {
        "move": 2,
        "line": 2,
        "column": column,
        "message": f"a card move is one word, without spaces{joiner}{message}",
        "code": "syntax",
    }
    assert found["moves"] == 1


@pytest.mark.parametrize("numbered", ["1. deal 2. KH > K *", "1. deal 2.KH > K *"])
def test_a_numbered_card_move_with_spaces_names_the_move_not_its_number(numbered: str) -> None:
    found = error_of(f'[Deal "1"]\n{numbered}\n')
    assert found["error"]["message"] == "a card move is one word, without spaces: write KH>K"
    assert (found["error"]["move"], found["error"]["column"]) == (2, numbered.index("KH") + 1)


@pytest.mark.parametrize(
    ("text", "move", "why"),
    [
        ("deal3H 5S", 1, "a space must follow 'deal': write deal 3H"),
        ('[Deal "1"]\ndeal open3', 2, "a space must follow 'open': write open 3"),
        ('[Deal "1"]\ndeal GATHER2', 2, "a space must follow 'gather': write gather 2"),
    ],
)
def test_a_keyword_glued_to_what_follows(text: str, move: int, why: str) -> None:
    found = error_of(f"{text} *\n")
    assert found["error"]["move"] == move
    assert found["error"]["message"] == why


def test_a_card_taken_twice_says_it_is_playable_nowhere_now() -> None:
    found = error_of('[Deal "1"]\n1. deal 2. r13:KH>K 3. r13:KH>K *\n')
    assert found["error"]["message"] == ("ray 13 is empty, and no KH is playable anywhere")


NEEDS = "a card move needs a target: SOURCE:CARD>TARGET, like r5:QD>K; found "
TARGET = "expected a target after '>': A or K (in sun-3 A, A1, A2 or an empty ray like r5), found "
#: Deal 1 after twelve moves: both aces of clubs lie on a ray's end (r11 and r13).
TWO_ACES = (
    "deal r5:KC>K r13:KH>K deal r2:AD>A r3:QC>K r10:JC>K r4:10C>K r9:9C>K r11:KS>K deal r2:AS>A"
)
#: Deal 1 after its first deal and a move (a card right after ``deal`` is one it names).
DEALT = "deal r13:KH>K"


@pytest.mark.parametrize(
    ("moves", "written", "message"),
    [
        ("deal", "r5:KC", NEEDS + "'r5:KC'; here it can be r5:KC>K"),
        (DEALT, "KC", NEEDS + "'KC'; here it can be KC>K"),
        ("deal", "r5", NEEDS + "'r5'; here it can be r5>K"),
        ("deal", "r5:KC>", TARGET + "none; here it can be r5:KC>K"),
        (DEALT, "KC>Q", TARGET + "'Q'; here it can be KC>K"),
        (TWO_ACES, "AC", NEEDS + "'AC'; here it can be r11:AC>A or r13:AC>A"),
        (TWO_ACES, "r11:AC", NEEDS + "'r11:AC'; here it can be r11:AC>A"),
        (
            DEALT,
            "4D",
            NEEDS + "'4D'; and 4D has not been dealt yet: it comes with deal 7; the playable "
            "cards are "
            "5S 6S 8S 9S JS, 7H, 6D 7D 10D, 6C KC",
        ),
        (
            "deal",
            "r2:KC",
            NEEDS + "'r2:KC'; and ray 2's outer card is 7D, not KC; KC is on ray 5: write r5:KC>K",
        ),
        (
            DEALT,
            "JS",
            NEEDS + "'JS'; and JS cannot start the aces pile of spades: an empty pile takes "
            "only an ace, and JS cannot start the kings pile of spades: an empty pile takes "
            "only a king",
        ),
    ],
)
def test_a_card_move_without_its_target_says_where_it_can_go_here(
    moves: str, written: str, message: str
) -> None:
    """Forgetting the target (or mistyping it) is the fault whose fix the position knows."""
    found = error_of(f'[Deal "1"]\n{moves} {written} *\n')
    assert found["error"]["message"] == message
    assert found["error"]["move"] == len(moves.split()) + 1


def test_in_sun_3_the_advice_names_both_aces_piles() -> None:
    found = error_of('[Variant "sun-3"]\n[Deal "1"]\ndeal deal r2:AD>A deal r2:AS>A AC *\n')
    assert found["error"]["message"] == (
        NEEDS + "'AC'; here it can be r11:AC>A, r13:AC>A, r11:AC>A2 or r13:AC>A2"
    )


@pytest.mark.parametrize(
    ("written", "message"),
    [
        (
            "r5:KX>K",
            "expected a card like QD or 10H after ':', found 'KX'; ray 5's outer card is KC",
        ),
        ("r5:KX", "expected a card like QD or 10H after ':', found 'KX'; ray 5's outer card is KC"),
        ("r5:", "expected a card like QD or 10H after ':', found none; ray 5's outer card is KC"),
        ("r5:>K", "expected a card like QD or 10H after ':', found none; ray 5's outer card is KC"),
        ("r13:K>K", "'K' after ':' has no suit; " + CARD_SHAPE + "; ray 13's outer card is KH"),
    ],
)
def test_an_unreadable_card_after_a_ray_says_what_the_ray_shows(written: str, message: str) -> None:
    """A mistyped suit (``KX``) or a forgotten one (``K``): the ray's card is the one meant."""
    assert error_of(f'[Deal "1"]\ndeal {written} *\n')["error"]["message"] == message


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("c1:KX>K", "expected a card like QD or 10H after ':', found 'KX'"),
        ("r14:KX>K", "expected a card like QD or 10H after ':', found 'KX'"),
        ("XX", "expected a move (deal, open N, gather N, wind, or a card move like r5:QD>K) "
         "or a result (won, lost, *), found 'XX'"),
    ],
)  # fmt: skip
def test_what_the_position_cannot_tell_gets_only_its_syntax_error(
    written: str, message: str
) -> None:
    assert error_of(f'[Deal "1"]\ndeal r5:KC>K {written} *\n')["error"]["message"] == message


@pytest.mark.parametrize(
    ("numbered", "message"),
    [
        (
            "1. deal 2. 3X>A *",
            "expected a card like QD or 10H, or a source like r5, before '>', found '3X'",
        ),
        (
            "1. deal 2. r5:QX>K *",
            "expected a card like QD or 10H after ':', found 'QX'; ray 5's outer card is KC",
        ),
        (
            "1. deal 2. 3H>Q *",
            "expected a target after '>': A or K (in sun-3 A, A1, A2 or an "
            "empty ray like r5), found 'Q'; and 3H has not been dealt yet: it comes with deal 3; "
            "the playable cards "
            "are 5S 6S 8S 9S JS, 7H KH, 6D 7D 10D, 6C KC",
        ),
        ("1. deal 2. 3. *", "a move number must be followed by a move, found '3.'"),
    ],
)
def test_a_mistyped_card_move_after_its_number_says_what_is_wrong(
    numbered: str, message: str
) -> None:
    """With or without a move number before it, a mistyped card move gets the same message."""
    found = error_of(f'[Deal "1"]\n{numbered}\n')
    assert found["error"]["message"] == message
    assert (found["error"]["move"], found["error"]["column"]) == (2, 12)


@pytest.mark.parametrize(
    ("value", "meant"),
    [
        (" 1", ': write it without spaces, [Deal "1"]'),
        ("20261129 ", ': write it without spaces, [Deal "20261129"]'),
        ("1,000", ': write it without separators, [Deal "1000"]'),
        ("20 261 129", ': write it without separators, [Deal "20261129"]'),
        ("20_261_129", ': write it without separators, [Deal "20261129"]'),
        ("#5", ""),
        ("1.5e3", ""),
        ("18,446,744,073,709,551,616", ""),  # 2^64: no deal number however written
        ("1," + "0" * 5000, ""),
    ],
)
def test_a_deal_number_with_spaces_or_separators_says_how_to_write_it(
    value: str, meant: str
) -> None:
    found = error_of(f'[Deal "{value}"]\n\ndeal *\n')
    assert found["error"]["message"] == (
        "the Deal tag must be a deal number (decimal digits, below 2^64), "
        f"not {clip(value)!r}{meant}"
    )
