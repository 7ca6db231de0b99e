"""The stage actions (SPEC 3.2 to 3.5), one object each: a deal, opening a ray,
gathering one and the wind.

Each :class:`StageAction` holds everything about its kind: whether it may come now (the
reason it cannot, as an :class:`IllegalMoveError` with its code), its change on a
:class:`~sunlog.engine.state.BoardState` and that change's undo (built from the state's
primitive changes, so the index of where each card lies is kept in one place), the moves
of its kind that are legal now, its canonical form, the cards a game played with real
cards names, and what it did (a :mod:`sunlog.engine.played` value).
:class:`~sunlog.engine.board.Board` dispatches through :data:`STAGE_ACTIONS`, with no
branch a kind; card moves are the board's own (they are the hot path).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from sunlog.engine.arguments import check_named_cards
from sunlog.engine.cards import Card
from sunlog.engine.deal import wind_row
from sunlog.engine.errors import IllegalMoveError
from sunlog.engine.errors import MoveErrorCode as _C
from sunlog.engine.explain import check_ray_number, reopen_message
from sunlog.engine.moves import Move, MoveKind
from sunlog.engine.rules import DEALS, RAYS, Stage, gather_out
from sunlog.engine.state import FOUNDATION_PILE, STOCK, WIND_PILE, BoardState, cloud_pile

if TYPE_CHECKING:
    from sunlog.engine.played import Played

__all__ = ["STAGE_ACTIONS", "Deal", "Gather", "Open", "Plan", "StageAction", "Wind"]

#: What a stage action resolved to, as its change needs it: the ray of an open or a
#: gather (0 for the others) and the cards a deal deals or the wind lays (empty for the
#: others).
Plan = tuple[int, list[Card]]


class StageAction:
    """One kind of stage action. The undo record a change logs begins with the action
    itself, so that :meth:`BoardState._take_back` hands it back here."""

    def resolve(self, board: BoardState, move: Move) -> Plan:
        """What ``move`` of this kind does here, or :class:`IllegalMoveError` saying why it
        cannot come now."""
        raise NotImplementedError

    def apply(self, board: BoardState, plan: Plan) -> None:
        """Make the change ``plan`` says, logging its undo record."""
        raise NotImplementedError

    def undo(self, board: BoardState, record: tuple[Any, ...]) -> None:
        """Undo the change that logged ``record`` (already taken off the log)."""
        raise NotImplementedError

    def moves(self, board: BoardState) -> list[Move]:
        """The moves of this kind legal now that can be listed (in canonical form)."""
        raise NotImplementedError

    def played(self, board: BoardState, move: Move, record: tuple[Any, ...]) -> Played:
        """What ``move``, just played and logged as ``record``, did."""
        raise NotImplementedError

    def canonical(self, board: BoardState, move: Move, plan: Plan) -> Move:
        """The canonical form of ``move``, legal here and resolved to ``plan``."""
        return move

    def named(self, board: BoardState, move: Move) -> Move:
        """``move``, just played, as a game played with real cards writes it."""
        return move


def not_over(board: BoardState, what: str) -> None:
    """Refuse ``what`` in a won game or before the 8th deal. Won needs a full first
    pile, so the hot callers ask only when it is full or deals are short."""
    if board.is_won():
        raise IllegalMoveError("the game is won: no move is legal", _C.GAME_WON)
    if board.deals < DEALS:
        left = DEALS - board.deals
        raise IllegalMoveError(
            f"{what} is possible only after the 8th deal ({board.deals} made, {left} to go)",
            _C.DEALS_NOT_DONE,
        )


class Deal(StageAction):
    """A stage-1 deal (SPEC 3.2): one card from the stock onto each ray."""

    def resolve(self, board: BoardState, move: Move) -> Plan:
        if board.deals >= DEALS:
            raise IllegalMoveError("all 8 deals have been made", _C.DEALS_DONE)
        named = move.cards
        if named is not None:
            check_named_cards(named, "a deal")
        if named is not None and len(named) != RAYS:
            raise IllegalMoveError(
                f"a deal names 13 cards, one per ray, not {len(named)}", _C.DEAL_SIZE
            )
        deal_no = board.deals + 1
        stock = board.stock
        if stock is not None:
            cards = stock[:RAYS]
            if named is not None and list(named) != cards:
                i = next(i for i in range(RAYS) if named[i] != cards[i])
                raise IllegalMoveError(
                    f"deal {deal_no} names {named[i]} for ray {i + 1}, but the deck deals "
                    f"{cards[i]} there (this deal is {' '.join(map(str, cards))})",
                    _C.DEAL_MISMATCH,
                )
            return 0, cards
        if named is None:
            raise IllegalMoveError(
                "the deck is not known (no Deal or Deck tag): name the 13 cards dealt",
                _C.DECK_UNKNOWN,
            )
        for card, count in Counter(named).items():
            if board.dealt_copies(card) + count > 2:
                raise IllegalMoveError(
                    f"deal {deal_no} names a third {card}: there are only two of each card",
                    _C.THIRD_COPY,
                )
        return 0, list(named)

    def apply(self, board: BoardState, plan: Plan) -> None:
        cards = plan[1]
        board._lay_across(cards, STOCK, 0)
        board.deals += 1
        board._log((self, cards))

    def undo(self, board: BoardState, record: tuple[Any, ...]) -> None:
        board._lift_across(0, RAYS, STOCK)
        board.deals -= 1

    def moves(self, board: BoardState) -> list[Move]:
        return [Move.deal()] if board.deals < DEALS and board.deck_known else []

    def canonical(self, board: BoardState, move: Move, plan: Plan) -> Move:
        return Move.deal() if board.deck_known else move

    def named(self, board: BoardState, move: Move) -> Move:
        return Move.deal([board.pile(n)[-1] for n in range(RAYS)])

    def played(self, board: BoardState, move: Move, record: tuple[Any, ...]) -> Played:
        from sunlog.engine.played import Dealt  # see Board._at

        cards = tuple(record[1])
        return Dealt(Move.deal() if board.deck_known else Move.deal(cards), cards)


def _check_ray_action(board: BoardState, n: int, action: str, done: str) -> None:
    """What an ``open n`` and a ``gather n`` both need: the deals made, the game not won,
    a ray ``n`` on the table, the wind not blown."""
    if board.deals < DEALS or len(board.pile(FOUNDATION_PILE)) == 13:  # else not over: no call
        not_over(board, action)
    if not 1 <= n <= RAYS:
        check_ray_number(n)
    if board.stage is Stage.WIND:
        raise IllegalMoveError(f"no ray can be {done} after the wind", _C.AFTER_WIND)


class Open(StageAction):
    """Opening a ray (SPEC 3.3): stage 2, any card of the open ray is playable."""

    def resolve(self, board: BoardState, move: Move) -> Plan:
        n = move.index
        assert n is not None
        if not board.rules.opens:
            raise IllegalMoveError("sun-2 has no stage 2: no ray can be opened", _C.NO_STAGE_2)
        _check_ray_action(board, n, "open", "opened")
        if board.stage is Stage.SUNSET:
            raise IllegalMoveError(
                "no ray can be opened once stage 3 (gathering) has begun", _C.STAGE_PASSED
            )
        if n <= board.opened:
            raise IllegalMoveError(reopen_message(board, n), _C.OUT_OF_ORDER)
        return n, []

    def apply(self, board: BoardState, plan: Plan) -> None:
        board._log((self, board.open_ray, board.opened, board.stage))
        board.open_ray = board.opened = plan[0]
        board.stage = Stage.SUN_PLAYS

    def undo(self, board: BoardState, record: tuple[Any, ...]) -> None:
        _, board.open_ray, board.opened, board.stage = record

    def moves(self, board: BoardState) -> list[Move]:
        if board.deals < DEALS or board.stage >= Stage.SUNSET or not board.rules.opens:
            return []
        return [Move.open(n) for n in range(board.opened + 1, RAYS + 1)]

    def played(self, board: BoardState, move: Move, record: tuple[Any, ...]) -> Played:
        from sunlog.engine.played import Opened  # see Board._at

        return Opened(Move.open(board.opened), board.opened)


class Gather(StageAction):
    """Gathering a ray (SPEC 3.4): its cards dealt out onto the rays after it, the rest
    laid as a new cloud (:func:`~sunlog.engine.rules.gather_out`)."""

    def resolve(self, board: BoardState, move: Move) -> Plan:
        n = move.index
        assert n is not None
        _check_ray_action(board, n, "gather", "gathered")
        if n <= board.gathered:
            raise IllegalMoveError(
                f"gather {n}: ray {n} has already been gathered or passed over "
                f"(rays are gathered in order; ray {board.gathered} was the last)",
                _C.OUT_OF_ORDER,
            )
        for m in range(board.gathered + 1, n):
            if board.pile(m - 1):
                raise IllegalMoveError(
                    f"gather {n}: ray {m} has not been gathered (gather {m} first)",
                    _C.NOT_GATHERED,
                )
        return n, []

    def apply(self, board: BoardState, plan: Plan) -> None:
        n = plan[0]
        cards = board._take_all(n - 1, n - 1)
        onto, rest = gather_out(cards, n)
        board._lay_across(onto, n - 1, n)
        if rest:
            board._lay_all(rest, n - 1, board._new_cloud())
        board._log(
            (self, n, cards, len(onto), bool(rest), board.open_ray, board.gathered, board.stage)
        )
        board.gathered = n
        board.open_ray = None
        board.stage = Stage.SUNSET

    def undo(self, board: BoardState, record: tuple[Any, ...]) -> None:
        # Back in the order they were dealt out (onto the rays, then the cloud): the
        # ray's own order.
        _, n, _, dealt, cloud, board.open_ray, board.gathered, board.stage = record
        board._put_back(n - 1, board._lift_across(n, dealt, n - 1))
        if cloud:
            board._put_back(n - 1, board._take_all(cloud_pile(board.cloud_count), n - 1))
            board._drop_cloud()

    def moves(self, board: BoardState) -> list[Move]:
        moves: list[Move] = []
        if board.deals < DEALS or board.stage >= Stage.WIND:
            return moves
        for n in range(board.gathered + 1, RAYS + 1):
            moves.append(Move.gather(n))
            if board.pile(n - 1):
                break
        return moves

    def played(self, board: BoardState, move: Move, record: tuple[Any, ...]) -> Played:
        from sunlog.engine.played import Gathered  # see Board._at

        _, n, picked, dealt, cloud = record[:5]
        return Gathered(
            Move.gather(n),
            n,
            tuple(picked),
            tuple((n + 1 + i, picked[i]) for i in range(dealt)),
            board.cloud_count if cloud else None,
            tuple(picked[RAYS - n :]) if cloud else (),
        )


class Wind(StageAction):
    """The wind (SPEC 3.5): every card of the clouds and rays into one row."""

    def resolve(self, board: BoardState, move: Move) -> Plan:
        if board.is_won():
            raise IllegalMoveError("the game is won: no move is legal", _C.GAME_WON)
        if board.stage is Stage.WIND:
            raise IllegalMoveError("the wind blows only once, and it has blown", _C.WIND_BLOWN)
        not_over(board, "the wind")
        waiting = _waiting(board)
        if waiting:
            raise IllegalMoveError(
                f"the wind comes after every ray is gathered or empty: ray {waiting[0]} "
                f"has not been gathered (gather {waiting[0]} next)",
                _C.NOT_GATHERED,
            )
        collected = board.collected()
        if move.cards is None:
            if board.deal_number is None:
                raise IllegalMoveError(
                    "this game has no Deal tag, so the wind row must be named: "
                    f"wind followed by the {len(collected)} cards, left to right",
                    _C.WIND_ROW_UNNAMED,
                )
            return 0, wind_row(board.deal_number, collected)
        check_named_cards(move.cards, "the wind")
        row = list(move.cards)
        if Counter(row) != Counter(collected):
            missing = Counter(collected) - Counter(row)
            extra = Counter(row) - Counter(collected)
            parts = [f"the wind row must hold exactly the {len(collected)} collected cards"]
            if missing:
                parts.append("missing " + " ".join(map(str, sorted(missing.elements()))))
            if extra:
                parts.append("not collected " + " ".join(map(str, sorted(extra.elements()))))
            raise IllegalMoveError("; ".join(parts), _C.WIND_ROW_WRONG)
        return 0, row

    def apply(self, board: BoardState, plan: Plan) -> None:
        clouds = [
            board._take_all(cloud_pile(k), WIND_PILE) for k in range(1, board.cloud_count + 1)
        ]
        rays = [board._take_all(n, WIND_PILE) for n in range(RAYS)]
        board._log((self, clouds, rays, board.stage))
        board._put_back(WIND_PILE, plan[1])
        board.stage = Stage.WIND

    def undo(self, board: BoardState, record: tuple[Any, ...]) -> None:
        _, clouds, rays, board.stage = record
        board._take_all(WIND_PILE, WIND_PILE)
        for k, cards in enumerate(clouds, 1):
            board._lay_all(cards, WIND_PILE, cloud_pile(k))
        for n, cards in enumerate(rays):
            board._lay_all(cards, WIND_PILE, n)

    def moves(self, board: BoardState) -> list[Move]:
        if board.deals < DEALS or board.stage >= Stage.WIND or board.deal_number is None:
            return []
        for n in range(board.gathered + 1, RAYS + 1):
            if board.pile(n - 1):  # a ray still to gather: no wind yet
                return []
        return [Move.wind()]

    def canonical(self, board: BoardState, move: Move, plan: Plan) -> Move:
        number = board.deal_number
        if number is not None and plan[1] == wind_row(number, board.collected()):
            return Move.wind()
        return move

    def named(self, board: BoardState, move: Move) -> Move:
        return Move.wind(board.pile(WIND_PILE))

    def played(self, board: BoardState, move: Move, record: tuple[Any, ...]) -> Played:
        from sunlog.engine.played import WindBlown  # see Board._at

        row = list(board.pile(WIND_PILE))
        canonical = Move.wind(row)
        if move.cards is None:  # the row the Deal tag derives
            canonical = move
        elif board.deal_number is not None:
            collected = [c for cloud in record[1] for c in cloud]
            collected += [c for ray in record[2] for c in ray]
            if row == wind_row(board.deal_number, collected):
                canonical = Move.wind()
        return WindBlown(canonical, tuple(row))


def _waiting(board: BoardState) -> list[int]:
    """The rays not gathered yet that still hold cards (the wind waits for them)."""
    return [n for n in range(board.gathered + 1, RAYS + 1) if board.pile(n - 1)]


#: The stage actions by kind, in the order :meth:`Board.legal_moves` lists them.
STAGE_ACTIONS: dict[MoveKind, StageAction] = {
    MoveKind.DEAL: Deal(),
    MoveKind.OPEN: Open(),
    MoveKind.GATHER: Gather(),
    MoveKind.WIND: Wind(),
}
