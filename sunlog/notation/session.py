"""A game being recorded move by move (what ``sunlog record`` drives), without a terminal.

A :class:`Session` holds the text of a one-game log and the board it replays to. What a
player types is read as moves in the notation and checked the way ``check`` checks a
file: the typed text is put after the log's text, and that whole log is read and
replayed, so an unreadable or illegal move is refused with the very message ``check``
would print. Accepted moves join the text as typed (or in canonical form); :meth:`undo`
cuts the last one off again.

While a game is recorded its text carries no result token: a game that ends at the end
of its file claims ``*`` (SPEC 5.3), so the text is a valid log after every accepted
move, and only grows. :meth:`Session.finish` writes the result when the game ends (or
``*`` when the player stops). Writing the text to a file is the caller's job.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass
from itertools import chain

from sunlog.engine.board import DEALS, RAYS, Board, Status, Variant
from sunlog.engine.cards import CARDS, Card
from sunlog.engine.moves import Move, MoveKind
from sunlog.notation.errors import END_OF_GAME, LogError, LogErrorCode, LogRuleError
from sunlog.notation.game import Game, GameMove
from sunlog.notation.reader import read_games
from sunlog.notation.replay import replay
from sunlog.notation.writer import escape_tag_value, format_comment

__all__ = ["MAX_TYPED_CHARS", "Played", "Session", "SessionError", "Unfinished"]

#: A typed line longer than this is refused: one line of moves is far shorter (a wind
#: naming 90 cards is some 300 characters), and an append stays within one page.
MAX_TYPED_CHARS = 1000

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# A move number left standing once the move after it is cut off.
_TRAILING_NUMBER = re.compile(r"[0-9]+\.\s*$")
_LEADING_NUMBER = re.compile(r"[0-9]+\.\s*")
_RESULT_WORD = re.compile(r"(?<![\w:>.])(?:won|lost|\*)(?![\w])", re.IGNORECASE)


class SessionError(ValueError):
    """A log that ``record`` cannot go on with (several games, a finished game...), or a
    request it cannot do (undo with no move); the message says why."""


@dataclass(frozen=True, slots=True)
class Unfinished:
    """A deal or the wind of real cards that a typed line ended inside, naming too few
    cards: ``text`` as typed (its move number too), which the next line goes on; ``kind``
    a deal or the wind; ``deal`` a deal's number among the deals (0 for the wind);
    ``named`` the cards it names so far, ``to_come`` how many more it must name."""

    text: str
    kind: MoveKind
    deal: int
    named: int
    to_come: int

    def fixed(self, position: int, card: str) -> str:
        """The text with ``card`` as the ``position``-th card named (1-based), to be played
        again; :class:`SessionError` when there is no such card or ``card`` is none."""
        keyword = _LEADING_NUMBER.match(self.text)
        start = keyword.end() if keyword else 0
        what = f"deal {self.deal}" if self.kind is MoveKind.DEAL else "the wind"
        return _with_card(self.text, start, position, card, what, self.named)


@dataclass(frozen=True, slots=True)
class Played:
    """What one typed line gave: the moves accepted (maybe none), the text they added to
    the log (a line of comments only is written too), and the fault that refused the rest
    of the line, if any.

    The fault's ``column`` counts in the typed line (1-based), ``line`` is ``None``.

    A line that ends inside a deal or the wind of a game played with real cards, naming
    fewer cards than it must, is no fault: cards are named as they are dealt, and the rest
    may come on the next line. ``unfinished`` then holds that move, of which nothing is
    written yet.
    """

    moves: tuple[GameMove, ...]
    written: str
    error: LogError | None = None
    unfinished: Unfinished | None = None


def _line_starts(text: str) -> list[int]:
    """The offset of each line's first character, lines counted as the reader counts."""
    return [0, *(m.end() for m in _LINE_BREAK.finditer(text))]


