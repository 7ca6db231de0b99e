"""Shared fixtures for the test suite; the engine helpers live in ``enginekit``."""

from __future__ import annotations

import signal

import pytest
from enginekit import board_from_deals

from sunlog.engine.board import Board

__all__ = ["board_from_deals"]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Ctrl-C raises KeyboardInterrupt in this process and in the processes the tests
    start, however pytest was launched: a shell's background job inherits SIGINT ignored,
    and a child started from it would ignore the Ctrl-C a test sends."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(params=["sun", "sun-2", "sun-3"])
def variant(request: pytest.FixtureRequest) -> str:
    """Each of the three variants in turn."""
    return str(request.param)


@pytest.fixture
def fresh_board(variant: str) -> Board:
    """A board of deal 20261129 (the spec's example deal) before any move."""
    return Board(variant, deal=20261129)
