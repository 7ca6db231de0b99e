"""The position and the rules of Sun, Sun-2 and Sun-3 (SPEC sections 2, 3 and 6).

:class:`Board` holds one position, applies moves with :meth:`Board.push` (checking every
rule and raising :class:`IllegalMoveError` or :class:`AmbiguousMoveError` with a message
a player understands), undoes them with :meth:`Board.pop`, lists :meth:`Board.legal_moves`
in canonical form and reports its :meth:`Board.status`. It knows nothing of text files.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Any

from sunlog.engine.arguments import (
    deal_argument,
    deck_argument,
    variant_argument,
)
from sunlog.engine.boardjson import position_json
from sunlog.engine.cards import Card
from sunlog.engine.deal import deal_deck, wind_row
from sunlog.engine.errors import BoardArgumentError
from sunlog.engine.explain import check_same_result, explain_card
from sunlog.engine.lastplayed import CARD as _CARD
from sunlog.engine.lastplayed import DEAL as _DEAL
from sunlog.engine.lastplayed import GATHER as _GATHER
from sunlog.engine.lastplayed import OPEN as _OPEN
from sunlog.engine.lastplayed import (
    canonical_form,
    last_played,
    named_cards,
    playable,
    shortest,
)
from sunlog.engine.moves import End, Move, MoveKind, Place, Target
from sunlog.engine.played import (
    Played,
    Spot,
)
from sunlog.engine.position import PositionState, read_position, state_from_json, write_position
from sunlog.engine.rules import (
    DEALS,
    RAYS,
    RULES,
    Stage,
    Status,
    Variant,
    VariantRules,
)
from sunlog.engine.stages import (
    apply_deal,
    apply_gather,
    apply_wind,
    check_gather,
    check_open,
    resolve_deal,
    resolve_wind,
)

__all__ = ["DEALS", "RAYS", "Board", "Stage", "Status", "Variant"]


# A reading of a card move: (place, index, pos, card). ``index`` is the ray or cloud number,
# or the foundation pile's index; ``pos`` the card's list index within its pile.
_Reading = tuple[Place, int, int, Card]
# A legal reading with its source and destination piles: (place, index, pos, card, src, dst).
_Plan = tuple[Place, int, int, Card, list[Card], list[Card]]
# Enum members as module constants for push's path: with Place.RAY and the like written
# out, a push took 1.9 µs instead of 1.4 (canonical logs; 2.9 against 2.0 for short forms).
_E_LEFT = End.LEFT
_K_CARD = MoveKind.CARD
_K_DEAL = MoveKind.DEAL
_K_GATHER = MoveKind.GATHER
_K_OPEN = MoveKind.OPEN
_S_SUNRISE = Stage.SUNRISE
_S_SUN_PLAYS = Stage.SUN_PLAYS
_P_ACES = Place.ACES
_P_CLOUD = Place.CLOUD
_P_KINGS = Place.KINGS
_P_RAY = Place.RAY
_P_WIND = Place.WIND
_T_ACES = Target.ACES
_T_ACES1 = Target.ACES1
_T_ACES2 = Target.ACES2
_T_KINGS = Target.KINGS
_T_RAY = Target.RAY


class Board:
    """A position of Sun with its move history.

    Foundations are eight piles: in ``sun`` and ``sun-2`` indexes 0..3 are the aces piles
    and 4..7 the kings piles of S H D C; in ``sun-3`` 0..3 are the first and 4..7 the
    second aces piles. Rays and clouds are lists, inner (left) card first.
    """

    def __init__(
        self, variant: object = Variant.SUN, *, deal: object = None, deck: object = None
    ) -> None:
        """``variant`` is a :class:`Variant` or its name; ``deal`` a deal number (0 to
        2^64-1) or ``None``; ``deck`` 104 Cards, top first, or ``None``. A wrong one raises
        :class:`BoardArgumentError` (a ``ValueError``) saying what is expected.

        Typed ``object``, so that a wrong argument reaches these checks in the compiled
        build too, whose calls would refuse it with a bare ``TypeError`` first (mypyc
        cannot compile an overloaded ``__init__``)."""
        self.variant = variant_argument(variant)
        number = deal_argument(deal)
        cards = None if deck is None else deck_argument(deck)
        if cards is not None:
            if number is not None and cards != deal_deck(number):
                raise BoardArgumentError(f"the Deck tag is not the deck of deal {number}")
        elif number is not None:
            cards = deal_deck(number)
        self.deal_number = number
        self._deck: list[Card] | None = cards
        self._named: list[int] | None = [0] * 52 if cards is None else None
        self.deals = 0
        self._rays: list[list[Card]] = [[] for _ in range(RAYS)]
        self._foundations: list[list[Card]] = [[] for _ in range(8)]
        self.open_ray: int | None = None
        self.opened = 0
        self.gathered = 0
        self.stage = Stage.SUNRISE
        self._clouds: list[list[Card]] = []
        self._wind_row: list[Card] | None = None
        self.move_stack: list[Move] = []
        self._undo: list[tuple[Any, ...]] = []
        #: What this variant changes in the rules (data, read by the rules below).
        self._rules = RULES[self.variant.value]
        # Until the first gather, every card off the foundations lies on the ray it was
        # dealt to, unless sun-3 has put one onto an empty ray (then this turns True for
        # good): the bare card's search looks at the rays its two copies were dealt to.
        self._parked = False
        # Where the deck holds each card's first and its second copy (built when needed).
        self._copies: tuple[bytes, bytes] | None = None
        # The position this board started from (``from_position``), or None: its start.
        self._start: PositionState | None = None

    @classmethod
    def from_position(cls, text: object) -> Board:
        """The board at the position a position string holds (docs/positions.md), with
        no moves behind it; :class:`PositionError` (a ``ValueError``) names the field."""
        return Board._at(read_position(text))

    @classmethod
    def from_json(cls, obj: object) -> Board:
        """The board at the position object of ``show --json`` (:meth:`to_json`)."""
        return Board._at(state_from_json(obj))

    @staticmethod
    def _at(state: PositionState) -> Board:
        """The one hook that sets a fresh board to a checked position."""
        board = Board(state.variant, deal=state.deal, deck=state.deck())
        board._start = state
        board.deals, board.opened, board.gathered = state.deals, state.opened, state.gathered
        board.open_ray, board.stage = state.open_ray, state.stage
        board._rays = [list(ray) for ray in state.rays]
        board._foundations = state.piles()
        board._clouds = [list(cloud) for cloud in state.clouds]
        board._wind_row = None if state.wind is None else list(state.wind)
        board._parked = True  # where each card was dealt is not known: look everywhere
        if board._named is not None:
            for card in state.table():
                board._named[card] += 1
        return board

    def position(self) -> str:
        """The position string (docs/positions.md): ``Board.from_position`` of it gives
        an equal board, which goes on exactly as this one."""
        return write_position(self)

    # ----------------------------------------------------------------- queries

    @property
    def rays(self) -> list[list[Card]]:
        """Rays 1..13 (index 0..12), inner card first: a copy, so changing it changes
        nothing here (the position changes only by moves)."""
        return [list(ray) for ray in self._rays]

    @property
    def foundations(self) -> list[list[Card]]:
        """The eight foundation piles, base first (a copy): in ``sun`` and ``sun-2``
        indexes 0..3 are the aces piles and 4..7 the kings piles of S H D C; in ``sun-3``
        0..3 are the first and 4..7 the second aces piles."""
        return [list(pile) for pile in self._foundations]

    @property
    def clouds(self) -> list[list[Card]]:
        """The clouds in the order they were made, each left to right (a copy)."""
        return [list(cloud) for cloud in self._clouds]

    @property
    def wind_row(self) -> list[Card] | None:
        """The wind row left to right (a copy), ``None`` before the wind."""
        return None if self._wind_row is None else list(self._wind_row)

    def ray(self, n: int) -> tuple[Card, ...]:
        """Ray ``n`` (1..13), inner card first."""
        return tuple(self._rays[n - 1])

    @property
    def rules(self) -> VariantRules:
        """What this game's variant changes in the rules (read-only data)."""
        return self._rules

    @property
    def deck(self) -> list[Card] | None:
        """The whole stock before the first deal, top first; ``None`` if not known."""
        return None if self._deck is None else list(self._deck)

    @property
    def stock(self) -> list[Card] | None:
        """Cards still in the stock, top first; ``None`` while the deck is unknown."""
        if self._deck is not None:
            return self._deck[self.deals * RAYS :]
        return [] if self.deals == DEALS else None

    @property
    def move_count(self) -> int:
        """Moves played since the deal began (from a position: its count, then these)."""
        return len(self.move_stack) + (0 if self._start is None else self._start.moves)

    def on_foundations(self) -> int:
        """How many cards lie on the foundations."""
        return sum(map(len, self._foundations))

    def collected(self) -> list[Card]:
        """The cards the wind collects, in the order it collects them: the clouds in
        order, each left to right, then rays 1..13, inner card first."""
        return [*chain.from_iterable(self._clouds), *chain.from_iterable(self._rays)]

    def is_won(self) -> bool:
        """All 104 cards on the foundations. A pile holds at most 13 (a run of one suit), so
        a first pile short of 13 says no without counting the others."""
        return len(self._foundations[0]) == 13 and self.on_foundations() == 104

    def status(self) -> Status:
        """``won``, ``lost`` or ``playing`` exactly as SPEC 3.7 defines them."""
        if self.is_won():
            return Status.WON
        if self.stage is not Stage.WIND or self._can_progress():
            return Status.PLAYING
        return Status.LOST

    def aces_pile(self, suit: int, which: int = 1) -> list[Card]:
        """The aces pile of ``suit`` (``which`` 1 or 2 in ``sun-3``), base first (a copy)."""
        return list(self._foundations[suit + (4 if which == 2 else 0)])

    def kings_pile(self, suit: int) -> list[Card]:
        """The kings pile of ``suit`` (``sun`` and ``sun-2`` only)."""
        if self._rules.two_aces_piles:
            raise ValueError("sun-3 has no kings piles")
        return list(self._foundations[suit + 4])

    def key(self) -> tuple[Any, ...]:
        """A hashable key, equal exactly when two positions are equal (history aside)."""
        stock = self.stock
        return (
            self.variant,
            self.deals,
            None if stock is None else tuple(stock),
            tuple(map(tuple, self._rays)),
            tuple(map(tuple, self._foundations)),
            self.open_ray,
            self.opened,
            self.gathered,
            self.stage,
            tuple(map(tuple, self._clouds)),
            None if self._wind_row is None else tuple(self._wind_row),
        )

    def copy(self) -> Board:
        """An independent copy of the position and its history."""
        other = Board.__new__(Board)
        # Every attribute by name (not ``__dict__``): a compiled Board has no ``__dict__``.
        other.variant = self.variant
        other.deal_number = self.deal_number
        other._deck = self._deck  # never mutated
        other.deals = self.deals
        other.open_ray = self.open_ray
        other.opened = self.opened
        other.gathered = self.gathered
        other.stage = self.stage
        other._rules = self._rules
        other._parked = self._parked
        other._copies = self._copies  # never mutated
        other._named = None if self._named is None else list(self._named)
        other._rays = [list(r) for r in self._rays]
        other._foundations = [list(p) for p in self._foundations]
        other._clouds = [list(c) for c in self._clouds]
        other._wind_row = None if self._wind_row is None else list(self._wind_row)
        other.move_stack = list(self.move_stack)
        other._undo = []
        other._start = self._start
        if self._start is None:
            replay = Board(self.variant, deal=self.deal_number, deck=self._deck)
        else:
            replay = Board._at(self._start)
        for move in self.move_stack:
            replay.push(move)
        other._undo = _remap_undo(replay, other)
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
            for reading in self._playable()
            for target, dst in self._targets(reading)
        ]
        moves.extend(self._stage_actions())
        return moves

    def _stage_actions(self) -> Iterator[Move]:
        if self.deals < DEALS:
            if self._deck is not None:
                yield Move.deal()
            return
        if self.stage < Stage.SUNSET and self._rules.opens:
            for n in range(self.opened + 1, RAYS + 1):
                yield Move.open(n)
        if self.stage < Stage.WIND:
            for n in range(self.gathered + 1, RAYS + 1):
                yield Move.gather(n)
                if self._rays[n - 1]:
                    break
            else:
                if self.deal_number is not None:
                    yield Move.wind()

    def _playable(self) -> Iterator[_Reading]:
        """Every playable card once per distinct result: (place, index, pos, card)."""
        for n, ray in enumerate(self._rays, 1):
            if not ray:
                continue
            if n == self.open_ray:
                outer = None
                for pos in range(len(ray) - 1, -1, -1):
                    card = ray[pos]
                    if card != outer:
                        yield (Place.RAY, n, pos, card)
                    outer = card
            else:
                yield (Place.RAY, n, len(ray) - 1, ray[-1])
        for k, cloud in enumerate(self._clouds, 1):
            yield from _row_ends(Place.CLOUD, k, cloud)
        if self._wind_row:
            yield from _row_ends(Place.WIND, 0, self._wind_row)
        if self._rules.shifts:
            for i, pile in enumerate(self._foundations):
                if len(pile) > 1:
                    yield (Place.ACES if i < 4 else Place.KINGS, i, len(pile) - 1, pile[-1])

    def _targets(self, reading: _Reading) -> Iterator[tuple[Target, int]]:
        """The (target, destination index) pairs where the reading's card may go: each
        foundation pile of its suit, then (sun-3) each empty ray, as :meth:`_dest` allows."""
        place, _, _, card = reading
        suit = card // 13
        for i in (suit, suit + 4):
            target = self._pile_target(i)
            if self._dest(card, place, target, None) is not None:
                yield (target, i)
        if self._rules.parks and place is not Place.ACES and place is not Place.KINGS:
            for n in range(1, RAYS + 1):
                if self._dest(card, place, Target.RAY, n) is not None:
                    yield (Target.RAY, n)

    def _takes(self, i: int, card: int) -> bool:
        """Whether foundation pile ``i`` (of ``card``'s suit) takes ``card`` now."""
        return self._rules.next_rank[i][len(self._foundations[i])] == card % 13

    def _pile_target(self, i: int) -> Target:
        """The target that names foundation pile ``i``: A or K, or A1 or A2 in sun-3."""
        if self._rules.two_aces_piles:
            return Target.ACES1 if i < 4 else Target.ACES2
        return Target.ACES if i < 4 else Target.KINGS

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
        plan = self._resolve(move)
        if move.kind is MoveKind.CARD:
            reading, target, dst = plan
            return canonical_form(self, reading, target, self._dst_index(target, dst))
        if move.kind is MoveKind.DEAL and self._deck is not None:
            return Move.deal()
        if move.kind is MoveKind.WIND and self.deal_number is not None:
            collected = self.collected()
            if list(plan[0]) == wind_row(self.deal_number, collected):
                return Move.wind()
        return move

    def shortest(self, move: Move) -> Move:
        """The shortest form of a card move that reads as it does here (SPEC 5.2): the bare
        card (``KS>K``), else the source without the card (``r5>A``), else ``move`` itself.
        What a person at the table would write; other moves come back as they are."""
        return shortest(self, move)

    def named_cards(self, move: Move) -> Move:
        """``move``, just pushed here, as a game played with real cards writes it: a deal
        naming the 13 cards it dealt (ray 1 first), the wind naming its row; other moves as
        they are. Such a log needs no Deal tag."""
        return named_cards(self, move)

    def push(self, move: Move) -> None:
        """Check ``move`` against every rule and play it."""
        kind = move[0]
        if kind is _K_CARD:
            plans = self._card_plans(move)
            if len(plans) != 1:
                self._settle(move, plans)
            _, _, pos, _, src, dst = plans[0]
            dst.append(src.pop(pos))
            self._undo.append((_CARD, src, pos, dst))
            if move[6] is _T_RAY:  # the target
                self._parked = True
        elif kind is _K_DEAL:
            apply_deal(self, resolve_deal(self, move))
        elif kind is _K_OPEN:
            ray = check_open(self, move.index)
            self._undo.append((_OPEN, self.open_ray, self.opened, self.stage))
            self.open_ray = self.opened = ray
            self.stage = Stage.SUN_PLAYS
        elif kind is _K_GATHER:
            apply_gather(self, check_gather(self, move.index))
        else:
            apply_wind(self, resolve_wind(self, move))
        self.move_stack.append(move)

    def try_push(self, move: Move) -> bool:
        """Play ``move`` if it is legal and say so; ``False``, with the board unchanged,
        when it is not (no message is built). Kept for callers of the quick lane:
        :meth:`push` is as fast."""
        try:
            self.push(move)
        except ValueError:
            return False
        return True

    def _card_plans(self, move: Move) -> list[_Plan]:
        """Every legal reading of a card move with where its card goes, once per distinct
        result: (place, index, pos, card, source pile, destination pile). No message is
        built here: an empty list is explained by :meth:`_explain_card`.

        The card's playable copies are looked for only where the move says (a bare card:
        its suit's foundations, the open ray, the ray tops that can hold it, the ends of
        the rows), and where a card may go is asked of :meth:`_dest`, the one rule."""
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
                        [(_P_RAY, n, pos, c) for pos, c in _open_ray_cards(src)],
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
            dst = self._dest(card, _P_RAY, target, target_ray)
            return [] if dst is None else [(_P_RAY, n, pos, card, src, dst)]
        if source is None:
            return [] if card is None else self._bare_plans(card, target, target_ray)
        if source is _P_CLOUD or source is _P_WIND:
            if source is _P_WIND:
                row, n = self._wind_row, 0
            else:
                row = self._clouds[n - 1] if n is not None and 0 < n <= len(self._clouds) else None
            if not row or n is None:
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
                dst = self._dest(pile[-1], source, target, target_ray)
                if dst is not None:
                    plans.append((source, i, len(pile) - 1, pile[-1], pile, dst))
        return plans

    def _off_plans(
        self, readings: list[_Reading], target: Target | None, target_ray: int | None
    ) -> list[_Plan]:
        """The plans of readings off the foundations (a ray, a cloud, the wind row): where
        a card from any of them goes depends on the card alone."""
        plans: list[_Plan] = []
        for place, index, pos, card in readings:
            dst = self._dest(card, place, target, target_ray)
            if dst is not None:
                plans.append((place, index, pos, card, self._pile(place, index), dst))
        return plans

    def _bare_plans(self, card: Card, target: Target | None, target_ray: int | None) -> list[_Plan]:
        """The plans of a bare card move (no source named): each playable copy once per
        distinct result, as :meth:`_playable` gives them, found without scanning every
        place. A game holds two copies of a card and a foundation's height says whether
        it holds one, so the search ends once both are found; before the first gather (and
        before sun-3 parks a card), a copy off the foundations lies on the ray it was
        dealt to, which the deck says. A copy off the foundations goes where any other
        would, so its destination is asked once, and the search is skipped when it has
        none."""
        suit = card // 13
        rules = self._rules
        found = self._foundations
        held = rules.held
        rank = card % 13
        plans: list[_Plan] = []
        left = 2  # copies not found yet
        for i in (suit, suit + 4):
            pile = found[i]
            if held[i][len(pile)] >> rank & 1:
                left -= 1
                if rules.shifts and pile[-1] == card and len(pile) > 1:
                    place = _P_ACES if i < 4 else _P_KINGS
                    dst = self._dest(card, place, target, target_ray)
                    if dst is not None:
                        plans.append((place, i, len(pile) - 1, card, pile, dst))
        if not left:
            return plans
        dst = self._dest(card, _P_RAY, target, target_ray)
        if dst is None:
            return plans  # no copy off the foundations may go there
        rays = self._rays
        open_ray = self.open_ray
        if open_ray is not None:
            pile = rays[open_ray - 1]
            if card in pile:
                for pos, c in _open_ray_cards(pile):
                    if c == card:
                        plans.append((_P_RAY, open_ray, pos, card, pile, dst))
                left -= pile.count(card)
                if left <= 0:
                    return plans
        stage = self.stage
        deck = self._deck
        if (stage is _S_SUNRISE or stage is _S_SUN_PLAYS) and not self._parked and deck:
            # No clouds yet, and a copy off the foundations is in the stock or on the ray
            # it was dealt to: only those rays' outer cards can be it.
            copies = self._copies
            if copies is None:
                copies = self._copies = _deck_copies(deck)
            dealt = self.deals * RAYS
            seen = -1
            for at in (copies[0][card], copies[1][card]):
                n = at % RAYS + 1
                if at < dealt and n != seen and n != open_ray:
                    seen = n
                    pile = rays[n - 1]
                    if pile and pile[-1] == card:
                        plans.append((_P_RAY, n, len(pile) - 1, card, pile, dst))
            return plans
        for n, pile in enumerate(rays, 1):
            if pile and pile[-1] == card and n != open_ray:
                plans.append((_P_RAY, n, len(pile) - 1, card, pile, dst))
                left -= 1
                if not left:
                    return plans
        for place, index, row in self._rows():
            for pos in _row_end_positions(row):
                if row[pos] == card:
                    plans.append((place, index, pos, card, row, dst))
        return plans

    def _rows(self) -> list[tuple[Place, int, list[Card]]]:
        """The clouds (numbered from 1) and the wind row (index 0), as places."""
        rows = [(_P_CLOUD, k, cloud) for k, cloud in enumerate(self._clouds, 1)]
        if self._wind_row is not None:
            rows.append((_P_WIND, 0, self._wind_row))
        return rows

    def _dest(
        self, card: Card, place: Place, target: Target | None, target_ray: int | None
    ) -> list[Card] | None:
        """The pile a card from ``place`` goes onto for ``target`` when the rules allow
        it, else ``None``: the one rule of where a card may go (SPEC 3.1, 3.3, 3.6). A
        foundation pile takes the next card of its run; sun-3's ``A`` is the first of its
        two aces piles that takes it; a foundation's top moves only onto the other,
        non-empty pile of its suit; sun-3 parks a card on an empty ray."""
        rules = self._rules
        if target is _T_RAY:
            if not rules.parks or target_ray is None or not 0 < target_ray <= RAYS:
                return None
            dst = self._rays[target_ray - 1]
            return None if dst else dst
        suit = card // 13
        found = self._foundations
        nxt = rules.next_rank
        rank = card % 13
        if place is _P_ACES or place is _P_KINGS:
            i = suit + 4 if place is _P_ACES else suit
            dst = found[i]
            if target is not self._pile_target(i) or not dst:
                return None
            return dst if nxt[i][len(dst)] == rank else None
        if target is _T_ACES:
            i = suit
            if rules.two_aces_piles and nxt[i][len(found[i])] != rank:
                i = suit + 4
        elif target is _T_KINGS:
            if rules.two_aces_piles:
                return None
            i = suit + 4
        elif target is _T_ACES1 or target is _T_ACES2:
            if not rules.two_aces_piles:
                return None
            i = suit if target is _T_ACES1 else suit + 4
        else:
            return None
        dst = found[i]
        return dst if nxt[i][len(dst)] == rank else None

    def last_played(self) -> Played:
        """What the last move pushed did, with its canonical form: where a card came from
        (as the position was before it) and went to, what a deal or a gather dealt, the
        wind's row. Read from the undo record, so it costs no replay; ``IndexError`` when
        no move has been played."""
        return last_played(self)

    def playable(self) -> list[tuple[Card, Spot]]:
        """Every playable card with its spot, once per distinct result: the outer card of
        each ray (any card of the open ray), both ends of each cloud and of the wind row,
        and a foundation's top where it can move onto the other pile of its suit."""
        return playable(self)

    def push_text(self, text: str) -> Move:
        """Parse ``text`` as one move, push it and return the parsed move."""
        move = Move.parse(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._undo:
            raise IndexError("pop from a board with no moves")
        record = self._undo.pop()
        tag = record[0]
        if tag == _CARD:
            _, src, pos, dst = record
            src.insert(pos, dst.pop())
        elif tag == _DEAL:
            _, cards = record
            for ray in self._rays:
                ray.pop()
            if self._named is not None:
                for card in cards:
                    self._named[card] -= 1
            self.deals -= 1
        elif tag == _OPEN:
            _, self.open_ray, self.opened, self.stage = record
        elif tag == _GATHER:
            _, n, cards, dealt, cloud, self.open_ray, self.gathered, self.stage = record
            for i in range(dealt):
                self._rays[n + i].pop()
            if cloud:
                self._clouds.pop()
            self._rays[n - 1].extend(cards)
        else:
            _, clouds, rays, self.stage = record
            for cloud, cards in zip(self._clouds, clouds, strict=True):
                cloud.extend(cards)
            for ray, cards in zip(self._rays, rays, strict=True):
                ray.extend(cards)
            self._wind_row = None
        return self.move_stack.pop()

    def _resolve(self, move: Move) -> tuple[Any, ...]:
        """Check a move without playing it; return what is needed to apply it."""
        kind = move.kind
        if kind is MoveKind.CARD:
            return self._resolve_card(move)
        if kind is MoveKind.DEAL:
            return (resolve_deal(self, move),)
        if kind is MoveKind.OPEN:
            check_open(self, move.index)
        elif kind is MoveKind.GATHER:
            check_gather(self, move.index)
        else:
            return (resolve_wind(self, move),)
        return ()

    # ------------------------------------------------------------- card moves

    def _apply_card(self, reading: _Reading, dst: list[Card]) -> None:
        place, index, pos, card = reading
        src = self._pile(place, index)
        dst.append(src.pop(pos))
        self._undo.append((_CARD, src, pos, dst))
        if self._rules.two_aces_piles:
            suit, found = card // 13, self._foundations
            if dst is not found[suit] and dst is not found[suit + 4]:
                self._parked = True  # onto a ray

    def _pile(self, place: Place, index: int) -> list[Card]:
        if place is Place.RAY:
            return self._rays[index - 1]
        if place is Place.CLOUD:
            return self._clouds[index - 1]
        if place is Place.WIND:
            assert self._wind_row is not None
            return self._wind_row
        return self._foundations[index]

    def _dst_index(self, target: Target, dst: list[Card]) -> int:
        """The ray number or foundation index of a destination pile (found by identity)."""
        piles = self._rays if target is _T_RAY else self._foundations
        index = next(i for i, pile in enumerate(piles) if pile is dst)
        return index + 1 if target is _T_RAY else index

    def _resolve_card(self, move: Move) -> tuple[_Reading, Target, list[Card]]:
        """Find the one reading of a card move, or explain why there is none or several."""
        plans = self._card_plans(move)
        if len(plans) != 1:
            self._settle(move, plans)
        place, index, pos, card, _, dst = plans[0]
        assert move.target is not None
        return (place, index, pos, card), move.target, dst

    def _settle(self, move: Move, plans: list[_Plan]) -> None:
        """A card move with no legal reading, or several: raise why it is illegal, or
        :class:`AmbiguousMoveError` unless every reading gives the same position (then
        the first is played)."""
        if not plans:
            explain_card(self, move)
            raise AssertionError(f"{move}: no legal reading, yet no rule refuses it")
        assert move.target is not None
        check_same_result(
            self, move, [((p, i, pos, card), move.target, dst) for p, i, pos, card, _, dst in plans]
        )

    # ------------------------------------------------------------------ status

    def _can_progress(self) -> bool:
        """After the wind: can any card off the foundations still reach one? (SPEC 3.7)"""
        row = self._wind_row or []
        cards = [ray[-1] for ray in self._rays if ray]
        for cloud in self._clouds:
            if cloud:
                cards += (cloud[0], cloud[-1])
        found = self._foundations
        if self._rules.parks:  # each empty ray lets one more card of the row's ends out
            free = sum(1 for ray in self._rays if not ray)
            cards += row[: free + 1] + row[max(0, len(row) - free - 1) :]
        elif row:
            cards += (row[0], row[-1])
        for card in cards:
            suit = card // 13
            aces, other = found[suit], found[suit + 4]
            if self._rules.shifts and aces and other and other[-1] == aces[-1] + 1:
                return True  # shifting between the two piles lets any card of the suit on
            if self._takes(suit, card) or self._takes(suit + 4, card):
                return True
        return False

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
        """The board drawn in plain text, as ``sunlog show`` draws it without colour."""
        return str(_view("terminal", "board_text")(self))

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


def _deck_copies(deck: list[Card]) -> tuple[bytes, bytes]:
    """Where a deck of 104 cards holds each card's first copy and its second: two tables,
    indexed by card, of positions in the deck (``bytes.maketrans``: one pass in C, where
    a dict or a loop costs ten times as much)."""
    cards = bytes(deck)
    return bytes.maketrans(cards[::-1], _DOWN), bytes.maketrans(cards, _UP)


_UP = bytes(range(104))
_DOWN = _UP[::-1]


def _open_ray_cards(ray: list[Card]) -> Iterator[tuple[int, Card]]:
    """The playable cards of the open ray, outer first: each run of copies of a card once,
    by its outermost copy (the others give the same result)."""
    outer = None
    for pos in range(len(ray) - 1, -1, -1):
        card = ray[pos]
        if card != outer:
            yield pos, card
        outer = card


def _row_end_positions(row: list[Card]) -> list[int]:
    """The playable ends of a cloud or the wind row, once per distinct result: the left
    end, and the right one unless every card of the row is the same."""
    if not row:
        return []
    last = len(row) - 1
    if last and (row[0] != row[last] or row.count(row[0]) != len(row)):
        return [0, last]
    return [0]


def _row_ends(place: Place, index: int, row: list[Card]) -> Iterator[_Reading]:
    """The playable ends of a cloud or the wind row, once per distinct result."""
    if not row:
        return
    yield (place, index, 0, row[0])
    if len(row) > 1 and (row[0] != row[-1] or row.count(row[0]) != len(row)):
        yield (place, index, len(row) - 1, row[-1])


def _remap_undo(source: Board, target: Board) -> list[tuple[Any, ...]]:
    """Undo records of ``source`` rewritten to point at ``target``'s lists."""
    mapping: dict[int, list[Card]] = {}
    for a, b in zip(source._rays, target._rays, strict=True):
        mapping[id(a)] = b
    for a, b in zip(source._foundations, target._foundations, strict=True):
        mapping[id(a)] = b
    for a, b in zip(source._clouds, target._clouds, strict=True):
        mapping[id(a)] = b
    if source._wind_row is not None and target._wind_row is not None:
        mapping[id(source._wind_row)] = target._wind_row
    records = []
    for record in source._undo:
        if record[0] == _CARD:
            records.append((_CARD, mapping[id(record[1])], record[2], mapping[id(record[3])]))
        else:
            records.append(record)
    return records
