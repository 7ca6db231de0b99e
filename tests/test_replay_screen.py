"""The replay screen fits the terminal (issue 14.6): every line of every frame within its
width, and one line fewer than its height (the cursor keeps the last), the top of the
frame (move number, stage) included, at 80x24 and 120x40, in colour and plain."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from sunlog import Board, Move
from sunlog.engine.board import Stage
from sunlog.notation import parse_games
from sunlog.notation.replay import new_board, replay
from sunlog.views.stepper import Entry, Stepper, fit_screen
from sunlog.views.terminal import STAGE_NAMES

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SIZES = [(80, 24), (120, 40)]


def frame(stepper: Stepper, width: int, height: int, *, color: bool) -> list[str]:
    """The lines a terminal of this size shows for the stepper's position."""
    console = Console(
        file=io.StringIO(),
        width=width,
        height=height,
        force_terminal=color,
        color_system="truecolor" if color else None,
    )
    console.print(fit_screen(stepper, console, color=color))
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined, no-any-return]


def assert_fits(stepper: Stepper, width: int, height: int, *, color: bool) -> None:
    lines = frame(stepper, width, height, color=color)
    widths = [Text.from_ansi(line).cell_len for line in lines]
    where = f"move {stepper.index} at {width}x{height}"
    assert len(lines) <= height - 1, f"{where}: {len(lines)} lines"
    assert max(widths) <= width, f"{where}: a line of {max(widths)} columns"
    top = "\n".join(Text.from_ansi(line).plain for line in lines[:3])
    assert f"move {stepper.index} of {stepper.total}" in top, where
    shown = "\n".join(Text.from_ansi(line).plain for line in lines)
    assert STAGE_NAMES[stepper.board.stage] in shown, where


def stage_actions_only(variant: str) -> Stepper:
    """Eight deals, thirteen gathers and the wind with no card played: the fullest rays
    and the most clouds a game can have (10 clouds), then the longest wind row."""
    moves = [Move.deal()] * 8 + [Move.gather(n) for n in range(1, 14)] + [Move.wind()]
    return Stepper(Board(variant, deal=20261129), [Entry(m, str(m)) for m in moves])


def sample_stepper(name: str, index: int = 1) -> Stepper:
    game = parse_games((SAMPLES / name).read_text())[index - 1]
    played = replay(game).moves
    entries = [Entry(gm.move, gm.text, gm.annotation, gm.comments) for gm in game.moves]
    return Stepper(new_board(game), entries[:played])


def telling_positions(stepper: Stepper) -> list[int]:
    """In each stage, its last position and the one with the most clouds; the start."""
    found: dict[Stage, tuple[int, int]] = {}
    last: dict[Stage, int] = {}
    for at in range(stepper.total + 1):
        stepper.jump(at)
        board = stepper.board
        clouds = sum(1 for cloud in board.clouds if cloud)
        if board.stage not in found or clouds > found[board.stage][0]:
            found[board.stage] = (clouds, at)
        last[board.stage] = at
    return sorted({0, *last.values(), *(at for _, at in found.values())})


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("color", [False, True])
def test_every_frame_of_the_fullest_game_fits(width: int, height: int, color: bool) -> None:
    stepper = stage_actions_only("sun")
    assert max(len(stepper.board.clouds) for _ in [stepper.jump(21)]) == 10
    for at in range(stepper.total + 1):
        stepper.jump(at)
        assert_fits(stepper, width, height, color=color)


@pytest.mark.parametrize("variant", ["sun-2", "sun-3"])
def test_the_other_variants_fit_at_80x24(variant: str) -> None:
    stepper = stage_actions_only(variant)
    for at in (8, 21, 22):
        stepper.jump(at)
        assert_fits(stepper, 80, 24, color=False)


@pytest.mark.parametrize(
    "name", ["won-sun.sun", "lost-sun.sun", "physical.sun", "sun-2.sun", "sun-3.sun"]
)
def test_sample_games_fit_in_every_stage(name: str) -> None:
    stepper = sample_stepper(name)
    positions = telling_positions(stepper)
    stages = set()
    for at in positions:
        stepper.jump(at)
        stages.add(stepper.board.stage)
        for width, height in SIZES:
            assert_fits(stepper, width, height, color=False)
    assert Stage.SUNSET in stages and Stage.SUNRISE in stages


def test_a_tall_terminal_keeps_the_full_layout() -> None:
    stepper = sample_stepper("won-sun.sun")
    stepper.jump(5)
    lines = frame(stepper, 120, 60, color=False)
    assert "n/space/right: next" in "\n".join(lines)  # the full help, not the short one
    assert "inner -> outer" in "\n".join(lines)


def test_the_compact_frame_names_the_empty_piles_on_one_line() -> None:
    stepper = stage_actions_only("sun")
    stepper.jump(21)
    shown = "\n".join(frame(stepper, 80, 24, color=False))
    assert "all rays empty" in shown
    assert "c10 " in shown and "n next  p back" in shown
    stepper.jump(22)
    shown = "\n".join(frame(stepper, 80, 24, color=False))
    assert "10 clouds, emptied by the wind" in shown and "wind [" in shown


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.sun")))
def test_every_position_of_every_sample_fits_80x24(name: str) -> None:
    for index in range(1, len(parse_games((SAMPLES / name).read_text())) + 1):
        stepper = sample_stepper(name, index)
        for at in range(stepper.total + 1):
            stepper.jump(at)
            assert_fits(stepper, 80, 24, color=False)


def test_the_replay_loop_uses_the_compact_frame_on_a_small_terminal() -> None:
    from sunlog.views.stepper import run_interactive

    stepper = sample_stepper("won-sun.sun")
    keys = iter(["n", "g", "4", "enter", "q"])
    console = Console(file=io.StringIO(), width=80, height=24)
    assert run_interactive(stepper, console, read_key=lambda: next(keys)) == 4
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "n next  p back  f first  l last  g N go to  m moves  q quit" in out
    assert "go to move (0-157, Enter; Esc cancels): 4_" in out
    assert "move 4 of 157 | sun | deal 1 | stage 1 (sunrise)" in out
