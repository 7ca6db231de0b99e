"""The board on a terminal (rich): rays, foundations, clouds, wind row and status.

One layout serves both modes: colour (suit symbols, red hearts and diamonds, a framed
panel) and plain ASCII (canonical cards, ``[outer]`` brackets, ``*`` on the cards the
last move put down), which is what pipes, ``NO_COLOR`` terminals and the tests get.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sunlog.engine.board import Board, Stage, Status, Variant
from sunlog.engine.cards import Card, Suit

__all__ = [
    "STAGE_NAMES",
    "Touched",
    "Words",
    "board_compact",
    "board_renderable",
    "board_text",
    "card_text",
    "last_move_touched",
    "legend",
    "plain_console",
    "print_board",
    "render_plain",
    "use_color",
    "visible",
    "wrap_words",
]


# Control characters, and the marks that reorder text on screen (bidirectional overrides).
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures: ␛ for ESC, ␇ for BEL...
    return "\u2421" if code == 0x7F else "\ufffd"


def visible(text: str) -> str:
    """Text from a log made safe to print: each control character (an escape sequence's
    ESC, a bell, a carriage return) shown as one visible character, so that a log can
    neither act on the terminal nor rearrange what it shows. Tabs are kept."""
    return _CONTROL.sub(_stand_in, text)


#: How the stage line names each stage.
STAGE_NAMES = {
    Stage.SUNRISE: "stage 1 (sunrise)",
    Stage.SUN_PLAYS: "stage 2 (the sun plays)",
    Stage.SUNSET: "stage 3 (sunset)",
    Stage.WIND: "the wind",
}

# Areas of the table, as Touched records them.
RAY, CLOUD, WIND, FOUNDATION = "ray", "cloud", "wind", "foundation"

# Styles of colour mode (plain mode uses none).
_RED = "red"
_OUTER = "bold"
_TOUCHED = "reverse"
_SOURCE = "underline"
_LABEL = "cyan"
_OPEN = "bold yellow"
_DIM = "dim"
_STATUS = {Status.PLAYING: "", Status.WON: "bold green", Status.LOST: "bold red"}


@dataclass(frozen=True)
class Touched:
    """What the last move changed: the cards it laid down and the piles it took cards from.

    ``cards`` holds ``(area, pile, position)`` triples, ``sources`` ``(area, pile)`` pairs;
    ``pile`` is a 0-based ray, cloud or foundation index (0 for the wind row).
    """

    cards: frozenset[tuple[str, int, int]] = frozenset()
    sources: frozenset[tuple[str, int]] = frozenset()


_Snapshot = dict[str, list[tuple[Card, ...]]]


def _snapshot(board: Board) -> _Snapshot:
    wind = [] if board.wind_row is None else [tuple(board.wind_row)]
    return {
        RAY: [tuple(r) for r in board.rays],
        CLOUD: [tuple(c) for c in board.clouds],
        WIND: wind,
        FOUNDATION: [tuple(p) for p in board.foundations],
    }


def last_move_touched(board: Board) -> Touched:
    """Compare the position with the one before its last move (popped, then pushed back).

    Every pile only grows at its end or loses cards, so the difference is exact for any
    move: a deal, a gather (rays and its cloud), the wind, or a card move.
    """
    if not board.move_stack:
        return Touched()
    after = _snapshot(board)
    move = board.pop()
    try:
        before = _snapshot(board)
    finally:
        board.push(move)
    cards: set[tuple[str, int, int]] = set()
    sources: set[tuple[str, int]] = set()
    for area, piles in after.items():
        old_piles = before[area]
        for i, pile in enumerate(piles):
            old = old_piles[i] if i < len(old_piles) else ()
            if len(pile) > len(old):
                cards.update((area, i, pos) for pos in range(len(old), len(pile)))
            elif len(pile) < len(old):
                sources.add((area, i))
    return Touched(frozenset(cards), frozenset(sources))


def card_text(card: Card, *, color: bool, style: str = "") -> Text:
    """One card: ``10♥`` in red in colour mode, canonical ``10H`` in plain mode."""
    if not color:
        return Text(str(card))
    suit = card.suit
    base = _RED if suit.is_red else ""
    return Text(card.rank.label + suit.symbol, style=f"{base} {style}".strip())


def _suit_text(suit: Suit, color: bool) -> Text:
    if not color:
        return Text(suit.name)
    return Text(suit.symbol, style=_RED if suit.is_red else "")


@dataclass(frozen=True)
class _Renderer:
    """Builds the pieces of the board for one mode (colour or plain)."""

    board: Board
    touched: Touched
    color: bool

    def styled(self, text: str, style: str) -> Text:
        return Text(text, style=style if self.color else "")

    def row(
        self, area: str, index: int, cards: Sequence[Card], ends: bool, every: bool = False
    ) -> Text:
        """A ray (outer card emphasised; every card of the open ray) or a cloud/wind row
        (both ends emphasised): the emphasis marks the playable cards."""
        if not cards:
            return self.styled("-", _DIM)
        last = len(cards) - 1
        out = Text()
        for pos, card in enumerate(cards):
            playable = every or pos == last or (ends and pos == 0)
            touched = (area, index, pos) in self.touched.cards
            if pos:
                out.append(" ")
            if self.color:
                style = " ".join(s for s, on in ((_OUTER, playable), (_TOUCHED, touched)) if on)
                out.append_text(card_text(card, color=True, style=style))
            else:
                name = f"[{card}]" if playable else str(card)
                out.append(name + ("*" if touched else ""))
        return out

    def pile(self, index: int) -> Text:
        """A foundation pile as base..top (``AS..7S``), ``-`` when empty."""
        pile = self.board.foundations[index]
        if not pile:
            return self.styled("-", _DIM)
        touched = (FOUNDATION, index, len(pile) - 1) in self.touched.cards
        out = Text()
        if len(pile) > 1:
            out.append_text(card_text(pile[0], color=self.color))
            out.append("..")
        top_style = _TOUCHED if touched else ""
        out.append_text(card_text(pile[-1], color=self.color, style=top_style))
        if touched and not self.color:
            out.append("*")
        return out

    def label(self, text: str, area: str, index: int) -> Text:
        style = f"{_LABEL} {_SOURCE}" if (area, index) in self.touched.sources else _LABEL
        return self.styled(text, style)

    def header(self, last_move: str | None) -> Text:
        board = self.board
        status = board.status()
        sep = " | "
        if board.deal_number is not None:
            deal = f"deal {board.deal_number}"
        else:
            deal = "deck given" if board.deck is not None else "deck unknown"
        out = Text()
        out.append_text(self.styled(board.variant.value, "bold"))
        out.append(f"{sep}{deal}{sep}{STAGE_NAMES[board.stage]}{sep}")
        out.append_text(self.styled(status.value, _STATUS[status]))
        out.append("\n")
        stock = board.stock
        held = "unknown" if stock is None else str(len(stock))
        out.append(f"stock {held} ({board.deals} of 8 deals made){sep}open ray ")
        if board.open_ray is None:
            out.append("none")
        else:
            out.append_text(self.styled(str(board.open_ray), _OPEN))
        out.append(f"{sep}foundations {board.on_foundations()} of 104\n")
        out.append(f"move {board.move_count}")
        if board.move_stack:
            text = last_move if last_move is not None else str(board.move_stack[-1])
            out.append(": ")
            out.append_text(self.styled(text, "bold"))
        return out

    def foundations(self) -> Table:
        grid = Table.grid(padding=(0, 3))
        grid.add_column(min_width=12, no_wrap=True)
        for _ in Suit:
            grid.add_column(no_wrap=True)
        grid.add_row(self.styled("foundations", "bold"), *(_suit_text(s, self.color) for s in Suit))
        if self.board.variant is Variant.SUN3:
            names = ("  aces 1", "  aces 2")
        else:
            names = ("  aces", "  kings")
        for row, name in enumerate(names):
            cells = [self.pile(row * 4 + suit) for suit in range(4)]
            grid.add_row(self.styled(name, _LABEL), *cells)
        return grid

    def piles(self) -> Table:
        """Rays, clouds and the wind row in one grid, so that their cards line up."""
        board = self.board
        grid = Table.grid(padding=(0, 1))
        grid.add_column(min_width=5, no_wrap=True)
        grid.add_column(min_width=4, no_wrap=True)
        grid.add_column()
        grid.add_row(self.styled("rays", "bold"), "", self.styled("inner -> outer", _DIM))
        for i, cards in enumerate(board.rays):
            note = self.styled("open", _OPEN) if board.open_ray == i + 1 else ""
            is_open = board.open_ray == i + 1
            row = self.row(RAY, i, cards, False, every=is_open)
            grid.add_row(self.label(f"  r{i + 1}", RAY, i), note, row)
        if board.clouds:
            grid.add_row("", "", "")
            clouds = board.clouds
            if board.wind_row is not None:  # the wind took every cloud: one line says so
                note = f"{len(clouds)}, emptied by the wind"
                grid.add_row(self.styled("clouds", "bold"), "", self.styled(note, _DIM))
                clouds = []
            else:
                grid.add_row(self.styled("clouds", "bold"), "", self.styled("left -> right", _DIM))
            for i, cards in enumerate(clouds):
                label = self.label(f"  c{i + 1}", CLOUD, i)
                grid.add_row(label, "", self.row(CLOUD, i, cards, True))
        if board.wind_row is not None:
            grid.add_row("", "", "")
            grid.add_row(self.styled("wind", "bold"), "", self.row(WIND, 0, board.wind_row, True))
        return grid

    # ------------------------------------------------------- compact layout

    def compact_header(self, title: str | None) -> Words:
        """Title, variant, deal, stage, status, stock, open ray and foundations, wrapped
        between items (two lines at 80 columns)."""
        board = self.board
        status = board.status()
        if board.deal_number is not None:
            deal = f"deal {board.deal_number}"
        else:
            deal = "deck given" if board.deck is not None else "deck unknown"
        stock = board.stock
        held = "?" if stock is None else str(len(stock))
        opened = "none" if board.open_ray is None else str(board.open_ray)
        items = [
            *([self.styled(title, "bold")] if title else []),
            self.styled(board.variant.value, "bold"),
            Text(deal),
            Text(STAGE_NAMES[board.stage]),
            self.styled(status.value, _STATUS[status]),
            Text(f"stock {held}, {board.deals} of 8 deals"),
            Text(f"open ray {opened}"),
            Text(f"foundations {board.on_foundations()} of 104"),
        ]
        return Words(items, " | ")

    def compact_foundations(self) -> Table:
        """The foundations in two rows, each pile after its suit."""
        grid = Table.grid(padding=(0, 2))
        for _ in range(5):
            grid.add_column(no_wrap=True)
        names = ("aces 1", "aces 2") if self.board.variant is Variant.SUN3 else ("aces", "kings")
        for row, name in enumerate(names):
            cells = []
            for suit in Suit:
                cell = _suit_text(suit, self.color)
                cell.append(" ")
                cell.append_text(self.pile(row * 4 + suit))
                cells.append(cell)
            grid.add_row(self.styled(name, _LABEL), *cells)
        return grid

    def compact_piles(self, width: int, lines: int | None) -> list[Text]:
        """Rays, clouds and the wind row, empty piles named on one line; two piles to a
        line when one a line would take more than ``lines`` lines."""
        board = self.board
        rays: list[Text] = []
        empty: list[int] = []
        for i, cards in enumerate(board.rays):
            is_open = board.open_ray == i + 1
            if not cards and not is_open:
                empty.append(i + 1)
                continue
            label = self.label(f"r{i + 1}", RAY, i)
            if is_open:
                label.append_text(self.styled("(open)", _OPEN))
            rays.append(self._item(label, self.row(RAY, i, cards, False, every=is_open)))
        clouds: list[Text] = []
        empty_clouds: list[int] = []
        wind = board.wind_row
        if wind is None:
            for i, cards in enumerate(board.clouds):
                if cards:
                    clouds.append(
                        self._item(
                            self.label(f"c{i + 1}", CLOUD, i), self.row(CLOUD, i, cards, True)
                        )
                    )
                else:
                    empty_clouds.append(i + 1)
        notes = []
        if empty:
            what = "all rays" if len(empty) == len(board.rays) else "rays " + _ranges(empty, "r")
            notes.append(self.styled(f"{what} empty", _DIM))
        if empty_clouds:
            notes.append(self.styled(f"clouds {_ranges(empty_clouds, 'c')} empty", _DIM))
        if wind is not None and board.clouds:
            notes.append(self.styled(f"{len(board.clouds)} clouds, emptied by the wind", _DIM))
        out: list[Text] = []
        if notes:
            out.append(Text("; ").join(notes))
        single = len(rays) + len(clouds)
        half = (width - 2) // 2
        if lines is not None and len(out) + single > lines:
            out += _two_columns(rays, half) + _two_columns(clouds, half)
        else:
            out += rays + clouds
        if wind is not None:
            out.append(self._item(self.styled("wind", "bold"), self.row(WIND, 0, wind, True)))
        return out

    @staticmethod
    def _item(label: Text, row: Text) -> Text:
        out = label.copy()
        out.append(" " * max(1, 4 - label.cell_len))
        out.append_text(row)
        return out


def _ranges(numbers: list[int], prefix: str) -> str:
    """``r1-r4 r7``: runs of consecutive numbers."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return " ".join(
        f"{prefix}{r[0]}" if len(r) == 1 else f"{prefix}{r[0]}-{prefix}{r[-1]}" for r in runs
    )