def _offset(starts: list[int], line: int | None, column: int | None) -> int:
    assert line is not None and column is not None
    return starts[line - 1] + column - 1


def _read(text: str) -> list[Game]:
    return list(read_games(io.StringIO(text, newline=None)))


class Session:
    """The text of a one-game log being recorded, its game as read, and its board.

    The text is always a valid log that replays to exactly the accepted moves.
    """

    def __init__(self, text: str) -> None:
        """Go on with a log's text; raises :class:`LogError` for a log that is not valid
        and :class:`SessionError` for one that cannot be continued.

        A result token ``*`` at the end is taken off (the game goes on); ``won`` or
        ``lost`` means the game is over.
        """
        text = text.removeprefix("\ufeff")
        games = _read(text)
        if len(games) != 1:
            raise SessionError(
                f"the file holds {len(games)} games: record goes on with a log of one game"
            )
        game = games[0]
        self._check(game)
        if game.tag("Result") is not None:
            raise SessionError(
                "the log has a Result tag: record writes the result token itself "
                "(remove the tag to go on)"
            )
        if game.result is not None:
            if game.result != "*":
                raise SessionError(f"the game is over: the log says {game.result}")
            start = _offset(_line_starts(text), game.result_line, game.result_column)
            head, rest = text[:start], text[start + 1 :]
            if head.endswith(("\n", "\r")) or not head:  # the token stood alone on its line
                rest = rest.removeprefix("\r\n") if rest.startswith("\r\n") else rest
                rest = rest[1:] if rest[:1] in ("\n", "\r") else rest
            text = head + rest
        if text and not text[-1].isspace():
            text += "\n"
        self.text = text
        self.result: str | None = None
        self._update(text)

    @classmethod
    def new(
        cls, variant: Variant = Variant.SUN, deal: int | None = None, position: str | None = None
    ) -> Session:
        """A new game: its ``Variant`` tag, and its ``Deal`` tag when a deal number is given
        (without one, a physical game: each deal names the 13 cards it deals); or, from a
        position string, its ``Position`` tag alone (the string holds variant and deal)."""
        tags = [("Variant", variant.value)]
        if deal is not None:
            tags.append(("Deal", str(deal)))
        if position is not None:
            tags = [("Position", position.strip())]
        text = "".join(f'[{name} "{escape_tag_value(value)}"]\n' for name, value in tags)
        return cls(text + "\n")

    @staticmethod
    def _check(game: Game) -> Board:
        result = replay(game)
        if result.error is not None:
            raise result.error
        return result.board

    def _update(self, text: str) -> None:
        """Read and replay ``text`` (known to be valid) as the session's state."""
        (game,) = _read(text)
        self.text = text
        self.game = game
        self.board = self._check(game)

    @property
    def moves(self) -> tuple[GameMove, ...]:
        """The moves of the game as written, those of the log it went on with included."""
        return self.game.moves

    @property
    def over(self) -> bool:
        """Whether the game is won or lost, or the session was finished."""
        return self.result is not None or self.board.status() is not Status.PLAYING

    def play(self, typed: str, *, canonical: bool = False) -> Played:
        """Read one typed line as moves and accept those that are legal, up to a fault.

        The moves before a fault in the line are accepted; the fault says why the rest
        was refused, in ``check``'s words. ``canonical`` writes the accepted moves in
        canonical form, else they are written as typed.
        """
        if self.over:
            raise SessionError("the game is over: nothing more can be recorded")
        typed = typed.strip()
        if not typed:
            return Played((), "")
        if len(typed) > MAX_TYPED_CHARS:
            raise SessionError(f"a line of moves is at most {MAX_TYPED_CHARS} characters")
        before = len(self.moves)
        candidate = self.text + typed + "\n"
        games = _read(candidate)
        if len(games) != 1 or games[0].result is not None or games[0].tags != self.game.tags:
            return Played((), "", self._refuse_result(typed, before))
        game = games[0]
        result = replay(game, canonical=canonical)
        accepted = game.moves[before : result.moves]
        error = result.error
        unfinished = None
        if error is not None:
            kept = _kept_cards(game, result.moves, result.board, candidate)
            if kept is not None and kept.cut > len(self.text):
                return self._keep(typed, kept, error, canonical)
            error = self._in_typed(error, candidate, len(self.text))
            if error.column is not None:
                start = error.column - 1  # the move, with the number written before it
                number = _TRAILING_NUMBER.search(typed, 0, start)
                text = typed[number.start() if number else start :]
                unfinished = _unfinished(game, result.moves, result.board, text)
            if unfinished is not None:
                error = None
        if not accepted:
            if unfinished is not None:
                return Played((), "", None, unfinished)
            if error is None:  # comments only: they join the last move (or the start)
                self._update(candidate)
                return Played((), typed)
            return Played((), "", error)
        if canonical:
            assert result.canonical is not None
            written = _canonical_text(accepted, result.canonical[before:])
        elif error is None and unfinished is None:  # the whole line as typed: the log read
            self.text, self.game, self.board = candidate, game, result.board
            return Played(accepted, typed)
        else:
            starts = _line_starts(candidate)
            last = accepted[-1]
            end = _offset(starts, last.line, last.column) + len(last.text)
            end += len(last.annotation or "")
            written = candidate[len(self.text) : end]
        self._update(self.text + written + "\n")
        return Played(self.moves[before:], written, error, unfinished)

    def _keep(self, typed: str, kept: _Kept, error: LogError, canonical: bool) -> Played:
        """A line whose deal or wind of real cards went wrong at one of its cards, or at
        what followed too few of them: what comes before that is played (the cards kept,
        as an unfinished move when they are not all it must name), and the fault refuses
        the rest of the line, at the card or the word where it lies."""
        start = len(self.text)
        error = self._in_typed(error, self.text + typed + "\n", start)
        error.column = kept.fault - start + 1
        if kept.why is not None:
            error.message, error.code = kept.why, LogErrorCode.ILLEGAL_MOVE
            error.args = (error.message,)
        done = self.play(typed[: kept.cut - start], canonical=canonical)
        if done.error is not None:  # not expected: the cards kept were checked
            return done
        return Played(done.moves, done.written, error, done.unfinished)

    def fix(self, position: int, card: str) -> GameMove:
        """Put ``card`` as the ``position``-th card (1-based) that the game's last deal or
        wind naming its cards names, and replay the game: the moves after it too must
        still be legal. Returns the move as it now reads; :class:`SessionError` says why
        it cannot be done (and nothing changes)."""
        if self.result is not None:
            raise SessionError("the game is finished: nothing to fix")
        named = [gm for gm in self.moves if gm.move.cards is not None]
        if not named:
            raise SessionError(
                "fix corrects a card of a deal or the wind that names its cards: none does yet"
            )
        gm = named[-1]
        index = next(i for i, m in enumerate(self.moves) if m is gm)
        deals = sum(m.move.kind is MoveKind.DEAL for m in self.moves[: index + 1])
        what = f"deal {deals}" if gm.move.kind is MoveKind.DEAL else "the wind"
        start = _offset(_line_starts(self.text), gm.line, gm.column)
        text = _with_card(self.text, start, position, card, what, len(gm.move.cards or ()))
        (game,) = _read(text)
        result = replay(game)
        if result.error is not None:
            why = result.error.message
            for advice in result.error.advice:
                why = why.replace(advice.words, "")
            new = Card.parse(card)
            raise SessionError(f"{what} cannot name {new} as card {position}: {why}")
        self._update(text)
        return self.moves[index]

    def _refuse_result(self, typed: str, moves: int) -> LogError:
        """A line that holds a result token or a tag: record writes those itself."""
        found = _RESULT_WORD.search(typed) or re.search(r"\[", typed)
        column = found.start() + 1 if found else 1
        return LogRuleError(
            "record writes the result token itself (type quit to stop), and tags "
            "stand before the first move: type moves only",
            code=LogErrorCode.MOVES_ONLY,
            column=column,
            move=moves + 1,
            text=found.group() if found else None,
        )

    @staticmethod
    def _in_typed(error: LogError, candidate: str, start: int) -> LogError:
        """The fault with its column counted in the typed line, which begins at ``start``;
        what ends the game's text there is the end of the typed line, and advice only a
        whole log can follow (a result token or tags to write) is left out."""
        if error.line is not None and error.column is not None:
            offset = _offset(_line_starts(candidate), error.line, error.column)
            error.column = max(1, offset - start + 1)
        error.line = None
        if error.at_end:
            error.message = error.message.replace(END_OF_GAME, "the end of the line")
        for advice in error.advice:  # a result token or tags: record writes those itself
            error.message = error.message.replace(advice.words, "")
        error.advice = frozenset()
        error.args = (error.message,)
        return error

    def undo(self) -> GameMove:
        """Take back the last move (of this session or of the log it went on with)."""
        if self.result is not None:
            raise SessionError("the game is finished: nothing to take back")
        if not self.moves:
            raise SessionError("there is no move to take back")
        last = self.moves[-1]
        cut = _offset(_line_starts(self.text), last.line, last.column)
        head = _TRAILING_NUMBER.sub("", self.text[:cut]) if last.number is not None else None
        kept = (head if head is not None else self.text[:cut]).rstrip()
        self._update(kept + "\n" if kept else "")
        return last

    def finish(self, result: str | None = None) -> str:
        """End the game: its result token (``won``/``lost`` as the board says, else ``*``)
        joins the text, which the session no longer changes. Returns the token."""
        if self.result is not None:
            return self.result
        status = self.board.status()
        token = result or ("*" if status is Status.PLAYING else status.value)
        self.text += f"{token}\n"
        self.result = token
        return token

    def legal_moves(self) -> list[Move]:
        """The legal moves now, canonical (those whose cards must be named aside)."""
        return [] if self.over else self.board.legal_moves()


