"""What a player sees at the table (issue 32), on a real 80x24 terminal (pexpect): the
replay's jump prompt, and text wrapped only between moves and words."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
PLAIN = {"TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}


def spawn(*args: str, env: dict[str, str] | None = None) -> Any:
    """``python -m sunlog ARGS`` on a pseudo-terminal of 80 columns and 24 lines."""
    pytest.importorskip("pexpect")
    import ptykit  # started without forking the test process (see tests/ptykit.py)

    return ptykit.spawn(
        sys.executable,
        ["-m", "sunlog", *args],
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        env={**os.environ, **(env or PLAIN)},
    )


def talk(child: Any, *steps: tuple[str, str]) -> str:
    """Send each text and wait for what it brings; what came before the last one."""
    for sent, awaited in steps:
        child.send(sent)
        child.expect_exact(awaited)
    return str(child.before or "").replace("\r\n", "\n")


def leave(child: Any, key: str = "quit\n") -> int:
    """Quit and wait for the end: the exit status."""
    pexpect = pytest.importorskip("pexpect")
    child.send(key)
    child.expect(pexpect.EOF)
    child.close()
    return int(child.exitstatus)


def test_esc_after_a_refused_jump_in_replay_does_not_quit() -> None:
    child = spawn("replay", str(SAMPLES / "won-sun.sun"))
    child.expect_exact("q quit")
    # Esc closes the refused jump's prompt, and the replay goes on
    talk(child, ("g999\r", "no move 999: the game has"), ("\x1b", "q quit"), ("n", "move 1 of"))
    assert leave(child, "q") == 0


def test_record_lists_the_movable_cards_and_help_shows_the_marks(tmp_path: Path) -> None:
    """On a terminal, ``moves`` names its first list movable (playable keeps the rules'
    meaning), and ``help`` shows the board's marks in the board's own mode."""
    child = spawn("record", str(tmp_path / "game.sun"), "--deal", "20261129")
    child.expect_exact("move 1> ")
    shown = talk(child, ("deal\n", "movable: AS AC KH"), ("help\n", "marks: [3S] playable card"))
    child.expect_exact("move 2> ")
    assert leave(child) == 0
    assert "playable:" not in shown


def test_show_in_colour_explains_its_marks_within_80_columns() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn(
        "show", str(SAMPLES / "won-sun.sun"), "--at", "30", env={"TERM": "xterm-256color"}
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    from rich.text import Text

    lines = [Text.from_ansi(line).plain for line in (child.before or "").splitlines()]
    assert max(len(line) for line in lines) <= 80
    (marks,) = [line for line in lines if "marks:" in line]
    assert "playable, 3♠ put down by the last move, r4 the pile it left" in marks


def _before_first_open(tmp_path: Path) -> tuple[Path, list[str]]:
    """won-sun.sun up to its first open (move 39): 14 legal moves, 103 columns of them."""
    from sunlog.notation import parse_games, write_game
    from sunlog.notation.game import Game
    from sunlog.notation.replay import replay

    (game,) = parse_games((SAMPLES / "won-sun.sun").read_text())
    moves = [gm.move for gm in game.moves[:38]]
    log = tmp_path / "game.sun"
    log.write_text(write_game(Game.of_moves(moves, game.tags, "*")))
    board = replay(game, upto=38).board
    return log, [str(m) for m in board.legal_moves()]


def _block(lines: list[str], head: str) -> list[str]:
    """The line that begins with ``head`` and the indented lines that carry it on."""
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    end = start + 1
    while end < len(lines) and lines[end].startswith("  ") and not lines[end].startswith("   "):
        end += 1
    return lines[start:end]


def test_record_wraps_the_legal_moves_between_moves_at_80_columns(tmp_path: Path) -> None:
    """Issue 32, 2: ``open 10 open 11 open 1`` / ``2 open 13`` no more."""
    log, legal = _before_first_open(tmp_path)
    assert len("legal: " + " ".join(legal)) > 80
    child = spawn("record", str(log))
    lines = talk(child, ("", "move 39> ")).split("\n")
    leave(child)
    block = _block(lines, "legal: ")
    assert len(block) > 1 and all(len(line) <= 80 for line in block)
    assert " ".join(line.strip() for line in block).removeprefix("legal: ") == " ".join(legal)
    for line in block:  # each line holds whole moves
        words = line.removeprefix("legal: ").split()
        assert words[0] in ("open", "gather") and words[-1].isdigit(), line


def test_record_wraps_a_refusal_between_words_and_keeps_its_caret_line(tmp_path: Path) -> None:
    child = spawn("record", str(tmp_path / "game.sun"), "--deal", "5")
    talk(child, ("", "move 1> "), ("deal\n", "move 2> "))
    shown = talk(child, ("r1:ac>a\n", "move 2> ")).split("\n")
    leave(child)
    start = next(i for i, line in enumerate(shown) if line.startswith("refused: "))
    heading = shown[start : start + 2]
    assert all(len(line) <= 80 for line in heading)
    assert heading[1].startswith("  ") and heading[1].strip().endswith("write r7:AC>A")
    assert " ".join(line.strip() for line in heading) == (
        "refused: move 2 'r1:ac>a': ray 1's outer card is JD, not AC; AC is on ray 7: write r7:AC>A"
    )
    assert shown[start + 2 : start + 4] == ["  r1:ac>a", "  ^~~~~~~"]


def test_wrap_words_never_breaks_a_move_at_any_width() -> None:
    """In process, every width from 20 to 100: the words come back whole and in order."""
    from sunlog.views.terminal import wrap_words

    moves = ["open 10", "open 11", "open 12", "open 13", "gather 1", "r2:3S>A", "c10.L:KH>K"]
    text = "a winning line from there (123 moves): " + " ".join(moves * 12)
    for width in range(20, 101):
        lines = wrap_words(text, width, indent="  ")
        assert all(len(line) <= width for line in lines), width
        assert " ".join(line.strip() for line in lines) == text
        for line in lines:
            words = line.split()
            assert not words[0].isdigit() and words[-1] not in ("open", "gather"), (width, line)


def test_analyze_wraps_its_winning_line_between_moves(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn("analyze", str(SAMPLES / "lost-sun.sun"), "--max-nodes", "20000")
    child.expect(pexpect.EOF, timeout=300)
    child.close()
    lines = [line for line in (child.before or "").replace("\r\n", "\n").split("\n") if line]
    assert all(len(line) <= 80 for line in lines)
    at = [i for i, line in enumerate(lines) if line.startswith("a winning line from there")]
    if not at:
        pytest.skip("no winning line within this budget")
    from sunlog import Move

    for line in lines[at[0] + 1 :]:  # every word a whole move, or a stage action's part
        for word in line.split():
            if not word.isdigit() and word not in ("deal", "open", "gather", "wind"):
                Move.parse(word)


def test_record_in_tmux_shows_whole_moves_on_every_screen_line(tmp_path: Path) -> None:
    """What an 80x24 tmux pane shows (tmux capture-pane): the legal moves' screen lines
    each begin and end with a whole move."""
    import shutil
    import subprocess
    import time

    if shutil.which("tmux") is None:
        pytest.skip("no tmux")
    log, legal = _before_first_open(tmp_path)
    name = f"sunlog-table-{os.getpid()}"
    command = f"{sys.executable} -m sunlog record {log}"
    env = {**os.environ, **PLAIN, "TMUX": ""}
    tmux = ["tmux", "-L", name]
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", name, "-x", "80", "-y", "24", command],
        check=True,
        env=env,
    )
    try:
        screen = ""
        for _ in range(300):
            time.sleep(0.1)
            screen = subprocess.run(
                [*tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True
            ).stdout
            if "move 39> " in screen:
                break
        subprocess.run([*tmux, "send-keys", "-t", name, "quit", "Enter"], check=False)
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)
    lines = screen.splitlines()
    block = _block(lines, "legal: ")
    assert len(block) > 1
    assert " ".join(line.strip() for line in block).removeprefix("legal: ") == " ".join(legal)
    for line in block:
        words = line.removeprefix("legal: ").split()
        assert words[0] in ("open", "gather") and words[-1].isdigit(), line
