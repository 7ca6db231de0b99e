"""``sunlog select``, ``split`` and ``summary``: a club's archive (docs/archive.md)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.notation import parse_games, read_headers
from sunlog.notation.replay import replay
from sunlog.notation.select import (
    Candidate,
    GameDigests,
    Range,
    Selection,
    game_digest,
    joined,
    strip_comments,
)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
DATA = ROOT / "tests" / "data"
WON = (SAMPLES / "won-sun.sun").read_text(encoding="utf-8")
LOST = (SAMPLES / "lost-sun.sun").read_text(encoding="utf-8")
SUN2 = (SAMPLES / "sun-2.sun").read_text(encoding="utf-8")
ILLEGAL = (SAMPLES / "invalid" / "illegal-move.sun").read_text(encoding="utf-8")


def run(*args: str | Path, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def games_of(text: str) -> list[str]:
    """Each game's text as read_headers splits it."""
    return [h.text for h in read_headers(io.StringIO(text))]


def retagged(text: str, player: str) -> str:
    return re.sub(r'\[Player "[^"]*"\]', f'[Player "{player}"]', text)


def commented(text: str) -> str:
    """The same game with comments and another layout: one move a line, a result in caps."""
    head, _, moves = text.partition("\n\n")
    body = "\n".join(moves.split())
    body = re.sub(r"\bwon\b", "WON", body)
    head = head.replace('[Event "sunlog samples"]', '[Event "copy"]')
    return head + "\n\n{ played again }\n" + body.replace("\n", " { x }\n", 1)


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """Two files: Ann's won game, Bob's lost game, a sun-2 game, an illegal one, and
    copies of the won game differing in tags, comments, layout and result case."""
    (tmp_path / "a.sun").write_text(
        retagged(WON, "Ann") + "\n" + retagged(LOST, "Bob") + "\n" + SUN2, encoding="utf-8"
    )
    (tmp_path / "b.sun").write_text(
        retagged(ILLEGAL, "Ann")
        + "\n"
        + commented(retagged(WON, "Cid"))
        + "\n"
        + retagged(WON, "Dee").replace("[Deal", '[Date "2026.01.02"]\n[Deal'),
        encoding="utf-8",
    )
    return tmp_path


def test_joining_without_a_filter_keeps_every_game_byte_for_byte(archive: Path) -> None:
    result = run("select", archive / "a.sun", archive / "b.sun")
    assert result.exit_code == 0, result.output
    written = games_of(result.stdout)
    expected = games_of((archive / "a.sun").read_text()) + games_of((archive / "b.sun").read_text())
    assert [t.strip() for t in written] == [t.strip() for t in expected]
    for text in expected:
        assert text.strip() in result.stdout
    assert "kept 6 of 6 games" in result.stderr


def test_tag_filters_alone_and_combined(archive: Path) -> None:
    out = run("select", archive, "--tag", "Player=Ann", "--count")
    assert out.stdout.strip() == "2"
    out = run("select", archive, "--tag", "Player=Ann", "--tag", "Variant=sun", "--count")
    assert out.stdout.strip() == "2"
    out = run("select", archive, "--tag-match", "Player=^[AB]", "--count")
    assert out.stdout.strip() == "3"
    out = run("select", archive, "--tag", "Player=Ann", "--invert", "--count")
    assert out.stdout.strip() == "4"
    out = run("select", archive, "--tag", "Player=ann", "--count")  # values are exact
    assert out.stdout.strip() == "0"
    out = run("select", archive, "--tag-match", "Date=^2026", "--count")
    assert out.stdout.strip() == "1"