def _unfinished(game: Game, replayed: int, board: Board, text: str) -> Unfinished | None:
    """The game's last move (written ``text``), a deal or the wind that failed on ``board``
    (the position before it), as :class:`Unfinished` when naming too few cards was its
    only fault, in a game whose cards are named (no deck known); else ``None``."""
    if replayed != len(game.moves) - 1:
        return None
    move = game.moves[-1].move
    named = move.cards or ()
    whole = _whole(board, move.kind, named)
    if whole is None or len(named) >= len(whole.cards or ()):
        return None
    try:  # legal once whole: naming too few was its only fault
        board.copy().push(whole)
    except ValueError:
        return None
    deal = board.deals + 1 if move.kind is MoveKind.DEAL else 0
    return Unfinished(text, move.kind, deal, len(named), len(whole.cards or ()) - len(named))


def _whole(board: Board, kind: MoveKind, named: tuple[Card, ...]) -> Move | None:
    """A deal or wind on ``board`` naming ``named`` first, with the cards it would still
    have to name added (a deal from the cards not yet in play, the wind from those it
    collects): whether ``named`` can begin a legal move is whether this one is legal.
    ``None`` where cards are not named so (a known deck, no deal left, not a deal or wind)."""
    if kind is MoveKind.DEAL:
        if board.stock is not None or board.deals >= DEALS:
            return None
        in_play = [*board.foundations, *board.clouds, *board.rays, board.wind_row or []]
        left = Counter({card: 2 for card in CARDS}) - Counter(chain.from_iterable(in_play))
        rest = [*(left - Counter(named)).elements()][: max(0, RAYS - len(named))]
        return Move.deal((*named, *rest))
    if kind is MoveKind.WIND and board.deal_number is None:
        collected = Counter(board.collected())
        if not collected:
            return None
        return Move.wind((*named, *(collected - Counter(named)).elements()))
    return None


