"""Helpers for the notation tests: real games from random play, respelled and written out.

A game here is played by the engine (random legal moves from a seeded ``random.Random``),
then written as a player might write it: short forms, lower case, ``T`` and suit symbols,
move numbers apart or joined, annotations and comments of both kinds. The expected
values (the canonical moves, the comments) are kept beside the text, so a test can check
that reading the text gives back exactly what was written.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import enginekit
from hypothesis import strategies as st

from sunlog.engine.board import Board, Status
from sunlog.engine.cards import Card
from sunlog.engine.moves import End, Move, MoveKind, Place
from sunlog.notation.game import Game, GameMove, Tag

__all__ = [
    "PIECES",
    "VARIANTS",
    "GenGame",
    "GenMove",
    "deck_with_top",
    "greedy_playout",
    "mutate",
    "physical_moves",
    "random_comment",
    "random_gen_game",
    "random_playout",
    "random_tag_value",
    "render",
    "respell",
    "spell_card",
    "staircase_deck",
    "staircase_moves",
    "to_game",
]

VARIANTS = ("sun", "sun-2", "sun-3")
_SYMBOLS = {"S": "♠♤", "H": "♥♡", "D": "♦♢", "C": "♣♧"}


@dataclass
class GenMove:
    """One move as it will be written, with what reading it must give back."""

    text: str
    canonical: Move
    number: int | None = None
    joined: bool = False
    annotation: str | None = None
    comments: list[str] = field(default_factory=list)


@dataclass
class GenGame:
    """A game to write: tags, start comments, moves, result token, final comments."""

    tags: list[tuple[str, str]]
    moves: list[GenMove]
    result: str | None
    comments: list[str] = field(default_factory=list)
    final_comments: list[str] = field(default_factory=list)
    board: Board | None = None


# ------------------------------------------------------------------- playing


def random_playout(
    board: Board, rng: random.Random, *, max_moves: int = 300, stage_weight: float = 0.15
) -> Iterator[Move]:
    """:func:`enginekit.random_playout` with the notation tests' defaults: shorter games,
    stage actions a little more often, so that they run through all their stages."""
    yield from enginekit.random_playout(board, rng, max_moves=max_moves, stage_weight=stage_weight)


def greedy_playout(board: Board, *, max_moves: int = 3000) -> Iterator[Move]:
    """A simple greedy player: a card move that raises the foundations, else the first
    stage action, else a shift between foundations; yields each move after pushing it."""
    seen: set[object] = set()
    for _ in range(max_moves):
        moves = board.legal_moves()
        if not moves:
            return
        up = [m for m in moves if m.kind is MoveKind.CARD and m.source not in _PILES]
        stages = [m for m in moves if m.kind is not MoveKind.CARD]
        shifts = [m for m in moves if m.kind is MoveKind.CARD and m.source in _PILES]
        parks = [m for m in up if m.target_ray is not None]
        up = [m for m in up if m.target_ray is None]
        move = (up or stages or shifts or parks or [None])[0]
        if move is None:
            return
        board.push(move)
        key = board.key()
        if key in seen:  # going round in circles (shifts, or parking in sun-3)
            board.pop()
            return
        seen.add(key)
        yield move


_PILES = (Place.ACES, Place.KINGS)


def staircase_deck(variant: str) -> list[Card]:
    """A deck where every dealt card goes straight to a foundation: each suit up, then
    down (``sun``, ``sun-2``) or up twice (``sun-3``)."""
    deck: list[Card] = []
    for suit in range(4):
        up = [Card(suit * 13 + r) for r in range(13)]
        deck += up
        deck += up if variant == "sun-3" else up[::-1]
    return deck


def staircase_moves(variant: str) -> list[str]:
    """The won game of :func:`staircase_deck`: each deal, then rays 1 to 13 to a pile."""
    deck = staircase_deck(variant)
    texts: list[str] = []
    for d in range(8):
        texts.append("deal")
        dealt = deck[d * 13 : (d + 1) * 13]
        for n, card in enumerate(dealt, 1):
            down = variant != "sun-3" and d % 2 == 1
            texts.append(f"r{n}:{card}>{'K' if down else 'A'}")
    return texts


def physical_moves(moves: Sequence[Move], board: Board) -> list[Move]:
    """The same moves with every ``deal`` and ``wind`` naming its cards, as a log of a
    physical game (no Deal or Deck tag) must; ``board`` is replayed from the start."""
    named: list[Move] = []
    fresh = Board(board.variant, deal=board.deal_number, deck=board.deck)
    for move in moves:
        fresh.push(move)
        named.append(fresh.named_cards(move))
    return named


# ----------------------------------------------------------------- spelling


def spell_card(card: Card, rng: random.Random) -> str:
    """A card in any accepted spelling: ``10H``, ``TH``, ``th``, ``10♥``, ``t♡``..."""
    text = str(card)
    rank, suit = text[:-1], text[-1]
    if rank == "10" and rng.random() < 0.4:
        rank = "T"
    roll = rng.random()
    if roll < 0.25:
        suit = rng.choice(_SYMBOLS[suit])
    elif roll < 0.45:
        suit = suit.lower()
    if rng.random() < 0.3:
        rank = rank.lower()
    return rank + suit


def _recase(text: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.15:
        return text.upper()
    if roll < 0.3:
        return text.lower()
    return text


def _card_move_forms(move: Move, board: Board) -> list[Move]:
    """Other ways to write a canonical card move: without card, without source, with
    every position written."""
    forms = [move]
    if move.source is not None and move.card is not None:
        forms.append(move._replace(source=None, index=None, depth=None, end=None))
        forms.append(move._replace(card=None))
    if move.source is Place.RAY and move.depth is None:
        assert move.index is not None and move.card is not None
        ray = board.rays[move.index - 1]
        depth = len(ray) - max(i for i, c in enumerate(ray) if c == move.card)
        forms.append(move._replace(depth=depth))
    if move.source in (Place.CLOUD, Place.WIND) and move.end is None:
        forms.append(move._replace(end=End.LEFT))
        forms.append(move._replace(end=End.RIGHT))
    return forms


def _card_move_text(move: Move, rng: random.Random) -> str:
    """A card move in random spelling (the card respelled, the rest recased)."""
    text = str(move)
    if move.card is not None:
        card_text = str(move.card)
        head, _, tail = text.partition(">")
        if head.endswith(card_text):
            head = head[: -len(card_text)] + spell_card(move.card, rng)
        text = f"{head}>{tail}"
    return "".join(c.lower() if rng.random() < 0.2 else c for c in text)


def respell(move: Move, board: Board, rng: random.Random) -> str:
    """Some text the board reads as ``move`` (a canonical legal move, not yet pushed)."""
    if move.kind is not MoveKind.CARD:
        words = str(move).split()
        head = _recase(words[0], rng)
        if move.kind in (MoveKind.OPEN, MoveKind.GATHER):
            return f"{head} {move.index}"
        cards = [spell_card(Card.parse(w), rng) for w in words[1:]]
        return " ".join([head, *cards])
    options = []
    for form in _card_move_forms(move, board):
        try:
            if board.canonical(form) == move:
                options.append(form)
        except ValueError:
            continue
    return _card_move_text(rng.choice(options), rng)


# --------------------------------------------------------------- generating

_COMMENT_WORDS = (
    "good",
    "won",
    "lost",
    "*",
    "deal",
    "r5:QD>K",
    "[Tag",
    '"x"',
    "a;b",
    "{",
    "!?",
    "12.",
    "ваш ход",
    "♠",
    "\\",
)
_ANNOTATIONS = ("!", "?", "!!", "??", "!?", "?!")


def random_comment(rng: random.Random) -> str:
    """A comment's text as a reader gives it back: stripped, at most one of '}' or a line
    break (a comment cannot hold both)."""
    words = [rng.choice(_COMMENT_WORDS) for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.15:
        words.append("}")
    elif rng.random() < 0.15:
        words.append("\nsecond line")
    return " ".join(words).strip()


def random_tag_value(rng: random.Random) -> str:
    """A one-line tag value with quotes and backslashes."""
    pieces = ("Club", '"quoted"', "\\", "back\\slash", " ", "[x]", "é", "a;b", "{c}", "*")
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 5)))


def random_gen_game(
    rng: random.Random,
    *,
    variant: str | None = None,
    deal: int | None = None,
    physical: bool = False,
    max_moves: int = 200,
    decorate: bool = True,
    respelled: bool = True,
) -> GenGame:
    """A random real game: played by :func:`random_playout`, then decorated at random."""
    variant = variant or rng.choice(VARIANTS)
    deal = rng.randrange(2**64) if deal is None else deal
    board = Board(variant, deal=deal)
    replay_board = Board(variant, deal=deal)
    moves = list(random_playout(board, rng, max_moves=max_moves))
    canonical = physical_moves(moves, board) if physical else moves
    gen_moves = []
    for move in canonical:
        text = respell(move, replay_board, rng) if respelled else str(move)
        replay_board.push(move)
        gen = GenMove(text, move)
        if decorate:
            if rng.random() < 0.3:
                gen.number = len(gen_moves) + 1
                gen.joined = rng.random() < 0.5
            if rng.random() < 0.1:
                gen.annotation = rng.choice(_ANNOTATIONS)
            while rng.random() < 0.1:
                gen.comments.append(random_comment(rng))
        gen_moves.append(gen)
    status = board.status()
    result = status.value if status is not Status.PLAYING else "*"
    tags: list[tuple[str, str]] = []
    if decorate and rng.random() < 0.7:
        tags.append(("Event", random_tag_value(rng)))
    if variant != "sun" or rng.random() < 0.5:
        tags.append(("Variant", variant))
    if not physical:
        tags.append(("Deal", str(deal)))
    if decorate and rng.random() < 0.3:
        tags.append(("Result", result))
    if decorate and rng.random() < 0.5:
        tags.append((f"X_{rng.randint(0, 99)}", random_tag_value(rng)))
    game = GenGame(tags, gen_moves, result, board=board)
    if decorate:
        game.comments = [random_comment(rng) for _ in range(rng.choice((0, 0, 1, 2)))]
    return game


# ------------------------------------------------------------------ writing


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str, rng: random.Random) -> str:
    if "}" in text or ("\n" not in text and rng.random() < 0.4):
        return f";{rng.choice(('', ' '))}{text}\n"
    return "{" + rng.choice(("", " ", "  ")) + text + rng.choice(("", " ", "\n")) + "}"


def render(game: GenGame, rng: random.Random, *, newline: str = "\n") -> str:
    """Write a game as a person might: random spacing and line breaks, both comment
    kinds, move numbers apart or joined. Ends with the result token when there is one."""

    def gap() -> str:
        return rng.choice((" ", " ", " ", "\n", "  ", "\t", "\n\n"))

    out: list[str] = []
    for name, value in game.tags:
        out.append(f'[{name} "{_escape(value)}"]\n')
    out.append(rng.choice(("", "\n")))
    for text in game.comments:
        out += [_comment(text, rng), gap()]
    for gm in game.moves:
        if gm.number is not None:
            out.append(f"{gm.number}." + ("" if gm.joined else rng.choice((" ", "\n"))))
        out.append(gm.text + (gm.annotation or ""))
        out.append(gap())
        for text in gm.comments:
            out += [_comment(text, rng), gap()]
    if game.result is not None:
        out.append(game.result.upper() if rng.random() < 0.2 else game.result)
        out.append("\n")
    for text in game.final_comments:
        out += [_comment(text, rng), "\n"]
    return "".join(out).replace("\n", newline)


def to_game(gen: GenGame) -> Game:
    """The :class:`Game` value that the text of ``gen`` should read as (without places)."""
    return Game(
        tags=tuple(Tag(n, v) for n, v in gen.tags),
        moves=tuple(
            GameMove(Move.parse(m.text), m.text, m.number, m.annotation, tuple(m.comments))
            for m in gen.moves
        ),
        result=gen.result,
        comments=tuple(gen.comments),
        final_comments=tuple(gen.final_comments),
    )


def deck_with_top(top: Sequence[str]) -> list[Card]:
    """A 104-card stock that starts with the cards ``top`` (at most two of each); the rest
    follow in the order of the ordered deck, so every card is there exactly twice."""
    named = [Card.parse(text) for text in top]
    left = {card: 2 for card in range(52)}
    for card in named:
        left[card] -= 1
        if left[card] < 0:
            raise ValueError(f"{card} named more than twice")
    rest = [Card(i) for _ in range(2) for i in range(52)]
    out = list(named)
    for card in rest:
        if left[card] > 0:
            out.append(card)
            left[card] -= 1
    return out


@st.composite
def real_logs(
    draw: st.DrawFn, *, games: int = 2, max_moves: int = 100, newlines: Sequence[str] = ("\n",)
) -> str:
    """A file of one to ``games`` real games (random play on random deals and variants,
    physical or not), each written loosely: any spelling, comments, the given line ends."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    texts = []
    for _ in range(draw(st.integers(1, games))):
        gen = random_gen_game(
            rng,
            variant=draw(st.sampled_from(VARIANTS)),
            physical=draw(st.booleans()),
            max_moves=draw(st.integers(1, max_moves)),
        )
        gen.result = gen.result or "*"
        texts.append(render(gen, rng, newline=draw(st.sampled_from(list(newlines)))))
    return "".join(texts)


