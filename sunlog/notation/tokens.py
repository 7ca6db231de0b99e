"""The notation's one tokenizer: the grammar's terminals as one regex, and a token's parts.

Every reading of a game goes through :func:`token_regex`: the reader's state machine
(:mod:`sunlog.notation.scanner`), and the error path walking the text before a fault
(:mod:`sunlog.notation.syntax`). Its patterns are ``grammar/sun.lark``'s own terminals
(:mod:`sunlog.notation.terminals`), so the grammar stays the one definition of the
notation. A token the regex has matched is taken apart with str methods: its shape is
the grammar's, so nothing here decides again what is valid.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from itertools import chain

from sunlog.notation.terminals import SPACES, patterns

__all__ = [
    "KINDS",
    "Token",
    "bad_escape",
    "boundary_regexes",
    "comment_text",
    "located_tokens",
    "result_regex",
    "tag_parts",
    "token_regex",
    "tokens",
    "unescape",
    "word_tokens",
]

#: The terminals in the order the regex tries them: longer and more specific first, as
#: Lark's lexer would choose them. A match's ``lastindex`` is its kind's place here, from 1;
#: ``UNFIT`` (a character no terminal reads: a stray character, odd white space) comes last.
KINDS = (
    "CARD_MOVE",
    "TAG",
    "BRACE_COMMENT",
    "LINE_COMMENT",
    "MOVE_NUMBER",
    "DEAL",
    "OPEN",
    "GATHER",
    "WIND",
    "RESULT",
    "CARD",
    "RAY_NUMBER",
    "ANNOTATION",
    "UNFIT",
)


@cache
def token_regex() -> re.Pattern[str]:
    """One token after the grammar's white space: each terminal a named group, tried in
    the order of :data:`KINDS`."""
    terminals = patterns()
    alternatives = "|".join(f"(?P<{name}>{terminals[name]})" for name in KINDS[:-1])
    return re.compile(f"(?:{terminals['WS']})?(?:{alternatives}|(?P<UNFIT>.))", re.S)


@cache
def result_regex() -> re.Pattern[str]:
    """The grammar's RESULT terminal alone: ``fullmatch`` says whether a word is a result
    token (``won``, ``lost`` in any case, ``*``)."""
    return re.compile(patterns()["RESULT"])


@cache
def boundary_regexes() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What the splitter (:mod:`sunlog.notation.reader`) reads of a line to find where games
    begin and end: a lexeme (named group ``ws``, ``brace``, ``semi``, ``tag`` or ``word``),
    and a line that is one closed tag alone.

    The comments and a tag's value are the grammar's own terminals. Where one is broken,
    the splitter reads it as far as it could reach, so that what it holds (a ``[`` or a
    ``won``) neither begins nor ends a game: a ``{`` never closed runs on past the line
    (``brace`` without its ``}``), a tag to its ``]`` or its line's end, and a quoted
    value never closed to its line's end. A tag's name is not checked here: whatever
    stands between ``[`` and ``]`` is a tag to the splitter, Lark's to explain.
    """
    terminals = patterns()
    value = terminals["TAG_VALUE"]
    lexeme = re.compile(
        "|".join(
            (
                r"(?P<ws>\s+)",
                rf"(?P<brace>{terminals['BRACE_COMMENT']}|\{{.*)",
                rf"(?P<semi>{terminals['LINE_COMMENT']})",
                rf'(?P<tag>\[(?:{value}|"[^\n]*|[^\]"\n])*\]?)',
                r"(?P<word>[^\s{;\[]+)",
            )
        )
    )
    # Its runs taken possessively, which reads the same (nothing after them can fail).
    tag_line = re.compile(rf'[ \t]*\[(?:[^\]"\n]++|{value})*+\][ \t]*\n?')
    return lexeme, tag_line


#: A token as the reader's state machine takes it: its kind (its place in :data:`KINDS`,
#: from 1), its text, whether it is joined to the token before it (no white space
#: between), and its offset in the game's text (0 where :func:`word_tokens` leaves it out).
Token = tuple[int, str, bool, int]


def located_tokens(text: str) -> Iterator[Token]:
    """The tokens of a game's text, each with its offset (white space at the end is the
    grammar's to ignore, not a character no terminal reads)."""
    end = -1
    for m in token_regex().finditer(text, 0, len(text.rstrip(SPACES))):
        kind = m.lastindex
        assert kind is not None
        start = m.start(kind)
        yield kind, m.group(kind), start == end, start
        end = m.end()