def _legal(board: Board, move: Move | None) -> str | None:
    """Why ``move`` is illegal on ``board`` in the engine's words, ``None`` when legal."""
    if move is None:
        return "no deal or wind can name cards here"
    try:
        board.copy().push(move)
    except ValueError as exc:
        return str(exc)
    return None


_WORD = re.compile(r"\S+")


def _words(text: str, start: int) -> list[re.Match[str]]:
    """The words from ``start`` (a deal's or the wind's keyword) up to a comment: the
    keyword, then the cards it names (a comment ends a deal or wind)."""
    out = []
    for word in _WORD.finditer(text, start):
        if word.group().startswith("{"):
            break
        out.append(word)
    return out


def _with_card(text: str, start: int, position: int, card: str, what: str, named: int) -> str:
    """``text`` with ``card`` (canonical) as the ``position``-th card that the deal or
    wind whose keyword is at ``start`` names (``what`` it is, naming ``named`` cards)."""
    if not 1 <= position <= named:
        if not named:
            raise SessionError(f"{what} names no card yet: there is nothing to fix")
        raise SessionError(f"{what} names {named} cards: fix N CARD takes N from 1 to {named}")
    try:
        new = Card.parse(card)
    except ValueError as exc:
        raise SessionError(f"fix {position} {card}: {exc}") from None
    word = _words(text, start)[position]
    return text[: word.start()] + str(new) + text[word.end() :]


