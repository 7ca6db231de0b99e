"""The wheel carries the grammar and the schemas, and works outside the repository."""

from __future__ import annotations

import importlib.util
import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# pip output that means "could not fetch the build backend", i.e. no network.
_OFFLINE_SIGNS = (
    "No matching distribution found for hatchling",
    "Could not find a version that satisfies the requirement hatchling",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "NewConnectionError",
)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    return env


def _run(cmd: list[str], cwd: Path | str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the project's wheel once with ``pip wheel`` and return its path."""
    out = tmp_path_factory.mktemp("wheel")
    have_hatchling = importlib.util.find_spec("hatchling") is not None
    cmd = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--wheel-dir", str(out)]
    if have_hatchling:
        cmd.append("--no-build-isolation")  # faster, and needs no network
    built = _run(cmd, cwd=ROOT)
    if built.returncode != 0:
        output = built.stdout + built.stderr
        if not have_hatchling and any(sign in output for sign in _OFFLINE_SIGNS):
            pytest.skip(
                "cannot build the wheel: hatchling is not installed and pip cannot fetch it"
            )
        pytest.fail(f"pip wheel failed:\n{output}")
    wheels = sorted(out.glob("sunlog-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.mark.slow  # builds a wheel (and a venv): seconds, not milliseconds
def test_wheel_contains_grammar_and_schemas(wheel: Path) -> None:
    import sunlog

    # pyproject.toml takes the version from the package: the two are one
    assert wheel.name.startswith(f"sunlog-{sunlog.__version__}-"), wheel.name
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        assert "sunlog/grammar/sun.lark" in names
        packaged = zf.read("sunlog/grammar/sun.lark").decode("utf-8")
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "sunlog = sunlog.cli.entry:main" in zf.read(entry_points).decode("utf-8")
    assert packaged == (ROOT / "grammar" / "sun.lark").read_text(encoding="utf-8")
    assert "sunlog/notation/resources.py" in names
    for schema_file in sorted((ROOT / "sunlog" / "schemas").glob("*.json")):
        assert f"sunlog/schemas/{schema_file.name}" in names
    # The PEP 561 marker: type checkers read the package's own hints.
    assert "sunlog/py.typed" in names
    # The top-level folders ship only inside the package, not beside it.
    assert not any(n.startswith(("grammar/", "tests/", "samples/")) for n in names)


@pytest.mark.slow  # builds a wheel (and a venv): seconds, not milliseconds
def test_installed_wheel_runs_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    created = _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)])
    assert created.returncode == 0, created.stderr
    python = venv / "bin" / "python"

    installed = _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)])
    assert installed.returncode == 0, installed.stdout + installed.stderr

    purelib = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    ).stdout.strip()
    # Let the new venv see the run-time deps of the environment running the
    # tests (typer, lark, rich) without downloading them again. Paths listed in
    # a .pth file come after the venv's own site-packages, and .pth files inside
    # them (such as an editable sunlog's) are not processed.
    parents = [p for p in site.getsitepackages() if Path(p).resolve() != Path(purelib).resolve()]
    (Path(purelib) / "_sunlog_test_parent_env.pth").write_text("\n".join(parents) + "\n")

    helped = _run([str(venv / "bin" / "sunlog"), "--help"], cwd="/")
    assert helped.returncode == 0, helped.stdout + helped.stderr
    assert "sunlog" in helped.stdout

    script = (
        "from sunlog.notation.resources import grammar_path, grammar_text; "
        "print(grammar_path()); print(len(grammar_text()))"
    )
    probed = _run([str(python), "-c", script], cwd="/")
    assert probed.returncode == 0, probed.stdout + probed.stderr
    path_line, length_line = probed.stdout.strip().splitlines()
    grammar = Path(path_line).resolve()
    assert grammar.is_relative_to(Path(purelib).resolve()), grammar
    assert not grammar.is_relative_to(ROOT), grammar
    assert grammar.parts[-3:] == ("sunlog", "grammar", "sun.lark")
    assert int(length_line) > 0
