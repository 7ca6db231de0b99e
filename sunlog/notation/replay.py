"""Replaying a parsed game against the rules (SPEC 3-5): tags, moves, result.

:func:`replay` sets the board up from the tags (``Variant``, ``Deal``, ``Deck``), pushes
each move, checks move numbers and the claimed result, and stops at the first fault with
a :class:`LogError` that says where and why.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain

from sunlog.engine.board import DEALS, RAYS, Board, Stage, Status, Variant
from sunlog.engine.cards import Card
from sunlog.engine.deal import MAX_DEAL
from sunlog.engine.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    MoveErrorCode,
    clip,
)
from sunlog.engine.moves import Move, MoveKind
from sunlog.notation.errors import (
    END_OF_GAME,
    NEW_GAME_ADVICE,
    LogAdvice,
    LogError,
    LogErrorCode,
    LogRuleError,
    LogSyntaxError,
)
from sunlog.notation.game import RESULTS, Game, GameMove, Tag
from sunlog.notation.places import card_place, number_place

__all__ = ["MEANINGFUL_TAGS", "Replay", "check_result", "miscased_tags", "new_board", "replay"]

_UNIQUE_TAGS = ("Variant", "Deal", "Deck", "Position", "Result")
#: The tags with meaning, by their names in lower case: what a miscased name was meant as.
MEANINGFUL_TAGS = {name.lower(): name for name in _UNIQUE_TAGS}
_DIGITS = re.compile(r"[0-9]+")
_RAY_SOURCE = re.compile(r"[rR]([0-9]{1,2}):")
_SEPARATORS = re.compile(r"[\s,._']")


@dataclass(frozen=True, slots=True)
class Replay:
    """What replaying a game gave: the board reached, the moves replayed, the fault if any.

    ``canonical`` holds the canonical form of each replayed move when it was asked for.
    """

    game: Game
    board: Board
    moves: int
    error: LogError | None = None
    canonical: tuple[Move, ...] | None = None

    @property
    def valid(self) -> bool:
        return self.error is None


def _tag_error(game: Game, tag: Tag, message: str) -> LogRuleError:
    return LogRuleError(
        message, code=LogErrorCode.TAG, line=tag.line, column=tag.column, game=game.index
    )


def new_board(game: Game) -> Board:
    """The board before the first move, from the game's tags; raises :class:`LogRuleError`."""
    seen: dict[str, Tag] = {}
    for tag in game.tags:
        if tag.name in _UNIQUE_TAGS:
            if tag.name in seen:
                raise _tag_error(game, tag, f"the {tag.name} tag may appear only once")
            seen[tag.name] = tag
    variant = Variant.SUN
    if "Variant" in seen:
        try:
            variant = Variant.parse(seen["Variant"].value)
        except ValueError as exc:
            raise _tag_error(game, seen["Variant"], str(exc)) from None
    deal = None
    if "Deal" in seen:
        value = seen["Deal"].value
        if not _DIGITS.fullmatch(value) or len(value) > 20 or int(value) >= MAX_DEAL:
            raise _tag_error(
                game,
                seen["Deal"],
                "the Deal tag must be a deal number (decimal digits, below 2^64), "
                f"not {clip(value)!r}{_deal_meant(value)}",
            )
        deal = int(value)
    deck = None
    if "Deck" in seen:
        try:
            deck = [Card.parse(word) for word in seen["Deck"].value.split()]
        except ValueError as exc:
            raise _tag_error(game, seen["Deck"], f"in the Deck tag: {exc}") from None
    if "Result" in seen and seen["Result"].value.lower() not in RESULTS:
        raise _tag_error(
            game,
            seen["Result"],
            f"the Result tag must be won, lost or *, not {clip(seen['Result'].value)!r}",
        )
    try:
        board = Board(variant, deal=deal, deck=deck)
    except ValueError as exc:
        raise _tag_error(game, seen.get("Deck") or seen["Deal"], str(exc)) from None
    if "Position" in seen:
        return _position_board(game, seen, board)
    return board


