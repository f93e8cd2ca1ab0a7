"""The soak benchmark's smoke mode (benchmarks/bench_soak.py --smoke): the real server on
SQLite, 20 random players (legal and illegal intentions) at 4 tables, a flooding socket, a
sender of oversized frames and an idle seat holder for 24 s, the server killed with SIGKILL
every 10 s and restarted on the same file. No timing is asserted: the test proves that the
benchmark runs end to end, that every abuser meets its limit, and that the books balance to
the chip across the kills."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_soak_smoke_survives_kills_and_abuse_without_losing_a_chip(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_soak.py"), "--smoke", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=400,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    (report,) = json.loads(out.read_text())
    assert report["restarts"] == 2 and len(report["kills"]) == 2
    # the books in the instant after each kill: wallets + stakes in play + house = credited
    for kill in report["kills"]:
        assert kill["sum"] == kill["credited"] == 23 * 100_000, kill
    # rounds were played, and the ones the kills cut short were voided to the chip
    status = report["money"]["round_status"]
    assert status.get("settled", 0) > 0 and set(status) <= {"settled", "refunded"}
    assert report["money_ok"] is True, report["money_problems"]
    assert report["money"]["players_plus_house"] == report["money"]["expected_total"]
    # every illegal intention was answered; no legal one was refused or left unanswered
    assert sum(report["illegal_answered"].values()) > 0
    assert report["errors"] == 0 and report["unanswered"] == 0, report["error_samples"]
    assert report["server_log_tracebacks"] == 0
    # each abuser met its limit: 1008 for the flood, 1009 for the oversized frames
    abusers = report["abusers"]
    flood = next(k for k in abusers if k.startswith("flood") and k.endswith("closed with 1008"))
    big = next(k for k in abusers if k.startswith("big") and k.endswith("closed with 1009"))
    assert abusers[flood] > 0 and abusers[big] > 0
    assert any(k.endswith("rate-limit error replies") for k in abusers)
    assert report["server_exit"] == 0 and report["open_after_stop"] == 0
