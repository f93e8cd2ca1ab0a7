"""The load benchmark's smoke mode (benchmarks/bench_web_load.py --smoke): the real server,
10 players over WebSocket at 2 tables for 3 s, then the money check. No timing is asserted:
the test proves the benchmark runs end to end and that the books balance after real play."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_smoke_run_plays_rounds_and_loses_no_chip(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_web_load.py"),
            "--smoke",
            "--wait-analysis",
            "0",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(out.read_text())
    assert (report["players"], report["tables"], report["seconds"]) == (10, 2, 3.0)
    # real play happened: rounds were dealt and settled, decisions answered
    assert report["rounds"] > 0 and report["latency_ms_by_type"]["decide"]["n"] > 0
    assert report["errors"] == 0, report["error_samples"]
    # the money check: nothing lost or duplicated, every round settled once
    assert report["money_ok"] is True, report["money_problems"]
    money = report["money"]
    assert money["players_plus_house"] == money["expected_total"] == 10 * 100_000
    assert money["round_status"] == {"settled": money["rounds_in_database"]}
    assert money["lowest_player_balance"] >= 0
    assert report["server_exit"] == 0
    # the server's CPU in the measured seconds, and per action (no figure asserted)
    cpu = report["cpu_s_during_play"]
    assert cpu["server"] > 0 and report["server_cpu_ms_per_action"] > 0
    # the event loop's share is part of the process's (threads that ended before the sample
    # take their CPU with them, so the parts need not add up to the whole)
    assert cpu["server_loop"] <= cpu["server"] + 0.02


def test_rounds_are_counted_per_table() -> None:
    # round numbers count per table (rounds.number): round 1 ending at two tables is two
    # rounds, and the same table's round 1 seen by two of its players is one
    sys.path.insert(0, str(ROOT / "benchmarks"))
    players = importlib.import_module("web_load_players")  # a benchmark's, not a package's

    stats = players.Stats()
    ann, bob, cat = (
        players.Client(name, "token", table, 0, stats, seed=1)
        for name, table in (("ann", "t000"), ("bob", "t000"), ("cat", "t001"))
    )
    for client, at in ((ann, 1.0), (bob, 1.5), (cat, 2.0)):
        client.notice({"kind": "round-end", "round": 1}, at)
    assert stats.rounds_ended == {("t000", 1): 1.0, ("t001", 1): 2.0}