def _position_board(game: Game, seen: dict[str, Tag], tagged: Board) -> Board:
    """The board of a ``Position`` tag (docs/positions.md), which ``Variant``, ``Deal``
    and ``Deck`` beside it must agree with (``tagged`` is the board they make)."""
    tag = seen["Position"]

    def refuse(message: str, at: Tag = tag) -> LogRuleError:
        return LogRuleError(
            message, code=LogErrorCode.POSITION, line=at.line, column=at.column, game=game.index
        )

    try:
        board = Board.from_position(tag.value)
    except ValueError as exc:
        raise refuse(f"in the Position tag: {exc}") from None
    if "Variant" in seen and tagged.variant is not board.variant:
        raise refuse(
            f"the Variant tag says {tagged.variant.value}, the Position tag {board.variant.value}",
            seen["Variant"],
        )
    if "Deal" in seen and tagged.deal_number != board.deal_number:
        wrote = "no deal number" if board.deal_number is None else f"#{board.deal_number}"
        raise refuse(
            f"the Deal tag says {tagged.deal_number}, the Position tag's stock {wrote} "
            f"(write #{tagged.deal_number} there)",
            seen["Deal"],
        )
    deck = tagged.deck
    if "Deck" in seen and deck is not None and deck[board.deals * RAYS :] != board.stock:
        raise refuse(
            f"the Deck tag's stock after {board.deals} deals is not the Position tag's",
            seen["Deck"],
        )
    return board


def _deal_meant(value: str) -> str:
    """For a Deal tag that is a deal number once its spaces or digit separators go
    (``" 5"``, ``"1,000"``): how to write it; else nothing."""
    digits = _SEPARATORS.sub("", value)
    if digits == value or len(digits) > 20 or not _DIGITS.fullmatch(digits):
        return ""  # (a number of over 20 digits is beyond 2^64, and too long to read)
    if int(digits) >= MAX_DEAL:
        return ""
    why = "without spaces" if digits == value.strip() else "without separators"
    return f': write it {why}, [Deal "{digits}"]'


def miscased_tags(game: Game) -> list[tuple[Tag, str]]:
    """The game's tags whose names are a tag with meaning in another case (``variant``,
    ``DEAL``), each with the name meant. Tag names are case-sensitive (SPEC 5.1), so such
    a tag means nothing: a warning, never an error."""
    found = []
    for tag in game.tags:
        meant = MEANINGFUL_TAGS.get(tag.name.lower())
        if meant is not None and meant != tag.name:
            found.append((tag, meant))
    return found


def _move_error(
    game: Game, index: int, gm: GameMove, message: str, code: LogErrorCode, at_end: bool = False
) -> LogRuleError:
    return LogRuleError(
        message,
        code=code,
        line=gm.line,
        column=gm.column,
        move=index,
        text=gm.text,
        game=game.index,
        at_end=at_end,
    )


def replay(
    game: Game,
    *,
    upto: int | None = None,
    canonical: bool = False,
    observe: Callable[[Board], None] | None = None,
) -> Replay:
    """Replay ``game`` (its first ``upto`` moves, when given) and check everything.

    The result is checked only when the whole game is replayed. ``observe`` is called with
    the board after each move pushed (:mod:`sunlog.notation.resolve` reads what it did).
    """
    try:
        board = new_board(game)
    except LogRuleError as exc:
        return Replay(game, Board(), 0, exc)
    forms: list[Move] = []
    moves = game.moves if upto is None else game.moves[:upto]
    first = board.move_count  # a game from a Position numbers its moves on from it
    for i, gm in enumerate(moves, 1):
        if gm.number is not None and gm.number != first + i:
            error: LogError | None = _number_error(game, i, gm, first)
            return Replay(game, board, i - 1, error, _forms(canonical, forms))
        try:
            if canonical:
                forms.append(board.canonical(gm.move))
            board.push(gm.move)
        except ValueError as exc:
            message, at_end, advice = _explained(game, i, board, exc)
            code = (
                LogErrorCode.AMBIGUOUS_MOVE
                if isinstance(exc, AmbiguousMoveError)
                else LogErrorCode.ILLEGAL_MOVE
            )
            fault = _move_error(game, i, gm, message, code, at_end)
            _at_card(fault, game, gm, board, exc)
            if advice:
                fault.advice = advice
            return Replay(game, board, i - 1, fault, _forms(canonical, forms))
        if observe is not None:
            observe(board)
    done = len(moves)
    if game.error is not None:
        error = game.error if upto is not None else _with_position(game.error, board)
        return Replay(game, board, done, error, _forms(canonical, forms))
    if upto is None:
        wrong = check_result(game, board)
        if wrong is not None:
            return Replay(game, board, done, wrong, _forms(canonical, forms))
    return Replay(game, board, done, None, _forms(canonical, forms))


