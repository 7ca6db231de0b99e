"""The resolved JSON of ``convert`` (docs/json.md): every move with what it did, invalid
games flagged, positions on request, ``show``/``moves --json``; all against the schemas.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from notationkit import VARIANTS, random_gen_game, render, staircase_deck, staircase_moves
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.engine.board import Board, Status
from sunlog.engine.moves import Move, MoveKind
from sunlog.engine.played import AcesSpot, CardMoved, CloudSpot, Gathered, RaySpot, WindSpot
from sunlog.notation import parse_games, write_game
from sunlog.notation.game import Game
from sunlog.notation.jsonio import read_json_games, resolved_game_json
from sunlog.notation.replay import replay
from sunlog.notation.resolve import resolve
from sunlog.notation.resources import schema
from sunlog.play.policies import play

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
VALID = sorted(SAMPLES.glob("*.sun"))
INVALID = SAMPLES / "invalid"
GAME_SCHEMA = schema("game")
POSITION_SCHEMA = schema("position")
DOCUMENT = Draft202012Validator(GAME_SCHEMA)
GAME = Draft202012Validator({"$defs": GAME_SCHEMA["$defs"], "$ref": "#/$defs/game"})
POSITION = Draft202012Validator(POSITION_SCHEMA)
MOVES = Draft202012Validator({"$defs": POSITION_SCHEMA["$defs"], "$ref": "#/$defs/moves"})


def run(*args: str | Path, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def errors_of(validator: Draft202012Validator, instance: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(instance)]


def canonical_forms(game: Game) -> list[str]:
    """What ``fmt`` writes for each move: the replay's canonical forms."""
    result = replay(game, canonical=True)
    assert result.canonical is not None
    return [str(m) for m in result.canonical]


def generated_games() -> list[Game]:
    """Real games of every variant and stage, loosely written, physical ones among them;
    and games played to their end by the policies (won and lost ones)."""
    rng = random.Random(1515)
    texts = []
    for variant in VARIANTS:
        for physical in (False, True):
            for max_moves in (5, 60, 300):
                gen = random_gen_game(rng, variant=variant, physical=physical, max_moves=max_moves)
                texts.append(render(gen, rng))
    games = [g for text in texts for g in parse_games(text)]
    for variant in VARIANTS:
        for deal, policy in ((3, "greedy"), (8, "lookahead")):
            board = play(deal, variant, policy)
            tags = [("Variant", variant), ("Deal", str(deal))]
            status = board.status()
            result = status.value if status is not Status.PLAYING else "*"
            text = "".join(f'[{n} "{v}"]\n' for n, v in tags)
            text += " ".join(str(m) for m in board.move_stack) + f" {result}\n"
            games += parse_games(text)
    return games


GENERATED = generated_games()


def test_the_generated_games_reach_every_stage_and_status() -> None:
    stages: set[tuple[str, int | str]] = set()
    statuses: set[Status] = set()
    kinds: set[MoveKind] = set()
    for game in GENERATED:

        def seen(board: Board) -> None:
            stages.add((board.variant.value, board.stage.json))

        board = replay(game, observe=seen).board
        statuses.add(board.status())
        kinds.update(gm.move.kind for gm in game.moves)
    assert {(v, "wind") for v in VARIANTS} <= stages
    assert {("sun", 2), ("sun-3", 2)} <= stages
    assert statuses == set(Status)
    assert kinds == set(MoveKind)


# ------------------------------------------------------------ agreement


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_samples_convert_resolved_and_valid_against_the_schema(path: Path) -> None:
    result = run("convert", path)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert errors_of(DOCUMENT, doc) == []
    for game, data in zip(parse_games(path.read_text()), doc["games"], strict=True):
        assert data["valid"] is True and data["error"] is None
        assert [m["canonical"] for m in data["moves"]] == canonical_forms(game)


def test_generated_games_resolve_to_fmts_canonical_form_and_fit_the_schema() -> None:
    for game in GENERATED:
        resolved = resolve(game)
        assert resolved.valid, resolved.error
        data = resolved_game_json(resolved)
        assert errors_of(GAME, data) == []
        assert [m["canonical"] for m in data["moves"]] == canonical_forms(game)


