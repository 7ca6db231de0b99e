"""The fast path of the reader: one regex pass over a game's text, no parse tree.

The token patterns are the Lark grammar's own terminals (:mod:`sunlog.notation.terminals`), so
``grammar/sun.lark`` stays the one definition of the notation. Valid games (nearly all
of them) are read here several times faster than through Lark; at the first token that
does not fit, :meth:`Scanner.scan_game` returns ``None`` and the reader parses that game
with Lark, which explains the error. Tests check that both paths build the same games.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from sunlog.engine.cards import Card
from sunlog.engine.errors import InvalidMoveError
from sunlog.engine.moves import MAX_DIGITS, PARSED_MOVES, Move, MoveKind
from sunlog.notation.game import Game, GameMove, Tag, result_of_token
from sunlog.notation.terminals import SPACES

__all__ = ["Scanner"]

# Longer and more specific terminals first, as Lark's lexer would choose them.
_ORDER = (
    "CARD_MOVE",
    "TAG",
    "BRACE_COMMENT",
    "LINE_COMMENT",
    "MOVE_NUMBER",
    "DEAL",
    "OPEN",
    "GATHER",
    "WIND",
    "RESULT",
    "CARD",
    "RAY_NUMBER",
    "ANNOTATION",
)
_TAG_PARTS = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
# A backslash escaping anything but " or \, counted from the start of a run of backslashes.
_BAD_ESCAPE = re.compile(r'(?<!\\)(?:\\\\)*\\[^"\\]')
_ESCAPE = re.compile(r"\\(.)")
_new_move = tuple.__new__  # GameMove is a named tuple: build it without keyword handling
_STAGE = {"DEAL": MoveKind.DEAL, "WIND": MoveKind.WIND, "OPEN": MoveKind.OPEN}
_STAGE["GATHER"] = MoveKind.GATHER


class _Unfit(Exception):
    """The text leaves the fast path: let Lark read it and explain."""


class Scanner:
    """Reads one game's text with a master regex made from the grammar's terminals."""

    def __init__(self, patterns: Mapping[str, str]) -> None:
        alternatives = "|".join(f"(?P<{name}>{patterns[name]})" for name in _ORDER)
        # Whatever no terminal matches (a stray character, odd white space) is UNFIT.
        self._tokens = re.compile(f"(?:{patterns['WS']})?(?:{alternatives}|(?P<UNFIT>.))", re.S)

    def tokens(self, text: str, end: int) -> Iterator[tuple[str, int, int]]:
        """The tokens of ``text[:end]`` as ``(terminal, start, end)``, ``UNFIT`` for a
        character no terminal reads: what the reader's error path walks to find a move."""
        for m in self._tokens.finditer(text, 0, end):
            kind = m.lastgroup
            assert kind is not None
            yield kind, m.start(kind), m.end(kind)

    def scan_game(self, text: str, line0: int, column0: int, index: int) -> Game | None:
        """The game in ``text`` (which starts at ``line0:column0`` of its file), or None."""
        try:
            return self._scan(text, line0, column0, index)
        except _Unfit:
            return None

    def _scan(self, text: str, line0: int, column0: int, index: int) -> Game:
        # Where a token is: ``line``, and ``base`` such that its column is start - base.
        # Tokens come in order, so the line moves on only when a token passes ``line_end``.
        line, base = line0, -column0
        line_end = text.find("\n")
        if line_end < 0:
            line_end = len(text)

        def where(offset: int) -> tuple[int, int]:
            nonlocal line, base, line_end
            if offset > line_end:
                line += text.count("\n", line_end, offset)
                base = text.rfind("\n", 0, offset)
                line_end = text.find("\n", offset)
                if line_end < 0:
                    line_end = len(text)
            return line, offset - base

        tags: list[Tag] = []
        start_comments: list[str] = []
        moves: list[GameMove] = []
        append = moves.append
        parse_card_move = Move.parse_card_move
        known = PARSED_MOVES.get
        comments: dict[int, list[str]] = {}
        result = None
        result_pos: tuple[int | None, int | None] = (None, None)
        number: int | None = None  # a move number waiting for its move
        stage: list[Any] | None = None  # a stage action still taking cards or its ray
        end_prev = -1  # where the last move's text ended, for joined annotations
        done = False
        # White space at the end is the grammar's to ignore, not a token that does not fit.
        for m in self._tokens.finditer(text, 0, len(text.rstrip(SPACES))):
            if done:
                raise _Unfit  # something after the result token
            kind = m.lastgroup
            if kind == "CARD_MOVE":
                if stage is not None:
                    _close(stage, moves)
                    stage = None
                start, end_prev = m.span(kind)
                token = m.group(kind)
                move = known(token)
                if move is None:
                    try:
                        move = parse_card_move(token)
                    except InvalidMoveError:
                        raise _Unfit from None
                if start > line_end:
                    row, column = where(start)
                else:
                    row, column = line, start - base
                append(_new_move(GameMove, (move, token, number, None, (), row, column)))
                number = None
                continue
            if kind == "CARD":
                if stage is None or stage[1] is None:
                    raise _Unfit
                stage[1].append(Card.parse(m.group(kind)))
                end_prev = m.end()
                continue
            if kind == "RAY_NUMBER":
                if stage is None or stage[2] != -1:
                    raise _Unfit
                stage[2] = int(_digits(m.group(kind)))
                end_prev = m.end()
                continue
            if kind == "ANNOTATION":
                start = m.start(kind)
                if start != end_prev or (stage is not None and stage[2] == -1):
                    raise _Unfit
                if stage is not None:
                    _close(stage, moves)
                    stage = None
                moves[-1] = moves[-1]._replace(annotation=m.group(kind))
                end_prev = -1
                continue
            if stage is not None:
                _close(stage, moves)
                stage = None
            end_prev = -1
            if kind == "BRACE_COMMENT" or kind == "LINE_COMMENT":
                if number is not None:
                    raise _Unfit
                raw = m.group(kind)
                if kind == "BRACE_COMMENT":  # CRLF inside reads as a line break
                    note = raw[1:-1].replace("\r\n", "\n").strip()
                else:
                    note = raw[1:].strip()
                if moves:
                    comments.setdefault(len(moves) - 1, []).append(note)
                else:
                    start_comments.append(note)
            elif kind in _STAGE:
                start = m.start(kind)
                mk = _STAGE[kind]
                cards: list[Card] | None = (
                    [] if mk is MoveKind.DEAL or mk is MoveKind.WIND else None
                )
                stage = [mk, cards, -1 if cards is None else None, number, *where(start)]
                end_prev = m.end()
                number = None
            elif kind == "MOVE_NUMBER":
                if number is not None:
                    raise _Unfit
                number = int(_digits(m.group(kind)[:-1]))
            elif kind == "TAG":
                if moves or number is not None:
                    raise _Unfit
                tags.append(_tag(m.group(kind), *where(m.start(kind))))
            elif kind == "RESULT":
                if number is not None:
                    raise _Unfit
                result = result_of_token(m.group(kind))
                result_pos = where(m.start(kind))
                done = True
            else:
                raise _Unfit
        if stage is not None:
            _close(stage, moves)
        if number is not None:
            raise _Unfit
        for i, notes in comments.items():
            moves[i] = moves[i]._replace(comments=tuple(notes))
        return Game(
            tags=tuple(tags),
            moves=tuple(moves),
            result=result,
            comments=tuple(start_comments),
            index=index,
            line=line0,
            column=column0,
            result_line=result_pos[0],
            result_column=result_pos[1],
        )


