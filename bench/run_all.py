"""Run every benchmark in this folder, one process each: ``python bench/run_all.py [--short]``.

Benchmarks print figures and ratios; none fails on speed. A crash fails the run, so CI
(which passes ``--short``) notices a benchmark that no longer works.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    """Run ``bench_*.py`` and ``compare.py`` with the given flags; exit 1 if one crashed."""
    args = sys.argv[1:] if argv is None else argv
    scripts = sorted(HERE.glob("bench_*.py")) + sorted(HERE.glob("compare.py"))
    failed = []
    for script in scripts:
        print(f"\n### {script.name} {' '.join(args)}", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(script), *args])
        print(f"### {script.name}: exit {code} in {time.perf_counter() - start:.1f} s", flush=True)
        if code != 0:
            failed.append(script.name)
    if failed:
        print(f"\nbenchmarks that crashed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
