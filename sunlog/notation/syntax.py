"""The slow, exact path of the reader: the Lark grammar, and syntax errors explained.

:mod:`sunlog.notation` reads nearly every game with the fast scanner; a game the scanner
cannot read goes through here. Lark parses it with ``grammar/sun.lark`` (LALR) and its
errors become sentences a player understands, at the right line and column, with the moves
before the error kept. This is also where the scanner's token patterns come from.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from sunlog.engine.board import RAYS
from sunlog.engine.cards import Card
from sunlog.engine.errors import InvalidMoveError, clip
from sunlog.engine.moves import Move, MoveKind, check_digits
from sunlog.notation.errors import (
    CARD_EXPECTED,
    END_OF_GAME,
    NEEDS_TARGET,
    NO_SUIT,
    RESULT_EXPECTED,
    TARGET_EXPECTED,
    LogAdvice,
    LogError,
    LogErrorCode,
    LogSyntaxError,
)
from sunlog.notation.game import Game, GameMove, Tag, result_of_token
from sunlog.notation.resources import grammar_text
from sunlog.notation.slips import invisible, look_alike, meant_word, plain
from sunlog.notation.terminals import SPACES, patterns
from sunlog.notation.tokens import (
    bad_escape,
    comment_text,
    result_regex,
    tag_parts,
    unescape,
)
from sunlog.notation.words import (
    CARD_RE,
    CARD_SHAPE,
    KEYWORDS,
    RANK,
    RANK_HINTS,
    RANK_RE,
    SUIT,
    SUIT_CHARS,
    TARGET,
    TEN_WITH_O,
    Before,
)

__all__ = ["lark_parser", "parse_game"]


class _Build(Transformer[Token, Any]):
    """Inline transformer: turns parse events into tagged tuples for :func:`_assemble`."""

    def tag(self, children: list[Token]) -> tuple[str, Token]:
        return ("tag", children[0])

    def comment(self, children: list[Token]) -> tuple[str, Token]:
        return ("comment", children[0])

    def result(self, children: list[Token]) -> tuple[str, Token]:
        return ("result", children[0])

    def card(self, children: list[Token]) -> Token:
        return children[0]

    def deal(self, children: list[Token]) -> tuple[Token, Move, int]:
        cards = _cards(children[1:]) if len(children) > 1 else None
        return children[0], Move.deal(cards), children[-1].end_pos or 0

    def wind(self, children: list[Token]) -> tuple[Token, Move, int]:
        cards = _cards(children[1:]) if len(children) > 1 else None
        return children[0], Move.wind(cards), children[-1].end_pos or 0

    def open(self, children: list[Token]) -> tuple[Token, Move, int]:
        return children[0], Move.open(_number(children[1])), children[1].end_pos or 0

    def gather(self, children: list[Token]) -> tuple[Token, Move, int]:
        return children[0], Move.gather(_number(children[1])), children[1].end_pos or 0

    def card_move(self, children: list[Token]) -> tuple[Token, Move, int]:
        token = children[0]
        try:
            return token, Move.parse_card_move(token), token.end_pos or 0
        except InvalidMoveError as exc:  # the grammar and the move regex disagree
            raise _TokenError(token, str(exc), in_move=True) from None

    def move(self, children: list[Any]) -> tuple[str, Any]:
        number = children.pop(0) if isinstance(children[0], Token) else None
        if number is not None:
            _number(number, number[:-1])
        (first, move, end), *rest = children
        annotation = rest[0] if rest else None
        if annotation is not None and annotation.start_pos != end:
            raise _TokenError(
                annotation,
                "an annotation is joined to its move, without a space before it",
                in_move=True,
                own=0,
            )
        return ("move", (number, first, move, annotation))


class _TokenError(Exception):
    """A token the grammar accepts but whose content is wrong (raised during parsing)."""

    def __init__(self, token: Token, message: str, *, in_move: bool = False, own: int = 1) -> None:
        super().__init__(message)
        self.token, self.message, self.in_move = token, message, in_move
        self.own = own  # 1: the fault is in the next move; 0: in the last one parsed


def _number(token: Token, digits: str | None = None) -> int:
    """A ray number or move number; too many digits is an error at the token."""
    try:
        return int(check_digits(token if digits is None else digits))
    except InvalidMoveError as exc:
        raise _TokenError(token, str(exc), in_move=True) from None


def _cards(tokens: list[Token]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in tokens)


@cache
def lark_parser() -> Lark:
    """The grammar's LALR parser, built once (it takes a tenth of a second)."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        start="game",
        transformer=_Build(),
        maybe_placeholders=False,
    )


