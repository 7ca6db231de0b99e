"""Process pools that stop at once on Ctrl-C: the workers ignore it, the parent ends them.

A terminal sends Ctrl-C to every process of the job. Left to themselves, a pool's workers
would each die or carry on at random, and ``ProcessPoolExecutor`` can hang on the mix
(3.11 sets an exception on a future that was cancelled, its manager thread dies, and the
exit waits for workers nobody stops). So here the parent alone hears Ctrl-C, and when the
pool is left by an exception (Ctrl-C, or a consumer that stopped reading), it ends the
workers before it shuts the pool down, rather than waiting for their tasks. Nothing here
cancels a future, so the pool's own clean-up never meets one.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager


def _ignore_interrupts() -> None:
    """A worker's first step: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's worker processes; the pool then marks what was left as broken."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if terminate is not None:
        terminate()
        return
    for process in list((pool._processes or {}).values()):
        if process.is_alive():
            process.terminate()


@contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` processes that ignore Ctrl-C, ended at once if the block raises.

    Leaving the block normally waits for the tasks, as ``with ProcessPoolExecutor`` does;
    leaving it by an exception (``KeyboardInterrupt``, ``GeneratorExit``, an error) ends
    the workers, so the exception goes on without waiting for work nobody will read.
    """
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
    try:
        yield pool
    except BaseException:
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True)
