"""Issue 12's speed targets for the exact analysis, measured in one run (ratios hold on a
shared machine better than absolute times): a full shoe warm, a depleted shoe warm, ``advise``
for one hand warm, a new process's ``edge``, and the first ``edge`` with an empty numba cache
(``NUMBA_CACHE_DIR`` pointed at a new folder; peak memory from ``/usr/bin/time``). A new
process is timed three ways: for a query never asked (``TWENTYONE_CACHE_DIR=off``: the
analysis runs, every table built), for one never asked by a user who asked others (the
answers removed from the cache, the hand and dealer tables kept there:
:mod:`twentyone.analysis.kept`), and for one asked before (its answer read from
:mod:`twentyone.analysis.result_cache`). Each figure is given as wall time and as CPU time (this
process's, or the command's user + system time, its second process included): on a machine
shared with other jobs the CPU time is the steadier of the two.

Usage: ``.venv/bin/python benchmarks/bench_analysis_targets.py [--cold-simulate]``
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RULES = "6D S17 DAS SPL1 NS"
#: Tables whose splits reach three hands or more (timed for their distributions alone).
RESPLIT_RULES = ("6D S17 DAS SPL3 NS", "ro-casino", "hu-casino")


def _best(f: object, n: int = 5) -> tuple[float, float, float, float]:
    """Best and median wall seconds, best and median CPU seconds of ``n`` calls."""
    times = []
    cpu = []
    for _ in range(n):
        start = time.perf_counter()
        c = time.process_time()
        f()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - c)
    return min(times), statistics.median(times), min(cpu), statistics.median(cpu)


def _timed_process(args: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """Wall seconds, then CPU seconds (user + system) and peak resident memory of a command."""
    start = time.perf_counter()
    out = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S %M", *args],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    wall = time.perf_counter() - start
    user, system, kib = out.stderr.strip().splitlines()[-1].split()
    return wall, f"{float(user) + float(system):.2f} s CPU, {int(kib) / 1024:.0f} MiB"


def main() -> None:
    from twentyone import load_rules
    from twentyone.analysis import analyze, clear_caches, shoe_of
    from twentyone.analysis.advise import advise

    rules = load_rules(RULES)
    analyze(rules)  # compile or load the kernels, build the tables
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )

    def full(outcomes: bool) -> None:
        clear_caches()
        analyze(rules, outcomes=outcomes)

    def distributions(spec: str = RULES) -> None:  # both distributions alone, returns kept
        from twentyone.analysis import outcomes, split_moments
        from twentyone.analysis.context import Context

        outcomes._dealer_rows.cache_clear()
        outcomes._joints.cache_clear()
        split_moments._kept.cache_clear()  # the splits' exact moments and weighted rows
        split_moments._rows.cache_clear()
        ctx = Context.of(load_rules(spec))
        outcomes.round_outcomes(ctx, True)
        outcomes.round_outcomes(ctx, False)

    rows = []
    rows.append(("full shoe warm with the exact distributions", _best(lambda: full(True)), 0.085))
    rows.append(("full shoe, warm (tables kept), no outcomes", _best(lambda: full(False)), 0.085))
    rows.append(("the exact distributions alone, warm", _best(distributions), 0.3))
    for spec in RESPLIT_RULES:  # resplits: rounds of three hands or more as well
        analyze(load_rules(spec))
        timed = _best(lambda spec=spec: distributions(spec))
        rows.append((f"the distributions alone, warm, {spec}", timed, 0.3))
    depleted = iter(range(10_000))

    def one_depleted() -> None:
        k = next(depleted)
        shoe = list(shoe_of(rules, remove="5 5 5 5 6 6"))
        shoe[k % 9] -= 1 + k // 9  # a new composition every time: no cache helps
        analyze(rules, shoe=shoe, outcomes=False)

    rows.append(("depleted shoe, warm, no outcomes", _best(one_depleted), 0.1))
    hands = iter(range(10_000))

    def one_advise() -> None:
        k = next(hands)
        shoe = list(shoe_of(rules))
        shoe[k % 9] -= 1 + k // 9
        advise(rules, "T 6", "T", shoe=shoe)

    rows.append(("advise T-6 v T, new shoe, warm", _best(one_advise, 10), 0.020))
    for name, (best, median, cbest, cmedian), target in rows:
        print(
            f"| {name} | {best:.3f} / {median:.3f} s; CPU {cbest:.3f} / {cmedian:.3f} s "
            f"| {target} s |"
        )
    cmd = [sys.executable, "-m", "twentyone.cli", "edge", RULES, "--json"]
    # no answer kept on disk
    never = dict(os.environ, TWENTYONE_CACHE_DIR="off")
    for _ in range(3):  # three runs, each printed: the best is the figure
        wall, mem = _timed_process(cmd, never)
        print(
            f"| new process `edge`, never asked (numba cache warm) | {wall:.2f} s; {mem} | 1.0 s |"
        )
    with tempfile.TemporaryDirectory() as results:
        asked = dict(os.environ, TWENTYONE_CACHE_DIR=results)
        _timed_process(cmd, asked)  # asked once: the answer and the tables are kept
        for _ in range(3):  # the answer forgotten, the tables kept: a query never asked
            for entry in (Path(results) / "edge").glob("*.json"):  # by a user who asked others
                entry.unlink()
            wall, mem = _timed_process(cmd, asked)
            print(f"| new process `edge`, never asked, tables kept | {wall:.2f} s; {mem} | 1.0 s |")
        _timed_process(cmd, asked)  # asked again: kept
        for _ in range(3):
            wall, mem = _timed_process(cmd, asked)
            print(
                f"| new process `edge`, asked before (result cache) | {wall:.2f} s; {mem} | 0.1 s |"
            )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(never, NUMBA_CACHE_DIR=cache)
        wall, mem = _timed_process(cmd, env)
        print(f"| first `edge`, empty numba cache | {wall:.1f} s; {mem} | 8 s, 600 MiB |")
    if "--cold-simulate" in sys.argv:
        with tempfile.TemporaryDirectory() as cache:  # its own empty cache, not edge's
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            sim = [sys.executable, "-m", "twentyone.cli", "simulate", RULES, "--rounds", "1000"]
            wall, mem = _timed_process([*sim, "--workers", "1", "--seed", "1"], env)
            print(f"| first `simulate`, empty numba cache | {wall:.1f} s; {mem} | 10 s, 600 MiB |")
    print(f"# load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
