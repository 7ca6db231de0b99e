"""The replay page: self-contained, and in a real headless Chromium it shows the engine.

The Chromium tests load the page from a file, press keys or click through the URL
fragment (``#press=next,next``, ``#click=btn-last,move-3``, ``#at=N``), read the DOM after
the scripts ran, and compare the drawn cards with ``Board.to_json()`` and the picture shown
with ``board_svg``. Without ``/usr/bin/chromium`` they skip, except under CI (``CI=true``),
where a missing browser fails them (``.ci/install-chromium`` installs it). Screenshots go
to ``tests/artifacts/``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, TypeVar

import pytest
from test_svg import (
    VARIANTS,
    canonical_texts,
    expected_piles,
    game,
    positions,
    spec_moves,
)

from sunlog.engine.board import Board
from sunlog.engine.errors import IllegalMoveError
from sunlog.engine.moves import Move, MoveKind
from sunlog.views.html import CSP, MoveEntry, game_html, replay_frames, step_parts
from sunlog.views.svg import board_svg

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
_TEST = TypeVar("_TEST", bound=Callable[..., None])


_MISSING = "Debian's chromium is not installed at {} (run .ci/install-chromium)"


def without_chromium(path: Path, env: Mapping[str, str]) -> str | None:
    """What the browser tests do when Chromium is not at ``path``: None (it is there),
    "skip", or "fail" under CI (``CI=true``), where they are required."""
    if path.exists():
        return None
    return "fail" if env.get("CI", "").lower() == "true" else "skip"


def needs_chromium(test: _TEST) -> _TEST:
    """A test that drives headless Chromium: skipped without it (failed under CI), and in
    the slow lane (the module's batch of browser runs takes a minute on a busy machine)."""
    verdict = without_chromium(CHROMIUM, os.environ)
    skip = pytest.mark.skipif(verdict == "skip", reason=_MISSING.format(CHROMIUM))
    marked: _TEST = pytest.mark.slow(skip(test))
    return marked


# The brief's flags, plus two that keep Chromium's own background requests (updates,
# accounts) from leaving the machine: every host name resolves to nothing, and any other
# connection would go to a closed port on this machine.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=http://127.0.0.1:9",
)
_STATE = re.compile(r'<script type="application/json" id="state">(.*?)</script>', re.S)
_DATA = re.compile(r'<script type="application/json" id="game-data">(.*?)</script>', re.S)
_HARNESS = re.compile(r'<script type="application/json" id="harness">(.*?)</script>', re.S)
_WRAP = re.compile(r'<script type="application/json" id="wrap">(.*?)</script>', re.S)


def entries(moves: Sequence[Move]) -> list[MoveEntry]:
    """Move entries as the notation reader hands them over, without comments."""
    return [(move, str(move), None, ()) for move in moves]


def spec_page() -> tuple[Board, list[MoveEntry], str]:
    """The SPEC 5.4 game with its tags, comments and annotation, and its page."""
    texts = spec_moves()
    items: list[MoveEntry] = [(text, text, None, ()) for text in texts]
    items[3] = (texts[3], texts[3], None, ("the first arc",))
    items[12] = (texts[12], texts[12], None, ("short forms: the card alone names its ray",))
    items[38] = (texts[38], texts[38], "!", ())
    board = Board("sun", deal=20261129)
    tags = [("Event", "Kitchen table"), ("Variant", "sun"), ("Deal", "20261129")]
    return board, items, game_html(board, items, tags=tags)


def game_data(page: str) -> dict[str, Any]:
    m = _DATA.search(page)
    assert m, "no game-data script"
    data: dict[str, Any] = json.loads(m.group(1))
    return data


# ------------------------------------------------------------- without a browser


def pictures(page: str) -> list[str]:
    """The picture of every step, as the page's script joins it from the page's data."""
    data = game_data(page)
    steps = data["steps"]
    return ["".join(data["pieces"][i] for i in step_parts(steps, n)) for n in range(len(steps))]


def test_page_holds_board_svg_of_every_step() -> None:
    """The page carries ``board_svg``'s own picture of each position (the move that led to
    it marked), on one canvas per phase of the game; each piece of SVG is stored once."""
    for variant in VARIANTS:
        board, moves = game(variant)
        page = game_html(board, entries(moves))
        every = positions(board, moves)
        texts = canonical_texts(board, moves)
        frames, frame_of = replay_frames(every)
        want = [
            board_svg(pos, last_move=texts[n - 1] if n else None, frame=frames[frame_of[n]])
            for n, pos in enumerate(every)
        ]
        assert pictures(page) == want
        pieces = game_data(page)["pieces"]
        assert len(set(pieces)) == len(pieces)
        stages = [pos["stage"] for pos in every]
        assert len(frames) == 3 and frame_of == sorted(frame_of)
        assert {stages[n] for n in range(len(stages)) if frame_of[n] == 2} == {"wind"}
        assert {stages[n] for n in range(len(stages)) if frame_of[n] == 1} == {3}
        # The page is smaller than its pictures: a step stores only what its move changed.
        assert len(page) < sum(map(len, want)) / 5


