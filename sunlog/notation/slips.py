"""What a word the notation cannot read was likely meant as: a letter of another alphabet
that looks like the notation's (a Cyrillic А typed on a Russian keyboard, a full-width
Ａ), a character drawn as nothing (a byte order mark, a zero-width space), and a move
word misspelled (``dael`` for ``deal``).

Only :mod:`sunlog.notation.syntax` asks, once a game has failed: nothing here runs for a
valid log.
"""

from __future__ import annotations

__all__ = ["invisible", "look_alike", "meant_word", "plain"]

# The letters of other alphabets drawn like the Latin letters the notation writes
# (capitals and small letters; a small one stands for the small Latin letter of its
# capital, as the notation reads either case): each with its Latin letter.
_CYRILLIC = dict(zip("АВЕКМНОРСТХЅЈІ", "ABEKMHOPCTXSJI", strict=True))
_CYRILLIC |= {c.lower(): latin.lower() for c, latin in _CYRILLIC.items()}
_GREEK = dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True))
_FULL_WIDTH = {chr(0xFF21 + i): chr(0x41 + i) for i in range(26)}
_FULL_WIDTH |= {chr(0xFF41 + i): chr(0x61 + i) for i in range(26)}
_LOOK_ALIKES: dict[str, tuple[str, str]] = {
    **{c: (latin, "the Cyrillic letter") for c, latin in _CYRILLIC.items()},
    **{c: (latin, "the Greek letter") for c, latin in _GREEK.items()},
    **{c: (latin, "the full-width letter") for c, latin in _FULL_WIDTH.items()},
}
# Characters drawn as nothing at all, which an editor or a copy from a web page can leave
# in a word: each with what it is. A byte order mark is accepted only where a game may
# begin (notation/reader.py); in a word it is one of these.
_INVISIBLE = {
    "\ufeff": "byte order mark (U+FEFF, which some editors write at a file's start)",
    "\u200b": "zero-width space (U+200B)",
    "\u200c": "zero-width non-joiner (U+200C)",
    "\u200d": "zero-width joiner (U+200D)",
    "\u2060": "word joiner (U+2060)",
    "\u00ad": "soft hyphen (U+00AD)",
}
_PLAIN = str.maketrans(
    {c: latin for c, (latin, _) in _LOOK_ALIKES.items()} | dict.fromkeys(_INVISIBLE, "")
)

#: The words of the notation's moves and results, which a slip of the pen may bend.
_MOVE_WORDS = ("deal", "open", "gather", "wind", "won", "lost")


def look_alike(word: str) -> tuple[int, str] | None:
    """The index in ``word`` of its first letter from another alphabet drawn like a Latin
    one, and what it is (``'А' is the Cyrillic letter А, not the Latin A``); ``None``
    when it holds none. See :func:`invisible` for a character drawn as nothing."""
    for i, char in enumerate(word):
        found = _LOOK_ALIKES.get(char)
        if found is not None:
            latin, what = found
            return i, f"'{char}' is {what} {char}, not the Latin {latin}"
    return None


def invisible(word: str) -> tuple[int, str] | None:
    """The index in ``word`` of its first character drawn as nothing (a byte order mark, a
    zero-width space...), and what it is; ``None`` when it holds none."""
    for i, char in enumerate(word):
        what = _INVISIBLE.get(char)
        if what is not None:
            return i, f"an invisible {what} stands here"
    return None


def plain(word: str) -> str:
    """``word`` with each look-alike letter (:func:`look_alike`) made its Latin letter and
    each invisible character (:func:`invisible`) left out."""
    return word.translate(_PLAIN)


def meant_word(word: str) -> str | None:
    """The move word (``deal``, ``open``, ``gather``, ``wind``, ``won``, ``lost``) that
    ``word`` is a slip of: one letter left out, added, changed, or two side by side
    swapped (two such slips in a word of six letters or more); ``None`` if none is."""
    lower = word.lower()
    if len(lower) < 3 or not lower.isascii() or not lower.isalpha() or lower in _MOVE_WORDS:
        return None
    best: tuple[int, str] | None = None
    for meant in _MOVE_WORDS:
        allowed = 2 if min(len(meant), len(lower)) >= 6 else 1
        distance = _slips(lower, meant)
        if distance <= allowed and (best is None or distance < best[0]):
            best = (distance, meant)
    return None if best is None else best[1]


def _slips(a: str, b: str) -> int:
    """How many slips (a letter left out, added or changed, two neighbours swapped) turn
    ``a`` into ``b``: the optimal string alignment distance."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]