def test_written_fields_stay_as_written_beside_the_resolved_ones() -> None:
    text = '[Deal "20261129"]\ndeal r1>A r8:AS>A 2S>A\n*\n'
    (game,) = parse_games(text)
    moves = resolved_game_json(resolve(game))["moves"]
    assert moves[1]["source"] == "r1" and moves[1]["card"] is None
    assert moves[1]["played"] == "AC" and moves[1]["canonical"] == "r1:AC>A"
    assert moves[3]["source"] is None and moves[3]["card"] == "2S"
    assert moves[3]["from"] == {"place": "ray", "ray": 2, "depth": 1, "open": False}
    assert moves[3]["to"] == {"place": "aces", "suit": "S", "pile": 1}
    assert moves[3]["canonical"] == "r2:2S>A"
    assert moves[0]["cards"] is None and len(moves[0]["dealt"]) == 13
    assert moves[0]["dealt"][0] == "AC"  # ray 1 first (SPEC 4's vector)


def test_every_kind_of_place_and_effect() -> None:
    """Ray depths and the open ray, cloud and wind ends, both sun-3 aces piles, parking on
    an empty ray, a gather's cloud: each as a typed value where it happened."""
    seen: set[str] = set()
    for game in GENERATED:
        for move in resolve(game).moves:
            effect = move
            if isinstance(effect, CardMoved):
                src, dst = effect.source, effect.target
                if isinstance(src, RaySpot) and src.open and src.depth and src.depth > 1:
                    seen.add("open ray, deep")
                if isinstance(src, CloudSpot):
                    seen.add(f"cloud {src.end.value}")
                if isinstance(src, WindSpot):
                    seen.add(f"wind {src.end.value}")
                if isinstance(dst, AcesSpot) and dst.pile == 2:
                    seen.add("second aces pile")
                if isinstance(dst, RaySpot):
                    assert dst.depth is None
                    seen.add("parked")
            elif isinstance(effect, Gathered):
                assert len(effect.dealt) + len(effect.cloud_cards) == len(effect.cards)
                assert [r for r, _ in effect.dealt] == list(
                    range(effect.ray + 1, effect.ray + 1 + len(effect.dealt))
                )
                if effect.cloud is not None:
                    seen.add("new cloud")
    assert seen >= {
        "open ray, deep",
        "cloud L",
        "cloud R",
        "wind L",
        "wind R",
        "second aces pile",
        "parked",
        "new cloud",
    }


def test_status_is_written_only_where_it_changes() -> None:
    for game in GENERATED:
        resolved = resolve(game)
        changes = list(resolved.changes)
        assert all(resolved.status_after(i) is s for i, s in changes)
        final = resolved.board.status()
        if final is Status.PLAYING:
            assert changes == []
        else:  # won and lost stay: moves between foundations or parking may follow a loss
            assert [status for _, status in changes] == [final]
            if final is Status.WON:
                assert changes[0][0] == len(resolved.moves) - 1


# ---------------------------------------------------- standard library only


def _move_text(move: dict[str, Any], variant: str) -> str:
    """A move rebuilt from the resolved fields alone, as a program without the rules would."""
    kind = move["kind"]
    if kind == "deal":
        return "deal " + " ".join(move["dealt"])
    if kind == "wind":
        return "wind " + " ".join(move["row"])
    if kind in ("open", "gather"):
        return f"{kind} {move['ray']}"
    src, dst = move["from"], move["to"]
    place = src["place"]
    if place == "ray":
        source = f"r{src['ray']}.{src['depth']}"
    elif place == "cloud":
        source = f"c{src['cloud']}.{src['end']}"
    elif place == "wind":
        source = f"w.{src['end']}"
    else:
        source = "A" if place == "aces" else "K"
    if dst["place"] == "ray":
        target = f"r{dst['ray']}"
    elif dst["place"] == "kings":
        target = "K"
    else:
        target = f"A{dst['pile']}" if variant == "sun-3" else "A"
    return f"{source}:{move['played']}>{target}"


def test_resolved_json_replays_on_a_fresh_board_with_the_standard_library_only() -> None:
    """json.loads and from/to/dealt/row only: a board that knows no deck (every deal and
    the wind named) reaches the same final position."""
    for game in GENERATED:
        resolved = resolve(game)
        data = json.loads(json.dumps(resolved_game_json(resolved)))
        board = Board(data["variant"])
        for move in data["moves"]:
            board.push(Move.parse(_move_text(move, data["variant"])))
        mine, theirs = board.to_json(), resolved.board.to_json()
        for position in (mine, theirs):
            # the fresh board knows no deck (nor, then, does its position string)
            del position["deal"], position["stock"], position["position"]
        assert mine == theirs


