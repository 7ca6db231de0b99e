"""A game as one self-contained HTML page that replays it: board, buttons, keys, move list.

The page embeds the position object of every step (``Board.to_json()`` after 0, 1, …, N
moves) and a small script that draws each one with the same layout as
:func:`sunlog.views.svg.board_svg`, byte for byte. It loads nothing: no network, no other file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from sunlog.engine.board import Board
from sunlog.engine.moves import Move
from sunlog.views.svg import Frame, frame_for, geometry, last_move_mark

__all__ = ["CSP", "MoveEntry", "game_html", "replay_frames"]

#: The page's Content-Security-Policy: nothing may be fetched, inline code only.
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

#: One move of a game: (move, text as written, annotation, comments).
MoveEntry = tuple[Move | str, str, str | None, tuple[str, ...]]

_ANNOTATIONS = {
    "!": "a good move",
    "?": "a mistake",
    "!!": "a brilliant move",
    "??": "a blunder",
    "!?": "an interesting move",
    "?!": "a dubious move",
}


def game_html(
    initial: Board,
    moves: Sequence[MoveEntry],
    *,
    tags: Sequence[tuple[str, str]] = (),
    start_comments: Sequence[str] = (),
) -> str:
    """The replay page of a game: ``moves`` played from ``initial`` (left untouched).

    Each move is ``(move, text as written, annotation, comments)``; ``move`` is a
    :class:`Move` or its notation. An illegal move raises the engine's error, with a note
    saying which move it was.
    """
    board = initial.copy()
    first = board.move_count
    positions = [board.to_json()]
    entries: list[dict[str, Any]] = []
    for i, (move, text, annotation, comments) in enumerate(moves, 1):
        parsed = Move.parse(move) if isinstance(move, str) else move
        try:
            canonical = board.canonical(parsed)
            board.push(parsed)
        except ValueError as exc:
            exc.add_note(f"while replaying move {first + i} ({text})")
            raise
        positions.append(board.to_json())
        label = text.strip()
        if annotation and label.endswith(annotation):
            label = label[: -len(annotation)]  # the reader left the suffix on the text
        entries.append(
            {
                "number": first + i,
                "text": text,
                "label": label,
                "annotation": annotation,
                "comments": list(comments),
                "mark": last_move_mark(canonical),
            }
        )
    deal = initial.deal_number
    frames, frame_of = replay_frames(positions)
    data = {
        "geometry": geometry(),
        "frames": [frame.to_json() for frame in frames],
        "frame_of": frame_of,
        "deal_text": None if deal is None else str(deal),
        "first": first,
        "positions": positions,
        "moves": entries,
        "start_comments": list(start_comments),
        "annotations": _ANNOTATIONS,
    }
    title = _title(initial, tags)
    parts = [
        "<!DOCTYPE html>\n",
        '<html lang="en"><head><meta charset="utf-8">\n',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>{escape(title)}</title>\n",
        f"<style>{_CSS}</style>\n</head>\n<body>\n",
        _header(title, tags),
        '<main>\n<section id="board-area">\n',
        f'<div id="board" data-ply="0" aria-label="board">{_NOSCRIPT}</div>\n',
        "</section>\n",
        '<aside>\n<div id="controls">',
        _button("first", "first position (Home or Up)", "M3 2h2v12H3zM14 2v12L6 8z"),
        _button("prev", "previous move (Left)", "M12 2v12L4 8z"),
        '<span id="counter"></span>',
        _button("next", "next move (Right)", "M4 2v12l8-6z"),
        _button("last", "last move (End or Down)", "M2 2v12l8-6zM11 2h2v12h-2z"),
        _button(
            "zoom",
            "full size or fit to the window (Z)",
            "M6.5 1a5.5 5.5 0 1 0 3.2 10l4 4 1.4-1.4-4-4A5.5 5.5 0 0 0 6.5 1zm0 2a3.5 3.5 0 1 1 "
            "0 7 3.5 3.5 0 0 1 0-7zM5.5 4.5v1.5H4v1h1.5v1.5h1V7H8V6H6.5V4.5z",
        ),
        "</div>\n",
        '<div id="help">Left and Right step through the game, Up and Down jump to its ends, '
        "Z shows the board full size; click a move to see the board after it.</div>\n",
        '<div id="comment" aria-live="polite"></div>\n',
        _move_list(entries, start_comments),
        "</aside>\n</main>\n",
        '<script type="application/json" id="game-data">',
        _script_json(data),
        "</script>\n",
        '<script type="application/json" id="state">{}</script>\n',
        f"<script>{_SCRIPT}</script>\n",
        "</body></html>\n",
    ]
    return "".join(parts)


def replay_frames(positions: Sequence[dict[str, Any]]) -> tuple[list[Frame], list[int]]:
    """The canvases of a replay, and which one each position uses.

    The table changes shape twice: rays grow long and clouds appear at sunset, and the
    wind clears the rays. Each phase (stages 1 and 2, stage 3, after the wind) gets the
    smallest canvas that holds all its positions, so the board stays still within a phase
    and is no larger than it needs to be.
    """
    phases: dict[str, list[int]] = {}
    for n, pos in enumerate(positions):
        stage = pos["stage"]
        phase = "wind" if stage == "wind" else "sunset" if stage == 3 else "sunrise"
        phases.setdefault(phase, []).append(n)
    frames: list[Frame] = []
    frame_of = [0] * len(positions)
    for members in phases.values():
        for n in members:
            frame_of[n] = len(frames)
        frames.append(frame_for(positions[n] for n in members))
    return frames, frame_of


def _button(name: str, title: str, path: str) -> str:
    """A control button with its icon drawn inline (no icon font to miss)."""
    return (
        f'<button id="btn-{name}" type="button" title="{title}" aria-label="{title}">'
        f'<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">'
        f'<path d="{path}" fill="currentColor"/></svg></button>'
    )


def _title(initial: Board, tags: Sequence[tuple[str, str]]) -> str:
    for name, value in tags:
        if name == "Event" and value.strip():
            return value.strip()
    title = {"sun": "Sun", "sun-2": "Sun-2", "sun-3": "Sun-3"}[initial.variant.value]
    if initial.deal_number is not None:
        title += f", deal {initial.deal_number}"
    return title


def _header(title: str, tags: Sequence[tuple[str, str]]) -> str:
    items = "".join(
        f"<div><dt>{escape(name)}</dt><dd>{escape(value)}</dd></div>" for name, value in tags
    )
    dl = f'<dl id="tags">{items}</dl>' if tags else ""
    return f"<header><h1>{escape(title)}</h1>{dl}</header>\n"


def _move_list(entries: Sequence[dict[str, Any]], start_comments: Sequence[str]) -> str:
    """The moves as buttons, a new line at each deal, open, gather and wind."""
    out = ['<div id="moves">\n<div class="line">']
    out.append('<button type="button" class="move" id="move-0" data-ply="0">start</button>')
    out.extend(_comment_spans(start_comments))
    for ply, entry in enumerate(entries, 1):
        kind = entry["mark"]["kind"]
        if kind != "card":
            out.append('</div>\n<div class="line">')
        annotation = entry["annotation"] or ""
        note = f' title="{escape(_ANNOTATIONS.get(annotation, annotation))}"' if annotation else ""
        out.append(
            f'<span class="num">{entry["number"]}.</span>'
            f'<button type="button" class="move" id="move-{ply}" data-ply="{ply}">'
            f"{escape(entry['label'])}"
            f'<span class="annotation"{note}>{escape(annotation)}</span></button>'
        )
        out.extend(_comment_spans(entry["comments"]))
    out.append("</div>\n</div>\n")
    return "".join(out)


def _comment_spans(comments: Sequence[str]) -> list[str]:
    return [f'<span class="comment">{escape(text.strip())}</span>' for text in comments]


def _script_json(data: Any) -> str:
    """JSON safe inside a script element: no ``</script``, no ``<!--``."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


