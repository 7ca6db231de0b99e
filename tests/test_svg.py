"""The board picture: well-formed SVG that draws every card where the position has it.

Games come from a seeded policy that plays every kind of move (deals, opens, gathers,
the wind, cards from rays, clouds, the wind row and between foundations, parking in
sun-3), so the pictures cover every stage of every variant. ``test_html`` imports the
helpers below.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any

import pytest
from enginekit import SPEC_MOVES

from sunlog.engine.board import Board
from sunlog.engine.cards import Card
from sunlog.engine.moves import Move, MoveKind, Place, Target
from sunlog.views.svg import CARD_H, CARD_W, Frame, board_svg, frame_for, last_move_mark

SVG = "{http://www.w3.org/2000/svg}"
VARIANTS = ("sun", "sun-2", "sun-3")
SUITS = "SHDC"
_TRANSLATE = re.compile(r"translate\(([-\d.]+) ([-\d.]+)\)")


def spec_moves() -> list[str]:
    """The 41 moves of SPEC 5.4 as notation."""
    return list(SPEC_MOVES)


# ------------------------------------------------------------------ games


@cache
def played_game(variant: str, deal: int, seed: int) -> tuple[Move, ...]:
    """A whole game of ``deal`` played by a seeded policy that tries every kind of move.

    It plays cards to the foundations most of the time, now and then a card between
    foundations or (sun-3) onto an empty ray, opens a few rays, then gathers every ray
    and calls the wind; it stops when nothing but undoing moves is left, or at 300 moves.
    """
    rng = random.Random(seed)
    board = Board(variant, deal=deal)
    played: list[Move] = []
    back_and_forth = 0
    while len(played) < 300:
        legal = board.legal_moves()
        home = [m for m in legal if _is_home(m)]
        shifts = [m for m in legal if m.source in (Place.ACES, Place.KINGS)]
        parks = [m for m in legal if m.target is Target.RAY and m.source is not Place.RAY]
        actions = {m.kind: m for m in legal if m.kind is not MoveKind.CARD}
        opens = [m for m in legal if m.kind is MoveKind.OPEN and m.index in (4, 9)]
        if shifts and back_and_forth < 3 and rng.random() < 0.1:
            move = rng.choice(shifts)
            back_and_forth += 1
        elif parks and rng.random() < 0.3:
            move = rng.choice(parks)
        elif home and rng.random() < 0.85:
            move = rng.choice(home)
        elif MoveKind.DEAL in actions:
            move = actions[MoveKind.DEAL]
        elif opens and rng.random() < 0.6:
            move = opens[0]
        elif MoveKind.GATHER in actions:
            move = actions[MoveKind.GATHER]
        elif MoveKind.WIND in actions:
            move = actions[MoveKind.WIND]
        elif home:
            move = rng.choice(home)
        elif parks and board.status().value == "playing":
            move = rng.choice(parks)
        else:
            break
        board.push(move)
        played.append(move)
    return tuple(played)


def _is_home(move: Move) -> bool:
    return (
        move.kind is MoveKind.CARD
        and move.source not in (Place.ACES, Place.KINGS)
        and move.target is not Target.RAY
    )


#: One game per variant, long enough to reach clouds and the wind.
GAMES = {"sun": ("sun", 5, 5), "sun-2": ("sun-2", 2, 2), "sun-3": ("sun-3", 1, 1)}


def game(variant: str) -> tuple[Board, tuple[Move, ...]]:
    """A fresh board of the variant's test game and the moves of that game."""
    name, deal, seed = GAMES[variant]
    return Board(name, deal=deal), played_game(name, deal, seed)


def positions(board: Board, moves: Sequence[Move]) -> list[dict[str, Any]]:
    """``to_json()`` before the first move and after each one."""
    board = board.copy()
    out = [board.to_json()]
    for move in moves:
        board.push(move)
        out.append(board.to_json())
    return out


def canonical_texts(board: Board, moves: Sequence[Move]) -> list[str]:
    """The canonical notation of each move at its position."""
    board = board.copy()
    texts = []
    for move in moves:
        texts.append(str(board.canonical(move)))
        board.push(move)
    return texts


# ----------------------------------------------------------- reading SVG


def parse(svg: str) -> ET.Element:
    """Parse an SVG string (fails the test on malformed XML)."""
    return ET.fromstring(svg)


def card_elements(root: ET.Element) -> list[ET.Element]:
    """Every drawn card, in drawing order."""
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "card"]


