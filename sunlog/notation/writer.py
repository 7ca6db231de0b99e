"""Writing ``.sun`` logs (SPEC 5): tags, moves a stage action per line, comments, result."""

from __future__ import annotations

from collections.abc import Iterable

from sunlog.engine.moves import Move, MoveKind
from sunlog.notation.game import Game

__all__ = ["escape_tag_value", "format_comment", "write_game", "write_games"]


def escape_tag_value(value: str) -> str:
    """Escape ``\\`` and ``"`` for a tag value."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_comment(text: str) -> str:
    """A comment in the ``{ }`` form, or ``;`` when the text holds a ``}``."""
    if "}" in text:
        if "\n" in text:
            raise ValueError("a comment cannot hold both '}' and a line break")
        return f"; {text}\n"
    return f"{{ {text} }}" if text else "{}"


def write_game(
    game: Game, moves: Iterable[Move] | None = None, *, result: str | None = None
) -> str:
    """Print a game: tags, then one stage action per line with the card moves after it.

    ``moves`` replaces the moves' notation (the canonical forms from a replay); by default
    each move is printed from its parsed value, with its move number. The game always
    ends with its result token.
    """
    out: list[str] = []
    for tag in game.tags:
        out.append(f'[{tag.name} "{escape_tag_value(tag.value)}"]\n')
    if game.tags:
        out.append("\n")
    for comment in game.comments:
        text = format_comment(comment)
        out.append(text if text.endswith("\n") else text + "\n")
    canonical = list(moves) if moves is not None else None
    line: list[str] = []

    def flush() -> None:
        if line:
            joined = " ".join(line)
            out.append(joined if joined.endswith("\n") else joined + "\n")
            line.clear()

    for i, gm in enumerate(game.moves):
        move = canonical[i] if canonical is not None else gm.move
        if move.kind is not MoveKind.CARD:
            flush()
        text = str(move)
        if canonical is None and gm.number is not None:
            text = f"{gm.number}. {text}"
        if gm.annotation:
            text += gm.annotation
        line.append(text)
        for comment in gm.comments:
            line.append(format_comment(comment))
            if line[-1].endswith("\n"):  # a ; comment ends its line
                flush()
    flush()
    out.append(f"{result or game.claimed_result}\n")
    for comment in game.final_comments:
        text = format_comment(comment)
        out.append(text if text.endswith("\n") else text + "\n")
    return "".join(out)


def write_games(games: Iterable[str]) -> str:
    """Join written games with a blank line between them."""
    return "\n".join(games)
