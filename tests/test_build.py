"""Which build runs: the pure-Python package or the compiled one (docs/solver.md).

``make test`` runs the tests with ``SUNLOG_BUILD=pure`` and ``make test-compiled`` with
``SUNLOG_BUILD=compiled``: each lane checks that it tests the build it means to, since a
compiled lane that imported the sources of this tree (or a pure one that met stray
``.so`` files beside them) would pass while testing the other build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import sunlog
import sunlog.engine
from sunlog.cli.entry import COMPILED_MODULES, compiled_modules, version_line

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