# --------------------------------------------------------------- invalid


def check_json(path: Path) -> list[dict[str, Any]]:
    result = run("check", "--json", path)
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize(
    "name", sorted(p.name for p in INVALID.glob("*.sun") if p.name != "bad-card.sun")
)
def test_invalid_games_convert_flagged_with_checks_error_and_exit_1(name: str) -> None:
    path = INVALID / name
    result = run("convert", path)
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert errors_of(DOCUMENT, doc) == []
    checked = check_json(path)
    assert [g["valid"] for g in doc["games"]] == [c["valid"] for c in checked]
    assert [g["error"] for g in doc["games"]] == [c["error"] for c in checked]
    reports = run("check", path).stdout
    assert result.stderr == reports  # per game, as check prints it
    games = parse_games(path.read_text())
    for game, data, report in zip(games, doc["games"], checked, strict=True):
        resolved = [m for m in data["moves"] if "canonical" in m]
        assert len(resolved) == report["moves"]  # before the fault: resolved; from it: not
        assert data["moves"][len(resolved) :] == [
            {k: m[k] for k in m if k in _WRITTEN} for m in data["moves"][len(resolved) :]
        ]
        back = run("convert", "--to", "sun", "-", input=result.stdout)
        assert back.stdout == "\n".join(write_game(g) for g in games)
        assert game.moves  # nothing lost: every move is there, as written


_WRITTEN = {"kind", "source", "card", "target", "ray", "cards", "number", "annotation", "comments"}


def test_a_syntax_error_still_writes_nothing_and_no_check_skips_the_replay() -> None:
    assert run("convert", INVALID / "bad-card.sun").stdout == ""
    result = run("convert", INVALID / "illegal-move.sun", "--no-check")
    assert result.exit_code == 0 and result.stderr == ""
    (game,) = json.loads(result.stdout)["games"]
    assert "valid" not in game and all("canonical" not in m for m in game["moves"])


def test_false_results_are_flagged_after_every_move_resolved() -> None:
    text = '[Deal "1"]\n[Result "won"]\ndeal\n'
    result = run("convert", "-", input=text)
    assert result.exit_code == 1
    (game,) = json.loads(result.stdout)["games"]
    assert game["valid"] is False and game["error"]["move"] is None
    assert game["moves"][0]["canonical"] == "deal"
    assert "the log says won" in result.stderr


# ---------------------------------------------------------------- reading


def test_the_reader_ignores_the_resolved_fields_and_reads_old_documents() -> None:
    path = SAMPLES / "sun-3.sun"
    resolved = run("convert", path).stdout
    old = run("convert", path, "--no-check").stdout
    assert run("convert", "--to", "sun", "-", input=old).stdout == path.read_text()
    assert run("convert", "--to", "sun", "-", input=resolved).stdout == path.read_text()
    doc = json.loads(resolved)
    for move in doc["games"][0]["moves"]:  # output only: nonsense there changes nothing
        move.update(canonical="gather 99", played="KS", to={"place": "nowhere"})
    tampered = json.dumps(doc)
    assert [g.moves for g in read_json_games(tampered)] == [g.moves for g in read_json_games(old)]
    assert run("convert", "--to", "sun", "-", input=tampered).stdout == path.read_text()
    assert run("convert", "--to", "json", "-", input=tampered).stdout == resolved


# -------------------------------------------------------------- positions


def test_positions_after_every_move_and_at_the_start() -> None:
    path = SAMPLES / "club-night.sun"
    result = run("convert", path, "--positions", "--jsonl")
    assert result.exit_code == 0, result.stderr
    for line, game in zip(result.stdout.splitlines(), parse_games(path.read_text()), strict=True):
        data = json.loads(line)
        assert errors_of(GAME, data) == []
        board = replay(game, upto=0).board
        assert data["start_position"] == board.to_json()
        for gm, move in zip(game.moves, data["moves"], strict=True):
            board.push(gm.move)
            assert move["position"] == board.to_json()
    assert run("convert", path, "--positions", "--no-check").exit_code == 2
    assert run("convert", path, "--positions", "--to", "sun").exit_code == 2


