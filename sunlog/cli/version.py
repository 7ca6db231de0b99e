"""What ``sunlog --version`` says: the package's version and which modules are compiled.

Imports nothing beyond the standard library and ``sunlog`` itself, so that ``--version``
loads no command and no rules.
"""

from __future__ import annotations

import os

__all__ = ["COMPILED_MODULES", "compiled_modules", "version", "version_line"]

#: The modules the optional compiled build compiles with mypyc: the ``include`` list of
#: ``[tool.hatch.build.targets.wheel.hooks.mypyc]`` in pyproject.toml (a test holds the
#: two the same). Every other module stays Python in either build.
COMPILED_MODULES = (
    "sunlog.engine.board",
    "sunlog.engine.canonical",
    "sunlog.engine.deal",
    "sunlog.engine.lastplayed",
    "sunlog.engine.moves",
    "sunlog.engine.rules",
    "sunlog.engine.stages",
    "sunlog.engine.state",
    "sunlog.notation.scanner",
    "sunlog.notation.sinks",
    "sunlog.notation.tokens",
    "sunlog.play.bounds",
    "sunlog.play.emit",
    "sunlog.play.lookahead",
    "sunlog.play.policies",
    "sunlog.play.policymodel",
    "sunlog.play.realize",
    "sunlog.play.search",
    "sunlog.play.solver",
    "sunlog.play.solverstate",
    "sunlog.play.verdicts",
)


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
