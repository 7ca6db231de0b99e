"""The ``sunlog`` script's entry (sunlog.cli.entry) around the one Typer app.

Every command line goes to the Typer app; the entry adds only what no command can do for
itself: a stand-in for a standard stream closed at start, Ctrl-C said as every command says
it, and output that could not be written made an exit 2. So on ordinary streams it prints
and exits exactly as the Typer app does, and a command's module is loaded only when that
command runs.
"""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sunlog.cli import entry, typer_app

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
WON = str(SAMPLES / "won-sun.sun")
ILLEGAL = str(SAMPLES / "invalid" / "illegal-move.sun")
GOOD = '[Deal "20261129"]\n\ndeal r1:AC>A r8:AS>A\n*\n'
BAD = '[Deal "20261129"]\n\ndeal r1:AC>K\n*\n'

Outcome = tuple[int, str, str]


def _run(call: Callable[[], object], stdin: bytes) -> Outcome:
    """Exit code, stdout and stderr of ``call`` with fresh UTF-8 standard streams."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    out, err = io.BytesIO(), io.BytesIO()
    wrappers = (
        io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", write_through=True),
    )
    sys.stdin, sys.stdout, sys.stderr = wrappers
    code: object = 0
    try:
        call()
    except SystemExit as exc:
        code = exc.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
    printed = out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")
    for wrapper in wrappers:
        wrapper.detach()
    assert isinstance(code, int) or code is None
    return code or 0, *printed


def through_entry(args: list[str], stdin: bytes = b"") -> Outcome:
    """What the console script does with ``args``."""

    def call() -> None:
        saved = sys.argv
        sys.argv = ["sunlog", *args]
        try:
            entry.main()
        finally:
            sys.argv = saved

    return _run(call, stdin)


def through_typer(args: list[str], stdin: bytes = b"") -> Outcome:
    """What the Typer app alone does with ``args``."""
    return _run(lambda: typer_app()(args, prog_name="sunlog"), stdin)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A few files that are not plain logs: empty, not UTF-8, JSON, an ANSI name."""
    folder = tmp_path_factory.mktemp("entry")
    files = {
        "empty": b"",
        "latin1": b'[Event "caf\xe9"]\ndeal *\n',
        "json": b'{"format": "nope"}',
        "ansi\x1b[31m": GOOD.encode(),
    }
    paths = {}
    for name, data in files.items():
        path = folder / f"{name}.sun"
        path.write_bytes(data)
        paths[name] = str(path)
    return paths


LINES = [
    ["--version"],
    ["check", WON],
    ["check", ILLEGAL],
    ["check", WON, ILLEGAL],
    ["check", str(SAMPLES)],
    ["check", "--json", str(SAMPLES)],
    ["check", "-q", ILLEGAL],
    ["check", "-v", ILLEGAL],
    ["check", "-j", "2", str(SAMPLES)],
    ["check", "--jobs", "0", WON, ILLEGAL],
    ["check", "no/such/file.sun", WON],
    ["check", "-"],
    ["check", "-", "--json"],
    [],
    ["--help"],
    ["-h"],
    ["check"],
    ["check", "-h"],
    ["check", "--bogus", WON],
    ["check", "-j", "x", WON],
    ["check", "--jobs=2", WON],
    ["check", "--", WON],
    ["--version", "check", WON],
    ["show", WON, "--at", "3"],
    ["nonsense"],
]


@pytest.mark.parametrize("args", LINES, ids=" ".join)
def test_the_entry_prints_and_exits_as_the_typer_app(args: list[str]) -> None:
    assert through_entry(args, GOOD.encode()) == through_typer(args, GOOD.encode())


@pytest.mark.parametrize("stdin", [BAD.encode(), b"\xff\xfe", b""], ids=["bad", "binary", "empty"])
@pytest.mark.parametrize("args", [["check", "-"], ["check", "--json", "-v", "-", WON]])
def test_standard_input_gives_the_same_reports(args: list[str], stdin: bytes) -> None:
    assert through_entry(args, stdin) == through_typer(args, stdin)


@pytest.mark.parametrize("name", ["empty", "latin1", "json", "ansi\x1b[31m"])
def test_files_that_are_not_plain_logs_give_the_same_reports(
    logs: dict[str, str], name: str
) -> None:
    for args in (["check", logs[name]], ["check", "--json", "-v", logs[name]]):
        assert through_entry(args) == through_typer(args)


#: What a run loaded, printed by a child process after ``main()`` ran ``sys.argv[1:]``.
_LOADED = (
    "import sys\nfrom sunlog.cli.entry import main\nsys.argv = ['sunlog', *sys.argv[1:]]\n"
    "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
    "print(sorted(m for m in sys.modules if m.startswith(('sunlog', 'pydantic'))), code)"
)


def _loaded(args: list[str]) -> tuple[set[str], int]:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, *args], capture_output=True, text=True, check=False
    )
    names, code = done.stdout.splitlines()[-1].rsplit(" ", 1)
    return set(ast.literal_eval(names)), int(code)


COMMAND_MODULES = {f"sunlog.cli.{name}" for name in ("check", "view", "convert", "play", "record")}


def test_a_command_loads_its_own_module_only(tmp_path: Path) -> None:
    log = tmp_path / "one.sun"
    log.write_text(GOOD, encoding="utf-8")
    for args, code, module in (
        (["check", str(log)], 0, "sunlog.cli.check"),
        (["check", ILLEGAL], 1, "sunlog.cli.check"),
        (["moves", WON, "-n", "3"], 0, "sunlog.cli.view"),
    ):
        loaded, exited = _loaded(args)
        assert exited == code, args
        assert loaded & COMMAND_MODULES == {module}, args
        assert not any(name.startswith("pydantic") for name in loaded), args


