"""Time ``twentyone.analysis.analyze`` (the exact analysis behind ``twentyone edge``).

Run: ``.venv/bin/python benchmarks/bench_edge.py [--repeat 5]``

The numba kernels are compiled (or loaded from numba's cache) by a warm-up analysis of another
rule set first; that time is printed apart and excluded. Then each preset is analysed from
empty caches, ``--repeat`` times:

- ``cold``: every cache emptied, the hand and dealer tables (which depend only on the deck
  count and S17/H17) included;
- ``warm tables``: results emptied, those tables kept (as a long-running process has them).

Prints a Markdown table (best and median seconds) for docs/benchmarks.md, with the CPU time
of the process (all threads) beside the wall time: on a machine shared with other jobs the wall
time grows with their load, the CPU time much less.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import time

from twentyone import PRESETS
from twentyone.analysis import analyze, clear_caches


def _cpu() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or "unknown CPU"
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line and line.strip())
    name = fields.get("Model name", "unknown CPU").strip()
    cpus = fields.get("CPU(s)", "?").strip()
    return f"{name}, {cpus} CPU(s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    start = time.perf_counter()
    analyze("2D H17 DAS SPL3 RSA LS")  # compiles or loads every kernel
    warm_up = time.perf_counter() - start
    print(f"machine: {_cpu()}; date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"warm-up (numba compile or cache load, excluded): {warm_up:.2f} s\n")
    print(
        "| rule set | cold: best / median wall s | cold: median CPU s "
        "| warm tables: best / median wall s | house edge |"
    )
    print("|---|---|---|---|---|")
    for name in PRESETS:
        cold, cold_cpu, warm = [], [], []
        report = None
        for _ in range(args.repeat):
            clear_caches(tables=True)
            t, c = time.perf_counter(), time.process_time()
            report = analyze(name)
            cold.append(time.perf_counter() - t)
            cold_cpu.append(time.process_time() - c)
            clear_caches(tables=False)
            t = time.perf_counter()
            analyze(name)
            warm.append(time.perf_counter() - t)
        assert report is not None
        print(
            f"| {name} | {min(cold):.3f} / {statistics.median(cold):.3f} "
            f"| {statistics.median(cold_cpu):.3f} "
            f"| {min(warm):.3f} / {statistics.median(warm):.3f} "
            f"| {-100 * report.ev_basic:.4f}% |"
        )


if __name__ == "__main__":
    main()
