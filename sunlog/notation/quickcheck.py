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
from sunlog.engine.moves import MAX_DIGITS, Move, MoveKind, read_common_card_move
from sunlog.notation.errors import LogRuleError
from sunlog.notation.game import RESULTS, Game, Tag
from sunlog.notation.reader import game_texts, parse_game_text
from sunlog.notation.replay import MEANINGFUL_TAGS, check_result, new_board
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
# A "." of a source (a depth in a ray, a cloud's or the wind row's end: r5.2:QD>K, c3.L>A),
# not of a move number: what a move number's "." is never followed by.
_SOURCE_DOT = re.compile(r"\.(?:[LRlr]|[0-9]+)[:>]")
# White space that str.split() takes but the grammar does not: with it, words would not be
# the grammar's tokens. (Any other odd character stays inside a word, which then reads as
# no move.) Every character that str.isspace() and the regex \s take, but for space, \t,
# \n, \f and \r (a test holds the list to them); in ASCII text only the first five.
_ODD_SPACES = (
    "\x0b\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_ODD_SPACE = re.compile(f"[{_ODD_SPACES}]")
# One tag, after the grammar's white space and comments (either kind, or blanked to {}),
# each taken whole (possessive: a tag is never read inside a comment); its value may hold
# escapes. Every run is taken possessively, which reads the same (no shorter run lets the
# rest match: each is followed by a character outside its class) a tenth faster.
_TAG = re.compile(
    r"(?:[ \t\f\r\n]++|\{[^}]*+\}|;[^\n]*+)*+"
    r'\[[ \t]*+([A-Za-z0-9_]++)[ \t]*+"((?:[^"\\\n]++|\\.)*+)"[ \t]*+\]'
)
_SUIT_LETTERS = dict(zip("♠♥♦♣♤♡♢♧", "SHDCSHDC", strict=True))
_ANNOTATIONS = frozenset(("!!", "??", "!?", "?!", "!", "?"))
_TAG_NAMES = frozenset(MEANINGFUL_TAGS.values())
_TABLE_MAX = 50_000
# Word -> what it reads as: card moves as the grammar's CARD_MOVE reads them, cards (named
# by a deal or wind), the stage keywords, which stand for their kind (a deal or wind takes
# the cards after it, an open or gather the ray number after it) and move numbers (an
# int). A move number joined to its move, where :func:`_words` could not set it apart,
# reads as both (a tuple), read each time and not kept: the table would hold every move
# of a log once for each number it is played at (18,000 such words in 1,500 games), a
# table too large for the processor's caches that no file repeats much. When the table
# is full it starts again: the words a log repeats are soon back.
_Entry = Move | MoveKind | Card | int | tuple[int, Move | MoveKind]
_WORDS: dict[str, _Entry] = {}
# The stage moves by kind, and by kind and ray, chosen with "is" on module constants: an
# enum member read off its class costs about 80 ns, a dict lookup by it more.
_DEAL, _WIND, _OPEN = MoveKind.DEAL, MoveKind.WIND, MoveKind.OPEN
_DEAL_MOVE, _WIND_MOVE = Move(_DEAL), Move(_WIND)
_OPEN_MOVES = {str(n): Move(_OPEN, index=n) for n in range(1, 14)}
_GATHER_MOVES = {str(n): Move(MoveKind.GATHER, index=n) for n in range(1, 14)}


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
    found = _tags_and_words(text)
    if found is None:
        return None
    tags, words = found
    result = None
    if words and words[-1].lower() in RESULTS:
        result = words.pop().lower()
    head = Game(tags=tuple(tags), result=result)
    try:
        board = new_board(head)
    except LogRuleError:
        return None
    push, try_push = board.push, board.try_push
    known = _WORDS.get
    count = 0
    number = None  # a move number waiting for its move
    stage = None  # a deal or wind still taking the cards it names
    named: list[Card] = []
    rest = iter(words)
    try:
        for word in rest:
            move = known(word)
            if stage is None:  # the commonest words: a move already read, or its number
                kind = move.__class__
                if kind is Move:
                    count += 1
                    if number is not None:
                        if number != count:
                            return None
                        number = None
                    if not try_push(move):  # type: ignore[arg-type]  # kind is Move
                        push(move)  # type: ignore[arg-type]
                    continue
                if kind is int and number is None:
                    number = move
                    continue
            if move is None and word != "{}":  # a comment: no word to learn
                move = _learn(word)
            if stage is not None:
                if move.__class__ is Card:
                    named.append(move)
                    continue
                if move is None and (card := _annotated_card(word)) is not None:
                    named.append(card)  # the annotation ends the deal or wind
                    if not _push_stage(push, stage, named):
                        return None
                    stage = None
                    continue
                if not _push_stage(push, stage, named):
                    return None
                stage = None
            if move is None:
                if word == "{}" and number is None:
                    continue
                return None  # no move, or a comment between a move number and its move
            kind = move.__class__
            if kind is int:  # a move number apart from its move
                if number is not None:
                    return None  # a move number stands right before its move
                number = move
                continue
            if kind is tuple:  # a move number joined to its move
                if number is not None:
                    return None
                number, move = move  # type: ignore[misc]
                kind = move.__class__
            if kind is not Move:
                if move is _DEAL or move is _WIND:
                    stage, named = move, []  # pushed when the cards it names end
                elif kind is Card:
                    return None  # a card with no deal or wind before it
                else:  # open or gather: the ray is the next word, perhaps annotated
                    rays = _OPEN_MOVES if move is _OPEN else _GATHER_MOVES
                    ray = next(rest, "")
                    move = rays.get(ray) or rays.get(_unannotated(ray))
                    if move is None:
                        return None  # a ray beyond 13, written 03, or missing
            count += 1
            if number is not None:
                if number != count:
                    return None
                number = None
            if stage is None:
                push(move)  # type: ignore[arg-type]
    except ValueError:  # an illegal move (or one the general way must read)
        return None
    if stage is not None and not _push_stage(push, stage, named):
        return None
    if number is not None or check_result(head, board) is not None:
        return None
    return ValidGame(index, count, head.claimed_result)


def _tags_and_words(text: str) -> tuple[list[Tag], list[str]] | None:
    """A game's tags and the words after them, each comment as the word ``{}`` (which
    moves skip), or ``None`` for what the general way must read. The tags are read first,
    so that the comments among the moves are found with str methods; comments before or
    among the tags take the grammar's regex over the whole text."""
    tags, pos = _tags(text)
    if tags is None:
        return None
    rest = text[pos:]
    if "{" in rest or ";" in rest:
        blanked = _blank_comments(rest)
        if blanked is None or "[" in blanked:
            return _tags_and_words_slowly(text)  # a comment among the tags, or unclosed
        rest = blanked
    words = _words(rest)
    return None if words is None else (tags, words)


def _words(moves: str) -> list[str] | None:
    """The words of a game's text after its tags, comments blanked; ``None`` where
    ``str.split()`` would split at white space the grammar does not take (in a tag's value
    or a comment, odd space is only text)."""
    if ">" in moves and not moves.isascii():
        moves = _suits_as_letters(moves)
    if moves.isascii():
        # One case for every word: each letter of a move, a card, a stage keyword and a
        # result reads the same in either case (the grammar's classes and /i), so the
        # table learns KS>K once, not also as ks>K and Ks>k. ASCII only: beyond it,
        # upper() changes more than case (the long s, "ſ", becomes S).
        moves = moves.upper()
    if "." in moves and not _SOURCE_DOT.search(moves):
        # Each move number apart from its move (7.JC>K as 7. JC>K): two words the table
        # knows, where the joined word is read anew each time. The grammar reads the same:
        # only MOVE_NUMBER and a source hold a ".", and a space after MOVE_NUMBER changes
        # nothing. A "." elsewhere still leaves a word that reads as nothing.
        moves = moves.replace(".", ". ")
    return None if _odd_space(moves) else moves.split()


def _suits_as_letters(text: str) -> str:
    """A game's moves with each suit symbol right before a ``>`` written as its letter
    (``K♠>K`` as ``KS>K``): the same moves, in ASCII text, whose words the table already
    knows. Only a card's suit stands before ``>`` in a card move (a source ends with a
    digit, L, R, w, A or K), so no word reads otherwise than it did."""
    for symbol, letter in _SUIT_LETTERS.items():
        if symbol in text:
            text = text.replace(symbol + ">", letter + ">")
    return text


def _tags_and_words_slowly(text: str) -> tuple[list[Tag], list[str]] | None:
    """:func:`_tags_and_words` with every comment blanked by the grammar's regex first."""
    if text.rfind("{") > text.rfind("}"):
        # A "{" that nothing closes (an unclosed comment, or one in a tag value): the
        # lexer's turn. The regex would try each such "{" to the end: seconds on many.
        return None
    text = _COMMENT.sub(_blank_comment, text)
    tags, pos = _tags(text)
    if tags is None:
        return None
    words = _words(text[pos:])
    return None if words is None else (tags, words)


def _tags(text: str) -> tuple[list[Tag] | None, int]:
    """The tags that begin a game's text and where they end; ``None`` for a tag the
    general way must read (a miscased Variant or Deal, an escape it explains)."""
    tags: list[Tag] = []
    pos = 0
    match = _TAG.match(text)
    while match is not None:
        name = match.group(1)
        if name not in _TAG_NAMES and name.lower() in MEANINGFUL_TAGS:
            return None, 0  # a miscased Variant or Deal: the general way warns of it
        value = match.group(2)
        if "\\" in value:  # \\ and \" only, read from left to right
            parts = value.split("\\\\")
            if any(part.count("\\") != part.count('\\"') for part in parts):
                return None, 0  # another escape: the general way explains it
            value = "\\".join([part.replace('\\"', '"') for part in parts])
        tags.append(Tag(name, value))
        pos = match.end()
        match = _TAG.match(text, pos)
    return tags, pos


def _blank_comments(text: str) -> str | None:
    """``text`` (moves, no tags) with each comment as the word ``{}``, found from left to
    right as the grammar's lexer finds them (a brace comment to its ``}``, a line comment
    to the end of its line); ``None`` for a ``{`` that nothing closes."""
    parts: list[str] = []
    pos = 0
    brace, semi = text.find("{"), text.find(";")
    while brace >= 0 or semi >= 0:
        if semi < 0 or 0 <= brace < semi:
            end = text.find("}", brace) + 1
            if not end:
                return None
            parts += (text[pos:brace], " {} ")
        else:
            end = text.find("\n", semi)
            if end < 0:
                end = len(text)
            parts += (text[pos:semi], " {} ")
        pos = end
        if 0 <= brace < pos:
            brace = text.find("{", pos)
        if 0 <= semi < pos:
            semi = text.find(";", pos)
    parts.append(text[pos:])
    return "".join(parts)


def _odd_space(text: str) -> bool:
    """Whether ``text`` holds white space the grammar does not take (:data:`_ODD_SPACES`):
    ``in`` tests for ASCII text, several times faster than the regex."""
    if text.isascii():
        return (
            "\x0b" in text or "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text
        )
    return _ODD_SPACE.search(text) is not None


def _push_stage(push: Callable[[Move], None], kind: MoveKind, named: list[Card]) -> bool:
    """Push a deal or wind with the cards it names (none: the deck's or the deal's own)."""
    try:
        push(Move(kind, cards=tuple(named)) if named else _stage_move(kind))
    except ValueError:
        return False
    return True


def _stage_move(kind: MoveKind) -> Move:
    """The move of a deal (``kind`` is DEAL) or wind (WIND) that names no cards."""
    return _DEAL_MOVE if kind is _DEAL else _WIND_MOVE


def _unannotated(word: str) -> str:
    """A word without the annotation joined to its end, or ``""`` if it has none."""
    base = word.rstrip("!?")
    return base if base != word and word[len(base) :] in _ANNOTATIONS else ""


def _annotated_card(word: str) -> Card | None:
    """The card of a word that is a card with an annotation joined (the last card a deal
    or the wind names), else ``None``."""
    base = _unannotated(word)
    if not base or not _CARD.fullmatch(base):
        return None
    return Card.parse(base)


def _blank_comment(match: re.Match[str]) -> str:
    """A tag stays as it is; a comment becomes the word ``{}``."""
    return match.group(1) or " {} "


def _learn(word: str) -> _Entry | None:
    """Read a word not in the table yet: a card move or a stage keyword (perhaps annotated),
    a card, a move number, or a move number joined to a move; ``None`` for anything else."""
    entry: _Entry | None
    if word[:1].isdigit() and "." in word:  # no card nor move has both
        digits, _, rest = word.partition(".")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
            return None
        if not rest:  # the word is the number alone
            return _remember(word, int(digits))
        move = _WORDS.get(rest)
        if move is None:
            move = _learn(rest)
        if move is None or move.__class__ not in (Move, MoveKind):
            return None
        return (int(digits), move)  # not kept: see _WORDS
    base = word.rstrip("!?")
    if base != word and word[len(base) :] not in _ANNOTATIONS:
        return None
    lower = base.lower()
    if lower in ("deal", "wind", "open", "gather"):
        entry = MoveKind(lower)
        if base != word:  # deal! and wind! take no cards; open! and gather! are no moves
            if entry is not _DEAL and entry is not _WIND:
                return None
            entry = _stage_move(entry)
        return _remember(word, entry)
    spelling = _spelling(base)
    entry = _WORDS.get(spelling) if spelling else None
    if entry.__class__ is Move or (entry.__class__ is Card and base == word):
        return _remember(word, entry)  # the same move or card as another spelling of it
    entry = read_common_card_move(base)  # the forms logs are made of, with str methods
    if entry is None and _CARD_MOVE.fullmatch(base):
        try:
            entry = Move.parse_card_move(base)
        except InvalidMoveError:  # a number of too many digits
            return None
    elif entry is None and base == word and _CARD.fullmatch(word):
        entry = Card.parse(word)
    if entry is None:
        return None
    if spelling and spelling != word:
        _remember(spelling, entry)
    return _remember(word, entry)


def _spelling(base: str) -> str:
    """One spelling for all the ways of writing a card move or a card: upper case, the suit
    symbol before ``>`` (or ending the word) as its letter; ``""`` for a word with other
    characters beyond ASCII. Every letter of CARD_MOVE and CARD may be written in either
    case, and a suit symbol stands for its letter where a suit stands, so a word whose
    spelling reads as a move reads as the same move."""
    if not base.isascii():
        cut = base.find(">")
        if cut < 0:
            cut = len(base)
        letter = _SUIT_LETTERS.get(base[cut - 1]) if cut > 0 else None
        if letter is None:
            return ""
        base = base[: cut - 1] + letter + base[cut:]
        if not base.isascii():
            return ""
    return base.upper()


def _remember(word: str, entry: _Entry) -> _Entry:
    """Keep what a word reads as in the table (emptied when it grows too large)."""
    if len(_WORDS) >= _TABLE_MAX:
        _WORDS.clear()
    _WORDS[word] = entry
    return entry
