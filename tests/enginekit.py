"""Helpers for the engine tests: known decks, known positions, snapshots and random playouts.

Positions are built the way a player reaches them: from an explicit deck whose deals are
spelled out, then by pushing moves written in the notation. Import from test modules with
``from enginekit import ...`` (pytest puts ``tests/`` on the path).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from sunlog.engine.board import Board, Variant
from sunlog.engine.cards import CARDS, DECK_ORDER, Card
from sunlog.engine.moves import Move, MoveKind

__all__ = [
    "RANKS",
    "SUNSET_RAYS",
    "board_from_deals",
    "board_from_rays",
    "card_census",
    "cards",
    "collected",
    "deal_all",
    "deck_from_deals",
    "deck_from_rays",
    "down",
    "legal_texts",
    "named_wind",
    "play",
    "random_playout",
    "snapshot",
    "sunset",
    "up",
]

#: Rank labels in order A..K, as the notation writes them.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_CARD_TOKEN = re.compile(r"(?:10|[2-9AJQKT])[SHDC♠♥♦♣♤♡♢♧]", re.IGNORECASE)


def cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces (``"AS 10H QD"``), or a list of card strings."""
    words = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(w) for w in words]


def up(suit: str, first: str = "A", last: str = "K") -> list[str]:
    """The cards of ``suit`` from rank ``first`` up to ``last``: ``up("S", "A", "3")``."""
    i, j = RANKS.index(first), RANKS.index(last)
    return [f"{RANKS[k]}{suit}" for k in range(i, j + 1)]


def down(suit: str, first: str = "K", last: str = "A") -> list[str]:
    """The cards of ``suit`` from rank ``first`` down to ``last``: ``down("H", "K", "8")``."""
    return list(reversed(up(suit, last, first)))


def deck_from_deals(deals: Sequence[str | Sequence[str]]) -> list[Card]:
    """A 104-card stock whose first deals are ``deals`` (13 cards each, ray 1 first).

    The cards not named follow in the order of the ordered deck (SPEC 4.1) with the named
    ones taken out, so the deck always holds exactly two copies of every card. Raises
    ``ValueError`` if a deal does not have 13 cards or a card is named more than twice.
    """
    named: list[Card] = []
    for k, deal in enumerate(deals, 1):
        dealt = cards(deal)
        if len(dealt) != 13:
            raise ValueError(f"deal {k} names {len(dealt)} cards, not 13")
        named.extend(dealt)
    if len(named) > 104:
        raise ValueError("more than 8 deals")
    left = Counter(DECK_ORDER)
    left.subtract(named)
    extra = sorted(str(c) for c in CARDS if left[c] < 0)
    if extra:
        raise ValueError(f"named more than twice: {' '.join(extra)}")
    rest = []
    for card in DECK_ORDER:
        if left[card] > 0:
            rest.append(card)
            left[card] -= 1
    return named + rest


def deck_from_rays(rays: dict[int, str | Sequence[str]]) -> list[Card]:
    """A 104-card stock that deals ``rays[N]`` onto ray N, inner card first (deal 1 first).

    Rays not named, and named rays after their last card, get filler: the cards not named,
    aces and kings first (so they end up deep in the rays, covered), then the rest of the
    ordered deck. ``deck_from_rays({1: "AS 2S"})`` deals AS to ray 1 in deal 1, 2S in deal 2.
    """
    columns = {n: cards(c) for n, c in rays.items()}
    if any(not 1 <= n <= 13 or len(c) > 8 for n, c in columns.items()):
        raise ValueError("rays are 1..13 and receive at most 8 cards")
    left = Counter(DECK_ORDER)
    for column in columns.values():
        left.subtract(column)
    extra = sorted(str(c) for c in CARDS if left[c] < 0)
    if extra:
        raise ValueError(f"named more than twice: {' '.join(extra)}")
    filler = [c for c in DECK_ORDER if c.rank in (1, 13)] + [
        c for c in DECK_ORDER if c.rank not in (1, 13)
    ]
    spare = []
    for card in filler:
        if left[card] > 0:
            spare.append(card)
            left[card] -= 1
    fill = iter(spare)
    deck = []
    for k in range(8):
        for n in range(1, 14):
            column = columns.get(n, [])
            deck.append(column[k] if k < len(column) else next(fill))
    return deck


def board_from_rays(
    variant: Variant | str, rays: dict[int, str | Sequence[str]], *, dealt: int = 0
) -> Board:
    """A board whose stock is :func:`deck_from_rays` of ``rays``, after ``dealt`` deals."""
    board = Board(variant, deck=deck_from_rays(rays))
    for _ in range(dealt):
        board.push(Move.deal())
    return board


def board_from_deals(
    variant: Variant | str, deals: Sequence[str | Sequence[str]] = (), *, dealt: int = 0
) -> Board:
    """A board whose stock is :func:`deck_from_deals` of ``deals``, after ``dealt`` deals.

    The board has a known deck but no deal number, so ``deal`` may be bare while the wind
    must name its row.
    """
    board = Board(variant, deck=deck_from_deals(deals))
    for _ in range(dealt):
        board.push(Move.deal())
    return board


#: SPEC 5.4: the deal and the first 41 moves of its example game, one move a string.
SPEC_DEAL = 20261129
SPEC_MOVES: tuple[str, ...] = tuple(
    re.findall(
        r"(?:open|gather) \d+|\S+",
        """
        deal r1:AC>A r8:AS>A r2:2S>A r11:KH>K
        deal r10:KC>K r1:3S>A
        deal r6:AD>A r8:KD>K
        deal 2C>A QH>K
        deal r6:AH>A r7:QD>K r11:JD>K
        deal r4:KS>K r8:10D>K r9:QC>K r10:QS>K r11:2H>A r13:JC>K r2:10C>K
        deal r6:4S>A r7:JS>K r9:3C>A r6:4C>A r11:2D>A
        deal r3:9C>K r5:8C>K r9:10S>K r2:9S>K
        open 1 r1:5S>A open 2 r2:7C>K
        """,
    )
)