def _number_error(game: Game, index: int, gm: GameMove, first: int = 0) -> LogRuleError:
    """A move number that is not its move's place in the game (counted from ``first``,
    a Position tag's move count), said at the number: ``move 21 is numbered 22.: write
    21.``."""
    place = number_place(game, gm)
    written = place[0] if place is not None else f"{gm.number}."
    message = f"move {first + index} is numbered {written}: write {first + index}."
    error = _move_error(game, index, gm, message, LogErrorCode.MOVE_NUMBER)
    if place is not None:
        error.line, error.column = place[1], place[2]
    return error


def _at_card(error: LogError, game: Game, gm: GameMove, board: Board, exc: ValueError) -> None:
    """A deal refused for one of its cards (a third copy, a card the deck does not deal
    there): the error moved onto that card, where the game's text shows it."""
    named = gm.move.cards
    code = getattr(exc, "code", None)
    if named is None or gm.move.kind is not MoveKind.DEAL:
        return
    if code is MoveErrorCode.THIRD_COPY:
        seen = Counter(chain(*board.rays, *board.clouds, *board.foundations))
        k = next((k for k, card in enumerate(named) if _third(seen, card)), None)
    elif code is MoveErrorCode.DEAL_MISMATCH and board.stock is not None:
        k = next(
            (k for k, (a, b) in enumerate(zip(named, board.stock, strict=False)) if a != b), None
        )
    else:
        return
    place = None if k is None else card_place(game, gm, k)
    if place is not None:
        error.line, error.column = place[1], place[2]


def _third(seen: Counter[Card], card: Card) -> bool:
    """Count one more ``card``; whether that makes three."""
    seen[card] += 1
    return seen[card] > 2


def _with_position(error: LogError, board: Board) -> LogError:
    """A syntax error whose fix the position can tell, with what it tells (see
    :func:`_targets_hint` and :func:`_ray_card_hint`); any other error as it is."""
    if not isinstance(error, LogSyntaxError) or not error.text:
        return error
    if error.code is LogErrorCode.TARGET_EXPECTED:
        hint = _targets_hint(error.text.partition(">")[0], board)
    elif error.code is LogErrorCode.CARD_EXPECTED:
        hint = _ray_card_hint(error.text, board)
    else:
        return error
    if hint is None:
        return error
    return LogSyntaxError(
        f"{error.message}; {hint}",
        code=error.code,
        line=error.line,
        column=error.column,
        move=error.move,
        text=error.text,
        game=error.game,
        path=error.path,
        at_end=error.at_end,
    )


def _ray_card_hint(written: str, board: Board) -> str | None:
    """For a card after ``rN:`` that cannot be read (``r4:3X>A``): the card ray N shows,
    which is usually the one meant."""
    ray = _RAY_SOURCE.match(written)
    if ray is None or not 1 <= int(ray.group(1)) <= RAYS:
        return None
    n = int(ray.group(1))
    cards = board.rays[n - 1]
    return f"ray {n}'s outer card is {cards[-1]}" if cards else f"ray {n} is empty"


def _targets_hint(written: str, board: Board) -> str | None:
    """For a card move written without its target, or with one that is no target (``3D``,
    ``r2:AD>``, ``3D>Q``): the moves it can be here, as written with each target that
    works (what the player meant is usually one of them), or why none works."""
    fits: list[str] = []
    for target in dict.fromkeys(str(m).rpartition(">")[2] for m in board.legal_moves()):
        text = f"{written}>{target}"
        try:
            board.canonical(Move.parse(text))
        except AmbiguousMoveError as exc:  # two copies: each reading in full
            fits.extend(c for c in exc.candidates if c not in fits)
        except ValueError:
            continue
        else:
            fits.append(text)
    if not fits:
        refusals = [_refusal(board, f"{written}>{pile}") for pile in "AK"]
        if None in refusals:  # not a card or a source: nothing to say of the position
            return None
        why = {str(exc): exc for exc in refusals if exc is not None}
        fixes = [text for text, exc in why.items() if exc.writes]  # the engine's own fix
        return "and " + (fixes[0] if fixes else ", and ".join(why))
    if len(fits) == 1:
        return f"here it can be {fits[0]}"
    return f"here it can be {', '.join(fits[:-1])} or {fits[-1]}"


