"""The ``sunlog`` console script: ``--version`` and a plain ``check`` without Typer.

Importing Typer (and the pydantic it imports) costs more than checking a one-game file.
So ``sunlog --version`` and ``sunlog check`` with only the options it reads here
(``--json``, ``-v``/``--verbose``, ``-q``/``--quiet``, ``-j N``/``--jobs N``, paths and
``-``) run straight away, through the same :func:`~sunlog.cli.checking.run_check` as the
Typer command, printing the same and exiting alike; any other command line (``--help``,
another command, an option written another way, a mistake) goes to the Typer app, which
handles it as always. Nothing here imports Typer.
"""

from __future__ import annotations

import codecs
import os
import sys

# Neither typing nor re: this module imports only what Python has loaded already when the
# script starts, so that a Ctrl-C while sunlog loads comes under main()'s handler at once. The
# type checker takes any TYPE_CHECKING for true.
TYPE_CHECKING = False
if TYPE_CHECKING:  # imported when a check runs: --version needs none of them
    from sunlog.cli.checking import Progress

__all__ = [
    "COMPILED_MODULES",
    "CheckOptions",
    "check_options",
    "compiled_modules",
    "main",
    "version",
    "version_line",
]

#: The modules the optional compiled build compiles with mypyc: the ``include`` list of
#: ``[tool.hatch.build.targets.wheel.hooks.mypyc]`` in pyproject.toml (a test holds the
#: two the same). Every other module stays Python in either build.
COMPILED_MODULES = (
    "sunlog.engine.board",
    "sunlog.engine.deal",
    "sunlog.engine.moves",
    "sunlog.play.bounds",
    "sunlog.play.policies",
    "sunlog.play.solver",
)

# Typer's exit code for Ctrl-C outside a command (and ours while starting): main() makes
# it 2, with the words our commands say.
_TYPER_INTERRUPTED = 130
# Typer reads these to complete a shell's command line: then it must answer, not us.
_COMPLETION = ("_SUNLOG_COMPLETE", "_TYPER_COMPLETE_ARGS")
# What click strips from text printed off a terminal (its _compat._ansi_re).
_ANSI = r"\033\[[;?0-9]*[a-zA-Z]"


class CheckOptions:
    """What a plain ``sunlog check`` command line asks for (a plain class, for the reason
    TYPE_CHECKING is ours)."""

    __slots__ = ("jobs", "json_out", "paths", "quiet", "verbose")

    def __init__(
        self,
        paths: list[str],
        json_out: bool = False,
        verbose: bool = False,
        jobs: int = 1,
        quiet: bool = False,
    ) -> None:
        self.paths = paths
        self.json_out = json_out
        self.verbose = verbose
        self.jobs = jobs
        self.quiet = quiet


def main() -> None:
    """Entry point of the ``sunlog`` script and of ``python -m sunlog``.

    A standard stream closed at start gets a stand-in, and what is still buffered is
    written before the exit code is chosen: output that could not be written (closed,
    full, its reader gone) makes it 2, without a traceback (docs/limits.md).
    """
    try:
        from sunlog.cli import outputs

        outputs.adopt_standard_streams()
        code = _run_fast(sys.argv[1:])
        if code is None:
            code = _run_typer()
    except KeyboardInterrupt:  # while starting, before a command took over
        from sunlog.cli import outputs

        code = _TYPER_INTERRUPTED
    if code == _TYPER_INTERRUPTED:  # Typer's silent 130: said and exited as our commands do
        from sunlog.cli.exits import INTERRUPTED, USAGE

        outputs.to_stderr(INTERRUPTED)
        code = USAGE
    sys.exit(outputs.finish(code))


def _run_typer() -> int:
    """Run the Typer app on the command line; its exit code."""
    from sunlog.cli import outputs, typer_app

    try:
        typer_app()(prog_name="sunlog")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except OSError as exc:  # writing help or a usage error (outside any command)
        outputs.to_stderr(f"sunlog: cannot write: {outputs.stream_cause(exc)}")
        return 2
    return 0


def _run_fast(args: list[str]) -> int | None:
    """The exit code of a command line handled here, or ``None`` to leave it to Typer."""
    if any(name in os.environ for name in _COMPLETION) or not _plain_streams():
        return None
    if args == ["--version"]:
        _echo(version_line(), False)
        return 0
    if not args or args[0] != "check":
        return None
    options = check_options(args[1:])
    if options is None:
        return None
    return _check(options)