def _big_log(path: Path, games: int) -> None:
    rng = random.Random(7)
    pieces = []
    for _ in range(20):
        gen = random_gen_game(rng, max_moves=300, decorate=False, respelled=False)
        pieces.append(render(gen, rng))
    with path.open("w") as handle:
        for i in range(games):
            handle.write(pieces[i % len(pieces)])


def _convert_peak_mb(log: Path, out: Path) -> float:
    """The peak memory (MB) of a process that converts ``log`` to JSON Lines with
    positions into ``out``."""
    code = (
        "import resource, sys\n"
        "from sunlog.cli import app\n"
        "try:\n"
        f"    app(['convert', {str(log)!r}, '--jsonl', '--positions', '-o', {str(out)!r}])\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1]) / 1024


@pytest.mark.slow
def test_jsonl_positions_stream_in_bounded_memory(tmp_path: Path) -> None:
    """Some 60 MB of JSON Lines with a position after every move, written by a process
    whose peak memory is that of converting a tenth as much: the output streams (through
    a spool that goes to disk past 16 MB), it is never held whole."""
    small_log, small_out = tmp_path / "small.sun", tmp_path / "small.jsonl"
    log, out = tmp_path / "big.sun", tmp_path / "big.jsonl"
    _big_log(small_log, 40)
    _big_log(log, 400)
    baseline = _convert_peak_mb(small_log, small_out)
    peak_mb = _convert_peak_mb(log, out)
    size_mb = out.stat().st_size / 1e6
    assert size_mb > 60
    # The baseline (Python, sunlog, a 6 MB spool) varies from one machine to the next;
    # holding the output would add its 60 MB to it, streaming adds at most the spool's
    # growth to 16 MB.
    assert peak_mb - baseline < 25, (baseline, peak_mb, size_mb)
    with out.open() as handle:
        assert sum(1 for _ in handle) == 400


# ------------------------------------------------------------ show, moves


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_show_and_moves_json_fit_the_schema_and_agree(path: Path) -> None:
    converted = json.loads(run("convert", path).stdout)["games"][0]
    total = len(converted["moves"])
    for at in (0, 9, total // 2, None):
        args = ["--at", str(min(at, total))] if at is not None else []
        shown = json.loads(run("show", path, "--json", *args).stdout)
        listed = json.loads(run("moves", path, "--json", *args).stdout)
        assert errors_of(POSITION, shown) == [] and errors_of(MOVES, listed) == []
        for key in ("last_move", "playable", "legal_moves"):
            assert shown[key] == listed[key]
        assert listed["legal_moves"] == run("moves", path, *args).stdout.splitlines()
        count = shown["move_count"]
        if count == 0:
            assert shown["last_move"] is None
        else:
            last = converted["moves"][count - 1]
            assert shown["last_move"] == {
                k: v for k, v in last.items() if k == "kind" or k not in _WRITTEN | {"status"}
            }
        cards = {p["card"] for p in shown["playable"]}
        for text in listed["legal_moves"]:
            move = Move.parse(text)
            if move.kind is MoveKind.CARD:
                assert str(move.card) in cards


def test_playable_names_every_place() -> None:
    board = Board("sun", deal=20261129)
    for _ in range(8):
        board.push(Move.deal())
    board.push(Move.open(3))
    ray3 = board.rays[2]
    spots = board.playable()
    open_spots = [(c, s) for c, s in spots if isinstance(s, RaySpot) and s.ray == 3]
    # every card of the open ray, outer copies only where two copies lie side by side
    expected = [
        (ray3[pos], len(ray3) - pos)
        for pos in range(len(ray3) - 1, -1, -1)
        if pos == len(ray3) - 1 or ray3[pos] != ray3[pos + 1]
    ]
    assert [(c, s.depth) for c, s in open_spots] == expected
    assert all(s.open for _, s in open_spots)
    others = [s for _, s in spots if isinstance(s, RaySpot) and s.ray != 3]
    assert others and all(not s.open and s.depth == 1 for s in others)
    assert len(others) == sum(1 for n, ray in enumerate(board.rays, 1) if ray and n != 3)
    staircase = Board("sun", deck=staircase_deck("sun"))
    for text in staircase_moves("sun"):
        staircase.push(Move.parse(text))
    assert staircase.playable() == []  # won: nothing is playable


# -------------------------------------------------------------- schemas


def test_game_schema_copies_the_position_schema_exactly() -> None:
    """game.json cannot refer to position.json (no retrieval): it holds copies, kept equal."""
    for name, definition in POSITION_SCHEMA["$defs"].items():
        assert GAME_SCHEMA["$defs"][name] == definition, name
    body = {k: v for k, v in POSITION_SCHEMA.items() if k not in ("$schema", "$id", "$defs")}
    copy = dict(GAME_SCHEMA["$defs"]["position"])
    assert copy.pop("title") and body.pop("title")
    assert copy == body


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m.pop("played"),
        lambda m: m.update({"from": {"place": "ray", "ray": 14, "depth": 1, "open": False}}),
        lambda m: m.update(to={"place": "aces", "suit": "S", "pile": 3}),
        lambda m: m.update(status="playing"),
        lambda m: m.update(played="TS"),
    ],
)
def test_the_schema_rejects_broken_resolved_moves(change: Any) -> None:
    (game,) = parse_games('[Deal "20261129"]\ndeal r1>A\n*\n')
    data = resolved_game_json(resolve(game))
    assert errors_of(GAME, data) == []
    change(data["moves"][1])
    assert errors_of(GAME, data) != []


