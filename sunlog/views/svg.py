"""Pictures of a position: the board as an SVG drawn the way the books draw Sun.

The thirteen rays fan out over the sun from ray 1 (lower left) to ray 13 (lower right),
each ray's cards from inner to outer, the outer card whole; the aces and kings rows lie
on the sun; clouds and the wind row stand beside it, the stock in the corner. Suits are
drawn as paths, so the picture needs no font beyond a plain sans-serif for the ranks.

The picture is made here only: the replay page of :mod:`sunlog.views.html` shows the
pieces of :func:`svg_parts` for each step, so it draws nothing of its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from sunlog.engine.board import Board
from sunlog.engine.moves import Move

__all__ = ["Frame", "board_svg", "frame_for", "last_move_mark", "svg_parts"]

# ------------------------------------------------------------------ geometry

CARD_W = 54
CARD_H = 76
#: Distance between two cards of a ray, along the ray; a long ray packs its cards closer,
#: down to what keeps each card's rank and suit in sight, to stay within ``RAY_REACH``.
RAY_STEP = 27
RAY_REACH = 9 * RAY_STEP
#: Distance between two cards of a cloud or of the wind row.
ROW_STEP = 25
#: Cards on one line of a cloud or of the wind row before it wraps.
ROW_MAX = 20
SUN_R = 168
#: From the sun's rim to the nearest edge of a ray's inner card.
RAY_GAP = 28
#: Every ray is drawn at least this long, so that stage 1 does not rescale.
MIN_RAY_LEN = 8
HEADER_H = 58
MARGIN = 22
PANEL_GAP = 40
PANEL_LABEL_W = 50
ROW_PITCH = CARD_H + 16
EMPTY_PITCH = 34
WIND_GAP = 14
FOUND_GAP_X = 12
FOUND_GAP_Y = 8
#: Each card down a foundation pile shows this much of its edge.
FOUND_SHIFT = 0.5
#: Height of a one-line corner label ("Q♦") and width of a two-line one, in pixels.
INLINE_H = 16
STACK_W = 19
FONT = "Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif"
SUITS = "SHDC"


def _ray_table() -> list[tuple[float, float, float, float]]:
    """Per ray: unit direction (x right, y down), inner card's distance, smallest step.

    Rays fan out from 240 degrees (ray 1, lower left) over the top to -60 degrees (ray 13,
    lower right). The smallest step still leaves a covered card a strip wide enough for
    its corner label (see :func:`ray_step`).
    """
    table = []
    for i in range(13):
        angle = math.radians(240 - 25 * i)
        ux, uy = math.cos(angle), -math.sin(angle)
        extent = abs(ux) * CARD_W / 2 + abs(uy) * CARD_H / 2
        least = min(INLINE_H / abs(uy) if uy else 1e9, STACK_W / abs(ux) if ux else 1e9)
        table.append((ux, uy, SUN_R + RAY_GAP + extent, least))
    return table


def ray_step(ray: int, length: int) -> tuple[float, str]:
    """The step between the cards of ray ``ray`` (1..13) holding ``length`` cards, and the
    corner-label mode of its covered cards.

    A covered card shows the strip its outer neighbour leaves free: the bottom or top
    strip (mode ``b``/``t``, a one-line label) or the right or left strip (``r``/``l``, a
    two-line label), whichever is roomier for its label.
    """
    ux, uy, _r0, least = RAY_TABLE[ray - 1]
    step = float(RAY_STEP)
    if length > 1:
        step = max(least, min(step, RAY_REACH / (length - 1)))
    dx, dy = ux * step, uy * step
    if abs(dy) / INLINE_H >= abs(dx) / STACK_W:
        return step, "b" if dy < 0 else "t"
    return step, "r" if dx < 0 else "l"


RAY_TABLE = _ray_table()


@dataclass(frozen=True)
class Frame:
    """The canvas of a picture; a game's pictures share one so replaying does not jump.

    ``cx``/``cy`` is the sun's centre, ``ray_lens`` the most cards each ray will hold (at
    least ``MIN_RAY_LEN``), ``panel_x``/``panel_y`` the top left of the clouds panel
    (``panel`` is false when no position of the game has a cloud or a wind row).
    """

    width: int
    height: int
    cx: int
    cy: int
    ray_lens: tuple[int, ...]
    panel: bool
    panel_x: int
    panel_y: int


def frame_for(positions: Iterable[Mapping[str, Any]]) -> Frame:
    """The smallest canvas that holds every one of ``positions`` (position objects)."""
    lens = [MIN_RAY_LEN] * 13
    panel = False
    panel_w = panel_h = 0.0
    for pos in positions:
        for i, ray in enumerate(pos["rays"]):
            lens[i] = max(lens[i], len(ray))
        if pos["clouds"] or pos["wind_row"] is not None:
            panel = True
            width, height = _panel_size(pos)
            panel_w, panel_h = max(panel_w, width), max(panel_h, height)
    # Every place a ray's card may take, as boxes around the sun's centre.
    boxes = [(-float(SUN_R), -float(SUN_R), float(SUN_R), float(SUN_R))]
    for i, (ux, uy, r0, _least) in enumerate(RAY_TABLE, 1):
        step, _mode = ray_step(i, lens[i - 1])
        far = r0 + (lens[i - 1] - 1) * step
        dist = r0
        while True:
            x, y = ux * min(dist, far), uy * min(dist, far)
            boxes.append((x - CARD_W / 2, y - CARD_H / 2, x + CARD_W / 2, y + CARD_H / 2))
            if dist >= far:
                break
            dist += CARD_H / 4
    left = min(b[0] for b in boxes)
    top = min(b[1] for b in boxes)
    right = max(b[2] for b in boxes)
    bottom = max(b[3] for b in boxes)
    cx = math.ceil(MARGIN - left)
    cy = math.ceil(HEADER_H + MARGIN - top)
    width = cx + math.ceil(right) + MARGIN
    height = cy + math.ceil(bottom) + MARGIN
    panel_x = panel_y = HEADER_H + MARGIN
    if panel:
        # Right of every ray card that shares the panel's rows.
        low, high = panel_y - cy, panel_y - cy + panel_h
        clear = max(b[2] for b in boxes if b[1] < high and b[3] > low)
        panel_x = cx + math.ceil(clear) + PANEL_GAP
        width = max(width, panel_x + math.ceil(panel_w) + MARGIN)
        height = max(height, panel_y + math.ceil(panel_h) + MARGIN)
    return Frame(width, height, cx, cy, tuple(lens), panel, panel_x, panel_y)


def _panel_size(pos: Mapping[str, Any]) -> tuple[float, float]:
    """Width and height of the clouds panel of one position."""
    longest = max([len(c) for c in pos["clouds"]] + [len(pos["wind_row"] or [])])
    per_line = min(max(longest, 1), ROW_MAX)
    width = PANEL_LABEL_W + CARD_W + (per_line - 1) * ROW_STEP
    height = float(EMPTY_PITCH if _empty_clouds(pos) else 0)
    for row in _panel_rows(pos):
        height += _row_height(row[2])
    if pos["wind_row"] is not None:
        height += WIND_GAP
    return width, height


def _panel_rows(pos: Mapping[str, Any]) -> list[tuple[str, str, list[str]]]:
    """The panel's rows: (pile name, label, cards) for each cloud with cards, then the wind
    row; the emptied clouds share one line above them."""
    rows = [(f"cloud-{k}", f"c{k}", cloud) for k, cloud in enumerate(pos["clouds"], 1) if cloud]
    if pos["wind_row"] is not None:
        rows.append(("wind", "w", pos["wind_row"]))
    return rows


def _empty_clouds(pos: Mapping[str, Any]) -> list[str]:
    """The labels of the emptied clouds."""
    return [f"c{k}" for k, cloud in enumerate(pos["clouds"], 1) if not cloud]


def _row_height(cards: Sequence[str]) -> int:
    if not cards:
        return EMPTY_PITCH
    return ((len(cards) + ROW_MAX - 1) // ROW_MAX) * ROW_PITCH


# ------------------------------------------------------------------- marking


def last_move_mark(move: Move | str | None) -> dict[str, Any] | None:
    """What the picture needs to know of the last move, as a JSON-ready object."""
    if move is None:
        return None
    if isinstance(move, str):
        move = Move.parse(move)
    return {
        "text": str(move),
        "kind": move.kind.value,
        "index": move.index,
        "card": None if move.card is None else str(move.card),
        "source": None if move.source is None else move.source.value,
        "depth": move.depth,
        "end": None if move.end is None else move.end.value,
        "target": None if move.target is None else move.target.value,
        "target_ray": move.target_ray,
    }


# ----------------------------------------------------------------- rendering


def board_svg(
    board_or_position_json: Board | Mapping[str, Any],
    *,
    last_move: Move | str | None = None,
    size: float | None = None,
    frame: Frame | None = None,
) -> str:
    """The position (a :class:`Board` or its ``to_json()`` object) as a standalone SVG.

    ``last_move`` (notation or a :class:`Move`) is marked on the board; ``size`` is the
    width in pixels (default: the natural width); ``frame`` fixes the canvas (see
    :func:`frame_for`), by default the smallest one for this position. A ``size`` that
    is not a positive finite number is a :class:`ValueError`.
    """
    if size is not None and not (0 < size < math.inf):
        raise ValueError(f"the size must be a positive number of pixels, not {size!r}")
    return "".join(svg_parts(board_or_position_json, last_move=last_move, size=size, frame=frame))


def svg_parts(
    board_or_position_json: Board | Mapping[str, Any],
    *,
    last_move: Move | str | None = None,
    size: float | None = None,
    frame: Frame | None = None,
) -> list[str]:
    """:func:`board_svg` as the pieces it is joined from: one per thing drawn (the style,
    the definitions, each card, each label, …), so that pictures of one game can share
    the pieces they have in common (the replay page stores each piece once)."""
    if isinstance(board_or_position_json, Board):
        pos: Mapping[str, Any] = board_or_position_json.to_json()
    else:
        pos = board_or_position_json
    if frame is None:
        frame = frame_for([pos])
    return _Painter(pos, frame, last_move_mark(last_move), size).paint()


def _n(x: float) -> str:
    """A coordinate rounded to a tenth (whole numbers without a point)."""
    k = math.floor(x * 10 + 0.5)
    sign = "-" if k < 0 else ""
    k = abs(k)
    whole, tenth = k // 10, k % 10
    return f"{sign}{whole}.{tenth}" if tenth else f"{sign}{whole}"


def _esc(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def _rank_suit(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def _color(suit: str) -> str:
    return "red" if suit in "HD" else "black"


_STAGE_NAMES = {1: "Sunrise", 2: "The sun plays", 3: "Sunset", "wind": "The wind"}
_VARIANT_NAMES = {"sun": "Sun", "sun-2": "Sun-2", "sun-3": "Sun-3"}

_DEFS = (
    "<defs>"
    '<radialGradient id="sunlog-sun" cx="50%" cy="45%" r="60%">'
    '<stop offset="0" stop-color="#fff7c2"/><stop offset="0.55" stop-color="#ffd54f"/>'
    '<stop offset="1" stop-color="#f5a623"/></radialGradient>'
    '<pattern id="sunlog-back" width="8" height="8" patternUnits="userSpaceOnUse">'
    '<rect width="8" height="8" fill="#284b8f"/>'
    '<path d="M0 4L4 0L8 4L4 8Z" fill="none" stroke="#6f8fd0" stroke-width="1"/></pattern>'
    '<marker id="sunlog-arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="5" '
    'markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" '
    'fill="#1e63ff"/></marker>'
    '<symbol id="sunlog-S" viewBox="0 0 100 100"><path d="M50 2C78 30 98 44 98 62C98 78 86 '
    "86 74 86C64 86 57 81 53 74C54 84 58 92 68 98L32 98C42 92 46 84 47 74C43 81 36 86 26 "
    '86C14 86 2 78 2 62C2 44 22 30 50 2Z"/></symbol>'
    '<symbol id="sunlog-H" viewBox="0 0 100 100"><path d="M50 96C22 70 2 52 2 30C2 13 15 '
    '3 29 3C39 3 46 9 50 18C54 9 61 3 71 3C85 3 98 13 98 30C98 52 78 70 50 96Z"/></symbol>'
    '<symbol id="sunlog-D" viewBox="0 0 100 100"><path d="M50 0C62 20 74 36 90 50C74 64 62 '
    '80 50 100C38 80 26 64 10 50C26 36 38 20 50 0Z"/></symbol>'
    '<symbol id="sunlog-C" viewBox="0 0 100 100"><circle cx="50" cy="27" r="23"/>'
    '<circle cx="26" cy="60" r="23"/><circle cx="74" cy="60" r="23"/>'
    '<path d="M45 55C45 76 40 88 30 98L70 98C60 88 55 76 55 55Z"/></symbol>'
    "</defs>"
)

_STYLE = (
    "<style>"
    f".sunlog text{{font-family:{FONT}}}"
    ".sunlog .face{fill:#fff;stroke:#5b5b5b;stroke-width:1}"
    ".sunlog .red{fill:#c8102e}.sunlog .black{fill:#161616}"
    ".sunlog .rank{font-weight:bold;font-size:14px}"
    ".sunlog .slot{fill:none;stroke:#fff;stroke-opacity:.45;stroke-width:1.2;"
    "stroke-dasharray:5 4}"
    ".sunlog .slot-sun{fill:#fff;fill-opacity:.18;stroke:#b36b00;stroke-opacity:.7;"
    "stroke-width:1.2;stroke-dasharray:5 4}"
    ".sunlog .ghost{opacity:.35}"
    ".sunlog .back{fill:url(#sunlog-back);stroke:#fff;stroke-width:2}"
    ".sunlog .track{stroke:#ffe9a8;stroke-opacity:.13;stroke-width:62;stroke-linecap:round}"
    ".sunlog .track-open{stroke:#ffb300;stroke-opacity:.42}"
    ".sunlog .badge{fill:#fff6d5;stroke:#c98a00;stroke-width:1.5}"
    ".sunlog .badge-open{fill:#e65100;stroke:#fff}"
    ".sunlog .badge-text{font-size:12px;font-weight:bold;fill:#6b4200}"
    ".sunlog .badge-open-text{fill:#fff}"
    ".sunlog .title{font-size:19px;font-weight:bold;fill:#fff}"
    ".sunlog .info{font-size:14px;fill:#e3efe6}"
    ".sunlog .label{font-size:13px;fill:#e3efe6}"
    ".sunlog .row-label{font-size:17px;font-weight:bold;fill:#fff}"
    ".sunlog .row-sub{font-size:11px;fill:#cfe3d6}"
    ".sunlog .found-label{font-size:13px;font-weight:bold;fill:#8a5200}"
    ".sunlog .stage{font-size:17px;font-style:italic;fill:#fff3c4}"
    ".sunlog .result{font-size:30px;font-weight:bold;fill:#ffd54f;letter-spacing:3px}"
    ".sunlog .mark{fill:none;stroke:#1e63ff;stroke-width:3.5}"
    ".sunlog .mark-ring{fill:none;stroke:#1e63ff;stroke-width:3}"
    ".sunlog .arrow{stroke:#1e63ff;stroke-opacity:.8;stroke-width:5;stroke-linecap:round}"
    "</style>"
)


class _Painter:
    """Draws one position into a list of SVG pieces, one per thing drawn."""

    def __init__(
        self,
        pos: Mapping[str, Any],
        frame: Frame,
        mark: Mapping[str, Any] | None,
        size: float | None,
    ) -> None:
        self.pos = pos
        self.frame = frame
        self.mark = mark
        self.size = size
        self.out: list[str] = []
        #: Where each pile's cards were drawn: pile name -> [(x, y, card)].
        self.placed: dict[str, list[tuple[float, float, str]]] = {}

    def paint(self) -> list[str]:
        pos, frame, out = self.pos, self.frame, self.out
        width, height = frame.width, frame.height
        size = ""
        if self.size is not None:
            size = f' width="{_n(self.size)}" height="{_n(self.size * height / width)}"'
        out.append(
            f'<svg xmlns="http://www.w3.org/2000/svg" class="sunlog" '
            f'viewBox="0 0 {width} {height}"{size} '
            f'data-variant="{_esc(str(pos["variant"]))}" '
            f'data-move-count="{pos["move_count"]}" '
            f'data-stage="{_esc(str(pos["stage"]))}" data-status="{_esc(str(pos["status"]))}">'
        )
        out.append(_STYLE)
        out.append(_DEFS)
        out.append(f'<rect width="{width}" height="{height}" fill="#1d5e3a"/>')
        out.append(f'<rect width="{width}" height="{HEADER_H}" fill="#134229"/>')
        self.header()
        self.sun()
        self.rays()
        self.foundations()
        self.stock()
        self.panel()
        self.last_move()
        out.append("</svg>")
        return out

    # ------------------------------------------------------------ text parts

    def header(self) -> None:
        pos, out, width = self.pos, self.out, self.frame.width
        title = _VARIANT_NAMES.get(pos["variant"], str(pos["variant"]))
        if pos.get("deal") is not None:
            title += f" \u00b7 deal {pos['deal']}"
        count = pos["move_count"]
        moves = "start" if count == 0 else "after 1 move" if count == 1 else f"after {count} moves"
        out.append(f'<text class="title" x="{MARGIN}" y="25">{_esc(title)}</text>')
        out.append(
            f'<text class="title" x="{width - MARGIN}" y="25" text-anchor="end">{moves}</text>'
        )
        out.append(f'<text class="info" x="{MARGIN}" y="47">{_esc(self.stage_text())}</text>')
        if self.mark is not None:
            text = "last move: " + self.mark["text"]
            out.append(
                f'<text class="info" x="{width - MARGIN}" y="47" text-anchor="end">'
                f"{_esc(text)}</text>"
            )

    def stage_text(self) -> str:
        pos = self.pos
        stage = pos["stage"]
        if stage == 1:
            text = f"Stage 1, sunrise: {pos['deals']} of 8 deals made"
        elif stage == 2:
            text = f"Stage 2, the sun plays: ray {pos['open_ray']} is open"
        elif stage == 3:
            text = "Stage 3, sunset: rays are gathered"
        else:
            text = "The wind has blown"
        status = pos["status"]
        if status != "playing":
            text += " \u2014 " + str(status)
        return text

    # ---------------------------------------------------------------- cards

    def card(self, card: str, pile: str, index: int, x: float, y: float, mode: str) -> None:
        """One face-up card with its top left at (x, y); ``mode`` says what shows of it.

        ``f``: the whole face; ``b``/``t``: a one-line label in the bottom/top strip;
        ``l``/``r``: a two-line label in the left/right strip; ``h``: hidden below others.
        Two pieces: where the card lies, then its face (the same wherever it lies).
        """
        rank, suit = _rank_suit(card)
        color = _color(suit)
        self.out.append(
            f'<g class="card" data-card="{_esc(card)}" data-pile="{pile}" '
            f'data-index="{index}" transform="translate({_n(x)} {_n(y)})">'
        )
        face = [f'<rect class="face" width="{CARD_W}" height="{CARD_H}" rx="5"/>']
        fit = ' textLength="15" lengthAdjust="spacingAndGlyphs"' if rank == "10" else ""
        if mode in ("f", "l"):
            face.append(self.index_mark(rank, suit, color, fit))
        if mode == "f":
            face.append(
                f'<use href="#sunlog-{suit}" class="{color}" x="{_n(CARD_W / 2 - 14)}" '
                f'y="{_n(CARD_H / 2 - 10)}" width="28" height="28"/>'
                f'<g transform="rotate(180 {_n(CARD_W / 2)} {_n(CARD_H / 2)})">'
                f"{self.index_mark(rank, suit, color, fit)}</g>"
            )
        elif mode == "r":
            face.append(
                f'<text class="rank {color}" x="{CARD_W - 3}" y="16" text-anchor="end"{fit}>'
                f"{rank}</text>"
                f'<use href="#sunlog-{suit}" class="{color}" x="{CARD_W - 15}" y="20" '
                f'width="12" height="12"/>'
            )
        elif mode in ("b", "t"):
            base = CARD_H - 4 if mode == "b" else 15
            face.append(
                f'<text class="rank {color}" x="21" y="{base}" text-anchor="end"{fit}>'
                f"{rank}</text>"
                f'<use href="#sunlog-{suit}" class="{color}" x="23" y="{base - 11}" '
                f'width="11" height="11"/>'
            )
        face.append("</g>")
        self.out.append("".join(face))
        self.placed.setdefault(pile, []).append((x, y, card))

    @staticmethod
    def index_mark(rank: str, suit: str, color: str, fit: str) -> str:
        """The corner index of a card: rank over suit, top left."""
        return (
            f'<text class="rank {color}" x="3" y="16"{fit}>{rank}</text>'
            f'<use href="#sunlog-{suit}" class="{color}" x="3" y="20" width="12" height="12"/>'
        )

    def slot(self, x: float, y: float, cls: str, suit: str | None = None) -> None:
        """An empty place: a dashed outline, with the suit that belongs there if any."""
        self.out.append(
            f'<rect class="{cls}" x="{_n(x)}" y="{_n(y)}" width="{CARD_W}" height="{CARD_H}" '
            f'rx="5"/>'
        )
        if suit is not None:
            self.out.append(
                f'<use href="#sunlog-{suit}" class="{_color(suit)} ghost" '
                f'x="{_n(x + CARD_W / 2 - 12)}" y="{_n(y + CARD_H / 2 - 12)}" '
                f'width="24" height="24"/>'
            )

    # ------------------------------------------------------------------ sun

    def along(self, ux: float, uy: float, dist: float) -> tuple[float, float]:
        """The point ``dist`` from the sun's centre in a ray's direction ``(ux, uy)``."""
        return self.frame.cx + ux * dist, self.frame.cy + uy * dist

    def sun(self) -> None:
        frame, out = self.frame, self.out
        cx, cy = frame.cx, frame.cy
        open_ray = self.pos["open_ray"]
        for i, (ux, uy, r0, _least) in enumerate(RAY_TABLE, 1):
            length = frame.ray_lens[i - 1]
            x1, y1 = self.along(ux, uy, SUN_R + 30)
            x2, y2 = self.along(ux, uy, r0 + (length - 1) * ray_step(i, length)[0])
            out.append(
                f'<line class="{"track track-open" if i == open_ray else "track"}" '
                f'x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"/>'
            )
        out.append(
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{SUN_R}" fill="url(#sunlog-sun)" '
            f'stroke="#e08e0b" stroke-width="3"/>'
        )
        stage = _STAGE_NAMES.get(self.pos["stage"], "")
        out.append(
            f'<text class="stage" x="{_n(cx)}" y="{_n(cy + SUN_R + 52)}" '
            f'text-anchor="middle">{_esc(stage)}</text>'
        )
        status = self.pos["status"]
        if status != "playing":
            out.append(
                f'<text class="result" x="{_n(cx)}" y="{_n(cy + SUN_R + 90)}" '
                f'text-anchor="middle">{_esc(str(status).upper())}</text>'
            )

    def rays(self) -> None:
        out = self.out
        open_ray = self.pos["open_ray"]
        for i, (ux, uy, r0, _least) in enumerate(RAY_TABLE, 1):
            ray = self.pos["rays"][i - 1]
            step, mode = ray_step(i, len(ray))
            if not ray:
                x, y = self.along(ux, uy, r0)
                self.slot(x - CARD_W / 2, y - CARD_H / 2, "slot")
            for k, card in enumerate(ray):
                x, y = self.along(ux, uy, r0 + k * step)
                face = "f" if k == len(ray) - 1 else mode
                self.card(card, f"ray-{i}", k, x - CARD_W / 2, y - CARD_H / 2, face)
            bx, by = self.along(ux, uy, SUN_R + 14)
            is_open = i == open_ray
            opened = ' data-open="true"' if is_open else ""
            badge = "badge badge-open" if is_open else "badge"
            text = "badge-text badge-open-text" if is_open else "badge-text"
            out.append(
                f'<g class="ray-label" data-ray="{i}"{opened}>'
                f'<circle class="{badge}" cx="{_n(bx)}" cy="{_n(by)}" r="11"/>'
                f'<text class="{text}" x="{_n(bx)}" y="{_n(by + 4)}" text-anchor="middle">'
                f"{i}</text></g>"
            )

    def foundation_piles(self) -> list[tuple[str, int, int, list[str]]]:
        """(pile name, row, column, cards) of the eight foundation piles."""
        found = self.pos["foundations"]
        piles = []
        for col, suit in enumerate(SUITS):
            if self.pos["variant"] == "sun-3":
                first, second = found["aces"][suit]
                piles.append((f"aces1-{suit}", 0, col, first))
                piles.append((f"aces2-{suit}", 1, col, second))
            else:
                piles.append((f"aces-{suit}", 0, col, found["aces"][suit]))
                piles.append((f"kings-{suit}", 1, col, found["kings"][suit]))
        return piles

    def foundations(self) -> None:
        cx, cy, out = self.frame.cx, self.frame.cy, self.out
        left = cx - (4 * CARD_W + 3 * FOUND_GAP_X) / 2
        tops = (cy - CARD_H - FOUND_GAP_Y, cy + FOUND_GAP_Y)
        labels = ("A1", "A2") if self.pos["variant"] == "sun-3" else ("A", "K")
        for row in range(2):
            y = tops[row] + CARD_H / 2 + 5
            out.append(
                f'<text class="found-label" x="{_n(left - 9)}" y="{_n(y)}" '
                f'text-anchor="end">{labels[row]}</text>'
            )
        for pile, row, col, cards in self.foundation_piles():
            x, y = left + col * (CARD_W + FOUND_GAP_X), tops[row]
            if not cards:
                self.slot(x, y, "slot-sun", SUITS[col])
                continue
            last = len(cards) - 1
            for k, card in enumerate(cards):
                shift = k * FOUND_SHIFT
                self.card(card, pile, k, x - shift, y - shift, "f" if k == last else "h")

    def stock(self) -> None:
        pos, out = self.pos, self.out
        x, y = MARGIN, HEADER_H + MARGIN
        stock = pos["stock"]
        count = len(stock) if stock is not None else 104 - 13 * pos["deals"]
        known = "true" if stock is not None else "false"
        out.append(f'<g class="stock" data-pile="stock" data-count="{count}" data-known="{known}">')
        if count == 0:
            self.slot(x, y, "slot")
        layers = (count + 25) // 26
        for k in range(layers):
            shift = (layers - 1 - k) * 2
            out.append(
                f'<rect class="back" x="{_n(x + shift)}" y="{_n(y + shift)}" '
                f'width="{CARD_W}" height="{CARD_H}" rx="5"/>'
            )
        label = f"stock: {count}" if stock is not None or count == 0 else f"stock: {count} unseen"
        out.append(f'<text class="label" x="{x}" y="{y + CARD_H + 24}">{label}</text></g>')

    # ---------------------------------------------------------------- panel

    def panel(self) -> None:
        frame, pos, out = self.frame, self.pos, self.out
        if not frame.panel:
            return
        x0, y = frame.panel_x, frame.panel_y
        if not pos["clouds"] and pos["wind_row"] is None:
            out.append(f'<text class="label" x="{_n(x0)}" y="{_n(y + 20)}">no clouds yet</text>')
            return
        empty = _empty_clouds(pos)
        if empty:
            text = "emptied cloud: " if len(empty) == 1 else "emptied clouds: "
            out.append(
                f'<text class="label" x="{_n(x0)}" y="{_n(y + 20)}">{text}{" ".join(empty)}</text>'
            )
            y += EMPTY_PITCH
        for pile, label, cards in _panel_rows(pos):
            if pile == "wind":
                y += WIND_GAP
            sub = "wind" if pile == "wind" else "cloud"
            if not cards:
                out.append(
                    f'<text class="row-label" x="{_n(x0)}" y="{_n(y + 20)}">{label}</text>'
                    f'<text class="row-sub" x="{_n(x0 + 30)}" y="{_n(y + 20)}">'
                    f"{sub}, empty</text>"
                )
                y += EMPTY_PITCH
                continue
            out.append(
                f'<text class="row-label" x="{_n(x0)}" y="{_n(y + 28)}">{label}</text>'
                f'<text class="row-sub" x="{_n(x0)}" y="{_n(y + 44)}">{sub}</text>'
            )
            last = len(cards) - 1
            for k, card in enumerate(cards):
                line, col = k // ROW_MAX, k % ROW_MAX
                x = x0 + PANEL_LABEL_W + col * ROW_STEP
                mode = "f" if k == last or col == ROW_MAX - 1 else "l"
                self.card(card, pile, k, x, y + line * ROW_PITCH, mode)
            y += _row_height(cards)

    # ------------------------------------------------------------ last move

    def last_move(self) -> None:
        mark = self.mark
        if mark is None:
            return
        kind = mark["kind"]
        if kind == "deal":
            for i in range(1, 14):
                self.ring_top(f"ray-{i}")
        elif kind in ("open", "gather"):
            self.ring_badge(mark["index"])
        elif kind == "wind":
            self.ring_wind_row()
        else:
            self.mark_card_move(mark)

    def mark_card_move(self, mark: Mapping[str, Any]) -> None:
        card = mark["card"]
        dest = self.destination(mark)
        if dest is None:
            return
        x, y, _card = dest
        start = self.source_anchor(mark)
        if start is not None:
            sx, sy = start
            ex, ey = x + CARD_W / 2, y + CARD_H / 2
            self.out.append(
                f'<line class="arrow" x1="{_n(sx)}" y1="{_n(sy)}" x2="{_n(ex)}" y2="{_n(ey)}" '
                f'marker-end="url(#sunlog-arrow)"/>'
            )
        self.ring_card(x, y, card)

    def destination(self, mark: Mapping[str, Any]) -> tuple[float, float, str] | None:
        """Where the moved card lies now: the top of its target pile, if it is there."""
        card, target = mark["card"], mark["target"]
        if card is None:
            return None
        suit = card[-1]
        if target == "r":
            names = [f"ray-{mark['target_ray']}"]
        elif target == "K":
            names = [f"kings-{suit}"]
        elif self.pos["variant"] == "sun-3":
            names = [f"aces2-{suit}"] if target == "A2" else [f"aces1-{suit}", f"aces2-{suit}"]
            if target == "A1":
                names = names[:1]
        else:
            names = [f"aces-{suit}"]
        for name in names:
            cards = self.placed.get(name, [])
            if cards and cards[-1][2] == card:
                return cards[-1]
        return None

    def source_anchor(self, mark: Mapping[str, Any]) -> tuple[float, float] | None:
        """Roughly where the moved card came from, for the arrow."""
        frame, pos = self.frame, self.pos
        source = mark["source"]
        if source == "r":
            i = mark["index"]
            if not 1 <= i <= 13:
                return None
            ux, uy, r0, _least = RAY_TABLE[i - 1]
            length = len(pos["rays"][i - 1])
            step, _mode = ray_step(i, length + 1)
            depth = mark["depth"] or 1
            dist = r0 + (length + 1 - depth) * step
            return frame.cx + ux * dist, frame.cy + uy * dist
        if source in ("c", "w"):
            name = "wind" if source == "w" else f"cloud-{mark['index']}"
            return self.row_anchor(name, mark["end"])
        if source in ("A", "K"):
            suit = mark["card"][-1]
            name = f"aces-{suit}" if source == "A" else f"kings-{suit}"
            cards = self.placed.get(name, [])
            if cards:
                return cards[-1][0] + CARD_W / 2, cards[-1][1] + CARD_H / 2
            return None
        return None

    def row_anchor(self, name: str, end: str | None) -> tuple[float, float] | None:
        """Beside the end of a cloud or the wind row that a card left."""
        frame = self.frame
        if not frame.panel:
            return None
        y = frame.panel_y
        if _empty_clouds(self.pos):
            if name.startswith("cloud-") and not self.pos["clouds"][int(name[6:]) - 1]:
                return frame.panel_x + 12, y + 14
            y += EMPTY_PITCH
        for pile, _label, cards in _panel_rows(self.pos):
            if pile == "wind":
                y += WIND_GAP
            if pile == name:
                if end == "R" and cards:
                    k = len(cards)
                    line, col = k // ROW_MAX, k % ROW_MAX
                    return (
                        frame.panel_x + PANEL_LABEL_W + col * ROW_STEP + CARD_W / 2,
                        y + line * ROW_PITCH + CARD_H / 2,
                    )
                return frame.panel_x + 12, y + 20
            y += _row_height(cards)
        return None

    def ring_card(self, x: float, y: float, card: str | None = None) -> None:
        data = f' data-card="{_esc(card)}"' if card is not None else ""
        self.out.append(
            f'<rect class="mark" data-last="true"{data} x="{_n(x - 2)}" y="{_n(y - 2)}" '
            f'width="{CARD_W + 4}" height="{CARD_H + 4}" rx="6"/>'
        )

    def ring_wind_row(self) -> None:
        """An outline around the whole wind row, just laid."""
        cards = self.placed.get("wind", [])
        if not cards:
            return
        lines = (len(cards) + ROW_MAX - 1) // ROW_MAX
        per_line = min(len(cards), ROW_MAX)
        x, y = cards[0][0], cards[0][1]
        width = CARD_W + (per_line - 1) * ROW_STEP + 8
        height = CARD_H + (lines - 1) * ROW_PITCH + 8
        self.out.append(
            f'<rect class="mark" data-last="true" data-pile="wind" x="{_n(x - 4)}" '
            f'y="{_n(y - 4)}" width="{_n(width)}" height="{_n(height)}" rx="8"/>'
        )

    def ring_top(self, pile: str) -> None:
        cards = self.placed.get(pile, [])
        if cards:
            x, y, card = cards[-1]
            self.ring_card(x, y, card)

    def ring_badge(self, ray: int | None) -> None:
        if ray is None or not 1 <= ray <= 13:
            return
        ux, uy, _r0, _least = RAY_TABLE[ray - 1]
        frame = self.frame
        bx, by = frame.cx + ux * (SUN_R + 14), frame.cy + uy * (SUN_R + 14)
        self.out.append(
            f'<circle class="mark-ring" data-last="true" data-ray="{ray}" cx="{_n(bx)}" '
            f'cy="{_n(by)}" r="15"/>'
        )
