"""Writing the command line's outputs: files replaced atomically, never onto an input."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING

from sunlog.cli.inputs import STDIN

if TYPE_CHECKING:
    pass


def write_atomically(path: str, text: str | IO[str]) -> None:
    """Replace a file's content all at once: a temporary file beside it, then a rename.

    ``text`` is a string or a text stream to copy. The file keeps its permission bits;
    nothing is left behind when writing fails.
    """
    target = Path(path)
    directory = target.parent
    mode = _new_file_mode()
    with contextlib.suppress(FileNotFoundError):
        mode = target.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            if isinstance(text, str):
                handle.write(text)
            else:
                shutil.copyfileobj(text, handle)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    """The permission bits a new file gets here (0666 less the umask), not mkstemp's 0600."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (or would, once ``b`` exists)."""
    if a == STDIN or b == STDIN:
        return False
    pa, pb = Path(a), Path(b)
    try:
        if pa.exists() and pb.exists():
            return os.path.samefile(pa, pb)
    except OSError:
        pass
    return pa.resolve() == pb.resolve()
