"""The position and the rules of Sun, Sun-2 and Sun-3 (SPEC sections 2, 3 and 6).

:class:`Board` holds one position (:class:`~sunlog.engine.state.BoardState`, with the
rule primitives), applies moves with :meth:`Board.push` (checking every rule and raising
:class:`IllegalMoveError` or :class:`AmbiguousMoveError` with a message a player
understands), undoes them with :meth:`Board.pop`, lists :meth:`Board.legal_moves` in
canonical form and reports its :meth:`Board.status`. It knows nothing of text files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sunlog.engine.boardjson import position_json
from sunlog.engine.canonical import canonical_form
from sunlog.engine.cards import Card
from sunlog.engine.explain import ambiguous, explain_card
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.rules import DEALS, RAYS, Stage, Status, Variant
from sunlog.engine.stages import STAGE_ACTIONS
from sunlog.engine.state import (
    FOUNDATION_PILE,
    NO_PILE,
    STOCK,
    WIND_PILE,
    BoardState,
    Reading,
    open_ray_cards,
    pile_index,
    place_of,
    row_ends,
)

if TYPE_CHECKING:
    from sunlog.engine.played import Played, Spot
    from sunlog.engine.position import PositionState

__all__ = ["DEALS", "RAYS", "Board", "Stage", "Status", "Variant"]

# A legal reading with its source and destination piles (pile numbers, as
# :mod:`sunlog.engine.state` has them): (place, index, pos, card, source, destination).
_Plan = tuple[Place, int, int, Card, int, int]
# Enum members as module constants for push's path: with Place.RAY and the like written
# out, a push took 1.9 µs instead of 1.4 (canonical logs; 2.9 against 2.0 for short forms).
_E_LEFT = End.LEFT
_K_CARD = MoveKind.CARD
_P_ACES = Place.ACES
_P_CLOUD = Place.CLOUD
_P_KINGS = Place.KINGS
_P_RAY = Place.RAY
_P_WIND = Place.WIND
#: Not asked yet (no pile number: below :data:`NO_PILE`).
_UNASKED = NO_PILE - 1


class Board(BoardState):
    """A position of Sun with its move history: moves are checked, played and undone here.

    Foundations are eight piles: in ``sun`` and ``sun-2`` indexes 0..3 are the aces piles
    and 4..7 the kings piles of S H D C; in ``sun-3`` 0..3 are the first and 4..7 the
    second aces piles. Rays and clouds are lists, inner (left) card first.
    """

    @classmethod
    def from_position(cls, text: object) -> Board:
        """The board at the position a position string holds (docs/positions.md), with
        no moves behind it; :class:`PositionError` (a ``ValueError``) names the field."""
        from sunlog.engine.position import read_position  # see _at

        return Board._at(read_position(text))

    @classmethod
    def from_json(cls, obj: object) -> Board:
        """The board at the position object of ``show --json`` (:meth:`to_json`)."""
        from sunlog.engine.position import state_from_json  # see _at

        return Board._at(state_from_json(obj))

    @staticmethod
    def _at(state: PositionState) -> Board:
        """The one hook that sets a fresh board to a checked position.

        :mod:`~sunlog.engine.position` (and :mod:`~sunlog.engine.lastplayed`, for
        :meth:`last_played` and :meth:`playable`) load when first asked for, not with the
        board: their classes took 12 ms of a one-game ``check``'s 108 ms start."""
        board = Board(state.variant, deal=state.deal, deck=state.deck())
        board._set_position(
            counts=(state.moves, state.deals, state.opened, state.gathered),
            open_ray=state.open_ray,
            stage=state.stage,
            piles=(state.rays, state.piles(), state.wind or ()),
            clouds=state.clouds,
        )
        return board

    def position(self) -> str:
        """The position string (docs/positions.md): ``Board.from_position`` of it gives
        an equal board, which goes on exactly as this one."""
        from sunlog.engine.position import write_position  # see _at

        return write_position(self)

    def copy(self) -> Board:
        """An independent copy of the position and its history."""
        other = Board.__new__(Board)
        self._copy_to(other)
        return other

    # ------------------------------------------------------------ legal moves

    def legal_moves(self) -> list[Move]:
        """Every legal move here, in canonical form, without duplicates.

        A deal in a physical game (deck unknown) and a wind without a deal number need
        their cards named, so they are legal but cannot be listed.
        """
        if self.is_won():
            return []
        moves = [
            canonical_form(self, reading, target, dst)
            for reading in self.readings()
            for target, dst in self.targets(reading)
        ]
        for action in STAGE_ACTIONS.values():
            moves.extend(action.moves(self))
        return moves

    # ---------------------------------------------------------------- pushing

    def is_legal(self, move: Move) -> bool:
        """Whether ``push(move)`` would succeed (an ambiguous short form is not legal)."""
        try:
            self._resolve(move)
        except ValueError:
            return False
        return True

    def canonical(self, move: Move) -> Move:
        """The canonical form of a legal move here (raises like :meth:`push` otherwise)."""
        if move.kind is MoveKind.CARD:
            reading, target, dst = self._resolve_card(move)
            return canonical_form(self, reading, target, pile_index(dst))
        action = STAGE_ACTIONS[move.kind]
        return action.canonical(self, move, action.resolve(self, move))

    def shortest(self, move: Move) -> Move:
        """The shortest form of a card move that reads as it does here (SPEC 5.2): the bare
        card (``KS>K``), else the source without the card (``r5>A``), else ``move`` itself.
        What a person at the table would write; other moves come back as they are."""
        if move.kind is not MoveKind.CARD or move.card is None or move.source is None:
            return move
        meant = self.canonical(move)
        for form in (
            move._replace(source=None, index=None, depth=None, end=None),
            move._replace(card=None),
        ):
            try:
                if self.canonical(form) == meant:
                    return form
            except ValueError:
                continue
        return move

    def named_cards(self, move: Move) -> Move:
        """``move``, just pushed here, as a game played with real cards writes it: a deal
        naming the 13 cards it dealt (ray 1 first), the wind naming its row; other moves as
        they are. Such a log needs no Deal tag."""
        if move.kind is MoveKind.CARD:
            return move
        return STAGE_ACTIONS[move.kind].named(self, move)

    def push(self, move: Move) -> None:
        """Check ``move`` against every rule and play it."""
        kind = move[0]
        if kind is _K_CARD:
            card = move[2]
            if move[3] is None and card is not None:  # a bare card: no source to read
                plans = self._bare_plans(card, move[6], move[7])
            else:
                plans = self._card_plans(move)
            if len(plans) != 1:
                self._settle(move, plans)
            _, _, pos, moved, source, dest = plans[0]
            self._move_card(moved, source, pos, dest)
        else:
            action = STAGE_ACTIONS[kind]
            action.apply(self, action.resolve(self, move))
        self.move_stack.append(move)

    def push_text(self, text: str) -> Move:
        """Parse ``text`` as one move, push it and return the parsed move."""
        move = Move.parse(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._undo:
            raise IndexError("pop from a board with no moves")
        self._take_back()
        return self.move_stack.pop()

    def _resolve(self, move: Move) -> object:
        """Check a move without playing it; return what is needed to apply it."""
        if move.kind is MoveKind.CARD:
            return self._resolve_card(move)
        return STAGE_ACTIONS[move.kind].resolve(self, move)

    # ------------------------------------------------------------- card moves

    def _resolve_card(self, move: Move) -> tuple[Reading, Target, int]:
        """Find the one reading of a card move, or explain why there is none or several."""
        plans = self._card_plans(move)
        if len(plans) != 1:
            self._settle(move, plans)
        place, index, pos, card, _, dest = plans[0]
        assert move.target is not None
        return (place, index, pos, card), move.target, dest

    def _settle(self, move: Move, plans: list[_Plan]) -> None:
        """A card move with no legal reading, or several: raise why it is illegal, or
        :class:`AmbiguousMoveError` unless every reading gives the same position (SPEC
        5.2: then the first is played)."""
        if not plans:
            explain_card(self, move)
            raise AssertionError(f"{move}: no legal reading, yet no rule refuses it")
        target = move.target
        assert target is not None
        keys = set()
        forms = []
        for place, index, pos, card, source, dest in plans:
            reading = (place, index, pos, card)
            forms.append(str(canonical_form(self, reading, target, pile_index(dest))))
            self._move_card(card, source, pos, dest)
            keys.add(self.key())
            self._take_back()
        if len(keys) > 1:
            raise ambiguous(move, forms)

    def _card_plans(self, move: Move) -> list[_Plan]:
        """Every legal reading of a card move with where its card goes, once per distinct
        result: (place, index, pos, card, source pile, destination pile). No message is
        built here: an empty list is explained by :func:`explain_card`.

        The card's playable copies are looked for only where the move says (a bare card:
        where the index says its two copies lie), and where a card may go is asked of
        :meth:`dest`, the one rule."""
        _, n, card, source, depth, end, target, target_ray, _ = move
        if source is _P_RAY:
            if n is None or not 0 < n <= RAYS:
                return []
            src = self._rays[n - 1]
            if not src:
                return []
            top = len(src) - 1
            is_open = n == self.open_ray
            if depth is not None:
                pos = top + 1 - depth
                if depth < 1 or pos < 0 or (depth > 1 and not is_open):
                    return []
                if card is None:
                    card = src[pos]
                elif src[pos] != card:
                    return []
            elif card is None:
                if top and is_open:  # any card of the open ray
                    return self._off_plans(
                        [(_P_RAY, n, pos, c) for pos, c in open_ray_cards(src)],
                        target,
                        target_ray,
                    )
                pos, card = top, src[top]
            elif src[top] == card:
                pos = top
            elif not is_open:
                return []
            else:  # the open ray: the outermost copy
                pos = top - 1
                while pos >= 0 and src[pos] != card:
                    pos -= 1
                if pos < 0:
                    return []
            dst = self.dest(card, _P_RAY, target, target_ray)
            return [] if dst == NO_PILE else [(_P_RAY, n, pos, card, n - 1, dst)]
        if source is None:
            return [] if card is None else self._bare_plans(card, target, target_ray)
        if source is _P_CLOUD or source is _P_WIND:
            if source is _P_WIND:
                n = 0
            elif n is None or not 0 < n <= self.cloud_count:
                return []
            row = self._piles[WIND_PILE + n]
            if not row:
                return []
            last = len(row) - 1
            if end is not None:
                pos = 0 if end is _E_LEFT else last
                if card is not None and row[pos] != card:
                    return []
                readings = [(source, n, pos, row[pos])]
            else:
                readings = [(source, n, 0, row[0])]
                if last:
                    readings.append((source, n, last, row[last]))
                if card is not None:
                    readings = [r for r in readings if r[3] == card]
            return self._off_plans(readings, target, target_ray)
        # A foundation's top, onto the other foundation of its suit.
        if not self._rules.shifts:
            return []
        base = 0 if source is _P_ACES else 4
        plans: list[_Plan] = []
        for i in range(base, base + 4) if card is None else (base + card // 13,):
            pile = self._foundations[i]
            if len(pile) > 1 and (card is None or pile[-1] == card):
                dst = self.dest(pile[-1], source, target, target_ray)
                if dst != NO_PILE:
                    plans.append((source, i, len(pile) - 1, pile[-1], FOUNDATION_PILE + i, dst))
        return plans

    def _off_plans(
        self, readings: list[Reading], target: Target | None, target_ray: int | None
    ) -> list[_Plan]:
        """The plans of readings off the foundations (a ray, a cloud, the wind row): where
        a card from any of them goes depends on the card alone."""
        plans: list[_Plan] = []
        for place, index, pos, card in readings:
            dst = self.dest(card, place, target, target_ray)
            if dst != NO_PILE:
                source = index - 1 if place is _P_RAY else WIND_PILE + index
                plans.append((place, index, pos, card, source, dst))
        return plans

    def _bare_plans(self, card: Card, target: Target | None, target_ray: int | None) -> list[_Plan]:
        """The plans of a bare card move (no source named): each playable copy once per
        distinct result, in the order foundations, the open ray, the other rays, the
        clouds, the wind row. The index says which piles hold the card's two copies, so
        only those are looked at; a copy off the foundations goes where any other would,
        so its destination is asked once, and not at all when no copy is playable."""
        plans: list[_Plan] = []
        open_pile = NO_PILE if self.open_ray is None else self.open_ray - 1
        off = _UNASKED  # the destination of a copy off the foundations, once asked
        seen = _UNASKED
        for pile in self._where[card]:
            if pile in (STOCK, seen):
                continue
            seen = pile
            cards = self._piles[pile]
            if pile < FOUNDATION_PILE and pile != open_pile:  # a ray: its outer card
                if cards[-1] != card:
                    continue
                found = [(_P_RAY, pile + 1, len(cards) - 1)]
            elif pile < FOUNDATION_PILE:  # the open ray: any card
                found = [(_P_RAY, pile + 1, pos) for pos, c in open_ray_cards(cards) if c == card]
            elif pile < WIND_PILE:  # a foundation's top, onto the other pile of its suit
                i = pile - FOUNDATION_PILE
                if self._rules.shifts and len(cards) > 1 and cards[-1] == card:
                    place = _P_ACES if i < 4 else _P_KINGS
                    dst = self.dest(card, place, target, target_ray)
                    if dst != NO_PILE:
                        plans.append((place, i, len(cards) - 1, card, pile, dst))
                continue
            else:  # an end of a cloud or of the wind row
                place, index = place_of(pile)
                found = [(place, index, pos) for pos in row_ends(cards) if cards[pos] == card]
            if found and off == _UNASKED:
                off = self.dest(card, _P_RAY, target, target_ray)
            if off != NO_PILE:
                for place, index, pos in found:
                    plans.append((place, index, pos, card, pile, off))
        if len(plans) > 1:
            plans.sort(key=self._plan_order)
        return plans

    def _plan_order(self, plan: _Plan) -> tuple[int, int]:
        """Where a bare card's plan comes in the order of :meth:`_bare_plans`."""
        place, index = plan[0], plan[1]
        if place is _P_RAY:
            return (1 if index == self.open_ray else 2), index
        group = 3 if place is _P_CLOUD else 4 if place is _P_WIND else 0
        return group, index

    def last_played(self) -> Played:
        """What the last move pushed did, with its canonical form: where a card came from
        (as the position was before it) and went to, what a deal or a gather dealt, the
        wind's row. Read from the undo record, so it costs no replay; ``IndexError`` when
        no move has been played."""
        from sunlog.engine.lastplayed import last_played  # see _at

        return last_played(self)

    def playable(self) -> list[tuple[Card, Spot]]:
        """Every playable card with its spot, once per distinct result: the outer card of
        each ray (any card of the open ray), both ends of each cloud and of the wind row,
        and a foundation's top where it can move onto the other pile of its suit."""
        from sunlog.engine.lastplayed import playable  # see _at

        return playable(self)

    # -------------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """The position object of SPEC 6."""
        return position_json(self)

    def __eq__(self, other: object) -> bool:
        """Equal positions (:meth:`key`), whatever the moves that led there."""
        if not isinstance(other, Board):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        """``Board.from_position('...')``: pastes back as an equal board."""
        return f"Board.from_position({self.position()!r})"

    def __str__(self) -> str:
        """The board drawn in plain text, as ``sunlog show`` draws it without colour (with
        the line saying what its marks mean)."""
        return str(_view("terminal", "board_text")(self, with_legend=True))

    def _repr_svg_(self) -> str:
        """The board as ``sunlog render`` draws it, for Jupyter (as python-chess's board
        draws itself with its SVG module)."""
        last = self.last_played().canonical if self._undo else None
        return str(_view("svg", "board_svg")(self, last_move=last))


def _view(module: str, name: str) -> Any:
    """A drawing of ``sunlog.views``, imported when a board draws itself, never when the
    engine loads (docs/architecture.md): named, not imported in the source, so that the
    compiled build, whose isolated environment has no Rich, does not follow the engine
    into the views."""
    from importlib import import_module

    return getattr(import_module(f"sunlog.views.{module}"), name)