def test_variant_result_deal_moves_reached_and_validity(archive: Path) -> None:
    def count(*args: str) -> int:
        result = run("select", archive, "--count", *args)
        assert result.exit_code == 0, result.output
        return int(result.stdout)

    assert count("--variant", "sun-2") == 1
    assert count("--variant", "SUN") == 5
    assert count("--variant", "sun-2", "--variant", "sun-3") == 1
    assert count("--result", "won") == 3
    assert count("--result", "lost") == 2  # Bob's and the sun-2 game
    assert count("--result", "won", "--tag", "Player=Cid") == 1  # WON in caps is won
    assert count("--deal", "1") == 6
    assert count("--deal", "2-10") == 0
    assert count("--deal", "0-1", "--invert") == 0
    assert count("--valid") == 5
    assert count("--invalid") == 1
    assert count("--invalid", "--tag", "Player=Ann") == 1
    assert count("--valid", "--result", "won") == 3
    moves = [len(g.moves) for g in parse_games(WON)]
    assert count("--moves", f"{moves[0]}-{moves[0]}", "--variant", "sun") == 3
    assert count("--moves", f"{moves[0] + 1}-") <= 2
    assert count("--reached", "wind") <= count("--reached", "3") <= count("--reached", "2")
    assert count("--reached", "2", "--result", "won") == 3


def test_selected_games_are_written_as_they_were(archive: Path) -> None:
    result = run("select", archive, "--tag", "Player=Cid")
    source = games_of((archive / "b.sun").read_text())[1]
    assert source.startswith("\n")  # the end of the line of the result before it
    assert result.stdout == source[1:] + "\n"
    assert "{ played again }" in result.stdout and "WON" in result.stdout
    again = parse_games(result.stdout)
    assert len(again) == 1 and again[0].tag("Player") == "Cid"


def test_dedupe_sees_through_tags_comments_layout_short_forms_and_case(archive: Path) -> None:
    result = run("select", archive, "--dedupe")
    assert result.exit_code == 0
    players = [g.tag("Player") for g in parse_games(result.stdout)]
    assert players == ["Ann", "Bob", "sunlog lookahead", "Ann"]  # Cid's and Dee's are Ann's
    assert "2 duplicates" in result.stderr
    listed = run("select", archive, "--duplicates")
    assert listed.stdout.splitlines() == [
        f"{archive / 'b.sun'}:{line}: same game as {archive / 'a.sun'}:1"
        for line in _tag_lines(archive / "b.sun")[1:]
    ]
    short = run(
        "select",
        DATA / "spellings.sun",
        DATA / "spellings.canonical.sun",
        "--count",
        "--duplicates",
    )
    assert short.stdout.strip() == "1"


def _tag_lines(path: Path) -> list[int]:
    """The line of each game's first tag."""
    lines = path.read_text().splitlines()
    return [
        i + 1
        for i, line in enumerate(lines)
        if line.startswith("[") and (i == 0 or not lines[i - 1].startswith("["))
    ]


def test_a_different_game_is_not_a_duplicate() -> None:
    won, lost = (Candidate(h) for h in read_headers(io.StringIO(WON + "\n" + LOST)))
    assert game_digest(won) != game_digest(lost)


def candidates(text: str) -> list[Candidate]:
    return [Candidate(h) for h in read_headers(io.StringIO(text))]


def test_digests_are_the_same_by_every_way_a_game_is_read() -> None:
    """A game the quick lane reads, one it leaves to replay (a miscased tag), a copy met
    again in the same run and one in short forms: one digest; an invalid one: another."""
    (won,) = candidates(WON)
    miscased = WON.replace("[Deal", '[result "won"]\n[Deal')  # a warning: replayed
    assert replay(parse_games(miscased)[0]).valid
    (replayed,) = candidates(miscased)
    (commented_copy,) = candidates(commented(retagged(WON, "Cid")))
    digests = GameDigests()
    first = digests(won)
    assert first == game_digest(won) == game_digest(replayed)
    assert digests(commented_copy) == first and digests(won) == first  # met again
    (short, canonical) = (
        candidates(p.read_text(encoding="utf-8"))[0]
        for p in (DATA / "spellings.sun", DATA / "spellings.canonical.sun")
    )
    assert digests(short) == digests(canonical) == game_digest(short)
    moves = parse_games(WON)[0].moves
    cut = WON[: WON.index(moves[-1].text, len(WON) - 200)] + "*\n"  # one move fewer
    (shorter,) = candidates(cut)
    assert digests(shorter) != first
    false_claim = candidates(cut.replace("*\n", "won\n"))[0]  # invalid: says won
    assert not replay(false_claim.game).valid
    assert digests(false_claim) not in (first, digests(shorter))