# ------------------------------------------------------------------ docs


def test_the_docs_snippet_counts_cards_from_the_open_ray(tmp_path: Path) -> None:
    """docs/json.md's Python snippet runs on a converted archive and counts right."""
    text = (ROOT / "docs" / "json.md").read_text()
    (snippet,) = re.findall(r"```python\n(.*?)```", text, re.S)
    archive = tmp_path / "archive.json"
    assert run("convert", SAMPLES / "club-night.sun", "-o", archive).exit_code == 0
    done = subprocess.run(
        [sys.executable, "-c", snippet, str(archive)], capture_output=True, text=True, check=True
    )
    expected = 0
    for game in parse_games((SAMPLES / "club-night.sun").read_text()):
        for move in resolve(game).moves:
            effect = move
            if isinstance(effect, CardMoved) and isinstance(effect.source, RaySpot):
                expected += effect.source.open
    assert expected > 0
    assert done.stdout.split()[-1] == str(expected)


def test_the_docs_library_example_runs(tmp_path: Path) -> None:
    """docs/json.md's library example, on a copy of a sample called games.sun."""
    text = (ROOT / "docs" / "json.md").read_text()
    (example,) = re.findall(r"```python-example\n(.*?)```", text, re.S)
    (tmp_path / "games.sun").write_text((SAMPLES / "club-night.sun").read_text())
    done = subprocess.run(
        [sys.executable, "-c", example], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    lines = [line.split() for line in done.stdout.splitlines()]
    assert [(n, valid) for n, valid, _ in lines] == [("1", "True"), ("2", "True"), ("3", "True")]
    assert any(int(deep) > 0 for *_, deep in lines)


def test_the_docs_examples_are_what_convert_writes() -> None:
    """Each example of docs/json.md is the move its marker names, as convert writes it."""
    text = (ROOT / "docs" / "json.md").read_text()
    (inline,) = re.findall(r"```sun\n(.*?)```", text, re.S)
    examples = re.findall(
        r"<!-- example: (\S+)(?: game (\d+))? move (\d+) -->\n\n```json\n(.*?)\n```", text
    )
    assert len(examples) >= 15
    converted: dict[str, list[dict[str, Any]]] = {}
    for source, game, move, shown in examples:
        if source not in converted:
            args = ("-",) if source == "inline" else (ROOT / source,)
            result = run("convert", *args, input=inline if source == "inline" else None)
            assert result.exit_code == 0, result.stderr
            converted[source] = json.loads(result.stdout)["games"]
        expected = converted[source][int(game or 1) - 1]["moves"][int(move) - 1]
        assert json.loads(shown) == expected
    kinds = {json.loads(shown)["kind"] for *_, shown in examples}
    assert kinds == {k.value for k in MoveKind}
    (flagged,) = re.findall(r'^(\{"valid": false.*\})$', text, re.M)
    (game,) = json.loads(run("convert", INVALID / "illegal-move.sun").stdout)["games"]
    assert json.loads(flagged) == {"valid": game["valid"], "error": game["error"]}
