"""Writes that keep the user's files whole (docs/limits.md, "Writing files").

``fmt -i``, ``convert -o``, ``render -o``, ``html -o`` and ``play -o`` all write through
:func:`sunlog.cli.outputs.write_atomically`: a symbolic link is followed and stays a
link, a hard-linked file is rewritten in place, mode and owner are kept, and a full disk,
a read-only directory or a file that vanished gives exit 2, one line, and the original
intact. A SIGKILL in the middle of ``fmt -i`` leaves the old file or the new one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import sunlog.cli.convert as convert_module
import sunlog.cli.outputs as outputs
from sunlog import cli

ROOT = Path(__file__).resolve().parent.parent
WON = ROOT / "samples" / "won-sun.sun"
UGLY = '[Deal "1"]\ndeal    r5:KC>K   r13:KH>K *\n'
CANONICAL = '[Deal "1"]\n\ndeal r5:KC>K r13:KH>K\n*\n'
ROOTED = os.geteuid() == 0


def run(*args: str | Path, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args], input=input)


def one_line_cause(result: Result, path: Path | str) -> str:
    """The cause on stderr: one line naming the path, no traceback."""
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"sunlog: {path}: "), first
    return first


#: Each command that writes a file, as (arguments before -o, what it writes).
def writers(log: Path) -> list[list[str]]:
    return [
        ["convert", str(log)],
        ["render", str(log)],
        ["html", str(log)],
        ["play", "--deal", "1", "--policy", "greedy"],
    ]


# ------------------------------------------------------------------ links


def test_fmt_in_place_through_a_symlink_formats_the_target_and_keeps_the_link(
    tmp_path: Path,
) -> None:
    real = tmp_path / "real.sun"
    real.write_text(UGLY)
    (tmp_path / "sub").mkdir()
    link = tmp_path / "sub" / "link.sun"
    link.symlink_to("../real.sun")
    result = run("fmt", "-i", link)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == "../real.sun"
    assert real.read_text() == CANONICAL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real.sun", "sub"]  # no temp left


def test_a_chain_of_symlinks_is_followed_to_the_file(tmp_path: Path) -> None:
    real = tmp_path / "real.sun"
    real.write_text(UGLY)
    (tmp_path / "b.sun").symlink_to(real)
    (tmp_path / "a.sun").symlink_to(tmp_path / "b.sun")
    assert run("fmt", "-i", tmp_path / "a.sun").exit_code == 0
    assert (tmp_path / "a.sun").is_symlink() and (tmp_path / "b.sun").is_symlink()
    assert real.read_text() == CANONICAL


@pytest.mark.parametrize("command", ["convert", "render", "html", "play"])
def test_every_writer_writes_through_a_symlink(command: str, tmp_path: Path) -> None:
    args = next(a for a in writers(WON) if a[0] == command)
    real = tmp_path / "out.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    result = run(*args, "-o", link)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink()
    assert real.read_text() != "old" and len(real.read_text()) > 50


def test_a_dangling_symlink_creates_the_file_it_points_to(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    assert run("convert", WON, "-o", link).exit_code == 0
    assert link.is_symlink() and (tmp_path / "made.json").read_text().startswith("{")


def test_a_symlink_loop_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    result = run("convert", WON, "-o", tmp_path / "a.json")
    assert result.exit_code == 2
    assert "too many levels of symbolic links" in one_line_cause(result, tmp_path / "a.json")
    assert (tmp_path / "a.json").is_symlink() and (tmp_path / "b.json").is_symlink()


def test_a_hard_linked_file_is_rewritten_in_place_so_every_link_sees_it(tmp_path: Path) -> None:
    one = tmp_path / "one.sun"
    one.write_text(UGLY)
    two = tmp_path / "two.sun"
    os.link(one, two)
    inode = one.stat().st_ino
    assert run("fmt", "-i", two).exit_code == 0
    assert one.read_text() == two.read_text() == CANONICAL
    assert one.stat().st_ino == two.stat().st_ino == inode
    assert one.stat().st_nlink == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.sun", "two.sun"]


def test_a_hard_linked_file_shrinks_and_grows_in_place(tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text("x" * 100_000)
    os.link(one, tmp_path / "two.txt")
    outputs.write_atomically(str(one), "short\n")
    assert (tmp_path / "two.txt").read_text() == "short\n"
    outputs.write_atomically(str(tmp_path / "two.txt"), "long\n" * 50_000)
    assert one.read_text() == "long\n" * 50_000


def test_an_in_place_rewrite_that_fails_names_the_copy_holding_the_new_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = tmp_path / "one.txt"
    one.write_text("old\n")
    os.link(one, tmp_path / "two.txt")
    real_fsync = os.fsync
    calls = []

    def fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:  # the first fsyncs the copy; the second the file itself
            raise OSError(errno.EIO, "Input/output error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError, match=r"the new text is whole in .*\.one\.txt\..*\.tmp") as caught:
        outputs.write_atomically(str(one), "new\n")
    kept = Path(str(caught.value.strerror).split("whole in ")[1].rstrip(")"))
    assert kept.read_text() == "new\n"


# ------------------------------------------------------------------ mode and owner


def test_the_mode_is_kept_and_a_new_file_gets_the_umask(tmp_path: Path) -> None:
    log = tmp_path / "log.sun"
    log.write_text(UGLY)
    log.chmod(0o604)
    assert run("fmt", "-i", log).exit_code == 0
    assert log.stat().st_mode & 0o7777 == 0o604
    old = os.umask(0o027)
    try:
        assert run("convert", WON, "-o", tmp_path / "new.json").exit_code == 0
    finally:
        os.umask(old)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(not ROOTED, reason="only root may give a file to another owner")
def test_the_owner_and_group_are_kept(tmp_path: Path) -> None:
    log = tmp_path / "log.sun"
    log.write_text(UGLY)
    os.chown(log, 4321, 8765)
    assert run("fmt", "-i", log).exit_code == 0
    assert (log.stat().st_uid, log.stat().st_gid) == (4321, 8765)
    assert log.read_text() == CANONICAL


# ------------------------------------------------------------------ failures


def test_a_full_disk_gives_exit_2_one_line_and_the_original_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    log = tmp_path / "log.sun"
    log.write_text(UGLY)
    result = run("fmt", "-i", log)
    assert result.exit_code == 2
    assert one_line_cause(result, log) == f"sunlog: {log}: no space left on device"
    assert log.read_text() == UGLY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.sun"]
    for args in writers(WON):
        out = tmp_path / "out.txt"
        out.write_text("old")
        result = run(*args, "-o", out)
        assert result.exit_code == 2, args
        assert one_line_cause(result, out).endswith("no space left on device")
        assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.sun", "out.txt"]


@contextlib.contextmanager
def tmpfs(where: Path, *options: str) -> Iterator[Path]:
    """A small tmpfs mounted at ``where`` (root only; skips where mount is not allowed)."""
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.mark.skipif(not ROOTED, reason="mounting a tmpfs needs root")
def test_a_really_full_disk_leaves_the_original_intact(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", "size=64k") as disk:
        log = disk / "log.sun"
        # a valid log whose canonical form is far longer than what is left on the disk
        log.write_text('[Deal "1"]\ndeal r5:KC>K r13:KH>K *\n' + "{" + "x " * 20_000 + "}\n")
        filler = disk / "filler"
        with contextlib.suppress(OSError), open(filler, "wb") as handle:
            while True:
                handle.write(b"\0" * 4096)
                handle.flush()
        before = log.read_bytes()
        result = run("convert", log, "-o", disk / "out.json")
        assert result.exit_code == 2
        assert "no space left on device" in one_line_cause(result, disk / "out.json")
        assert not (disk / "out.json").exists()
        assert log.read_bytes() == before
        assert sorted(p.name for p in disk.iterdir()) == ["filler", "log.sun"]


@pytest.mark.skipif(not ROOTED, reason="mounting a tmpfs needs root")
def test_a_read_only_directory_gives_exit_2_and_the_original_intact(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "size=1m") as disk:
        log = disk / "log.sun"
        log.write_text(UGLY)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        result = run("fmt", "-i", log)
        assert result.exit_code == 2
        assert one_line_cause(result, log) == f"sunlog: {log}: read-only file system"
        assert log.read_text() == UGLY
        result = run("convert", WON, "-o", disk / "new.json")
        assert result.exit_code == 2
        assert "read-only file system" in one_line_cause(result, disk / "new.json")


@pytest.mark.skipif(ROOTED, reason="root writes into a directory without write permission")
def test_a_directory_without_write_permission_gives_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "log.sun"
    log.write_text(UGLY)
    tmp_path.chmod(0o555)
    try:
        result = run("fmt", "-i", log)
    finally:
        tmp_path.chmod(0o755)
    assert result.exit_code == 2
    assert one_line_cause(result, log) == f"sunlog: {log}: permission denied"
    assert log.read_text() == UGLY


def test_a_file_that_vanished_while_formatting_is_not_written_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log, other = tmp_path / "log.sun", tmp_path / "other.sun"
    log.write_text(UGLY)
    other.write_text(UGLY)
    read = convert_module._format_into

    def format_then_delete(out: object, path: str, stdin: str | None) -> bool:
        valid = read(out, path, stdin)
        if path == str(log):
            log.unlink()
        return valid

    monkeypatch.setattr(convert_module, "_format_into", format_then_delete)
    result = run("fmt", "-i", log, other)
    assert result.exit_code == 2
    first = one_line_cause(result, log)
    assert first == f"sunlog: {log}: vanished while sunlog read it: nothing written"
    assert not log.exists()
    assert other.read_text() == CANONICAL  # the next file is formatted all the same
    assert "1 file reformatted" in result.stderr


def test_a_file_changed_while_formatting_is_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "log.sun"
    log.write_text(UGLY)
    read = convert_module._format_into

    def format_then_edit(out: object, path: str, stdin: str | None) -> bool:
        valid = read(out, path, stdin)
        log.write_text(UGLY + "; edited meanwhile\n")
        return valid

    monkeypatch.setattr(convert_module, "_format_into", format_then_edit)
    result = run("fmt", "-i", log)
    assert result.exit_code == 2
    assert "changed while sunlog read it: left as it is" in one_line_cause(result, log)
    assert log.read_text() == UGLY + "; edited meanwhile\n"


def test_output_onto_a_directory_is_refused(tmp_path: Path) -> None:
    result = run("convert", WON, "-o", tmp_path)
    assert result.exit_code == 2
    assert one_line_cause(result, tmp_path) == f"sunlog: {tmp_path}: is a directory"


def test_a_fifo_or_a_device_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = run("convert", WON, "-o", fifo)
    reader.join(timeout=30)
    assert result.exit_code == 0, result.stderr
    assert got and got[0].startswith(b"{")
    assert fifo.is_fifo()
    null = Path(os.devnull)
    assert run("render", WON, "-o", null).exit_code == 0
    assert null.is_char_device()


def test_output_onto_the_input_through_a_link_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "log.sun"
    log.write_text(UGLY)
    (tmp_path / "link.sun").symlink_to(log)
    result = run("convert", "--to", "sun", log, "-o", tmp_path / "link.sun")
    assert result.exit_code == 2
    assert "refusing to overwrite the input" in result.stderr
    assert log.read_text() == UGLY


# ------------------------------------------------------------------ CRLF and BOM


def test_fmt_keeps_crlf_line_ends_and_a_bom(tmp_path: Path) -> None:
    """A log saved on Windows stays as its editor wrote it: BOM and CRLF kept."""
    log = tmp_path / "dos.sun"
    log.write_bytes(b"\xef\xbb\xbf" + UGLY.replace("\n", "\r\n").encode())
    result = run("fmt", "-i", log)
    assert result.exit_code == 0, result.stderr
    assert log.read_bytes() == b"\xef\xbb\xbf" + CANONICAL.replace("\n", "\r\n").encode()
    assert run("fmt", "--check", log).exit_code == 0  # and now it is canonical
    shown = run("fmt", log)
    assert shown.stdout_bytes == log.read_bytes()
    assert run("check", log).exit_code == 0


def test_fmt_keeps_lf_and_no_bom_and_follows_the_first_line_of_mixed_ends(
    tmp_path: Path,
) -> None:
    unix = tmp_path / "unix.sun"
    unix.write_bytes(UGLY.encode())
    assert run("fmt", "-i", unix).exit_code == 0
    assert unix.read_bytes() == CANONICAL.encode()
    mixed = tmp_path / "mixed.sun"
    mixed.write_bytes(b'[Deal "1"]\r\ndeal    r5:KC>K\n  r13:KH>K *\n')
    assert run("fmt", "-i", mixed).exit_code == 0
    assert mixed.read_bytes() == CANONICAL.replace("\n", "\r\n").encode()
    bom = tmp_path / "bom.sun"
    bom.write_bytes(b"\xef\xbb\xbf" + UGLY.encode())
    assert run("fmt", "-i", bom).exit_code == 0
    assert bom.read_bytes() == b"\xef\xbb\xbf" + CANONICAL.encode()


def test_fmt_of_standard_input_keeps_its_line_ends() -> None:
    result = CliRunner().invoke(cli.app, ["fmt", "-"], input=UGLY.replace("\n", "\r\n").encode())
    assert result.exit_code == 0
    assert result.stdout_bytes == CANONICAL.replace("\n", "\r\n").encode()


# ------------------------------------------------------------------ SIGKILL


def big_ugly_log(path: Path, games: int) -> str:
    """Write a large valid log, far from canonical; return its text."""
    ugly = "".join(
        f'[Deal "1"]\n[Event "g{i}"]\ndeal   r5:KC>K  r13:KH>K   *\n' for i in range(games)
    )
    path.write_text(ugly)
    return ugly


@pytest.mark.slow
def test_sigkill_in_the_middle_of_fmt_in_place_leaves_the_old_or_the_new_file_whole(
    tmp_path: Path,
) -> None:
    log = tmp_path / "big.sun"
    old = big_ugly_log(log, 20_000)
    new = subprocess.run(
        [sys.executable, "-m", "sunlog", "fmt", str(log)], capture_output=True, check=True
    ).stdout
    assert new != old.encode() and len(new) > 500_000
    seen = set()
    for delay in (0.0, 0.3, 0.6, 1.0, 1.5, 2.5, None):
        log.write_text(old)
        for stale in tmp_path.glob(".big.sun.*.tmp"):
            stale.unlink()
        child = subprocess.Popen(
            [sys.executable, "-m", "sunlog", "fmt", "-i", str(log)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        start = time.monotonic()
        if delay is None:  # kill it the moment the temporary file shows up
            while child.poll() is None and not list(tmp_path.glob(".big.sun.*.tmp")):
                time.sleep(0.001)
        else:
            while child.poll() is None and time.monotonic() - start < delay:
                time.sleep(0.01)
        child.send_signal(signal.SIGKILL)
        child.wait()
        data = log.read_bytes()
        assert data in (old.encode(), new), (delay, len(data))
        seen.add(data == new)
    assert False in seen  # some kill came before the rename (the test can tell)