def drawn_piles(root: ET.Element) -> dict[str, list[str]]:
    """pile name -> cards by ``data-index``, as drawn."""
    piles: dict[str, dict[int, str]] = {}
    for g in card_elements(root):
        pile = piles.setdefault(g.get("data-pile", "?"), {})
        index = int(g.get("data-index", "-1"))
        assert index not in pile, f"two cards at {g.get('data-pile')}[{index}]"
        pile[index] = g.get("data-card", "?")
    out = {}
    for name, cards in piles.items():
        assert sorted(cards) == list(range(len(cards))), f"gaps in {name}"
        out[name] = [cards[i] for i in range(len(cards))]
    return out


def expected_piles(pos: Mapping[str, Any]) -> dict[str, list[str]]:
    """pile name -> cards (inner or base first) of a position object, empty piles left out."""
    piles: dict[str, list[str]] = {}
    for i, ray in enumerate(pos["rays"], 1):
        piles[f"ray-{i}"] = list(ray)
    for k, cloud in enumerate(pos["clouds"], 1):
        piles[f"cloud-{k}"] = list(cloud)
    if pos["wind_row"] is not None:
        piles["wind"] = list(pos["wind_row"])
    found = pos["foundations"]
    for suit in SUITS:
        if pos["variant"] == "sun-3":
            piles[f"aces1-{suit}"], piles[f"aces2-{suit}"] = found["aces"][suit]
        else:
            piles[f"aces-{suit}"] = found["aces"][suit]
            piles[f"kings-{suit}"] = found["kings"][suit]
    return {name: cards for name, cards in piles.items() if cards}


def stock_count(root: ET.Element) -> int:
    (stock,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "stock"]
    return int(stock.get("data-count", "-1"))


def card_box(g: ET.Element) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a drawn card."""
    m = _TRANSLATE.fullmatch(g.get("transform", ""))
    assert m, g.get("transform")
    x, y = float(m.group(1)), float(m.group(2))
    return x, y, x + CARD_W, y + CARD_H


def index_boxes(g: ET.Element) -> Iterator[tuple[float, float, float, float]]:
    """Boxes (page coordinates) of a card's first rank and suit marks, if it shows them."""
    left, top, _r, _b = card_box(g)
    text = next((t for t in g if t.tag == f"{SVG}text"), None)
    use = next((u for u in g if u.tag == f"{SVG}use"), None)
    if text is None or use is None:
        return
    width = 15.0 if text.text == "10" else 11.0
    x, y = float(text.get("x", "0")), float(text.get("y", "0"))
    if text.get("text-anchor") == "end":
        x -= width
    yield left + x, top + y - 11, left + x + width, top + y + 1
    ux, uy = float(use.get("x", "0")), float(use.get("y", "0"))
    uw, uh = float(use.get("width", "0")), float(use.get("height", "0"))
    yield left + ux, top + uy, left + ux + uw, top + uy + uh


def overlap(a: tuple[float, ...], b: tuple[float, ...], slack: float = 0.5) -> bool:
    return (
        a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]
    )


# ------------------------------------------------------------------ tests


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_position_of_a_game_is_well_formed_and_draws_its_cards(variant: str) -> None:
    board, moves = game(variant)
    texts = canonical_texts(board, moves)
    for n, pos in enumerate(positions(board, moves)):
        svg = board_svg(pos, last_move=texts[n - 1] if n else None)
        root = parse(svg)
        assert root.tag == f"{SVG}svg"
        assert root.get("data-move-count") == str(n)
        assert drawn_piles(root) == expected_piles(pos), f"after {n} moves"
        stock = pos["stock"]
        assert stock_count(root) == len(stock), f"after {n} moves"


def test_the_games_cover_every_kind_of_picture() -> None:
    """The test games reach clouds, the wind, and every kind of move source and target."""
    kinds: set[str] = set()
    for variant in VARIANTS:
        board, moves = game(variant)
        final = positions(board, moves)[-1]
        assert final["stage"] == "wind", variant
        assert any(len(ray) > 8 for pos in positions(board, moves) for ray in pos["rays"])
        for move in moves:
            kinds.add(move.kind.value)
            if move.kind is MoveKind.CARD:
                assert move.source is not None
                kinds.add(f"from {move.source.value}")
                assert move.target is not None
                kinds.add(f"to {move.target.value}")
    assert kinds >= {"deal", "open", "gather", "wind", "from r", "from c", "from w", "from A"}
    assert kinds >= {"from K", "to A", "to K", "to r"}


