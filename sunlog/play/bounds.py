"""Sound proofs that a position after the wind is lost, for the solver (issue 17).

After the wind of ``sun`` and ``sun-2`` the table is one row with two playable ends and the
foundations; nothing else ever moves. A suit's own cards, read along the row, form a
shorter row of their own, and a winning game, restricted to the moves of that suit, clears
that shorter row from its ends onto the suit's piles. So if one suit's row cannot be
cleared on its own, the position is lost (``docs/solver.md``, *Lost after the wind*).

The suits are checked one at a time on their foundation code alone (the solver's merged
form of the two piles), so each check is a small search of at most 26 × 26 × 196 states.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["clearable", "row_blocked"]


def clearable(cards: bytes, code: int, fit: Sequence[int]) -> bool:
    """Whether a row of one suit's ``cards`` (card codes 0..51) can be taken from its two
    ends, each card onto the suit's piles, starting from foundation ``code``.

    ``fit[code * 13 + rank]`` is the code after a card of ``rank`` (0..12) goes up, or -1 when
    it fits nowhere: the solver's table.
    """
    end = len(cards)
    todo = [(0, end, code)]
    seen = {(0, end, code)}
    while todo:
        i, j, c = todo.pop()
        if i == j:
            return True
        base = c * 13
        left = fit[base + cards[i] % 13]
        if left >= 0 and (i + 1, j, left) not in seen:
            seen.add((i + 1, j, left))
            todo.append((i + 1, j, left))
        right = fit[base + cards[j - 1] % 13]
        if right >= 0 and (i, j - 1, right) not in seen:
            seen.add((i, j - 1, right))
            todo.append((i, j - 1, right))
    return False


def row_blocked(row: bytes, found: bytes, fit: Sequence[int]) -> bool:
    """Whether some suit's cards in the wind ``row`` cannot be cleared even on their own,
    which proves the position lost (``sun`` and ``sun-2``, after the wind, rays empty).

    ``found`` holds the four suits' foundation codes.
    """
    suits: list[bytearray] = [bytearray(), bytearray(), bytearray(), bytearray()]
    for card in row:
        suits[card // 13].append(card)
    return any(
        cards and not clearable(bytes(cards), found[suit], fit) for suit, cards in enumerate(suits)
    )
