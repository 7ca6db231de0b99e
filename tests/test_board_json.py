"""The position object (SPEC 6): its shape in each variant and at each stage."""

from __future__ import annotations

import json
import re

import pytest
from enginekit import board_from_deals, deal_all, deck_from_deals, named_wind, play, sunset

from sunlog.engine.board import Board

REQUIRED = {
    "variant",
    "stage",
    "move_count",
    "stock",
    "rays",
    "open_ray",
    "clouds",
    "wind_row",
    "foundations",
    "status",
}
CARD = re.compile(r"(?:10|[2-9AJQK])[SHDC]")
SUITS = ["S", "H", "D", "C"]


def all_cards(data: dict) -> list[str]:
    """Every card string in a position object."""
    out = [*(data["stock"] or []), *(c for r in data["rays"] for c in r)]
    out += [c for cloud in data["clouds"] for c in cloud] + (data["wind_row"] or [])
    for kind in data["foundations"].values():
        for piles in kind.values():
            if piles and isinstance(piles[0], list):
                out += [c for p in piles for c in p]
            else:
                out += piles
    return out


def test_position_object_has_the_required_keys_and_is_plain_json(variant: str) -> None:
    data = Board(variant, deal=1).to_json()
    assert set(data) >= REQUIRED
    assert json.loads(json.dumps(data)) == data
    assert data["variant"] == variant


def test_fresh_position_values(variant: str) -> None:
    board = Board(variant, deal=1)
    data = board.to_json()
    assert data["stage"] == 1 and data["move_count"] == 0 and data["status"] == "playing"
    assert data["stock"] == [str(c) for c in board.deck or []] and len(data["stock"]) == 104
    assert data["rays"] == [[] for _ in range(13)]
    assert data["open_ray"] is None and data["clouds"] == [] and data["wind_row"] is None


def test_sun_and_sun_2_foundations_have_aces_and_kings_piles_per_suit() -> None:
    for variant in ("sun", "sun-2"):
        board = play(Board(variant, deal=20261129), "deal r1:AC>A r8:AS>A r2:2S>A r11:KH>K")
        found = board.to_json()["foundations"]
        assert set(found) == {"aces", "kings"}
        assert list(found["aces"]) == SUITS and list(found["kings"]) == SUITS
        assert found["aces"]["S"] == ["AS", "2S"] and found["aces"]["C"] == ["AC"]
        assert found["kings"]["H"] == ["KH"] and found["kings"]["S"] == []


def test_sun_3_foundations_have_two_aces_piles_per_suit_and_no_kings() -> None:
    board = play(Board("sun-3", deal=20261129), "deal r1:AC>A r8:AS>A r9:AS>A r2:2S>A2")
    found = board.to_json()["foundations"]
    assert set(found) == {"aces"}
    assert list(found["aces"]) == SUITS
    assert found["aces"]["S"] == [["AS"], ["AS", "2S"]]
    assert found["aces"]["C"] == [["AC"], []] and found["aces"]["D"] == [[], []]


def test_stock_is_the_rest_of_the_deck_top_first() -> None:
    deck = deck_from_deals([])
    board = board_from_deals("sun", [])
    for k in range(9):
        assert board.to_json()["stock"] == [str(c) for c in deck[13 * k :]]
        if k < 8:
            play(board, "deal")


def test_stock_is_null_in_a_physical_game_before_the_8th_deal() -> None:
    deck = deck_from_deals([])
    board = Board("sun")
    for k in range(8):
        assert board.to_json()["stock"] is None
        play(board, "deal " + " ".join(map(str, deck[13 * k : 13 * k + 13])))
    assert board.to_json()["stock"] == []


def test_stage_is_1_then_2_at_the_first_open_then_3_then_wind() -> None:
    board = deal_all(Board("sun", deal=42))
    assert board.to_json()["stage"] == 1
    play(board, "open 3")
    data = board.to_json()
    assert data["stage"] == 2 and data["open_ray"] == 3
    play(board, "gather 1")
    data = board.to_json()
    assert data["stage"] == 3 and data["open_ray"] is None
    play(board, " ".join(f"gather {n}" for n in range(2, 14)) + " wind")
    data = board.to_json()
    assert data["stage"] == "wind"
    assert data["rays"] == [[] for _ in range(13)]
    assert all(cloud == [] for cloud in data["clouds"]) and data["clouds"]
    assert len(data["wind_row"]) == 104


def test_move_count_counts_every_move() -> None:
    board = play(Board("sun", deal=20261129), "deal r1:AC>A r8:AS>A deal")
    assert board.to_json()["move_count"] == 4
    board.pop()
    assert board.to_json()["move_count"] == 3


@pytest.mark.parametrize("variant", ["sun", "sun-2"])
def test_status_lost_and_canonical_card_strings_after_the_wind(variant: str) -> None:
    data = named_wind(sunset(variant), "2C", "QD").to_json()
    assert data["status"] == "lost"
    assert data["wind_row"][0] == "2C" and data["wind_row"][-1] == "QD"
    cards = all_cards(data)
    assert len(cards) == 104
    assert all(CARD.fullmatch(c) for c in cards)
    assert "10S" in cards


def test_every_card_appears_twice_in_the_position_object(variant: str) -> None:
    board = deal_all(Board(variant, deal=20261129))
    play(board, "gather 1 gather 2 gather 3")
    cards = all_cards(board.to_json())
    assert len(cards) == 104 and all(cards.count(c) == 2 for c in cards)


def test_to_json_returns_fresh_lists() -> None:
    board = play(Board("sun", deal=42), "deal")
    data = board.to_json()
    data["rays"][0].append("KS")
    data["stock"].clear()
    assert board.to_json() != data
    assert len(board.rays[0]) == 1