_parser = lark_parser


def _unescape(token: Token, raw: str) -> str:
    """Undo ``\\"`` and ``\\\\``; any other escape is an error (SPEC 5.1)."""
    bad = bad_escape(raw)
    if bad is not None:
        raise _TokenError(
            token,
            f"unknown escape '\\{bad}' in a tag value: only \\\" and \\\\ are allowed",
        )
    value = unescape(raw)
    assert value is not None  # every escape is one of the two
    return value


class _Locator:
    """Turns positions inside a game's text into positions in its file."""

    def __init__(self, line: int, column: int) -> None:
        self.line, self.column = line, column

    def __call__(self, line: int, column: int) -> tuple[int, int]:
        if line == 1:
            return self.line, self.column + column - 1
        return self.line + line - 1, column

    def token(self, token: Token) -> tuple[int, int]:
        return self(token.line or 1, token.column or 1)

    def at(self, text: str, pos: int) -> tuple[int, int]:
        """The file's line and column of offset ``pos`` of the game's ``text``."""
        return self(text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos))


def _assemble(items: list[tuple[str, Any]], where: _Locator, index: int) -> Game:
    """Build a :class:`Game` from the parsed items, attaching comments to moves."""
    tags: list[Tag] = []
    start_comments: list[str] = []
    moves: list[dict[str, Any]] = []
    result = None
    result_pos: tuple[int, int] | tuple[None, None] = (None, None)
    for kind, value in items:
        if kind == "move":
            number, first, move, annotation = value
            line, column = where.token(first)
            moves.append(
                {
                    "move": move,
                    "text": str(first) if move.kind is MoveKind.CARD else str(move),
                    "number": int(number[:-1]) if number is not None else None,
                    "annotation": str(annotation) if annotation is not None else None,
                    "comments": [],
                    "line": line,
                    "column": column,
                }
            )
        elif kind == "comment":
            (moves[-1]["comments"] if moves else start_comments).append(comment_text(value))
        elif kind == "tag":
            name, raw = tag_parts(value)
            line, column = where.token(value)
            tags.append(Tag(name, _unescape(value, raw), line, column))
        else:
            result = result_of_token(str(value))
            result_pos = where.token(value)
    first_line = where.line
    return Game(
        tags=tuple(tags),
        moves=tuple(
            GameMove(
                m["move"],
                m["text"],
                m["number"],
                m["annotation"],
                tuple(m["comments"]),
                m["line"],
                m["column"],
            )
            for m in moves
        ),
        result=result,
        comments=tuple(start_comments),
        index=index,
        line=first_line,
        column=where.column,
        result_line=result_pos[0],
        result_column=result_pos[1],
    )


def parse_game(text: str, line0: int, column0: int, index: int) -> Game:
    """Parse one game's text, which starts at ``line0:column0`` of its file.

    A syntax error yields the moves before it, with ``game.error`` set: the moves before
    the move at fault, so that the error's ``move`` is one more than their number."""
    where = _Locator(line0, column0)
    try:
        return replace(_assemble(_parse_items(text), where, index), text=text)
    except _TokenError as exc:
        error, cut = _token_error(exc, text, where, index)
    except UnexpectedInput as exc:
        error, cut = _explain(exc, text, where, index)
    prefix = None
    while prefix is None:
        try:
            prefix = _assemble(_parse_items(text[:cut]), where, index)
        except _TokenError as exc:  # a fault before, found now that the text stops sooner
            error, cut = _token_error(exc, text, where, index)  # (r3:AS>A ! ♠: at the !)
        except UnexpectedInput:
            break
    moves = prefix.moves if prefix is not None else ()
    if error.move is not None:
        error.move = len(moves) + 1
    tags = prefix.tags if prefix is not None else ()
    comments = prefix.comments if prefix is not None else ()
    return Game(
        tags=tags,
        moves=moves,
        comments=comments,
        index=index,
        line=line0,
        column=column0,
        error=error,
        text=text,
    )


