"""JSON to notation never injects (issue 33, item 3): what ``convert --to sun`` accepts
writes notation that reads back as the same game, and what the notation cannot say (a
comment's ``}`` with a line break or a ``\\r``, a tag value on two lines, a move number
below 0 or of more than 20 digits, a ray below 0) is refused with the field's JSON path."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sunlog.notation.errors import LogSyntaxError
from sunlog.notation.game import Game
from sunlog.notation.jsonio import game_from_json
from sunlog.notation.reader import read_games
from sunlog.notation.writer import write_game


def convert_to_sun(game: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    document = json.dumps({"format": "sunlog/1", "games": [game]})
    return subprocess.run(
        [sys.executable, "-m", "sunlog", "convert", "--to", "sun", "-"],
        input=document,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def read_back(text: str) -> list[Game]:
    return list(read_games(io.StringIO(text, newline=None)))


def same_game(a: Game, b: Game) -> bool:
    """The same tags, moves (as values, numbers, annotations, comments) and result; comments
    compared as the notation keeps them (without the spaces around them)."""

    def notes(comments: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(c.strip() for c in comments)

    def moves(g: Game) -> list[tuple[Any, ...]]:
        return [(m.move, m.number, m.annotation, notes(m.comments)) for m in g.moves]

    return (
        [(t.name, t.value) for t in a.tags] == [(t.name, t.value) for t in b.tags]
        and moves(a) == moves(b)
        and a.claimed_result == b.claimed_result
        and notes(a.comments) == notes(b.comments)
        and notes(a.final_comments) == notes(b.final_comments)
    )


@pytest.mark.parametrize(
    ("game", "path"),
    [
        ({"moves": [{"kind": "deal"}], "comments": ["a}\rdeal"]}, "games[0].comments[0]"),
        (
            {"moves": [{"kind": "deal", "comments": ["a}\rwon"]}, {"kind": "deal"}]},
            "games[0].moves[0].comments[0]",
        ),
        ({"tags": [{"name": "Event", "value": "a\rb"}], "moves": []}, "games[0].tags[0].value"),
        ({"moves": [{"kind": "deal", "number": -1}]}, "games[0].moves[0].number"),
        ({"moves": [{"kind": "deal", "number": 2**70}]}, "games[0].moves[0].number"),
        ({"moves": [{"kind": "open", "ray": -1}]}, "games[0].moves[0].ray"),
        ({"variant": 'x"]\n[Deal "5"]', "moves": []}, "games[0].variant"),
    ],
    ids=[
        "comment }\\r",
        "move comment }\\r",
        "tag \\r",
        "number -1",
        "number 2^70",
        "ray -1",
        "variant \\n",
    ],
)
def test_what_the_notation_cannot_say_is_refused_with_its_path(
    game: dict[str, Any], path: str
) -> None:
    ran = convert_to_sun(game)
    assert ran.returncode == 1, (ran.stdout, ran.stderr)
    assert ran.stdout == ""
    assert f"{path}: " in ran.stderr, ran.stderr


_PIECES = ["a", " ", "}", "{", ";", "\n", "\r", "\t", '"', "\\", "deal", "won", "*", "é"]
_TEXT = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=8).map("".join),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=10),
)
_NUMBER = st.one_of(st.none(), st.integers(-2, 3), st.sampled_from([10**19, 10**20, 2**70]))
_MOVE = st.one_of(
    st.fixed_dictionaries({"kind": st.sampled_from(["deal", "wind"])}),
    st.fixed_dictionaries(
        {"kind": st.sampled_from(["open", "gather"]), "ray": st.integers(-2, 10**21)}
    ),
    st.fixed_dictionaries(
        {
            "kind": st.just("card"),
            "source": st.sampled_from(["r1", "c2.L", "w"]),
            "target": st.sampled_from(["A", "K", "r5"]),
        }
    ),
).flatmap(
    lambda move: st.fixed_dictionaries(
        {**{k: st.just(v) for k, v in move.items()}},
        optional={"number": _NUMBER, "comments": st.lists(_TEXT, max_size=2)},
    )
)
_GAME = st.fixed_dictionaries(
    {
        "tags": st.lists(
            st.fixed_dictionaries(
                {"name": st.sampled_from(["Event", "Site", "Variant", "Deal"]), "value": _TEXT}
            ),
            max_size=2,
        ),
        "moves": st.lists(_MOVE, max_size=4),
        "comments": st.lists(_TEXT, max_size=2),
        "final_comments": st.lists(_TEXT, max_size=2),
        "result": st.sampled_from(["won", "lost", "*"]),
    },
    optional={"variant": st.one_of(st.sampled_from(["sun", "sun-2", "SUN-3"]), _TEXT)},
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_GAME)
def test_any_json_game_accepted_writes_notation_that_reads_back_the_same(
    data: dict[str, Any],
) -> None:
    try:
        game = game_from_json(data)
    except LogSyntaxError:
        return  # refused, with its path: nothing written
    text = write_game(game)  # what is accepted can be written
    back = read_back(text)
    assert len(back) == 1, text
    assert back[0].error is None, (text, back[0].error)
    assert same_game(game, back[0]), text
