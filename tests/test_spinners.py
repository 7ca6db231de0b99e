"""Long searches show what they do on a terminal, and nothing in a pipe (issue 32, item 1).

``solve`` and ``analyze`` draw a rich spinner on standard error while the solver searches:
what it does, the positions searched so far and the budget. The solver's ``progress``
callback feeds it; off a terminal nothing is drawn.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import ptykit
import pytest

from sunlog.engine.board import Board
from sunlog.notation import parse_games
from sunlog.notation.replay import new_board
from sunlog.play.search import PROGRESS_NODES
from sunlog.play.solver import Verdict, analyze, solve

ROOT = Path(__file__).resolve().parent.parent
LOST = ROOT / "samples" / "lost-sun.sun"
#: A deal whose search runs well past its budget: the spinner has positions to count.
SLOW = ("--deal", "8", "--variant", "sun-2", "--max-nodes", "20000")


def test_solve_tells_progress_every_few_thousand_positions() -> None:
    seen: list[int] = []
    result = solve(Board("sun-2", deal=8), max_nodes=20_000, progress=seen.append)
    assert result.verdict is Verdict.UNKNOWN
    assert seen == list(range(PROGRESS_NODES, 20_000, PROGRESS_NODES))


def test_an_exception_from_progress_ends_the_search() -> None:
    def stop(nodes: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve(Board("sun-2", deal=8), max_nodes=20_000, progress=stop)


def test_analyze_counts_the_positions_of_all_its_searches() -> None:
    game = parse_games(LOST.read_text())[0]
    moves = [gm.move for gm in game.moves]
    seen: list[int] = []
    found = analyze(new_board(game), moves, max_nodes=5000, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == found.nodes
    assert any(n % PROGRESS_NODES for n in seen)  # also after each search
    assert sum(1 for n in seen if n >= PROGRESS_NODES) > 1


def spawn(*args: str) -> str:
    """Run ``sunlog ARGS`` in a pseudo-terminal of 24x80; everything it wrote."""
    pexpect = pytest.importorskip("pexpect")
    child = ptykit.spawn(
        sys.executable,
        ["-m", "sunlog", *args],
        cwd=str(ROOT),
        encoding="utf-8",
        timeout=120,
        dimensions=(24, 80),
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


#: A search long enough for the spinner to redraw its count (about 2.5 s on the compiled
#: build, which searches 20,000 positions before the first redraw).
LONG = ("--deal", "8", "--variant", "sun-2", "--max-nodes", "400000")


def test_solve_shows_a_spinner_on_a_terminal() -> None:
    seen = spawn("solve", *LONG)
    assert "solving deal 8 (sun-2): 0 of at most 400,000 positions" in seen
    assert re.search(r"solving deal 8 \(sun-2\): [1-9][\d,]* of at most 400,000 positions", seen)
    assert "deal 8 (sun-2): unknown" in seen  # the verdict, once the spinner has gone


def test_analyze_shows_a_spinner_on_a_terminal() -> None:
    seen = spawn("analyze", str(LOST), "--max-nodes", "5000")
    assert re.search(r"analyzing 128 moves: [\d,]+ positions \(at most 5,000 a search\)", seen)


@pytest.mark.parametrize(
    "args",
    [("solve", *SLOW), ("analyze", str(LOST), "--max-nodes", "5000")],
    ids=["solve", "analyze"],
)
def test_nothing_is_drawn_in_a_pipe(args: tuple[str, ...]) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "sunlog", *args],
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert "of at most" not in ran.stderr and "a search)" not in ran.stderr
    assert "\x1b" not in ran.stderr and "\x1b" not in ran.stdout
