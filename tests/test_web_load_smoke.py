"""The load benchmark's smoke mode (benchmarks/bench_web_load.py --smoke): the real server,
10 players over WebSocket at 2 tables for 3 s, then the money check. No timing is asserted:
the test proves the benchmark runs end to end and that the books balance after real play."""

from __future__ import annotations

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
