"""The house rules of docs/architecture.md, held by a test so that the picture cannot rot.

The engine imports no other part of sunlog (only the standard library); the notation,
the players and the views import the engine; the views never import the notation;
nothing imports the CLI.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "sunlog"
PARTS = ("engine", "notation", "play", "views", "cli")
#: For each part, the other parts of sunlog it may import.
ALLOWED = {
    "engine": set(),
    "notation": {"engine"},
    "play": {"engine"},
    "views": {"engine"},
    "cli": {"engine", "notation", "play", "views"},
}
#: What the engine may import from outside the standard library: nothing.
THIRD_PARTY_IN_ENGINE: set[str] = set()


def _imports(path: Path) -> list[str]:
    """Every module a file imports, at any depth (lazy imports inside functions too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append(node.module)
            if node.module == "sunlog":
                found += [f"sunlog.{alias.name}" for alias in node.names]
    return found


def _part(module: str) -> str | None:
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 and pieces[0] == "sunlog" and pieces[1] in PARTS else None


def _files(part: str) -> list[Path]:
    return sorted((PACKAGE / part).rglob("*.py"))


def test_every_module_lives_in_a_part() -> None:
    loose = {p.name for p in PACKAGE.glob("*.py")}
    assert loose == {"__init__.py", "__main__.py"}


@pytest.mark.parametrize("part", PARTS)
def test_each_part_imports_only_what_it_may(part: str) -> None:
    wrong = []
    for path in _files(part):
        for module in _imports(path):
            other = _part(module)
            if other is not None and other != part and other not in ALLOWED[part]:
                wrong.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert not wrong


def test_the_engine_imports_only_the_standard_library() -> None:
    outside = []
    for path in _files("engine"):
        for module in _imports(path):
            top = module.split(".")[0]
            if top in ("__future__", "sunlog"):
                continue
            if top not in sys.stdlib_module_names:
                outside.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert not outside


def test_nothing_outside_the_cli_imports_it() -> None:
    users = [
        f"{path.relative_to(PACKAGE)} imports {module}"
        for path in PACKAGE.rglob("*.py")
        if "cli" not in path.relative_to(PACKAGE).parts and path.name != "__main__.py"
        for module in _imports(path)
        if _part(module) == "cli"
    ]
    assert not users


def test_the_top_level_package_reexports_only_the_engine() -> None:
    imported = {_part(m) for m in _imports(PACKAGE / "__init__.py")} - {None}
    assert imported <= {"engine"}


def test_the_top_level_names_are_the_engines_loaded_on_first_use() -> None:
    import subprocess

    import sunlog
    import sunlog.engine

    assert sorted(sunlog.__all__) == sorted([*sunlog.engine.__all__, "__version__"])
    assert all(getattr(sunlog, n) is getattr(sunlog.engine, n) for n in sunlog.engine.__all__)
    assert set(sunlog.__all__) <= set(dir(sunlog))
    with pytest.raises(AttributeError, match="has no attribute 'Bored'"):
        sunlog.Bored  # noqa: B018
    probe = (
        "import sys, sunlog; before = 'sunlog.engine' in sys.modules; "
        "from sunlog import *; print(before, 'sunlog.engine' in sys.modules, Board.__name__)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout == "False True Board\n", done.stderr


def test_a_board_loads_the_views_only_when_it_draws_itself() -> None:
    """``str(board)`` and ``board._repr_svg_()`` draw with the views (docs/architecture.md,
    the one exception); the engine alone loads none of them."""
    import subprocess

    probe = (
        "import sys, sunlog.engine as e; b = e.Board(); "
        "before = sorted(m for m in sys.modules if m.startswith('sunlog.views')); "
        "str(b); b._repr_svg_(); "
        "after = sorted(m for m in sys.modules if m.startswith('sunlog.views')); "
        "print(before, after)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout == "[] ['sunlog.views', 'sunlog.views.svg', 'sunlog.views.terminal']\n", (
        done.stderr
    )


def test_checking_a_log_loads_neither_positions_nor_what_a_move_did() -> None:
    """A ``check`` starts without the position string's reader and the played-move values
    (docs/architecture.md, start-up): a board loads them when first asked for them."""
    import subprocess

    probe = (
        "import sys; from sunlog.notation.quickcheck import quick_check; "
        "ok = quick_check('[Deal \"1\"]\\ndeal *') is not None; "
        "lazy = ('sunlog.engine.position', 'sunlog.engine.played', 'sunlog.engine.lastplayed'); "
        "before = [m for m in lazy if m in sys.modules]; "
        "from sunlog import Board; b = Board(deal=1); b.push_text('deal'); "
        "b.last_played(); b.playable(); Board.from_position(b.position()); "
        "print(ok, before, [m for m in lazy if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout == (
        "True [] ['sunlog.engine.position', 'sunlog.engine.played', 'sunlog.engine.lastplayed']\n"
    ), done.stderr
