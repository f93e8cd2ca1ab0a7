"""The analysis shared with a second process (analysis/forked.py, issue 12 item 7: a new
process's ``edge`` on two cores) gives the one-process figures to the last bit, and falls
back to one process whenever the second cannot help."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import twentyone.analysis
from twentyone import load_rules
from twentyone.analysis import analyze, clear_caches
from twentyone.analysis.forked import analyze_forked, can_fork
from twentyone.analysis.shoe import shoe_of


def _json(report: Any) -> dict[str, Any]:
    data: dict[str, Any] = report.to_json()
    data.pop("seconds")
    return data


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each fork made (by the analysis), and the test fails if it cannot fork at all."""
    # an earlier test's helper threads (a test client's portal, a server's checkpointer)
    # may take a moment to end after their test: give them five seconds
    deadline = time.monotonic() + 5
    while threading.active_count() > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    others = [t.name for t in threading.enumerate() if t is not threading.current_thread()]
    assert can_fork(), f"another thread runs: nothing would be forked ({others})"
    made: list[int] = []
    real = os.fork

    def fork() -> int:
        pid = real()
        if pid:
            made.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    return made


@pytest.mark.parametrize(
    "rules", ["6D S17 DAS SPL1 NS", "6D H17 DAS SPL3 LS", "ro-casino", "1D S17 NDAS SPL1 NS"]
)
def test_two_processes_give_the_figures_of_one(rules: str, forks: list[int]) -> None:
    want = _json(analyze(rules))  # a split to two hands, resplits, no peek (ENHC), one deck
    clear_caches()
    assert _json(analyze_forked(rules)) == want
    assert len(forks) == 1


def test_work_meanwhile_runs_once_in_this_process_whether_it_forks_or_not(
    monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    calls: list[int] = []
    want = _json(analyze("1D S17 DAS SPL1 NS"))
    clear_caches()
    got = analyze_forked("1D S17 DAS SPL1 NS", meanwhile=lambda: calls.append(os.getpid()))
    assert _json(got) == want and len(forks) == 1
    assert calls == [os.getpid()]  # here, once, and not in the second process

    def no_fork() -> int:
        raise OSError("no processes left")

    monkeypatch.setattr(os, "fork", no_fork)
    clear_caches()
    analyze_forked("1D S17 DAS SPL1 NS", meanwhile=lambda: calls.append(os.getpid()))
    assert calls == [os.getpid()] * 2


def test_a_depleted_shoe_in_two_processes(forks: list[int]) -> None:
    r = load_rules("2D S17 DAS SPL3 NS")
    shoe = shoe_of(r, remove="5 5 6 T T 7")
    want = _json(analyze(r, shoe=shoe))
    clear_caches()
    assert _json(analyze_forked(r, shoe=shoe)) == want and forks


def test_without_a_fork_one_process_does_it_all(monkeypatch: pytest.MonkeyPatch) -> None:
    want = _json(analyze("6D S17 DAS SPL1 NS"))

    def no_fork() -> int:
        raise OSError("no processes left")

    monkeypatch.setattr(os, "fork", no_fork)
    clear_caches()
    assert _json(analyze_forked("6D S17 DAS SPL1 NS")) == want


def test_a_second_process_that_fails_leaves_its_part_to_the_first(
    monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    want = _json(analyze("6D S17 DAS SPL1 NS"))
    me = os.getpid()
    real = twentyone.analysis.up_piece

    def failing_there(*args: Any, **kw: Any) -> Any:
        if os.getpid() != me:
            raise MemoryError("the second process ran out")
        return real(*args, **kw)

    monkeypatch.setattr(twentyone.analysis, "up_piece", failing_there)
    clear_caches()
    assert _json(analyze_forked("6D S17 DAS SPL1 NS")) == want and forks


def test_the_edge_command_answers_the_same_in_two_processes(
    capsys: pytest.CaptureFixture[str], forks: list[int]
) -> None:
    import json

    from twentyone.cli import main

    want = _json(analyze("6D S17 DAS SPL3 NS"))
    clear_caches()
    assert main(["edge", "6D S17 DAS SPL3 NS", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    got.pop("seconds")
    assert got == want and forks


def test_a_new_process_prints_its_whole_answer_and_ends_at_once(tmp_path: Path) -> None:
    # edge in a process of its own: the second process, the flushed output and the exit
    # without Python's teardown (cli.entry) leave the whole JSON and status 0
    import json
    import subprocess
    import sys

    want = _json(analyze("1D S17 DAS SPL3 NS"))
    env = dict(os.environ, TWENTYONE_CACHE_DIR=str(tmp_path))
    cmd = [sys.executable, "-m", "twentyone", "edge", "1D S17 DAS SPL3 NS", "--json"]
    for _ in range(2):  # tables built and kept, then read
        for entry in tmp_path.glob("edge/*.json"):
            entry.unlink()  # never asked
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        assert out.returncode == 0 and out.stderr == ""
        got = json.loads(out.stdout)
        got.pop("seconds")
        assert got == want
    reader = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # the reader goes away before the answer: no error, status 0
    assert reader.wait(timeout=300) == 0 and reader.stderr.read() == b""
