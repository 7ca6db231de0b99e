"""The ``sunlog`` script's fast entry (sunlog.cli.entry) against the Typer app.

The entry runs ``--version`` and a plain ``check`` without importing Typer and leaves every
other command line to Typer. Whichever way a command line goes, what it prints on stdout
and stderr and its exit code must be exactly what the Typer app gives: these tests run
both on the same command lines, with the same standard streams, and compare.
"""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

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


FAST = [
    ["--version"],
    ["check", WON],
    ["check", ILLEGAL],
    ["check", WON, ILLEGAL],
    ["check", str(SAMPLES)],
    ["check", "--json", str(SAMPLES)],
    ["check", "-q", ILLEGAL],
    ["check", "--quiet", WON],
    ["check", "-v", ILLEGAL],
    ["check", "--verbose", WON],
    ["check", "-j", "2", str(SAMPLES)],
    ["check", "--jobs", "0", WON, ILLEGAL],
    ["check", "-j", "1", "-q", "--json", ILLEGAL],
    ["check", WON, "-q"],
    ["check", "no/such/file.sun"],
    ["check", "no/such/file.sun", WON],
    ["check", str(SAMPLES / "invalid"), "-j", "2", "-v"],
    ["check", "-"],
    ["check", "-", "--json"],
]
TYPER = [
    [],
    ["--help"],
    ["check"],
    ["check", "--help"],
    ["check", "--bogus", WON],
    ["check", "-qv", WON],
    ["check", "-j", WON],
    ["check", "-j", "-1", WON],
    ["check", "-j", "x", WON],
    ["check", "--jobs=2", WON],
    ["check", "--", WON],
    ["--version", "check", WON],
    ["show", WON, "--at", "3"],
    ["nonsense"],
]


@pytest.mark.parametrize("args", FAST + TYPER, ids=" ".join)
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


def test_the_fast_lines_are_the_ones_the_entry_runs_itself() -> None:
    assert all(entry.check_options(args[1:]) is not None for args in FAST if args[0] == "check")
    assert all(args[:1] != ["check"] or entry.check_options(args[1:]) is None for args in TYPER)


def test_a_plain_check_and_the_version_do_not_import_typer(tmp_path: Path) -> None:
    log = tmp_path / "one.sun"
    log.write_text(GOOD, encoding="utf-8")
    probe = (
        "import sys\nfrom sunlog.cli.entry import main\nsys.argv = ['sunlog', *sys.argv[1:]]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        "print('typer' in sys.modules, 'pydantic' in sys.modules, code)"
    )
    for args, code in ((["check", str(log)], 0), (["--version"], 0), (["check", ILLEGAL], 1)):
        done = subprocess.run(
            [sys.executable, "-c", probe, *args], capture_output=True, text=True, check=False
        )
        assert done.stdout.splitlines()[-1] == f"False False {code}", done.stderr


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
def test_ctrl_c_in_check_says_interrupted_and_exits_2_either_way(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sunlog.cli import checking

    monkeypatch.setattr(checking, "run_check", _interrupt)
    assert through_entry(args) == through_typer(args) == (2, "", "sunlog: interrupted\n")


def test_ctrl_c_in_any_other_command_says_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from sunlog.cli import view

    monkeypatch.setattr(view, "load", _interrupt)
    assert through_entry(["show", WON]) == (2, "", "sunlog: interrupted\n")


def test_ctrl_c_while_starting_or_while_typer_reads_the_line_is_said_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(entry, "_run_fast", _interrupt)  # before any command took over
    assert through_entry(["show", WON]) == (2, "", "sunlog: interrupted\n")
    monkeypatch.undo()

    def typer_interrupted() -> Callable[..., None]:  # Typer's own answer: a silent 130
        def app(*args: object, **kwargs: object) -> None:
            raise SystemExit(130)

        return app

    monkeypatch.setattr("sunlog.cli.typer_app", typer_interrupted)
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
        ("typer", ["show", WON]),  # Typer, loaded for any other command
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
