"""Time the simulator (``twentyone simulate``): rounds per second of the flat kernel on 1 and 2
workers and of the counting kernel on 1, and each kernel's first compile.

Run: ``.venv/bin/python benchmarks/bench_simulate.py [--rounds 20000000] [--repeat 5]``

The rule set is the issue's ``"6D S17 DAS SPL1 NS CSM"`` played with its basic strategy (from
the exact analysis when installed, else the textbook chart), one box, as
``twentyone simulate RULES --rounds N --workers W`` plays it; the counting row is the same
table with a cut card (``"6D S17 DAS SPL1 NS"``) and a counter (Hi-Lo, I18, the ramp
``0:1 1:2 2:4 3:8 4:12``, as ``--count hilo --indices I18 --ramp ...``). The kernels are
compiled or loaded from numba's cache first (printed apart, excluded). Each run uses a
different seed and the rows alternate run by run (a busy machine slows them alike); the best
and the median of ``--repeat`` runs are printed, with the machine, as a Markdown table for
docs/benchmarks.md. ``--rules`` adds other rule sets (the presets, say) at 1 worker.
``--first`` also compiles each kernel in a new process with an empty numba cache (what the
first ``simulate`` after an install does) and prints its CPU time, wall time and peak memory.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime

import numba

from twentyone import load_rules
from twentyone.counting.counts import load_count
from twentyone.counting.index_set import load_indices
from twentyone.counting.ramp import parse_ramp
from twentyone.counting.sim_runner import CountSetup, simulate_counting
from twentyone.sim.runner import simulate, warm_up
from twentyone.sim.textbook import chart_for

TARGET = "6D S17 DAS SPL1 NS CSM"
COUNTING = "6D S17 DAS SPL1 NS"
RAMP = "0:1 1:2 2:4 3:8 4:12"
COUNTER = "counting: Hi-Lo, I18, ramp 1-12"
#: what a new process compiles for each kernel (the flat one: what ``simulate`` warms up; the
#: counting one with the textbook chart, so that no exact analysis compiles with it)
FIRST = {
    "flat": "from twentyone.sim.runner import warm_up; warm_up()",
    "counting": (
        "from twentyone import load_rules; "
        "from twentyone.counting.counts import load_count; "
        "from twentyone.counting.index_set import load_indices; "
        "from twentyone.counting.ramp import parse_ramp; "
        "from twentyone.counting.sim_runner import CountSetup, simulate_counting; "
        "from twentyone.sim.textbook import textbook_6d_s17_das; "
        f"setup = CountSetup(system=load_count('hilo'), ramp=parse_ramp('{RAMP}'), "
        "indices=load_indices('I18')); "
        f"simulate_counting(load_rules('{COUNTING}'), 1000, setup, "
        "strategy=textbook_6d_s17_das())"
    ),
}
_USAGE = (
    "; import resource; u = resource.getrusage(resource.RUSAGE_SELF); "
    "print(u.ru_utime + u.ru_stime, u.ru_maxrss / 1024)"
)


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


def flat_run(spec: str, workers: int) -> Callable[[int, int], tuple[float, float]]:
    """A run of the flat kernel: ``(rounds, seed) -> (rounds per second, ev)``."""
    rules = load_rules(spec)
    chart, _ = chart_for(rules)

    def run(rounds: int, seed: int) -> tuple[float, float]:
        res = simulate(rules, rounds, seed=seed, workers=workers, strategy=chart)
        return res.rounds_per_second, res.ev

    return run


def counting_run() -> Callable[[int, int], tuple[float, float]]:
    """A run of the counting kernel: ``(rounds, seed) -> (rounds per second, ev per unit)``."""
    rules = load_rules(COUNTING)
    chart, _ = chart_for(rules)
    setup = CountSetup(
        system=load_count("hilo"), ramp=parse_ramp(RAMP), indices=load_indices("I18")
    )

    def run(rounds: int, seed: int) -> tuple[float, float]:
        res = simulate_counting(rules, rounds, setup, seed=seed, strategy=chart)
        return res.rounds_per_second, float(res.to_dict()["ev_per_unit"] or 0.0)

    return run


def first_compile(kernel: str) -> tuple[float, float, float]:
    """CPU seconds, wall seconds and peak MiB of a new process compiling ``kernel`` with an
    empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        t = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", FIRST[kernel] + _USAGE],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        wall = time.perf_counter() - t
    cpu, peak = (float(x) for x in out.split()[-2:])
    return cpu, wall, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rules", nargs="*", default=[], help="more rule sets, 1 worker")
    parser.add_argument("--first", action="store_true", help="time each kernel's first compile")
    args = parser.parse_args()

    # first, before this process has compiled or forked anything
    first = {kernel: first_compile(kernel) for kernel in FIRST} if args.first else {}
    runs: dict[tuple[str, int], Callable[[int, int], tuple[float, float]]] = {}
    runs[(TARGET, 1)] = flat_run(TARGET, 1)
    runs[(TARGET, 2)] = flat_run(TARGET, 2)
    runs[(COUNTER, 1)] = counting_run()
    for spec in args.rules:
        runs[(spec, 1)] = flat_run(spec, 1)
    t = time.perf_counter()
    warm_up()
    for run in runs.values():
        run(1000, 0)  # compile or load from the cache
    warm = time.perf_counter() - t
    print(f"Machine: {_cpu()}, Python {platform.python_version()}, numba {numba.__version__}.")
    print(f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. Load average before: {_load()}.")
    print(f"Kernels compile or cache load: {warm:.2f} s (excluded).")
    if first:
        print()
        print("| first compile (empty numba cache) | CPU s | wall s | peak MiB |")
        print("|---|---|---|---|")
        for kernel, (cpu, wall, peak) in first.items():
            print(f"| {kernel} kernel | {cpu:.1f} | {wall:.1f} | {peak:.0f} |")
    print()
    print("| rule set | workers | rounds | best M rounds/s | median M rounds/s | ev |")
    print("|---|---|---|---|---|---|")
    speeds: dict[tuple[str, int], list[float]] = {key: [] for key in runs}
    evs: dict[tuple[str, int], float] = {}
    for i in range(args.repeat):
        for key, run in runs.items():
            speed, evs[key] = run(args.rounds, 1000 + i)
            speeds[key].append(speed)
    for (spec, workers), s in speeds.items():
        ev = f"{100 * evs[(spec, workers)]:+.3f}%"
        if spec == COUNTER:
            ev += " per unit"
        print(
            f"| {spec} | {workers} | {args.rounds:,} | {max(s) / 1e6:.2f} "
            f"| {statistics.median(s) / 1e6:.2f} | {ev} |"
        )
    print()
    print(f"Load average after: {_load()}.")


if __name__ == "__main__":
    main()