def _parse_items(text: str) -> list[tuple[str, Any]]:
    """The game's items as :class:`_Build` makes them: ``(kind, value)`` pairs."""
    # The parser's transformer turns each child of the game into such a pair.
    return cast("list[tuple[str, Any]]", _parser().parse(text).children)


def _not_a_card(word: str, stage: str) -> str:
    """Why ``word`` in the cards of a deal or wind is not a card, and what a card is."""
    shown = clip(word)
    if "," in word:
        return (
            f"'{shown}' is not a card: the cards of a {stage} are separated by spaces, not commas"
        )
    if RANK_RE.fullmatch(word):
        return f"'{shown}' is not a card: it has no suit; {CARD_SHAPE}"
    plain, why = _without_selectors(word)
    if why and CARD_RE.fullmatch(plain):
        return f"'{shown}' is not a card: {why}: write {plain}"
    if _SUIT_FIRST_CARD.fullmatch(word):
        meant = word[1:] + word[0]
        return f"'{shown}' is not a card: it is written rank first, then suit: write {meant}"
    rank, suit = word[:-1], word[-1:]
    if suit in SUIT_CHARS and rank in RANK_HINTS:
        return f"'{shown}' is not a card: {CARD_SHAPE} ({RANK_HINTS[rank]})"
    if (
        suit in SUIT_CHARS
        and "o" in rank.lower()
        and RANK_RE.fullmatch(rank.lower().replace("o", "0"))
    ):
        return f"'{shown}' is not a card: {CARD_SHAPE} ({TEN_WITH_O})"
    return f"'{shown}' is not a card: {CARD_SHAPE}"


def _token_error(exc: _TokenError, text: str, where: _Locator, index: int) -> tuple[LogError, int]:
    """A token whose content is wrong: the error at it, and where the move at fault begins
    (the move before it for a detached annotation)."""
    line, column = where.token(exc.token)
    pos = exc.token.start_pos or 0
    error = LogSyntaxError(
        exc.message,
        line=line,
        column=column,
        game=index,
        move=1 if exc.in_move else None,
        code=_SYNTAX,
    )
    if not exc.in_move:
        return error, pos
    before = Before.read(text, pos)
    return error, before.last_start if exc.own == 0 else before.move_start(pos)


_WORD = re.compile(r"\S+")
_NEXT_WORD = re.compile(r"\s*(\S*)")
_SOURCE_RE = re.compile(r"r\d+(?:\.\d+)?|c\d+(?:\.[lr])?|w(?:\.[lr])?|[ak]", re.IGNORECASE)
_TARGET_RE = re.compile(TARGET, re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"[0-9]+\.")
_JOINED_NUMBER = re.compile(r"[0-9]+\.(?=\S)")
_JOINED_ANNOTATION = re.compile(r"(.+?)([!?]+)")
_CARD_MOVE_WORD = re.compile(patterns()["CARD_MOVE"])
# An unknown word's message offers a result token besides a move (record drops that).
_RESULT_ADVICE = frozenset({LogAdvice.RESULT})
_SYNTAX, _NO_TARGET, _NO_CARD = (
    LogErrorCode.SYNTAX,
    LogErrorCode.TARGET_EXPECTED,
    LogErrorCode.CARD_EXPECTED,
)
_MISSPELLED, _LOOK_ALIKE, _DEAL_LEFT_OUT = (
    LogErrorCode.MISSPELLED,
    LogErrorCode.LOOK_ALIKE,
    LogErrorCode.DEAL_LEFT_OUT,
)


