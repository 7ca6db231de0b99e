"""Batch solving (``solve --deals A-B -o FILE``) and its figures (``stats --from FILE``).

The results file must lose nothing: a kill mid-run, a half-written last line, a second run
of the same command, -j 2 against -j 1. The solver is deterministic under a node budget, so
runs are compared deal by deal on verdicts and node counts.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import ptykit
import pytest
from typer.testing import CliRunner, Result

from sunlog import cli
from sunlog.engine.board import Board, Status
from sunlog.play.batch import (
    BatchError,
    BatchProgress,
    BatchSettings,
    ResultsFile,
    run_batch,
    solve_one,
)
from sunlog.play.solver import solve_deal
from sunlog.play.stats import wilson
from sunlog.play.study import load_results, summarize

ROOT = Path(__file__).resolve().parent.parent
#: A small budget: some sun deals are won within it, some are not.
SMALL = BatchSettings("sun", max_nodes=3000)


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(cli.app, [str(a) for a in args])


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def by_deal(records: list[dict[str, Any]]) -> dict[int, tuple[Any, ...]]:
    """What must be equal between two runs: all but the seconds."""
    result: dict[int, tuple[Any, ...]] = {}
    for r in records:
        assert r["deal"] not in result, f"deal {r['deal']} twice"
        result[r["deal"]] = (r["variant"], r["verdict"], r["nodes"], r["length"], r["max_nodes"])
    return result


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Any, ...]]:
    """Deals 1-8 of sun at the small budget, solved one by one in this process."""
    path = tmp_path_factory.mktemp("ref") / "ref.jsonl"
    run_batch(range(1, 9), SMALL, path)
    return by_deal(lines_of(path))


# ------------------------------------------------------------------ one deal


def test_a_result_line_has_the_fields_and_a_line_that_wins() -> None:
    record = solve_one(1, BatchSettings("sun-3", max_nodes=5000, lines=True))
    assert record["deal"] == 1 and record["variant"] == "sun-3"
    assert record["verdict"] == "won"
    assert (record["max_nodes"], record["timeout"]) == (5000, None)
    moves = record["line"]
    assert len(moves) == record["length"]
    board = Board("sun-3", deal=1)
    for text in moves:
        board.push_text(text)
    assert board.status() is Status.WON
    assert "line" not in solve_one(1, BatchSettings("sun-3", max_nodes=5000))


def test_the_solver_is_deterministic_under_a_node_budget() -> None:
    first, second = (solve_deal(2, "sun", max_nodes=3000) for _ in range(2))
    assert (first.verdict, first.nodes) == (second.verdict, second.nodes)


def test_the_reference_has_won_and_unknown_deals(reference: dict[int, tuple[Any, ...]]) -> None:
    verdicts = {v[1] for v in reference.values()}
    assert verdicts == {"won", "unknown"}  # the comparisons below see both kinds
    assert all(v[2] <= 3000 for v in reference.values())


# ------------------------------------------------------------------ resuming


def test_a_second_run_skips_what_the_file_holds(
    tmp_path: Path, reference: dict[int, tuple[Any, ...]]
) -> None:
    path = tmp_path / "r.jsonl"
    first = run_batch(range(1, 5), SMALL, path)
    assert (first.solved, first.progress.skipped) == (4, 0)
    seen: list[int] = []
    second = run_batch(range(1, 9), SMALL, path, progress=lambda c: seen.append(c.done))
    assert (second.solved, second.progress.skipped) == (4, 4)
    assert seen == [4, 5, 6, 7, 8]
    assert by_deal(lines_of(path)) == reference
    again = run_batch(range(1, 9), SMALL, path)
    assert again.solved == 0 and again.progress.done == 8
    assert len(lines_of(path)) == 8


def test_a_half_written_last_line_is_cut_off_and_redone(
    tmp_path: Path, reference: dict[int, tuple[Any, ...]]
) -> None:
    path = tmp_path / "r.jsonl"
    run_batch(range(1, 4), SMALL, path)
    whole = path.read_bytes()
    last = whole.splitlines(keepends=True)[-1]
    path.write_bytes(whole[: -len(last)] + last[: len(last) // 2])  # deal 3 half-written
    summary = run_batch(range(1, 9), SMALL, path)
    assert summary.dropped == len(last) // 2
    assert summary.solved == 6  # deal 3 again, and 4-8
    assert by_deal(lines_of(path)) == reference


def test_another_budget_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    run_batch(range(1, 3), BatchSettings("sun-3", max_nodes=2000), path)
    with pytest.raises(BatchError, match="--max-nodes 2000"):
        run_batch(range(1, 3), BatchSettings("sun-3", max_nodes=4000), path)
    # another variant in the same file is fine: each line names its variant and budget
    run_batch(range(1, 3), BatchSettings("sun", max_nodes=500), path)
    assert len(lines_of(path)) == 4


def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with ResultsFile(path), pytest.raises(BatchError, match="another run"):
        ResultsFile(path)
    ResultsFile(path).close()  # the lock went with the first


def test_a_bad_line_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"deal": 1}\n')
    with pytest.raises(BatchError, match=r"r\.jsonl:1: not a result line"):
        ResultsFile(path)


def test_jobs_2_equals_jobs_1_deal_by_deal(
    tmp_path: Path, reference: dict[int, tuple[Any, ...]]
) -> None:
    path = tmp_path / "r.jsonl"
    summary = run_batch(range(1, 9), SMALL, path, jobs=2)
    assert summary.solved == 8
    assert by_deal(lines_of(path)) == reference


def _count_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_resume_after_sigkill_loses_nothing_and_counts_nothing_twice(
    tmp_path: Path, reference: dict[int, tuple[Any, ...]]
) -> None:
    path = tmp_path / "r.jsonl"
    command = [
        sys.executable, "-m", "sunlog", "solve", "--deals", "1-8", "--variant", "sun",
        "--max-nodes", "3000", "-o", str(path),
    ]  # fmt: skip
    child = subprocess.Popen(command, stderr=subprocess.DEVNULL, cwd=ROOT)
    deadline = time.monotonic() + 120
    while _count_lines(path) < 2 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    before = _count_lines(path)
    assert before < 8  # killed mid-run
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert f"{8 - before} solved now, {before} already in" in done.stderr
    assert by_deal(lines_of(path)) == reference


# ------------------------------------------------------------------ the command line


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        ("5-3", "need 0 <= A <= B"),
        ("x", "'x' is not a range"),
        ("1-", "is not a range"),
        ("-3", "is not a range"),
        (f"1-{1 << 64}", "need 0 <= A <= B"),
    ],
)
def test_bad_ranges_are_usage_errors(tmp_path: Path, deals: str, message: str) -> None:
    result = run("solve", "--deals", deals, "-o", tmp_path / "r.jsonl")
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (tmp_path / "r.jsonl").exists()


def test_usage_errors_of_the_batch_options(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert "needs -o FILE" in run("solve", "--deals", "1-2").stderr
    assert "go with --deals" in run("solve", "--deal", "1", "-o", out).stderr
    assert "writes JSON lines" in run("solve", "--deals", "1-2", "-o", out, "--json").stderr
    assert "without a PATH" in run("solve", "--deals", "1-2", "--deal", "3", "-o", out).stderr
    assert "not both" in run("solve", "--deals", "1-2", "-o", out, "-j", "2",
                             "--scheduler", "tcp://127.0.0.1:1").stderr  # fmt: skip
    assert run("solve", "--deals", "1-2", "--variant", "sun-9", "-o", out).exit_code == 2


def test_solve_deals_writes_and_reports(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = run("solve", "--deals", "1-3", "--variant", "sun-3", "--max-nodes", "5000",
                 "--lines", "-o", out)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "won 3 lost 0 unknown 0" in result.stderr
    assert sorted(r["deal"] for r in lines_of(out)) == [1, 2, 3]
    assert all(r["line"] for r in lines_of(out))
    refused = run("solve", "--deals", "1-3", "--variant", "sun-3", "-o", out)
    assert refused.exit_code == 2
    assert "were made with --max-nodes 5000" in refused.stderr


# ------------------------------------------------------------------ the figures


def _record(deal: int, verdict: str, nodes: int, seconds: float = 0.5) -> dict[str, Any]:
    return {
        "deal": deal, "variant": "sun-2", "verdict": verdict, "nodes": nodes,
        "seconds": seconds, "length": 100 if verdict == "won" else None,
        "max_nodes": 100_000, "timeout": None,
    }  # fmt: skip


def test_the_interval_counts_unknown_as_lost_then_as_won() -> None:
    records = [
        _record(1, "won", 500, 0.005),
        _record(2, "won", 5_000),
        _record(3, "won", 50_000, 20.0),
        _record(4, "lost", 2_000),
        _record(5, "unknown", 100_000, 200.0),
    ]
    (figures,) = summarize(records)
    assert (figures.won, figures.lost, figures.unknown, figures.deals) == (3, 1, 1, 5)
    assert figures.interval == (wilson(3, 5)[0], wilson(4, 5)[1])
    assert figures.decided_within == ((1000, 1), (10_000, 3), (100_000, 4))
    assert dict(figures.times) == {0.01: 1, 1.0: 2, 100.0: 1, None: 1}
    assert figures.to_json()["decided_share"] == 0.8


def test_the_interval_grows_with_the_unknown_and_shrinks_with_deals() -> None:
    progress = BatchProgress(total=100, won=80, lost=10, unknown=10)
    low, high = progress.interval()
    assert low < 0.8 and high > 0.9
    decided = BatchProgress(total=100, won=80, lost=20).interval()
    assert decided[0] == low and decided[1] < high
    more = BatchProgress(total=1000, won=800, lost=100, unknown=100).interval()
    assert low < more[0] and more[1] < high


def test_stats_from_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_batch(range(1, 5), BatchSettings("sun-3", max_nodes=5000), a)
    run_batch(range(3, 7), BatchSettings("sun-3", max_nodes=5000), b)  # 3, 4 again
    with b.open("ab") as handle:
        handle.write(b'{"deal": 7, "vari')  # a run still going
    loaded = load_results([a, b])
    assert (len(loaded.records), loaded.duplicates, loaded.partial) == (6, 2, 1)
    result = run("stats", "--from", a, "--from", b)
    assert result.exit_code == 0, result.stderr
    assert "sun-3" in result.stdout and "6 (1-6)" in result.stdout
    assert "counted 2 repeated deals once" in result.stderr
    assert "decided within a budget of" in result.stdout
    data = json.loads(run("stats", "--from", a, "--from", b, "--json").stdout)
    (row,) = data["results"]
    assert (row["won"], row["lost"], row["unknown"], row["deals"]) == (6, 0, 0, 6)
    assert row["winnable"] == [pytest.approx(wilson(6, 6)[0]), 1.0]


def test_stats_from_a_gzipped_file(tmp_path: Path) -> None:
    import gzip

    plain = tmp_path / "a.jsonl"
    run_batch(range(1, 3), BatchSettings("sun-3", max_nodes=5000), plain)
    packed = tmp_path / "a.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert load_results([packed]).records == load_results([plain]).records
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(packed.read_bytes()[:-9])
    result = run("stats", "--from", cut)
    assert result.exit_code == 2
    assert "cut.jsonl.gz: not a whole gzip file" in result.stderr


def test_stats_from_bad_files_are_usage_errors(tmp_path: Path) -> None:
    missing = run("stats", "--from", tmp_path / "none.jsonl")
    assert missing.exit_code == 2
    assert "none.jsonl: no such file" in missing.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    result = run("stats", "--from", bad)
    assert result.exit_code == 2
    assert "bad.jsonl:1: not a JSON line" in result.stderr
    assert run("stats", "--from", bad, "--policy", "greedy").exit_code == 2


def test_the_progress_bar_is_for_terminals_only(tmp_path: Path) -> None:
    result = run("solve", "--deals", "1-2", "--variant", "sun-3", "-o", tmp_path / "r.jsonl")
    assert "\x1b[" not in result.stderr


def test_a_terminal_shows_the_progress_and_the_running_interval(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "r.jsonl"
    child = ptykit.spawn(
        sys.executable,
        [
            "-m",
            "sunlog",
            "solve",
            "--deals",
            "1-30",
            "--variant",
            "sun",
            "--max-nodes",
            "800",
            "-o",
            str(out),
        ],
        cwd=str(ROOT),
        encoding="utf-8",
        timeout=120,
        dimensions=(24, 160),
    )
    child.expect(r"sun: won \d+ lost \d+ unknown \d+, winnable \d+\.\d%\.\.\d+\.\d%")
    child.expect(r"\d+/30")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert len(lines_of(out)) == 30


def test_ctrl_c_stops_cleanly_and_the_run_resumes(
    tmp_path: Path, reference: dict[int, tuple[Any, ...]]
) -> None:
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "r.jsonl"
    args = ["solve", "--deals", "1-8", "--max-nodes", "3000", "-j", "2", "-o", str(out)]
    child = ptykit.spawn(
        sys.executable, ["-m", "sunlog", *args], cwd=str(ROOT), encoding="utf-8", timeout=120
    )
    deadline = time.monotonic() + 120
    while _count_lines(out) < 2 and child.isalive() and time.monotonic() < deadline:
        time.sleep(0.005)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    if _count_lines(out) < 8:  # stopped mid-run (a very fast machine may have finished)
        assert child.exitstatus == 2
        assert "interrupted; run the same command again to go on" in str(child.before)
    assert run(*args).exit_code == 0
    assert by_deal(lines_of(out)) == reference


@pytest.mark.parametrize(
    "name",
    ["winnability.jsonl.gz", "winnability-sun-1m.jsonl.gz", "winnability-sun-2-1m.jsonl.gz"],
)
def test_the_published_table_is_the_committed_results(name: str) -> None:
    """docs/winnability.md's figures are what stats --from makes of docs/data/."""
    loaded = load_results([ROOT / "docs" / "data" / name])
    assert (loaded.duplicates, loaded.partial) == (0, 0)
    page = (ROOT / "docs" / "winnability.md").read_text()
    for f in summarize(loaded.records):
        assert f.contiguous and f.first_deal == 1
        low, high = f.interval
        row = (
            f"| `{f.variant}` | 1–{f.last_deal:,} ({f.deals:,}) | {f.won:,} | {f.lost} |"
            f" {f.unknown:,} | {100 * low:.2f}% – {100 * high:.2f}% |"
        )
        assert row in page, row
