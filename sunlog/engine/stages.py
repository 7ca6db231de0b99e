"""The stage actions (SPEC 3.2 to 3.5): a deal, opening a ray, gathering one and the
wind, each checked, with the reason it cannot come now. The position applies them
(:class:`~sunlog.engine.state.BoardState`)."""

from __future__ import annotations

from collections import Counter

from sunlog.engine.arguments import check_named_cards
from sunlog.engine.cards import Card
from sunlog.engine.deal import wind_row
from sunlog.engine.errors import IllegalMoveError
from sunlog.engine.errors import MoveErrorCode as _C
from sunlog.engine.explain import check_ray_number, reopen_message
from sunlog.engine.moves import Move
from sunlog.engine.rules import DEALS, RAYS, Stage
from sunlog.engine.state import FOUNDATION_PILE, BoardState

__all__ = ["check_gather", "check_open", "resolve_deal", "resolve_wind"]


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


def resolve_deal(board: BoardState, move: Move) -> list[Card]:
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
        return cards
    if named is None:
        raise IllegalMoveError(
            "the deck is not known (no Deal or Deck tag): name the 13 cards dealt",
            _C.DECK_UNKNOWN,
        )
    counts = Counter(named)
    for card, count in counts.items():
        if board.dealt_copies(card) + count > 2:
            raise IllegalMoveError(
                f"deal {deal_no} names a third {card}: there are only two of each card",
                _C.THIRD_COPY,
            )
    return list(named)


def _check_ray_action(board: BoardState, n: int, action: str, done: str) -> None:
    """What an ``open n`` and a ``gather n`` both need: the deals made, the game not won,
    a ray ``n`` on the table, the wind not blown."""
    if board.deals < DEALS or len(board.pile(FOUNDATION_PILE)) == 13:  # else not over: no call
        not_over(board, action)
    if not 1 <= n <= RAYS:
        check_ray_number(n)
    if board.stage is Stage.WIND:
        raise IllegalMoveError(f"no ray can be {done} after the wind", _C.AFTER_WIND)


def check_open(board: BoardState, n: int | None) -> int:
    """The ray ``open n`` opens, or why it cannot be opened now."""
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
    return n


def check_gather(board: BoardState, n: int | None) -> int:
    """The ray ``gather n`` gathers, or why it cannot be gathered now."""
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
                f"gather {n}: ray {m} has not been gathered (gather {m} first)", _C.NOT_GATHERED
            )
    return n


def resolve_wind(board: BoardState, move: Move) -> list[Card]:
    if board.is_won():
        raise IllegalMoveError("the game is won: no move is legal", _C.GAME_WON)
    if board.stage is Stage.WIND:
        raise IllegalMoveError("the wind blows only once, and it has blown", _C.WIND_BLOWN)
    not_over(board, "the wind")
    waiting = [n for n in range(board.gathered + 1, RAYS + 1) if board.pile(n - 1)]
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
        return wind_row(board.deal_number, collected)
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
    return row
