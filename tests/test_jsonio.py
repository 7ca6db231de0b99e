"""JSON both ways (SPEC 6): game documents, JSON Lines, the shipped schemas, position objects.

Output is validated against the schemas that ship with the package; input errors must say
where in the JSON they are.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from notationkit import essentials, physical_moves, random_playout, staircase_deck, staircase_moves

from sunlog.engine.board import Board, Stage
from sunlog.engine.moves import Move
from sunlog.notation import parse_games, write_game, write_games
from sunlog.notation.errors import LogSyntaxError
from sunlog.notation.game import Game
from sunlog.notation.jsonio import (
    FORMAT,
    document_json,
    game_to_json,
    read_json_games,
)
from sunlog.notation.replay import replay
from sunlog.notation.resources import schema

DATA = Path(__file__).parent / "data"
FIXTURES = sorted(p for p in DATA.glob("*.sun") if p.name != "no-game.sun")
GAME_SCHEMA = Draft202012Validator(schema("game"))
POSITION_SCHEMA = Draft202012Validator(schema("position"))
GAME_ITEM = Draft202012Validator({"$defs": schema("game")["$defs"], "$ref": "#/$defs/game"})


def read(path: Path) -> list[Game]:
    with path.open(encoding="utf-8", newline="") as handle:
        return parse_games(handle.read())


def errors_of(validator: Draft202012Validator, instance: object) -> list[str]:
    return [e.message for e in validator.iter_errors(instance)]


# ---------------------------------------------------------------- schemas


def test_shipped_schemas_are_valid_json_schemas() -> None:
    Draft202012Validator.check_schema(schema("game"))
    Draft202012Validator.check_schema(schema("position"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_documents_validate_and_convert_back_losslessly(path: Path) -> None:
    games = [g for g in read(path) if g.error is None]  # convert refuses unreadable games
    document = document_json(game_to_json(g) for g in games)
    assert document["format"] == FORMAT == "sunlog/1"
    assert errors_of(GAME_SCHEMA, document) == []
    back = read_json_games(json.dumps(document, ensure_ascii=False))
    assert [essentials(g) for g in back] == [essentials(g) for g in games]
    again = parse_games(write_games(write_game(g) for g in back))
    assert [essentials(g) for g in again] == [essentials(g) for g in games]


def test_game_object_shape() -> None:
    (game,) = parse_games(
        '[Event "a \\"b\\""]\n[Variant "sun-3"]\n[Deal "4"]\n{ start }\n'
        "1. deal?! ; after\nr5>A2 QD>r3! c2.L:5H>A1 w>K open 3 gather 4 wind 2H AS\n*\n{ end }"
    )
    data = game_to_json(game)
    assert data == {
        "tags": [
            {"name": "Event", "value": 'a "b"'},
            {"name": "Variant", "value": "sun-3"},
            {"name": "Deal", "value": "4"},
        ],
        "variant": "sun-3",
        "comments": ["start"],
        "moves": [
            {"kind": "deal", "cards": None, "number": 1, "annotation": "?!", "comments": ["after"]},
            {
                "kind": "card",
                "source": "r5",
                "card": None,
                "target": "A2",
                "number": None,
                "annotation": None,
                "comments": [],
            },
            {
                "kind": "card",
                "source": None,
                "card": "QD",
                "target": "r3",
                "number": None,
                "annotation": "!",
                "comments": [],
            },
            {
                "kind": "card",
                "source": "c2.L",
                "card": "5H",
                "target": "A1",
                "number": None,
                "annotation": None,
                "comments": [],
            },
            {
                "kind": "card",
                "source": "w",
                "card": None,
                "target": "K",
                "number": None,
                "annotation": None,
                "comments": [],
            },
            {"kind": "open", "ray": 3, "number": None, "annotation": None, "comments": []},
            {"kind": "gather", "ray": 4, "number": None, "annotation": None, "comments": []},
            {
                "kind": "wind",
                "cards": ["2H", "AS"],
                "number": None,
                "annotation": None,
                "comments": [],
            },
        ],
        "result": "*",
        "final_comments": ["end"],
    }
    assert errors_of(GAME_ITEM, data) == []


def test_json_cards_are_canonical_whatever_the_spelling() -> None:
    (game,) = parse_games('[Deal "1"]\ndeal r1:t♥>k q♢>a w.r:a♣>A2 deal 10s TS t♠ *')
    moves = game_to_json(game)["moves"]
    assert [m.get("card") for m in moves[1:4]] == ["10H", "QD", "AC"]
    assert [m["target"] for m in moves[1:4]] == ["K", "A", "A2"]
    assert moves[1]["source"] == "r1" and moves[3]["source"] == "w.R"
    assert moves[4]["cards"] == ["10S", "10S", "10S"]


def test_result_tag_without_token_is_the_json_result() -> None:
    (game,) = parse_games('[Result "lost"]\n[Deal "1"]\ndeal')
    assert game_to_json(game)["result"] == "lost"


def test_invalid_variant_and_result_tags_still_give_schema_valid_json() -> None:
    (game,) = parse_games('[Variant "sun-4"]\n[Result "draw"]\ndeal 2H')
    data = game_to_json(game)
    assert "variant" not in data  # the tag keeps what was written
    assert data["result"] == "*"
    assert [t["value"] for t in data["tags"]] == ["sun-4", "draw"]
    assert errors_of(GAME_SCHEMA, document_json([data])) == []
    (back,) = read_json_games(json.dumps(document_json([data])))
    assert [(t.name, t.value) for t in back.tags] == [("Variant", "sun-4"), ("Result", "draw")]


def test_move_number_and_ray_zero_give_schema_valid_json() -> None:
    (game,) = parse_games('[Deal "1"]\n0. deal open 0 *')
    assert errors_of(GAME_SCHEMA, document_json([game_to_json(game)])) == []


# ------------------------------------------------------------ reading JSON


def sample_document() -> dict[str, Any]:
    return document_json(game_to_json(g) for g in read(DATA / "multi-game.sun"))


def test_read_json_document_lines_and_single_game() -> None:
    document = sample_document()
    games = read_json_games(json.dumps(document, indent=2))
    assert [g.index for g in games] == [1, 2, 3, 4]
    lines = "\n".join(json.dumps(g) for g in document["games"]) + "\n"
    assert [essentials(g) for g in read_json_games(lines)] == [essentials(g) for g in games]
    (single,) = read_json_games(json.dumps(document["games"][2]))
    assert essentials(single) == essentials(games[2])
    assert read_json_games("\ufeff" + json.dumps(document))[0].tag("Round") == "1"


def test_json_games_replay_like_the_text_they_came_from() -> None:
    text_games = read(DATA / "physical.sun") + read(DATA / "won-greedy.sun")
    json_games = read_json_games(json.dumps(document_json(game_to_json(g) for g in text_games)))
    for text_game, json_game in zip(text_games, json_games, strict=True):
        a, b = replay(text_game), replay(json_game)
        assert a.valid and b.valid
        assert a.board.key() == b.board.key()
        assert a.board.status() == b.board.status()


def test_variant_member_adds_a_tag_or_must_agree_with_it() -> None:
    (game,) = read_json_games(json.dumps({"variant": "sun-2", "moves": [], "result": "*"}))
    assert [(t.name, t.value) for t in game.tags] == [("Variant", "sun-2")]
    with pytest.raises(LogSyntaxError) as caught:
        read_json_games(
            json.dumps(
                {"tags": [{"name": "Variant", "value": "sun"}], "variant": "sun-3", "moves": []}
            )
        )
    assert caught.value.message == (
        "game.variant: the variant 'sun-3' disagrees with the Variant tag 'sun'"
    )


def _with_move(move: dict[str, Any]) -> str:
    document = {
        "format": FORMAT,
        "games": [{"moves": [{"kind": "deal"}, move]}, {"moves": []}],
    }
    return json.dumps(document)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (
            {"kind": "jump"},
            "games[0].moves[1].kind: unknown move kind 'jump': "
            "expected deal, open, gather, wind or card",
        ),
        (
            {"kind": "card", "source": "r5", "card": "QX", "target": "K"},
            "games[0].moves[1].card: expected a card like QD or 10H, found 'QX'",
        ),
        (
            {"kind": "card", "target": "K"},
            "games[0].moves[1]: a card move names its source, its card, or both",
        ),
        (
            {"kind": "card", "source": "x5", "target": "K"},
            "games[0].moves[1]: 'x5>K' is not a card move",
        ),
        (
            {"kind": "card", "card": "QD"},
            "games[0].moves[1].target: expected a target such as A, K or r5, found null",
        ),
        ({"kind": "open"}, "games[0].moves[1].ray: expected a ray number, found null"),
        ({"kind": "open", "ray": True}, "games[0].moves[1].ray: expected a ray number, found true"),
        (
            {"kind": "deal", "cards": ["AS", 5]},
            "games[0].moves[1].cards[1]: expected a card like QD or 10H, found 5",
        ),
        (
            {"kind": "deal", "annotation": "!!!"},
            'games[0].moves[1].annotation: an annotation is one of ! ? !! ?? !? ?!, not "!!!"',
        ),
        (
            {"kind": "deal", "comments": ["a }\nb"]},
            "games[0].moves[1].comments[0]: a comment cannot hold both '}' and a line break",
        ),
        (
            {"kind": "deal", "number": "3"},
            'games[0].moves[1].number: expected a move number, found "3"',
        ),
    ],
)
def test_bad_json_moves_say_where(move: dict[str, Any], message: str) -> None:
    with pytest.raises(LogSyntaxError) as caught:
        read_json_games(_with_move(move))
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "sunlog/2", "games": []}', "format: expected 'sunlog/1', found \"sunlog/2\""),
        ('{"format": "sunlog/1", "games": []}', "games: no game in this document"),
        ('{"format": "sunlog/1", "games": {}}', "games: expected a list of games, found {}"),
        ('{"games": [1]}', "format: expected 'sunlog/1', found null"),
        ('{"format": "sunlog/1", "games": [1]}', "games[0]: expected a game object, found 1"),
        (
            '{"format": "sunlog/1", "games": [{"moves": [], "result": "draw"}]}',
            "games[0].result: a result is won, lost or *, not 'draw'",
        ),
        (
            '{"format": "sunlog/1", "games": [{"tags": [{"name": "a b", "value": ""}]}]}',
            "games[0].tags[0].name: a tag name is letters, digits and _, not 'a b'",
        ),
        (
            '{"format": "sunlog/1", "games": [{"tags": [{"name": "E", "value": "a\\nb"}]}]}',
            "games[0].tags[0].value: a tag value is one line",
        ),
        ('{"moves": [{"kind": "deal"}]}\n{"moves": 3}', "line 2.moves: expected a list, found 3"),
        (
            "[1, 2]",
            'not a sunlog JSON document: expected {"format": "sunlog/1", "games": [...]}, '
            "JSON Lines of games, or one game object",
        ),
        ('{"format": "sunlog/1", "games": [', "not JSON: Expecting value"),
    ],
)
def test_bad_json_documents(text: str, message: str) -> None:
    with pytest.raises(LogSyntaxError) as caught:
        read_json_games(text)
    assert caught.value.message == message


# -------------------------------------------------------------- positions


def positions(board: Board, moves: list[Move]) -> list[dict[str, Any]]:
    """The position objects before the first move and after each move."""
    fresh = Board(board.variant, deal=board.deal_number, deck=board.deck)
    out = [fresh.to_json()]
    for move in moves:
        fresh.push(move)
        out.append(fresh.to_json())
    return out


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_position_objects_validate_in_every_stage(variant: str) -> None:
    stages: set[object] = set()
    statuses: set[str] = set()
    for seed in range(3):
        board = Board(variant, deal=500 + seed)
        moves = list(random_playout(board, random.Random(seed), max_moves=500))
        for n, obj in enumerate(positions(board, moves)):
            if n % 3 == 0 or obj["stage"] not in stages or obj["status"] not in statuses:
                assert errors_of(POSITION_SCHEMA, obj) == []
            stages.add(obj["stage"])
            statuses.add(obj["status"])
    expected = {1, 3, "wind"} if variant == "sun-2" else {1, 2, 3, "wind"}
    assert stages == expected
    assert "lost" in statuses and "playing" in statuses


@pytest.mark.parametrize("variant", ["sun", "sun-2", "sun-3"])
def test_won_position_object(variant: str) -> None:
    board = Board(variant, deck=staircase_deck(variant))
    for text in staircase_moves(variant):
        board.push(Move.parse(text))
    obj = board.to_json()
    assert obj["status"] == "won"
    assert errors_of(POSITION_SCHEMA, obj) == []
    if variant == "sun-3":
        assert set(obj["foundations"]) == {"aces"}
        assert all(
            len(piles) == 2 and len(piles[0]) == 13 for piles in obj["foundations"]["aces"].values()
        )
    else:
        assert obj["foundations"]["kings"]["S"][0] == "KS"
        assert len(obj["foundations"]["aces"]["S"]) == 13


def test_position_stage_and_fields_follow_the_game() -> None:
    board = Board("sun", deal=20261129)
    obj = board.to_json()
    assert (obj["stage"], obj["move_count"], obj["open_ray"], obj["wind_row"]) == (1, 0, None, None)
    assert obj["rays"] == [[] for _ in range(13)] and obj["clouds"] == []
    assert len(obj["stock"]) == 104 and obj["stock"][0] == "AC"
    board.push(Move.deal())
    assert board.to_json()["rays"][0] == ["AC"]
    assert len(board.to_json()["stock"]) == 91


def test_physical_position_has_a_null_stock_until_the_8th_deal() -> None:
    board = Board("sun", deal=77)
    moves = list(random_playout(board, random.Random(77), max_moves=400))
    named = physical_moves(moves, board)
    physical = Board("sun")
    seen = []
    for move in named:
        obj = physical.to_json()
        assert errors_of(POSITION_SCHEMA, obj) == []
        seen.append((physical.deals, obj["stock"]))
        physical.push(move)
    assert all(stock is None for deals, stock in seen if deals < 8)
    assert all(stock == [] for deals, stock in seen if deals == 8)
    assert physical.stage is Stage.WIND
    assert physical.to_json()["wind_row"] == board.to_json()["wind_row"]


@pytest.mark.parametrize(
    "change",
    [
        lambda o: o.pop("status"),
        lambda o: o.update(stage=5),
        lambda o: o.update(rays=o["rays"][:12]),
        lambda o: o.update(stock=["1S"]),
        lambda o: o["foundations"].update(kings={"S": [], "H": [], "D": [], "C": []}),
        lambda o: o.update(open_ray=14),
    ],
)
def test_position_schema_rejects_broken_objects(change: Any) -> None:
    board = Board("sun-3", deal=3)
    board.push(Move.deal())
    obj = board.to_json()
    assert errors_of(POSITION_SCHEMA, obj) == []
    change(obj)
    assert errors_of(POSITION_SCHEMA, obj) != []


def _converted_moves(game: Game) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A game's moves as ``convert`` writes them, by the objects and by the text path."""
    from sunlog.notation.jsonio import resolved_game_json, resolved_game_parts
    from sunlog.notation.resolve import resolve

    resolved = resolve(game)
    as_objects = resolved_game_json(resolved)["moves"]
    _, texts, _ = resolved_game_parts(resolved)
    return as_objects, [json.loads(text) for text in texts]


