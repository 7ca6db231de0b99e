"""Injection: a log's tag values and comments carrying ``</script>``, ``<img onerror>``,
``"><svg onload>``, ``javascript:`` URLs, ANSI escape sequences and rich markup are shown
as text, never run or obeyed: in the HTML page (checked in headless Chromium, where a
payload that ran would set ``document.title``), in the SVG picture, and on the terminal
(``show``, ``replay``, ``check`` reports: no escape sequence from the log reaches it, no
markup from it is read).
"""

from __future__ import annotations

import html
import io
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import ptykit
import pytest
from rich.console import Console
from typer.testing import CliRunner

from sunlog import cli
from sunlog.views.stepper import Entry, Stepper, screen_renderable
from sunlog.views.terminal import visible

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from test_html import CHROMIUM, chromium  # noqa: E402

#: Each payload sets the page's title to PWNED if it ever runs.
HTML_PAYLOADS = [
    "</script><script>document.title='PWNED'</script>",
    "<img src=x onerror=\"document.title='PWNED'\">",
    '"><svg onload="document.title=\'PWNED\'">',
    "'><svg/onload=document.title='PWNED'>",
    "<a href=\"javascript:document.title='PWNED'\">click</a>",
    "javascript:document.title='PWNED'",
    "<!--<script>document.title='PWNED'</script>-->",
    "</title><script>document.title='PWNED'</script>",
    "\u2028</script\u2029><script>document.title='PWNED'</script>",
]

#: Escape sequences (clear the screen, set the window title, a hyperlink, a colour, a
#: bell) and rich markup (a style, a link).
TERMINAL_PAYLOADS = [
    "\x1b[2J\x1b[31mred",
    "\x1b]0;PWNED\x07",
    "\x1b]8;;https://evil.example\x07link\x1b]8;;\x07",
    "\x9b31m",
    "[bold red]BOLD[/bold red]",
    "[link=https://evil.example]here[/link]",
    "\rover\x08\x07",
    "\u202etxt.exe",
]


def tag_safe(text: str) -> str:
    """A payload as a tag value (backslash and quote escaped; no line break)."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")


def comments(payloads: list[str]) -> str:
    return " ".join("{ " + p.replace("}", ")") + " }" for p in payloads)


def hostile_log(tmp: Path, payloads: list[str], name: str = "hostile.sun") -> Path:
    """A valid game with every payload in a tag of its own and in each kind of comment
    (the game's start, after a move, at the end of a line)."""
    tags = "".join(f'[P{i} "{tag_safe(p)}"]\n' for i, p in enumerate(payloads))
    line_comment = " ".join(p.replace("\n", " ").replace("\r", " ") for p in payloads)
    text = (
        f'[Event "{tag_safe(payloads[0])}"]\n{tags}[Deal "1"]\n{comments(payloads)}\n'
        f"deal {comments(payloads)} r5:KC>K {comments(payloads)} r13:KH>K ; {line_comment}\n*\n"
    )
    log = tmp / name
    log.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli.app, ["check", str(log)])
    assert result.exit_code == 0, result.stdout + result.stderr
    return log


def page_of(log: Path, game: int) -> str:
    result = CliRunner().invoke(cli.app, ["html", str(log), "--game", str(game)])
    assert result.exit_code == 0, result.stderr
    return result.stdout


# ------------------------------------------------------------------ HTML