def test_a_game_broken_before_its_tags_end(tmp_path: Path) -> None:
    log = tmp_path / "broken.sun"
    log.write_text('[Player "Ann"\n[Variant "sun"]\n\ndeal\n*\n\n' + retagged(WON, "Ann"))
    result = run("select", log, "--tag", "Player=Ann")
    assert result.exit_code == 1  # said as check says it; the games that match still go out
    assert len(parse_games(result.stdout)) == 1
    assert result.stderr.startswith(f"{log}:1:")
    assert "1 unreadable before their tags end" in result.stderr
    assert run("select", log, "--tag", "Player=Ann", "--invert", "--count").stdout.strip() == "0"
    assert run("select", log, "--invalid", "--count").stdout.strip() == "1"


def test_joined_games_never_merge() -> None:
    """A game without a result token before a game without tags gets its claimed result."""
    first = '[Result "won"]\n[Deal "1"]\n\ndeal'
    second = "deal r5:KC>K\n*"
    (a,) = (Candidate(h) for h in read_headers(io.StringIO(first)))
    (b,) = (Candidate(h) for h in read_headers(io.StringIO(second)))
    text = "".join(joined([a, b]))
    games = parse_games(text)
    assert len(games) == 2
    assert games[0].claimed_result == "won" and games[1].claimed_result == "*"
    assert text.startswith(first + "\n")


