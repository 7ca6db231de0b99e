"""``--scheduler``: the same per-deal work on a real dask.distributed cluster (loopback only).

A ``LocalCluster`` of two worker processes on 127.0.0.1 stands in for machines; its results
must equal the local run's deal by deal, and a worker killed mid-run must lose nothing (the
scheduler runs its tasks again elsewhere). Skipped where the ``cluster`` extra is absent;
``make install`` (and so CI) installs it.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "distributed", reason="the cluster extra is not installed: pip install -e '.[cluster]'"
)

from distributed import Client, LocalCluster
from typer.testing import CliRunner

import sunlog
from sunlog import cli
from sunlog.play.batch import BatchSettings, run_batch
from sunlog.play.cluster import ClusterError, connect, run_on_cluster
from sunlog.play.stats import run_stats

SETTINGS = BatchSettings("sun", max_nodes=3000)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a two-process cluster on loopback, for this module's tests."""
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        processes=True,
        n_workers=2,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
    )
    try:
        yield str(cluster.scheduler_address)
    finally:
        cluster.close()


def records(path: Path) -> dict[int, tuple[Any, ...]]:
    """Each deal's result but its time; a deal twice fails."""
    found: dict[int, tuple[Any, ...]] = {}
    for line in path.read_text().splitlines():
        r = json.loads(line)
        assert r["deal"] not in found, f"deal {r['deal']} twice"
        found[r["deal"]] = (r["variant"], r["verdict"], r["nodes"], r["length"], r["max_nodes"])
    return found


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Any, ...]]:
    """Deals 1-10 solved here, -j 1."""
    path = tmp_path_factory.mktemp("local") / "local.jsonl"
    run_batch(range(1, 11), SETTINGS, path)
    return records(path)


def test_the_cluster_equals_jobs_1_deal_by_deal(
    scheduler: str, local: dict[int, tuple[Any, ...]], tmp_path: Path
) -> None:
    path = tmp_path / "cluster.jsonl"
    first = run_batch(range(1, 6), SETTINGS, path, scheduler=scheduler)
    assert first.solved == 5
    second = run_batch(range(1, 11), SETTINGS, path, scheduler=scheduler)  # resumes
    assert (second.solved, second.progress.skipped) == (5, 5)
    assert records(path) == local


def test_solve_with_scheduler_on_the_command_line(
    scheduler: str, local: dict[int, tuple[Any, ...]], tmp_path: Path
) -> None:
    path = tmp_path / "cli.jsonl"
    result = CliRunner().invoke(
        cli.app,
        [
            "solve",
            "--deals",
            "1-10",
            "--max-nodes",
            "3000",
            "-o",
            str(path),
            "--scheduler",
            scheduler,
        ],
    )
    assert result.exit_code == 0, result.stderr
    assert records(path) == local


def test_stats_on_the_cluster_equals_the_local_figures(scheduler: str) -> None:
    here = run_stats("sun-2", "greedy", 120, first_deal=5)
    there = run_stats("sun-2", "greedy", 120, first_deal=5, scheduler=scheduler)
    assert there == here
    result = CliRunner().invoke(
        cli.app,
        [
            "stats",
            "--variant",
            "sun-2",
            "-p",
            "greedy",
            "--games",
            "120",
            "--first-deal",
            "5",
            "--json",
            "--scheduler",
            scheduler,
        ],
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == here.to_json()


def test_a_long_list_of_tasks_goes_through_a_window(scheduler: str) -> None:
    tasks = ((f"square-{n}", (n, 2)) for n in range(9))  # read lazily, two at a time
    assert sorted(run_on_cluster(scheduler, pow, tasks, window=2)) == [n * n for n in range(9)]
    assert list(run_on_cluster(scheduler, pow, [])) == []


def test_a_worker_of_another_version_stops_the_run(scheduler: str) -> None:
    """The workers run this checkout's sunlog; a run started as another version is refused
    by every worker, so no result of one version lands in a file of another."""
    tasks = ((f"power-{n}", (n, 2)) for n in range(3))
    with pytest.raises(
        ClusterError,
        match=rf"a worker runs sunlog {sunlog.__version__}, this "
        r"run is sunlog 0\.0\.0-other: install the same version",
    ):
        list(run_on_cluster(scheduler, pow, tasks, version="0.0.0-other"))


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sunlog.play.cluster.CONNECT_TIMEOUT", 1)
    with pytest.raises(ClusterError, match="cannot reach the dask scheduler"):
        connect("tcp://127.0.0.1:9")


def test_killing_a_worker_mid_run_loses_no_result(
    scheduler: str, local: dict[int, tuple[Any, ...]], tmp_path: Path
) -> None:
    path = tmp_path / "killed.jsonl"
    client = Client(scheduler, set_as_default=False)  # type: ignore[no-untyped-call]
    try:
        pids = client.run(os.getpid)  # worker address -> its process
        failure: list[BaseException] = []

        def work() -> None:
            try:
                run_batch(range(1, 11), SETTINGS, path, scheduler=scheduler)
            except BaseException as exc:  # surfaced below
                failure.append(exc)

        thread = threading.Thread(target=work)
        thread.start()
        # wait until both workers are busy with a task, then kill one of them
        deadline = time.monotonic() + 120
        busy: dict[str, Any] = {}
        while time.monotonic() < deadline and thread.is_alive():
            processing = client.processing()  # type: ignore[no-untyped-call]
            busy = {w: t for w, t in processing.items() if t}
            if len(busy) == len(pids):
                break
            time.sleep(0.01)
        assert thread.is_alive(), "the run ended before a worker could be killed"
        victim = next(iter(busy))
        lost_deals = {int(str(key).rsplit("-", 2)[1]) for key in busy[victim]}
        os.kill(pids[victim], signal.SIGKILL)
        thread.join(300)
        assert not thread.is_alive() and not failure, failure
        assert records(path) == local  # every deal once, as solved here
        assert lost_deals <= set(records(path))  # the killed worker's task ran again
        assert pids[victim] not in client.run(os.getpid).values()  # it did die
    finally:
        client.close()  # type: ignore[no-untyped-call]
