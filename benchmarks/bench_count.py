"""Time the counting kernel (``twentyone simulate RULES --count hilo --ramp ... --indices I18``)
against the flat kernel on the same rules, one core.

Run: ``.venv/bin/python benchmarks/bench_count.py [--rounds 10000000] [--repeat 5]``

The counter: Hi-Lo, the published I18 and Fab 4 indices, the ramp ``0:1 1:2 2:4 3:8 4:12``,
one box, alone at the table, on ``"6D S17 DAS LS"`` (a cut card at 75%: a new shoe every 234
cards); then the same with ``--players 3``, wonging out and a bankroll, and
the flat simulator (basic strategy, flat bet) on the same rules and on a continuous shuffler.
Both kernels are compiled or loaded from numba's cache first (excluded). Runs alternate
between the kernels so a busy machine slows both alike; the best and the median of
``--repeat`` runs are printed as a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime

import numba

from twentyone import load_rules
from twentyone.counting.counts import load_count
from twentyone.counting.index_set import load_indices
from twentyone.counting.ramp import parse_ramp
from twentyone.counting.sim_runner import CountSetup, simulate_counting
from twentyone.sim.runner import simulate
from twentyone.sim.textbook import chart_for

RULES = "6D S17 DAS LS"
RAMP = "0:1 1:2 2:4 3:8 4:12"


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rules = load_rules(RULES)
    chart, _ = chart_for(rules)
    plays = load_indices("I18+FAB4")
    alone = CountSetup(system=load_count("hilo"), ramp=parse_ramp(RAMP), indices=plays)
    table = CountSetup(
        system=load_count("hilo"),
        ramp=parse_ramp(RAMP),
        indices=plays,
        players=3,
        wong_out=-1,
        bankroll=1000.0,
    )
    csm = load_rules(RULES + " CSM")
    runs: dict[str, Callable[[int, int], float]] = {
        "counting: Hi-Lo, I18 + Fab 4, ramp 1-12, alone": lambda n, s: (
            simulate_counting(rules, n, alone, seed=s, strategy=chart).rounds_per_second
        ),
        "counting: the same, 3 players, wong out below -1, bankroll": lambda n, s: (
            simulate_counting(rules, n, table, seed=s, strategy=chart).rounds_per_second
        ),
        "flat: basic strategy, flat bet": lambda n, s: (
            simulate(rules, n, seed=s, strategy=chart).rounds_per_second
        ),
        "flat: the same at a continuous shuffler": lambda n, s: (
            simulate(csm, n, seed=s, strategy=chart).rounds_per_second
        ),
    }
    t0 = time.perf_counter()
    for run in runs.values():
        run(1000, 0)  # compile or load from the cache
    print(f"compile/load: {time.perf_counter() - t0:.1f} s; load average {_load()}")
    speeds: dict[str, list[float]] = {k: [] for k in runs}
    for i in range(args.repeat):
        for name, run in runs.items():
            speeds[name].append(run(args.rounds, 100 + i))
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"\n{RULES}, {args.rounds:,} rounds a run, {args.repeat} runs, one worker, {stamp}, "
        f"numba {numba.__version__}, load average after {_load()}\n"
    )
    print("| run | best M rounds/s | median M rounds/s |")
    print("|---|---|---|")
    for name, s in speeds.items():
        print(f"| {name} | {max(s) / 1e6:.2f} | {statistics.median(s) / 1e6:.2f} |")


if __name__ == "__main__":
    main()