def essentials(game: Game) -> dict[str, Any]:
    """What a game holds apart from places and spelling: tags, moves, comments, result."""
    return {
        "tags": [(t.name, t.value) for t in game.tags],
        "moves": [(gm.move, gm.number, gm.annotation, gm.comments) for gm in game.moves],
        "comments": game.comments,
        "final_comments": game.final_comments,
        "result": game.claimed_result.lower(),
    }


# ------------------------------------------------------------------ damage

#: Pieces of the notation and of its near misses: the fuzzer's alphabet.
PIECES = (
    "deal", "DEAL", "open", "gather", "wind", "won", "lost", "*", "1.", "12.", "0.", "13",
    "14", "0", "99999999999999999999", "r1", "r13", "r14", "r0", "r1.2", "c1", "c1.L",
    "c2.r", "w", "w.R", "A", "K", "A1", "A2", "AS", "10H", "TH", "qd", "K♠", "1S", "11C",
    ":", ">", "r1:AS>A", "r5:QD>K", "AS>A", "KH>K", "r2>A", "A:2S>K", "K:KS>A", "c1:5H>A",
    "w:KC>K", "r3>r4", "r1:AS>A2", "!", "?", "!!", "??", "!?", "?!", "{", "}", "{ note }",
    ";", "; note\n", "[", "]", '"', "\\", '\\"', "\\\\", '[Event "x"]', '[Deal "1"]',
    '[Deal "18446744073709551616"]', '[Variant "sun-3"]', '[Variant "sun-2"]',
    '[Result "won"]', '[Deck "AS"]', '[Deal "-1"]', "\ufeff", "\u00a0", "\t", "\r", "\r\n",
    "\n", " ", " ", " ", "\x00", "♥", "é", "Ж", "\U0001f600", "9" * 5000, "r" + "1" * 4400,
    "open " + "9" * 5000, "r" + "9" * 4400 + ":AS>A", "9" * 5000 + ". deal",
)  # fmt: skip

