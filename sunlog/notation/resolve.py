"""A game's moves resolved: what each move as written did, as typed values.

:func:`resolve` replays a game (with every check of :func:`~sunlog.notation.replay.replay`)
and keeps, for each move replayed, the engine's :data:`~sunlog.engine.played.Played`
value (canonical form, where a card came from and went to, what a deal or gather dealt,
the wind's row), the stage and the status where they changed, and on request the position
after it. A game
whose replay fails keeps the moves before the fault and the :class:`LogError`. ``convert``
writes these values as JSON (:func:`sunlog.notation.jsonio.resolved_game_json`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sunlog.engine.board import DEALS, Board, Stage, Status
from sunlog.engine.played import Played
from sunlog.notation.errors import LogError
from sunlog.notation.game import Game
from sunlog.notation.replay import new_board, replay

__all__ = ["ResolvedGame", "resolve"]

_PLAYING = Status.PLAYING
# As constants: an enum's attribute costs a lookup a move.
_SUNRISE, _WIND = Stage.SUNRISE, Stage.WIND


@dataclass(frozen=True, slots=True)
class ResolvedGame:
    """A game with its moves resolved up to the first fault (``error``, or ``None``).

    ``moves`` holds what each move replayed did (the engine's :data:`Played` values, the
    move as written being ``game.moves[i]``); the fault's move and those after it are left
    out. ``changes`` holds the (0-based move index, status) pairs where the status changed
    (won or lost); ``stages`` the (0-based move index, stage) pairs where the stage changed
    (the stage after the move, as the position after it says: the first move is in stage
    1, an ``open`` begins stage 2, a ``gather`` stage 3, the wind its own). ``board`` is
    the position reached. With positions, ``positions`` holds the position object after
    each move and ``start`` the one before the first move.
    """

    game: Game
    moves: tuple[Played, ...]
    board: Board
    error: LogError | None = None
    changes: tuple[tuple[int, Status], ...] = ()
    positions: tuple[dict[str, Any], ...] | None = None
    start: dict[str, Any] | None = None
    stages: tuple[tuple[int, Stage], ...] = ()

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def status(self) -> Status:
        """The status of the position reached, as SPEC 3.7 defines it."""
        return self.board.status()

    def status_after(self, index: int) -> Status | None:
        """The status after move ``index`` (0-based) where it changed there, else ``None``."""
        return next((status for i, status in self.changes if i == index), None)

    def move_stages(self) -> list[Stage]:
        """The stage of each move replayed (the stage after it), in order."""
        out: list[Stage] = []
        stage = Stage.SUNRISE
        changes = iter(self.stages)
        change = next(changes, None)
        for index in range(len(self.moves)):
            if change is not None and change[0] == index:
                stage = change[1]
                change = next(changes, None)
            out.append(stage)
        return out


def resolve(game: Game, *, positions: bool = False) -> ResolvedGame:
    """Replay ``game`` and resolve each move; ``positions`` adds the position objects."""
    played: list[Played] = []
    changes: list[tuple[int, Status]] = []
    stages: list[tuple[int, Stage]] = []
    shown: list[dict[str, Any]] = []
    last = [_PLAYING]
    stage = [_SUNRISE]
    keep = played.append

    def observe(board: Board) -> None:
        keep(board.last_played())
        if board.stage is not stage[0]:
            stage[0] = board.stage
            stages.append((len(played) - 1, stage[0]))
        # only the wind or 104 cards on the foundations (after the last deal) end a game
        if board.stage is _WIND or (board.deals == DEALS and board.is_won()):
            now = board.status()
            if now is not last[0]:
                changes.append((len(played) - 1, now))
                last[0] = now
        if positions:
            shown.append(board.to_json())

    result = replay(game, observe=observe)
    start = None
    if positions:
        try:
            start = new_board(game).to_json()
        except LogError:  # the tags are at fault: there is no first position
            start = None
    return ResolvedGame(
        game,
        tuple(played),
        result.board,
        result.error,
        tuple(changes),
        tuple(shown) if positions else None,
        start,
        tuple(stages),
    )
