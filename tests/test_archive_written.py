"""``sunlog select`` writes each game byte for byte as its file holds it (docs/archive.md).

Generated files of every layout (hypothesis): LF, CRLF and lone CR line ends, a BOM,
tabs, trailing spaces, comments after the last result, no final line end, games with and
without tags and result tokens. Selecting every game of a file gives the file; joining
files gives their games, each as written, and reads back as the same games.
"""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.notation import read_games, read_headers
from sunlog.notation.game import Game
from sunlog.notation.select import as_written, joined

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

spaces = st.sampled_from([" ", "  ", "\t", " \t "])
tags = st.lists(
    st.sampled_from(['[Player "Ann"]', '[Event "Club é"]', '[Date "2026.01.02"]', '[Site "x"]']),
    max_size=3,
)
words = st.lists(
    st.sampled_from(["deal", "r5:KC>K", "KD>K", "open 1", "{ a comment }", "{}", "1. deal"]),
    min_size=1,
    max_size=6,
).filter(lambda ws: any(not w.startswith("{") for w in ws))  # a move at least
results = st.sampled_from(["won", "lost", "*", "WON", ""])


@st.composite
def games(draw: st.DrawFn) -> str:
    """One game's text, with ``\\n`` line ends (the file's are chosen later)."""
    sp = draw(spaces)
    head = "".join(t + draw(st.sampled_from(["", " ", "\t"])) + "\n" for t in draw(tags))
    moves = sp.join(draw(words))
    comment = draw(st.sampled_from(["", " ; a line comment", " {after}"]))
    result = draw(results)
    gap = draw(st.sampled_from(["\n", "\n\n", " "]))
    return head + (gap if head else "") + moves + (sp + result if result else "") + comment


@st.composite
def files(draw: st.DrawFn) -> bytes:
    """A file of games in one layout: its line ends, a BOM, what follows the last game."""
    texts = draw(st.lists(games(), min_size=1, max_size=5))
    text = draw(st.sampled_from(["", "\n", "  \n"])) + "\n".join(texts)
    text += draw(st.sampled_from(["", "\n", "\n{ after the last }\n", "\n; end", "\t \n\n"]))
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return (bom + text.replace("\n", eol)).encode()


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args])


def essentials(game: Game) -> tuple[object, ...]:
    """What a game says: its tags, moves and claimed result."""
    tags = tuple((t.name, t.value) for t in game.tags)
    return (tags, [gm.move for gm in game.moves], game.claimed_result)


def read(data: bytes) -> list[tuple[object, ...]]:
    text = io.StringIO(data.decode("utf-8"), newline=None)
    return [essentials(g) for g in read_games(text)]


@SETTINGS
@given(data=files())
def test_every_game_of_a_file_is_the_file(tmp_path: Path, data: bytes) -> None:
    log = tmp_path / "games.sun"
    log.write_bytes(data)
    result = run("select", log, "-q")
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == data


@SETTINGS
@given(data=st.lists(files(), min_size=2, max_size=3))
def test_files_joined_are_their_games_as_written(tmp_path: Path, data: list[bytes]) -> None:
    paths = []
    for k, content in enumerate(data):
        path = tmp_path / f"f{k}.sun"
        path.write_bytes(content)
        paths.append(path)
    result = run("select", *paths, "-q")
    assert result.exit_code == 0, result.output
    out = result.stdout_bytes
    assert out.startswith(data[0])
    at = 0
    for k, content in enumerate(data):  # each file whole, in order (a BOM only at the start)
        part = content if k == 0 else content.removeprefix("\ufeff".encode())
        found = out.find(part, at)
        assert found >= 0, k
        at = found + len(part)
    assert read(out) == [game for content in data for game in read(content)]


def test_a_crlf_file_keeps_its_line_ends_when_games_are_chosen(tmp_path: Path) -> None:
    log = tmp_path / "crlf.sun"
    text = (
        '\ufeff[Player "Ann"]\n\ndeal { one }\nwon\n'
        '[Player "Bob"]\n\ndeal\t \n*\n'
        '[Player "Ann"]\n\ndeal r5:KC>K\nlost ; last\n{ after the last result }\n'
    )
    log.write_bytes(text.replace("\n", "\r\n").encode())
    result = run("select", log, "--tag", "Player=Ann", "-q")
    first, _, third = (h.text for h in read_headers(io.StringIO(text.removeprefix("\ufeff"))))
    assert third.endswith("lost")
    # what follows the last result token is the last game's: its comments, its line ends
    expected = "\ufeff" + first + third + " ; last\n{ after the last result }\n"
    assert result.stdout_bytes == expected.replace("\n", "\r\n").encode()
    bob = run("select", log, "--tag", "Player=Bob", "-q")
    assert bob.stdout_bytes == b'[Player "Bob"]\r\n\r\ndeal\t \r\n*\r\n'  # its own line, a line end


def test_strip_comments_keeps_the_line_ends(tmp_path: Path) -> None:
    log = tmp_path / "cr.sun"
    log.write_bytes(b'[Player "Ann"]\r\rdeal { x }\r; gone\rwon\r')
    result = run("select", log, "--strip-comments", "-q")
    assert result.stdout_bytes == b'[Player "Ann"]\r\rdeal\rwon\r'


def test_a_file_that_changed_since_it_was_read_gives_the_games_as_read() -> None:
    """The file read again must be the file read: else each game as the reader read it."""
    text = '[Player "Ann"]\n\ndeal\nwon\n[Player "Bob"]\n\ndeal\n*\n'
    other = io.StringIO("something else entirely\n" * 3, newline="")
    written = [g.written for g in as_written(read_headers(io.StringIO(text)), other)]
    assert "".join(written) == text.removesuffix("\n")  # what follows the last result: unknown
    assert "".join(joined(as_written(read_headers(io.StringIO(text)), other))) == text


def test_a_pipe_given_by_its_path_and_stdin_are_written_as_they_are(tmp_path: Path) -> None:
    import os
    import threading

    data = '\ufeff[Player "Ann"]\r\n\r\ndeal\t\r\n*\r\n; after\r\n'.encode()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_bytes, args=(data,))
    writer.start()
    result = run("select", fifo, "-q")
    writer.join()
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == data
    piped = CliRunner().invoke(cli.app, ["select", "-", "-q"], input=data)
    assert piped.stdout_bytes == data
