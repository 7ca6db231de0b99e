"""A position of Sun and the rules asked of it (SPEC 2 and 3): :class:`BoardState`.

The state is a list of piles addressed by number (rays, foundations, the wind row, the
clouds) and an index saying which pile holds each copy of each card, kept right by every
change and its undo, so that finding a card is a lookup at every stage. Here are the rule
primitives the rest of the engine asks (where a card may go, what is playable, whether
the game is won or lost) and the changes each move makes, each with its undo record.
:class:`~sunlog.engine.board.Board` adds checking and resolving moves on top; the
explanations, the notation helpers and the JSON read a position through the public,
read-only methods here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any

from sunlog.engine.arguments import deal_argument, deck_argument, variant_argument
from sunlog.engine.cards import Card
from sunlog.engine.deal import deal_deck
from sunlog.engine.errors import BoardArgumentError
from sunlog.engine.moves import Move, Place, Target
from sunlog.engine.rules import DEALS, RAYS, RULES, Stage, Status, Variant, VariantRules

__all__ = [
    "CARD",
    "FOUNDATION_PILE",
    "NO_PILE",
    "STOCK",
    "WIND_PILE",
    "BoardState",
    "Reading",
    "cloud_pile",
    "open_ray_cards",
    "pile_index",
    "pile_of",
    "place_of",
    "row_ends",
]

#: A reading of a card move: (place, index, pos, card). ``index`` is the ray or cloud
#: number (0 for the wind row), or the foundation pile's index; ``pos`` the card's list
#: index within its pile.
Reading = tuple[Place, int, int, Card]

# Pile numbers: rays 1..13 are piles 0..12, foundation i is 13 + i, the wind row 21 and
# cloud k is 21 + k. The stock is no pile: a card not dealt yet lies at STOCK.
FOUNDATION_PILE = RAYS
WIND_PILE = FOUNDATION_PILE + 8
STOCK = -1
#: What :meth:`BoardState.dest` answers when a card may not go where a move says.
NO_PILE = -1

#: The head of a card move's undo record, (CARD, source, pos, destination); a stage
#: action's record begins with the action (:mod:`sunlog.engine.stages`), which undoes it.
CARD = None

# Enum members as module constants for the rule asked on every card move (:meth:`dest`):
# on Python 3.11, reading ``Target.RAY`` takes 0.29 µs (the enum metaclass's __getattr__
# slows every class attribute), a global 0.04; a check spent 4% more without them.
_P_ACES, _P_KINGS = Place.ACES, Place.KINGS
_T_ACES, _T_ACES1, _T_ACES2 = Target.ACES, Target.ACES1, Target.ACES2
_T_KINGS, _T_RAY = Target.KINGS, Target.RAY


def cloud_pile(k: int) -> int:
    """The pile number of cloud ``k`` (1, 2, ...)."""
    return WIND_PILE + k


def pile_of(place: Place, index: int) -> int:
    """The pile number of a reading's place and index."""
    if place is Place.RAY:
        return index - 1
    if place is Place.CLOUD:
        return WIND_PILE + index
    if place is Place.WIND:
        return WIND_PILE
    return FOUNDATION_PILE + index


def place_of(pile: int) -> tuple[Place, int]:
    """The place and index (as a reading has them) of a pile number."""
    if pile < FOUNDATION_PILE:
        return Place.RAY, pile + 1
    if pile < WIND_PILE:
        i = pile - FOUNDATION_PILE
        return (Place.ACES if i < 4 else Place.KINGS), i
    if pile == WIND_PILE:
        return Place.WIND, 0
    return Place.CLOUD, pile - WIND_PILE


def pile_index(pile: int) -> int:
    """A destination as moves name it: the ray number of a ray, the index of a foundation."""
    return pile + 1 if pile < FOUNDATION_PILE else pile - FOUNDATION_PILE