def play(board: Board, text: str) -> Board:
    """Push the moves written in ``text`` (as in a log: ``"deal r1:AC>A open 3 gather 4"``).

    ``open`` and ``gather`` take the number after them, ``deal`` and ``wind`` the card
    tokens after them; every other token is one card move. Returns ``board``.
    """
    words = text.split()
    i = 0
    while i < len(words):
        head = words[i].lower()
        i += 1
        if head in ("open", "gather"):
            move = f"{head} {words[i]}"
            i += 1
        elif head in ("deal", "wind"):
            named = []
            while i < len(words) and _CARD_TOKEN.fullmatch(words[i]):
                named.append(words[i])
                i += 1
            move = " ".join([head, *named])
        else:
            move = words[i - 1]
        board.push(Move.parse(move))
    return board


def deal_all(board: Board) -> Board:
    """Push bare deals until all 8 are made (the deck must be known). Returns ``board``."""
    while board.deals < 8:
        board.push(Move.deal())
    return board


def collected(board: Board) -> list[Card]:
    """The cards the wind would collect here: clouds in order, then rays 1..13 inner to outer."""
    out = [c for cloud in board.clouds for c in cloud]
    for ray in board.rays:
        out.extend(ray)
    return out


def named_wind(board: Board, head: str = "", tail: str = "") -> Board:
    """Gather every ray still to gather, then blow the wind naming a row that starts with
    the cards ``head`` and ends with ``tail``; the other collected cards go between, in the
    order collected. Returns ``board``.
    """
    for n in range(board.gathered + 1, 14):
        board.push(Move.gather(n))
    middle = collected(board)
    for card in cards(head) + cards(tail):
        middle.remove(card)
    board.push(Move.wind([*cards(head), *middle, *cards(tail)]))
    return board


def legal_texts(board: Board) -> list[str]:
    """The legal moves of ``board`` as canonical text, in the engine's order."""
    return [str(m) for m in board.legal_moves()]


def card_census(board: Board) -> Counter[Card]:
    """How many of each card lie anywhere: stock, rays, clouds, wind row, foundations."""
    census: Counter[Card] = Counter()
    for pile in (*board.rays, *board.clouds, *board.foundations):
        census.update(pile)
    if board.wind_row is not None:
        census.update(board.wind_row)
    stock = board.stock
    if stock is not None:
        census.update(stock)
    return census


def snapshot(board: Board) -> tuple[Any, ...]:
    """Everything observable about a position and its history, for exact comparisons."""
    return (
        board.key(),
        board.to_json(),
        tuple(board.move_stack),
        board.stage,
        board.status(),
        board.open_ray,
        board.opened,
        board.gathered,
        board.deals,
    )


#: A stage-3 setup for ``sun`` and ``sun-2``: rays 1..4 feed the aces piles A..8 and
#: rays 5..8 the kings piles K..6, one card per deal, so after the 8th deal rays 1..8 are
#: empty and 64 cards are on the foundations. Ray 9 can be played down from its outer end:
#: 5H>K 9S>A 10S>A 5D>K, leaving 2C 3D 4H 5S.
SUNSET_RAYS: dict[int, str | Sequence[str]] = {
    **{n: up(s, "A", "8") for n, s in zip((1, 2, 3, 4), "SHDC", strict=True)},
    **{n: down(s, "K", "6") for n, s in zip((5, 6, 7, 8), "SHDC", strict=True)},
    9: "2C 3D 4H 5S 5D 10S 9S 5H",
    10: "QD 9C 2S 3C QH 10C 9D 4D",
    11: "JH 10D 3S 2D JC 4S QC 10H",
    12: "KD 9H 4C 2H KH 3H KC JD",
    13: "5C AS QS AH KS AD JS AC",
}


def sunset(variant: Variant | str = "sun") -> Board:
    """The :data:`SUNSET_RAYS` board after its 8 deals, rays 1..8 played onto the foundations."""
    board = board_from_rays(variant, SUNSET_RAYS)
    columns = {n: cards(c) for n, c in SUNSET_RAYS.items()}
    for k in range(8):
        plays = [f"r{n}:{columns[n][k]}>A" for n in (1, 2, 3, 4)]
        plays += [f"r{n}:{columns[n][k]}>K" for n in (5, 6, 7, 8)]
        play(board, "deal " + " ".join(plays))
    return board


def random_playout(
    board: Board,
    rng: random.Random,
    *,
    max_moves: int = 2000,
    stage_weight: float = 0.1,
) -> Iterable[Move]:
    """Play uniformly random legal moves, yielding each after pushing it.

    Stage actions (deal, open, gather, wind) are chosen only when no card move exists or
    with probability ``stage_weight``, so games run their course. Stops when no move is
    legal or after ``max_moves`` (a lost game of sun may go on shifting for ever).
    """
    for _ in range(max_moves):
        moves = board.legal_moves()
        if not moves:
            return
        card_moves = [m for m in moves if m.kind is MoveKind.CARD]
        stage_moves = [m for m in moves if m.kind is not MoveKind.CARD]
        if card_moves and (not stage_moves or rng.random() >= stage_weight):
            move = rng.choice(card_moves)
        else:
            move = rng.choice(stage_moves)
        board.push(move)
        yield move
