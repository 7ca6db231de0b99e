"""``sunlog record FILE`` off a terminal (lines from stdin, through CliRunner) and on a real
pseudo-terminal (pexpect): moves checked and written at once, refusals, undo, going on
with a file, and a process killed with SIGKILL losing nothing that was accepted."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.cli.record import LogFile
from sunlog.notation import parse_games
from sunlog.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
WON = ROOT / "samples" / "won-sun.sun"
DEAL = "20261129"


def run(*args: str | Path, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def moves_of(path: Path) -> list[str]:
    """The moves a log replays to, as written; fails unless check would accept it."""
    (game,) = parse_games(path.read_text())
    result = replay(game)
    assert result.error is None, result.error
    return [gm.text for gm in game.moves]


def test_record_writes_each_accepted_move_and_a_star_on_the_end_of_input(
    tmp_path: Path,
) -> None:
    log = tmp_path / "game.sun"
    result = run("record", log, "--deal", DEAL, input="deal\nr1:AC>A r8:AS>A\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "move 1: deal",
        "move 2: r1:AC>A",
        "move 3: r8:AS>A",
        f"{log}: 3 moves, ends with * (record it again to go on)",
    ]
    assert log.read_text() == f'[Variant "sun"]\n[Deal "{DEAL}"]\n\ndeal\nr1:AC>A r8:AS>A\n*\n'
    assert run("check", log).exit_code == 0


def test_a_refused_line_writes_nothing_and_says_what_check_says(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    result = run("record", log, "--deal", DEAL, input="deal\nr1:AX>A\nr8:2S>A\nquit\n")
    assert result.exit_code == 1  # off a terminal, a refused line is an error for scripts
    assert moves_of(log) == ["deal"]
    lines = result.stderr.splitlines()
    assert lines[0].startswith("refused: move 2 'r1:AX>A': ")
    assert lines[1:3] == ["  r1:AX>A", "  ^~~~~~~"]
    # check gives the same words for the same moves in a file
    for typed in ("r1:AX>A", "r8:2S>A"):
        bad = tmp_path / "bad.sun"
        bad.write_text(log.read_text().replace("*\n", f"{typed}\n"))
        heading = run("check", bad).stdout.splitlines()[0]
        said = heading.split(f"move 2 '{typed}': ", 1)[1]
        assert f"refused: move 2 '{typed}': {said}\n  {typed}\n  ^~~~~~~\n" in result.stderr


def test_a_move_typed_without_its_target_is_refused_with_where_it_can_go(
    tmp_path: Path,
) -> None:
    log = tmp_path / "game.sun"
    result = run("record", log, "--deal", DEAL, input="deal\nr1:AC\nr1:AC>A\nquit\n")
    assert moves_of(log) == ["deal", "r1:AC>A"]
    assert "refused: move 2 'r1:AC': a card move needs a target: " in result.stderr
    assert "found 'r1:AC'; here it can be r1:AC>A\n" in result.stderr


def test_undo_moves_and_board_off_a_terminal(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    typed = "deal r1:AC>A\nundo\nmoves\nboard\nhelp\n"
    result = run("record", log, "--deal", DEAL, input=typed)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "took back move 2: r1:AC>A" in out
    assert "\nr1:AC>A\nr8:AS>A\n" in out  # the legal moves, one a line
    assert "stage 1 (sunrise)" in out and "move 1: deal" in out
    assert "undo   take back the last move" in out
    assert moves_of(log) == ["deal"]


def test_undo_with_no_move_says_so(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    result = run("record", log, input="undo\n")
    assert "there is no move to take back" in result.stderr
    assert log.read_text() == '[Variant "sun"]\n\n*\n'


def test_canonical_writes_canonical_moves(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    result = run("record", log, "--deal", DEAL, "--canonical", input="deal ac>a r8>A\n")
    assert result.exit_code == 0
    assert "deal r1:AC>A r8:AS>A\n*\n" in log.read_text()


def test_record_goes_on_with_a_file_from_its_last_move(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    run("record", log, "--deal", DEAL, input="deal\n")
    result = run("record", log, input="r1:AC>A\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "move 2: r1:AC>A"
    assert moves_of(log) == ["deal", "r1:AC>A"]
    assert log.read_text().endswith("deal\nr1:AC>A\n*\n")


def test_a_file_cut_short_is_continued_by_appending(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    log.write_text(f'[Deal "{DEAL}"]\ndeal')  # as a killed record leaves it: no result
    inode = log.stat().st_ino
    assert run("record", log, input="r1:AC>A\n").exit_code == 0
    assert log.stat().st_ino == inode  # appended to, never replaced
    assert log.read_text() == f'[Deal "{DEAL}"]\ndeal\nr1:AC>A\n*\n'


def test_an_invalid_file_is_refused_with_its_error_and_left_alone(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    text = f'[Deal "{DEAL}"]\ndeal r8:2S>A\n*\n'
    log.write_text(text)
    result = run("record", log, input="r1:AC>A\n")
    assert result.exit_code == 1
    assert result.stderr == run("check", log).stdout  # check's report, on stderr here
    assert result.stderr.startswith(f"{log}:2:6: move 2 'r8:2S>A': ")
    assert log.read_text() == text


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--variant", "sun-3"], "the log is a game of sun, not sun-3: drop --variant"),
        (["--deal", "7"], f"the log is deal {DEAL}, not deal 7: drop --deal"),
        (["--variant", "sun-4"], "sun-4"),
    ],
)
def test_options_that_disagree_with_the_file_are_usage_errors(
    args: list[str], why: str, tmp_path: Path
) -> None:
    log = tmp_path / "game.sun"
    log.write_text(f'[Deal "{DEAL}"]\ndeal\n')
    result = run("record", log, *args, input="")
    assert result.exit_code == 2
    assert why in result.stderr
    assert log.read_text() == f'[Deal "{DEAL}"]\ndeal\n'


def test_a_finished_game_is_not_recorded_on(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    log.write_text(WON.read_text())
    result = run("record", log, input="deal\n")
    assert result.exit_code == 2
    assert "the game is over: the log says won" in result.stderr
    assert log.read_text() == WON.read_text()


def test_the_result_is_written_once_the_game_is_won(tmp_path: Path) -> None:
    (game,) = parse_games(WON.read_text())
    log = tmp_path / "game.sun"
    typed = "".join(f"{gm.text}\n" for gm in game.moves) + "r1:AC>A\n"
    result = run("record", log, "--deal", game.tag("Deal") or "", input=typed)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"the game is won: {log} ends with won"
    assert log.read_text().endswith("\nwon\n")
    assert run("check", log).exit_code == 0
    assert len(moves_of(log)) == len(game.moves)


def test_a_physical_game_asks_for_the_thirteen_cards(tmp_path: Path) -> None:
    log = tmp_path / "table.sun"
    result = run("record", log, input="moves\ndeal\n")
    assert "also legal: deal C1 ... C13" in result.stdout
    assert "deal 1: type the 13 cards it names, ray 1 first (undo drops it)" in result.stdout
    assert "deal 1 was not finished, and is not written: deal" in result.stdout
    assert result.exit_code == 0, result.stderr
    assert log.read_text() == '[Variant "sun"]\n\n*\n'


def test_a_deal_of_real_cards_is_typed_over_several_lines(tmp_path: Path) -> None:
    log = tmp_path / "table.sun"
    typed = "deal\n3H 5S 2H 7S 10D KH\n2S 3S 4S 5C 6C 7C\n8C r6:KH>K\n"
    result = run("record", log, input=typed)
    assert result.exit_code == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[:4] == [
        "deal 1: type the 13 cards it names, ray 1 first (undo drops it)",
        "deal 1 names 6 so far, 7 cards to come: type them (undo drops it)",
        "deal 1 names 12 so far, 1 card to come: type it (undo drops it)",
        "move 1: deal 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 8C",
    ]
    assert out[4] == "move 2: r6:KH>K"
    assert moves_of(log) == ["deal 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 8C", "r6:KH>K"]
    assert log.read_text().endswith("\ndeal 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 8C r6:KH>K\n*\n")


def test_an_unfinished_deal_keeps_its_move_number(tmp_path: Path) -> None:
    log = tmp_path / "table.sun"
    typed = "1. DEAL 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C\n7C 8C\n2. r6:KH>K 3. deal AS\n"
    result = run("record", log, input=typed)
    assert result.exit_code == 0, result.stderr
    assert "deal 1 names 11 so far, 2 cards to come" in result.stdout
    assert "deal 2 was not finished, and is not written: 3. deal AS" in result.stdout
    assert "\n1. DEAL 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 8C\n2. r6:KH>K\n*\n" in log.read_text()


def test_undo_drops_an_unfinished_deal_and_a_wrong_rest_refuses_only_its_bad_card(
    tmp_path: Path,
) -> None:
    log = tmp_path / "table.sun"
    result = run("record", log, input="deal 3H 5S\nundo\ndeal 3H\n5S 5S 5S\n")
    assert "took back deal 1: deal 3H 5S" in result.stdout
    assert result.stderr.splitlines() == [
        "refused: move 1 'deal 3H 5S 5S 5S': deal 1 names a third 5S: there are only two "
        "of each card",
        "  deal 3H 5S 5S 5S",
        "                ^",
        "deal 1 keeps the 3 cards before it; nothing from it on: type the rest again",
    ]
    assert "deal 1 names 3 so far, 10 cards to come: type them" in result.stdout
    assert "deal 1 was not finished, and is not written: deal 3H 5S 5S" in result.stdout
    assert result.exit_code == 1
    assert log.read_text() == '[Variant "sun"]\n\n*\n'


def test_an_append_that_would_cross_a_page_boundary_starts_on_the_next_page(
    tmp_path: Path,
) -> None:
    log = tmp_path / "game.sun"
    head = f'[Deal "{DEAL}"]\ndeal\n'
    pad = "{" + "x" * (4090 - len(head) - 3) + "}\n"
    text = head + pad
    assert len(text.encode()) == 4090
    log.write_text(text)
    writer = LogFile(str(log), text)
    writer.sync(text + "r1:AC>A\n")
    data = log.read_bytes()
    assert data[4096:] == b"r1:AC>A\n"  # the move went in one page
    assert data[4090:4096].strip() == b""
    assert moves_of(log) == ["deal", "r1:AC>A"]


# ------------------------------------------------------------ a real terminal


def test_record_on_a_terminal_survives_sigkill(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    log = tmp_path / "game.sun"
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}

    def start(*extra: str) -> Any:
        child = pexpect.spawn(
            sys.executable,
            ["-m", "sunlog", "record", str(log), *extra],
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=60,
            env=env,
        )
        return child

    child = start("--deal", DEAL)
    child.expect_exact("move 1> ")
    child.sendline("deal")
    child.expect_exact("move 2> ")
    child.sendline("r1:AX>A")  # a typo
    child.expect_exact("refused: move 2 'r1:AX>A'")
    child.expect_exact("move 2> ")
    child.sendline("r8:2S>A")  # an illegal move
    child.expect_exact("refused: move 2 'r8:2S>A': ray 8")
    child.expect_exact("move 2> ")
    child.sendline("r1:AC>A r8:AS>A")
    child.expect_exact("move 4> ")
    child.sendline("undo")
    child.expect_exact("took back move 3: r8:AS>A")
    child.expect_exact("move 3> ")
    child.sendline("r9:AS>A")
    child.expect_exact("move 4> ")
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    assert moves_of(log) == ["deal", "r1:AC>A", "r9:AS>A"]
    assert run("check", log).exit_code == 0

    child = start()
    child.expect_exact("3 moves so far")
    child.expect_exact("move 4> ")
    child.sendline("r2:2S>A")
    child.expect_exact("move 5> ")
    child.sendcontrol("d")  # Ctrl-D: quit
    child.expect_exact("ends with *")
    child.expect(pexpect.EOF)
    child.close()
    assert moves_of(log) == ["deal", "r1:AC>A", "r9:AS>A", "r2:2S>A"]
    assert log.read_text().endswith("r2:2S>A\n*\n")


def test_the_prompt_counts_the_cards_a_deal_still_has_to_name(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    log = tmp_path / "table.sun"
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "sunlog", "record", str(log)],
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        env=env,
    )
    child.expect_exact("move 1> ")
    child.sendline("deal 3H 5S 2H 7S 10D KH 2S 3S 4S")
    child.expect_exact("move 1, 4 cards to come> ")
    child.sendline("5C 6C 7C 8C")
    child.expect_exact("move 1: deal 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 8C")
    child.expect_exact("move 2> ")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert moves_of(log) == ["deal 3H 5S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 8C"]


def test_a_file_in_a_missing_directory_is_an_io_error_naming_it(tmp_path: Path) -> None:
    log = tmp_path / "nowhere" / "game.sun"
    result = run("record", log, input="deal\n")
    assert result.exit_code == 2
    assert result.stderr == f"sunlog: {log}: no such file or directory\n"


def test_a_file_with_crlf_line_ends_is_continued(tmp_path: Path) -> None:
    log = tmp_path / "game.sun"
    log.write_bytes(f'[Deal "{DEAL}"]\r\ndeal\r\n*\r\n'.encode())
    assert run("record", log, input="r1:AC>A\n").exit_code == 0
    assert log.read_bytes() == f'[Deal "{DEAL}"]\r\ndeal\r\nr1:AC>A\n*\n'.encode()
    assert moves_of(log) == ["deal", "r1:AC>A"]


def test_help_says_what_playable_and_movable_mean_and_what_the_marks_are(
    tmp_path: Path,
) -> None:
    result = run("record", tmp_path / "game.sun", "--deal", DEAL, input="help\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "  moves  list the movable cards and the legal moves" in out
    assert "A playable card is one the rules let move" in out
    assert "a movable card is a\nplayable card that a legal move takes now." in out
    assert "marks: [3S] playable card, 3S* put down by the last move" in out


def test_a_half_typed_deal_keeps_its_good_cards_and_refuses_only_the_bad_part(
    tmp_path: Path,
) -> None:
    """Issue 32, 5: the player's ten good cards are kept, only ``js>k`` is refused."""
    log = tmp_path / "table.sun"
    typed = "deal qd 3s js 3s 7d\n6d ad jd 5c jc js>k\n8c 9c 10c\n"
    result = run("record", log, input=typed)
    assert result.stderr.splitlines() == [
        "refused: move 1 'deal QD 3S JS 3S 7D 6D AD JD 5C JC': deal 1 names 10 cards, not 13 "
        "(one per ray): it ends at JC, before 'js>k'",
        "  deal qd 3s js 3s 7d 6d ad jd 5c jc js>k",
        "                                     ^",
        "deal 1 keeps the 10 cards before it; nothing from it on: type the rest again",
    ]
    assert result.stdout.splitlines()[:3] == [
        "deal 1 names 5 so far, 8 cards to come: type them (undo drops it)",
        "deal 1 names 10 so far, 3 cards to come: type them (undo drops it)",
        "move 1: deal QD 3S JS 3S 7D 6D AD JD 5C JC 8C 9C 10C",
    ]
    assert moves_of(log) == ["deal QD 3S JS 3S 7D 6D AD JD 5C JC 8C 9C 10C"]
    assert "\ndeal qd 3s js 3s 7d 6d ad jd 5c jc 8c 9c 10c\n*\n" in log.read_text()