def test_the_version_loads_no_command() -> None:
    loaded, code = _loaded(["--version"])
    assert code == 0
    assert not loaded & COMMAND_MODULES


def test_a_word_that_is_no_command_is_told_the_nearest() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sunlog", "chek", WON], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "No such command 'chek'" in done.stderr and "'check'" in done.stderr


def test_the_script_and_python_m_sunlog_run_the_entry() -> None:
    script = Path(sys.executable).with_name("sunlog")
    commands = [[sys.executable, "-m", "sunlog"]]
    if script.exists():
        commands.append([str(script)])
    for command in commands:
        done = subprocess.run([*command, "check", WON], capture_output=True, text=True)
        assert (done.returncode, done.stdout) == (0, "")
        assert done.stderr == "1 game, 1 valid, 0 invalid, 157 moves replayed (1 file)\n"
        bad = subprocess.run([*command, "check", "--bogus"], capture_output=True, text=True)
        assert bad.returncode == 2 and "No such option" in bad.stderr


def _interrupt(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize("args", [["check", WON], ["check", "--json", "-q", WON]])
def test_ctrl_c_in_check_says_interrupted_and_exits_2(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sunlog.cli import checking

    monkeypatch.setattr(checking, "run_check", _interrupt)
    assert through_entry(args) == through_typer(args) == (2, "", "sunlog: interrupted\n")


def test_ctrl_c_in_any_other_command_says_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from sunlog.cli import view

    monkeypatch.setattr(view, "_load", _interrupt)  # show's reading of the log
    assert through_entry(["show", WON]) == (2, "", "sunlog: interrupted\n")


def test_ctrl_c_while_starting_or_while_typer_reads_the_line_is_said_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(entry, "_run", _interrupt)  # before any command took over
    assert through_entry(["show", WON]) == (2, "", "sunlog: interrupted\n")
    monkeypatch.undo()

    def typer_interrupted(*args: object, **kwargs: object) -> None:  # Typer's silent 130
        raise SystemExit(130)

    monkeypatch.setattr("sunlog.cli.root.app", typer_interrupted)
    assert through_entry(["show", WON]) == (2, "", "sunlog: interrupted\n")


# A fresh interpreter in which importing NAME raises KeyboardInterrupt, as a Ctrl-C typed
# while it loads does; then the console script's main() runs on the command line.
_INTERRUPTED_IMPORT = """
import sys
from importlib.abc import MetaPathFinder

module = sys.argv[1]

class Interrupt(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == module:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
from sunlog.cli.entry import main
sys.argv = ['sunlog', *sys.argv[2:]]
main()
"""


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("sunlog.engine.board", ["check", WON]),  # the rules, loaded for a plain check
        ("sunlog.notation.replay", ["check", "--json", WON]),
        ("typer", ["show", WON]),  # Typer, loaded for any command line
        ("typer", ["--version"]),
    ],
)
def test_ctrl_c_while_sunlog_is_still_loading_is_said_too(module: str, args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED_IMPORT, module, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "sunlog: interrupted\n")


def test_the_version_loads_neither_the_rules_nor_the_notation() -> None:
    probe = (
        "import sys\nfrom sunlog.cli.entry import main\nsys.argv = ['sunlog', '--version']\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        "print(sorted(m for m in sys.modules if m.startswith(('sunlog.engine', "
        "'sunlog.notation', 'importlib.metadata'))), code)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "[] 0", done.stderr


# Output that cannot be written (docs/limits.md): one line on stderr when stderr can take
# it, never a traceback, and exit 2 (a usage or I/O error), never 1 (an invalid log).
_FULL = "/dev/full"


def _sunlog_with(args: list[str], **streams: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sunlog", *args], text=True, check=False, **streams
    )


def _close(fd: int) -> Callable[[], None]:
    """Close ``fd`` in the child before sunlog starts (``>&-``, ``2>&-``)."""
    return lambda: os.close(fd)


@pytest.mark.skipif(not os.path.exists(_FULL), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["--version"], ["--help"], ["check", "--json", WON]])
def test_a_full_standard_output_is_one_line_and_exit_2(args: list[str]) -> None:
    with open(_FULL, "w") as full:
        done = _sunlog_with(args, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "no space left on device" in done.stderr


@pytest.mark.parametrize("args", [["--version"], ["check", "--json", WON]])
def test_a_closed_standard_output_is_one_line_and_exit_2(args: list[str]) -> None:
    done = _sunlog_with(args, stderr=subprocess.PIPE, preexec_fn=_close(1))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "standard output is closed" in done.stderr


@pytest.mark.skipif(not os.path.exists(_FULL), reason="needs /dev/full")
@pytest.mark.parametrize("log", [WON, ILLEGAL])
def test_a_full_standard_error_is_exit_2_even_for_a_valid_log(log: str) -> None:
    with open(_FULL, "w") as full:
        done = _sunlog_with(["check", log], stdout=subprocess.PIPE, stderr=full)
    assert done.returncode == 2


def test_a_closed_standard_error_is_exit_2() -> None:
    done = _sunlog_with(["check", WON], stdout=subprocess.PIPE, preexec_fn=_close(2))
    assert (done.returncode, done.stdout) == (2, "")
