"""Shared fixtures for the test suite; the engine helpers live in ``enginekit``."""

from __future__ import annotations

import pytest
from enginekit import board_from_deals

from sunlog.engine.board import Board

__all__ = ["board_from_deals"]


@pytest.fixture(params=["sun", "sun-2", "sun-3"])
def variant(request: pytest.FixtureRequest) -> str:
    """Each of the three variants in turn."""
    return str(request.param)


@pytest.fixture
def fresh_board(variant: str) -> Board:
    """A board of deal 20261129 (the spec's example deal) before any move."""
    return Board(variant, deal=20261129)