_NOSCRIPT = "<noscript>The board needs JavaScript; the move list works without it.</noscript>"

_CSS = """
:root{color-scheme:light;--felt:#1d5e3a;--ink:#1b1b1b;--accent:#1e63ff}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 Helvetica,Arial,'Liberation Sans','DejaVu Sans',sans-serif;
background:#eef1ec;color:var(--ink)}
header{background:#134229;color:#fff;padding:8px 18px;display:flex;flex-wrap:wrap;
align-items:baseline;gap:4px 24px}
h1{margin:0;font-size:20px}
#tags{display:flex;flex-wrap:wrap;gap:2px 18px;margin:0;font-size:13px;color:#d5e7db}
#tags div{display:flex;gap:5px}#tags dt{font-weight:bold}#tags dd{margin:0}
main{display:flex;flex-wrap:wrap;gap:14px;padding:10px 14px;align-items:flex-start}
#board-area{flex:1 1 640px;min-width:320px}
#board svg{display:block;width:100%;height:auto;max-height:calc(100vh - 70px)}
#board.zoom{overflow:auto;max-height:calc(100vh - 70px)}
#board.zoom svg{max-height:none;max-width:none}
#btn-zoom[aria-pressed="true"]{background:#d8e8dc}
#comment{min-height:1.6em;margin-bottom:8px;padding:6px 8px;background:#fffbe6;
border:1px solid #e6d9a2;border-radius:5px;font-style:italic}
#comment:empty{visibility:hidden}
#comment .annotation-note{font-style:normal;font-weight:bold;margin-right:6px}
aside{flex:0 1 310px;min-width:250px;max-height:calc(100vh - 70px);display:flex;
flex-direction:column}
#help{font-size:12px;color:#5d6b62;margin:-2px 0 8px}
#controls{display:flex;align-items:center;gap:6px;margin-bottom:8px}
#controls button{width:40px;height:34px;color:#1d5e3a;border:1px solid #8a9a8f;
border-radius:5px;background:#fff;cursor:pointer}
#controls button:hover{background:#e4efe7}
#controls button:disabled{opacity:.4;cursor:default}
#counter{flex:1;text-align:center;font-variant-numeric:tabular-nums;white-space:nowrap}
#moves{overflow-y:auto;background:#fff;border:1px solid #c6cfc8;border-radius:5px;
padding:6px 8px;font-size:14px}
.line{margin:1px 0}
.num{color:#6a766e;font-size:12px;margin:0 2px 0 6px}
.move{font:inherit;border:0;background:none;padding:1px 4px;border-radius:3px;
cursor:pointer;color:inherit}
.move:hover{background:#e4efe7}
.move.current{background:var(--accent);color:#fff}
.annotation{font-weight:bold}
.comment{color:#2f6b45;font-style:italic;margin:0 4px}
.comment::before{content:"{ "}.comment::after{content:" }"}
"""

