"""The process pool behind -j: Ctrl-C is the parent's, and leaving by an exception ends
the workers at once instead of waiting for tasks nobody will read."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

from sunlog.play.workers import worker_pool


def _slow_square(n: int) -> int:
    time.sleep(0.2)
    return n * n


def test_the_workers_leave_ctrl_c_to_the_parent() -> None:
    with worker_pool(2) as pool:
        handlers = {pool.submit(signal.getsignal, signal.SIGINT).result() for _ in range(4)}
    assert handlers == {signal.SIG_IGN}
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # not here


def test_leaving_normally_waits_for_every_task() -> None:
    with worker_pool(2) as pool:
        futures = [pool.submit(_slow_square, n) for n in range(5)]
    assert [f.result() for f in futures] == [0, 1, 4, 9, 16]


# Run apart, under a time limit, because the failure this guards against is a hang: the
# old pool waited for the running tasks (ten minutes of sleep here), or for ever when it
# met a future it had cancelled itself.
_INTERRUPTED = textwrap.dedent(
    """
    import time
    from sunlog.play.workers import worker_pool

    try:
        with worker_pool(2) as pool:
            futures = [pool.submit(time.sleep, 600) for _ in range(6)]
            while sum(f.running() for f in futures) < 2:
                time.sleep(0.01)
            workers = list(pool._processes.values())
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        print("interrupted")
    print("alive", sum(p.is_alive() for p in workers))
    print("done", sum(f.done() for f in futures), "of", len(futures))
    """
)


def test_an_exception_in_the_block_ends_the_workers_at_once() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED],
        capture_output=True,
        text=True,
        timeout=120,  # a hang, not a speed: the tasks sleep 600 s each
        check=True,
    )
    assert out.stdout.split("\n") == ["interrupted", "alive 0", "done 6 of 6", ""]
    assert out.stderr == ""  # no traceback from the pool's manager thread
