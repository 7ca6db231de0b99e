"""The reader's state machine: one game's text, token by token, told to a sink.

The tokens are :mod:`sunlog.notation.tokens`' (the grammar's own terminals). The machine
knows the order the grammar allows (tags before the first move, a move number right
before its move, a deal or wind taking the cards after it, an open or gather its ray
number, an annotation joined to its move, nothing after the result) and tells a
:class:`Sink` each tag, comment, move, annotation and result as it reads it, in the
manner of python-chess's visitors: :mod:`sunlog.notation.sinks` builds a game, checks
each move on a board, or keeps the tags only. At the first token that does not fit it
raises :class:`Unfit`, and the game's text goes to Lark (:mod:`sunlog.notation.syntax`),
which explains the error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import suppress
from typing import Protocol

from sunlog.engine.cards import Card, parse_card_spelling
from sunlog.engine.errors import InvalidMoveError
from sunlog.engine.moves import MAX_DIGITS, PARSED_MOVES, Move, MoveKind
from sunlog.engine.rules import RAYS
from sunlog.notation.tokens import KINDS, Token, tag_parts, unescape

__all__ = ["Enough", "Sink", "Unfit", "read_tokens"]


class Unfit(Exception):
    """The text leaves what the state machine reads (or a sink refuses it): Lark's turn."""


class Enough(Exception):
    """Raised by a sink that has what it needs (the tags, say): reading stops there."""


class Sink(Protocol):
    """What the state machine tells as it reads; ``start`` is a token's offset in the text."""

    def tag(self, name: str, value: str, start: int) -> None: ...

    def end_headers(self) -> None:
        """The tags are over: a move, the result or the end of the text follows."""

    def comment(self, token: str) -> None:
        """A comment, with its marks (:func:`~sunlog.notation.tokens.comment_text`)."""

    def move(self, move: Move, text: str | None, number: int | None, start: int) -> None:
        """A move as written (``text``: ``None`` for a stage action to write out)."""

    def annotation(self, mark: str) -> None: ...

    def result(self, token: str, start: int) -> None: ...


# Each kind's number, as a match's lastindex gives it.
(
    _CARD_MOVE,
    _TAG,
    _BRACE_COMMENT,
    _LINE_COMMENT,
    _MOVE_NUMBER,
    _DEAL,
    _OPEN,
    _GATHER,
    _WIND,
    _RESULT,
    _CARD,
    _RAY_NUMBER,
    _ANNOTATION,
    _UNFIT,
) = range(1, len(KINDS) + 1)
_STAGE = {_DEAL: MoveKind.DEAL, _WIND: MoveKind.WIND, _OPEN: MoveKind.OPEN}
_STAGE[_GATHER] = MoveKind.GATHER
_COMMENTS = frozenset((_BRACE_COMMENT, _LINE_COMMENT))
_NUMBER_CHARS = MAX_DIGITS + 1  # a move number's digits and its dot (more: Lark explains)


_Tell = Callable[[Move, "str | None", "int | None", int], None]


def read_tokens(tokens: Iterable[Token], sink: Sink) -> None:
    """Read one game's tokens (:func:`~sunlog.notation.tokens.located_tokens` or
    :func:`~sunlog.notation.tokens.word_tokens`), telling ``sink`` what they hold; raises
    :class:`Unfit` at the first token that does not fit, and stops quietly when the sink
    raises :class:`Enough`."""
    with suppress(Enough):
        _read(tokens, sink)


