"""The grammar's terminals as regular expressions, generated from ``grammar/sun.lark``.

The reader's tokenizer (:mod:`sunlog.notation.tokens`) and the engine's reading of a
card move need only these patterns. Generated into :mod:`sunlog.engine.terminals` (the
engine imports nothing of the notation), they spare each run of sunlog the import of
Lark and the building of its parser (about a fifth of a second), while the grammar stays
the one definition of the notation: :func:`patterns` checks the grammar's hash and
derives the patterns through Lark again whenever the grammar has changed. Regenerate
with ``python -m sunlog.notation.terminals``; a test fails while the file is stale.
"""

from __future__ import annotations

import sys
from functools import cache

from sunlog.engine.terminals import GRAMMAR_SHA256, PATTERNS
from sunlog.notation.resources import grammar_text

try:  # the interpreter's own SHA-256: hashlib's import of OpenSSL costs more than a check
    from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # another Python than CPython 3.11
    from hashlib import sha256

__all__ = ["GRAMMAR_SHA256", "SPACES", "grammar_digest", "patterns", "terminal_patterns"]

#: The characters of the grammar's WS terminal: the only white space between words (a
#: test holds it to ``WS``).
SPACES = " \t\f\r\n"


def grammar_digest() -> str:
    """The SHA-256 of the grammar file's text."""
    return str(sha256(grammar_text().encode("utf-8")).hexdigest())


@cache
def patterns() -> dict[str, str]:
    """Each terminal's regular expression, by name: from this file while it matches the
    grammar, else derived from the grammar with Lark."""
    if grammar_digest() == GRAMMAR_SHA256:
        return dict(PATTERNS)
    return terminal_patterns()


def terminal_patterns() -> dict[str, str]:
    """Each terminal of the grammar as a Python regular expression, by name, as Lark
    derives them (Lark's lexer alone: no parser is built)."""
    from lark import Lark

    lexer = Lark(grammar_text(), parser=None, lexer="basic", start="game")
    return {t.name: t.pattern.to_regexp() for t in lexer.terminals}


def _generated() -> str:
    rows = "".join(
        f"    {name!r}: {regex!r},\n" for name, regex in sorted(terminal_patterns().items())
    )
    return f'GRAMMAR_SHA256 = "{grammar_digest()}"\nPATTERNS: dict[str, str] = {{\n{rows}}}\n'


def main() -> None:
    """Rewrite the generated part of :mod:`sunlog.engine.terminals` from the grammar."""
    from pathlib import Path

    import sunlog.engine.terminals

    path = Path(sunlog.engine.terminals.__file__)
    text = path.read_text(encoding="utf-8")
    start = text.index("GRAMMAR_SHA256 = ")
    end = text.index("# --- end of generated part ---")
    path.write_text(text[:start] + _generated() + text[end:], encoding="utf-8")
    print(f"{path}: patterns of grammar {grammar_digest()[:12]}", file=sys.stderr)


if __name__ == "__main__":
    main()
