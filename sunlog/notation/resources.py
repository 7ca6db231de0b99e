"""Files that ship with sunlog: the notation grammar and the JSON schemas.

In an installed wheel the grammar is ``sunlog/grammar/sun.lark``; in a source
checkout or an editable install it is ``grammar/sun.lark`` at the top of the
repository, beside the package directory. The schemas are package data in
``sunlog/schemas/<name>.json`` either way.
"""

from __future__ import annotations

import functools
import os
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # importlib.resources and pathlib are imported only when needed
    from importlib.resources.abc import Traversable
    from pathlib import Path

__all__ = ["grammar_path", "grammar_text", "schema"]

PACKAGE = "sunlog"
GRAMMAR_FILE = "sun.lark"

_SCHEMA_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


def _packaged_grammar() -> Traversable:
    """The grammar's place inside the installed package (it may not exist)."""
    from importlib import resources

    return resources.files(PACKAGE) / "grammar" / GRAMMAR_FILE


def _plain_places() -> tuple[str, str]:
    """Where the grammar lies as a plain file: inside the installed package, and in a
    source checkout (``<repo>/grammar/sun.lark``), found with ``os.path`` alone: every
    start-up reads the grammar (its hash tells whether the generated patterns are current),
    and importlib.resources, with what it imports, costs more than the rest of a one-game
    check."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return (
        os.path.join(package, "grammar", GRAMMAR_FILE),
        os.path.join(os.path.dirname(package), "grammar", GRAMMAR_FILE),
    )


def _plain_grammar() -> str | None:
    """The first of :func:`_plain_places` that is a file, if any."""
    return next((path for path in _plain_places() if os.path.isfile(path)), None)


@functools.cache
def grammar_path() -> Path:
    """Return the path of ``sun.lark``, preferring the copy inside the package.

    Raises :class:`FileNotFoundError` when neither the packaged copy nor the
    source checkout's ``grammar/sun.lark`` exists.
    """
    from pathlib import Path  # not on the way of a check

    plain = _plain_grammar()
    if plain is not None:
        return Path(plain)
    packaged, checkout = _plain_places()
    raise FileNotFoundError(
        f"cannot find {GRAMMAR_FILE}: looked for {packaged} (installed package) "
        f"and {checkout} (source checkout)"
    )


@functools.cache
def grammar_text() -> str:
    """Return the text of the ``.sun`` notation grammar (Lark syntax)."""
    plain = _plain_grammar()
    if plain is not None:
        with open(plain, encoding="utf-8") as handle:
            return handle.read()
    packaged = _packaged_grammar()
    if packaged.is_file():
        # Also covers packages imported from a zip file, which have no real path.
        return packaged.read_text(encoding="utf-8")
    return grammar_path().read_text(encoding="utf-8")


@functools.cache
def _schema_text(name: str) -> str:
    from importlib import resources

    return (resources.files(PACKAGE) / "schemas" / f"{name}.json").read_text(encoding="utf-8")


def schema(name: str) -> dict[str, Any]:
    """Return the JSON Schema ``sunlog/schemas/<name>.json`` as a fresh dict.

    ``name`` is the file name without ``.json`` (a trailing ``.json`` is
    tolerated). Raises :class:`ValueError` for a name that is not a plain file
    name and :class:`FileNotFoundError` for an unknown schema.
    """
    name = name.removesuffix(".json")
    if not _SCHEMA_NAME.fullmatch(name) or ".." in name:
        raise ValueError(f"not a schema name: {name!r}")
    import json  # not on the way of a check

    loaded = json.loads(_schema_text(name))
    if not isinstance(loaded, dict):
        raise ValueError(f"schema {name!r} is not a JSON object")
    return loaded
