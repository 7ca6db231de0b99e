"""The .sun notation as the reader sees it (SPEC 5): every form, valid and invalid.

Errors are checked to the exact line, column, move index and sentence a player reads.
Most snippets follow a one-line tag section, so line 2 is the first line of moves.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sunlog.notation.reader as notation
from sunlog.engine.cards import Card
from sunlog.engine.errors import InvalidMoveError
from sunlog.engine.moves import CARD_MOVE, End, Move, MoveKind, Place, Target
from sunlog.notation import parse_games, read_games, write_game
from sunlog.notation.errors import LogSyntaxError
from sunlog.notation.game import Game
from sunlog.notation.replay import replay
from sunlog.notation.syntax import CARD_SHAPE, lark_parser
from sunlog.notation.tokens import boundary_regexes

DATA = Path(__file__).parent / "data"
HEAD = '[Deal "1"]\n'
#: The first deal of deal number 0 (SPEC 4), ray 1 first.
DEAL0 = "3H 8C JS 6S 4H 2D 10S 7H AD 8H 10H 6S AD"


def cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces."""
    return tuple(Card.parse(word) for word in text.split())


def one(text: str) -> Game:
    """The only game of ``text``."""
    games = parse_games(text)
    assert len(games) == 1, games
    return games[0]


def moves_of(text: str) -> list[Move]:
    game = one(HEAD + text)
    assert game.error is None, game.error
    return [gm.move for gm in game.moves]


def syntax_error(text: str) -> LogSyntaxError:
    game = one(HEAD + text)
    assert isinstance(game.error, LogSyntaxError), game
    return game.error


def card_move(
    source: Place | None,
    card: str | None,
    target: Target,
    *,
    index: int | None = None,
    depth: int | None = None,
    end: End | None = None,
    target_ray: int | None = None,
) -> Move:
    return Move(
        MoveKind.CARD,
        index,
        Card.parse(card) if card else None,
        source,
        depth,
        end,
        target,
        target_ray,
    )


# ------------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10♥", "10H"),
        ("t♡", "10H"),
        ("QD", "QD"),
        ("qd", "QD"),
        ("Q♦", "QD"),
        ("q♢", "QD"),
        ("as", "AS"),
        ("A♠", "AS"),
        ("a♤", "AS"),
        ("Kc", "KC"),
        ("k♣", "KC"),
        ("K♧", "KC"),
        ("2s", "2S"),
        ("9♣", "9C"),
        ("jH", "JH"),
    ],
)
def test_every_card_spelling_reads_as_the_canonical_card(written: str, canonical: str) -> None:
    named = " ".join([written] * 2 + ["5C"] * 2 + ["6C"] * 2 + ["7C"] * 2 + ["8C"] * 2 + ["9C"] * 3)
    game = one(f"deal {named}\nr1:{written}>A\n*")
    deal, move = (gm.move for gm in game.moves)
    assert deal.cards is not None
    assert str(deal.cards[0]) == canonical
    assert str(move.card) == canonical
    assert game.moves[1].text == f"r1:{written}>A"  # the move as written is kept


def test_writer_emits_canonical_ascii_cards() -> None:
    game = one(HEAD + "deal r3:t♥>K q♢>k A:9♣>K *")
    assert write_game(game).splitlines()[-2:] == ["deal r3:10H>K QD>K A:9C>K", "*"]


# -------------------------------------------------------------- card moves


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("r5:QD>K", card_move(Place.RAY, "QD", Target.KINGS, index=5)),
        ("r13:AS>A", card_move(Place.RAY, "AS", Target.ACES, index=13)),
        ("r3.4:9S>A", card_move(Place.RAY, "9S", Target.ACES, index=3, depth=4)),
        ("r3.1:9S>A", card_move(Place.RAY, "9S", Target.ACES, index=3, depth=1)),
        ("c2:5H>A", card_move(Place.CLOUD, "5H", Target.ACES, index=2)),
        ("c2.L:5H>A", card_move(Place.CLOUD, "5H", Target.ACES, index=2, end=End.LEFT)),
        ("c12.R:5H>K", card_move(Place.CLOUD, "5H", Target.KINGS, index=12, end=End.RIGHT)),
        ("w:KC>K", card_move(Place.WIND, "KC", Target.KINGS)),
        ("w.L:KC>K", card_move(Place.WIND, "KC", Target.KINGS, end=End.LEFT)),
        ("w.R:KC>K", card_move(Place.WIND, "KC", Target.KINGS, end=End.RIGHT)),
        ("A:7H>K", card_move(Place.ACES, "7H", Target.KINGS)),
        ("K:7H>A", card_move(Place.KINGS, "7H", Target.ACES)),
        ("r5:QD>A1", card_move(Place.RAY, "QD", Target.ACES1, index=5)),
        ("r5:QD>A2", card_move(Place.RAY, "QD", Target.ACES2, index=5)),
        ("r5:QD>r7", card_move(Place.RAY, "QD", Target.RAY, index=5, target_ray=7)),
        ("w.R:KC>r13", card_move(Place.WIND, "KC", Target.RAY, end=End.RIGHT, target_ray=13)),
        # short forms: SOURCE>TARGET and CARD>TARGET
        ("QD>K", card_move(None, "QD", Target.KINGS)),
        ("10H>A2", card_move(None, "10H", Target.ACES2)),
        ("r5>K", card_move(Place.RAY, None, Target.KINGS, index=5)),
        ("r3.2>A", card_move(Place.RAY, None, Target.ACES, index=3, depth=2)),
        ("c2>A", card_move(Place.CLOUD, None, Target.ACES, index=2)),
        ("c2.L>A", card_move(Place.CLOUD, None, Target.ACES, index=2, end=End.LEFT)),
        ("w>K", card_move(Place.WIND, None, Target.KINGS)),
        ("w.R>A", card_move(Place.WIND, None, Target.ACES, end=End.RIGHT)),
        ("A>K", card_move(Place.ACES, None, Target.KINGS)),
        ("K>A", card_move(Place.KINGS, None, Target.ACES)),
        # any case
        ("R5:qd>k", card_move(Place.RAY, "QD", Target.KINGS, index=5)),
        ("C2.l:5h>a", card_move(Place.CLOUD, "5H", Target.ACES, index=2, end=End.LEFT)),
        ("W.r>a2", card_move(Place.WIND, None, Target.ACES2, end=End.RIGHT)),
        ("k:7h>a", card_move(Place.KINGS, "7H", Target.ACES)),
        ("a>k", card_move(Place.ACES, None, Target.KINGS)),
        ("r5:QD>R7", card_move(Place.RAY, "QD", Target.RAY, index=5, target_ray=7)),
    ],
)
def test_card_move_forms(written: str, expected: Move) -> None:
    (deal, move) = moves_of(f"deal {written} *")
    assert deal == Move.deal()
    assert move == expected
    assert Move.parse(written) == expected


