"""The quick lane of checking: a plain game's text replayed word by word.

Most logs are plain: tags, stage actions and card moves, perhaps move numbers,
annotations and comments. Checking such a game needs neither a :class:`~sunlog.notation.game.Game`
of placed moves nor a token stream: :func:`quick_check` splits its text into words, looks
each up in a table of moves already read, and pushes it. Whatever it does not know for
sure (a word it cannot read, white space the grammar does not know, an illegal move, a
wrong result) makes it return ``None``; the caller then reads the game
the general way (the scanner or Lark, then :func:`~sunlog.notation.replay.replay`), which says
where and why. So the quick lane only ever says "valid, n moves, result r", and tests
check that it agrees with the general way on valid, damaged and random logs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple, TextIO

from sunlog.engine.cards import Card
from sunlog.engine.errors import InvalidMoveError
from sunlog.engine.moves import MAX_DIGITS, Move, MoveKind
from sunlog.notation.errors import LogRuleError
from sunlog.notation.game import RESULTS, Game, Tag
from sunlog.notation.reader import game_texts, parse_game_text
from sunlog.notation.replay import check_result, new_board
from sunlog.notation.terminals import patterns

__all__ = ["ValidGame", "check_games", "quick_check"]


class ValidGame(NamedTuple):
    """A game the quick lane found valid: its index in the file, its number of moves and
    its claimed result."""

    index: int  # type: ignore[assignment]  # a field, over tuple.index
    moves: int
    result: str


_TERMINALS = patterns()
# The grammar's comments, { } (no nesting) and ; to the end of the line, found from left to
# right as its lexer finds them: a tag comes whole first, as a brace in its value is no comment.
_COMMENT = re.compile(
    f"({_TERMINALS['TAG']})|{_TERMINALS['BRACE_COMMENT']}|{_TERMINALS['LINE_COMMENT']}"
)
_CARD_MOVE = re.compile(_TERMINALS["CARD_MOVE"])
_CARD = re.compile(_TERMINALS["CARD"])
# White space that str.split() takes but the grammar does not (\v, \x1c-\x1f, \xa0...):
# with it, words would not be the grammar's tokens. (Any other odd character stays inside
# a word, which then reads as no move.)
_ODD_SPACE = re.compile(r"[^\S \t\n\f\r]")
# One tag with a value free of escapes, after the grammar's white space and comments.
_TAG = re.compile(r'(?:[ \t\f\r\n]|\{\})*\[[ \t]*([A-Za-z0-9_]+)[ \t]*"([^"\\\n]*)"[ \t]*\]')
_MOVE_NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}\.")
_ANNOTATIONS = frozenset(("!!", "??", "!?", "?!", "!", "?"))
_TABLE_MAX = 50_000
# Word -> what it reads as: card moves as the grammar's CARD_MOVE reads them, cards (named
# by a deal or wind), and the stage keywords, which stand for their kind: a deal or wind
# takes the cards after it, an open or gather the ray number after it.
_WORDS: dict[str, Move | MoveKind | Card] = {}
_STAGE_MOVES = {MoveKind.DEAL: Move(MoveKind.DEAL), MoveKind.WIND: Move(MoveKind.WIND)}
_RAY_MOVES = {
    kind: {str(n): Move(kind, index=n) for n in range(1, 14)}
    for kind in (MoveKind.OPEN, MoveKind.GATHER)
}


def check_games(source: TextIO | Iterable[str]) -> Iterator[ValidGame | Game]:
    """Each game of a text stream: its :class:`ValidGame` when the quick lane finds it valid,
    else the game as :func:`~sunlog.notation.read_games` reads it, for replay to judge.

    Faults of the stream as a whole raise as in :func:`~sunlog.notation.game_texts`.
    """
    for piece in game_texts(source):
        if piece.index:
            yield quick_check(piece.text, piece.index) or parse_game_text(piece)


def quick_check(text: str, index: int = 1) -> ValidGame | None:
    """One game's text as a :class:`ValidGame` when the quick lane finds it valid, else ``None``."""
    if "{" in text or ";" in text:  # each comment becomes the word {}, which moves skip
        if text.rfind("{") > text.rfind("}"):
            # A "{" that nothing closes (an unclosed comment, or one in a tag value): the
            # lexer's turn. The regex would try each such "{" to the end: seconds on many.
            return None
        text = _COMMENT.sub(_blank_comment, text)
    if _ODD_SPACE.search(text):
        return None
    tags: list[Tag] = []
    pos = 0
    match = _TAG.match(text)
    while match is not None:
        tags.append(Tag(match.group(1), match.group(2)))
        pos = match.end()
        match = _TAG.match(text, pos)
    words = text[pos:].split()
    result = None
    if words and words[-1].lower() in RESULTS:
        result = words.pop().lower()
    head = Game(tags=tuple(tags), result=result)
    try:
        board = new_board(head)
    except LogRuleError:
        return None
    push = board.push
    known = _WORDS.get
    count = 0
    number = None  # a move number waiting for its move
    stage = None  # a deal or wind still taking the cards it names
    named: list[Card] = []
    rest = iter(words)
    for word in rest:
        move = known(word) or _learn(word)
        if stage is not None:
            if move.__class__ is Card:
                named.append(move)
                continue
            if not _push_stage(push, stage, named):
                return None
            stage = None
        if move is None:
            if number is not None:
                return None  # a move number stands right before its move
            if word == "{}":
                continue
            if not _MOVE_NUMBER.fullmatch(word):
                return None
            number = int(word[:-1])
            continue
        if move.__class__ is not Move:
            if move is MoveKind.DEAL or move is MoveKind.WIND:
                stage, named = move, []  # pushed when the cards it names end
            elif move.__class__ is Card:
                return None  # a card with no deal or wind before it
            else:  # open or gather: the ray is the next word
                move = _RAY_MOVES[move].get(next(rest, ""))  # type: ignore[index]
                if move is None:
                    return None  # a ray beyond 13, written 03, or missing: the general way
        count += 1
        if number is not None:
            if number != count:
                return None
            number = None
        if stage is None:
            try:
                push(move)  # type: ignore[arg-type]
            except ValueError:
                return None
    if stage is not None and not _push_stage(push, stage, named):
        return None
    if number is not None or check_result(head, board) is not None:
        return None
    return ValidGame(index, count, head.claimed_result)


