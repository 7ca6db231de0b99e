"""Process pools that stop at once on Ctrl-C: the workers ignore it, the parent ends them.

A terminal sends Ctrl-C to every process of the job. Left to themselves, a pool's workers
would each die or carry on at random, and ``ProcessPoolExecutor`` can hang on the mix
(3.11 sets an exception on a future that was cancelled, its manager thread dies, and the
exit waits for workers nobody stops). So here the parent alone hears Ctrl-C, and when the
pool is left by an exception (Ctrl-C, or a consumer that stopped reading), it ends the
workers before it shuts the pool down, rather than waiting for their tasks. Nothing here
cancels a future, so the pool's own clean-up never meets one.

A parent that dies without a word (SIGKILL, or SIGTERM to its pid alone) must not leave
its workers running and holding its standard output open, or a pipeline never ends: each
worker asks the kernel for SIGKILL when its parent dies (``PR_SET_PDEATHSIG`` on Linux),
or else watches its parent's pid from a thread. While a pool is open, SIGTERM is handled
in the parent as Ctrl-C is, so that ``kill PID`` stops a run as cleanly as Ctrl-C does.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from types import FrameType
from typing import Any, TypeVar

_R = TypeVar("_R")

#: How worker processes start: a fresh interpreter each. Forking a process that runs
#: threads (a progress bar's, a test runner's) can deadlock the child, and Python 3.12
#: warns of it; a forkserver's workers would not be this process's children, which the
#: clean-up below relies on.
START_METHOD = "spawn"

#: prctl's option that sends a signal to a process when its parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1

#: Seconds between two looks at the parent's pid, where the kernel cannot do it.
_WATCH_SECONDS = 0.5


def _start_worker(parent: int) -> None:
    """A worker's first step: Ctrl-C is the parent's to handle, SIGTERM ends the worker
    (it may have inherited the parent's handler), and the worker dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with(parent)


def _die_with(parent: int) -> None:
    """End this process when ``parent`` does: by the kernel where it can, else by a thread
    that looks at the parent's pid."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # it died before the request: too late for it
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM in the parent: what Ctrl-C does (the run stops and says so)."""
    raise KeyboardInterrupt


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
    """A pool of ``jobs`` processes that ignore Ctrl-C, ended at once if the block raises,
    and that die with this process. In the main thread, SIGTERM raises KeyboardInterrupt
    while the pool is open.

    Leaving the block normally waits for the tasks, as ``with ProcessPoolExecutor`` does;
    leaving it by an exception (``KeyboardInterrupt``, ``GeneratorExit``, an error) ends
    the workers, so the exception goes on without waiting for work nobody will read.
    """
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, _interrupt) if main else None
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context(START_METHOD),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    except BaseException:
        _end_workers(pool)
        raise
    finally:
        try:
            pool.shutdown(wait=True)
        finally:
            if before is not None:
                signal.signal(signal.SIGTERM, before)


#: Tasks pending per worker process: enough to keep each busy, few enough to keep memory
#: flat however many tasks there are.
WINDOW = 4


def pooled(
    jobs: int, function: Callable[..., _R], calls: Iterable[tuple[Any, ...]]
) -> Iterator[_R]:
    """``function(*args)`` for each ``args`` of ``calls`` in :func:`worker_pool` of ``jobs``
    processes, at most ``jobs * WINDOW`` at once; the results as they finish, in any order.

    Closed early (Ctrl-C, or a consumer that stops), it ends the workers at once.
    """
    with worker_pool(jobs) as pool:
        todo = iter(calls)
        running: set[Future[_R]] = set()
        while True:
            for args in todo:
                running.add(pool.submit(function, *args))
                if len(running) >= jobs * WINDOW:
                    break
            if not running:
                return
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