def _explain(exc: UnexpectedInput, text: str, where: _Locator, index: int) -> tuple[LogError, int]:
    """Turn a Lark error into a player's sentence, at the start of the offending word; and
    where the move at fault begins (its move number included), for the moves before it."""
    unexpected = exc.token.type if isinstance(exc, UnexpectedToken) else None
    at_end = isinstance(exc, UnexpectedEOF) or unexpected == "$END"
    if at_end:
        pos = len(text.rstrip())
    else:
        pos = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
    at = pos
    if not at_end and at < len(text) and text[at].isspace() and text[at] not in SPACES:
        return _odd_space(text, at, where, index)
    floor = Before.floor(text, pos)  # a tag or comment glued to the word is no part of it
    while pos > floor and not text[pos - 1].isspace():
        pos -= 1
    joined = _JOINED_NUMBER.match(text, pos)
    if joined is not None and not at_end and at >= joined.end():
        pos = joined.end()  # 12.r5:QX>K: the move after its number is at fault
    m = _WORD.match(text, pos)
    word = m.group() if m else ""
    found = f"'{clip(word)}'" if word else END_OF_GAME
    line, column = where.at(text, pos)
    expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    previous = clip(_previous_word(text, pos))
    before = Before.read(text, len(text) if at_end else pos)
    shown = word
    if at_end:  # the game ends too early: explain what the last word lacks, placed at it
        message, code, in_move = _diagnose("", END_OF_GAME, expected, clip(word), None, before)
        cut = before.move_start(pos)
    else:
        follows = _NEXT_WORD.match(text, pos + len(word))
        next_word = follows.group(1) if follows else ""
        alike = _slip(word)
        apart = None if alike else _apart_move(text, pos, word, floor)
        if apart is not None:  # deal AH > A: AH may have been read as a card of the deal
            pos, message, written = apart
            line, column = where.at(text, pos)
            error = LogSyntaxError(
                message, line=line, column=column, game=index, move=1, code=_SYNTAX
            )
            error.text = written
            return error, Before.read(text, pos).move_start(pos)
        if before.names_card(word, next_word):  # a card of the deal or wind is mistyped
            stage = before.stage.lower() if before.stage else "deal"
            message, code, in_move = _not_a_card(word, stage), _SYNTAX, True
            shown = before.stage_text(text, pos, word)
            cut = before.stage_start
        elif (dealt := _deal_left_out(text, pos)) is not None:  # 3H 5S ... JC: deal missing?
            message, code, in_move = dealt, _DEAL_LEFT_OUT, True
            cut = before.move_start(pos)
        else:
            message, code, in_move = _diagnose(
                clip(word), found, expected, previous, unexpected, before, next_word
            )
            if word.startswith("["):
                message += _tag_hint(text, pos)
            cut = before.move_start(pos)
            if unexpected == "ANNOTATION" and before.takes_card(word.rstrip("!?")):
                cut = before.stage_start  # deal ... 7C!!!: the annotation is the deal's
            if cut != pos and before.number is None:  # open x: the move as written so far
                shown = before.stage_text(text, pos, word)
        if alike is not None:  # c3:АC>K with a Cyrillic А: named, at its own column
            at, what, code = alike
            meant = plain(word)
            message = f"{what}: write {clip(meant)}" if _readable(meant) else what
            line, column = where.at(text, pos + at)
    error = LogSyntaxError(
        message,
        code=code,
        line=line,
        column=column,
        game=index,
        move=1 if in_move else None,
        text=shown,
        at_end=at_end or not word,
        advice=_RESULT_ADVICE if code is LogErrorCode.UNKNOWN_WORD else frozenset(),
    )
    if not in_move:  # the moves before it are the whole ones (gather {4: not the gather)
        error.text = None
        cut = before.move_start(pos)
    return error, cut


def _readable(word: str) -> bool:
    """Whether ``word`` is one whole word of the notation: a card move, a card, a move word
    or a result."""
    return bool(
        _CARD_MOVE_WORD.fullmatch(word)
        or CARD_RE.fullmatch(word)
        or word.lower() in KEYWORDS
        or result_regex().fullmatch(word)
    )


def _slip(word: str) -> tuple[int, str, LogErrorCode] | None:
    """Where in ``word`` a character stands that is not what it looks like (a letter of
    another alphabet, a character drawn as nothing), what it is, and its code."""
    if not _meant_as_notation(word):
        return None
    alike = look_alike(word)
    if alike is not None:
        return (*alike, _LOOK_ALIKE)
    hidden = invisible(word)
    return None if hidden is None else (*hidden, LogErrorCode.INVISIBLE)


def _meant_as_notation(word: str) -> bool:
    """Whether ``word`` (no comment or tag) reads as the notation once its look-alike
    letters are Latin, or is short or marked enough to be meant as a card or a card move
    (``АC``, ``c3:АC>Ｋ``); a word of Russian text is not."""
    if word[:1] in ("{", "[", ";"):
        return False
    return _readable(plain(word)) or ":" in word or ">" in word or len(word) <= 4


