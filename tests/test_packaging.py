"""The wheel carries the grammar and the schemas, and works outside the repository; the
sdist carries everything its own tests need, and they pass from it unpacked."""

from __future__ import annotations

import importlib.util
import os
import re
import site
import subprocess
import sys
import tarfile
import tomllib
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
    # The licence travels with the wheel (PEP 639: .dist-info/licenses/).
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
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


# ------------------------------------------------------------------------- sdist

#: What the sdist holds beside the package: pyproject.toml's [tool.hatch.build.targets.sdist].
SDIST_FOLDERS = ("sunlog", "grammar", "samples", "tests", "bench", "docs", "fuzz", ".ci")
SDIST_FILES = ("README.md", "CHANGELOG.md", "LICENSE", "Makefile", "pyproject.toml")
#: Never shipped: what running the tests or a build leaves behind.
_LEFT_BEHIND = ("__pycache__", ".pyc", ".so", "tests/artifacts/")


def _source_files() -> set[str]:
    """The checkout's files under the sdist's folders, as git has them (or, in an unpacked
    sdist, as they lie), less what runs leave behind."""
    listed = _run(["git", "ls-files", "-z", *SDIST_FOLDERS], cwd=ROOT)
    if listed.returncode == 0 and listed.stdout:
        names = set(filter(None, listed.stdout.split("\0")))
    else:
        names = {
            p.relative_to(ROOT).as_posix()
            for folder in SDIST_FOLDERS
            for p in (ROOT / folder).rglob("*")
            if p.is_file()
        }
    return {n for n in names if not any(bad in n for bad in _LEFT_BEHIND)}


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the sdist once with ``python -m build --sdist`` and unpack it; its folder."""
    if importlib.util.find_spec("build") is None:
        pytest.fail("the 'build' package is missing: pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("sdist")
    have_hatchling = importlib.util.find_spec("hatchling") is not None
    cmd = [sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)]
    if have_hatchling:
        cmd.append("--no-isolation")
    built = _run(cmd, cwd=ROOT)
    if built.returncode != 0:
        output = built.stdout + built.stderr
        if not have_hatchling and any(sign in output for sign in _OFFLINE_SIGNS):
            pytest.skip("cannot build the sdist: hatchling is not installed and cannot be fetched")
        pytest.fail(f"python -m build --sdist failed:\n{output}")
    (archive,) = out.glob("sunlog-*.tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(out / "unpacked", filter="data")
    (top,) = (out / "unpacked").iterdir()
    return top


@pytest.mark.slow  # builds the sdist: seconds
def test_sdist_ships_its_tests_data_docs_and_licence(sdist: Path) -> None:
    shipped = {p.relative_to(sdist).as_posix() for p in sdist.rglob("*") if p.is_file()}
    for name in SDIST_FILES:
        assert name in shipped, name
    inside = {n for n in shipped if n.split("/")[0] in SDIST_FOLDERS}
    assert inside == _source_files()
    assert not [n for n in shipped if any(bad in n for bad in _LEFT_BEHIND)]
    # The tests read the CI scripts (tests/test_html.py): they ship with them.
    assert {".ci/run", ".ci/install-chromium"} <= shipped
    # fuzz/README.md tells how to run fuzz_reader.py: both or neither.
    assert ("fuzz/README.md" in shipped) == ("fuzz/fuzz_reader.py" in shipped)
    # The metadata names the licence, and the licence text is the file shipped.
    info = (sdist / "PKG-INFO").read_text(encoding="utf-8")
    assert "License-Expression: MIT" in info and "License-File: LICENSE" in info
    assert (sdist / "LICENSE").read_text() == (ROOT / "LICENSE").read_text()
    assert "Copyright (c) the sunlog authors" in (sdist / "LICENSE").read_text()


@pytest.mark.slow  # builds the sdist and runs a few test files from it: a minute
def test_tests_pass_from_the_unpacked_sdist(sdist: Path) -> None:
    """The sdist's tests, run in the unpacked folder against the sdist's own package, pass
    (the files that read the checkout: README, Makefile, samples, docs, .ci, the build)."""
    env = _env()
    env.pop("SUNLOG_BUILD", None)
    where = subprocess.run(
        [sys.executable, "-c", "import sunlog; print(sunlog.__file__)"],
        capture_output=True,
        text=True,
        cwd=sdist,
        env=env,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(sdist), where.stdout
    files = [
        "tests/test_readme.py",
        "tests/test_cli_samples.py",
        "tests/test_build.py",
        "tests/test_html.py",
        "tests/test_batch.py",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", "not slow", *files],
        capture_output=True,
        text=True,
        cwd=sdist,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert re.search(r"\b\d+ passed\b", summary) and "error" not in summary, summary


def test_metadata_says_licence_authors_and_pythons() -> None:
    """What a package index shows: the licence, the authors, the Pythons tested, typed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").is_file()
    assert project["authors"] == [{"name": "the sunlog authors"}]
    classifiers = set(project["classifiers"])
    for version in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {version}" in classifiers
    assert "Typing :: Typed" in classifiers and (ROOT / "sunlog" / "py.typed").is_file()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "MIT" in readme
    # On a package index a relative link leads nowhere: docs are named by path instead.
    assert not re.findall(r"\]\((?!https?://|#)[^)]+\)", readme)


def test_the_release_smoke_check_tells_the_builds_apart() -> None:
    """cibuildwheel's test-command (pyproject.toml) passes on the compiled build only, so a
    release cannot upload a "compiled" wheel that is not."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    cibw = config["tool"]["cibuildwheel"]
    assert cibw["environment"] == {"HATCH_BUILD_HOOK_ENABLE_MYPYC": "1"}
    assert cibw["build"].split() == ["cp311-*", "cp312-*", "cp313-*"]
    from sunlog.cli.version import compiled_modules

    for command in cibw["test-command"]:
        argv = command.replace("{project}", str(ROOT))
        if argv.startswith("python "):
            argv = f'"{sys.executable}" ' + argv.removeprefix("python ")
        else:
            argv = f'"{sys.executable}" -m ' + argv
        done = subprocess.run(
            argv, shell=True, capture_output=True, text=True, cwd="/", timeout=120
        )
        if "COMPILED" in command:
            assert (done.returncode == 0) is bool(compiled_modules()), done.stderr
        else:
            assert done.returncode == 0, done.stdout + done.stderr
