"""The position object of SPEC 6: a board as JSON (``Board.to_json``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sunlog.engine.cards import Card
from sunlog.engine.state import BoardState

__all__ = ["position_json"]

_SUIT_KEYS = ("S", "H", "D", "C")


def position_json(board: BoardState) -> dict[str, Any]:
    """The position object of SPEC 6."""
    from sunlog.engine.position import write_position  # loaded when asked for (Board._at)

    names = _card_names
    found = board.foundations
    if board.rules.two_aces_piles:
        foundations: dict[str, Any] = {
            "aces": {k: [names(found[s]), names(found[s + 4])] for s, k in enumerate(_SUIT_KEYS)}
        }
    else:
        foundations = {
            "aces": {k: names(found[s]) for s, k in enumerate(_SUIT_KEYS)},
            "kings": {k: names(found[s + 4]) for s, k in enumerate(_SUIT_KEYS)},
        }
    stock = board.stock
    wind_row = board.wind_row
    return {
        "variant": board.variant.value,
        "deal": board.deal_number,
        "stage": board.stage.json,
        "move_count": board.move_count,
        "deals": board.deals,
        "opened": board.opened,
        "gathered": board.gathered,
        "stock": None if stock is None else names(stock),
        "rays": [names(ray) for ray in board.rays],
        "open_ray": board.open_ray,
        "clouds": [names(cloud) for cloud in board.clouds],
        "wind_row": None if wind_row is None else names(wind_row),
        "foundations": foundations,
        "status": board.status().value,
        "position": write_position(board),
    }


def _card_names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]