_LINE_END = re.compile(r"[\n{;]")


def _deal_left_out(text: str, pos: int) -> str | None:
    """For a card at ``pos`` that begins a line (after a move number, if any) on which
    13 cards stand and then no more: what a deal without its word ``deal`` is told."""
    start = text.rfind("\n", 0, pos) + 1
    head = text[start:pos].split()
    if len(head) > 1 or (head and not _MOVE_NUMBER.fullmatch(head[0])):
        return None
    end = _LINE_END.search(text, pos)
    words = text[pos : end.start() if end else len(text)].split()
    cards = words[:RAYS]
    if len(cards) < RAYS or not all(CARD_RE.fullmatch(w) for w in cards):
        return None
    if len(words) > RAYS and CARD_RE.fullmatch(words[RAYS]):
        return None
    return (
        f"this line names {RAYS} cards without deal before them: is deal missing? "
        f"write deal {' '.join(cards)}"
    )


_CURLY_QUOTES = "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2018\u2019\u201a\u201b"
_UNQUOTED_TAG = re.compile(r"\[[ \t]*([A-Za-z0-9_]+)[ \t]+([^\"\]\s][^\"\]]*?)[ \t]*\]")
_UNCLOSED_TAG = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*("(?:[^"\\\n]|\\.)*")[ \t]*$')


def _tag_hint(text: str, pos: int) -> str:
    """What a broken tag at ``pos`` gets wrong, when it is one of the usual slips: curly
    quotes (a word processor's), a value without quotes, no closing ``]``."""
    end = text.find("\n", pos)
    line = text[pos : end if end >= 0 else len(text)].rstrip()
    if any(quote in line for quote in _CURLY_QUOTES):
        return "; here the quotes are curly: a tag's value is in straight double quotes (\")"
    if (m := _UNQUOTED_TAG.match(line)) is not None:
        return f'; its value is not quoted: write [{m.group(1)} {clip(chr(34) + m.group(2))}"]'
    if (m := _UNCLOSED_TAG.match(line)) is not None:
        return f"; it is not closed: write [{m.group(1)} {clip(m.group(2))}]"
    return ""


#: Names for the white space among the control characters, which Unicode leaves unnamed.
_CONTROL_SPACES = {
    "\x0b": "vertical tab",
    **{c: "information separator" for c in "\x1c\x1d\x1e\x1f"},
    "\x85": "next-line character",
}


def _odd_space(text: str, at: int, where: _Locator, index: int) -> tuple[LogError, int]:
    """White space the grammar does not know (a no-break space pasted from a web page, a
    vertical tab) where the lexer stopped: named, with the words on either side of it."""
    import unicodedata

    char = text[at]
    name = _CONTROL_SPACES.get(char) or unicodedata.name(char, "white space").lower()
    before = text[:at].split()
    after = text[at + 1 :].split(maxsplit=1)
    between = ""
    if before and after:
        between = f", between {clip(before[-1])!r} and {clip(after[0])!r}"
    message = (
        f"white space the notation does not know stands here{between}: {name} "
        f"(U+{ord(char):04X}); words are apart by spaces, tabs and line breaks only (text "
        "pasted from a web page or a word processor may hold such a space)"
    )
    line, column = where.at(text, at)
    error = LogSyntaxError(message, line=line, column=column, game=index, code=_SYNTAX)
    return error, Before.read(text, at).move_start(at)  # a move it ends stays whole


def _apart_move(text: str, pos: int, word: str, floor: int) -> tuple[int, str, str] | None:
    """A card move written in two to five words (``AH > A``, ``r5: AH>A``, ``r5 : AH > A``):
    where it begins, the message naming it as one word, and the words as written; or
    ``None`` when the words at ``pos`` make no card move when joined."""
    start = pos
    if word[:1] in (">", ":"):  # the card or source before it may have been read already
        end = len(text[:pos].rstrip())
        start = end
        while start > floor and not text[start - 1].isspace():
            start -= 1
        if start == end:
            return None
    words = text[start:].split(maxsplit=5)[:5]
    for k in (5, 4, 3, 2):
        joined = "".join(words[:k])
        if len(words) >= k and _CARD_MOVE_WORD.fullmatch(joined):
            written = " ".join(words[:k])
            return start, f"a card move is one word, without spaces: write {clip(joined)}", written
    if len(words) >= 2:  # r5 QD>K, r5:QD K: the ':' or the '>' left out for a space
        first, second = words[0], words[1]
        for glue, what in ((":", "a source and its card"), (">", "a card and its target")):
            joined = first + glue + second
            if glue not in (first[-1:], second[:1]) and _CARD_MOVE_WORD.fullmatch(joined):
                message = f"{what} are joined by '{glue}', without a space: write {clip(joined)}"
                return start, message, f"{first} {second}"
    return None