def _read(tokens: Iterable[Token], sink: Sink) -> None:
    tell = sink.move
    known = PARSED_MOVES.get
    card_of = parse_card_spelling
    number: int | None = None  # a move number waiting for its move
    # A stage action still taking its cards (a deal, a wind) or its ray (an open, a gather):
    # its kind (None when there is none), cards, ray (-1: still due), number and start.
    stage: MoveKind | None = None
    cards: list[Card] = []
    ray: int | None = None
    stage_number: int | None = None
    stage_start = 0
    part = False  # whether the last token was part of a move (an annotation may follow)
    headers = True  # no move yet: tags may come
    tokens = iter(tokens)
    for kind, token, joined, start in tokens:
        if kind == _CARD_MOVE:
            if stage is not None:
                _close(stage, cards, ray, stage_number, stage_start, tell)
                stage = ray = None
            elif headers:
                headers = False
                sink.end_headers()
            move = known(token)
            if move is None:
                try:
                    move = Move.parse_card_move(token)
                except InvalidMoveError:
                    raise Unfit from None
            tell(move, token, number, start)
            number, part = None, True
            continue
        if kind == _CARD:
            if ray is not None or stage is None:
                raise Unfit  # no deal or wind takes it
            cards.append(card_of(token))  # type: ignore[arg-type]  # a CARD token
            part = True
            continue
        if kind == _RAY_NUMBER:
            if ray != -1 or stage is None or len(token) > MAX_DIGITS:
                raise Unfit  # no open or gather takes it, or too long for Lark to explain
            _close(stage, cards, int(token), stage_number, stage_start, tell)  # complete
            stage = ray = None
            part = True
            continue
        if kind == _ANNOTATION:
            if not (joined and part) or ray == -1:
                raise Unfit
            if stage is not None:
                _close(stage, cards, ray, stage_number, stage_start, tell)
                stage = ray = None
            sink.annotation(token)
            part = False
            continue
        if stage is not None:
            _close(stage, cards, ray, stage_number, stage_start, tell)
            stage = ray = None
        part = False
        if kind in _STAGE:
            if headers:
                headers = False
                sink.end_headers()
            stage, stage_number, stage_start = _STAGE[kind], number, start
            ray = -1 if stage is MoveKind.OPEN or stage is MoveKind.GATHER else None
            if cards:
                cards = []
            number, part = None, True
        elif kind == _MOVE_NUMBER:
            if number is not None or len(token) > _NUMBER_CHARS:
                raise Unfit
            number = int(token[:-1])
        elif kind in _COMMENTS:
            if number is not None:
                raise Unfit
            sink.comment(token)
        elif kind == _TAG:
            if not headers or number is not None:
                raise Unfit
            name, raw = tag_parts(token)
            value = unescape(raw)
            if value is None:
                raise Unfit  # an escape Lark explains
            sink.tag(name, value, start)
        elif kind == _RESULT:
            if number is not None:
                raise Unfit
            if headers:
                headers = False
                sink.end_headers()
            sink.result(token, start)
            if next(tokens, None) is not None:
                raise Unfit  # something after the result token
            return
        else:
            raise Unfit
    if stage is not None:
        _close(stage, cards, ray, stage_number, stage_start, tell)
    if number is not None:
        raise Unfit
    if headers:
        sink.end_headers()


# The stage actions a log writes over and over, made once: (move, its text).
_COMMON_STAGE: dict[tuple[MoveKind, int | None], tuple[Move, str]] = {
    (MoveKind.DEAL, None): (Move.deal(), "deal"),
    (MoveKind.WIND, None): (Move.wind(), "wind"),
    **{(MoveKind.OPEN, n): (Move.open(n), f"open {n}") for n in range(1, 14)},
    **{(MoveKind.GATHER, n): (Move.gather(n), f"gather {n}") for n in range(1, 14)},
}


def _close(
    kind: MoveKind,
    cards: list[Card],
    ray: int | None,
    number: int | None,
    start: int,
    tell: _Tell,
) -> None:
    """Tell a finished stage action (``deal``, ``open 3``...) as a move; its text is
    left for the sink to write (``None``) unless a common one."""
    if ray == -1:
        raise Unfit  # open or gather without its ray number
    if not cards:
        common = _COMMON_STAGE.get((kind, ray))
        if common is not None:
            tell(common[0], common[1], number, start)
            return
    if kind is MoveKind.DEAL:
        if len(cards) > RAYS:
            raise Unfit  # a deal names at most 13 cards: the 14th is the next move's (Lark's)
        move = Move.deal(cards or None)
    elif kind is MoveKind.WIND:
        move = Move.wind(cards or None)
    elif kind is MoveKind.OPEN:
        move = Move.open(ray)  # a number, not -1
    else:
        move = Move.gather(ray)
    tell(move, None, number, start)