def test_spec_54_position_is_drawn_with_its_last_move_marked() -> None:
    board = Board("sun", deal=20261129)
    for text in spec_moves():
        board.push(Move.parse(text))
    pos = board.to_json()
    root = parse(board_svg(board, last_move="r2:7C>K"))
    piles = drawn_piles(root)
    assert piles == expected_piles(pos)
    assert piles["kings-C"][-1] == "7C"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Sun \u00b7 deal 20261129" in texts
    assert "after 41 moves" in texts
    assert "last move: r2:7C>K" in texts
    assert "Stage 2, the sun plays: ray 2 is open" in texts
    (opened,) = [g for g in root.iter(f"{SVG}g") if g.get("data-open") == "true"]
    assert opened.get("data-ray") == "2"
    marks = [e for e in root.iter() if e.get("data-last") == "true"]
    assert [m.get("data-card") for m in marks] == ["7C"]
    (top,) = [g for g in card_elements(root) if g.get("data-pile") == "kings-C"][-1:]
    x, y, _r, _b = card_box(top)
    assert float(marks[0].get("x", "0")) == pytest.approx(x - 2, abs=0.1)
    assert float(marks[0].get("y", "0")) == pytest.approx(y - 2, abs=0.1)
    (arrow,) = [e for e in root.iter(f"{SVG}line") if e.get("class") == "arrow"]
    assert float(arrow.get("x2", "0")) == pytest.approx(x + CARD_W / 2, abs=0.1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_outer_cards_and_every_index_stay_visible(variant: str) -> None:
    """No card covers an outer card, nor the rank and suit marks of a card it overlaps."""
    board, moves = game(variant)
    every = positions(board, moves)
    frame = frame_for(every)
    for n in range(0, len(every), 3):
        root = parse(board_svg(every[n], frame=frame))
        cards = card_elements(root)
        boxes = [card_box(g) for g in cards]
        for i, g in enumerate(cards):
            later = boxes[i + 1 :]
            pile = g.get("data-pile", "")
            for mark in index_boxes(g):
                hidden = [b for b in later if overlap(mark, b)]
                assert not hidden, f"after {n} moves {g.get('data-card')} in {pile}"
            outer = i + 1 == len(cards) or cards[i + 1].get("data-pile") != pile
            if pile.startswith("ray-") and outer:
                assert not any(overlap(boxes[i], b) for b in later), (n, pile)


@pytest.mark.parametrize("variant", VARIANTS)
def test_piles_do_not_overlap_each_other(variant: str) -> None:
    board, moves = game(variant)
    every = positions(board, moves)
    frame = frame_for(every)
    for n in range(0, len(every), 5):
        root = parse(board_svg(every[n], frame=frame))
        by_pile: dict[str, list[tuple[float, float, float, float]]] = {}
        for g in card_elements(root):
            by_pile.setdefault(g.get("data-pile", ""), []).append(card_box(g))
        names = sorted(by_pile)
        for a_i, a in enumerate(names):
            for b in names[a_i + 1 :]:
                clash = any(overlap(p, q) for p in by_pile[a] for q in by_pile[b])
                assert not clash, f"{a} and {b} overlap after {n} moves"
        for boxes in by_pile.values():
            for left, top, right, bottom in boxes:
                assert left >= 0 and top >= 0
                assert right <= frame.width and bottom <= frame.height


def test_suits_are_red_and_black() -> None:
    board = Board("sun", deal=20261129)
    board.push(Move.deal())
    root = parse(board_svg(board))
    for g in card_elements(root):
        card = g.get("data-card", "")
        want = "red" if Card.parse(card).is_red else "black"
        classes = {c for e in g if e.tag != f"{SVG}rect" for c in e.get("class", "").split()}
        assert want in classes and ({"red", "black"} - {want}).isdisjoint(classes), card


def test_board_and_its_json_draw_the_same_picture() -> None:
    board = Board("sun-2", deal=42)
    for _ in range(3):
        board.push(Move.deal())
    assert board_svg(board) == board_svg(board.to_json())
    assert board_svg(board, last_move="deal") == board_svg(board.to_json(), last_move=Move.deal())


def test_size_sets_the_width_and_keeps_the_aspect() -> None:
    board = Board("sun", deal=1)
    root = parse(board_svg(board, size=600))
    _x, _y, width, height = map(float, root.get("viewBox", "").split())
    assert root.get("width") == "600"
    assert float(root.get("height", "0")) == pytest.approx(600 * height / width, abs=0.1)
    assert parse(board_svg(board)).get("width") is None


def test_the_picture_is_self_contained() -> None:
    board, moves = game("sun")
    pos = positions(board, moves)[len(moves) // 2]
    svg = board_svg(pos)
    urls = re.findall(r"https?://[^\s\"')]+", svg)
    assert urls == ["http://www.w3.org/2000/svg"]
    assert "<image" not in svg and "@import" not in svg and "@font-face" not in svg
    assert re.findall(r"url\(([^)]*)\)", svg) and all(
        u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", svg)
    )
    for href in re.findall(r'href="([^"]*)"', svg):
        assert href.startswith("#sunlog-"), href


def test_a_shared_frame_keeps_the_canvas_still() -> None:
    board, moves = game("sun")
    every = positions(board, moves)
    frame = frame_for(every)
    boxes = {parse(board_svg(pos, frame=frame)).get("viewBox") for pos in every[::7]}
    assert boxes == {f"0 0 {frame.width} {frame.height}"}
    alone = frame_for(every[:1])
    assert isinstance(alone, Frame) and alone.width <= frame.width
    assert alone.panel is False and frame.panel is True
    assert frame.ray_lens == tuple(max(8, *(len(p["rays"][i]) for p in every)) for i in range(13))


def test_sun_3_has_two_aces_rows_and_parks_cards_on_rays() -> None:
    board, moves = game("sun-3")
    texts = canonical_texts(board, moves)
    every = positions(board, moves)
    park = next(i for i, m in enumerate(moves) if m.target is Target.RAY)
    root = parse(board_svg(every[park + 1], last_move=texts[park]))
    piles = drawn_piles(root)
    assert not any(name.startswith("kings") for name in piles)
    labels = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "found-label"}
    assert labels == {"A1", "A2"}
    ray = moves[park].target_ray
    assert piles[f"ray-{ray}"] == [str(moves[park].card)]
    (mark,) = [e for e in root.iter() if e.get("data-last") == "true"]
    assert mark.get("data-card") == str(moves[park].card)


def test_each_kind_of_last_move_is_marked() -> None:
    board, moves = game("sun")
    texts = canonical_texts(board, moves)
    every = positions(board, moves)
    seen = set()
    for n, move in enumerate(moves, 1):
        root = parse(board_svg(every[n], last_move=texts[n - 1]))
        marks = [e for e in root.iter() if e.get("data-last") == "true"]
        kind = move.kind
        seen.add(kind)
        if kind is MoveKind.DEAL:
            assert sorted(m.get("data-card") for m in marks) == sorted(
                ray[-1] for ray in every[n]["rays"] if ray
            )
        elif kind in (MoveKind.OPEN, MoveKind.GATHER):
            assert [m.get("data-ray") for m in marks] == [str(move.index)]
        elif kind is MoveKind.WIND:
            assert [m.get("data-pile") for m in marks] == ["wind"]
        else:
            assert [m.get("data-card") for m in marks] == [str(move.card)], texts[n - 1]
            arrows = [e for e in root.iter(f"{SVG}line") if e.get("class") == "arrow"]
            assert len(arrows) == 1, texts[n - 1]
    assert seen == set(MoveKind)


def test_last_move_mark_reads_the_notation() -> None:
    mark = last_move_mark("r3.4:9S>A")
    assert mark is not None
    assert (mark["source"], mark["index"], mark["depth"], mark["card"], mark["target"]) == (
        "r",
        3,
        4,
        "9S",
        "A",
    )
    assert last_move_mark(None) is None
    assert last_move_mark("gather 5") == last_move_mark(Move.gather(5))
    with pytest.raises(ValueError):
        last_move_mark("r3:ZZ>A")


def test_a_physical_game_shows_an_unseen_stock() -> None:
    board = Board("sun")
    board.push(Move.parse("deal 3H 8C JS 6S 4H 2D 10S 7H AD 8H 10H 6S AD"))
    root = parse(board_svg(board))
    (stock,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "stock"]
    assert stock.get("data-count") == "91" and stock.get("data-known") == "false"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "stock: 91 unseen" in texts
    assert not any(t and "deal" in t and "\u00b7" in t for t in texts)


def test_results_are_written_on_the_board() -> None:
    board, moves = game("sun-3")
    every = positions(board, moves)
    assert every[-1]["status"] == "lost"
    root = parse(board_svg(every[-1]))
    results = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "result"]
    assert results == ["LOST"]
    assert root.get("data-status") == "lost"
    assert any(t.text and t.text.endswith("\u2014 lost") for t in root.iter(f"{SVG}text"))
    playing = parse(board_svg(every[-2]))
    assert [t for t in playing.iter(f"{SVG}text") if t.get("class") == "result"] == []