def _previous_word(text: str, pos: int) -> str:
    words = text[:pos].split()
    return words[-1] if words else ""


def _diagnose(
    word: str,
    found: str,
    expected: set[str],
    previous: str,
    unexpected: str | None,
    before: Before,
    next_word: str = "",
) -> tuple[str, LogErrorCode, bool]:
    """The message for an unreadable ``word``, its code, and whether it is part of a move.

    ``unexpected`` is the type of the token the parser did not expect, or ``None`` when no
    token could be read at all; ``before`` what the text before the word leaves open,
    ``next_word`` the word after it."""
    if _MOVE_NUMBER.fullmatch(previous) and (unexpected is not None or not word):
        if ">" in word or ":" in word or CARD_RE.fullmatch(word) or meant_word(word):
            # 4. 3X>A, 4. 3D, 4. dael: a move, mistyped: said as without the number
            return *_diagnose_move(word, found, next_word), True
        return f"a move number must be followed by a move, found {found}", _SYNTAX, True
    if word.startswith("{") and unexpected is None:
        return "this { comment is never closed: a } must end it", _SYNTAX, False
    if word.startswith("["):
        return (
            'a tag is written [Name "value"]: a name of letters, digits and _, a value in '
            'double quotes on one line, with \\" and \\\\ the only escapes',
            _SYNTAX,
            False,
        )
    if expected & {"RAY_NUMBER"} and previous.lower() in ("open", "gather"):
        return (
            f"expected a ray number 1 to 13 after '{previous.lower()}', found {found}",
            _SYNTAX,
            True,
        )
    joined = _JOINED_ANNOTATION.fullmatch(word)
    if unexpected == "ANNOTATION" and joined:
        return (
            "an annotation is one of ! ? !! ?? !? ?!, joined to the end of its move; "
            f"found '{joined.group(2)}' after '{joined.group(1)}'",
            _SYNTAX,
            True,
        )
    if expected == {"ANNOTATION"} or word[:1] in "!?":
        return f"an annotation (! ? !! ?? !? ?!) must follow a move, found {found}", _SYNTAX, True
    if expected and expected <= {"$END", "<END-OF-FILE>"} and unexpected is not None:
        return (
            f"the game ended at its result token, so {found} cannot follow it "
            "(a result token stands apart from its move, after white space)",
            _SYNTAX,
            False,
        )
    if result_regex().fullmatch(word):
        return f"a result token ends a game; it cannot follow {previous!r}", _SYNTAX, False
    if re.fullmatch(r"\d+[.)]?", word) and not word.isascii():  # ١. ３.: digits of a script
        return f"a move number is written in the digits 0 to 9, found {found}", _SYNTAX, True
    if re.fullmatch(r"\d+[.)]?", word):  # 3, 3) as people number lists: 3.
        if previous.endswith("."):
            return f"a move number must be followed by a move, found {found}", _SYNTAX, True
        number = word.rstrip(".)")
        return f"a move number is written with a dot, as '{number}.', found {found}", _SYNTAX, True
    if not word:
        if previous.lower() in ("open", "gather"):
            return (
                f"expected a ray number 1 to 13 after '{previous.lower()}', found {found}",
                _SYNTAX,
                True,
            )
        return f"expected a move, found {found}", _SYNTAX, True
    if before.moves == 0 and CARD_RE.fullmatch(word):
        return (
            f"expected a move, found the card {found}: a game starts with deal (deal C1 ... "
            "C13 names the cards dealt when the tags do not give the deck)",
            _SYNTAX,
            True,
        )
    return *_diagnose_move(word, found, next_word), True


_GLUED_KEYWORD = re.compile(r"(deal|open|gather|wind)(?=[^\W_]|[♠♥♦♣♤♡♢♧])", re.IGNORECASE)


