"""``read_headers``: each game's tags without its moves (python-chess's read_headers)."""

from __future__ import annotations

import io

import pytest

from sunlog.engine.board import Board
from sunlog.notation import LogSyntaxError, read_games, read_headers

LOG = (
    '[Variant "sun"]\n[Deal "5"]\n; a note\n[Event "club \\"night\\""]\ndeal r1:AS>A *\n'
    '[Deal "6"] { c } deal deal *\n'
    "deal won\n"
)


def test_each_games_tags_with_where_the_game_stands() -> None:
    heads = list(read_headers(io.StringIO(LOG), "log.sun"))
    assert [h.index for h in heads] == [1, 2, 3]
    assert [(h.line, h.column) for h in heads] == [(1, 1), (5, 15), (6, 29)]
    assert [t.name for t in heads[0].tags] == ["Variant", "Deal", "Event"]
    assert heads[0].tag("Event") == 'club "night"'
    assert heads[0].tag("Result") is None
    assert (heads[0].tags[2].line, heads[0].tags[2].column) == (4, 1)
    assert heads[1].tag("Deal") == "6" and heads[2].tags == ()
    assert all(h.path == "log.sun" and h.error is None for h in heads)
    games = list(read_games(io.StringIO(LOG)))
    assert [h.tags for h in heads] == [g.tags for g in games]


def test_the_text_of_each_game_is_kept_as_written() -> None:
    heads = list(read_headers(io.StringIO(LOG)))
    assert "".join(h.text for h in heads) + "\n" == LOG


def test_nothing_is_replayed_and_the_moves_are_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Illegal moves, a result that is false and a broken move after the tags do not
    matter: the reader stops at the first move and no board is made."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a board was made")

    monkeypatch.setattr(Board, "__init__", refuse)
    text = '[Deal "5"]\ndeal r9:KS>A r1:XX>Q won\n[Deal "6"]\ndeal wind 1OD'
    heads = list(read_headers(io.StringIO(text)))
    assert [h.tag("Deal") for h in heads] == ["5", "6"]
    assert all(h.error is None for h in heads)


def test_a_tag_the_reader_cannot_read_is_explained_as_read_games_explains_it() -> None:
    text = '[Deal "5"]\n[Event "a \\q"]\ndeal *\n[Deal "6"] deal *\n'
    heads = list(read_headers(io.StringIO(text)))
    (game, _) = read_games(io.StringIO(text))
    assert heads[0].tag("Deal") == "5"
    assert heads[0].error is not None and game.error is not None
    assert str(heads[0].error) == str(game.error)
    assert heads[1].tag("Deal") == "6" and heads[1].error is None


def test_a_stream_with_no_game_raises_as_the_reader_does() -> None:
    with pytest.raises(LogSyntaxError, match="no game in this file"):
        list(read_headers(io.StringIO("; only a comment\n")))
