"""What README.md and docs/ show is run, so it cannot rot: the README's library example
(its ``pycon`` blocks) and every ``sunlog`` command line of every page."""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_library_example_runs_as_written() -> None:
    blocks = re.findall(r"```pycon\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert blocks, "the README shows the library in a pycon block"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {i + 1}", str(README), 0))
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


# ---------------------------------------------------------------- the commands shown
#
# Every command line that README.md or a page of docs/ shows in a code block (a line that
# starts with `sunlog ` or `$ sunlog `, or pipes into sunlog) is run here, in the order
# each in a fresh folder holding a copy of samples/ and docs/data/ (the lines of a block are
# alternatives as often as steps). It must not be a usage or I/O error (exit 2), nor a
# traceback.

ROOT = README.parent
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
SHOWN = re.compile(r"^(?:\$ )?(?:\S*/)?sunlog |\| sunlog ")

#: Commands that are not run, each with why: they need a Dask cluster, a compiled build or
#: many minutes. They are still read: the same line with --help added must be accepted,
#: so an option that does not exist (such as `stats -n`) is caught.
NOT_RUN = {
    "--scheduler": "needs a Dask cluster",
    ".venv-compiled/bin/sunlog": "needs the compiled build (make compiled)",
    "--deals 1-10000": "minutes of solving",
    "--deals 1-2000": "minutes of solving",
    "--deals 1-500": "minutes of solving",
    "--games 10000": "minutes of playing",
    "--from winnability.jsonl": "reads what the runs above would have written",
    "--from sun-2.jsonl": "reads what a cluster run would have written",
}


def _shown_commands() -> list[tuple[str, str]]:
    """(page, command line) for every command shown in a code block, in order."""
    found = []
    for page in PAGES:
        for block in re.findall(r"^```[^\n]*\n(.*?)^```", page.read_text("utf-8"), re.M | re.S):
            for line in block.splitlines():
                if SHOWN.search(line.strip()):
                    found.append((page.relative_to(ROOT).as_posix(), line.strip()))
    return found


SHOWN_COMMANDS = _shown_commands()


def _not_run(line: str) -> str | None:
    return next((why for mark, why in NOT_RUN.items() if mark in line), None)


def _run_shown(line: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """The line in bash, `sunlog` being this Python's sunlog, standard input empty."""
    script = 'sunlog() { "$SUNLOG_PYTHON" -m sunlog "$@"; }\n' + line.removeprefix("$ ")
    env = {**os.environ, "SUNLOG_PYTHON": sys.executable, "COLUMNS": "80"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        ["bash", "-c", script],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder in which a shown command runs: a copy of samples/ and of docs/data/."""
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    shutil.copytree(ROOT / "docs" / "data", tmp_path / "docs" / "data")
    return tmp_path


def test_the_pages_show_commands() -> None:
    pages = {page for page, _line in SHOWN_COMMANDS}
    assert {"README.md", "docs/cluster.md", "docs/recording.md"} <= pages


@pytest.mark.parametrize(
    ("page", "line"), SHOWN_COMMANDS, ids=[f"{p}: {c}" for p, c in SHOWN_COMMANDS]
)
def test_every_command_shown_runs(page: str, line: str, folder: Path) -> None:
    why = _not_run(line)
    if why is not None:
        command = line.split("#")[0].rstrip()
        command = re.sub(r"^(?:\$ )?\S*/sunlog ", "sunlog ", command)
        done = _run_shown(f"{command} --help", folder)
        assert done.returncode == 0, f"{page}: {line}\n{done.stderr}"
        pytest.skip(f"read, not run: {why}")
    done = _run_shown(line, folder)
    assert done.returncode in (0, 1), f"{page}: {line}\nexit {done.returncode}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