def _two_columns(items: list[Text], half: int) -> list[Text]:
    """Items two to a line (down the left half, then the right) when they all fit in
    ``half`` columns; else the short ones paired in turn and the long ones alone."""
    if not items:
        return []
    if all(item.cell_len <= half for item in items):
        rows = (len(items) + 1) // 2
        left, right = items[:rows], items[rows:]
        out = []
        for i, item in enumerate(left):
            line = item.copy()
            if i < len(right):
                line.append(" " * (half + 2 - item.cell_len))
                line.append_text(right[i])
            out.append(line)
        return out
    out = []
    pending: Text | None = None
    for item in items:
        if item.cell_len > half:
            if pending is not None:
                out.append(pending)
                pending = None
            out.append(item)
        elif pending is None:
            pending = item.copy()
        else:
            pending.append(" " * (half + 2 - pending.cell_len))
            pending.append_text(item)
            out.append(pending)
            pending = None
    if pending is not None:
        out.append(pending)
    return out


class Words:
    """Items laid out left to right and wrapped between items, never inside one."""

    def __init__(self, items: Sequence[Text], sep: str = " ") -> None:
        self.items = items
        self.sep = sep

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        for item in self.items:
            if line and len(line) + len(self.sep) + len(item) > options.max_width:
                yield line
                line = Text()
            if line:
                line.append(self.sep)
            line.append_text(item)
        yield line