def test_the_html_page_escapes_every_payload(tmp_path: Path) -> None:
    page = page_of(hostile_log(tmp_path, HTML_PAYLOADS), 1)
    assert page.count("<script") == 3  # the page's own: its data, its state, its code
    assert page.count("</script>") == 3
    assert "<img" not in page and "<svg onload" not in page and "<a href" not in page
    assert "<svg/onload" not in page and "<!--<script" not in page
    assert page.count("PWNED") >= 3 * len(HTML_PAYLOADS)  # there, as text


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")
def test_no_payload_runs_in_chromium_and_each_is_shown_as_text(tmp_path: Path) -> None:
    """The page opened at each step, so that every comment is shown by the page's code
    once: the title stays the page's own, no element comes from a payload, and the
    payloads read as text."""
    from concurrent.futures import ThreadPoolExecutor

    page = tmp_path / "hostile.html"
    source = page_of(hostile_log(tmp_path, HTML_PAYLOADS), 1)
    page.write_text(source, encoding="utf-8")
    own = re.search(r"<title>(.*?)</title>", source, re.S)
    assert own is not None
    jobs = [f"{page.as_uri()}#at={at}" for at in (0, 1, 2, 3)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        doms = list(pool.map(lambda url: chromium(url, "--dump-dom"), jobs))
    for url, dom in zip(jobs, doms, strict=True):
        title = re.search(r"<title>(.*?)</title>", dom, re.S)
        assert title is not None, url
        assert html.unescape(title.group(1)) == html.unescape(own.group(1)), url  # as served
        text = dom.replace("&#39;", "'")
        assert text.count("document.title='PWNED'") >= len(HTML_PAYLOADS), url
        assert "<img" not in dom and "<svg onload" not in dom and "<a href" not in dom, url
        assert "<svg/onload" not in dom, url


# ------------------------------------------------------------------ SVG


def test_the_svg_picture_holds_no_text_from_the_log(tmp_path: Path) -> None:
    """The picture is drawn from the position alone: no payload can reach it, and it is
    well-formed XML."""
    log = hostile_log(tmp_path, HTML_PAYLOADS + TERMINAL_PAYLOADS)
    for at in ("0", "1", "3"):
        result = CliRunner().invoke(cli.app, ["render", str(log), "-n", at])
        assert result.exit_code == 0, result.stderr
        svg = result.stdout
        ET.fromstring(svg)
        assert "PWNED" not in svg and "evil" not in svg and "script" not in svg.lower()
        assert "\x1b" not in svg


# ------------------------------------------------------------------ terminal


def colour_console() -> Console:
    """A console that draws as on a colour terminal, into memory."""
    return Console(
        file=io.StringIO(), force_terminal=True, color_system="truecolor", width=200, height=80
    )


def no_escape_from_the_log(text: str) -> None:
    """No ESC, CSI, BEL, CR or bidi override from the log; rich markup left as written."""
    for bad in ("\x1b", "\x9b", "\x07", "\r", "\x08", "\u202e"):
        assert bad not in text, repr(bad)


def test_replay_without_a_terminal_shows_escapes_as_visible_characters(tmp_path: Path) -> None:
    log = hostile_log(tmp_path, TERMINAL_PAYLOADS)
    result = CliRunner().invoke(cli.app, ["replay", str(log)])
    assert result.exit_code == 0
    no_escape_from_the_log(result.stdout)
    assert "[bold red]BOLD[/bold red]" in result.stdout  # markup read as text
    assert "\u241b]0;PWNED\u2407" in result.stdout  # ␛]0;PWNED␇, visible


def test_the_interactive_screen_neither_passes_escapes_nor_reads_markup() -> None:
    """The screen drawn on a colour terminal (rich): comments, the error line and the
    title carry the log's text as text."""
    from sunlog.engine.board import Board
    from sunlog.engine.moves import Move

    payload = " ".join(TERMINAL_PAYLOADS)
    board = Board("sun", deal=1)
    moves = [Move.parse("deal"), Move.parse("r5:KC>K")]
    # One comment a payload: a long comment line is cut to the frame's width.
    comments = tuple(TERMINAL_PAYLOADS)
    entries = [Entry(moves[0], "deal", None, comments), Entry(moves[1], "r5:KC>K", None, ())]
    stepper = Stepper(board, entries, start_comments=(payload,), tags=[("Event", payload)])
    stepper.error = "move 3: " + payload
    for where in (0, 1, 2):
        stepper.jump(where)
        console = colour_console()
        with console.capture() as capture:
            console.print(screen_renderable(stepper, color=True))
        drawn = capture.get()
        # rich's own colours are CSI sequences: take them out, then nothing may be left
        own = re.sub(r"\x1b\[[0-9;]*m", "", drawn)
        no_escape_from_the_log(own)
        if where == 1:
            assert "[bold red]BOLD[/bold red]" in own
            assert "[link=https://evil.example]here[/link]" in own
            assert "\x1b]8;" not in drawn  # no hyperlink made from [link=...]


def test_replay_on_a_real_terminal_passes_no_escape_from_the_log(tmp_path: Path) -> None:
    """``sunlog replay`` in a pseudo-terminal (pexpect): step, quit, read all it drew."""
    pexpect = pytest.importorskip("pexpect")
    log = hostile_log(tmp_path, [" ".join(TERMINAL_PAYLOADS)])
    drawn = io.BytesIO()
    child = ptykit.spawn(
        sys.executable,
        ["-m", "sunlog", "replay", str(log)],
        env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "60"},
        dimensions=(60, 120),
        timeout=60,
    )
    child.logfile_read = drawn
    child.expect("quit")
    child.send("n")
    child.expect("move 1 of")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = drawn.getvalue().decode("utf-8", errors="replace")
    assert "\x1b]0;PWNED" not in text and "\x1b]8;;https://evil" not in text
    assert "\u241b]0;PWNED\u2407" in text  # the comment shown, its escapes visible
    assert "[bold red]BOLD[/bold red]" in text


def test_show_on_a_terminal_reads_no_markup_in_the_title(tmp_path: Path) -> None:
    """The title (the path, given by whoever named the file) is text, not markup."""
    from sunlog.engine.board import Board
    from sunlog.views.terminal import print_board

    console = colour_console()
    with console.capture() as capture:
        print_board(console, Board("sun", deal=1), title="[link=https://evil]x[/link]\x1b]0;T\x07")
    drawn = capture.get()
    assert "[link=https://evil]x[/link]" in drawn and "\x1b]" not in drawn


def test_check_reports_show_escapes_as_visible_characters(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sun"
    bad.write_text('[Event "\x1b]0;PWNED\x07"]\n[Deal "1"]\ndeal r1:9C>A { \x1b[2J } *\n')
    result = CliRunner().invoke(cli.app, ["check", str(bad)])
    assert result.exit_code == 1
    no_escape_from_the_log(result.stdout + result.stderr)


def test_visible_keeps_text_and_tabs_and_shows_controls() -> None:
    assert visible("r5:KC>K\tok é ♠") == "r5:KC>K\tok é ♠"
    assert visible("\x1b[2J\x07\r\x85\u202e") == "\u241b[2J\u2407\u240d\ufffd\ufffd"