@pytest.mark.parametrize("name", ["won-sun.sun", "sun-2.sun", "sun-3.sun", "physical.sun"])
def test_each_resolved_move_says_its_stage(name: str) -> None:
    """The stage after each move, as the position after it says (issue 32, 9): a program
    counts a game's moves by stage from the moves alone."""
    from sunlog.notation.resolve import resolve

    samples = Path(__file__).resolve().parent.parent / "samples"
    for game in parse_games((samples / name).read_text()):
        as_objects, as_texts = _converted_moves(game)
        assert as_objects == as_texts
        board = resolve(game).board
        expected = []
        replayed = Board(board.variant, deal=board.deal_number, deck=board.deck)
        for gm in game.moves[: len(as_objects)]:
            replayed.push(gm.move)
            expected.append(replayed.stage.json)
        assert [m["stage"] for m in as_objects] == expected
        kinds = {m["kind"]: m["stage"] for m in reversed(as_objects)}  # each kind's first
        assert kinds["deal"] == 1
        if "open" in kinds:
            assert kinds["open"] == 2
        if "gather" in kinds:
            assert kinds["gather"] == 3
        if "wind" in kinds:
            assert kinds["wind"] == "wind"
        for move in as_objects:
            GAME_SCHEMA.validate(document_json([{**game_to_json(game), "moves": [move]}]))


def test_a_document_without_stages_reads_as_one_with_them() -> None:
    """Old documents (no ``stage``) and new ones read alike: it is output only."""
    (game,) = parse_games(
        '[Deal "20261129"]\ndeal r1:AC>A r8:AS>A\ndeal deal deal deal deal deal deal\nopen 1\n'
    )
    as_objects, _ = _converted_moves(game)
    assert [m["stage"] for m in as_objects][-2:] == [1, 2]
    new = {**game_to_json(game), "moves": as_objects}
    old = {**new, "moves": [{k: v for k, v in m.items() if k != "stage"} for m in as_objects]}
    (from_new,) = read_json_games(json.dumps(new))
    (from_old,) = read_json_games(json.dumps(old))
    assert write_game(from_new) == write_game(from_old) == write_game(game)
