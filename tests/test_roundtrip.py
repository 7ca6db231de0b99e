"""Round trips over generated games (hypothesis): text, canonical text and JSON lose nothing.

Each example is a real game (random legal play on a random deal and variant), written the
way people write: short forms, any spelling, move numbers, annotations, comments with
awkward characters, tags with quotes and backslashes. Reading it back must give exactly
what was written; formatting is stable; JSON keeps everything and matches the schema.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from notationkit import VARIANTS, GenGame, essentials, random_gen_game, render, to_game

import sunlog.notation.reader as notation
import sunlog.notation.syntax as syntax
from sunlog.engine.board import Board
from sunlog.engine.moves import MoveKind
from sunlog.notation import parse_games, write_game
from sunlog.notation.game import Game
from sunlog.notation.jsonio import document_json, game_to_json, read_json_games
from sunlog.notation.replay import replay
from sunlog.notation.resources import schema

GAME_SCHEMA = Draft202012Validator(schema("game"))
POSITION_SCHEMA = Draft202012Validator(schema("position"))
_MEANINGFUL = {"Variant", "Deal", "Deck", "Result"}
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

comment_texts = (
    st.text(
        st.characters(exclude_categories=("Cs",), exclude_characters="\r"),
        max_size=20,
    )
    .map(str.strip)
    .filter(lambda t: not ("}" in t and "\n" in t))
)
tag_names = st.from_regex(r"[A-Za-z0-9_]{1,12}", fullmatch=True).filter(
    lambda n: n not in _MEANINGFUL
)
tag_values = st.text(
    st.characters(exclude_categories=("Cs",), exclude_characters="\n\r"), max_size=20
)


@st.composite
def gen_games(draw: st.DrawFn, *, last: bool = True) -> GenGame:
    """A real game with decorations; ``last`` allows comments after its result."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    game = random_gen_game(
        rng,
        variant=draw(st.sampled_from(VARIANTS)),
        physical=draw(st.booleans()),
        max_moves=draw(st.integers(1, 120)),
    )
    for _ in range(draw(st.integers(0, 3))):
        text = draw(comment_texts)
        where = draw(st.integers(-1, len(game.moves) - 1))
        (game.comments if where < 0 else game.moves[where].comments).append(text)
    for _ in range(draw(st.integers(0, 2))):
        game.tags.insert(draw(st.integers(0, len(game.tags))), (draw(tag_names), draw(tag_values)))
    if draw(st.booleans()) and not game.tags:
        game.tags.append(("Event", draw(tag_values)))
    if last and draw(st.booleans()):
        game.final_comments = draw(st.lists(comment_texts, max_size=2))
        game.result = game.result or "*"
    return game


def table(board: Board) -> dict[str, Any]:
    """The position object without what a physical game cannot know (stock, deal, and
    the position string, which writes them)."""
    obj = board.to_json()
    del obj["stock"], obj["deal"], obj["position"]
    return obj


def read_one(text: str) -> Game:
    (game,) = parse_games(text)
    assert game.error is None, (game.error, text)
    return game


def canonical_text(game: Game) -> str:
    result = replay(game, canonical=True)
    assert result.valid, result.error
    return write_game(game, result.canonical)


@SETTINGS
@given(gen_games(), st.sampled_from(["\n", "\r\n"]), st.randoms(use_true_random=False))
def test_text_reads_back_as_written(gen: GenGame, newline: str, rng: random.Random) -> None:
    text = render(gen, rng, newline=newline)
    game = read_one(text)
    expected = to_game(gen)
    assert essentials(game) == essentials(expected)
    cards = [gm.text for gm in game.moves if gm.move.kind is MoveKind.CARD]
    assert cards == [gm.text for gm in expected.moves if gm.move.kind is MoveKind.CARD]
    result = replay(game, canonical=True)
    assert result.valid, result.error
    assert list(result.canonical or ()) == [m.canonical for m in gen.moves]
    assert gen.board is not None
    assert table(result.board) == table(gen.board)


@SETTINGS
@given(gen_games(), st.randoms(use_true_random=False))
def test_canonical_text_is_stable(gen: GenGame, rng: random.Random) -> None:
    game = read_one(render(gen, rng))
    first = canonical_text(game)
    again = read_one(first)
    assert canonical_text(again) == first  # formatting twice changes nothing
    assert write_game(again) == first  # canonical text is printed as it stands
    assert [gm.move for gm in again.moves] == [m.canonical for m in gen.moves]
    assert [gm.number for gm in again.moves] == [None] * len(gen.moves)
    kept = essentials(game)
    got = essentials(again)
    assert (got["tags"], got["comments"], got["final_comments"], got["result"]) == (
        kept["tags"],
        kept["comments"],
        kept["final_comments"],
        kept["result"],
    )
    assert [m[2:] for m in got["moves"]] == [m[2:] for m in kept["moves"]]


