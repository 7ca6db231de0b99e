"""A game's moves resolved: what each move as written did, as typed values.

:func:`resolve` replays a game (with every check of :func:`~sunlog.notation.replay.replay`)
and keeps, for each move replayed, the engine's :class:`~sunlog.engine.played.Played`
(canonical form, where a card came from and went to, what a deal or gather dealt, the
wind's row), the status where it changed, and on request the position after it. A game
whose replay fails keeps the moves before the fault and the :class:`LogError`. ``convert``
writes these values as JSON (:func:`sunlog.notation.jsonio.resolved_game_json`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sunlog.engine.board import Board, Status
from sunlog.engine.played import Played
from sunlog.notation.errors import LogError
from sunlog.notation.game import Game, GameMove
from sunlog.notation.replay import new_board, replay

__all__ = ["ResolvedGame", "ResolvedMove", "resolve"]


@dataclass(frozen=True, slots=True)
class ResolvedMove:
    """One move as written and what it did; ``status`` is the status after it only where
    it changed (won or lost), ``position`` the position object after it when asked for."""

    written: GameMove
    played: Played
    status: Status | None = None
    position: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ResolvedGame:
    """A game with its moves resolved up to the first fault (``error``, or ``None``).

    ``moves`` holds the moves replayed, the fault's move and those after it left out;
    ``board`` is the position reached; ``start`` the position before the first move when
    positions were asked for.
    """

    game: Game
    moves: tuple[ResolvedMove, ...]
    board: Board
    error: LogError | None = None
    start: dict[str, Any] | None = None

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def status(self) -> Status:
        """The status of the position reached, as SPEC 3.7 defines it."""
        return self.board.status()


def resolve(game: Game, *, positions: bool = False) -> ResolvedGame:
    """Replay ``game`` and resolve each move; ``positions`` adds the position objects."""
    written = game.moves
    resolved: list[ResolvedMove] = []
    status = [Status.PLAYING]

    def observe(board: Board) -> None:
        now = board.status()
        changed = None if now is status[0] else now
        status[0] = now
        resolved.append(
            ResolvedMove(
                written[len(resolved)],
                board.last_played(),
                changed,
                board.to_json() if positions else None,
            )
        )

    result = replay(game, observe=observe)
    start = None
    if positions:
        try:
            start = new_board(game).to_json()
        except LogError:  # the tags are at fault: there is no first position
            start = None
    return ResolvedGame(game, tuple(resolved), result.board, result.error, start)