class BoardState:
    """A position of Sun with its history, and the rules asked of it.

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
        self.deals = 0
        #: Every pile by number: rays, foundations, the wind row, then the clouds made.
        self._piles: list[list[Card]] = [[] for _ in range(WIND_PILE + 1)]
        self._rays = self._piles[:FOUNDATION_PILE]  # the same lists, by ray
        self._foundations = self._piles[FOUNDATION_PILE:WIND_PILE]
        #: The index: ``_where[card]`` holds the piles of the card's two copies, in no
        #: order (:data:`STOCK` for one not dealt yet).
        self._where: list[list[int]] = [[STOCK, STOCK] for _ in range(52)]
        self.open_ray: int | None = None
        self.opened = 0
        self.gathered = 0
        self.stage = Stage.SUNRISE
        self.move_stack: list[Move] = []
        self._undo: list[tuple[Any, ...]] = []
        #: What this variant changes in the rules (data, read by the rules below).
        self._rules = RULES[self.variant.value]
        #: Moves played before this board's history began (a position read back).
        self._moves_before = 0

    def _set_position(
        self,
        *,
        counts: tuple[int, int, int, int],
        open_ray: int | None,
        stage: Stage,
        piles: tuple[Sequence[Sequence[Card]], Sequence[Sequence[Card]], Sequence[Card]],
        clouds: Sequence[Sequence[Card]],
    ) -> None:
        """Set this fresh state to a position read back: ``counts`` are the moves before
        it, the deals, the rays opened and gathered; ``piles`` the rays, the foundations
        and the wind row. The index is built from the piles (every other card is in the
        stock)."""
        self._moves_before, self.deals, self.opened, self.gathered = counts
        self.open_ray, self.stage = open_ray, stage
        rays, foundations, wind = piles
        self._piles = [*map(list, rays), *map(list, foundations), list(wind), *map(list, clouds)]
        self._rays = self._piles[:FOUNDATION_PILE]
        self._foundations = self._piles[FOUNDATION_PILE:WIND_PILE]
        self._where = [[STOCK, STOCK] for _ in range(52)]
        for number, pile in enumerate(self._piles):
            for card in pile:
                at = self._where[card]
                at[at[0] != STOCK] = number

    def _copy_to(self, other: BoardState) -> None:
        """Make ``other`` (a new, empty object) an independent copy of this position and
        its history; the undo records hold pile numbers and lists never changed again."""
        other.variant = self.variant
        other.deal_number = self.deal_number
        other._deck = self._deck  # never changed
        other.deals = self.deals
        other._piles = [list(pile) for pile in self._piles]
        other._rays = other._piles[:FOUNDATION_PILE]
        other._foundations = other._piles[FOUNDATION_PILE:WIND_PILE]
        other._where = [list(at) for at in self._where]
        other.open_ray = self.open_ray
        other.opened = self.opened
        other.gathered = self.gathered
        other.stage = self.stage
        other.move_stack = list(self.move_stack)
        other._undo = list(self._undo)
        other._rules = self._rules
        other._moves_before = self._moves_before

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
        return [list(cloud) for cloud in self._piles[WIND_PILE + 1 :]]

    @property
    def wind_row(self) -> list[Card] | None:
        """The wind row left to right (a copy), ``None`` before the wind."""
        return list(self._piles[WIND_PILE]) if self.stage is Stage.WIND else None

    def ray(self, n: int) -> tuple[Card, ...]:
        """Ray ``n`` (1..13), inner card first."""
        return tuple(self._rays[n - 1])

    def pile(self, pile: int) -> Sequence[Card]:
        """The cards of pile number ``pile`` (see :func:`pile_of`), as it stands: read-only,
        not a copy."""
        return self._piles[pile]

    @property
    def cloud_count(self) -> int:
        """How many clouds have been made."""
        return len(self._piles) - WIND_PILE - 1

    def dealt_copies(self, card: Card) -> int:
        """How many copies of ``card`` have been dealt (0, 1 or 2)."""
        first, second = self._where[card]
        return (first != STOCK) + (second != STOCK)

    def last_record(self) -> tuple[Any, ...]:
        """The undo record of the last move (see :data:`CARD` and the others);
        ``IndexError`` when no move has been played."""
        if not self._undo:
            raise IndexError("no move has been played")
        return self._undo[-1]

    @property
    def rules(self) -> VariantRules:
        """What this game's variant changes in the rules (read-only data)."""
        return self._rules

    @property
    def deck(self) -> list[Card] | None:
        """The whole stock before the first deal, top first; ``None`` if not known."""
        return None if self._deck is None else list(self._deck)

    @property
    def deck_known(self) -> bool:
        """Whether the deck is known (a Deal or Deck tag), so that deals need no cards named."""
        return self._deck is not None

    @property
    def stock(self) -> list[Card] | None:
        """Cards still in the stock, top first; ``None`` while the deck is unknown."""
        if self._deck is not None:
            return self._deck[self.deals * RAYS :]
        return [] if self.deals == DEALS else None

    @property
    def move_count(self) -> int:
        """Moves played since the deal began (from a position: its count, then these)."""
        return len(self.move_stack) + self._moves_before

    def on_foundations(self) -> int:
        """How many cards lie on the foundations."""
        return sum(map(len, self._foundations))

    def collected(self) -> list[Card]:
        """The cards the wind collects, in the order it collects them: the clouds in
        order, each left to right, then rays 1..13, inner card first."""
        return [*chain.from_iterable(self._piles[WIND_PILE + 1 :]), *chain(*self._rays)]

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
        wind = self._piles[WIND_PILE]
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
            tuple(map(tuple, self._piles[WIND_PILE + 1 :])),
            tuple(wind) if self.stage is Stage.WIND else None,
        )

    # ------------------------------------------------------------------ rules

    def readings(self) -> Iterator[Reading]:
        """Every playable card once per distinct result: the outer card of each ray (any
        card of the open ray), the ends of each cloud and of the wind row, and (sun and
        sun-2) a foundation's top over its base."""
        for n, ray in enumerate(self._rays, 1):
            if not ray:
                continue
            if n == self.open_ray:
                for pos, card in open_ray_cards(ray):
                    yield (Place.RAY, n, pos, card)
            else:
                yield (Place.RAY, n, len(ray) - 1, ray[-1])
        for k, cloud in enumerate(self._piles[WIND_PILE + 1 :], 1):
            for pos in row_ends(cloud):
                yield (Place.CLOUD, k, pos, cloud[pos])
        wind = self._piles[WIND_PILE]
        for pos in row_ends(wind):
            yield (Place.WIND, 0, pos, wind[pos])
        if self._rules.shifts:
            for i, pile in enumerate(self._foundations):
                if len(pile) > 1:
                    yield (Place.ACES if i < 4 else Place.KINGS, i, len(pile) - 1, pile[-1])

    def targets(self, reading: Reading) -> Iterator[tuple[Target, int]]:
        """The (target, destination) pairs where the reading's card may go, the destination
        a foundation's index or a ray's number: each foundation pile of its suit, then
        (sun-3) each empty ray, as :meth:`dest` allows."""
        place, _, _, card = reading
        suit = card // 13
        for i in (suit, suit + 4):
            target = self.pile_target(i)
            if self.dest(card, place, target, None) != NO_PILE:
                yield (target, i)
        if self._rules.parks and place is not Place.ACES and place is not Place.KINGS:
            for n in range(1, RAYS + 1):
                if self.dest(card, place, Target.RAY, n) != NO_PILE:
                    yield (Target.RAY, n)

    def takes(self, i: int, card: int) -> bool:
        """Whether foundation pile ``i`` (of ``card``'s suit) takes ``card`` now."""
        return self._rules.next_rank[i][len(self._foundations[i])] == card % 13

    def pile_target(self, i: int) -> Target:
        """The target that names foundation pile ``i``: A or K, or A1 or A2 in sun-3."""
        if self._rules.two_aces_piles:
            return Target.ACES1 if i < 4 else Target.ACES2
        return Target.ACES if i < 4 else Target.KINGS

    def dest(self, card: Card, place: Place, target: Target | None, target_ray: int | None) -> int:
        """The pile number a card from ``place`` goes onto for ``target`` when the rules
        allow it, else :data:`NO_PILE`: the one rule of where a card may go (SPEC 3.1, 3.3,
        3.6). A foundation pile takes the next card of its run; sun-3's ``A`` is the first
        of its two aces piles that takes it; a foundation's top moves only onto the other,
        non-empty pile of its suit; sun-3 parks a card on an empty ray."""
        rules = self._rules
        if target is _T_RAY:
            if not rules.parks or target_ray is None or not 0 < target_ray <= RAYS:
                return NO_PILE
            return NO_PILE if self._rays[target_ray - 1] else target_ray - 1
        suit = card // 13
        found = self._foundations
        nxt = rules.next_rank
        rank = card % 13
        if place is _P_ACES or place is _P_KINGS:
            i = suit + 4 if place is _P_ACES else suit
            if target is not self.pile_target(i) or not found[i]:
                return NO_PILE
        elif target is _T_ACES:
            i = suit
            if rules.two_aces_piles and nxt[i][len(found[i])] != rank:
                i = suit + 4
        elif target is _T_KINGS:
            if rules.two_aces_piles:
                return NO_PILE
            i = suit + 4
        elif target is _T_ACES1 or target is _T_ACES2:
            if not rules.two_aces_piles:
                return NO_PILE
            i = suit if target is _T_ACES1 else suit + 4
        else:
            return NO_PILE
        return FOUNDATION_PILE + i if nxt[i][len(found[i])] == rank else NO_PILE

    def copies(self, card: Card) -> tuple[int, int]:
        """The piles of ``card``'s two copies (:data:`STOCK` for one not dealt)."""
        first, second = self._where[card]
        return first, second

    def _can_progress(self) -> bool:
        """After the wind: can any card off the foundations still reach one? (SPEC 3.7)"""
        row = self._piles[WIND_PILE]
        cards = [ray[-1] for ray in self._rays if ray]
        for cloud in self._piles[WIND_PILE + 1 :]:
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
            if self.takes(suit, card) or self.takes(suit + 4, card):
                return True
        return False

    # ---------------------------------------------------------------- changes

    def _move_card(self, card: Card, source: int, pos: int, dest: int) -> None:
        """Move ``card``, at ``pos`` of pile ``source``, onto pile ``dest``."""
        piles = self._piles
        piles[dest].append(piles[source].pop(pos))
        at = self._where[card]
        at[at[0] != source] = dest
        self._undo.append((CARD, source, pos, dest))

    # The primitive changes the stage actions (engine/stages.py) are made of: each keeps
    # the piles and the index in step, but for _put_back, which follows a change that set
    # the index already. Each moves a row of cards in one call (a deal's 13 calls a card
    # cost 12% of a push and its pop, in random games).

    def _lay_across(self, cards: Sequence[Card], source: int, first: int) -> None:
        """Lay the cards one a pile, on piles ``first``, ``first + 1``...; their copies come
        from ``source`` (the stock, or the pile they were taken off)."""
        piles, where = self._piles, self._where
        for pile, card in enumerate(cards, first):
            piles[pile].append(card)
            at = where[card]
            at[at[0] != source] = pile

    def _lay_all(self, cards: Sequence[Card], source: int, pile: int) -> None:
        """Lay the cards, in order, on pile ``pile``; their copies come from ``source``."""
        self._piles[pile].extend(cards)
        where = self._where
        for card in cards:
            at = where[card]
            at[at[0] != source] = pile

    def _lift_across(self, first: int, count: int, dest: int) -> list[Card]:
        """Take the top card off each of ``count`` piles from ``first`` on, in order; the
        index says they now lie at ``dest`` (the stock, or a pile they are put back on)."""
        piles, where = self._piles, self._where
        cards = []
        for pile in range(first, first + count):
            card = piles[pile].pop()
            at = where[card]
            at[at[0] != pile] = dest
            cards.append(card)
        return cards

    def _take_all(self, pile: int, dest: int) -> list[Card]:
        """Take every card off pile ``pile`` (it stays, empty); the index says they now lie
        at ``dest`` (``pile`` itself: until laid from it)."""
        cards = self._piles[pile]
        taken = cards[:]
        cards.clear()  # the same list: the rays and foundations are views of the piles
        if dest != pile:
            where = self._where
            for card in taken:
                at = where[card]
                at[at[0] != pile] = dest
        return taken

    def _put_back(self, pile: int, cards: Sequence[Card]) -> None:
        """Put the cards on pile ``pile``, where the index already says they lie."""
        self._piles[pile].extend(cards)

    def _new_cloud(self) -> int:
        """Make a new, empty cloud; its pile number."""
        self._piles.append([])
        return len(self._piles) - 1

    def _drop_cloud(self) -> None:
        """Take the last cloud, emptied, away."""
        self._piles.pop()

    def _log(self, record: tuple[Any, ...]) -> None:
        """Log a stage action's undo record: it begins with the action, which undoes it."""
        self._undo.append(record)

    def _take_back(self) -> None:
        """Undo the last change, as its record says: a card move here, a stage action by
        the action its record begins with (engine/stages.py)."""
        record = self._undo.pop()
        head = record[0]
        if head is not CARD:
            head.undo(self, record)
            return
        _, source, pos, dest = record
        piles = self._piles
        card = piles[dest].pop()
        piles[source].insert(pos, card)
        at = self._where[card]
        at[at[0] != dest] = source


def open_ray_cards(ray: Sequence[Card]) -> Iterator[tuple[int, Card]]:
    """The playable cards of the open ray, outer first: each run of copies of a card once,
    by its outermost copy (the others give the same result)."""
    outer = None
    for pos in range(len(ray) - 1, -1, -1):
        card = ray[pos]
        if card != outer:
            yield pos, card
        outer = card


def row_ends(row: Sequence[Card]) -> list[int]:
    """The playable ends of a cloud or the wind row, once per distinct result: the left
    end, and the right one unless every card of the row is the same."""
    if not row:
        return []
    last = len(row) - 1
    if last and (row[0] != row[last] or row.count(row[0]) != len(row)):
        return [0, last]
    return [0]
