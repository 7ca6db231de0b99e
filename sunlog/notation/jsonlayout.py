"""How sunlog lays JSON out (SPEC 6, docs/json.md): which texts, in what order, compact or
pretty. :mod:`sunlog.notation.jsonio` makes the objects; this module writes them, and the
command line prints what it is handed.

Compact is one line with UTF-8 characters kept (JSON Lines, ``check --json``). Pretty puts
a leaf object (a move, a tag, a pile) on one line and indents the rest by two spaces, so a
game reads as one move a line. A document (``{"format": ..., "games": [...]}``) is written
a game at a time (:class:`JsonGames`), so a file of any size streams through.

json is imported on first use: a command that writes no JSON does not pay for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sunlog.notation.errors import LogError
    from sunlog.notation.game import Game

__all__ = [
    "GAME_INDENT",
    "JsonGames",
    "dumps",
    "dumps_parts",
    "dumps_pretty",
    "game_text",
    "one_line",
]

#: How far a game of a document is indented (inside ``"games": [``).
GAME_INDENT = "    "


def dumps(obj: Any) -> str:
    """Compact one-line JSON, UTF-8 characters kept (for JSON Lines)."""
    import json

    return json.dumps(obj, ensure_ascii=False)


def dumps_pretty(obj: Any, indent: str = "", leaf: Callable[[Any], bool] | None = None) -> str:
    """Readable JSON: a leaf object (a move, a tag, a pile) on one line, the rest indented.

    A leaf holds only scalars and lists of scalars, so a game reads as one move a line;
    ``leaf`` may say otherwise (:func:`one_line`).
    """
    is_leaf = leaf or _is_leaf
    if is_leaf(obj):
        return dumps(obj)
    inner = indent + "  "
    if isinstance(obj, dict):
        items = [f"{inner}{dumps(k)}: {dumps_pretty(v, inner, leaf)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [f"{inner}{dumps_pretty(v, inner, leaf)}" for v in obj]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"


def dumps_parts(
    head: dict[str, Any], items: list[str], tail: dict[str, Any], indent: str | None = None
) -> str:
    """An object whose ``moves`` member is a list given as the JSON texts of its items
    (``items``, each one line), between the members ``head`` and ``tail``: what
    :func:`dumps` gives for the whole object, or with ``indent`` what
    :func:`dumps_pretty` with :func:`one_line` gives (each item one line). Neither ``head``
    nor ``tail`` is empty."""
    if indent is None:
        return f'{dumps(head)[:-1]}, "moves": [{", ".join(items)}], {dumps(tail)[1:]}'
    if not items:  # then the whole object may be a leaf, on one line: let dumps_pretty say
        whole = {**head, "moves": [], **tail}
        return dumps_pretty(whole, indent, one_line)
    inner = indent + "  "
    lines = [f"{inner}{dumps(k)}: {dumps_pretty(v, inner, one_line)}" for k, v in head.items()]
    sep = ",\n" + inner + "  "
    lines.append(f'{inner}"moves": [\n{inner}  {sep.join(items)}\n{inner}]')
    lines += [f"{inner}{dumps(k)}: {dumps_pretty(v, inner, one_line)}" for k, v in tail.items()]
    return "{\n" + ",\n".join(lines) + f"\n{indent}}}"


def one_line(obj: Any) -> bool:
    """A leaf, or a resolved move or playable card (its places inside) without a position:
    one line each, so that a converted game still reads as one move a line."""
    if isinstance(obj, dict) and ("kind" in obj or "from" in obj) and "position" not in obj:
        return True  # asked first: it is the common case, and the cheaper question
    return _is_leaf(obj)


def _is_scalar_list(value: Any) -> bool:
    return isinstance(value, list) and not any(isinstance(x, dict | list) for x in value)


def _is_leaf(obj: Any) -> bool:
    """A scalar, a list of scalars, or an object of scalars and lists of scalars."""
    if isinstance(obj, dict):
        return all(not isinstance(v, dict | list) or _is_scalar_list(v) for v in obj.values())
    return not isinstance(obj, list) or _is_scalar_list(obj)


def game_text(
    game: Game, *, lines: bool, check: bool = True, positions: bool = False
) -> tuple[str, LogError | None]:
    """One game as ``convert`` writes it: a line of JSON Lines (``lines``), or the game's
    object in a document's layout, indented for its place; and its rule error if it is
    invalid. ``check`` replays it and adds the resolved fields (else the fields as
    written), ``positions`` the position after every move."""
    from sunlog.notation.jsonio import game_to_json, resolved_game_json, resolved_game_parts
    from sunlog.notation.resolve import resolve

    indent = None if lines else GAME_INDENT
    error = None
    if not check:
        data = game_to_json(game)
    else:
        resolved = resolve(game, positions=positions)
        error = resolved.error
        if not positions or indent is None:  # every move on one line: the text path
            head, moves, tail = resolved_game_parts(resolved)
            return dumps_parts(head, moves, tail, indent), error
        data = resolved_game_json(resolved, shared=True)  # written out at once
    if indent is None:
        return dumps(data), error
    # the document's layout, as dumps_pretty writes it, one game at a time
    return dumps_pretty(data, indent, leaf=one_line), error


class JsonGames:
    """The texts that make games (each from :func:`game_text`) a document, or JSON Lines
    (``lines``): :meth:`start`, then :meth:`game` for each, then :meth:`end`, each text
    written as handed."""

    def __init__(self, *, lines: bool) -> None:
        self.lines = lines
        self._first = True

    def start(self) -> str:
        """What comes before the first game."""
        if self.lines:
            return ""
        from sunlog.notation.jsonio import FORMAT

        return f'{{\n  "format": {dumps(FORMAT)},\n  "games": [\n'

    def game(self, text: str) -> str:
        """One game's text with what separates it from the one before."""
        if self.lines:
            return text + "\n"
        before = "" if self._first else ",\n"
        self._first = False
        return before + GAME_INDENT + text

    def end(self) -> str:
        """What comes after the last game."""
        return "" if self.lines else "\n  ]\n}\n"
