"""Per-deal work on an existing ``dask.distributed`` cluster (the optional extra ``cluster``).

Only this module imports dask, and only when a command names ``--scheduler``; without the
extra it raises :class:`ClusterError` saying what to install. It knows no task of its own:
the caller passes the function the local processes run (:func:`sunlog.play.batch.solve_one`,
:func:`sunlog.play.stats.play_deals`), so a cluster's results equal a local run's; results
come back as they finish, in any order. A worker that dies mid-task has its task run again
elsewhere by the scheduler, so no result is lost. Every task first checks that its worker
runs this sunlog's version (the solver's verdicts and node counts may differ between
versions, and one results file must not mix them). ``docs/cluster.md`` says how to start one.
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from sunlog import __version__

__all__ = [
    "ClusterError",
    "WorkerVersionError",
    "check_address",
    "connect",
    "on_worker",
    "run_on_cluster",
]

T = TypeVar("T")

#: Seconds to wait for the scheduler before giving up.
CONNECT_TIMEOUT = 30
#: Tasks on the cluster at once, at most (enough to keep a few hundred workers busy).
WINDOW = 1000


class ClusterError(Exception):
    """The cluster cannot be used: the extra is missing, the scheduler is unreachable, or a
    worker runs another version of sunlog."""


class WorkerVersionError(Exception):
    """Raised on a worker whose sunlog is not the version the run was started with."""


def on_worker(version: str, function: Callable[..., T], *args: Any) -> T:
    """``function(*args)``, on a worker whose sunlog is ``version``; else
    :class:`WorkerVersionError` (sent back to the client, which stops the run)."""
    if __version__ != version:
        raise WorkerVersionError(
            f"a worker runs sunlog {__version__}, this run is sunlog {version}: install the "
            "same version on every worker (results of two versions must not mix in one file)"
        )
    return function(*args)


#: A scheduler's address: ``[scheme://]host[:port]``, the host a name, IPv4 or [IPv6].
_ADDRESS = re.compile(
    r"(?:(?P<scheme>tcp|tls|ws|wss|ucx)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)"
    r"(?::(?P<port>[0-9]{1,5}))?",
    re.ASCII,
)
#: The scheduler's port when the address names none.
DEFAULT_PORT = 8786


def check_address(address: str) -> tuple[str, str, int]:
    """The scheme, host and port of a scheduler's address; :class:`ClusterError` at once
    for one that is malformed (nothing is tried on the network)."""
    match = _ADDRESS.fullmatch(address)
    port = int(match["port"]) if match and match["port"] else DEFAULT_PORT
    if match is None or not 0 < port < 65536:
        raise ClusterError(
            f"--scheduler: {address!r} is not a scheduler's address: write "
            "tcp://HOST:PORT (tcp://10.0.0.5:8786, tcp://[::1]:8786)"
        )
    return match["scheme"] or "tcp", match["host"].strip("[]"), port


def _refused(host: str, port: int) -> OSError | None:
    """The error of a TCP connection to ``host:port`` that fails at once (a closed port),
    else ``None``: dask would retry a refused connection until its timeout."""
    import socket

    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            return None
    except (ConnectionRefusedError, socket.gaierror) as exc:
        return exc
    except OSError:
        return None  # let dask try, and say what it found


def connect(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address`` (``tcp://host:8786``).

    A malformed address and a refused connection are :class:`ClusterError` at once; a
    scheduler that does not answer, after :data:`CONNECT_TIMEOUT` seconds. A client that
    failed to connect is dropped quietly (dask's own clean-up of it waits a minute and
    prints a traceback)."""
    scheme, host, port = check_address(address)
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(
            "--scheduler needs dask.distributed: pip install 'sunlog[cluster]'"
        ) from None
    if scheme == "tcp":
        refused = _refused(host, port)
        if refused is not None:
            cause = refused.strerror or str(refused)
            raise ClusterError(f"cannot reach the dask scheduler at {address}: {cause}")

    class _Client(Client):  # type: ignore[misc,unused-ignore]
        def __del__(self) -> None:
            """Closed by :func:`run_on_cluster`; one that failed to connect has no work."""

    try:
        return _Client(  # type: ignore[no-untyped-call,unused-ignore]
            address, timeout=CONNECT_TIMEOUT, set_as_default=False
        )
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the dask scheduler at {address}: {exc}") from None
    except MemoryError:  # dask read another server's answer as the length of a message
        raise ClusterError(
            f"cannot reach the dask scheduler at {address}: what answered there is not a "
            "dask scheduler (its first bytes were read as a message of many gigabytes)"
        ) from None


def run_on_cluster(
    address: str,
    function: Callable[..., T],
    tasks: Iterable[tuple[str, tuple[Any, ...]]],
    *,
    window: int = WINDOW,
    version: str = __version__,
) -> Iterator[T]:
    """Run ``function(*args)`` for each ``(key, args)`` on the cluster; results as they finish.

    ``key`` names the task on the scheduler (its dashboard shows it), with a suffix of this
    run so that two runs never share a task; keys must be unique within a run. At most
    ``window`` tasks are on the cluster at once, so ``tasks`` may be long (it is read lazily).
    Each task runs only on a worker with sunlog ``version``; one that has another stops the
    run with :class:`ClusterError`.
    """
    from distributed import as_completed

    pending = iter(tasks)
    client = connect(address)
    run = uuid.uuid4().hex[:8]
    live: set[Any] = set()

    def submit(count: int) -> list[Any]:
        futures = [
            client.submit(
                on_worker, version, function, *args, key=f"{key}-{run}", pure=False, retries=2
            )
            for key, args in itertools.islice(pending, count)
        ]
        live.update(futures)
        return futures

    try:
        first = submit(window)
        if not first:
            return
        finished: Any = as_completed(  # type: ignore[no-untyped-call,unused-ignore]
            first, loop=client.loop
        )
        for future in finished:
            try:
                result = future.result()
            except WorkerVersionError as exc:
                raise ClusterError(str(exc)) from None
            live.discard(future)
            for more in submit(1):
                finished.add(more)
            yield result
    finally:
        if live:
            client.cancel(list(live))
        client.close()