#: A move's words that must stay on one line (``open 12``, ``gather 3``, ``move 21``,
#: ``deal 5``): a keyword and the number after it.
_UNBREAKABLE = re.compile(r"\b(open|gather|move|moves|deal|ray|cloud) (?=[0-9])", re.IGNORECASE)


def wrap_words(text: str, width: int, *, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken only at spaces between words
    and never inside a move: a card move has no space, and a stage action keeps its
    number (``open 12``). Lines after the first begin with ``indent``. A word longer than
    a line stands alone on its line, whole (the terminal breaks it, nothing else can)."""
    glued = _UNBREAKABLE.sub(lambda m: m.group(1) + "\u00a0", text)
    lines: list[str] = []
    line = ""
    for word in glued.split(" "):
        if line and cell_len(line) + 1 + cell_len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return [piece.replace("\u00a0", " ") for piece in lines]


def board_compact(
    board: Board,
    *,
    title: str | None = None,
    color: bool = True,
    width: int = 80,
    lines: int | None = None,
) -> RenderableType:
    """The board in as few lines as it takes, for a small terminal (80 by 24): a header
    of two lines, the foundations in two, the empty piles named on one line, and the
    other piles one a line, or two to a line when ``lines`` would not hold them.

    Cards are marked as in :func:`board_renderable`; there is no frame.
    """
    view = _Renderer(board, last_move_touched(board), color)
    parts: list[RenderableType] = [view.compact_header(title), view.compact_foundations()]
    parts += view.compact_piles(width, None if lines is None else lines - 4)
    return Group(*parts)


def legend(*, color: bool) -> Text:
    """What the board's marks mean, as one line: in plain mode ``[3S]`` (a playable card)
    and ``3S*`` (a card the last move put down); in colour the same cards in their styles,
    and the underlined label of a pile the last move took from."""
    out = Text("marks: ")
    if not color:
        out.append("[3S] playable card, 3S* put down by the last move")
        return out
    out.append_text(card_text(Card.parse("3S"), color=True, style=_OUTER))
    out.append(" playable, ")
    out.append_text(card_text(Card.parse("3S"), color=True, style=_TOUCHED))
    out.append(" put down by the last move, ")
    out.append("r4", style=f"{_LABEL} {_SOURCE}")
    out.append(" the pile it left")
    return out


def board_renderable(
    board: Board,
    *,
    last_move: str | None = None,
    title: str | None = None,
    color: bool = True,
    with_legend: bool = False,
) -> RenderableType:
    """The board as a rich renderable; ``color=False`` gives plain ASCII with no styles.

    ``last_move`` is the text shown for the last move (default: the move as pushed); the
    cards it laid down are highlighted (``*`` in plain mode), its source piles underlined.
    ``with_legend`` adds a line under the board saying so (:func:`legend`).
    The board is left as it was (its last move is popped and pushed back to compare).
    """
    view = _Renderer(board, last_move_touched(board), color)
    parts: list[RenderableType] = [view.header(last_move), Text(""), view.foundations()]
    parts += [Text(""), view.piles()]
    if with_legend:
        parts += [Text(""), legend(color=color)]
    if color:
        heading = Text(visible(title)) if title else None  # a Text: no markup read in it
        return Panel(Group(*parts), title=heading, box=box.ROUNDED, expand=False)
    if title:
        parts = [Text(visible(title)), *parts]
    return Group(*parts)


def use_color(console: Console) -> bool:
    """Whether ``console`` shows colour: a terminal with colours and no ``NO_COLOR``."""
    return console.color_system is not None and not console.no_color


def print_board(
    console: Console,
    board: Board,
    *,
    last_move: str | None = None,
    title: str | None = None,
    with_legend: bool = False,
) -> None:
    """Print the board on ``console``, in colour only where the console shows colour."""
    color = use_color(console)
    console.print(
        board_renderable(
            board, last_move=last_move, title=title, color=color, with_legend=with_legend
        )
    )


def plain_console(width: int) -> Console:
    """A console that renders to a string buffer with no colour and no terminal codes."""
    return Console(
        file=io.StringIO(),
        width=width,
        no_color=True,
        force_terminal=False,
        color_system=None,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )


def render_plain(renderable: RenderableType, *, width: int = 100) -> str:
    """Render anything plain, deterministically, without trailing spaces on its lines."""
    console = plain_console(width)
    console.print(renderable)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def board_text(
    board: Board,
    *,
    last_move: str | None = None,
    width: int = 100,
    title: str | None = None,
    with_legend: bool = False,
) -> str:
    """The board as plain ASCII text, the same on every machine (for tests and pipes)."""
    return render_plain(
        board_renderable(
            board, last_move=last_move, title=title, color=False, with_legend=with_legend
        ),
        width=width,
    )
