"""Generate the sample logs in ``samples/`` by playing real games through sunlog.

Run from the repository root: ``.venv/bin/python samples/make_samples.py [OUT_DIR]``. Every
game is played by a policy of :mod:`sunlog.play.policies` on a
:class:`sunlog.engine.board.Board` and printed with :func:`sunlog.notation.write_game`;
the invalid samples are valid logs with one fault put in on purpose. The tests check that
this script rebuilds the samples byte for byte (so a change to a policy shows up as samples
to regenerate) and that each sample replays as meant.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from sunlog.engine.board import RAYS, Board, Status, Variant
from sunlog.engine.deal import deal_deck
from sunlog.engine.errors import AmbiguousMoveError
from sunlog.engine.moves import Move, MoveKind, Place, Target
from sunlog.notation import parse_games, write_game, write_games
from sunlog.notation.game import Game, Tag
from sunlog.notation.replay import replay
from sunlog.play.policies import DEFAULT_POLICY
from sunlog.play.policies import play as policy_play

HERE = Path(__file__).resolve().parent

#: Deal numbers tried, in order, when looking for a game of some kind.
SEARCH_DEALS = range(1, 500)
#: The policy that plays the lost ``sun`` game (the best one wins nearly every deal).
WEAK_POLICY = "greedy"

EVENT = Tag("Event", "sunlog samples")


# ------------------------------------------------------------------ playing


def play(variant: Variant, deal: int, policy: str = DEFAULT_POLICY) -> Board:
    """The board at the end of the game ``policy`` plays on deal ``deal``."""
    return policy_play(deal, variant, policy)


def result_of(board: Board) -> str:
    status = board.status()
    return "*" if status is Status.PLAYING else status.value


def find(
    variant: Variant, wanted: Iterable[str], policy: str = DEFAULT_POLICY, *, parks: int = 0
) -> tuple[int, Board]:
    """The first deal whose game ends with a result in ``wanted`` (parking ``parks`` cards)."""
    wanted = set(wanted)
    for number in SEARCH_DEALS:
        board = play(variant, number, policy)
        parked = sum(1 for m in board.move_stack if m.target is Target.RAY)
        if result_of(board) in wanted and parked >= parks:
            return number, board
    raise SystemExit(f"no {variant.value} deal played by {policy} ended {sorted(wanted)}")


# ------------------------------------------------------------------ writing


def to_game(tags: Sequence[Tag], moves: Sequence[Move], result: str, **extra: object) -> Game:
    """A :class:`Game` of moves as pushed (each printed in its own canonical form)."""
    game = Game.of_moves(moves, tags, result)
    return replace(game, **extra) if extra else game  # type: ignore[arg-type]


def deal_tags(variant: Variant, number: int, *more: Tag, policy: str = DEFAULT_POLICY) -> list[Tag]:
    return [
        EVENT,
        *more,
        Tag("Player", f"sunlog {policy}"),
        Tag("Variant", variant.value),
        Tag("Deal", str(number)),
    ]


def write(path: Path, text: str) -> None:
    """Write a sample and check that it replays as meant (every game valid)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    for game in parse_games(text):
        result = replay(game)
        if result.error is not None:
            raise SystemExit(f"{path}: the generated game {game.index} is invalid: {result.error}")
    print(f"wrote {path}")