@pytest.mark.parametrize(
    "canonical",
    ["r5:QD>K", "r3.4:9S>A", "c2:5H>A", "c2.L:5H>A", "w.R:KC>K", "A:7H>K", "K:2C>A", "r1:KS>r2"],
)
def test_canonical_card_moves_print_as_written(canonical: str) -> None:
    (_, move) = moves_of(f"deal {canonical}")
    assert str(move) == canonical


# ----------------------------------------------------------- stage actions


def test_stage_actions_in_any_case() -> None:
    moves = moves_of("DEAL Deal open 3 OPEN 12 gather 1 Gather 13 wind WIND")
    assert moves == [
        Move.deal(),
        Move.deal(),
        Move.open(3),
        Move.open(12),
        Move.gather(1),
        Move.gather(13),
        Move.wind(),
        Move.wind(),
    ]


def test_deal_naming_13_cards_and_wind_naming_its_row() -> None:
    deal, wind = moves_of("deal 3H 8C JS 6S 4H 2D 10S 7H AD 8H TH 6s A♦\nwind kc AS 2♥")
    assert deal.cards == cards(DEAL0)
    assert wind.cards == cards("KC AS 2H")
    assert str(deal) == "deal 3H 8C JS 6S 4H 2D 10S 7H AD 8H 10H 6S AD"


def test_deal_with_12_cards_reads_but_does_not_replay() -> None:
    game = one("deal 3H 8C JS 6S 4H 2D 10S 7H AD 8H 10H 6S\n*")
    assert game.error is None
    assert game.moves[0].move.cards is not None and len(game.moves[0].move.cards) == 12
    error = replay(game).error
    assert error is not None
    assert error.message == (
        "deal 1 names 12 cards, not 13 (one per ray): it ends at 6S, before the result token"
    )
    assert (error.line, error.column, error.move, error.game) == (1, 1, 1, 1)


def test_deal_and_wind_cards_may_span_lines_and_carry_comments() -> None:
    game = one(HEAD + "deal 3H 8C JS 6S\n4H 2D 10S 7H\nAD 8H 10H 6S AD { all 13 } r9:AD>A")
    deal, move = game.moves
    assert deal.move == Move.deal(cards(DEAL0))
    assert deal.comments == ("all 13",)
    assert (move.line, move.column) == (4, 28)


def test_open_and_gather_take_any_number_and_replay_checks_it() -> None:
    (_, *opens) = moves_of("deal open 0 gather 14")
    assert opens == [Move.open(0), Move.gather(14)]


# ------------------------------------------------------------ move numbers


def test_move_numbers_apart_and_joined() -> None:
    game = one(HEAD + "1. deal 2.deal 3.r5:QD>K\n4.\ndeal 5. open 3\n*")
    assert [gm.number for gm in game.moves] == [1, 2, 3, 4, 5]
    assert [gm.move.kind for gm in game.moves] == [
        MoveKind.DEAL,
        MoveKind.DEAL,
        MoveKind.CARD,
        MoveKind.DEAL,
        MoveKind.OPEN,
    ]
    assert [(gm.line, gm.column) for gm in game.moves] == [(2, 4), (2, 11), (2, 18), (4, 1), (4, 9)]


def test_move_number_may_stand_before_some_moves_only() -> None:
    game = one(HEAD + "deal 2. deal deal 12.deal *")
    assert [gm.number for gm in game.moves] == [None, 2, None, 12]


def test_a_wrong_move_number_is_a_replay_error() -> None:
    game = one(HEAD + "1. deal 2. deal\n4. deal\n*")
    assert game.error is None
    result = replay(game)
    assert result.moves == 2
    error = result.error
    assert error is not None
    assert error.message == "move 3 is numbered 4.: write 3."
    assert (error.line, error.column, error.move, error.text) == (3, 1, 3, "deal")  # at 4.


def test_a_move_number_past_the_moves_is_a_replay_error() -> None:
    error = replay(one(HEAD + "12.deal *")).error
    assert error is not None
    assert error.message == "move 1 is numbered 12.: write 1."


# ------------------------------------------------------------- annotations


