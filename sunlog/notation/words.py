"""The words of a game's text as a player wrote them, for explaining a syntax error.

What a card, a rank, a suit and a move's target look like (as the grammar takes them, in
either case), which word a player may have meant as a card, and :class:`Before`: what the
text before an error leaves open (a move number waiting for its move, a deal or wind
taking cards), so that the error is put at the start of the move at fault.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sunlog.engine.rules import RAYS
from sunlog.notation.tokens import tag_parts, tokens

STAGE_TOKENS = frozenset(("DEAL", "WIND", "OPEN", "GATHER"))
NAMING = frozenset(("DEAL", "WIND"))  # the stage actions that may name cards
BOUNDED = frozenset(("TAG", "BRACE_COMMENT", "LINE_COMMENT"))  # tokens that hold spaces


class Before(NamedTuple):
    """What the text before an error leaves open, read token by token.

    ``number`` is where a move number waiting for its move begins; ``stage`` the keyword
    (``DEAL``, ``WIND``, ``OPEN``, ``GATHER``) of a stage action that may still be going
    on: a deal or wind taking cards, an open or gather waiting for its ray number, which
    begins at ``stage_start`` (its move number included), its keyword at ``keyword``, with
    ``cards`` cards named so far. ``last_start`` is where the last move begins (its number
    included), ``moves`` how many moves began, ``tags`` the names of the tags.
    """

    number: int | None
    stage: str | None
    stage_start: int
    keyword: int
    cards: int
    last_start: int
    moves: int
    tags: frozenset[str]

    @classmethod
    def read(cls, text: str, end: int) -> Before:
        number: int | None = None
        stage: str | None = None
        stage_start = keyword = cards = last_start = moves = 0
        tags: set[str] = set()
        for kind, start, stop in tokens(text, end):
            if kind == "MOVE_NUMBER":
                number, stage = start, None
            elif kind in STAGE_TOKENS or kind == "CARD_MOVE":
                last_start = start if number is None else number
                number, moves = None, moves + 1
                stage = kind if kind in STAGE_TOKENS else None
                stage_start, keyword, cards = last_start, start, 0
            elif kind == "CARD":
                cards += 1
            elif kind == "TAG":
                tags.add(tag_parts(text[start:stop])[0])
            elif kind != "UNFIT":  # a ray number, an annotation, a comment: the action is whole
                stage = None
        return cls(number, stage, stage_start, keyword, cards, last_start, moves, frozenset(tags))

    @staticmethod
    def floor(text: str, end: int) -> int:
        """Where the last tag or comment before ``end`` ends (0 if none): a word in error
        is looked for after it, never inside it."""
        floor = 0
        for kind, _, stop in tokens(text, end):
            if kind in BOUNDED:
                floor = stop
        return floor

    def move_start(self, pos: int) -> int:
        """Where the move holding the word at ``pos`` begins: its move number, or the open
        or gather waiting for its ray number; else the word itself."""
        if self.number is not None:
            return self.number
        if self.stage == "OPEN" or self.stage == "GATHER":
            return self.stage_start
        return pos

    def names_card(self, word: str, next_word: str) -> bool:
        """Whether the unreadable ``word`` is meant as a card of the deal or wind before it.

        It is when it looks like a card (short, no ':' or '>') and the action takes cards:
        a deal naming fewer than 13 so far, a wind, a word with a comma; after a bare deal
        or wind, when the tags do not give the cards or a card follows the word."""
        if self.stage not in NAMING or not looks_like_card(word):
            return False
        if self.stage == "DEAL" and self.cards >= RAYS:
            return False
        if self.cards or "," in word:
            return True
        known = "Deal" in self.tags or (self.stage == "DEAL" and "Deck" in self.tags)
        return not known or CARD_RE.fullmatch(next_word) is not None

    def takes_card(self, word: str) -> bool:
        """Whether ``word``, a card, is one more card of the deal or wind before it."""
        if self.stage not in NAMING or not self.cards or not CARD_RE.fullmatch(word):
            return False
        return self.stage == "WIND" or self.cards < RAYS

    def stage_text(self, text: str, pos: int, word: str) -> str:
        """The stage action as written up to and including ``word`` (spaces made single)."""
        words = text[self.keyword : pos].split()
        return " ".join([words[0].lower(), *words[1:], word]) if words else word


KEYWORDS = frozenset(("deal", "open", "gather", "wind", "won", "lost"))


def looks_like_card(word: str) -> bool:
    """A word a player may have meant as a card: ``1OD``, ``0S``, ``10``, ``2D,``, ``ZZ``."""
    if not word or ":" in word or ">" in word or word.lower() in KEYWORDS:
        return False
    if "," in word:
        return True
    return len(word) <= 4 and word[0].isalnum() and not word.endswith(".")


#: What a card looks like, as error messages say it.
CARD_SHAPE = "a card is a rank A 2-10 J Q K (or T) and a suit S H D C, like QD or 10H"
# A rank, a suit and a move's target as the grammar's RANK, SUIT and TARGET take them (in
# either case): the pieces of the patterns here that name or repair cards and moves.
RANK = r"(?:10|[2-9ajqkt])"
SUIT = "[shdc♠♥♦♣♤♡♢♧]"
TARGET = r"a[12]?|k|r\d+"
RANK_RE = re.compile(RANK, re.IGNORECASE)
SUIT_CHARS = "SHDCshdc♠♥♦♣♤♡♢♧"
TEN_WITH_O = "10 is written with the digit 0, not the letter O"
RANK_HINTS = {
    "1": "an ace is written A",
    "0": "a ten is written 10 or T",
    **{str(n): "the ranks above 10 are J, Q and K" for n in (11, 12, 13)},
}

CARD_RE = re.compile(RANK + SUIT, re.IGNORECASE)
