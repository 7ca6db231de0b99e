"""The board as text: every pile where it belongs, in plain ASCII and in colour."""

from __future__ import annotations

import io
import random
import re

import pytest
from enginekit import SPEC_DEAL, SPEC_MOVES
from rich.console import Console

from sunlog import Board, Card, Move, MoveKind, Place, Stage, Status, Target
from sunlog.engine.cards import DECK_ORDER
from sunlog.views.terminal import (
    CLOUD,
    FOUNDATION,
    RAY,
    WIND,
    board_renderable,
    board_text,
    last_move_touched,
    print_board,
    use_color,
)

DEAL = SPEC_DEAL


RAY_LINE = re.compile(r"^  r(\d+)\s+(open\s+)?(.*)$")
CLOUD_LINE = re.compile(r"^  c(\d+)\s+(.*)$")
ANSI = re.compile(r"\x1b\[")


def spec_board(count: int = len(SPEC_MOVES)) -> Board:
    """Deal 20261129 after the first ``count`` moves of SPEC 5.4."""
    board = Board("sun", deal=DEAL)
    for text in SPEC_MOVES[:count]:
        board.push(Move.parse(text))
    return board


def play_random(variant: str, seed: int, *, deal: int = DEAL, limit: int = 2000) -> Board:
    """A seeded random game played up to the end of the wind's possibilities (or ``limit``)."""
    rng = random.Random(seed)
    board = Board(variant, deal=deal)
    for _ in range(limit):
        moves = board.legal_moves()
        cards = [
            m
            for m in moves
            if m.kind is MoveKind.CARD
            and m.source not in (Place.ACES, Place.KINGS)
            and m.target is not Target.RAY
        ]
        stage = [m for m in moves if m.kind not in (MoveKind.CARD, MoveKind.OPEN)]
        if cards and (not stage or rng.random() < 0.8):
            board.push(rng.choice(cards))
        elif stage:
            board.push(stage[0])
        else:
            break
    return board


def ray_lines(text: str) -> dict[int, tuple[bool, list[str]]]:
    """Ray number -> (marked open, its card words) from a plain board."""
    found = {}
    for line in text.splitlines():
        m = RAY_LINE.match(line)
        if m:
            found[int(m.group(1))] = (m.group(2) is not None, m.group(3).split())
    return found


def wind_words(text: str) -> list[str]:
    """The words of the wind row, which comes last on the board."""
    return text[text.index("\nwind ") + len("\nwind") :].split()


def expected_words(
    cards: list[Card], *, ends: bool, touched: set[int] = frozenset(), every: bool = False
) -> list[str]:
    """How plain mode writes a pile: playable cards bracketed (the outer one, both ends of a
    row, every card of the open ray), touched cards starred."""
    if not cards:
        return ["-"]
    words = []
    for pos, card in enumerate(cards):
        playable = every or pos == len(cards) - 1 or (ends and pos == 0)
        word = f"[{card}]" if playable else str(card)
        words.append(word + ("*" if pos in touched else ""))
    return words


def colour_output(board: Board, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, force_terminal=True, color_system="standard")
    console.print(board_renderable(board, color=True))
    return console.file.getvalue()


# --------------------------------------------------------------- plain text


def test_spec_position_rays_show_inner_to_outer_with_open_ray_marked() -> None:
    text = board_text(spec_board())
    rays = ray_lines(text)
    assert sorted(rays) == list(range(1, 14))
    # Worked out from SPEC 4's deal and SPEC 5.4's moves.
    assert rays[1] == (False, ["5S", "2H", "AH", "7D", "[3C]"])
    assert rays[2] == (True, ["[JD]", "[10D]", "[7H]", "[3S]"])
    assert rays[13] == (False, ["3D", "9D", "6S", "9D", "2C", "10C", "[KD]"])
    assert [n for n, (is_open, _) in rays.items() if is_open] == [2]