def check_options(args: list[str]) -> CheckOptions | None:
    """The options of ``sunlog check ARGS`` when each is one this entry reads, else None."""
    paths: list[str] = []
    flags = {"--json": False, "verbose": False, "quiet": False}
    jobs = 1
    words = iter(args)
    for word in words:
        if word == "-" or not word.startswith("-"):
            paths.append(word)
        elif word == "--json":
            flags["--json"] = True
        elif word in ("-v", "--verbose"):
            flags["verbose"] = True
        elif word in ("-q", "--quiet"):
            flags["quiet"] = True
        elif word in ("-j", "--jobs"):
            value = next(words, "")
            if not (value.isascii() and value.isdigit() and len(value) <= 9):
                return None  # Typer says what is wrong with it
            jobs = int(value)
        else:
            return None
    if not paths:
        return None
    return CheckOptions(paths, flags["--json"], flags["verbose"], jobs, flags["quiet"])


def _check(options: CheckOptions) -> int:
    """Run ``check`` as the Typer command runs it, errors caught as its guard catches them
    and as click's standalone mode ends a run."""
    from sunlog.cli import checking, exits, outputs
    from sunlog.cli.inputs import CliError
    from sunlog.notation.errors import LogError

    try:
        try:
            try:
                return checking.run_check(
                    options.paths,
                    json_out=options.json_out,
                    verbose=options.verbose,
                    jobs=options.jobs,
                    quiet=options.quiet,
                    echo=_echo,
                    progress=_progress,
                )
            finally:
                if sys.stdout is not None:
                    sys.stdout.flush()
        except CliError as exc:
            _echo(str(exc), True)
            return exc.code
        except LogError as exc:  # a file that is not a log
            _echo(checking.not_a_log(exc), True)
            return exits.INVALID
        except BrokenPipeError:  # the reader went away (| head): stop quietly
            outputs.silence(sys.stdout)
            return exits.USAGE
        except outputs.StreamClosedError as exc:  # started with >&- or <&-
            _echo(f"sunlog: {exc.strerror}", True)
            return exits.USAGE
        except (OSError, UnicodeError) as exc:
            _echo(f"sunlog: {checking.io_cause(exc)}", True)
            return exits.USAGE
        except Exception as exc:  # a bug (or MemoryError): one line, as the guard says it
            _echo(checking.internal_error(exc), True)
            return exits.USAGE
    except KeyboardInterrupt:
        _echo(exits.INTERRUPTED, True)
        return exits.USAGE
    except EOFError:  # as click ends a run on one
        _echo("", True)
        _echo("Aborted!", True)
        return 1
    except BrokenPipeError:  # from printing the guard's own message
        checking.silence_stdout()
        return 1


def _progress(files: list[str]) -> Progress:
    """A rich progress bar on stderr when it is a terminal and there are many files."""
    from sunlog.cli import checking

    return checking.progress_bar(
        files,
        shown=len(files) >= checking.PROGRESS_FILES and sys.stderr.isatty(),
        redirect_stdout=sys.stdout.isatty(),
    )


def _echo(text: str, err: bool) -> None:
    """Print a line as ``typer.echo`` does: ANSI codes stripped off a terminal, flushed."""
    stream = sys.stderr if err else sys.stdout
    out = text + "\n"
    if "\033" in out and not stream.isatty():
        import re

        out = re.sub(_ANSI, "", out)
    stream.write(out)
    stream.flush()


def _plain_streams() -> bool:
    """Whether stdout and stderr are text streams that click would use as they are (it
    re-wraps a stream whose encoding is ASCII)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if stream is None or not encoding:
            return False
        try:
            if codecs.lookup(encoding).name == "ascii":
                return False
        except LookupError:
            return False
    return True


def version() -> str:
    """The package's version: the distribution's too, which pyproject.toml reads from it."""
    from sunlog import __version__

    return __version__


def compiled_modules() -> list[str]:
    """Those of :data:`COMPILED_MODULES` that load here as compiled extension modules.

    Found in the package's folders by ``PathFinder``: none of them is imported for this,
    nor their packages (``importlib.util.find_spec`` would import ``sunlog.engine``).
    """
    from importlib.machinery import ExtensionFileLoader, PathFinder

    import sunlog

    found = []
    for name in COMPILED_MODULES:
        inner = name.split(".")[1:-1]
        spec = PathFinder.find_spec(name, [os.path.join(top, *inner) for top in sunlog.__path__])
        if spec is not None and isinstance(spec.loader, ExtensionFileLoader):
            found.append(name)
    return found


def version_line() -> str:
    """What ``sunlog --version`` prints: ``sunlog 0.3.0``, with `` (compiled)`` after it
    in the compiled build, or which modules are compiled when only some are."""
    line = f"sunlog {version()}"
    compiled = compiled_modules()
    if len(compiled) == len(COMPILED_MODULES):
        return f"{line} (compiled)"
    if compiled:
        return f"{line} (partly compiled: {', '.join(compiled)})"
    return line
