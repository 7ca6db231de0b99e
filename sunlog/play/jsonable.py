"""The JSON forms of the play package's results, written from their fields by name.

A result's ``to_json`` names the fields it writes, in order, and adds what is computed;
:func:`json_fields` turns each value into JSON's own: an enum by its value, a move in
canonical notation, a tuple as a list. :func:`rebuilt` lets a frozen dataclass pickle when
compiled.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from enum import Enum
from typing import Any

from sunlog.engine.moves import Move

__all__ = ["json_fields", "json_value", "rebuilt"]


def json_value(value: object) -> object:
    """``value`` as JSON writes it: an enum by its value, a move in canonical notation, a
    tuple or list as a list of such values; anything else as it is."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Move):  # a NamedTuple: before the tuples
        return str(value)
    if isinstance(value, (tuple, list)):
        return [json_value(item) for item in value]
    return value


def json_fields(value: object, names: Iterable[str]) -> dict[str, Any]:
    """``{name: json_value(value.name)}`` for each of ``names``, in that order."""
    return {name: json_value(getattr(value, name)) for name in names}


def rebuilt(value: Any) -> tuple[Any, tuple[Any, ...]]:
    """``__reduce__`` of a frozen dataclass: its class and its fields. Compiled by mypyc,
    such a class cannot take its state back by assignment, as pickle and deepcopy do."""
    return type(value), tuple(getattr(value, field.name) for field in fields(value))
