"""A game as one self-contained HTML page that replays it: board, buttons, keys, move list.

Every step's picture is made here, by :func:`sunlog.views.svg.svg_parts` (the pieces
``board_svg`` joins), so the page draws nothing itself: it stores each distinct piece once
and, per step, the list of pieces to join. It loads nothing: no network, no other file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from difflib import SequenceMatcher
from html import escape
from typing import Any

from sunlog.engine.board import Board
from sunlog.engine.moves import Move, MoveKind
from sunlog.views.svg import Frame, frame_for, svg_parts

__all__ = ["CSP", "MoveEntry", "game_html", "replay_frames", "replay_pictures", "step_parts"]

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
    played: list[Move] = []
    entries: list[dict[str, Any]] = []
    for i, (move, text, annotation, comments) in enumerate(moves, 1):
        parsed = Move.parse(move) if isinstance(move, str) else move
        try:
            played.append(board.canonical(parsed))
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
                "label": label,
                "annotation": annotation,
                "comments": list(comments),
                "stage_move": played[-1].kind is not MoveKind.CARD,
            }
        )
    pieces, steps = replay_pictures(positions, played)
    data = {
        "pieces": pieces,
        "steps": steps,
        "first": first,
        "moves": [{k: e[k] for k in ("label", "annotation", "comments")} for e in entries],
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


#: A step's picture for the page: piece numbers, or [start, count] for a run of the
#: previous step's piece numbers.
Step = list[int | list[int]]


def replay_pictures(
    positions: Sequence[dict[str, Any]], moves: Sequence[Move]
) -> tuple[list[str], list[Step]]:
    """Every step's picture as pieces of SVG: the distinct pieces, and for each step the
    pieces that, joined, make ``board_svg`` of that position (the move that led to it
    marked, on its phase's canvas).

    ``positions`` are the positions after 0, 1, …, N of ``moves``. A move changes a few
    things on the table and leaves the rest, so each step is written as the previous
    step's piece list with the changes: runs kept as ``[start, count]``, new entries as
    piece numbers (:func:`step_parts` reads them back). A long game costs a few numbers
    per step, not a picture per step.
    """
    frames, frame_of = replay_frames(positions)
    index: dict[str, int] = {}
    steps: list[Step] = []
    before: list[int] = []
    for n, pos in enumerate(positions):
        last = moves[n - 1] if n else None
        parts = svg_parts(pos, last_move=last, frame=frames[frame_of[n]])
        now = [index.setdefault(part, len(index)) for part in parts]
        step: Step = []
        matcher = SequenceMatcher(None, before, now, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                step.append([i1, i2 - i1])
            else:
                step.extend(now[j1:j2])
        steps.append(step)
        before = now
    return list(index), steps


def step_parts(steps: Sequence[Step], n: int) -> list[int]:
    """The piece numbers of step ``n`` (what the page's ``parts`` function computes)."""
    parts: list[int] = []
    for step in steps[: n + 1]:
        before, parts = parts, []
        for item in step:
            if isinstance(item, list):
                parts.extend(before[item[0] : item[0] + item[1]])
            else:
                parts.append(item)
    return parts


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
        if entry["stage_move"]:
            out.append('</div>\n<div class="line">')
        annotation = entry["annotation"] or ""
        note = f' title="{escape(_ANNOTATIONS.get(annotation, annotation))}"' if annotation else ""
        # A number and its move never part at the end of a line (.step is nowrap).
        out.append(
            f'<span class="step"><span class="num">{entry["number"]}.</span>'
            f'<button type="button" class="move" id="move-{ply}" data-ply="{ply}">'
            f"{escape(entry['label'])}"
            f'<span class="annotation"{note}>{escape(annotation)}</span></button></span>'
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
.step{white-space:nowrap}
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
var pieces = DATA.pieces, steps = DATA.steps, parts = [[]];
// Each step lists piece numbers, and [start, count] for a run kept from the step before
// (sunlog.views.html.replay_pictures); the lists are unpacked once, here.
for (var s = 0; s < steps.length; s++) {
  var prev = parts[s], now = [];
  for (var j = 0; j < steps[s].length; j++) {
    var item = steps[s][j];
    if (typeof item === "number") now.push(item);
    else for (var k = item[0]; k < item[0] + item[1]; k++) now.push(prev[k]);
  }
  parts.push(now);
}
parts.shift();

// ---- the replay: one step's picture on the board, buttons, keys, the move list
var moves = DATA.moves, last = steps.length - 1, ply = -1;
var boardEl = document.getElementById("board"), commentEl = document.getElementById("comment");
var counterEl = document.getElementById("counter"), stateEl = document.getElementById("state");
var buttons = document.querySelectorAll("#moves .move");

function picture(n) {
  var list = parts[n], out = new Array(list.length);
  for (var i = 0; i < list.length; i++) out[i] = pieces[list[i]];
  return out.join("");
}

function show(target) {
  target = Math.max(0, Math.min(last, target));
  ply = target;
  var entry = ply > 0 ? moves[ply - 1] : null;
  var svg = picture(ply);
  boardEl.innerHTML = svg;
  if (zoomed) boardEl.firstChild.style.width = boardEl.firstChild.viewBox.baseVal.width + "px";
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
  stateEl.textContent = JSON.stringify({ply: ply, move_count: DATA.first + ply, svg: svg})
    .replace(/</g, "\\u003c");
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
