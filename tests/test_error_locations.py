"""Where ``check --json`` puts a syntax error: the move at fault, the moves before it, the
line and column of the word that is wrong (SPEC 7), wherever the typo is.

Property tests take a real game (random play on a random deal, any variant), written as a
person might: move numbers apart or joined, annotations, comments, any spelling, plain
(``Deal`` tag, bare ``deal``) or physical (every deal and the wind naming their cards, with
or without a ``Deal`` tag). One move is replaced by a typo of a known kind, and ``check
--json`` must name that move (``move`` = its index, ``moves`` = the moves before it) and
the place of the wrong word.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notationkit import VARIANTS, GenGame, random_gen_game, render
from typer.testing import CliRunner

from sunlog import cli

SENTINEL = "QQSENTINELQQ"

#: Card moves gone wrong: none of them can be read as a card, so none belongs to a deal.
CARD_MOVE_TYPOS = (
    "r6:KX>K",
    "r3:1OD>A",
    "x5:QD>K",
    "r5:QD>X",
    "QX>K",
    "r5:QD",
    "r4:AS>",
    "c1.X:5H>A",
)
#: Stage keywords gone wrong (five letters or more: no card looks like that).
KEYWORD_TYPOS = ("deall", "gathre", "wiind", "opeen", "xyzzy")
#: Cards of a deal or wind gone wrong, as people mistype them.
CARD_TYPOS = ("1OD", "0S", "11H", "105", "10", "2D,", "ZZ", "KX", "1S", "QQ")
#: The ray number of an open or gather gone wrong.
RAY_TYPOS = ("x", "ray3", "#", "3x")


@dataclass(frozen=True)
class Typo:
    """A log with one typo, and where ``check --json`` must place it."""

    text: str
    move: int
    line: int
    column: int
    kind: str


def place(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def with_typo(gen: GenGame, rng: random.Random) -> Typo:
    """``gen`` written with one move replaced by a typo of a kind that fits the move."""
    k = rng.randrange(len(gen.moves))
    gm = gen.moves[k]
    words = gm.text.split()
    head = words[0].lower()
    kinds = ["card move", "keyword", "detached annotation", "joined annotation"]
    if head in ("deal", "wind") and len(words) > 1:
        kinds += ["card"] * 4  # the commonest slip at the table
    if head in ("open", "gather"):
        kinds += ["ray"] * 2
    kind = rng.choice(kinds)
    shift = 0  # where the wrong word starts within the move's text
    if kind == "card move":
        typo = rng.choice(CARD_MOVE_TYPOS)
    elif kind == "keyword":
        typo = rng.choice(KEYWORD_TYPOS) + rng.choice(("", " 3"))
    elif kind == "detached annotation":
        typo = gm.text + " " + rng.choice(("!", "?", "!?"))
        shift = len(gm.text) + 1
    elif kind == "joined annotation":
        typo = gm.text + "!!!"
        shift = len(" ".join(words[:-1])) + 1 if len(words) > 1 else 0
    elif kind == "card":
        j = rng.randrange(1, len(words))
        words[j] = rng.choice(CARD_TYPOS)
        typo = " ".join(words)
        shift = len(" ".join(words[:j])) + 1
    else:
        typo = f"{words[0]} {rng.choice(RAY_TYPOS)}"
        shift = len(words[0]) + 1
    gm.text, gm.annotation = SENTINEL, None
    written = render(gen, rng)
    at = written.index(SENTINEL)
    text = written.replace(SENTINEL, typo)
    line, column = place(text, at + shift)
    return Typo(text, k + 1, line, column, kind)


@st.composite
def typo_logs(draw: st.DrawFn, *, physical: bool, deal_tag: bool = True) -> Typo:
    """A real game, numbered or not, decorated at random, with one typo."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    deal = rng.randrange(2**64)
    gen = random_gen_game(
        rng,
        variant=draw(st.sampled_from(VARIANTS)),
        deal=deal,
        physical=physical,
        max_moves=draw(st.integers(1, 160)),
    )
    if physical and deal_tag:  # named deals checked against the deck the tag gives
        gen.tags.append(("Deal", str(deal)))
    gen.result = gen.result or "*"
    return with_typo(gen, rng)


def check_json(text: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli.app, ["check", "--json", "-"], input=text)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    (line,) = result.stdout.splitlines()
    report: dict[str, Any] = json.loads(line)
    return report


def assert_placed(typo: Typo) -> None:
    report = check_json(typo.text)
    error = report["error"]
    assert isinstance(error, dict), report
    found = (error["move"], report["moves"], error["line"], error["column"])
    assert found == (typo.move, typo.move - 1, typo.line, typo.column), (
        typo.kind,
        error["message"],
        typo.text,
    )
    assert "\n" not in str(error["message"])


#: The kinds of log: (physical, with a Deal tag).
LOGS = {
    "plain": typo_logs(physical=False),
    "physical": typo_logs(physical=True, deal_tag=False),
    "physical with a Deal tag": typo_logs(physical=True, deal_tag=True),
}


@settings(max_examples=30, deadline=None)
@given(typo_logs(physical=False))
def test_a_typo_in_a_plain_game_is_placed_at_its_move(typo: Typo) -> None:
    assert_placed(typo)


@settings(max_examples=25, deadline=None)
@given(typo_logs(physical=True, deal_tag=False))
def test_a_typo_in_a_physical_game_is_placed_at_its_move(typo: Typo) -> None:
    assert_placed(typo)


@settings(max_examples=20, deadline=None)
@given(typo_logs(physical=True, deal_tag=True))
def test_a_typo_in_a_named_deal_with_a_deal_tag_is_placed_at_its_move(typo: Typo) -> None:
    assert_placed(typo)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(LOGS))
def test_many_typos_are_placed_at_their_moves(kind: str) -> None:
    """The same, at length (about a minute for each kind of log)."""

    @settings(max_examples=300, deadline=None)
    @given(LOGS[kind])
    def placed(typo: Typo) -> None:
        assert_placed(typo)

    placed()


# ------------------------------------------------------------------ the issue's examples


def test_the_numbered_example_of_the_issue() -> None:
    """It gave move 1, moves 0: the moves before a typo after a move number were lost."""
    text = '[Deal "777"]\n1. deal 2. r3:AC>A 3. r6:KS>K 4. r13:AS>A 5. deal 6. r6:KX>K *\n'
    report = check_json(text)
    assert report["moves"] == 5
    assert report["error"] == {
        "move": 6,
        "line": 2,
        "column": 54,
        "message": "expected a card like QD or 10H after ':', found 'KX'; ray 6's outer card is KH",
        "code": "card-expected",
    }
    plain = check_json('[Deal "777"]\ndeal r3:AC>A r6:KS>K r13:AS>A deal r6:KX>K *\n')
    assert (plain["moves"], plain["error"]["move"]) == (5, 6)


def test_a_joined_move_number_places_the_error_at_the_move() -> None:
    report = check_json('[Deal "777"]\n1.deal 2.r3:AC>A 3.r6:KX>K *\n')
    assert report["moves"] == 2
    assert report["error"]["move"] == 3
    assert (report["error"]["line"], report["error"]["column"]) == (2, 20)


def test_a_typo_in_open_after_a_move_number_counts_the_moves_before() -> None:
    deals = " ".join(f"{n}. deal" for n in range(1, 9))
    report = check_json(f'[Deal "1"]\n{deals} 9. open x *\n')
    assert report["moves"] == 8
    assert report["error"]["move"] == 9