def word_tokens(text: str) -> list[Token] | None:
    """The tokens of a game's text without their offsets, read a word at a time: what
    each word reads as is kept (:data:`_WORDS`), and a log repeats its words. ``None``
    where white space the grammar does not take stands between words (str.split() would
    take it): :func:`located_tokens` then finds it.

    No token but a tag or a comment holds white space, and each begins with ``[``, ``{``
    or ``;``: so the text between those characters reads word by word as it reads whole
    (a word's tokens are joined, its first one is not, unless it follows a tag or comment
    without a space), and each tag or comment is matched where it begins, as in
    :func:`located_tokens`. Those characters and odd white space are found with str
    methods, not a character class: a regex tests a class character by character, which
    cost as much as the words themselves (about 300M instructions of a mixed log's check).
    """
    # Where odd white space stands (rare), each stretch is looked at for it. The few of
    # ASCII are looked for with str methods, those beyond by the regex, in text beyond ASCII.
    odd = any(map(text.__contains__, _ODD_ASCII)) or (
        not text.isascii() and _ODD_SPACE.search(text) is not None
    )
    found: list[Token] = []
    regex = token_regex()
    pos, n = 0, len(text.rstrip(SPACES))  # as located_tokens: the end's white space is none
    ahead = [text.find(mark, 0, n) for mark in _SPECIAL]  # where each next stands, or -1
    while pos < n:
        stop = n
        for k, at in enumerate(ahead):
            if 0 <= at < pos:  # inside the tag or comment just read: look further
                ahead[k] = at = text.find(_SPECIAL[k], pos, n)
            if 0 <= at < stop:
                stop = at
        stretch = text[pos:stop]
        words = stretch.split()
        if odd and sum(map(len, words)) + sum(map(stretch.count, SPACES)) != len(stretch):
            return None  # odd white space: str.split() took it, the grammar does not
        first = len(found)
        found += chain.from_iterable(map(_WORDS.__getitem__, words))
        if pos and words and stretch[0] not in SPACES:  # joined to the tag or comment before
            found[first] = (*found[first][:2], True, 0)
        if stop == n:
            break
        m = regex.match(text, stop, n)
        assert m is not None
        kind = m.lastindex
        assert kind is not None
        found.append((kind, m.group(kind), stop > 0 and text[stop - 1] not in SPACES, 0))
        pos = m.end()
    return found


class _Words(dict[str, tuple[Token, ...]]):
    """Each word :func:`word_tokens` has read, with its tokens as the regex reads them
    (learnt on first sight); emptied when it grows too large."""

    def __missing__(self, word: str) -> tuple[Token, ...]:
        dot = word.find(".") + 1
        if 1 < dot < len(word) and word[: dot - 1].isdigit() and word.isascii():
            # A move number joined to its move (12.r5:QD>K): MOVE_NUMBER is the regex's
            # first token of such a word (no other terminal begins with digits and a dot),
            # then come the rest's tokens, the first joined to it. Not kept: a log's moves
            # come at many numbers, and each would keep its own copy of the move; its two
            # parts are kept, so it costs two lookups.
            return self[word[:dot]] + _JOINED[word[dot:]]
        stem = word.rstrip("!?")
        if stem and stem != word:
            # A word annotated (r5:QD>K?!): only ANNOTATION holds a ! or a ?, and only those,
            # so no token runs across the stem's end; the stem's tokens are kept already.
            marks = tuple((kind, text, True, 0) for kind, text, _, _ in self[word[len(stem) :]])
            tokens = self[stem] + marks
        else:
            found: list[Token] = []
            for m in token_regex().finditer(word):
                kind = m.lastindex
                assert kind is not None
                found.append((kind, m.group(kind), bool(found), 0))
            tokens = tuple(found)
        if len(self) >= _WORDS_MAX:
            self.clear()
        self[word] = tokens
        return tokens


class _Joined(dict[str, tuple[Token, ...]]):
    """Each word's tokens as they read after a move number without a space (``12.r5:QD>K``):
    its first token joined; emptied with :data:`_WORDS`' limit."""

    def __missing__(self, word: str) -> tuple[Token, ...]:
        first, *rest = _WORDS[word]
        if len(self) >= _WORDS_MAX:
            self.clear()
        tokens = self[word] = ((*first[:2], True, 0), *rest)
        return tokens


_MOVE_NUMBER = KINDS.index("MOVE_NUMBER") + 1
# The ASCII white space that str.split() takes and the grammar's WS does not (\v,
# \x1c-\x1f); beyond ASCII there are more (the no-break space...).
_ODD_ASCII = tuple(c for c in map(chr, range(128)) if c.isspace() and c not in SPACES)
# All white space that str.split() takes and the grammar's WS does not (the no-break
# space...): re's \s is str.isspace(), as str.split()'s is.
_ODD_SPACE = re.compile(f"[^\\S{re.escape(SPACES)}]")
# What begins a tag or a comment: the only tokens that may hold white space.
_SPECIAL = ("[", "{", ";")
_WORDS = _Words()
_JOINED = _Joined()
_WORDS_MAX = 50_000


def tokens(text: str, end: int) -> Iterator[tuple[str, int, int]]:
    """The tokens of ``text[:end]`` as ``(terminal, start, end)``."""
    for m in token_regex().finditer(text, 0, end):
        kind = m.lastgroup
        assert kind is not None
        yield kind, m.start(kind), m.end(kind)


def tag_parts(token: str) -> tuple[str, str]:
    """A TAG token's name and its value as written (escapes kept): the name runs from
    after ``[`` to the first space or quote, the value between the first and last quote."""
    inner = token[1:-1]
    quote = inner.find('"')
    return inner[:quote].strip(" \t"), inner[quote + 1 : inner.rfind('"')]


def unescape(raw: str) -> str | None:
    """A tag value as meant: ``\\"`` and ``\\\\`` undone (SPEC 5.1), read from left to
    right; ``None`` when another escape stands in it (:func:`bad_escape` names it)."""
    if "\\" not in raw:
        return raw
    parts = raw.split("\\\\")
    if any(part.count("\\") != part.count('\\"') for part in parts):
        return None
    return "\\".join([part.replace('\\"', '"') for part in parts])


def bad_escape(raw: str) -> str | None:
    """The first character escaped in a tag value other than ``"`` and ``\\``, if any."""
    at = raw.find("\\")
    while at >= 0:
        escaped = raw[at + 1 : at + 2]
        if escaped not in ('"', "\\"):
            return escaped
        at = raw.find("\\", at + 2)
    return None


def comment_text(token: str) -> str:
    """A comment's text without its marks; CRLF inside a ``{ }`` comment reads as a line break."""
    if token[0] == "{":
        return token[1:-1].replace("\r\n", "\n").strip()
    return token[1:].strip()