def test_page_is_self_contained_and_forbids_fetching() -> None:
    _board, _items, page = spec_page()
    assert f'<meta http-equiv="Content-Security-Policy" content="{CSP}">' in page
    assert CSP == (
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
    )
    # The only URL is the SVG namespace name, which is never fetched.
    assert set(re.findall(r"https?://[^\s\"'<>\\)]+", page)) == {"http://www.w3.org/2000/svg"}
    assert not re.search(r"\b(?:src|href)=\"(?!#)", page)
    assert "@import" not in page and "@font-face" not in page
    assert not re.search(r"url\((?!#)", page)


def test_tags_comments_and_annotations_are_shown_with_their_moves() -> None:
    _board, items, page = spec_page()
    assert "<h1>Kitchen table</h1>" in page
    assert "<dt>Deal</dt><dd>20261129</dd>" in page
    buttons = re.findall(r'<button type="button" class="move" id="move-(\d+)"', page)
    assert buttons == [str(i) for i in range(len(items) + 1)]
    four = page.index('id="move-4"')
    assert page.index('<span class="comment">the first arc</span>') > four
    assert page.index('<span class="comment">the first arc</span>') < page.index('id="move-5"')
    assert re.search(
        r'id="move-39" data-ply="39">r1:5S&gt;A<span class="annotation" '
        r'title="a good move">!</span>',
        page,
    )
    # Each stage action starts a line, as a player writes the log.
    lines = page.split('<div class="line">')[1:]
    assert len(lines) == 1 + sum(1 for t in spec_moves() if not re.search(r":|>", t))


def test_text_from_the_log_is_escaped() -> None:
    board = Board("sun", deal=3)
    evil = "</script><script>alert(1)</script> & <b>"
    items: list[MoveEntry] = [("deal", "deal", None, (evil,))]
    page = game_html(board, items, tags=[("Event", evil), ("Site", '"quoted"')])
    assert "<script>alert" not in page and "<b>" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;" in page
    assert page.count("</script>") == 3  # game-data, state and the code, nothing more
    data = game_data(page)
    assert data["moves"][0]["comments"] == [evil]


def test_an_annotation_left_on_the_text_is_not_shown_twice() -> None:
    board = Board("sun", deal=20261129)
    items: list[MoveEntry] = [("deal", "deal", None, ()), ("r1:AC>A", "r1:AC>A!?", "!?", ())]
    page = game_html(board, items)
    assert '>r1:AC&gt;A<span class="annotation" title="an interesting move">!?</span>' in page
    assert "r1:AC&gt;A!?" not in page
    # What the comment line shows for the move: label, then the annotation, once.
    assert game_data(page)["moves"][1] == {"label": "r1:AC>A", "annotation": "!?", "comments": []}


def test_moves_may_be_notation_or_move_values_and_the_board_is_left_alone() -> None:
    board, moves = game("sun-2")
    before = board.to_json()
    as_text = game_html(board, [(str(m), str(m), None, ()) for m in moves])
    as_moves = game_html(board, entries(moves))
    assert as_text == as_moves
    assert board.to_json() == before


def test_an_illegal_move_says_which_move_it_was() -> None:
    board = Board("sun", deal=20261129)
    items: list[MoveEntry] = [("deal", "deal", None, ()), ("r1:KS>K", "r1:KS>K", None, ())]
    with pytest.raises(IllegalMoveError) as info:
        game_html(board, items)
    assert "while replaying move 2 (r1:KS>K)" in info.value.__notes__


# ------------------------------------------------------------ in Chromium