def test_every_ray_line_matches_the_board_after_each_spec_move() -> None:
    board = Board("sun", deal=DEAL)
    for text in SPEC_MOVES:
        board.push(Move.parse(text))
        rays = ray_lines(board_text(board))
        touched = last_move_touched(board)
        for n in range(1, 14):
            mine = {pos for area, i, pos in touched.cards if area == RAY and i == n - 1}
            is_open = board.open_ray == n
            words = expected_words(board.rays[n - 1], ends=False, touched=mine, every=is_open)
            assert rays[n] == (board.open_ray == n, words), (text, n)


def test_spec_position_header_and_foundations() -> None:
    text = board_text(spec_board())
    lines = text.splitlines()
    assert lines[0] == "sun | deal 20261129 | stage 2 (the sun plays) | playing"
    assert lines[1] == "stock 0 (8 of 8 deals made) | open ray 2 | foundations 31 of 104"
    assert lines[2] == "move 41: r2:7C>K"
    aces = next(line for line in lines if line.startswith("  aces")).split()
    kings = next(line for line in lines if line.startswith("  kings")).split()
    assert aces == ["aces", "AS..5S", "AH..2H", "AD..2D", "AC..4C"]
    # The last move put 7C on the clubs kings pile: its top is starred.
    assert kings == ["kings", "KS..9S", "KH..QH", "KD..10D", "KC..7C*"]
    assert "clouds" not in text and "wind" not in text


def test_last_move_text_is_shown_as_given() -> None:
    board = spec_board(3)  # deal r1:AC>A r8:AS>A: AS went onto the spades aces pile
    text = board_text(board, last_move="r8:AS>A!")
    assert "move 3: r8:AS>A!" in text.splitlines()
    aces = next(line for line in text.splitlines() if line.startswith("  aces")).split()
    assert aces[1] == "AS*"


def test_a_deal_stars_the_thirteen_cards_it_laid() -> None:
    board = spec_board(1)
    text = board_text(board)
    rays = ray_lines(text)
    first = [
        "AC",
        "2S",
        "9S",
        "9C",
        "6H",
        "8S",
        "7D",
        "AS",
        "AS",
        "4C",
        "KH",
        "6D",
        "3D",
    ]  # SPEC 4's table
    assert [rays[n][1] for n in range(1, 14)] == [[f"[{c}]*"] for c in first]
    assert "stock 91 (1 of 8 deals made)" in text


def test_open_marks_the_ray_and_stars_nothing() -> None:
    board = spec_board(SPEC_MOVES.index("open 1") + 1)
    text = board_text(board)
    assert ray_lines(text)[1][0] is True
    assert "*" not in text
    assert "move 38: open 1" in text


def test_plain_text_is_ascii_without_escape_codes_and_fits_80_columns() -> None:
    boards = [spec_board(), play_random("sun", 1), play_random("sun-3", 2), Board("sun")]
    for board in boards:
        text = board_text(board, width=80)
        assert text.isascii()
        assert not ANSI.search(text)
        assert max(len(line) for line in text.splitlines()) <= 80
        assert all(line == line.rstrip() for line in text.splitlines())


def test_a_long_row_wraps_but_keeps_every_card_in_order() -> None:
    board = play_random("sun", 1)
    assert board.wind_row is not None and len(board.wind_row) > 40
    text = board_text(board, width=60)
    row = wind_words(text)
    touched = {pos for area, _, pos in last_move_touched(board).cards if area == WIND}
    assert row == expected_words(board.wind_row, ends=True, touched=touched)


def test_board_is_unchanged_by_rendering() -> None:
    board = spec_board()
    key, moves = board.key(), list(board.move_stack)
    board_text(board)
    colour_output(board)
    assert board.key() == key and board.move_stack == moves
    board.pop()  # the undo history still works
    assert board.key() == spec_board(len(SPEC_MOVES) - 1).key()