_SCRIPT = r"""
(function () {
"use strict";
var DATA = JSON.parse(document.getElementById("game-data").textContent);
var G = DATA.geometry, F = DATA.frames[0];
var CW = G.card_w, CH = G.card_h, RAY_STEP = G.ray_step, ROW_STEP = G.row_step;
var RAY_REACH = G.ray_reach, INLINE_H = G.inline_h, STACK_W = G.stack_w;
var ROW_MAX = G.row_max, SUN_R = G.sun_r, HEADER_H = G.header_h, MARGIN = G.margin;
var LABEL_W = G.panel_label_w, ROW_PITCH = G.row_pitch, EMPTY_PITCH = G.empty_pitch;
var WIND_GAP = G.wind_gap, FGX = G.found_gap_x, FGY = G.found_gap_y, FSHIFT = G.found_shift;
var RAYS = G.rays, SUITS = "SHDC";

// ---- the layout of sunlog/views/svg.py, step for step (see _Painter there)
function n(x) {
  var k = Math.floor(x * 10 + 0.5);
  var sign = k < 0 ? "-" : "";
  k = Math.abs(k);
  var whole = Math.floor(k / 10), tenth = k % 10;
  return tenth ? sign + whole + "." + tenth : sign + whole;
}
function esc(s) {
  return String(s).replace(/&/g, "&amp;").replace(/>/g, "&gt;").replace(/</g, "&lt;")
    .replace(/"/g, "&quot;");
}
function rayStep(ray, length) {
  var g = RAYS[ray - 1], ux = g[0], uy = g[1], least = g[3], step = RAY_STEP;
  if (length > 1) step = Math.max(least, Math.min(step, RAY_REACH / (length - 1)));
  var dx = ux * step, dy = uy * step;
  if (Math.abs(dy) / INLINE_H >= Math.abs(dx) / STACK_W) return [step, dy < 0 ? "b" : "t"];
  return [step, dx < 0 ? "r" : "l"];
}
function color(suit) { return "HD".indexOf(suit) >= 0 ? "red" : "black"; }
function panelRows(pos) {
  var rows = [];
  pos.clouds.forEach(function (c, i) {
    if (c.length) rows.push(["cloud-" + (i + 1), "c" + (i + 1), c]);
  });
  if (pos.wind_row !== null) rows.push(["wind", "w", pos.wind_row]);
  return rows;
}
function emptyClouds(pos) {
  var out = [];
  pos.clouds.forEach(function (c, i) { if (!c.length) out.push("c" + (i + 1)); });
  return out;
}
function rowHeight(cards) {
  if (!cards.length) return EMPTY_PITCH;
  return Math.floor((cards.length + ROW_MAX - 1) / ROW_MAX) * ROW_PITCH;
}

function Painter(pos, mark) { this.pos = pos; this.mark = mark; this.out = []; this.placed = {}; }
var P = Painter.prototype;

P.paint = function () {
  var pos = this.pos, out = this.out, width = F.width, height = F.height;
  out.push('<svg xmlns="http://www.w3.org/2000/svg" class="sunlog" viewBox="0 0 ' + width +
    " " + height + '" data-variant="' + esc(pos.variant) + '" data-move-count="' +
    pos.move_count + '" data-stage="' + esc(pos.stage) + '" data-status="' +
    esc(pos.status) + '">');
  out.push(G.style);
  out.push(G.defs);
  out.push('<rect width="' + width + '" height="' + height + '" fill="#1d5e3a"/>');
  out.push('<rect width="' + width + '" height="' + HEADER_H + '" fill="#134229"/>');
  this.header(); this.sun(); this.rays(); this.foundations(); this.stock(); this.panel();
  this.lastMove();
  out.push("</svg>");
  return out.join("");
};

P.header = function () {
  var pos = this.pos, out = this.out, width = F.width;
  var title = G.variant_names.hasOwnProperty(pos.variant) ? G.variant_names[pos.variant]
    : String(pos.variant);
  if (pos.deal !== null && pos.deal !== undefined) title += " \u00b7 deal " + DATA.deal_text;
  var count = pos.move_count;
  var moves = count === 0 ? "start" : count === 1 ? "after 1 move" : "after " + count + " moves";
  out.push('<text class="title" x="' + MARGIN + '" y="25">' + esc(title) + "</text>");
  out.push('<text class="title" x="' + (width - MARGIN) + '" y="25" text-anchor="end">' +
    moves + "</text>");
  out.push('<text class="info" x="' + MARGIN + '" y="47">' + esc(this.stageText()) + "</text>");
  if (this.mark !== null) {
    out.push('<text class="info" x="' + (width - MARGIN) + '" y="47" text-anchor="end">' +
      esc("last move: " + this.mark.text) + "</text>");
  }
};

P.stageText = function () {
  var pos = this.pos, stage = pos.stage, text;
  if (stage === 1) text = "Stage 1, sunrise: " + pos.deals + " of 8 deals made";
  else if (stage === 2) text = "Stage 2, the sun plays: ray " + pos.open_ray + " is open";
  else if (stage === 3) text = "Stage 3, sunset: rays are gathered";
  else text = "The wind has blown";
  if (pos.status !== "playing") text += " \u2014 " + pos.status;
  return text;
};

P.card = function (card, pile, index, x, y, mode) {
  var rank = card.slice(0, -1), suit = card.slice(-1), col = color(suit), out = this.out;
  out.push('<g class="card" data-card="' + esc(card) + '" data-pile="' + pile +
    '" data-index="' + index + '" transform="translate(' + n(x) + " " + n(y) + ')">' +
    '<rect class="face" width="' + CW + '" height="' + CH + '" rx="5"/>');
  var fit = rank === "10" ? ' textLength="15" lengthAdjust="spacingAndGlyphs"' : "";
  if (mode === "f" || mode === "l") out.push(indexMark(rank, suit, col, fit));
  if (mode === "f") {
    out.push('<use href="#sunlog-' + suit + '" class="' + col + '" x="' + n(CW / 2 - 14) +
      '" y="' + n(CH / 2 - 10) + '" width="28" height="28"/>' +
      '<g transform="rotate(180 ' + n(CW / 2) + " " + n(CH / 2) + ')">' +
      indexMark(rank, suit, col, fit) + "</g>");
  } else if (mode === "r") {
    out.push('<text class="rank ' + col + '" x="' + (CW - 3) + '" y="16" text-anchor="end"' +
      fit + ">" + rank + "</text>" + '<use href="#sunlog-' + suit + '" class="' + col +
      '" x="' + (CW - 15) + '" y="20" width="12" height="12"/>');
  } else if (mode === "b" || mode === "t") {
    var base = mode === "b" ? CH - 4 : 15;
    out.push('<text class="rank ' + col + '" x="21" y="' + base + '" text-anchor="end"' + fit +
      ">" + rank + "</text>" + '<use href="#sunlog-' + suit + '" class="' + col +
      '" x="23" y="' + (base - 11) + '" width="11" height="11"/>');
  }
  out.push("</g>");
  (this.placed[pile] = this.placed[pile] || []).push([x, y, card]);
};

function indexMark(rank, suit, col, fit) {
  return '<text class="rank ' + col + '" x="3" y="16"' + fit + ">" + rank + "</text>" +
    '<use href="#sunlog-' + suit + '" class="' + col + '" x="3" y="20" width="12" height="12"/>';
}

P.slot = function (x, y, cls, suit) {
  this.out.push('<rect class="' + cls + '" x="' + n(x) + '" y="' + n(y) + '" width="' + CW +
    '" height="' + CH + '" rx="5"/>');
  if (suit !== undefined) {
    this.out.push('<use href="#sunlog-' + suit + '" class="' + color(suit) + ' ghost" x="' +
      n(x + CW / 2 - 12) + '" y="' + n(y + CH / 2 - 12) + '" width="24" height="24"/>');
  }
};

P.sun = function () {
  var out = this.out, cx = F.cx, cy = F.cy, openRay = this.pos.open_ray;
  for (var i = 1; i <= 13; i++) {
    var g = RAYS[i - 1], ux = g[0], uy = g[1], r0 = g[2];
    var cls = i === openRay ? "track track-open" : "track";
    var length = F.ray_lens[i - 1], step = rayStep(i, length)[0];
    var near = SUN_R + 30, far = r0 + (length - 1) * step;
    out.push('<line class="' + cls + '" x1="' + n(cx + ux * near) + '" y1="' +
      n(cy + uy * near) + '" x2="' + n(cx + ux * far) + '" y2="' + n(cy + uy * far) + '"/>');
  }
  out.push('<circle cx="' + n(cx) + '" cy="' + n(cy) + '" r="' + SUN_R +
    '" fill="url(#sunlog-sun)" stroke="#e08e0b" stroke-width="3"/>');
  var names = G.stage_names, key = String(this.pos.stage);
  var stage = names.hasOwnProperty(key) ? names[key] : "";
  out.push('<text class="stage" x="' + n(cx) + '" y="' + n(cy + SUN_R + 52) +
    '" text-anchor="middle">' + esc(stage) + "</text>");
  var status = this.pos.status;
  if (status !== "playing") {
    out.push('<text class="result" x="' + n(cx) + '" y="' + n(cy + SUN_R + 90) +
      '" text-anchor="middle">' + esc(String(status).toUpperCase()) + "</text>");
  }
};

P.rays = function () {
  var out = this.out, cx = F.cx, cy = F.cy, openRay = this.pos.open_ray;
  for (var i = 1; i <= 13; i++) {
    var g = RAYS[i - 1], ux = g[0], uy = g[1], r0 = g[2];
    var ray = this.pos.rays[i - 1], pile = "ray-" + i;
    var sm = rayStep(i, ray.length), step = sm[0], mode = sm[1];
    if (!ray.length) this.slot(cx + ux * r0 - CW / 2, cy + uy * r0 - CH / 2, "slot");
    for (var k = 0; k < ray.length; k++) {
      var dist = r0 + k * step;
      var x = cx + ux * dist - CW / 2, y = cy + uy * dist - CH / 2;
      this.card(ray[k], pile, k, x, y, k === ray.length - 1 ? "f" : mode);
    }
    var bx = cx + ux * (SUN_R + 14), by = cy + uy * (SUN_R + 14);
    var isOpen = i === openRay;
    var opened = isOpen ? ' data-open="true"' : "";
    var badge = isOpen ? "badge badge-open" : "badge";
    var text = isOpen ? "badge-text badge-open-text" : "badge-text";
    out.push('<g class="ray-label" data-ray="' + i + '"' + opened + ">" + '<circle class="' +
      badge + '" cx="' + n(bx) + '" cy="' + n(by) + '" r="11"/>' + '<text class="' + text +
      '" x="' + n(bx) + '" y="' + n(by + 4) + '" text-anchor="middle">' + i + "</text></g>");
  }
};

P.foundationPiles = function () {
  var found = this.pos.foundations, piles = [];
  for (var col = 0; col < 4; col++) {
    var suit = SUITS[col];
    if (this.pos.variant === "sun-3") {
      piles.push(["aces1-" + suit, 0, col, found.aces[suit][0]]);
      piles.push(["aces2-" + suit, 1, col, found.aces[suit][1]]);
    } else {
      piles.push(["aces-" + suit, 0, col, found.aces[suit]]);
      piles.push(["kings-" + suit, 1, col, found.kings[suit]]);
    }
  }
  return piles;
};

P.foundations = function () {
  var cx = F.cx, cy = F.cy, out = this.out;
  var left = cx - (4 * CW + 3 * FGX) / 2;
  var tops = [cy - CH - FGY, cy + FGY];
  var labels = this.pos.variant === "sun-3" ? ["A1", "A2"] : ["A", "K"];
  for (var row = 0; row < 2; row++) {
    out.push('<text class="found-label" x="' + n(left - 9) + '" y="' +
      n(tops[row] + CH / 2 + 5) + '" text-anchor="end">' + labels[row] + "</text>");
  }
  var piles = this.foundationPiles();
  for (var p = 0; p < piles.length; p++) {
    var pile = piles[p][0], r = piles[p][1], col = piles[p][2], cards = piles[p][3];
    var x = left + col * (CW + FGX), y = tops[r];
    if (!cards.length) { this.slot(x, y, "slot-sun", SUITS[col]); continue; }
    var last = cards.length - 1;
    for (var k = 0; k < cards.length; k++) {
      var shift = k * FSHIFT;
      this.card(cards[k], pile, k, x - shift, y - shift, k === last ? "f" : "h");
    }
  }
};

P.stock = function () {
  var pos = this.pos, out = this.out, x = MARGIN, y = HEADER_H + MARGIN;
  var stock = pos.stock;
  var count = stock !== null ? stock.length : 104 - 13 * pos.deals;
  var known = stock !== null ? "true" : "false";
  out.push('<g class="stock" data-pile="stock" data-count="' + count + '" data-known="' +
    known + '">');
  if (count === 0) this.slot(x, y, "slot");
  var layers = Math.floor((count + 25) / 26);
  for (var k = 0; k < layers; k++) {
    var shift = (layers - 1 - k) * 2;
    out.push('<rect class="back" x="' + n(x + shift) + '" y="' + n(y + shift) + '" width="' +
      CW + '" height="' + CH + '" rx="5"/>');
  }
  var label = stock !== null || count === 0 ? "stock: " + count : "stock: " + count + " unseen";
  out.push('<text class="label" x="' + x + '" y="' + (y + CH + 24) + '">' + label +
    "</text></g>");
};

P.panel = function () {
  var pos = this.pos, out = this.out;
  if (!F.panel) return;
  var x0 = F.panel_x, y = F.panel_y;
  if (!pos.clouds.length && pos.wind_row === null) {
    out.push('<text class="label" x="' + n(x0) + '" y="' + n(y + 20) + '">no clouds yet</text>');
    return;
  }
  var empty = emptyClouds(pos);
  if (empty.length) {
    var text = empty.length === 1 ? "emptied cloud: " : "emptied clouds: ";
    out.push('<text class="label" x="' + n(x0) + '" y="' + n(y + 20) + '">' + text +
      empty.join(" ") + "</text>");
    y += EMPTY_PITCH;
  }
  var rows = panelRows(pos);
  for (var r = 0; r < rows.length; r++) {
    var pile = rows[r][0], label = rows[r][1], cards = rows[r][2];
    if (pile === "wind") y += WIND_GAP;
    var sub = pile === "wind" ? "wind" : "cloud";
    if (!cards.length) {
      out.push('<text class="row-label" x="' + n(x0) + '" y="' + n(y + 20) + '">' + label +
        "</text>" + '<text class="row-sub" x="' + n(x0 + 30) + '" y="' + n(y + 20) + '">' +
        sub + ", empty</text>");
      y += EMPTY_PITCH;
      continue;
    }
    out.push('<text class="row-label" x="' + n(x0) + '" y="' + n(y + 28) + '">' + label +
      "</text>" + '<text class="row-sub" x="' + n(x0) + '" y="' + n(y + 44) + '">' + sub +
      "</text>");
    var last = cards.length - 1;
    for (var k = 0; k < cards.length; k++) {
      var line = Math.floor(k / ROW_MAX), col = k % ROW_MAX;
      var x = x0 + LABEL_W + col * ROW_STEP;
      var mode = k === last || col === ROW_MAX - 1 ? "f" : "l";
      this.card(cards[k], pile, k, x, y + line * ROW_PITCH, mode);
    }
    y += rowHeight(cards);
  }
};

P.lastMove = function () {
  var mark = this.mark;
  if (mark === null) return;
  var kind = mark.kind;
  if (kind === "deal") { for (var i = 1; i <= 13; i++) this.ringTop("ray-" + i); }
  else if (kind === "open" || kind === "gather") this.ringBadge(mark.index);
  else if (kind === "wind") this.ringWindRow();
  else this.markCardMove(mark);
};

P.markCardMove = function (mark) {
  var card = mark.card, dest = this.destination(mark);
  if (dest === null) return;
  var x = dest[0], y = dest[1], start = this.sourceAnchor(mark);
  if (start !== null) {
    var ex = x + CW / 2, ey = y + CH / 2;
    this.out.push('<line class="arrow" x1="' + n(start[0]) + '" y1="' + n(start[1]) + '" x2="' +
      n(ex) + '" y2="' + n(ey) + '" marker-end="url(#sunlog-arrow)"/>');
  }
  this.ringCard(x, y, card);
};

P.destination = function (mark) {
  var card = mark.card, target = mark.target, names;
  if (card === null) return null;
  var suit = card.slice(-1);
  if (target === "r") names = ["ray-" + mark.target_ray];
  else if (target === "K") names = ["kings-" + suit];
  else if (this.pos.variant === "sun-3") {
    names = target === "A2" ? ["aces2-" + suit] : ["aces1-" + suit, "aces2-" + suit];
    if (target === "A1") names = names.slice(0, 1);
  } else names = ["aces-" + suit];
  for (var i = 0; i < names.length; i++) {
    var cards = this.placed[names[i]] || [];
    if (cards.length && cards[cards.length - 1][2] === card) return cards[cards.length - 1];
  }
  return null;
};

P.sourceAnchor = function (mark) {
  var pos = this.pos, source = mark.source;
  if (source === "r") {
    var i = mark.index;
    if (!(i >= 1 && i <= 13)) return null;
    var g = RAYS[i - 1], ux = g[0], uy = g[1], r0 = g[2];
    var length = pos.rays[i - 1].length, step = rayStep(i, length + 1)[0];
    var depth = mark.depth || 1;
    var dist = r0 + (length + 1 - depth) * step;
    return [F.cx + ux * dist, F.cy + uy * dist];
  }
  if (source === "c" || source === "w") {
    return this.rowAnchor(source === "w" ? "wind" : "cloud-" + mark.index, mark.end);
  }
  if (source === "A" || source === "K") {
    var suit = mark.card.slice(-1);
    var cards = this.placed[(source === "A" ? "aces-" : "kings-") + suit] || [];
    if (cards.length) {
      var top = cards[cards.length - 1];
      return [top[0] + CW / 2, top[1] + CH / 2];
    }
    return null;
  }
  return null;
};

P.rowAnchor = function (name, end) {
  if (!F.panel) return null;
  var y = F.panel_y, rows = panelRows(this.pos);
  if (emptyClouds(this.pos).length) {
    if (name.indexOf("cloud-") === 0 && !this.pos.clouds[Number(name.slice(6)) - 1].length) {
      return [F.panel_x + 12, y + 14];
    }
    y += EMPTY_PITCH;
  }
  for (var r = 0; r < rows.length; r++) {
    var pile = rows[r][0], cards = rows[r][2];
    if (pile === "wind") y += WIND_GAP;
    if (pile === name) {
      if (end === "R" && cards.length) {
        var k = cards.length, line = Math.floor(k / ROW_MAX), col = k % ROW_MAX;
        return [F.panel_x + LABEL_W + col * ROW_STEP + CW / 2, y + line * ROW_PITCH + CH / 2];
      }
      return [F.panel_x + 12, y + 20];
    }
    y += rowHeight(cards);
  }
  return null;
};

P.ringCard = function (x, y, card) {
  var data = card !== undefined ? ' data-card="' + esc(card) + '"' : "";
  this.out.push('<rect class="mark" data-last="true"' + data + ' x="' + n(x - 2) + '" y="' +
    n(y - 2) + '" width="' + (CW + 4) + '" height="' + (CH + 4) + '" rx="6"/>');
};

P.ringWindRow = function () {
  var cards = this.placed.wind || [];
  if (!cards.length) return;
  var lines = Math.floor((cards.length + ROW_MAX - 1) / ROW_MAX);
  var perLine = Math.min(cards.length, ROW_MAX);
  var x = cards[0][0], y = cards[0][1];
  var width = CW + (perLine - 1) * ROW_STEP + 8, height = CH + (lines - 1) * ROW_PITCH + 8;
  this.out.push('<rect class="mark" data-last="true" data-pile="wind" x="' + n(x - 4) + '" y="' +
    n(y - 4) + '" width="' + n(width) + '" height="' + n(height) + '" rx="8"/>');
};

P.ringTop = function (pile) {
  var cards = this.placed[pile] || [];
  if (cards.length) {
    var top = cards[cards.length - 1];
    this.ringCard(top[0], top[1], top[2]);
  }
};

P.ringBadge = function (ray) {
  if (ray === null || !(ray >= 1 && ray <= 13)) return;
  var g = RAYS[ray - 1];
  var bx = F.cx + g[0] * (SUN_R + 14), by = F.cy + g[1] * (SUN_R + 14);
  this.out.push('<circle class="mark-ring" data-last="true" data-ray="' + ray + '" cx="' +
    n(bx) + '" cy="' + n(by) + '" r="15"/>');
};

// ---- the replay: one position on the board, buttons, keys, the move list
var positions = DATA.positions, moves = DATA.moves, last = positions.length - 1, ply = -1;
var boardEl = document.getElementById("board"), commentEl = document.getElementById("comment");
var counterEl = document.getElementById("counter"), stateEl = document.getElementById("state");
var buttons = document.querySelectorAll("#moves .move");

function positionJson(pos) {
  if (pos.deal === null || DATA.deal_text === null) return JSON.stringify(pos);
  var copy = {};
  for (var key in pos) copy[key] = key === "deal" ? "\u0000deal\u0000" : pos[key];
  return JSON.stringify(copy).replace('"\\u0000deal\\u0000"', DATA.deal_text);
}

function show(target) {
  target = Math.max(0, Math.min(last, target));
  ply = target;
  var pos = positions[ply], entry = ply > 0 ? moves[ply - 1] : null;
  F = DATA.frames[DATA.frame_of[ply]];
  var mark = entry ? entry.mark : null;
  var svg = new Painter(pos, mark).paint();
  boardEl.innerHTML = svg;
  if (zoomed) boardEl.firstChild.style.width = F.width + "px";
  boardEl.setAttribute("data-ply", String(ply));
  counterEl.textContent = (DATA.first + ply) + " / " + (DATA.first + last);
  counterEl.title = ply === 0 ? "the start" : "after move " + (DATA.first + ply);
  commentEl.textContent = "";
  var comments = entry ? entry.comments : DATA.start_comments;
  if (entry && entry.annotation) {
    var note = document.createElement("span");
    note.className = "annotation-note";
    note.textContent = entry.label + entry.annotation + ": " +
      (DATA.annotations[entry.annotation] || entry.annotation);
    commentEl.appendChild(note);
  }
  if (comments.length) commentEl.appendChild(document.createTextNode(comments.join(" \u2014 ")));
  for (var i = 0; i < buttons.length; i++) {
    var current = Number(buttons[i].getAttribute("data-ply")) === ply;
    buttons[i].classList.toggle("current", current);
    if (current && buttons[i].scrollIntoView) buttons[i].scrollIntoView({block: "nearest"});
  }
  document.getElementById("btn-first").disabled = ply === 0;
  document.getElementById("btn-prev").disabled = ply === 0;
  document.getElementById("btn-next").disabled = ply === last;
  document.getElementById("btn-last").disabled = ply === last;
  stateEl.textContent = ('{"ply":' + ply + ',"move_count":' + pos.move_count + ',"position":' +
    positionJson(pos) + ',"mark":' + JSON.stringify(mark) + ',"svg":' + JSON.stringify(svg) +
    "}").replace(/</g, "\\u003c");
}

var zoomed = false;
function zoom() {
  zoomed = !zoomed;
  boardEl.classList.toggle("zoom", zoomed);
  document.getElementById("btn-zoom").setAttribute("aria-pressed", String(zoomed));
  show(ply);
}
var ACTIONS = {
  zoom: zoom,
  first: function () { show(0); },
  prev: function () { show(ply - 1); },
  next: function () { show(ply + 1); },
  last: function () { show(last); }
};
var KEYS = {ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "first", ArrowDown: "last",
  Home: "first", End: "last", z: "zoom", Z: "zoom"};
["first", "prev", "next", "last", "zoom"].forEach(function (name) {
  document.getElementById("btn-" + name).addEventListener("click", ACTIONS[name]);
});
for (var b = 0; b < buttons.length; b++) {
  buttons[b].addEventListener("click", function (event) {
    show(Number(event.currentTarget.getAttribute("data-ply")));
  });
}
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  var action = KEYS[event.key];
  if (!action) return;
  event.preventDefault();
  ACTIONS[action]();
});

// #at=N, #press=next,next (key presses), #click=btn-next,move-3 (clicks), joined by &
var PRESS = {first: "ArrowUp", prev: "ArrowLeft", next: "ArrowRight", last: "ArrowDown",
  home: "Home", end: "End", left: "ArrowLeft", right: "ArrowRight", up: "ArrowUp",
  down: "ArrowDown", zoom: "z"};
show(0);
location.hash.replace(/^#/, "").split("&").forEach(function (part) {
  var eq = part.indexOf("="), name = part.slice(0, eq), value = decodeURIComponent(
    part.slice(eq + 1));
  if (eq < 0 || !value) return;
  var items = value.split(",");
  if (name === "at") show(Number(value) - DATA.first);
  items.forEach(function (item) {
    if (name === "press" && PRESS[item]) {
      document.dispatchEvent(new KeyboardEvent("keydown", {key: PRESS[item], bubbles: true}));
    } else if (name === "click") {
      var el = document.getElementById(item);
      if (el) el.click();
    }
  });
});
})();
"""