# Typos a hand-written card move makes: tried in turn on a word that is no card move, the
# first that makes one is named, with what it gets wrong (_repaired).
_ARROW = re.compile(r"(?:-|=|–|—|>)+>|→")
_SEPARATOR = re.compile(r"^(r\d+(?:\.\d+)?|c\d+(?:\.[lr])?|w(?:\.[lr])?)[-.;,/=_]", re.I)
_ODD_RANK = re.compile(r"(?<![0-9])(1[oO]|1[1-3]?|0)(?=[SHDCshdc♠♥♦♣♤♡♢♧])")
_RANK_FIXES = {"1o": "10", "1O": "10", "1": "A", "0": "10", "11": "J", "12": "Q", "13": "K"}
# The card of a move written suit first (r5:SQ>K, CA>A), and a card run into its target.
_SUIT_FIRST = re.compile(f"(^|:)({SUIT})({RANK})(?=>)", re.IGNORECASE)
_NO_ARROW = re.compile(f"^(.*{RANK}{SUIT})({TARGET})$", re.IGNORECASE)
_SUIT_FIRST_CARD = re.compile(SUIT + RANK, re.IGNORECASE)
# The invisible variation selectors that phones and web pages put after a suit symbol
# (♣️ is ♣ and U+FE0F): the notation's suit symbols stand alone.
_VARIATION = re.compile("[\ufe0e\ufe0f]")
_SYMBOL_LETTERS = str.maketrans("♠♥♦♣♤♡♢♧", "SHDCSHDC")


def _without_selectors(word: str) -> tuple[str, str]:
    """``word`` without variation selectors, its suit symbols as letters (``A♣️`` as AC),
    and what was wrong."""
    found = _VARIATION.search(word)
    if found is None:
        return word, ""
    why = (
        f"an invisible U+{ord(found.group()):04X} (a variation selector, which phones and "
        "web pages add to suit symbols) follows the suit"
    )
    return _VARIATION.sub("", word).translate(_SYMBOL_LETTERS), why


def _odd_rank(word: str) -> tuple[str, str]:
    """``word`` with a rank written as a number (1, 11-13, 0, 1O) as the notation writes it."""
    found = _ODD_RANK.search(word)
    if found is None:
        return word, ""
    rank = found.group(1)
    why = TEN_WITH_O if rank.lower() == "1o" else RANK_HINTS[rank]
    return word[: found.start()] + _RANK_FIXES[rank] + word[found.end() :], why


_REPAIRS: tuple[Callable[[str], tuple[str, str]], ...] = (
    lambda w: (_ARROW.sub(">", w), "the arrow is written > alone"),
    lambda w: (_SEPARATOR.sub(r"\1:", w), "a source and its card are joined by ':'"),
    lambda w: (w.rstrip(",.;"), "moves are separated by spaces only"),
    _odd_rank,
    lambda w: (_SUIT_FIRST.sub(r"\1\3\2", w), "a card is written rank first, then suit"),
    lambda w: (_NO_ARROW.sub(r"\1>\2", w), "a card and its target are joined by '>'"),
    _without_selectors,
)


def _repaired(word: str) -> str | None:
    """What a word that is no card move gets wrong, and the move it then is
    (``r1:AC->A``: the arrow is written > alone: write r1:AC>A); ``None`` if no typo of
    :data:`_REPAIRS` makes it one."""
    for repair in _REPAIRS:
        fixed, why = repair(word)
        if fixed != word and _CARD_MOVE_WORD.fullmatch(fixed):
            return f"{why}: write {clip(fixed)}"
    return None


def _source_and_card(written: str) -> tuple[str, LogErrorCode] | None:
    """What is wrong with ``SOURCE:CARD`` (a card move's part before ``>``), if anything."""
    source, _, card = written.partition(":")
    if not _SOURCE_RE.fullmatch(source):
        return (
            "expected a source before ':' like r5, r5.2, c1, c1.L, w, w.R, A or K, "
            f"found '{source}'",
            _SYNTAX,
        )
    if RANK_RE.fullmatch(card):
        return f"'{card}' {NO_SUIT}; {CARD_SHAPE}", _NO_CARD
    if not CARD_RE.fullmatch(card):
        found = f"'{card}'" if card else "none"
        return f"{CARD_EXPECTED}, found {found}", _NO_CARD
    return None