def chromium(url: str, *extra: str, timeout: float = 90) -> str:
    """Run headless Chromium on ``url`` with a fresh profile and return its stdout."""
    with tempfile.TemporaryDirectory(prefix="sunlog-chromium-") as profile:
        done = subprocess.run(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *extra, url],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class _BoardReader(HTMLParser):
    """Reads the drawn cards, the stock and the move buttons out of a dumped page."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[dict[str, str]] = []
        self.stock: dict[str, str] = {}
        self.current: list[str] = []
        self.buttons: list[str] = []
        self.comment = ""
        self._in_comment = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        if tag == "g" and "card" in classes:
            self.cards.append(a)
        elif tag == "g" and "stock" in classes:
            self.stock = a
        elif tag == "button":
            self.buttons.append(a.get("id", ""))
            if "current" in classes:
                self.current.append(a.get("id", ""))
        if self._in_comment:
            self._in_comment += 1
        elif a.get("id") == "comment":
            self._in_comment = 1

    def handle_endtag(self, tag: str) -> None:
        if self._in_comment:
            self._in_comment -= 1

    def handle_data(self, data: str) -> None:
        if self._in_comment:
            self.comment += data


def read_page(dom: str) -> tuple[_BoardReader, dict[str, Any]]:
    reader = _BoardReader()
    reader.feed(dom)
    m = _STATE.search(dom)
    assert m, "no #state in the page"
    state: dict[str, Any] = json.loads(m.group(1))
    return reader, state


def drawn(reader: _BoardReader) -> dict[str, list[str]]:
    piles: dict[str, dict[int, str]] = {}
    for card in reader.cards:
        piles.setdefault(card["data-pile"], {})[int(card["data-index"])] = card["data-card"]
    return {name: [cards[i] for i in sorted(cards)] for name, cards in piles.items()}


def sample_ply(variant: str) -> int:
    """A position of the variant's test game two moves after the first cloud appeared."""
    board, moves = game(variant)
    every = positions(board, moves)
    first = next(n for n, pos in enumerate(every) if pos["clouds"])
    return min(first + 2, len(moves))


# The navigation cases on the SPEC 5.4 page (41 moves): (fragment, expected ply). Each
# sequence also bumps into both ends, where a further step must change nothing.
NAVIGATION = (
    ("", 0),
    (
        "click=btn-last,btn-next,btn-prev,move-13,btn-first,btn-prev" + ",btn-next" * 4,
        4,
    ),
    ("press=down,right,left,left,home,end,up,left,right&at=38&press=next&press=zoom", 39),
)

#: Records, for every step, what the page shows: the SVG, the state's position, the cards.
HARNESS = """<script>(function () {
var out = [], state = document.getElementById('state');
function record() {
  var cards = [].map.call(document.querySelectorAll('#board g.card'), function (g) {
    return [g.getAttribute('data-pile'), +g.getAttribute('data-index'),
      g.getAttribute('data-card')];
  });
  var s = JSON.parse(state.textContent);
  out.push({ply: s.ply, move_count: s.move_count, svg: s.svg, cards: cards});
}
document.getElementById('btn-first').click(); record();
for (var i = 0; i < %d; i++) { document.getElementById('btn-next').click(); record(); }
var el = document.createElement('script'); el.type = 'application/json'; el.id = 'harness';
el.textContent = JSON.stringify(out).replace(/</g, '\\\\u003c');
document.body.appendChild(el);
})();</script>"""

#: Tries to reach outside the page; the page's policy must refuse all three.
PROBE = """<script>(function () {
var seen = [];
document.addEventListener('securitypolicyviolation', function (e) {
  seen.push(e.violatedDirective);
  var el = document.getElementById('probe');
  if (!el) { el = document.createElement('pre'); el.id = 'probe'; document.body.appendChild(el); }
  el.textContent = seen.sort().join(' ');
});
fetch('http://127.0.0.1:9/x').catch(function () {});
var img = new Image(); img.src = 'http://127.0.0.1:9/y.png'; document.body.appendChild(img);
var css = document.createElement('link'); css.rel = 'stylesheet';
css.href = 'http://127.0.0.1:9/z.css'; document.head.appendChild(css);
})();</script>"""


#: Narrows the move list so that it wraps, then says where each move number and its move
#: were laid out: [number's text, number's middle y, move's middle y], and the line height.
WRAP = """<script>(function () {
document.getElementById('moves').style.width = '150px';
var out = [].map.call(document.querySelectorAll('#moves .num'), function (num) {
  var a = num.getBoundingClientRect(), b = num.nextElementSibling.getBoundingClientRect();
  return [num.textContent, (a.top + a.bottom) / 2, (b.top + b.bottom) / 2];
});
var el = document.createElement('script'); el.type = 'application/json'; el.id = 'wrap';
el.textContent = JSON.stringify(out);
document.body.appendChild(el);
})();</script>"""


