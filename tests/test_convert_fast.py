"""``convert``'s fast path to JSON text (``resolved_game_parts``, ``dumps_parts``) writes
byte for byte what the general path writes: the resolved objects of
``resolved_game_json`` encoded by ``dumps`` and ``dumps_pretty``. On random games of
every variant, physical ones, loosely written and decorated ones, invalid ones (damaged
logs that still read), with and without positions, each converted twice (the second time
from the texts kept by identity)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from notationkit import VARIANTS, mutate, random_gen_game, render
from typer.testing import CliRunner

from sunlog import cli
from sunlog.engine.played import (
    AcesSpot,
    CardMoved,
    CloudSpot,
    Dealt,
    Gathered,
    KingsSpot,
    Opened,
    RaySpot,
    WindBlown,
    WindSpot,
)
from sunlog.notation import jsonlayout as layout
from sunlog.notation import parse_games
from sunlog.notation.errors import LogError
from sunlog.notation.game import Game
from sunlog.notation.jsonio import FORMAT, resolved_game_json, resolved_game_parts
from sunlog.notation.resolve import resolve

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SPOTS = (RaySpot, CloudSpot, WindSpot, AcesSpot, KingsSpot)


def _games(seed: int) -> list[Game]:
    """Random games of each variant, written canonically or loosely, with real cards or
    a Deal tag, short and long; and damaged copies of them that still read."""
    rng = random.Random(seed)
    texts = []
    for variant in VARIANTS:
        for physical in (False, True):
            for max_moves in (0, 40, 400):
                gen = random_gen_game(
                    rng,
                    variant=variant,
                    physical=physical,
                    max_moves=max_moves,
                    decorate=rng.random() < 0.5,
                    respelled=rng.random() < 0.5,
                )
                texts.append(render(gen, rng))
    damaged = []
    for text in texts:
        for _ in range(3):
            try:
                damaged += parse_games(mutate(text, rng))
            except LogError:
                continue
    games = [g for text in texts for g in parse_games(text)] + damaged
    return [g for g in games if g.error is None]


GAMES = _games(1515) + _games(20261202)


def _general(game: Game, jsonl: bool, positions: bool = False) -> str:
    """What convert wrote for a game before the fast path: the objects, then dumps."""
    data = resolved_game_json(resolve(game, positions=positions), shared=True)
    if jsonl:
        return layout.dumps(data)
    return layout.dumps_pretty(data, "    ", leaf=layout.one_line)


def test_the_games_are_valid_and_invalid_of_every_variant_and_kind() -> None:
    resolved = [resolve(g) for g in GAMES]
    assert any(r.valid for r in resolved) and sum(not r.valid for r in resolved) > 10
    assert {g.tag("Variant") or "sun" for g in GAMES} >= set(VARIANTS)
    assert any(g.tag("Deal") is None for g in GAMES)  # physical games
    assert any(r.changes for r in resolved)  # a status changed somewhere
    assert any(not g.moves for g in GAMES)
    played = [p for r in resolved for p in r.moves]
    kinds = {type(p) for p in played}
    assert kinds == {CardMoved, Dealt, Opened, Gathered, WindBlown}
    assert {p.cloud is None for p in played if isinstance(p, Gathered)} == {True, False}
    assert {type(p.source) for p in played if isinstance(p, CardMoved)} == set(SPOTS)
    assert any(gm.number is not None or gm.comments for g in GAMES for gm in g.moves)


@pytest.mark.parametrize("jsonl", [True, False], ids=["jsonl", "document"])
@pytest.mark.parametrize("positions", [False, True], ids=["moves", "positions"])
def test_the_fast_path_writes_what_the_general_path_writes(jsonl: bool, positions: bool) -> None:
    games = GAMES if not positions else GAMES[::4]
    for _ in range(2):  # the second time, the texts are made already
        for game in games:
            text, error = layout.game_text(game, lines=jsonl, positions=positions)
            assert text == _general(game, jsonl, positions), (game.index, game.tags)
            assert (error is None) == resolve(game).valid


def test_the_parts_are_the_objects_of_the_general_path() -> None:
    for game in GAMES:
        resolved = resolve(game)
        head, moves, tail = resolved_game_parts(resolved)
        data = resolved_game_json(resolved)
        assert {**head, "moves": [json.loads(m) for m in moves], **tail} == data
        assert list(data) == [*head, "moves", *tail]


def test_dumps_parts_writes_a_game_without_moves_as_dumps_pretty_does() -> None:
    head = {"tags": [], "variant": "sun", "comments": []}
    tail = {"result": None, "final_comments": [], "valid": True, "error": None}
    whole = {**head, "moves": [], **tail}
    assert layout.dumps_parts(head, [], tail) == layout.dumps(whole)
    assert layout.dumps_parts(head, [], tail, "  ") == layout.dumps_pretty(
        whole, "  ", layout.one_line
    )
    head["tags"] = [{"name": "Event", "value": "x"}]
    whole = {**head, "moves": [], **tail}
    assert "\n" in layout.dumps_parts(head, [], tail, "  ")
    assert layout.dumps_parts(head, [], tail, "  ") == layout.dumps_pretty(
        whole, "  ", layout.one_line
    )


@pytest.mark.parametrize("jsonl", [True, False], ids=["jsonl", "document"])
def test_convert_of_a_file_writes_the_general_paths_document(tmp_path: Path, jsonl: bool) -> None:
    texts = [(SAMPLES / name).read_text() for name in ("won-sun.sun", "sun-3.sun")]
    texts.append((SAMPLES / "invalid" / "illegal-move.sun").read_text())
    log = tmp_path / "games.sun"
    log.write_text("\n".join(texts), encoding="utf-8")
    args = ["convert", str(log)] + (["--jsonl"] if jsonl else [])
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code == 1  # the invalid game
    games = parse_games(log.read_text())
    general = [_general(g, jsonl) for g in games]
    if jsonl:
        expected = "".join(text + "\n" for text in general)
    else:
        body = ",\n".join("    " + text for text in general)
        expected = f'{{\n  "format": "{FORMAT}",\n  "games": [\n{body}\n  ]\n}}\n'
    assert result.stdout == expected