def test_unknown_deck_shows_unknown_stock() -> None:
    board = Board("sun-2")
    text = board_text(board)
    assert text.splitlines()[0] == "sun-2 | deck unknown | stage 1 (sunrise) | playing"
    assert "stock unknown (0 of 8 deals made)" in text
    assert ray_lines(text) == {n: (False, ["-"]) for n in range(1, 14)}
    assert text.splitlines()[2] == "move 0"


def test_title_is_the_first_line_in_plain_mode() -> None:
    text = board_text(spec_board(3), title="Kitchen table")
    assert text.splitlines()[0] == "Kitchen table"


# ------------------------------------------------------------------ sun-3


def sun3_parked() -> Board:
    board = Board("sun-3", deal=DEAL)
    for text in ("deal", "r1:AC>A", "r8:AS>A", "r3:9S>r1"):
        board.push(Move.parse(text))
    return board


def test_sun3_shows_two_aces_rows_and_the_parked_card() -> None:
    text = board_text(sun3_parked())
    lines = text.splitlines()
    assert "foundations    S    H   D   C" in lines
    first = next(line for line in lines if line.startswith("  aces 1")).split()
    second = next(line for line in lines if line.startswith("  aces 2")).split()
    assert first == ["aces", "1", "AS", "-", "-", "AC"]
    assert second == ["aces", "2", "-", "-", "-", "-"]
    assert not any(line.startswith("  kings") for line in lines)
    rays = ray_lines(text)
    assert rays[1] == (False, ["[9S]*"])  # parked on the emptied ray 1
    assert rays[3] == (False, ["-"])  # it came from ray 3
    assert rays[8] == (False, ["-"])


def test_sun3_second_aces_pile_is_shown_in_its_row() -> None:
    board = Board("sun-3", deal=DEAL)
    for text in ("deal", "r8:AS>A", "r9:AS>A2"):
        board.push(Move.parse(text))
    lines = board_text(board).splitlines()
    first = next(line for line in lines if line.startswith("  aces 1")).split()
    second = next(line for line in lines if line.startswith("  aces 2")).split()
    assert first[2] == "AS" and second[2] == "AS*"


def test_touched_records_the_source_and_destination_of_a_park() -> None:
    touched = last_move_touched(sun3_parked())
    assert touched.cards == {(RAY, 0, 0)}
    assert touched.sources == {(RAY, 2)}


# ------------------------------------------------------- gather and wind


def gathered_board() -> Board:
    board = spec_board()
    board.push(Move.gather(1))
    return board


def test_gather_deals_onto_later_rays_and_stars_what_it_laid() -> None:
    before = spec_board()
    board = gathered_board()
    ray1 = before.rays[0]  # 5S 2H AH 7D 3C: five cards onto rays 2..6, no cloud
    text = board_text(board)
    rays = ray_lines(text)
    assert rays[1] == (False, ["-"])
    for i, card in enumerate(ray1):
        assert rays[2 + i][1][-1] == f"[{card}]*"
    assert rays[7][1][-1] == f"[{before.rays[6][-1]}]"  # untouched
    assert "stage 3 (sunset)" in text and "open ray none" in text
    assert last_move_touched(board).sources == {(RAY, 0)}


def test_clouds_are_numbered_and_listed_left_to_right() -> None:
    board = gathered_board()
    for n in range(2, 14):
        board.push(Move.gather(n))
        if len(board.clouds) >= 2:
            break
    assert len(board.clouds) >= 2
    lines = board_text(board).splitlines()
    clouds = {}
    for line in lines[lines.index(next(x for x in lines if x.startswith("clouds"))) + 1 :]:
        m = CLOUD_LINE.match(line)
        if m:
            clouds[int(m.group(1))] = m.group(2).split()
    newest = len(board.clouds) - 1
    for k, cloud in enumerate(board.clouds):
        starred = set(range(len(cloud))) if k == newest else set()
        assert clouds[k + 1] == expected_words(cloud, ends=True, touched=starred)
    assert last_move_touched(board).cards >= {(CLOUD, newest, 0)}