def _push_stage(push: Callable[[Move], None], kind: MoveKind, named: list[Card]) -> bool:
    """Push a deal or wind with the cards it names (none: the deck's or the deal's own)."""
    try:
        push(Move(kind, cards=tuple(named)) if named else _STAGE_MOVES[kind])
    except ValueError:
        return False
    return True


def _blank_comment(match: re.Match[str]) -> str:
    """A tag stays as it is; a comment becomes the word ``{}``."""
    return match.group(1) or " {} "


def _learn(word: str) -> Move | MoveKind | Card | None:
    """Read a word not in the table yet: a card move or a stage keyword (perhaps annotated),
    or a card; ``None`` for anything else."""
    base = word.rstrip("!?")
    if base != word and word[len(base) :] not in _ANNOTATIONS:
        return None
    lower = base.lower()
    entry: Move | MoveKind | Card | None
    if lower in ("deal", "wind", "open", "gather"):
        entry = MoveKind(lower)
        if base != word:  # deal! and wind! take no cards; open! and gather! are no moves
            entry = _STAGE_MOVES.get(entry)
    elif _CARD_MOVE.fullmatch(base):
        try:
            entry = Move.parse_card_move(base)
        except InvalidMoveError:  # a number of too many digits
            return None
    elif base == word and _CARD.fullmatch(word):
        entry = Card.parse(word)
    else:
        return None
    if entry is not None:
        if len(_WORDS) >= _TABLE_MAX:
            _WORDS.clear()
        _WORDS[word] = entry
    return entry