def test_output_file_is_written_and_reread(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "ann.sun"
    out.parent.mkdir()
    result = run("select", archive, "--tag", "Player=Ann", "-o", out, "-q")
    assert result.exit_code == 0 and result.stderr == ""
    assert [g.tag("Player") for g in parse_games(out.read_text())] == ["Ann", "Ann"]
    refused = run("select", archive / "a.sun", "-o", archive / "a.sun")
    assert refused.exit_code == 2 and "refusing to overwrite" in refused.stderr


def test_strip_comments(archive: Path) -> None:
    result = run("select", archive, "--tag", "Player=Cid", "--strip-comments")
    assert "{" not in result.stdout and "played again" not in result.stdout
    (game,) = parse_games(result.stdout)
    assert replay(game).valid
    assert strip_comments("deal{a}r5:KC>K ; b\n*") == "deal r5:KC>K\n*"
    assert strip_comments('[E "{x}"]\n\ndeal') == '[E "{x}"]\n\ndeal'


def test_usage_errors_exit_2(archive: Path) -> None:
    for args in (
        ("--tag", "Player"),
        ("--tag-match", "Player=("),
        ("--variant", "sun-4"),
        ("--result", "maybe"),
        ("--deal", "9-1"),
        ("--moves", "x"),
        ("--reached", "4"),
    ):
        result = run("select", archive, *args)
        assert result.exit_code == 2, args
        assert "Traceback" not in result.output
    assert run("select", archive / "missing.sun").exit_code == 2


def test_no_match_exits_0_and_a_file_that_is_no_log_exits_1(archive: Path) -> None:
    result = run("select", archive, "--tag", "Player=Nobody")
    assert result.exit_code == 0 and result.stdout == ""
    assert "kept 0 of 6 games" in result.stderr
    assert run("select", DATA / "no-game.sun").exit_code == 1


def test_split_writes_a_file_a_game_never_overwriting(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "games"
    result = run("split", archive / "b.sun", "-o", out)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["2026.01.02_Dee_1.sun", "Ann_1.sun", "Cid_1.sun"]
    again = run("split", archive / "b.sun", "-o", out, "-q")
    assert again.exit_code == 0
    assert len(list(out.iterdir())) == 6 and (out / "Ann_1-2.sun").exists()
    joined_back = run("select", *sorted(out.glob("*.sun")), "-q")
    assert len(parse_games(joined_back.stdout)) == 6


def test_split_names_are_safe(tmp_path: Path) -> None:
    log = tmp_path / "odd.sun"
    log.write_text('[Player "../CON: a/b*?"]\n\ndeal\n*\n[Player "con"]\n\ndeal\n*\n')
    out = tmp_path / "games"
    assert run("split", log, "-o", out).exit_code == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["CON_a_b.sun", "_con.sun"]
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", n) for n in names)


def test_summary_against_a_hand_count(archive: Path) -> None:
    result = run("summary", archive, "--json")
    assert result.exit_code == 1, result.output  # one game is invalid
    assert "sunlog: 1 invalid game" in result.stderr
    assert run("summary", archive / "a.sun").exit_code == 0
    rows = {
        (r["group"]["Player"], r["group"]["Variant"]): r
        for r in map(json.loads, result.stdout.splitlines())
    }
    ann = rows[("Ann", "sun")]
    assert (ann["games"], ann["won"], ann["lost"], ann["invalid"]) == (2, 1, 0, 1)
    assert ann["won_share"] == 1.0 and ann["won_high"] == 1.0
    moves = len(parse_games(WON)[0].moves)
    assert ann["average_moves"] == moves and ann["longest"] == moves
    bob = rows[("Bob", "sun")]
    assert (bob["games"], bob["won"], bob["lost"], bob["won_share"]) == (1, 0, 1, 0.0)
    assert rows[("sunlog lookahead", "sun-2")]["games"] == 1
    by_event = run("summary", archive, "--by", "Event", "--json")
    groups = [json.loads(line)["group"] for line in by_event.stdout.splitlines()]
    assert {"Event": "copy", "Variant": "sun"} in groups
    table = run("summary", archive)
    assert "Ann" in table.stdout and "95% CI" in table.stdout


def test_range_parsing() -> None:
    assert Range.parse("5") == Range(5, 5)
    assert 7 in Range.parse("5-") and 4 not in Range.parse("5-")
    assert 3 in Range.parse("-3") and 4 not in Range.parse("-3")
    with pytest.raises(ValueError):
        Range.parse("-")


def test_an_empty_selection_keeps_everything() -> None:
    assert Selection().empty
    assert not Selection(valid=True).empty


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "printed"),
    [
        (("--tag", "Player=P7", "--count"), "400"),
        (("--tag", "Player=P7", "-o", "OUT"), ""),  # each game's text cut as written
        (("--dedupe", "--count"), "1"),  # a digest or two a game: far below the file
    ],
)
def test_select_streams_in_flat_memory(tmp_path: Path, args: tuple[str, ...], printed: str) -> None:
    """20,000 games: the selection holds one game at a time (peak well under the file)."""
    import subprocess
    import sys

    log = tmp_path / "many.sun"
    with log.open("w", encoding="utf-8", newline="\r\n") as handle:  # CRLF: cut as written
        for i in range(20_000):
            handle.write(retagged(WON, f"P{i % 50}") + "\n")
    size = log.stat().st_size
    out = tmp_path / "out.sun"
    argv = ["sunlog", "select", str(log), "-q", *(str(out) if a == "OUT" else a for a in args)]
    code = (
        "import resource, sys\n"
        "from sunlog.cli import entry\n"
        f"sys.argv = {argv!r}\n"
        "try:\n    entry.main()\nexcept SystemExit:\n    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)\n"
    )
    base = subprocess.run(
        [
            sys.executable,
            "-c",
            "import resource, sunlog.cli.archive\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    *shown, peak = done.stdout.split()
    assert shown == ([printed] if printed else []), done.stderr
    if "OUT" in args:
        written = out.read_bytes()
        assert written.count(b'[Player "P7"]\r\n') == 400 and b"\r\n" in written
    assert int(peak) - int(base.stdout) < size / 4, (peak, base.stdout, size)


def test_fmt_strip_comments_writes_the_canonical_game_without_them() -> None:
    plain = run("fmt", SAMPLES / "club-night.sun")
    stripped = run("fmt", "--strip-comments", SAMPLES / "club-night.sun")
    assert plain.exit_code == stripped.exit_code == 0
    assert "{" in plain.stdout and "{" not in stripped.stdout and ";" not in stripped.stdout
    with_them, without = parse_games(plain.stdout), parse_games(stripped.stdout)
    assert [g.moves and [m.move for m in g.moves] for g in with_them] == [
        g.moves and [m.move for m in g.moves] for g in without
    ]