def big_deal_game() -> tuple[Board, list[MoveEntry]]:
    """The largest deal number, past what a JavaScript number holds exactly."""
    board = Board("sun-2", deal=2**64 - 1)
    probe = board.copy()
    items: list[MoveEntry] = []
    for _ in range(3):
        move = next(m for m in probe.legal_moves() if m.kind is MoveKind.DEAL)
        probe.push(move)
        items.append((move, str(move), None, ()))
    return board, items


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every Chromium run of this module, two at a time: job name -> dumped DOM."""
    verdict = without_chromium(CHROMIUM, os.environ)
    if verdict == "fail":
        pytest.fail(f"CI=true and {_MISSING.format(CHROMIUM)}")
    if verdict == "skip":
        pytest.skip(_MISSING.format(CHROMIUM))
    folder = tmp_path_factory.mktemp("pages")
    ARTIFACTS.mkdir(exist_ok=True)
    jobs: dict[str, tuple[str, ...]] = {}

    def write(name: str, page: str) -> str:
        path = folder / name
        path.write_text(page, encoding="utf-8")
        return path.as_uri()

    spec = write("spec.html", spec_page()[2])
    for variant in VARIANTS:
        board, moves = game(variant)
        page = game_html(board, entries(moves))
        url = write(f"{variant}.html", page)
        n = sample_ply(variant)
        jobs[f"press-{variant}"] = (f"{url}#press={','.join(['next'] * n)}", "--dump-dom")
        harnessed = page.replace("</body>", HARNESS % len(moves) + "</body>")
        jobs[f"harness-{variant}"] = (write(f"{variant}-harness.html", harnessed), "--dump-dom")
    big = write("big.html", game_html(*big_deal_game()))
    jobs["big"] = (f"{big}#press=last", "--dump-dom")
    for i, (fragment, _ply) in enumerate(NAVIGATION):
        jobs[f"nav-{i}"] = (f"{spec}#{fragment}", "--dump-dom")
    wrap = spec_page()[2].replace("</body>", WRAP + "</body>")
    jobs["wrap"] = (write("wrap.html", wrap), "--dump-dom")
    probe = spec_page()[2].replace("</body>", PROBE + "</body>")
    jobs["probe"] = (write("probe.html", probe), "--virtual-time-budget=3000", "--dump-dom")
    sun3 = folder.joinpath("sun-3.html").as_uri()
    for name, url in (("sun", f"{spec}#at=41"), ("sun-3", f"{sun3}#at={sample_ply('sun-3') + 4}")):
        shot = ARTIFACTS / f"replay-{name}.png"
        shot.unlink(missing_ok=True)
        jobs[f"shot-{name}"] = (url, f"--screenshot={shot}", "--window-size=1400,1000")
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda job: chromium(job[0], *job[1:]), jobs.values())
        return dict(zip(jobs, results, strict=True))


@needs_chromium
@pytest.mark.parametrize("variant", VARIANTS)
def test_pressing_next_n_times_shows_the_engine_position(
    variant: str, browser: dict[str, str]
) -> None:
    """The fragment path: ``#press=next,...`` sends the key presses a player would make."""
    board, moves = game(variant)
    n = sample_ply(variant)
    pos = positions(board, moves)[n]
    assert pos["clouds"], "the sample position should show clouds"
    reader, state = read_page(browser[f"press-{variant}"])
    assert state["ply"] == n and state["move_count"] == n
    assert drawn(reader) == expected_piles(pos)
    assert reader.stock["data-count"] == str(len(pos["stock"]))
    assert reader.current == [f"move-{n}"]


@needs_chromium
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_step_shows_the_engine_position_drawn_like_board_svg(
    variant: str, browser: dict[str, str]
) -> None:
    """Clicking through the whole game: each step shows the cards where ``to_json()`` after
    that many moves has them, and the picture is ``board_svg``'s, byte for byte."""
    board, moves = game(variant)
    every = positions(board, moves)
    texts = canonical_texts(board, moves)
    m = _HARNESS.search(browser[f"harness-{variant}"])
    assert m, "the harness did not run"
    steps = json.loads(m.group(1))
    assert [step["ply"] for step in steps] == list(range(len(every)))
    frames, frame_of = replay_frames(every)
    for n, (step, pos) in enumerate(zip(steps, every, strict=True)):
        assert step["move_count"] == n, f"after {n} moves"
        piles: dict[str, dict[int, str]] = {}
        for pile, index, card in step["cards"]:
            piles.setdefault(pile, {})[index] = card
        shown = {name: [c[i] for i in sorted(c)] for name, c in piles.items()}
        assert shown == expected_piles(pos), f"after {n} moves"
        frame = frames[frame_of[n]]
        want = board_svg(pos, last_move=texts[n - 1] if n else None, frame=frame)
        assert step["svg"] == want, f"after {n} moves"