@dataclass(frozen=True, slots=True)
class _Kept:
    """What of a typed line to keep when its deal or wind of real cards went wrong: the
    text up to ``cut`` (an offset in the log's text with the line), the fault at offset
    ``fault``, and ``why`` the card there cannot be named (``None``: the replay's words)."""

    cut: int
    fault: int
    why: str | None


def _kept_cards(game: Game, replayed: int, board: Board, text: str) -> _Kept | None:
    """Where the deal or wind that failed on ``board`` (move ``replayed``, 0-based, of
    ``game``, read from ``text``) went wrong, when its cards are named: at the first card
    that cannot begin a legal move (a third copy, one the wind did not collect, a 14th),
    or, all its cards good but too few, at the move after it. ``None`` for any other
    fault, and for a deal or wind whose few cards end the text (:func:`_unfinished`)."""
    if replayed >= len(game.moves):
        return None
    gm = game.moves[replayed]
    move = gm.move
    named = move.cards
    if named is None or _whole(board, move.kind, named[:0]) is None:
        return None
    words = _words(text, _offset(_line_starts(text), gm.line, gm.column))
    if len(words) < len(named) + 1:
        return None
    good = 0
    while good < len(named) and _legal(board, _whole(board, move.kind, named[: good + 1])) is None:
        good += 1
    if good < len(named):  # the card after the good ones cannot be named here
        bad = named[: good + 1]
        whole = _whole(board, move.kind, bad)
        beyond = move.kind is MoveKind.DEAL and len(bad) > RAYS  # a 14th card: the replay's
        why = None if beyond else _legal(board, whole)
        return _Kept(words[good].end(), words[good + 1].start(), why)
    if replayed + 1 >= len(game.moves):
        return None  # too few cards at the end: the move is unfinished, not at fault
    after = game.moves[replayed + 1]
    cut = words[len(named)].end()
    return _Kept(cut, _offset(_line_starts(text), after.line, after.column), None)


def _canonical_text(moves: tuple[GameMove, ...], forms: tuple[Move, ...]) -> str:
    """Accepted moves in canonical form, each with its annotation and comments."""
    out = ""
    for gm, form in zip(moves, forms, strict=True):
        pieces = [f"{form}{gm.annotation or ''}", *(format_comment(c) for c in gm.comments)]
        for piece in pieces:
            if out and not out.endswith("\n"):
                out += " "
            out += piece
    return out.rstrip("\n")
