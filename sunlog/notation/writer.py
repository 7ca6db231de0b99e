"""Writing ``.sun`` logs (SPEC 5): tags, moves a stage action per line, comments, result."""

from __future__ import annotations

from collections.abc import Iterable

from sunlog.engine.moves import MAX_DIGITS, Move, MoveKind
from sunlog.notation.game import Game

__all__ = [
    "comment_fault",
    "escape_tag_value",
    "format_comment",
    "number_fault",
    "tag_value_fault",
    "write_game",
    "write_games",
]

# What the notation cannot say: the writer refuses it (ValueError) rather than write text
# that reads back as another game, and the JSON reader refuses it with the field's path.
# A reader of notation ends a line at \n, \r and \r\n alike, so a \r is a line break.


def comment_fault(text: str) -> str | None:
    """Why ``text`` cannot be written as a comment, or ``None``: a ``{ }`` comment ends at
    the first ``}``, a ``;`` comment at the line's end, and a ``\\r`` reads as a line end."""
    if "\r" in text:
        return (
            "a comment cannot hold a carriage return (\\r): the notation reads it as a line break"
        )
    if "}" in text and "\n" in text:
        return "a comment cannot hold both '}' and a line break"
    return None


def tag_value_fault(value: str) -> str | None:
    """Why ``value`` cannot be a tag's value, or ``None``: a tag is one line."""
    if "\n" in value or "\r" in value:
        return "a tag value is one line"
    return None


def number_fault(number: int) -> str | None:
    """Why ``number`` cannot be written as a move number (``12.``), or ``None``."""
    if number < 0:
        return f"a move number is 0 or more, not {number}"
    if len(str(number)) > MAX_DIGITS:
        return f"a move number has at most {MAX_DIGITS} digits"
    return None


def escape_tag_value(value: str) -> str:
    """Escape ``\\`` and ``"`` for a tag value; ValueError for a value on two lines."""
    fault = tag_value_fault(value)
    if fault is not None:
        raise ValueError(fault)
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_comment(text: str) -> str:
    """A comment in the ``{ }`` form, or ``;`` when the text holds a ``}``; ValueError for
    text no comment can hold (:func:`comment_fault`)."""
    fault = comment_fault(text)
    if fault is not None:
        raise ValueError(fault)
    if "}" in text:
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
            fault = number_fault(gm.number)
            if fault is not None:
                raise ValueError(fault)
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