@SETTINGS
@given(gen_games(), st.randoms(use_true_random=False))
def test_written_text_reads_back_unchanged(gen: GenGame, rng: random.Random) -> None:
    game = read_one(render(gen, rng))
    written = write_game(game)
    assert essentials(read_one(written)) == essentials(game)
    assert write_game(read_one(written)) == written


@SETTINGS
@given(gen_games(), st.randoms(use_true_random=False), st.booleans())
def test_json_keeps_everything_and_matches_the_schema(
    gen: GenGame, rng: random.Random, lines: bool
) -> None:
    game = read_one(render(gen, rng))
    data = game_to_json(game)
    document = document_json([data])
    assert list(GAME_SCHEMA.iter_errors(document)) == []
    text = json.dumps(data) + "\n" + json.dumps(data) if lines else json.dumps(document)
    back = read_json_games(text)[0]
    assert essentials(back) == essentials(game)
    again = read_one(write_game(back))
    assert essentials(again) == essentials(game)
    assert game_to_json(again) == data
    a, b = replay(game), replay(again)
    assert a.valid and b.valid
    assert a.board.key() == b.board.key()
    assert list(POSITION_SCHEMA.iter_errors(b.board.to_json())) == []


@SETTINGS
@given(st.lists(gen_games(last=False), min_size=2, max_size=4), st.randoms(use_true_random=False))
def test_games_of_a_file_read_as_if_alone_at_shifted_places(
    gens: list[GenGame], rng: random.Random
) -> None:
    texts = []
    for k, gen in enumerate(gens):
        if gen.result is None and k + 1 < len(gens) and not gens[k + 1].tags:
            gen.result = "*"  # without a result token, only a tag section can end a game
        texts.append(render(gen, rng))
    games = parse_games("".join(texts))
    assert len(games) == len(gens)
    line = 1
    for k, (text, game) in enumerate(zip(texts, games, strict=True), 1):
        alone = read_one(text)
        assert game.index == k
        assert essentials(game) == essentials(alone)
        shifted = [(gm.line, gm.column) for gm in alone.moves]
        shifted = [(a + line - 1, b) for a, b in shifted]  # type: ignore[operator]
        assert [(gm.line, gm.column) for gm in game.moves] == shifted
        line += text.count("\n")


def scan(text: str, line: int = 1, column: int = 1) -> Game | None:
    """A game's text read by the reader's state machine; ``None`` where it hands the game
    to Lark."""
    return notation._read(notation.GameText(text, line, column, 1))


def lark_game(chunk: Any) -> Game:
    """The game of a chunk read by the Lark parser (the reader's slow path)."""
    return syntax._assemble(
        syntax._parse_items(chunk.text), syntax._Locator(chunk.line, chunk.column), 1
    )


@SETTINGS
@given(gen_games(), st.randoms(use_true_random=False), st.data())
def test_fast_scanner_and_lark_build_the_same_games(
    gen: GenGame, rng: random.Random, data: st.DataObject
) -> None:
    text = render(gen, rng)
    mutated = text
    for _ in range(data.draw(st.integers(0, 3))):
        at = data.draw(st.integers(0, len(mutated)))
        piece = data.draw(st.sampled_from(["", "!", "?", " ", "\n", "{", "}", ";", "*", "1.", ":"]))
        cut = data.draw(st.integers(0, 3))
        mutated = mutated[:at] + piece + mutated[at + cut :]
    for chunk in notation._chunks(io.StringIO(mutated)):
        fast = scan(chunk.text, chunk.line, chunk.column)
        if fast is None:
            continue  # the scanner hands this game to Lark
        slow = lark_game(chunk)
        assert fast == slow
        assert [(m.line, m.column) for m in fast.moves] == [(m.line, m.column) for m in slow.moves]
    if mutated == text:
        chunk = next(notation._chunks(io.StringIO(text)))  # the game; then final comments
        assert scan(chunk.text, chunk.line, chunk.column) is not None


def test_scanner_reads_tags_with_escaped_backslashes_and_refuses_bad_escapes() -> None:
    good = scan('[Site "C:\\\\back\\\\slash \\"q\\""]\ndeal *')
    assert good is not None
    assert good.tags[0].value == 'C:\\back\\slash "q"'
    assert scan('[Site "C:\\\\\\games"]\ndeal *') is None  # \\ then \g
    assert scan('[Site "C:\\games"]\ndeal *') is None
