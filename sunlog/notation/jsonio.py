"""Games as JSON, both ways (SPEC 6): ``{"format": "sunlog/1", "games": [...]}`` and JSON Lines.

Everything a game holds survives the trip to JSON and back: tags in order, each move's
kind, source, card, target, named cards, move number, annotation and comments, the
comments at the start and after the result, and the result.

:func:`resolved_game_json` adds, beside those written fields, what each move did (its
``canonical`` form, ``played``/``from``/``to`` of a card move, a deal's ``dealt``, a
gather's ``gathered``/``dealt_to``/``new_cloud``, the wind's ``row``, a ``status`` that
changed, and on request the ``position`` after it) and the game's ``valid`` and ``error``.
Those fields are output only: the reader ignores them, the written fields being the
game (docs/json.md). :func:`resolved_game_parts` gives the same object with each move
already as JSON text, which ``convert`` writes out without encoding the moves again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from sunlog.engine.board import Board, Stage, Variant
from sunlog.engine.cards import Card
from sunlog.engine.errors import InvalidMoveError, clip
from sunlog.engine.moves import Move, MoveKind, Target
from sunlog.engine.played import (
    AcesSpot,
    CardMoved,
    CloudSpot,
    Dealt,
    Gathered,
    KingsSpot,
    Opened,
    Played,
    RaySpot,
    Spot,
    WindBlown,
)
from sunlog.engine.position import position_variant
from sunlog.notation.errors import LogErrorCode, LogSyntaxError
from sunlog.notation.game import RESULTS, Game, GameMove, Tag
from sunlog.notation.resolve import ResolvedGame
from sunlog.notation.slips import invisible, look_alike, plain
from sunlog.notation.writer import comment_fault, number_fault, tag_value_fault

__all__ = [
    "FORMAT",
    "document_json",
    "game_from_json",
    "game_to_json",
    "move_from_json",
    "move_to_json",
    "moves_json",
    "played_json",
    "position_actions",
    "read_json_games",
    "resolved_game_json",
    "resolved_game_parts",
    "spot_json",
]

#: The value of a document's ``format`` member.
FORMAT = "sunlog/1"
#: JSON is parsed whole: a longer text is refused rather than parsed (docs/limits.md).
MAX_JSON_CHARS = 64 * 1024 * 1024
_ANNOTATIONS = ("!", "?", "!!", "??", "!?", "?!")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _source_text(move: Move) -> str | None:
    """The written source of a card move (``r3.4``, ``c2.L``, ``w``, ``A``), or None."""
    if move.source is None:
        return None
    text = str(move._replace(card=None, target=Target.ACES, target_ray=None))
    return text.rsplit(">", 1)[0]


def move_to_json(gm: GameMove) -> dict[str, Any]:
    """One move as a JSON object."""
    move = gm.move
    data: dict[str, Any] = {"kind": move.kind.value}
    if move.kind is MoveKind.CARD:
        data["source"] = _source_text(move)
        data["card"] = None if move.card is None else str(move.card)
        target = move.target
        assert target is not None
        data["target"] = f"r{move.target_ray}" if target is Target.RAY else target.value
    elif move.kind in (MoveKind.OPEN, MoveKind.GATHER):
        data["ray"] = move.index
    else:
        data["cards"] = None if move.cards is None else [str(c) for c in move.cards]
    data["number"] = gm.number
    data["annotation"] = gm.annotation
    data["comments"] = list(gm.comments)
    return data


def game_to_json(game: Game) -> dict[str, Any]:
    """One game as a JSON object (the items of a document's ``games``)."""
    data = _game_head(game)
    data["moves"] = [move_to_json(m) for m in game.moves]
    data.update(_game_tail(game))
    return data


def _game_head(game: Game) -> dict[str, Any]:
    """The members of a game's object before ``moves``."""
    variant = game.tag("Variant")
    position = game.tag("Position")
    try:
        if variant is not None:
            variant_name: str | None = Variant.parse(variant).value
        elif position is not None:  # the Position tag names the variant
            named = position_variant(position)
            variant_name = None if named is None else named.value
        else:
            variant_name = "sun"
    except ValueError:
        variant_name = None  # unknown: the Variant tag keeps what was written
    data: dict[str, Any] = {"tags": [{"name": t.name, "value": t.value} for t in game.tags]}
    if variant_name is not None:
        data["variant"] = variant_name
    data["comments"] = list(game.comments)
    return data


def _game_tail(game: Game) -> dict[str, Any]:
    """The members of a game's object after ``moves``."""
    return {
        # a Result tag that is no result stays in the tags; the JSON result stays valid
        "result": game.claimed_result,
        "final_comments": list(game.final_comments),
    }


_SUITS = "SHDC"
# What a spot and a move's canonical text are as JSON, made once each: a log repeats them
# (the engine makes each spot once, and a reader each move token once). Looked up by
# identity, which is cheap; the entry keeps its key alive, so an id is never reused while
# it is in the table.
_SPOTS: dict[int, tuple[Spot, dict[str, Any]]] = {}
_TEXTS: dict[int, tuple[Move, str]] = {}
_FRAGMENTS: dict[int, tuple[CardMoved, dict[str, Any]]] = {}
_CACHE_MAX = 50_000


def _spot_object(spot: Spot) -> dict[str, Any]:
    """The JSON object of a spot, shared between the moves that have it (not to be changed)."""
    entry = _SPOTS.get(id(spot))
    if entry is not None and entry[0] is spot:
        return entry[1]
    data: dict[str, Any]
    if isinstance(spot, RaySpot):
        data = {"place": "ray", "ray": spot.ray}
        if spot.depth is not None:
            data.update(depth=spot.depth, open=spot.open)
    elif isinstance(spot, CloudSpot):
        data = {"place": "cloud", "cloud": spot.cloud, "end": spot.end.value}
    elif isinstance(spot, AcesSpot):
        data = {"place": "aces", "suit": _SUITS[spot.suit], "pile": spot.pile}
    elif isinstance(spot, KingsSpot):
        data = {"place": "kings", "suit": _SUITS[spot.suit]}
    else:
        data = {"place": "wind", "end": spot.end.value}
    if len(_SPOTS) >= _CACHE_MAX:
        _SPOTS.clear()
    _SPOTS[id(spot)] = (spot, data)
    return data


def spot_json(spot: Spot) -> dict[str, Any]:
    """A place as a JSON object: ``{"place": "ray", "ray": 5, "depth": 1, "open": false}``,
    ``{"place": "cloud", "cloud": 2, "end": "L"}``, ``{"place": "wind", "end": "R"}``,
    ``{"place": "aces", "suit": "S", "pile": 1}``, ``{"place": "kings", "suit": "S"}``, or
    ``{"place": "ray", "ray": 3}`` for an empty ray a ``sun-3`` card is parked on."""
    return dict(_spot_object(spot))


def _names(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _text(move: Move) -> str:
    """``str(move)``, made once per move value held (see :data:`_TEXTS`)."""
    entry = _TEXTS.get(id(move))
    if entry is not None and entry[0] is move:
        return entry[1]
    if len(_TEXTS) >= _CACHE_MAX:
        _TEXTS.clear()
    text = str(move)
    _TEXTS[id(move)] = (move, text)
    return text


def played_json(played: Played, *, shared: bool = False) -> dict[str, Any]:
    """What a move did, as the resolved fields of its JSON object (docs/json.md).

    ``shared``: the objects made may be shared with other moves (a document written out
    at once, as ``convert`` does, and not changed), which saves making them anew."""
    if isinstance(played, CardMoved):
        if shared:
            entry = _FRAGMENTS.get(id(played))
            if entry is not None and entry[0] is played:
                return entry[1]
        spot = _spot_object if shared else spot_json
        data: dict[str, Any] = {
            "canonical": _text(played.canonical),
            "played": str(played.card),
            "from": spot(played.source),
            "to": spot(played.target),
        }
        if shared:
            if len(_FRAGMENTS) >= _CACHE_MAX:
                _FRAGMENTS.clear()
            _FRAGMENTS[id(played)] = (played, data)
        return data
    data = {"canonical": _text(played.canonical)}
    if isinstance(played, Dealt):
        data["dealt"] = _names(played.cards)
    elif isinstance(played, Gathered):
        data["gathered"] = _names(played.cards)
        data["dealt_to"] = [{"ray": ray, "card": str(card)} for ray, card in played.dealt]
        data["new_cloud"] = (
            None
            if played.cloud is None
            else {"cloud": played.cloud, "cards": _names(played.cloud_cards)}
        )
    elif isinstance(played, WindBlown):
        data["row"] = _names(played.row)
    return data


def resolved_game_json(resolved: ResolvedGame, *, shared: bool = False) -> dict[str, Any]:
    """A game as :func:`game_to_json` writes it, each move replayed before any fault with
    its resolved fields beside the written ones, and the game's ``valid`` and ``error``
    (the ``error`` object of ``check --json``); with positions, ``start_position`` too.

    ``shared``: place objects may be shared between moves (see :func:`played_json`)."""
    data = game_to_json(resolved.game)
    moves = data["moves"]
    for written, played, stage in zip(moves, resolved.moves, resolved.move_stages(), strict=False):
        written.update(played_json(played, shared=shared))
        written["stage"] = stage.json
    for index, status in resolved.changes:
        moves[index]["status"] = status.value
    if resolved.positions is not None:
        for written, position in zip(moves, resolved.positions, strict=False):
            written["position"] = position
    data["valid"] = resolved.valid
    data["error"] = None if resolved.error is None else resolved.error.to_json()
    if resolved.start is not None:
        data["start_position"] = resolved.start
    return data


#: ``json.dumps(value, ensure_ascii=False)``, the encoding of ``convert`` (its C encoder).
_encode = json.JSONEncoder(ensure_ascii=False).encode
# The JSON texts of the text path (resolved_game_parts), made once each, by identity as
# above: a plain move's written members (no number, annotation or comments) without the
# closing brace, a card move's resolved members with the ", " before them, a spot's object.
_WRITTEN_TEXTS: dict[int, tuple[Move, str]] = {}
_PLAYED_TEXTS: dict[int, tuple[CardMoved, str]] = {}
_SPOT_TEXTS: dict[int, tuple[Spot, str]] = {}


def _kept(table: dict[int, tuple[Any, str]], key: Any, text: str) -> str:
    """Keep ``text`` as ``key``'s in ``table`` (emptied when full) and return it: the
    callers look a key up themselves first, inline, since a hit is the common case."""
    if len(table) >= _CACHE_MAX:
        table.clear()
    table[id(key)] = (key, text)
    return text


# A plain stage action's written members (``deal``, ``open 3``), by its kind's value and
# ray: a reader makes each card move token's value once, but a stage action anew each time.
_CARD_KIND = MoveKind.CARD
# The ``stage`` member of a resolved move, with the ", " before it, by stage.
_STAGE_MEMBERS = {stage: f', "stage": {_encode(stage.json)}' for stage in Stage}
_STAGE_TEXTS: dict[tuple[str, int | None], str] = {}


def _written_text(gm: GameMove) -> str:
    """A move's written members as JSON, without the closing brace."""
    if gm.number is None and gm.annotation is None and not gm.comments:
        move = gm.move
        entry = _WRITTEN_TEXTS.get(id(move))
        if entry is not None and entry[0] is move:
            return entry[1]
        if move.kind is not _CARD_KIND:
            if move.cards is not None:  # a deal or wind naming its cards: one of a kind
                return _encode(move_to_json(gm))[:-1]
            key = (move.kind._value_, move.index)
            text = _STAGE_TEXTS.get(key)
            if text is None:
                if len(_STAGE_TEXTS) >= _CACHE_MAX:
                    _STAGE_TEXTS.clear()
                text = _STAGE_TEXTS[key] = _encode(move_to_json(gm))[:-1]
            return text
        return _kept(_WRITTEN_TEXTS, move, _encode(move_to_json(gm))[:-1])
    return _encode(move_to_json(gm))[:-1]


def _spot_text(spot: Spot) -> str:
    entry = _SPOT_TEXTS.get(id(spot))
    if entry is not None and entry[0] is spot:
        return entry[1]
    return _kept(_SPOT_TEXTS, spot, _encode(_spot_object(spot)))


def _card_played_text(played: CardMoved) -> str:
    return (
        f', "canonical": {_encode(_text(played.canonical))}, "played": "{played.card}", '
        f'"from": {_spot_text(played.source)}, "to": {_spot_text(played.target)}'
    )


def _card_list(cards: tuple[Card, ...]) -> str:
    """A list of card names as JSON (the names need no escaping)."""
    return '["' + '", "'.join(map(str, cards)) + '"]' if cards else "[]"


def _played_text(played: Played) -> str:
    """A move's resolved members as JSON, with the ``", "`` before them."""
    if type(played) is CardMoved:
        entry = _PLAYED_TEXTS.get(id(played))
        if entry is not None and entry[0] is played:
            return entry[1]
        return _kept(_PLAYED_TEXTS, played, _card_played_text(played))
    canonical = _encode(str(played.canonical))  # a stage action's: made anew each game
    if type(played) is Dealt:
        return f', "canonical": {canonical}, "dealt": {_card_list(played.cards)}'
    if type(played) is WindBlown:
        return f', "canonical": {canonical}, "row": {_card_list(played.row)}'
    if type(played) is Gathered:
        dealt = ", ".join(f'{{"ray": {ray}, "card": "{card}"}}' for ray, card in played.dealt)
        cloud = (
            "null"
            if played.cloud is None
            else f'{{"cloud": {played.cloud}, "cards": {_card_list(played.cloud_cards)}}}'
        )
        return (
            f', "canonical": {canonical}, "gathered": {_card_list(played.cards)}, '
            f'"dealt_to": [{dealt}], "new_cloud": {cloud}'
        )
    if type(played) is Opened:
        return f', "canonical": {canonical}'  # its canonical form says it all
    return ", " + _encode(played_json(played))[1:-1]


def resolved_game_parts(
    resolved: ResolvedGame,
) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """:func:`resolved_game_json`'s object in three parts, to be written out at once: the
    members before ``moves``, the JSON text of each move (what ``json.dumps(move,
    ensure_ascii=False)`` gives for each object of ``moves``) and the members after it.

    The texts are made from pieces kept by identity (each spot's object, each move's
    written and resolved members), so a log's repeated moves cost little."""
    game = resolved.game
    moves = game.moves
    played = resolved.moves  # the moves before a fault, if any
    changes, positions = resolved.changes, resolved.positions
    end = "" if changes or positions is not None else "}"  # else closed below
    stages = [_STAGE_MEMBERS[stage] + end for stage in resolved.move_stages()]
    texts = [
        _written_text(gm) + _played_text(p) + stage
        for gm, p, stage in zip(moves, played, stages, strict=False)
    ]
    if not end:
        for index, status in changes:
            texts[index] += f', "status": "{status.value}"'
        for i, position in enumerate(positions or ()):
            texts[i] += ', "position": ' + _encode(position)
        texts = [text + "}" for text in texts]
    texts += [_written_text(gm) + "}" for gm in moves[len(texts) :]]  # after a fault
    tail = _game_tail(game)
    tail["valid"] = resolved.valid
    tail["error"] = None if resolved.error is None else resolved.error.to_json()
    if resolved.start is not None:
        tail["start_position"] = resolved.start
    return _game_head(game), texts, tail


def position_actions(board: Board) -> dict[str, Any]:
    """What a program needs to act on a position: ``last_move`` (its kind and resolved
    fields, or null before any move), ``playable`` (each playable card with its place) and
    ``legal_moves`` (canonical texts; a deal or wind whose cards must be named is not
    listed)."""
    last = None
    if board.move_stack:
        played = board.last_played()
        last = {
            "kind": played.canonical.kind.value,
            **played_json(played),
            "stage": board.stage.json,
        }
    return {
        "last_move": last,
        "playable": [{"card": str(c), "from": spot_json(s)} for c, s in board.playable()],
        "legal_moves": [str(m) for m in board.legal_moves()],
    }


def moves_json(board: Board, unlisted: Iterable[str] = ()) -> dict[str, Any]:
    """What ``moves --json`` prints: the move count and status, :func:`position_actions`,
    and the legal moves that cannot be listed (``unlisted``, described)."""
    return {
        "move_count": board.move_count,
        "status": board.status().value,
        **position_actions(board),
        "unlisted": list(unlisted),
    }


def document_json(games: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The JSON document ``convert`` writes for a file."""
    return {"format": FORMAT, "games": list(games)}


class _Path:
    """Where in the JSON a value sits, for error messages: ``games[2].moves[5].card``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __truediv__(self, part: str | int) -> _Path:
        return _Path(f"{self.text}[{part}]" if isinstance(part, int) else f"{self.text}.{part}")

    def fail(self, message: str) -> LogSyntaxError:
        return LogSyntaxError(f"{self.text}: {message}", code=LogErrorCode.NOT_A_DOCUMENT)


def _expect(value: Any, kind: type | tuple[type, ...], where: _Path, what: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise where.fail(f"expected {what}, found {json.dumps(value)[:40]}")
    if isinstance(value, str) and _SURROGATE.search(value):  # JSON's "\ud800" is no text
        raise where.fail(f"expected {what}, found a lone surrogate in {json.dumps(value)[:40]}")
    return value


def _strings(value: Any, where: _Path) -> tuple[str, ...]:
    items = _expect(value if value is not None else [], list, where, "a list of strings")
    for i, item in enumerate(items):
        _expect(item, str, where / i, "a string")
        fault = comment_fault(item)
        if fault is not None:
            raise (where / i).fail(fault)
    return tuple(items)


def _card(value: Any, where: _Path) -> Card:
    text = _expect(value, str, where, "a card like QD or 10H")  # its error names the place
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise _slip(text, where) or where.fail(str(exc)) from None


def _slip(text: str, where: _Path) -> LogSyntaxError | None:
    """A letter of another alphabet drawn like a Latin one, or a character drawn as nothing,
    in a string the notation reads: named as the text reader names it, with the string
    as meant (:mod:`sunlog.notation.slips`)."""
    found, code = look_alike(text), LogErrorCode.LOOK_ALIKE
    if found is None:
        found, code = invisible(text), LogErrorCode.INVISIBLE
    if found is None:
        return None
    return LogSyntaxError(f"{where.text}: {found[1]}: write {clip(plain(text))}", code=code)


def move_from_json(data: Any, where: _Path | None = None) -> GameMove:
    """One move from its JSON object; raises :class:`LogSyntaxError` saying where."""
    where = where or _Path("move")
    _expect(data, dict, where, "a move object")
    kind_name = _expect(data.get("kind"), str, where / "kind", "a move kind")
    try:
        kind = MoveKind(kind_name)
    except ValueError:
        raise (where / "kind").fail(
            f"unknown move kind {clip(kind_name)!r}: expected deal, open, gather, wind or card"
        ) from None
    if kind is MoveKind.CARD:
        source = data.get("source")
        card = data.get("card")
        target = _expect(data.get("target"), str, where / "target", "a target such as A, K or r5")
        if source is not None:
            _expect(source, str, where / "source", "a source such as r5, c2.L, w or A")
        if card is not None:
            card = str(_card(card, where / "card"))
        if source is None and card is None:
            raise where.fail("a card move names its source, its card, or both")
        text = (f"{source}:{card}" if source and card else source or card) + ">" + target
        try:
            move = Move.parse_card_move(text)
        except InvalidMoveError:
            raise (
                (_slip(source, where / "source") if source else None)
                or _slip(target, where / "target")
                or where.fail(f"{clip(text)!r} is not a card move")
            ) from None
    elif kind in (MoveKind.OPEN, MoveKind.GATHER):
        ray = _expect(data.get("ray"), int, where / "ray", "a ray number")
        try:
            move = Move.open(ray) if kind is MoveKind.OPEN else Move.gather(ray)
        except InvalidMoveError as exc:
            raise (where / "ray").fail(str(exc)) from None
    else:
        cards = data.get("cards")
        named = None
        if cards is not None:
            _expect(cards, list, where / "cards", "a list of cards")
            named = tuple(_card(c, where / "cards" / i) for i, c in enumerate(cards))
        move = Move.deal(named) if kind is MoveKind.DEAL else Move.wind(named)
    number = data.get("number")
    if number is not None:
        _expect(number, int, where / "number", "a move number")
        fault = number_fault(number)
        if fault is not None:
            raise (where / "number").fail(fault)
    annotation = data.get("annotation")
    if annotation is not None and annotation not in _ANNOTATIONS:
        raise (where / "annotation").fail(
            f"an annotation is one of ! ? !! ?? !? ?!, not {json.dumps(annotation)}"
        )
    comments = _strings(data.get("comments"), where / "comments")
    return GameMove(move, str(move), number, annotation, comments)


def game_from_json(data: Any, index: int = 1, where: _Path | None = None) -> Game:
    """One game from its JSON object; raises :class:`LogSyntaxError` saying where."""
    where = where or _Path(f"games[{index - 1}]")
    _expect(data, dict, where, "a game object")
    tags = []
    for i, tag in enumerate(_expect(data.get("tags", []), list, where / "tags", "a list")):
        at = where / "tags" / i
        _expect(tag, dict, at, 'a tag object {"name": ..., "value": ...}')
        name = _expect(tag.get("name"), str, at / "name", "a tag name")
        if not name or not all(c.isascii() and (c.isalnum() or c == "_") for c in name):
            raise (at / "name").fail(f"a tag name is letters, digits and _, not {clip(name)!r}")
        value = _expect(tag.get("value"), str, at / "value", "a string")
        fault = tag_value_fault(value)
        if fault is not None:
            raise (at / "value").fail(fault)
        tags.append(Tag(name, value))
    variant = data.get("variant")
    if variant is not None:
        _expect(variant, str, where / "variant", "a variant name")
        fault = tag_value_fault(variant)  # it is written as the Variant tag's value
        if fault is not None:
            raise (where / "variant").fail(fault)
        written = next((t.value for t in tags if t.name == "Variant"), None)
        position = next((t.value for t in tags if t.name == "Position"), None)
        if written is None and position is not None:
            named = position_variant(position)
            if named is not None and named.value != variant.lower():
                raise (where / "variant").fail(
                    f"the variant {clip(variant)!r} disagrees with the Position tag's "
                    f"{named.value!r}"
                )
        elif written is None and variant.lower() != "sun":
            tags.insert(0, Tag("Variant", variant))
        elif written is not None and written.lower() != variant.lower():
            raise (where / "variant").fail(
                f"the variant {clip(variant)!r} disagrees with the Variant tag {clip(written)!r}"
            )
    moves = tuple(
        move_from_json(m, where / "moves" / i)
        for i, m in enumerate(_expect(data.get("moves", []), list, where / "moves", "a list"))
    )
    result = data.get("result")
    if result is not None:
        _expect(result, str, where / "result", "won, lost or *")
        if result.lower() not in RESULTS:
            raise (where / "result").fail(f"a result is won, lost or *, not {clip(result)!r}")
        result = result.lower()
    return Game(
        tags=tuple(tags),
        moves=moves,
        result=result,
        comments=_strings(data.get("comments"), where / "comments"),
        final_comments=_strings(data.get("final_comments"), where / "final_comments"),
        index=index,
    )


class _NotStrictJSON(Exception):
    """What Python's JSON reader lets through and a sunlog document must not hold."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object, refused when a key appears twice (readers differ on which one wins)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _NotStrictJSON(f"the key {json.dumps(key)[:60]} appears twice in one object")
            seen.add(key)
    return obj


_NOT_DOC = LogErrorCode.NOT_A_DOCUMENT


def _no_constant(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity`` are not JSON, though Python reads them."""
    raise _NotStrictJSON(f"{name} is not a JSON value")


def _loads(text: str, line: int = 1) -> Any:
    """``json.loads``, strict (no duplicate keys, no ``NaN``), with nesting too deep for
    Python as a :class:`LogSyntaxError`."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _NotStrictJSON as exc:
        raise LogSyntaxError(
            f"not a sunlog JSON document: {exc}", code=_NOT_DOC, line=line, column=1
        ) from None
    except RecursionError:
        raise LogSyntaxError(
            "not a sunlog JSON document: arrays or objects nested too deeply",
            code=_NOT_DOC,
            line=line,
            column=1,
        ) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # a number of thousands of digits, which Python will not convert
        raise LogSyntaxError(
            "not a sunlog JSON document: a number with thousands of digits",
            code=_NOT_DOC,
            line=line,
            column=1,
        ) from None


def read_json_games(text: str) -> list[Game]:
    """Games from a JSON document, JSON Lines, or a single game object.

    A text longer than :data:`MAX_JSON_CHARS` is refused with a :class:`LogSyntaxError`.
    """
    if len(text) > MAX_JSON_CHARS:
        raise LogSyntaxError(
            f"the JSON text is longer than {MAX_JSON_CHARS // (1024 * 1024)} MiB: refusing to "
            "parse it whole",
            code=LogErrorCode.TOO_LONG,
            line=1,
            column=1,
        )
    text = text.lstrip("\ufeff")
    try:
        data = _loads(text)
    except json.JSONDecodeError as first:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise LogSyntaxError(
                f"not JSON: {first.msg}",
                code=LogErrorCode.NOT_JSON,
                line=first.lineno,
                column=first.colno,
            ) from None
        games = []
        for n, line in enumerate(lines, 1):
            try:
                obj = _loads(line, n)
            except json.JSONDecodeError as exc:
                raise LogSyntaxError(
                    f"not JSON Lines: {exc.msg}",
                    code=LogErrorCode.NOT_JSON,
                    line=n,
                    column=exc.colno,
                ) from None
            games.append(game_from_json(obj, n, _Path(f"line {n}")))
        return games
    if isinstance(data, dict) and "games" in data:
        fmt = data.get("format")
        if fmt != FORMAT:
            raise LogSyntaxError(
                f"format: expected {FORMAT!r}, found {json.dumps(fmt)}", code=_NOT_DOC
            )
        games_list = _expect(data["games"], list, _Path("games"), "a list of games")
        if not games_list:
            raise LogSyntaxError("games: no game in this document", code=LogErrorCode.NO_GAME)
        return [game_from_json(g, i) for i, g in enumerate(games_list, 1)]
    if isinstance(data, dict) and "moves" in data:
        return [game_from_json(data, 1, _Path("game"))]
    raise LogSyntaxError(
        'not a sunlog JSON document: expected {"format": "sunlog/1", "games": [...]}, '
        "JSON Lines of games, or one game object",
        code=_NOT_DOC,
    )
