"""The fast path of the reader: one regex pass over a game's text, no parse tree.

The token patterns are taken from the Lark grammar itself, so ``grammar/sun.lark`` stays
the one definition of the notation. Valid games (nearly all of them) are read here several
times faster than through Lark; at the first token that does not fit, :func:`scan_game`
returns ``None`` and the reader parses that game with Lark, which explains the error.
Tests check that both paths build the same games.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Lark

from sunlog.cards import Card
from sunlog.errors import InvalidMoveError
from sunlog.game import Game, GameMove, Tag
from sunlog.moves import Move, MoveKind

__all__ = ["Scanner"]

_ORDER = (
    "TAG",
    "BRACE_COMMENT",
    "LINE_COMMENT",
    "MOVE_NUMBER",
    "DEAL",
    "OPEN",
    "GATHER",
    "WIND",
    "RESULT",
    "CARD_MOVE",
    "CARD",
    "RAY_NUMBER",
    "ANNOTATION",
)
_TAG_PARTS = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_BAD_ESCAPE = re.compile(r'\\[^"\\]')
_ESCAPE = re.compile(r"\\(.)")


class _Unfit(Exception):
    """The text leaves the fast path: let Lark read it and explain."""


class Scanner:
    """Reads one game's text with a master regex made from the grammar's terminals."""

    def __init__(self, parser: Lark) -> None:
        patterns = {t.name: t.pattern.to_regexp() for t in parser.terminals}
        ws = patterns["WS"]
        alternatives = "|".join(f"(?P<{name}>{patterns[name]})" for name in _ORDER)
        self._token = re.compile(f"(?:{ws})?(?:{alternatives})")
        self._trailing = re.compile(f"(?:{ws})?\\Z")

    def scan_game(self, text: str, line0: int, column0: int, index: int) -> Game | None:
        """The game in ``text`` (which starts at ``line0:column0`` of its file), or None."""
        try:
            return self._scan(text, line0, column0, index)
        except _Unfit:
            return None

    def _scan(self, text: str, line0: int, column0: int, index: int) -> Game:
        match = self._token.match
        tags: list[Tag] = []
        start_comments: list[str] = []
        moves: list[GameMove] = []
        result = None
        result_pos: tuple[int | None, int | None] = (None, None)
        # The move being read: its number token, first token, kind and named cards.
        number: int | None = None
        pending: list[Any] | None = None  # [kind, first_start, cards, ray, card_move]
        comments: list[str] = start_comments
        commented: list[tuple[int, list[str]]] = []  # (move index, its comments)
        line, line_start = line0, -column0 + 1  # line_start: offset of the line's column 1
        counted = 0
        pos = 0
        end_prev = 0
        n = len(text)
        while pos < n:
            m = match(text, pos)
            if m is None:
                if self._trailing.match(text, pos):
                    break
                raise _Unfit
            kind = m.lastgroup
            start = m.start(kind)  # type: ignore[arg-type]
            pos = m.end()
            if kind == "CARD":
                if pending is None or pending[2] is None or pending[5] is not None:
                    raise _Unfit
                try:
                    pending[2].append(Card.parse(m.group(kind)))  # type: ignore[arg-type]
                except ValueError:
                    raise _Unfit from None
                end_prev = pos
                continue
            if kind == "RAY_NUMBER":
                if pending is None or pending[3] != -1:
                    raise _Unfit
                pending[3] = int(m.group(kind))  # type: ignore[arg-type]
                end_prev = pos
                continue
            if pending is not None and pending[3] == -1:
                raise _Unfit  # open/gather without its ray number
            if kind == "ANNOTATION":
                if pending is None or start != end_prev:
                    raise _Unfit
                pending[5] = m.group(kind)
                end_prev = pos
                continue
            # Anything else ends the move being read.
            if pending is not None:
                comments = _finish(pending, moves)
                commented.append((len(moves) - 1, comments))
                pending = None
            if kind in ("BRACE_COMMENT", "LINE_COMMENT"):
                if number is not None:
                    raise _Unfit
                raw = m.group(kind)  # type: ignore[arg-type]
                comments.append(raw[1:-1].strip() if kind == "BRACE_COMMENT" else raw[1:].strip())
                end_prev = pos
                continue
            # Tokens with positions to report: find their line and column.
            newlines = text.count("\n", counted, start)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", counted, start) + 1
            counted = start
            column = start - line_start + 1
            if kind == "MOVE_NUMBER":
                if number is not None:
                    raise _Unfit
                number = int(m.group(kind)[:-1])  # type: ignore[index]
            elif kind == "CARD_MOVE":
                token = m.group(kind)
                try:
                    move = Move.parse_card_move(token)  # type: ignore[arg-type]
                except InvalidMoveError:
                    raise _Unfit from None
                pending = [MoveKind.CARD, token, None, None, move, None, number, line, column]
                number = None
            elif kind in ("DEAL", "WIND"):
                mk = MoveKind.DEAL if kind == "DEAL" else MoveKind.WIND
                pending = [mk, None, [], None, None, None, number, line, column]
                number = None
            elif kind in ("OPEN", "GATHER"):
                mk = MoveKind.OPEN if kind == "OPEN" else MoveKind.GATHER
                pending = [mk, None, None, -1, None, None, number, line, column]
                number = None
            elif kind == "TAG":
                if moves or number is not None:
                    raise _Unfit
                parts = _TAG_PARTS.fullmatch(m.group(kind))  # type: ignore[arg-type]
                if parts is None or _BAD_ESCAPE.search(parts.group(2)):
                    raise _Unfit
                value = parts.group(2)
                if "\\" in value:
                    value = _ESCAPE.sub(r"\1", value)
                tags.append(Tag(parts.group(1), value, line, column))
            else:  # RESULT
                if number is not None:
                    raise _Unfit
                result = m.group(kind).lower()  # type: ignore[union-attr]
                result_pos = (line, column)
                if not self._trailing.match(text, pos):
                    raise _Unfit
                break
            end_prev = pos
        if pending is not None:
            if pending[3] == -1:
                raise _Unfit
            commented.append((len(moves) - 1, _finish(pending, moves)))
        if number is not None:
            raise _Unfit
        for i, notes in commented:
            if notes:
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


def _finish(pending: list[Any], moves: list[GameMove]) -> list[str]:
    """Append the move being read; return the list its comments go to."""
    kind, token, cards, ray, move, annotation, number, line, column = pending
    if kind is MoveKind.CARD:
        text = token
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
    moves.append(GameMove(move, text, number, annotation, (), line, column))
    return []
