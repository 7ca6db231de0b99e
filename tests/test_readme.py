"""The README's library example is run, so it cannot rot (its ``pycon`` blocks)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

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