@pytest.mark.parametrize("mark", ["!", "?", "!!", "??", "!?", "?!"])
def test_annotations_joined_to_any_move(mark: str) -> None:
    game = one(HEAD + f"deal{mark} r5:QD>K{mark} open 3{mark} wind 2H AS{mark} *")
    assert game.error is None
    assert [gm.annotation for gm in game.moves] == [mark] * 4
    assert [str(gm.move) for gm in game.moves] == ["deal", "r5:QD>K", "open 3", "wind 2H AS"]


def test_annotation_is_written_joined() -> None:
    game = one(HEAD + "deal! r5:QD>K?!\nopen 3?? *")
    assert write_game(game).splitlines()[-3:] == ["deal! r5:QD>K?!", "open 3??", "*"]


# ---------------------------------------------------------------- comments


def test_comments_belong_to_the_move_before_them_or_the_start() -> None:
    text = (
        '[Event "x"]\n'
        "; before any move\n"
        "{ also\n  before }\n"
        "deal ; after deal\n"
        "r5:QD>K {one}{two} ; three\n"
        "open 3 {} *\n"
    )
    game = one(text)
    assert game.comments == ("before any move", "also\n  before")
    assert [gm.comments for gm in game.moves] == [
        ("after deal",),
        ("one", "two", "three"),
        ("",),
    ]


def test_comments_hide_what_looks_like_tags_results_and_moves() -> None:
    text = HEAD + 'deal { won [Event "no"] * r5:QD>K\nlost }\n; * won [Deal "2"]\ndeal *'
    game = one(text)
    assert [str(gm.move) for gm in game.moves] == ["deal", "deal"]
    assert game.moves[0].comments == ('won [Event "no"] * r5:QD>K\nlost', '* won [Deal "2"]')


def test_a_brace_comment_may_hold_a_semicolon_and_a_line_comment_a_brace() -> None:
    game = one(HEAD + "deal { a ; b } ; c { d } e\nr1:AS>A ; }\n*")
    assert [gm.comments for gm in game.moves] == [("a ; b", "c { d } e"), ("}",)]


def test_comment_after_result_opens_the_next_game_and_trailing_ones_stay_with_the_last() -> None:
    text = HEAD + "deal * ; to game 2\n{ also game 2 }\ndeal 2H AS\nwon\n; trailing\n{ more }\n"
    first, second = parse_games(text)
    assert first.final_comments == ()
    assert second.comments == ("to game 2", "also game 2")
    assert second.final_comments == ("trailing", "more")
    assert second.result == "won"


# -------------------------------------------------------------------- tags


def test_tags_keep_their_order_and_unescape_quotes_and_backslashes() -> None:
    text = '[Event "The \\"Sun\\" club"]\n[Site "C:\\\\games"]\n[ Empty  "" ]\n[Event "again"]\n'
    game = one(text + "deal 2H *")
    assert [(t.name, t.value) for t in game.tags] == [
        ("Event", 'The "Sun" club'),
        ("Site", "C:\\games"),
        ("Empty", ""),
        ("Event", "again"),
    ]
    assert [(t.line, t.column) for t in game.tags] == [(1, 1), (2, 1), (3, 1), (4, 1)]
    assert write_game(game).splitlines()[:4] == [
        '[Event "The \\"Sun\\" club"]',
        '[Site "C:\\\\games"]',
        '[Empty ""]',
        '[Event "again"]',
    ]


def test_tag_values_may_hold_brackets_semicolons_and_braces() -> None:
    game = one('[Event "a ] b ; c { d } * won"]\ndeal 2H *')
    assert game.tags[0].value == "a ] b ; c { d } * won"
    assert len(game.moves) == 1


def test_tag_names_are_case_sensitive() -> None:
    game = one('[deal "1"]\n[DEAL "2"]\ndeal *')
    assert game.tag("Deal") is None
    assert [t.name for t in game.tags] == ["deal", "DEAL"]
    error = replay(game).error
    assert error is not None
    assert error.message == "the deck is not known (no Deal or Deck tag): name the 13 cards dealt"


def test_a_bad_escape_in_a_tag_value_is_an_error_at_the_tag() -> None:
    game = one('[Event "x"]\n  [Site "C:\\games"]\ndeal *')
    error = game.error
    assert isinstance(error, LogSyntaxError)
    assert error.message == "unknown escape '\\g' in a tag value: only \\\" and \\\\ are allowed"
    assert (error.line, error.column, error.move, error.game) == (2, 3, None, 1)


@pytest.mark.parametrize(
    ("tag", "hint"),
    [
        ('[Event-x "a"]', ""),
        ('[Event "a]', ""),
        ('["a"]', ""),
        ('[Event "line\nbreak"]', ""),
        ("[Event a]", '; its value is not quoted: write [Event "a"]'),
        ("[Event Kitchen table ]", '; its value is not quoted: write [Event "Kitchen table"]'),
        ('[Event "a"', '; it is not closed: write [Event "a"]'),
        (
            "[Event \u201ca\u201d]",
            "; here the quotes are curly: a tag's value is in straight double quotes (\")",
        ),
    ],
)
def test_malformed_tags(tag: str, hint: str) -> None:
    game = parse_games(f'[Site "x"]\n{tag}\ndeal *')[0]
    error = game.error
    assert isinstance(error, LogSyntaxError)
    assert error.message == (
        'a tag is written [Name "value"]: a name of letters, digits and _, a value in double '
        'quotes on one line, with \\" and \\\\ the only escapes' + hint
    )
    assert (error.line, error.column, error.move) == (2, 1, None)


# ----------------------------------------------------------------- results


