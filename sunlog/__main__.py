"""Run the command line as ``python -m sunlog``."""

from __future__ import annotations

from sunlog.cli import main

if __name__ == "__main__":
    main()
