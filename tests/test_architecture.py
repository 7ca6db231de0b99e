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
#: The one exception, as python-chess's ``Board._repr_svg_`` imports ``chess.svg``: a
#: Board draws itself (``str``, Jupyter's ``_repr_svg_``) with the views' drawing,
#: imported inside those two methods when one is called, never when the engine loads.
LAZY_VIEWS = {
    "engine/board.py": {
        "__str__": "sunlog.views.terminal",
        "_repr_svg_": "sunlog.views.svg",
    }
}


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
        lazy = set(LAZY_VIEWS.get(str(path.relative_to(PACKAGE)), {}).values())
        for module in _imports(path):
            other = _part(module)
            allowed = other is None or other == part or other in ALLOWED[part]
            if not allowed and module not in lazy:
                wrong.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert not wrong


def test_the_lazy_views_are_imported_only_inside_their_methods() -> None:
    for name, methods in LAZY_VIEWS.items():
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        inside = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.ImportFrom) and _part(sub.module or "") == "views":
                        inside[node.name] = sub.module
        assert inside == methods
        everywhere = [m for m in _imports(PACKAGE / name) if _part(m) == "views"]
        assert sorted(everywhere) == sorted(methods.values())


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