def test_after_the_wind_the_row_and_the_emptied_clouds_are_shown() -> None:
    board = play_random("sun", 3)
    assert board.stage is Stage.WIND and board.clouds
    assert board.move_stack[-1].kind is MoveKind.CARD  # so nothing in the row is starred
    text = board_text(board)
    assert f"clouds      {len(board.clouds)}, emptied by the wind" in text
    assert wind_words(text) == expected_words(board.wind_row or [], ends=True)
    assert "| the wind |" in text.splitlines()[0]
    assert f"| {board.status().value}" in text.splitlines()[0]


def test_the_wind_itself_stars_the_whole_row() -> None:
    board = spec_board()
    for n in range(1, 14):
        board.push(Move.gather(n))
    board.push(Move.wind())
    touched = last_move_touched(board)
    assert touched.cards == {(WIND, 0, pos) for pos in range(len(board.wind_row or []))}
    text = board_text(board, width=100)
    assert all(word.endswith("*") for word in wind_words(text))


def test_a_lost_game_says_lost() -> None:
    board = next(b for seed in range(20) if (b := play_random("sun", seed)).status() is Status.LOST)
    assert board_text(board).splitlines()[0].endswith("| the wind | lost")


def spades_board() -> Board:
    """A deck whose first deal is the 13 spades: A..5S up, K..6S down."""
    first = [
        Card.parse(c)
        for c in ["AS", "2S", "3S", "4S", "5S", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"]
    ]
    rest = list(DECK_ORDER)
    for card in first:
        rest.remove(card)
    board = Board("sun", deck=first + rest)
    board.push(Move.deal())
    for ray in range(1, 14):
        board.push(Move.parse(f"r{ray}>{'A' if ray <= 5 else 'K'}"))
    return board


def test_foundation_moves_star_the_receiving_pile() -> None:
    board = spades_board()
    board.push(Move.parse("K:6S>A"))
    touched = last_move_touched(board)
    assert touched.cards == {(FOUNDATION, 0, 5)}
    assert touched.sources == {(FOUNDATION, 4)}
    lines = board_text(board).splitlines()
    assert lines[0] == "sun | deck given | stage 1 (sunrise) | playing"
    assert next(x for x in lines if x.startswith("  aces")).split()[1] == "AS..6S*"
    assert next(x for x in lines if x.startswith("  kings")).split()[1] == "KS..7S"


# ------------------------------------------------------------------- colour


def test_colour_mode_paints_red_cards_red_with_suit_symbols() -> None:
    out = colour_output(spec_board())
    assert re.search(r"\x1b\[[0-9;]*31m10♦", out)  # 10D on the diamonds kings pile
    assert re.search(r"\x1b\[[0-9;]*31m3♥", out)
    assert "10D" not in out and "♠" in out
    assert not re.search(r"\x1b\[[0-9;]*31m[0-9AJQK]+[♠♣]", out)  # black cards stay black


def test_colour_mode_reverses_the_card_just_moved() -> None:
    out = colour_output(spec_board())
    assert re.search(r"\x1b\[7m7♣", out)


def test_print_board_uses_colour_only_on_a_colour_console() -> None:
    plain = Console(file=io.StringIO(), width=100)
    assert not use_color(plain)
    print_board(plain, spec_board())
    assert not ANSI.search(plain.file.getvalue())
    assert "[3S]" in plain.file.getvalue()
    coloured = Console(file=io.StringIO(), width=100, force_terminal=True, color_system="standard")
    assert use_color(coloured)
    print_board(coloured, spec_board())
    assert ANSI.search(coloured.file.getvalue())


def test_no_color_environment_gives_plain_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    console = Console(file=io.StringIO(), width=100, force_terminal=True)
    assert not use_color(console)
    print_board(console, spec_board())
    assert "♥" not in console.file.getvalue()
