"""Time the simulator (``twentyone simulate``): rounds per second on 1 and 2 workers.

Run: ``.venv/bin/python benchmarks/bench_simulate.py [--rounds 20000000] [--repeat 5]``

The rule set is the issue's ``"6D S17 DAS SPL1 NS CSM"`` played with its basic strategy (from
the exact analysis when installed, else the textbook chart), one box, as
``twentyone simulate RULES --rounds N --workers W`` plays it. The kernel is compiled or loaded
from numba's cache first (printed apart, excluded). Each run uses a different seed; the best
and the median of ``--repeat`` runs are printed, with the machine, as a Markdown table for
docs/benchmarks.md. ``--rules`` adds other rule sets (the presets, say) at 1 worker.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import time
from datetime import UTC, datetime

import numba

from twentyone import load_rules
from twentyone.sim.runner import simulate, warm_up
from twentyone.sim.textbook import chart_for

TARGET = "6D S17 DAS SPL1 NS CSM"


def _cpu() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or "unknown CPU"
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    model = fields.get("Model name", "unknown CPU").strip()
    hv = fields.get("Hypervisor vendor", "").strip()
    return f"{model}{f' ({hv})' if hv else ''}, {os.cpu_count()} CPUs"


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def measure(spec: str, rounds: int, workers: int, repeat: int) -> tuple[float, float, float]:
    """Best and median rounds per second, and the last ev."""
    rules = load_rules(spec)
    chart, _ = chart_for(rules)
    speeds = []
    ev = 0.0
    for i in range(repeat):
        res = simulate(rules, rounds, seed=1000 + i, workers=workers, strategy=chart)
        speeds.append(res.rounds_per_second)
        ev = res.ev
    return max(speeds), statistics.median(speeds), ev


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rules", nargs="*", default=[], help="more rule sets, 1 worker")
    args = parser.parse_args()

    t = time.perf_counter()
    warm_up()
    warm = time.perf_counter() - t
    print(f"Machine: {_cpu()}, Python {platform.python_version()}, numba {numba.__version__}.")
    print(f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. Load average before: {_load()}.")
    print(f"Kernel compile or cache load: {warm:.2f} s (excluded).")
    print()
    print("| rule set | workers | rounds | best M rounds/s | median M rounds/s | ev |")
    print("|---|---|---|---|---|---|")
    rows = [(TARGET, 1), (TARGET, 2)] + [(spec, 1) for spec in args.rules]
    for spec, workers in rows:
        best, median, ev = measure(spec, args.rounds, workers, args.repeat)
        print(
            f"| {spec} | {workers} | {args.rounds:,} | {best / 1e6:.2f} | {median / 1e6:.2f} "
            f"| {100 * ev:+.3f}% |"
        )
    print()
    print(f"Load average after: {_load()}.")


if __name__ == "__main__":
    main()