@needs_chromium
def test_buttons_keys_and_the_move_list_navigate(browser: dict[str, str]) -> None:
    board = Board("sun", deal=20261129)
    moves = [Move.parse(text) for text in spec_moves()]
    every = positions(board, moves)
    texts = canonical_texts(board, moves)
    frames, frame_of = replay_frames(every)
    for i, (fragment, ply) in enumerate(NAVIGATION):
        reader, state = read_page(browser[f"nav-{i}"])
        assert state["ply"] == ply, fragment
        last = texts[ply - 1] if ply else None
        assert state["svg"] == board_svg(every[ply], last_move=last, frame=frames[frame_of[ply]])
        assert drawn(reader) == expected_piles(every[ply]), fragment
        assert reader.current == [f"move-{ply}"], fragment
        for name in ("first", "prev", "next", "last", "zoom"):
            assert f"btn-{name}" in reader.buttons
    start, fourth, annotated = (read_page(browser[f"nav-{i}"])[0] for i in range(3))
    assert start.comment == ""
    assert fourth.comment == "the first arc"
    assert annotated.comment == "r1:5S>A!: a good move"
    assert '<div id="board" data-ply="39" aria-label="board" class="zoom">' in browser["nav-2"]


@needs_chromium
def test_a_move_number_stays_on_the_line_of_its_move(browser: dict[str, str]) -> None:
    """In a narrow move list the lines wrap, but never between ``12.`` and its move."""
    m = _WRAP.search(browser["wrap"])
    assert m, "the wrap probe did not run"
    laid = json.loads(m.group(1))
    assert [text for text, _num, _move in laid] == [f"{n}." for n in range(1, 42)]
    parted = [text for text, num, move in laid if abs(num - move) > 3]
    assert parted == []
    # The list did wrap: more rows than the 13 lines the log's stage moves start.
    assert len({round(num) for _text, num, _move in laid}) > 20


@needs_chromium
def test_deal_numbers_beyond_javascript_precision_are_kept_exact(browser: dict[str, str]) -> None:
    board, items = big_deal_game()
    every = positions(board, [Move.parse(str(item[0])) for item in items])
    _reader, state = read_page(browser["big"])
    assert state["ply"] == len(items)
    assert every[-1]["deal"] == 2**64 - 1
    frames, frame_of = replay_frames(every)
    want = board_svg(every[-1], last_move="deal", frame=frames[frame_of[-1]])
    assert state["svg"] == want
    assert "deal 18446744073709551615" in state["svg"]


@needs_chromium
def test_the_page_cannot_reach_the_network(browser: dict[str, str]) -> None:
    """With the page's own policy, fetches, images and style sheets from outside are refused."""
    m = re.search(r'<pre id="probe">(.*?)</pre>', browser["probe"])
    assert m, "no violation was reported: is the policy in force?"
    assert m.group(1).split() == ["connect-src", "img-src", "style-src-elem"]


@needs_chromium
@pytest.mark.parametrize("name", ["sun", "sun-3"])
def test_screenshot_of_the_replay(name: str, browser: dict[str, str]) -> None:
    """Screenshots kept in tests/artifacts/: the SPEC 5.4 game, and sun-3 during sunset."""
    assert f"shot-{name}" in browser
    data = (ARTIFACTS / f"replay-{name}.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1400, 1000)
    assert len(data) > 30_000, "the screenshot looks blank"


def test_browser_tests_are_required_under_ci(tmp_path: Path) -> None:
    """Without Chromium the browser tests skip on a developer's machine, and fail under CI."""
    missing = tmp_path / "chromium"
    assert without_chromium(missing, {}) == "skip"
    assert without_chromium(missing, {"CI": "false"}) == "skip"
    assert without_chromium(missing, {"CI": "true"}) == "fail"
    missing.write_text("")
    assert without_chromium(missing, {"CI": "true"}) is None
    run = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    installing = run[run.index("bash .ci/install-chromium") :]
    assert installing.split("fi", 1)[0].rstrip().endswith("exit 1")


def test_chromium_installer_is_idempotent_bash() -> None:
    script = Path(__file__).resolve().parent.parent / ".ci" / "install-chromium"
    text = script.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash")
    assert "apt-get install" in text and "/usr/bin/chromium" in text
    # A fresh machine's package lists must be fetched before chromium can be found.
    assert text.index("apt-get update -qq") < text.index("apt-get install -y")
    assert "exit 0" not in text.split("SUDO=", 1)[1], "a failed install must not pass"
    bash = shutil.which("bash")
    assert bash is not None
    subprocess.run([bash, "-n", str(script)], check=True)