# What a chess player's hand writes from PGN habit: a result, and a variation.
_CHESS_RESULTS = ("1-0", "0-1", "1/2-1/2", "½-½", "0-0", "1:0", "0:1")
_VARIATION_MARKS = ("(", ")")


def _diagnose_move(word: str, found: str, next_word: str = "") -> tuple[str, LogErrorCode]:
    if word in _CHESS_RESULTS:
        return f"a result is written won, lost or * (unfinished), found {found}", _SYNTAX
    if word.startswith(_VARIATION_MARKS) or word.endswith(_VARIATION_MARKS):
        return (
            "a log holds the moves played, without variations in parentheses (a line "
            f"not played can go in a comment {{ }}); found {found}",
            _SYNTAX,
        )
    glued = _GLUED_KEYWORD.match(word)
    if glued is not None:
        keyword = glued.group(1).lower()
        return (
            f"a space must follow {keyword!r}: write {keyword} {clip(word[glued.end() :])}",
            _SYNTAX,
        )
    if not _CARD_MOVE_WORD.fullmatch(word) and (repaired := _repaired(word)) is not None:
        return repaired, _SYNTAX
    ends = (  # nothing of the move follows: the game ends, or the next move begins
        not next_word
        or result_regex().fullmatch(next_word)
        or _CARD_MOVE_WORD.fullmatch(next_word)
        or next_word.lower() in ("deal", "open", "gather", "wind")
    )
    if ends and word.endswith(">") and ">" not in word[:-1]:
        return (
            f"{TARGET_EXPECTED}: A or K (in sun-3 A, A1, A2 or an empty ray like r5), found none",
            _NO_TARGET,
        )
    if ends and word.endswith(":") and ":" not in word[:-1]:
        return f"{CARD_EXPECTED}, found none", _NO_CARD
    apart = next_word[:1] in (">", ":") or word.endswith((">", ":"))
    if apart and not _CARD_MOVE_WORD.fullmatch(word):
        return (
            "a card move is one word, without spaces, like r5:QD>K; "
            f"found {found} and then {clip(next_word)!r}",
            _SYNTAX,
        )
    if ">" in word:
        before, _, after = word.partition(">")
        if not _TARGET_RE.fullmatch(after):
            return (
                f"{TARGET_EXPECTED}: A or K (in sun-3 A, A1, A2 or an empty ray like r5), "
                f"found '{after}'",
                _NO_TARGET,
            )
        if ":" in before:
            wrong = _source_and_card(before)
            if wrong is not None:
                return wrong
        elif RANK_RE.fullmatch(before) and before.lower() not in ("a", "k"):
            return f"'{before}' before '>' has no suit; {CARD_SHAPE}", _SYNTAX
        elif not (_SOURCE_RE.fullmatch(before) or CARD_RE.fullmatch(before)):
            return (
                "expected a card like QD or 10H, or a source like r5, before '>', "
                f"found '{before}'",
                _SYNTAX,
            )
        return f"a card move is SOURCE:CARD>TARGET, like r5:QD>K; found {found}", _SYNTAX
    if ":" in word and (wrong := _source_and_card(word)) is not None:
        return wrong
    if ":" in word or _SOURCE_RE.fullmatch(word) or CARD_RE.fullmatch(word):
        return f"{NEEDS_TARGET}: SOURCE:CARD>TARGET, like r5:QD>K; found {found}", _NO_TARGET
    # (A word meant as a card of the deal or wind before it is explained before this.)
    meant = meant_word(word)
    if meant is not None:
        return f"{found} is no word of the notation: did you mean {meant}?", _MISSPELLED
    return (
        "expected a move (deal, open N, gather N, wind, or a card move like r5:QD>K)"
        f"{RESULT_EXPECTED}, found {found}",
        LogErrorCode.UNKNOWN_WORD,
    )


def comments_in(text: str, line0: int, column0: int) -> tuple[str, ...]:
    """The comments of a text that holds nothing else (what follows a file's last game)."""
    try:
        return _assemble(_parse_items(text), _Locator(line0, column0), 0).comments
    except (UnexpectedInput, _TokenError):
        return ()