@pytest.mark.parametrize(
    ("token", "result"), [("won", "won"), ("WON", "won"), ("Lost", "lost"), ("*", "*")]
)
def test_result_tokens(token: str, result: str) -> None:
    game = one(f"{HEAD}deal\n{token}\n")
    assert game.result == result
    assert (game.result_line, game.result_column) == (3, 1)
    assert game.claimed_result == result


def test_no_result_token_claims_the_result_tag_or_star() -> None:
    assert one(HEAD + "deal").claimed_result == "*"
    assert one(HEAD + "deal").result is None
    assert one('[Result "lost"]\ndeal').claimed_result == "lost"


# ------------------------------------------------------- files and games


def test_game_boundaries_are_result_tokens_and_tag_sections_never_blank_lines() -> None:
    text = (
        '[Deal "1"]\n\ndeal\n\n\n\ndeal\n*  [Deal "2"] deal\n\n'
        '[Deal "3"]\n\n\ndeal deal 2H won deal 2H\n[Deal "4"]\n'
    )
    games = parse_games(text)
    assert [(g.tag("Deal"), len(g.moves), g.result) for g in games] == [
        ("1", 2, "*"),
        ("2", 1, None),
        ("3", 2, "won"),
        (None, 1, None),
        ("4", 0, None),
    ]
    assert (games[1].tags[0].line, games[1].tags[0].column) == (8, 4)
    assert (games[2].tags[0].line, games[2].tags[0].column) == (10, 1)
    assert (games[3].moves[0].line, games[3].moves[0].column) == (13, 18)


_LINE_PIECES = ["r1:AS>A", " ", "\n", "won", "WoN", "LOST", "*", "[", "{", "}", ";", "w", "o", "n"]
_LINE_PIECES += ['[Deal "1"]', "{ note }", "; note", "deal", "lo\u017ft", "\u2663", "\t"]
_LINE_PIECES += ['[Event "a \\" ] b"]', "\r", "\x0b", "\u0130", "\udc80", "\ufeff", '"', "\\"]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(_LINE_PIECES) | st.text(max_size=4), max_size=12).map("".join))
def test_a_line_may_hold_a_boundary_exactly_when_the_splitters_regex_says_so(line: str) -> None:
    """The splitter's str-method shortcut for ASCII lines agrees with its regex."""
    kind = notation._line_kind(line)
    assert (kind != notation._MOVES) == (notation._SPECIAL.search(line) is not None)
    if kind == notation._COMMENTS:
        assert "[" not in line and "*" not in line


def chunks(text: str, *, lines: bool = False) -> list[tuple[str, int, int, bool]]:
    """What the splitter makes of ``text``, read as a string, or as a list of its lines
    (each to its ``\\n``, which the splitter reads one by one); a fault as its place."""
    source = io.StringIO(text).readlines() if lines else io.StringIO(text)
    found: list[tuple[str, int, int, bool]] = []
    try:
        for c in notation._chunks(source):
            found.append((c.text, c.line, c.column, c.has_moves))
    except LogSyntaxError as exc:
        found.append(("error", exc.line or 0, exc.column or 0, False))
    return found