_TOKEN = re.compile(r"\s+|[^\s]+")
_CARD = re.compile(r"(?:10|[2-9AJQKT])[SHDC♠♥♦♣♤♡♢♧]", re.IGNORECASE)
_NUMBER = re.compile(r"[0-9]+")
_SPARE_CARDS = ("AS", "KH", "10D", "2C", "QS", "1H", "ZZ", "AX", "11S", "")
_SPARE_NUMBERS = (
    "0",
    "1",
    "13",
    "14",
    "7",
    "999",
    "18446744073709551616",
    "",
    "-1",
    "x",
    "9" * 5000,
)


def mutate(text: str, rng: random.Random) -> str:
    """One random damage to a log: the kinds of mistake a person or a broken tool makes."""
    tokens = _TOKEN.findall(text)
    words = [i for i, t in enumerate(tokens) if not t.isspace()]
    if not words:
        return text + rng.choice(PIECES)
    i = rng.choice(words)
    kind = rng.randrange(9)
    if kind == 0:  # a token deleted
        del tokens[i]
    elif kind == 1:  # a token duplicated
        tokens.insert(i, tokens[i] + " ")
    elif kind == 2:  # two tokens swapped
        j = rng.choice(words)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 3:  # a card changed
        cards = [k for k in words if _CARD.search(tokens[k])]
        k = rng.choice(cards or words)
        tokens[k] = _CARD.sub(lambda _m: rng.choice(_SPARE_CARDS), tokens[k], count=1)
    elif kind == 4:  # a number changed (ray, depth, cloud, move number, deal)
        numbers = [k for k in words if _NUMBER.search(tokens[k])]
        k = rng.choice(numbers or words)
        spare = "9" * 5000 if rng.random() < 0.3 else rng.choice(_SPARE_NUMBERS)  # too long
        tokens[k] = _NUMBER.sub(lambda _m: spare, tokens[k], count=1)
    elif kind == 5:  # a line cut short, or the file truncated
        joined = "".join(tokens)
        at = rng.randrange(len(joined) + 1)
        if rng.random() < 0.5:
            return joined[:at]
        end = joined.find("\n", at)
        return joined[:at] + (joined[end:] if end >= 0 else "")
    elif kind == 6:  # a stray piece inserted
        tokens.insert(i, rng.choice(PIECES))
    elif kind == 7:  # a character inside a token changed
        token = tokens[i]
        at = rng.randrange(len(token))
        tokens[i] = token[:at] + rng.choice('{}[]";:>.!?*\\x0') + token[at + 1 :]
    else:  # a whole line deleted or doubled
        lines = "".join(tokens).split("\n")
        k = rng.randrange(len(lines))
        if rng.random() < 0.5:
            del lines[k]
        else:
            lines.insert(k, lines[k])
        return "\n".join(lines)
    return "".join(tokens)
