"""Which build runs: the pure-Python package or the compiled one (docs/solver.md).

``make test`` runs the tests with ``SUNLOG_BUILD=pure`` and ``make test-compiled`` with
``SUNLOG_BUILD=compiled``: each lane checks that it tests the build it means to, since a
compiled lane that imported the sources of this tree (or a pure one that met stray
``.so`` files beside them) would pass while testing the other build.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import sunlog
import sunlog.engine
from sunlog import Board, Move
from sunlog.cli.version import COMPILED_MODULES, compiled_modules, version_line

ROOT = Path(__file__).resolve().parent.parent


def _hook_modules() -> tuple[str, ...]:
    """The modules pyproject.toml's mypyc build hook compiles, as dotted names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    assert hook["enable-by-default"] is False  # `pip install .` stays pure Python
    return tuple(path.strip("/").removesuffix(".py").replace("/", ".") for path in hook["include"])


def test_the_list_of_compiled_modules_is_the_build_hooks() -> None:
    assert _hook_modules() == COMPILED_MODULES
    for name in COMPILED_MODULES:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


def test_a_build_is_compiled_whole_or_not_at_all() -> None:
    compiled = compiled_modules()
    assert compiled in ([], list(COMPILED_MODULES)), compiled
    assert sunlog.engine.COMPILED is bool(compiled)
    assert version_line().endswith(" (compiled)") is bool(compiled)


def test_this_lane_runs_the_build_it_names() -> None:
    expected = os.environ.get("SUNLOG_BUILD")
    if expected is None:
        pytest.skip("SUNLOG_BUILD is unset: make test and make test-compiled set it")
    assert expected in ("pure", "compiled"), expected
    compiled = compiled_modules()
    if expected == "pure":
        assert compiled == [], f"compiled modules in the pure build (stray .so files?): {compiled}"
    else:
        assert compiled == list(COMPILED_MODULES)
        # The installed wheel, not the sources in this tree.
        package = Path(sunlog.__file__).resolve()
        assert not package.is_relative_to(ROOT / "sunlog"), package


def test_a_child_sunlog_process_runs_the_same_build() -> None:
    """The tests that run ``python -m sunlog`` from the repository test this build too."""
    done = subprocess.run(
        [sys.executable, "-m", "sunlog", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert done.stdout == version_line() + "\n"


def _values() -> list[object]:
    """One of each public value a program may pickle or copy: board, moves, played values
    (every kind), errors, solver results."""
    from sunlog.engine.errors import AmbiguousMoveError, IllegalMoveError
    from sunlog.play.solver import analyze, solve_deal

    won = solve_deal(3, "sun", max_nodes=20_000)
    assert won.line is not None
    board = Board("sun", deal=3)
    played: list[object] = []
    for move in won.line:
        board.push(move)
        played.append(board.last_played())
    return [
        board,
        Move.parse("r1:AC>A"),
        *{type(value): value for value in played}.values(),
        IllegalMoveError("no"),
        AmbiguousMoveError("two ways", ("r1:AC>A", "r2:AC>A")),
        won,
        analyze(Board("sun", deal=3), list(won.line)[:5], max_nodes=2_000),
    ]


def test_public_values_pickle_and_copy_alike_in_either_build() -> None:
    """A compiled class restores its state differently (a frozen dataclass cannot take it
    by assignment): each value survives pickle and deepcopy, as in pure Python."""
    values = _values()
    kinds = {type(value).__name__ for value in values}
    assert {"Dealt", "CardMoved", "Opened", "Gathered", "SolveResult", "Analysis"} <= kinds
    for value in values:
        for twin in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
            assert type(twin) is type(value)
            if isinstance(value, Board):
                assert isinstance(twin, Board) and twin.key() == value.key()
            elif isinstance(value, Exception):
                # A __dict__ like any Python exception's: tblib (which dask installs for
                # pickling exceptions) reads it.
                assert vars(value) == vars(twin)
                assert twin.args == value.args
                assert getattr(twin, "candidates", None) == getattr(value, "candidates", None)
            else:
                assert twin == value