@settings(max_examples=300)
@given(st.lists(st.sampled_from(_LINE_PIECES) | st.text(max_size=4), max_size=40).map("".join))
def test_the_splitters_shortcuts_split_as_its_token_by_token_reading(text: str) -> None:
    """Lines of moves and comments take shortcuts (a block's lines between its tags and
    results as one piece, a tag alone on its line); reading every line token by token
    gives the same games, starting at the same places."""
    fast = chunks(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(notation, "_line_kind", lambda line: notation._BOUNDARY)
        lexemes, _ = boundary_regexes()
        patch.setattr(notation, "boundary_regexes", lambda: (lexemes, re.compile("(?!)")))
        assert chunks(text, lines=True) == fast


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(_LINE_PIECES) | st.text(max_size=4), max_size=40).map("".join),
    st.integers(1, 12),
)
def test_a_file_read_a_block_at_a_time_splits_as_read_line_by_line(text: str, block: int) -> None:
    """A string or a file is read in blocks, the lines between tags and results as one
    piece; a stream of lines is read line by line: the same games, at the same places,
    and the same errors. Small blocks cut the text at many places."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(notation, "_BLOCK_CHARS", block)
        assert chunks(text) == chunks(text, lines=True)


def test_a_line_may_hold_a_boundary_in_any_case_and_with_unicode_case_folding() -> None:
    assert notation._line_kind("deal r1:AS>A WON\n") == notation._BOUNDARY
    assert notation._line_kind("deal lo\u017ft\n") == notation._BOUNDARY  # RESULT folds too
    assert notation._line_kind("deal r1:AS>A wo n lo st\n") == notation._MOVES
    assert notation._line_kind("deal { note } ; more\n") == notation._COMMENTS


def test_a_result_token_reads_as_won_lost_or_star_whatever_its_case() -> None:
    """RESULT is case-insensitive with Unicode folding; the game holds the plain word."""
    from sunlog.notation.syntax import parse_game

    for token, result in (("WON", "won"), ("Lost", "lost"), ("lo\u017ft", "lost"), ("*", "*")):
        text = f'[Deal "1"]\ndeal {token}\n'
        assert parse_games(text)[0].result == result  # the scanner
        assert parse_game(text, 1, 1, 1).result == result  # Lark


def test_a_tag_section_after_moves_starts_a_new_game_even_midline() -> None:
    first, second = parse_games('[Deal "1"]\ndeal r1:3H>A [Deal "2"] deal')
    assert [gm.text for gm in first.moves] == ["deal", "r1:3H>A"]
    assert second.tag("Deal") == "2"
    assert (second.tags[0].line, second.tags[0].column) == (2, 14)


def test_a_file_with_no_game_is_an_error() -> None:
    for text in ("", "\n\n  \n", "; just a comment\n{ and another }\n", "\ufeff"):
        with pytest.raises(LogSyntaxError) as caught:
            parse_games(text)
        assert caught.value.message == "no game in this file: a log holds at least one game"
        assert (caught.value.line, caught.value.column) == (1, 1)
    with (DATA / "no-game.sun").open(encoding="utf-8") as handle, pytest.raises(LogSyntaxError):
        list(read_games(handle))


def test_a_tag_section_alone_is_a_game() -> None:
    for text in ('[Deal "1"]\n', '[Deal "1"]\ndeal\n[Deal "2"]\n', '[Deal "1"] deal * [Deal "2"]'):
        games = parse_games(text)
        assert games[-1].tag("Deal") == ("2" if len(games) == 2 else "1")
        assert games[-1].moves == ()


def test_not_utf8_is_an_error() -> None:
    stream = io.TextIOWrapper(io.BytesIO(b'[Deal "1"]\ndeal \xff\xfe *\n'), encoding="utf-8")
    with pytest.raises(LogSyntaxError) as caught:
        list(read_games(stream))
    assert caught.value.message.startswith("the file is not UTF-8 text")


def test_bom_is_skipped_and_columns_do_not_count_it() -> None:
    with (DATA / "utf8-bom.sun").open(encoding="utf-8") as handle:
        (game,) = read_games(handle)
    assert game.tags[0].name == "Event"
    assert game.tags[0].value == "Солнце, клуб «Пасьянс»"
    assert (game.tags[0].line, game.tags[0].column) == (1, 1)
    assert replay(game).valid
    assert game.claimed_result == "lost"
    assert game.comments == ("saved by a text editor that writes a byte order mark",)
    assert one("\ufeffdeal 2H *").moves[0].column == 1


def test_crlf_file_reads_as_its_lf_twin() -> None:
    raw = (DATA / "crlf.sun").read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n") > 20
    with (DATA / "crlf.sun").open(encoding="utf-8", newline="") as handle:
        (crlf,) = read_games(handle)
    (lf,) = parse_games(raw.decode("utf-8").replace("\r\n", "\n"))
    assert crlf == lf  # every tag, move, comment, line and column
    assert crlf.comments == ("written on Windows:\nevery line ends with CR LF",)
    assert replay(crlf).valid


def test_reader_streams_one_game_at_a_time() -> None:
    lines_read = 0

    def lines() -> Iterator[str]:
        nonlocal lines_read
        for k in range(1000):
            lines_read += 1
            yield f'[Deal "{k}"]\n'
            lines_read += 1
            yield "deal r1:AS>A\n"
            lines_read += 1
            yield "*\n"

    games = read_games(lines())
    first = next(games)
    assert first.tag("Deal") == "0"
    assert lines_read <= 9  # the next game is read ahead, no further
    assert sum(1 for _ in games) == 999
    assert lines_read == 3000


# ------------------------------------------------------------ syntax errors

SYNTAX_ERRORS = [
    # (moves after '[Deal "1"]\n', line, column, move index, move text, message)
    ("deal r5:QX>K", 2, 6, 2, "r5:QX>K", "expected a card like QD or 10H after ':', found 'QX'"),
    (
        "deal\nr5:QD>X",
        3,
        1,
        2,
        "r5:QD>X",
        "expected a target after '>': A or K (in sun-3 A, A1, A2 or an empty ray like r5), "
        "found 'X'",
    ),
    (
        "deal  x5:QD>K",
        2,
        7,
        2,
        "x5:QD>K",
        "expected a source before ':' like r5, r5.2, c1, c1.L, w, w.R, A or K, found 'x5'",
    ),
    (
        "deal r5.:QD>K",
        2,
        6,
        2,
        "r5.:QD>K",
        "expected a source before ':' like r5, r5.2, c1, c1.L, w, w.R, A or K, found 'r5.'",
    ),
    (
        "deal QX>K",
        2,
        6,
        2,
        "QX>K",
        "expected a card like QD or 10H, or a source like r5, before '>', found 'QX'",
    ),
    (
        "deal r5:QD",
        2,
        6,
        2,
        "r5:QD",
        "a card move needs a target: SOURCE:CARD>TARGET, like r5:QD>K; found 'r5:QD'",
    ),
    (
        "deal r5:QD> K",
        2,
        6,
        2,
        "r5:QD> K",
        "a card move is one word, without spaces: write r5:QD>K",
    ),
    (
        "deal r5:QD> X",
        2,
        6,
        2,
        "r5:QD>",
        "a card move is one word, without spaces, like r5:QD>K; found 'r5:QD>' and then 'X'",
    ),
    ("deal 2H ZZ 3H", 2, 9, 1, "deal 2H ZZ", f"'ZZ' is not a card: {CARD_SHAPE}"),
    (
        "deal\nwind 2H 1H",
        3,
        9,
        2,
        "wind 2H 1H",
        f"'1H' is not a card: {CARD_SHAPE} (an ace is written A)",
    ),
    (
        "deal open",
        2,
        6,
        2,
        "open",
        "expected a ray number 1 to 13 after 'open', found the end of the game",
    ),
    ("deal open x", 2, 11, 2, "open x", "expected a ray number 1 to 13 after 'open', found 'x'"),
    (
        "deal gather *",
        2,
        13,
        2,
        "gather *",
        "expected a ray number 1 to 13 after 'gather', found '*'",
    ),
    (
        "deal open {3} 3",
        2,
        11,
        2,
        "open {3}",
        "expected a ray number 1 to 13 after 'open', found '{3}'",
    ),
    ("deal 2 deal", 2, 6, 2, "2", "a move number is written with a dot, as '2.', found '2'"),
    (
        "deal 2.",
        2,
        6,
        2,
        "2.",
        "a move number must be followed by a move, found the end of the game",
    ),
    ("1. *", 2, 4, 1, "*", "a move number must be followed by a move, found '*'"),
    ("1. 2. deal", 2, 4, 1, "2.", "a move number must be followed by a move, found '2.'"),
    ("1. {c} deal", 2, 4, 1, "{c}", "a move number must be followed by a move, found '{c}'"),
    ("deal !", 2, 6, 1, None, "an annotation is joined to its move, without a space before it"),
    ("! deal", 2, 1, 1, "!", "an annotation (! ? !! ?? !? ?!) must follow a move, found '!'"),
    (
        "deal r5:QD>K!!!",
        2,
        6,
        2,
        "r5:QD>K!!!",
        "an annotation is one of ! ? !! ?? !? ?!, joined to the end of its move; "
        "found '!!!' after 'r5:QD>K'",
    ),
    (
        "deal deal* deal",
        2,
        12,
        None,
        None,
        "the game ended at its result token, so 'deal' cannot follow it "
        "(a result token stands apart from its move, after white space)",
    ),
    (
        "deal fooo",
        2,
        6,
        2,
        "fooo",
        "expected a move (deal, open N, gather N, wind, or a card move like r5:QD>K) "
        "or a result (won, lost, *), found 'fooo'",
    ),
    (
        "deal\n\n   @",
        4,
        4,
        2,
        "@",
        "expected a move (deal, open N, gather N, wind, or a card move like r5:QD>K) "
        "or a result (won, lost, *), found '@'",
    ),
    (
        "deal\n{ never\nclosed\n",
        3,
        1,
        None,
        None,
        "this { comment is never closed: a } must end it",
    ),
    (
        "deal r5:QD> r6:QS>K",
        2,
        6,
        2,
        "r5:QD>",
        "expected a target after '>': A or K (in sun-3 A, A1, A2 or an empty ray like r5), "
        "found none",
    ),
    ("deal r5: deal", 2, 6, 2, "r5:", "expected a card like QD or 10H after ':', found none"),
    (
        "deal\u00a0r5:QD>K",
        2,
        5,
        None,
        None,
        "white space the notation does not know stands here, between 'deal' and 'r5:QD>K': "
        "no-break space (U+00A0); words are apart by spaces, tabs and line breaks only (text "
        "pasted from a web page or a word processor may hold such a space)",
    ),
    (
        "deal r5:QD>K\x0b",
        2,
        13,
        None,
        None,
        "white space the notation does not know stands here: vertical tab (U+000B); words "
        "are apart by spaces, tabs and line breaks only (text pasted from a web page or a "
        "word processor may hold such a space)",
    ),
    ("1) deal", 2, 1, 1, "1)", "a move number is written with a dot, as '1.', found '1)'"),
    # Typos of a card move written by hand: what is wrong, and the move meant.
    ("deal r5:QD->K", 2, 6, 2, "r5:QD->K", "the arrow is written > alone: write r5:QD>K"),
    ("deal r5:QD=>K", 2, 6, 2, "r5:QD=>K", "the arrow is written > alone: write r5:QD>K"),
    ("deal QD\u2192K", 2, 6, 2, "QD\u2192K", "the arrow is written > alone: write QD>K"),
    ("deal r5:QD>>K", 2, 6, 2, "r5:QD>>K", "the arrow is written > alone: write r5:QD>K"),
    (
        "deal r5-QD>K",
        2,
        6,
        2,
        "r5-QD>K",
        "a source and its card are joined by ':': write r5:QD>K",
    ),
    (
        "deal c1.l/QD>K",
        2,
        6,
        2,
        "c1.l/QD>K",
        "a source and its card are joined by ':': write c1.l:QD>K",
    ),
    (
        "deal r5 QD>K r6:QS>K",
        2,
        6,
        2,
        "r5 QD>K",
        "a source and its card are joined by ':', without a space: write r5:QD>K",
    ),
    (
        "deal r5:QD K",
        2,
        6,
        2,
        "r5:QD K",
        "a card and its target are joined by '>', without a space: write r5:QD>K",
    ),
    (
        "deal r5:QD>K, r6:QS>K",
        2,
        6,
        2,
        "r5:QD>K,",
        "moves are separated by spaces only: write r5:QD>K",
    ),
    ("deal r5:1D>A", 2, 6, 2, "r5:1D>A", "an ace is written A: write r5:AD>A"),
    ("deal 12D>K", 2, 6, 2, "12D>K", "the ranks above 10 are J, Q and K: write QD>K"),
    (
        "deal r5:1OD>K",
        2,
        6,
        2,
        "r5:1OD>K",
        "10 is written with the digit 0, not the letter O: write r5:10D>K",
    ),
    ("deal r5:0D>K", 2, 6, 2, "r5:0D>K", "a ten is written 10 or T: write r5:10D>K"),
    ("deal r5:DQ>K", 2, 6, 2, "r5:DQ>K", "a card is written rank first, then suit: write r5:QD>K"),
    ("deal H10>K", 2, 6, 2, "H10>K", "a card is written rank first, then suit: write 10H>K"),
    ("deal r5:QDK", 2, 6, 2, "r5:QDK", "a card and its target are joined by '>': write r5:QD>K"),
    ("deal 2SA", 2, 6, 2, "2SA", "a card and its target are joined by '>': write 2S>A"),
    (
        "deal r5:Q\u2666\ufe0f>K",
        2,
        6,
        2,
        "r5:Q\u2666\ufe0f>K",
        "an invisible U+FE0F (a variation selector, which phones and web pages add to suit "
        "symbols) follows the suit: write r5:QD>K",
    ),
    (
        "deal r5:Q>K",
        2,
        6,
        2,
        "r5:Q>K",
        "'Q' after ':' has no suit; a card is a rank A 2-10 J Q K (or T) and a suit S H D C, "
        "like QD or 10H",
    ),
    (
        "deal r5:QD>K 1-0",
        2,
        14,
        3,
        "1-0",
        "a result is written won, lost or * (unfinished), found '1-0'",
    ),
    (
        "deal r5:QD>K (r6:QS>K)",
        2,
        14,
        3,
        "(r6:QS>K)",
        "a log holds the moves played, without variations in parentheses (a line not played "
        "can go in a comment { }); found '(r6:QS>K)'",
    ),
    (
        "deal r5:QD>K ( r6:QS>K )",
        2,
        14,
        3,
        "(",
        "a log holds the moves played, without variations in parentheses (a line not played "
        "can go in a comment { }); found '('",
    ),
    (
        "deal 7>A",
        2,
        6,
        2,
        "7>A",
        "'7' before '>' has no suit; a card is a rank A 2-10 J Q K (or T) and a suit S H D C, "
        "like QD or 10H",
    ),
]


@pytest.mark.parametrize(("text", "line", "column", "move", "written", "message"), SYNTAX_ERRORS)
def test_syntax_errors(
    text: str, line: int, column: int, move: int | None, written: str | None, message: str
) -> None:
    error = syntax_error(text)
    assert error.message == message
    assert (error.line, error.column, error.move, error.text, error.game) == (
        line,
        column,
        move,
        written,
        1,
    )


def test_a_syntax_error_keeps_the_moves_before_it() -> None:
    game = one(HEAD + "deal r5:KC>K\nr13:KH>K r3:JS>Q")
    assert [gm.text for gm in game.moves] == ["deal", "r5:KC>K", "r13:KH>K"]
    assert game.error is not None and game.error.move == 4
    result = replay(game)
    assert result.moves == 3  # replayed up to the error, then the syntax error is reported
    assert result.error is not None and result.error.move == 4
    assert result.error.message.startswith(game.error.message + "; and JS cannot start")
    assert replay(game, upto=3).error is game.error  # short of it: the error as read


@pytest.mark.parametrize(
    ("moves", "kept"),
    [
        ("deal r5:KC>K\u00a0r13:KH>K", ["deal", "r5:KC>K"]),
        ("deal r5:KC>K 3.\u00a0r13:KH>K", ["deal", "r5:KC>K"]),
        ("deal\u00a0r5:KC>K", ["deal"]),
    ],
)
def test_odd_white_space_keeps_the_whole_moves_before_it(moves: str, kept: list[str]) -> None:
    game = one(HEAD + moves)
    assert [gm.text for gm in game.moves] == kept
    assert game.error is not None and "no-break space (U+00A0)" in game.error.message


def test_errors_in_later_games_carry_file_positions_and_do_not_stop_the_next() -> None:
    with (DATA / "bad-games.sun").open(encoding="utf-8") as handle:
        games = list(read_games(handle))
    found = []
    for game in games:
        error = replay(game).error
        found.append(
            None
            if error is None
            else (
                type(error).__name__,
                error.game,
                error.move,
                error.line,
                error.column,
                error.text,
            )
        )
    assert found == [
        None,
        ("LogSyntaxError", 2, 7, 13, 31, "r4:QX>K"),
        ("LogRuleError", 3, 13, 25, 30, "r2:2H>K"),
        ("LogRuleError", 4, 5, 33, 1, "deal"),  # at its move number
        ("LogRuleError", 5, None, 46, 1, None),
        ("LogSyntaxError", 6, None, 47, 1, None),
        None,
    ]
    assert games[1].error is not None
    assert str(games[1].error) == (
        "13:31: move 7 'r4:QX>K': expected a card like QD or 10H after ':', found 'QX'"
    )
    assert replay(games[2]).error.message == (  # type: ignore[union-attr]
        "2H cannot go onto the kings pile of hearts: its top is QH, so it takes JH"
    )
    assert replay(games[4]).error.message == (  # type: ignore[union-attr]
        "the log says won, but only 9 of the 104 cards are on the foundations"
    )


# ------------------------------------------------------------------ fixtures


def test_multi_game_fixture() -> None:
    with (DATA / "multi-game.sun").open(encoding="utf-8") as handle:
        games = list(read_games(handle))
    assert [(g.index, g.tag("Round"), g.result, g.claimed_result) for g in games] == [
        (1, "1", "*", "*"),
        (2, "2", None, "*"),
        (3, "3", "lost", "lost"),
        (4, None, "*", "*"),
    ]
    assert games[1].comments == ("this comment follows the result of game 1, so it opens game 2",)
    assert games[2].comments == ("game 2 had no result token: this tag section ended it",)
    assert games[3].tags == ()
    assert games[3].final_comments == (
        "trailing comment after the last game",
        "and another:\nthey belong to game 4",
    )
    assert all(replay(g).valid for g in games)


def test_spellings_fixture_reads_every_spelling() -> None:
    text = (DATA / "spellings.sun").read_text(encoding="utf-8")
    game = one(text)
    assert game.error is None
    result = replay(game, canonical=True)
    assert result.valid, result.error
    written = [gm.text for gm in game.moves]
    assert any(re.search("[♠♥♦♣♤♡♢♧]", t) for t in written)
    assert any(re.search(r"(?<![0-9A-Za-z])[Tt][SHDCshdc♠♥♦♣♤♡♢♧]", t) for t in written)
    assert any(t != t.upper() for t in written if ">" in t)
    assert any(">" in t and ":" not in t for t in written)  # short forms
    assert {gm.annotation for gm in game.moves} > {None}
    numbered = [gm for gm in game.moves if gm.number is not None]
    assert numbered and all(gm.number == game.moves.index(gm) + 1 for gm in numbered)
    assert re.search(r"\d+\.\S", text) and re.search(r"\d+\.\s", text)  # joined and apart
    assert sum(len(gm.comments) for gm in game.moves) >= 4
    canonical = (DATA / "spellings.canonical.sun").read_text(encoding="utf-8")
    assert write_game(game, result.canonical) == canonical


# ------------------------------------------------ the card move terminal

_TERMINAL = re.compile(lark_parser().get_terminal("CARD_MOVE").pattern.to_regexp())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="rcwAKak0123456789.:>LRSHDCQJTlhdsqjt♠♥♦♣♤ ", max_size=12))
def test_the_engine_reads_the_tokens_the_grammar_terminal_accepts(token: str) -> None:
    assert CARD_MOVE.pattern == _TERMINAL.pattern  # the engine's is the grammar's own
    assert bool(_TERMINAL.fullmatch(token)) == _reads(token)


def _reads(token: str) -> bool:
    """Whether the engine reads ``token`` as a card move."""
    try:
        Move.parse_card_move(token)
    except InvalidMoveError:
        return False
    return True


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["r5", "r13.2", "c1", "c2.L", "c3.r", "w", "w.R", "A", "K", "", "R5", "a"]),
    st.sampled_from(["", ":QD", ":10h", ":T♠", ":a♧", ":Kc"]),
    st.sampled_from(["A", "A1", "A2", "K", "r7", "k", "a2", "R12"]),
)
def test_grammar_terminal_and_the_engine_agree_on_real_moves(
    source: str, card: str, target: str
) -> None:
    token = (source + card if source else card.lstrip(":")) + ">" + target
    expected = bool(source or card)
    assert bool(_TERMINAL.fullmatch(token)) is expected
    assert _reads(token) is expected


@pytest.mark.parametrize("token", ["r٣:QD>K", "r5:Qſ>K", "r5:QD>\u212a"])
def test_the_engine_rejects_what_the_grammar_rejects(token: str) -> None:
    assert not _TERMINAL.fullmatch(token)
    assert not _reads(token)


def test_spaces_are_the_characters_of_the_grammars_ws() -> None:
    from sunlog.notation import terminals

    ws = re.compile(terminals.patterns()["WS"])
    assert [chr(c) for c in range(0x110000) if ws.fullmatch(chr(c))] == sorted(terminals.SPACES)


def test_the_scanners_patterns_are_the_grammars_terminals() -> None:
    """sunlog/notation/terminals.py is generated from the grammar: stale, it must be
    regenerated (``python -m sunlog.notation.terminals``), though the reader would still be
    right (it checks)."""
    from sunlog.notation import terminals
    from sunlog.notation.syntax import lark_parser

    assert terminals.grammar_digest() == terminals.GRAMMAR_SHA256
    assert terminals.patterns() == terminals.terminal_patterns()
    parsed = {t.name: t.pattern.to_regexp() for t in lark_parser().terminals}
    assert parsed.items() <= terminals.patterns().items()  # the parser's own terminals


def test_a_valid_log_is_read_without_importing_lark() -> None:
    """Start-up matters for `sunlog check` of one file: Lark is needed only to explain."""
    import subprocess
    import sys
    from pathlib import Path

    sample = Path(__file__).parent.parent / "samples" / "won-sun.sun"
    code = (
        "import sys\n"
        "from sunlog.notation import read_games\n"
        "from sunlog.notation.replay import replay\n"
        "with open(sys.argv[1], encoding='utf-8') as handle:\n"
        "    assert all(replay(game).valid for game in read_games(handle))\n"
        "print('lark' in sys.modules)\n"
    )
    run = [sys.executable, "-c", code, str(sample)]
    out = subprocess.run(run, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("text", "games"),
    [
        ('deal ; {\n[Deal "2"]\ndeal\n', 2),  # a { in a line comment opens nothing
        ('deal ; } {\n[Deal "2"]\ndeal\n', 2),
        ('deal { a\nb } deal\n[Deal "2"] deal\n', 2),  # a comment over two lines
        ('deal { a [Deal "2"]\nb } deal\n', 1),  # a tag in a comment is none
        ("deal { a\n; b\n} deal won deal\n", 2),  # a ; in a brace comment is text
        ('deal {\nwon }\n[Deal "2"] deal', 2),  # so is a result word
    ],
)
def test_comments_over_lines_hide_what_they_hold_from_the_splitter(text: str, games: int) -> None:
    for lines in (False, True):
        assert [c[3] for c in chunks(text, lines=lines)] == [True] * games