def _digits(text: str) -> str:
    """A number's digits; too many for a move is Lark's to explain."""
    if len(text) > MAX_DIGITS:
        raise _Unfit
    return text


def _tag(text: str, line: int, column: int) -> Tag:
    parts = _TAG_PARTS.fullmatch(text)
    if parts is None or _BAD_ESCAPE.search(parts.group(2)):
        raise _Unfit
    value = parts.group(2)
    if "\\" in value:
        value = _ESCAPE.sub(r"\1", value)
    return Tag(parts.group(1), value, line, column)


# The stage actions a log writes over and over, made once: (move, its text).
_COMMON_STAGE: dict[tuple[MoveKind, int | None], tuple[Move, str]] = {
    (MoveKind.DEAL, None): (Move.deal(), "deal"),
    (MoveKind.WIND, None): (Move.wind(), "wind"),
    **{(MoveKind.OPEN, n): (Move.open(n), f"open {n}") for n in range(1, 14)},
    **{(MoveKind.GATHER, n): (Move.gather(n), f"gather {n}") for n in range(1, 14)},
}


def _close(stage: list[Any], moves: list[GameMove]) -> None:
    """Append a finished stage action (``deal``, ``open 3``...) to the moves."""
    kind, cards, ray, number, line, column = stage
    if ray == -1:
        raise _Unfit  # open or gather without its ray number
    common = _COMMON_STAGE.get((kind, ray)) if not cards else None
    if common is not None:
        move, text = common
    else:
        if kind is MoveKind.DEAL:
            move = Move.deal(cards or None)
        elif kind is MoveKind.WIND:
            move = Move.wind(cards or None)
        elif kind is MoveKind.OPEN:
            move = Move.open(ray)
        else:
            move = Move.gather(ray)
        text = str(move)
    moves.append(_new_move(GameMove, (move, text, number, None, (), line, column)))