def write_invalid(path: Path, text: str, fragment: str) -> None:
    """Write a sample meant to fail, and check that it fails with ``fragment``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    errors = [replay(game).error for game in parse_games(text)]
    messages = [str(e) for e in errors if e is not None]
    if not any(fragment in m for m in messages):
        raise SystemExit(f"{path}: expected an error with {fragment!r}, got {messages}")
    print(f"wrote {path}: {messages[0]}")


# ------------------------------------------------------------------ the samples


def won_and_lost(out: Path) -> tuple[int, Board]:
    """A ``sun`` game won by the best policy, and one lost by a weaker one."""
    won_deal, won = find(Variant.SUN, ["won"])
    lost_deal, lost = find(Variant.SUN, ["lost"], WEAK_POLICY)
    game = to_game(deal_tags(Variant.SUN, won_deal), won.move_stack, "won")
    write(out / "won-sun.sun", write_game(game))
    tags = deal_tags(Variant.SUN, lost_deal, policy=WEAK_POLICY)
    write(out / "lost-sun.sun", write_game(to_game(tags, lost.move_stack, "lost")))
    return won_deal, won


def variants(out: Path) -> None:
    """A finished ``sun-2`` game, and a ``sun-3`` game that parks cards on empty rays."""
    number, board = find(Variant.SUN2, ["won", "lost"])
    game = to_game(deal_tags(Variant.SUN2, number), board.move_stack, result_of(board))
    write(out / "sun-2.sun", write_game(game))
    number, board = find(Variant.SUN3, ["won", "lost"], parks=2)
    game = to_game(deal_tags(Variant.SUN3, number), board.move_stack, result_of(board))
    write(out / "sun-3.sun", write_game(game))


def physical(out: Path, first: int) -> None:
    """A game played with real cards: each deal names its cards, the wind names its row.

    The cards are those of a real shuffle (a deal number's deck), but the log has no Deal
    tag, as when a club records a game dealt by hand.
    """
    for number in range(first, first + len(SEARCH_DEALS)):
        board = play(Variant.SUN, number)
        if any(m.kind is MoveKind.WIND for m in board.move_stack):
            break
    else:
        raise SystemExit("no game with a wind found")
    named: list[Move] = []
    again = Board(Variant.SUN, deal=number)
    for move in board.move_stack:
        again.push(move)
        named.append(again.named_cards(move))
    tags = [
        Tag("Event", "Club night"),
        Tag("Site", "Kitchen table"),
        Tag("Date", "2025.11.29"),
        Tag("Player", "Anna"),
        Tag("Variant", "sun"),
    ]
    write(out / "physical.sun", write_game(to_game(tags, named, result_of(board))))


def _annotate(game: Game, notes: dict[int, tuple[str | None, tuple[str, ...]]]) -> Game:
    """Add annotations and comments to moves (1-based index -> (annotation, comments))."""
    moves = list(game.moves)
    for index, (annotation, comments) in notes.items():
        moves[index - 1] = moves[index - 1]._replace(annotation=annotation, comments=comments)
    return replace(game, moves=tuple(moves))


def multi(out: Path, won_deal: int, won: Board) -> None:
    """Three games in one file, with comments, annotations and move numbers."""
    opening = play(Variant.SUN, 20261129).move_stack[:30]
    first = to_game(
        deal_tags(Variant.SUN, 20261129, Tag("Round", "1")),
        opening,
        "*",
        comments=("the spec's example deal, stopped after the opening",),
    )
    first = _annotate(
        first,
        {
            1: (None, ("the first deal",)),
            5: ("!", ()),
            12: ("?!", ("a } in a comment forces the ; form",)),
        },
    )
    numbered = tuple(gm._replace(number=i) for i, gm in enumerate(first.moves, 1) if i <= 3)
    first = replace(first, moves=numbered + first.moves[3:])
    second = to_game(
        deal_tags(Variant.SUN, won_deal, Tag("Round", "2")),
        won.move_stack,
        "won",
        comments=("a won game", "the same as the won sample"),
    )
    opens = [i for i, m in enumerate(won.move_stack, 1) if m.kind is MoveKind.OPEN]
    gathers = [i for i, m in enumerate(won.move_stack, 1) if m.kind is MoveKind.GATHER]
    notes: dict[int, tuple[str | None, tuple[str, ...]]] = {2: ("!!", ("a fine start",))}
    if opens:
        notes[opens[0]] = (None, ("stage 2: the sun plays",))
    if gathers:
        notes[gathers[0]] = ("!?", ("stage 3: sunset",))
    second = _annotate(second, notes)
    third = to_game(
        deal_tags(Variant.SUN2, 7, Tag("Round", "3"), policy=WEAK_POLICY),
        play(Variant.SUN2, 7, WEAK_POLICY).move_stack[:30],
        "*",
        final_comments=("abandoned: time ran out",),
    )
    third = _annotate(third, {10: ("?", ("too hasty",))})
    text = write_games(write_game(g) for g in (first, second, third))
    write(out / "club-night.sun", text)


# ------------------------------------------------------------------ invalid samples


def invalid(out: Path, won_deal: int, won: Board) -> None:
    """One log per kind of error, each a real game with one fault put in."""
    folder = out / "invalid"
    tags = deal_tags(Variant.SUN, won_deal)
    head = won.move_stack[:20]
    base = write_game(to_game(tags, head, "*"))

    # 1. a card that does not exist: the first card move's card becomes 1S.
    card_move = next(m for m in head if m.kind is MoveKind.CARD)
    written = str(card_move)
    bad = written.replace(f":{card_move.card}>", ":1S>", 1)
    write_invalid(folder / "bad-card.sun", base.replace(written, bad, 1), "an ace is written A")

    # 2. an illegal move: a card buried in a ray, sent to its aces pile.
    board = Board(Variant.SUN, deal=won_deal)
    for move in head:
        board.push(move)
    outer = {r[-1] for r in board.rays if r}
    stuck = next(r[0] for r in board.rays if len(r) > 1 and r[0] not in outer)
    illegal = write_game(to_game(tags, [*head, Move.parse(f"{stuck}>A")], "*"))
    write_invalid(folder / "illegal-move.sun", illegal, f"no {stuck} is playable here")

    # 3. an ambiguous short form: a card with two playable copies that lead apart.
    write_ambiguous(folder)

    # 4. a wrong move number.
    game = to_game(tags, head, "*")
    moves = list(game.moves)
    moves[4] = moves[4]._replace(number=6)
    write_invalid(
        folder / "wrong-move-number.sun",
        write_game(replace(game, moves=tuple(moves))),
        "move 5 is numbered 6.: write 5.",
    )

    # 5. a bad tag: a Variant that does not exist.
    bad_tags = [EVENT, Tag("Variant", "sun-4"), Tag("Deal", str(won_deal))]
    write_invalid(
        folder / "bad-tag.sun",
        write_game(to_game(bad_tags, head, "*")),
        "unknown variant 'sun-4'",
    )

    # 6. a false result: an unfinished game that claims to be won.
    write_invalid(
        folder / "false-result.sun",
        write_game(to_game(tags, head, "won")),
        "the log says won, but only",
    )

    # 7. a physical game that deals a third copy of a card.
    deck = deal_deck(won_deal)
    deals = [list(deck[n * RAYS : (n + 1) * RAYS]) for n in range(2)]
    twice = next(c for c in deals[0] if deals[0].count(c) == 1)
    third_copy = [*deals[1][:-2], twice, twice]
    phys_tags = [Tag("Event", "Club night"), Tag("Variant", "sun")]
    write_invalid(
        folder / "third-copy.sun",
        write_game(to_game(phys_tags, [Move.deal(deals[0]), Move.deal(third_copy)], "*")),
        f"deal 2 names a third {twice}",
    )


def write_ambiguous(folder: Path) -> None:
    """Find a position of a played game where ``CARD>TARGET`` has two readings."""
    for number in SEARCH_DEALS:
        played = play(Variant.SUN, number).move_stack
        board = Board(Variant.SUN, deal=number)
        for i, move in enumerate(played):
            board.push(move)
            found = _ambiguous_here(board)
            if found is not None:
                text = write_game(
                    to_game(deal_tags(Variant.SUN, number), [*played[: i + 1], found], "*")
                )
                write_invalid(folder / "ambiguous.sun", text, "can be read 2 ways")
                return
    raise SystemExit("no ambiguous short form found")


def _ambiguous_here(board: Board) -> Move | None:
    for move in board.legal_moves():
        if move.kind is MoveKind.CARD and move.source is Place.RAY:
            short = move._replace(source=None, index=None, depth=None)
            try:
                board.canonical(short)
            except AmbiguousMoveError:
                return short
    return None


def main(argv: Sequence[str] | None = None) -> None:
    """Write every sample into ``samples/`` (or the directory given as the one argument)."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = Path(args[0]) if args else HERE
    won_deal, won = won_and_lost(out)
    variants(out)
    physical(out, won_deal + 1000)
    multi(out, won_deal, won)
    invalid(out, won_deal, won)


if __name__ == "__main__":
    main()