def _refusal(board: Board, text: str) -> IllegalMoveError | AmbiguousMoveError | None:
    """Why the card move ``text`` is illegal here; ``None`` if it is legal or no move."""
    try:
        board.canonical(Move.parse(text))
    except (IllegalMoveError, AmbiguousMoveError) as exc:
        return exc
    except InvalidMoveError:
        return None
    return None


#: Said after an error that a game run on into the next one would make.
NEW_GAME_HINT = NEW_GAME_ADVICE


def _explained(
    game: Game, index: int, board: Board, exc: ValueError
) -> tuple[str, bool, frozenset[LogAdvice]]:
    """The engine's message for an illegal move, with what only the log can tell: where
    a deal of the wrong size ends, and that a deal beyond the game may begin a new game;
    whether the message names the end of the game's text (:data:`END_OF_GAME`); and the
    advice it gives (a new game), so that callers read the advice, not the wording.

    Called only when a move has failed: nothing here costs a valid log anything."""
    move = game.moves[index - 1].move
    message = str(exc)
    if move.kind is not MoveKind.DEAL:
        return message, False, _NO_ADVICE
    named = move.cards
    if board.deals >= DEALS:  # a ninth deal: the game before it may lack its result
        return message + NEW_GAME_HINT, False, _NEW_GAME
    if named is not None and len(named) != RAYS:
        return (*_deal_size(game, index, board, named), _NO_ADVICE)
    if named is not None and board.stock is None and board.deals:  # a third copy named
        return message + NEW_GAME_HINT, False, _NEW_GAME
    return message, False, _NO_ADVICE


_NO_ADVICE: frozenset[LogAdvice] = frozenset()
_NEW_GAME = frozenset({LogAdvice.NEW_GAME})


def _deal_size(game: Game, index: int, board: Board, named: tuple[Card, ...]) -> tuple[str, bool]:
    """A deal naming more or fewer than 13 cards on ``board``: how many, and where it ends
    (and whether that is the end of the game's text)."""
    deal = board.deals + 1
    count = f"{len(named)} card" if len(named) == 1 else f"{len(named)} cards"
    head = f"deal {deal} names {count}, not 13 (one per ray)"
    if not named:
        return head, False
    if len(named) > RAYS:
        extra = " ".join(str(c) for c in named[RAYS:])
        return (
            f"{head}: after its 13th card, {named[RAYS - 1]}, it reads on to {clip(extra)} "
            f"(a card to play is written with its target, like {named[RAYS]}>A)",
            False,
        )
    at_end = False
    if index < len(game.moves):
        after = f"before {clip(game.moves[index].text)!r}"
    elif game.result is not None:
        after = "before the result token"
    else:
        after, at_end = f"at {END_OF_GAME}", True
    known = "; the Deal tag fixes the deck: deal alone deals its cards" if board.stock else ""
    return f"{head}: it ends at {named[-1]}, {after}{known}", at_end


def _forms(wanted: bool, forms: list[Move]) -> tuple[Move, ...] | None:
    return tuple(forms) if wanted else None


def check_result(game: Game, board: Board) -> LogError | None:
    """SPEC 3.7 and 5.3: token and tag agree, and a claimed won or lost is true."""
    tag = game.tag("Result")
    token = game.result
    line, column = game.result_line, game.result_column
    if line is None:
        where = next((t for t in game.tags if t.name == "Result"), None)
        if where is not None:
            line, column = where.line, where.column
        elif game.moves:
            line, column = game.moves[-1].line, game.moves[-1].column
    if token is not None and tag is not None and token != tag.lower():
        return LogRuleError(
            f"the result token says {token} but the Result tag says {tag}",
            code=LogErrorCode.RESULT_MISMATCH,
            line=line,
            column=column,
            game=game.index,
        )
    claimed = game.claimed_result
    status = board.status()
    message = None
    if claimed == "won" and status is not Status.WON:
        up = board.on_foundations()
        verb = "is" if up == 1 else "are"
        message = f"the log says won, but only {up} of the 104 cards {verb} on the foundations"
    elif claimed == "lost" and status is not Status.LOST:
        if status is Status.WON:
            message = "the log says lost, but all 104 cards are on the foundations: it is won"
        elif board.stage is not Stage.WIND:
            message = (
                "the log says lost, but a game is lost only after the wind, which has not blown"
            )
        else:
            message = "the log says lost, but a card can still reach a foundation"
    if message is None:
        return None
    return LogRuleError(
        message, code=LogErrorCode.FALSE_RESULT, line=line, column=column, game=game.index
    )