def test_fix_corrects_one_card_of_the_deal_being_named_or_the_last_one(tmp_path: Path) -> None:
    log = tmp_path / "table.sun"
    typed = (
        "deal 3H 5S 2H\nfix 2 6S\n7S 10D KH 2S 3S 4S 5C 6C 7C 8C\n"
        "r6:KH>K\nfix 13 9C\nfix 6 2H\nfix 14 2H\nfix three 2H\n"
    )
    result = run("record", log, input=typed)
    out = result.stdout.splitlines()
    assert out[:4] == [
        "deal 1 names 3 so far, 10 cards to come: type them (undo drops it)",
        "deal 1 names 3 so far, 10 cards to come: type them (undo drops it)",
        "move 1: deal 3H 6S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 8C",
        "move 2: r6:KH>K",
    ]
    assert out[4] == "move 1 is now: deal 3H 6S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 9C"
    assert result.stderr.splitlines() == [
        "sunlog: deal 1 cannot name 2H as card 6: ray 6's outer card is 2H, not KH, and no "
        "KH is playable anywhere",
        "sunlog: deal 1 names 13 cards: fix N CARD takes N from 1 to 13",
        "sunlog: write fix N CARD, as in fix 3 4H (N: the card's place, its ray)",
    ]
    assert moves_of(log) == ["deal 3H 6S 2H 7S 10D KH 2S 3S 4S 5C 6C 7C 9C", "r6:KH>K"]
    assert run("check", log).exit_code == 0


def test_record_gives_no_advice_that_cannot_be_typed_in_record(tmp_path: Path) -> None:
    """Issue 32, 6: no result token or tags to write, no result among the words offered;
    check keeps its advice for a whole file, and the errors say which (LogError.advice)."""
    log = tmp_path / "table.sun"
    first = "deal AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    third = "deal 2H AS AS 3H 4H 5H 6H 7H 8H 9H 10H JH QH"
    result = run("record", log, input=f"{first}\n{third}\nundo\nfoo\n")
    assert result.stderr.splitlines()[0] == (
        "refused: move 2 'deal 2H AS AS 3H 4H 5H 6H 7H 8H 9H 10...': deal 2 names a third "
        "AS: there are only two of each card"
    )
    assert (
        "refused: move 2 'foo': expected a move (deal, open N, gather N, wind, or a card "
        "move like r5:QD>K), found 'foo'"
    ) in result.stderr
    assert "result" not in result.stderr and "tags" not in result.stderr
    whole = tmp_path / "whole.sun"
    whole.write_text(f"{first}\n{third}\n")
    checked = run("check", whole)
    assert "; if a new game begins here, end the one before with its result token" in (
        checked.stdout
    )
