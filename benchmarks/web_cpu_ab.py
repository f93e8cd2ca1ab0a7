"""Server CPU per action of two source trees, side by side in one sitting (issue 27).

Runs ``benchmarks/bench_web_load.py`` alternately with each tree's server (``--server-src``;
the players and the money check stay this tree's) and reports, per tree, the mean and spread
of the server's CPU milliseconds per action, actions a second and p99. CPU per action is the
figure to compare on a shared machine: actions a second follow whatever else runs beside the
server, its CPU per action much less.

Usage::

    python benchmarks/web_cpu_ab.py --tree base=/work/wt-base/src --tree mine=src \\
        --passes 3 -- --players 100 --tables 20 --seconds 20

Arguments after ``--`` go to bench_web_load.py for every run (``--metrics`` for instance);
``--tree NAME=SRC:ARG,ARG`` adds arguments for that tree's runs only. ``--json FILE`` keeps
every run's report.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def run_once(src: str, extra: list[str], common: list[str]) -> dict[str, Any]:
    """One bench_web_load.py run with ``src``'s server; its JSON report."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [sys.executable, str(HERE / "bench_web_load.py"), "--server-src", src]
        cmd += [*common, *extra, "--json", out.name]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        text = Path(out.name).read_text()
    if not text.strip():
        raise RuntimeError(f"no report from {cmd}: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(text)
    report["exit"] = proc.returncode
    return report


def summary(runs: list[dict[str, Any]]) -> dict[str, tuple[float, float, float, float]]:
    """Mean, standard deviation, minimum and maximum of the figures over the runs."""
    figures = {
        "cpu_ms_per_action": [r["server_cpu_ms_per_action"] for r in runs],
        "actions_per_s": [r["actions_per_s"] for r in runs],
        "p99_ms": [r["latency_ms"]["p99"] for r in runs],
    }
    return {
        k: (
            statistics.fmean(v),
            statistics.stdev(v) if len(v) > 1 else 0.0,
            min(v),
            max(v),
        )
        for k, v in figures.items()
    }


def main(argv: list[str] | None = None) -> int:
    """Alternate the trees' runs; print each run and the summary."""
    argv = sys.argv[1:] if argv is None else argv
    common: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, common = argv[:i], argv[i + 1 :]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", action="append", required=True, help="NAME=SRC[:ARG,ARG]")
    p.add_argument("--passes", type=int, default=3)
    p.add_argument("--json", help="every run's report to this file")
    args = p.parse_args(argv)
    trees: list[tuple[str, str, list[str]]] = []
    for spec in args.tree:
        name, _, rest = spec.partition("=")
        src, _, extra = rest.partition(":")
        trees.append((name, str(Path(src).resolve()), [a for a in extra.split(",") if a]))
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in trees}
    for n in range(args.passes):
        order = trees if n % 2 == 0 else trees[::-1]
        for name, src, extra in order:
            r = run_once(src, extra, common)
            runs[name].append(r)
            print(
                f"pass {n + 1} {name:8} cpu/action {r['server_cpu_ms_per_action']} ms  "
                f"actions/s {r['actions_per_s']}  p99 {r['latency_ms']['p99']} ms  "
                f"server CPU {r['cpu_s_during_play']['server']} s  "
                f"money {'OK' if r['money_ok'] else 'FAILED'}  exit {r['exit']}",
                flush=True,
            )
    print("tree      figure             mean      sd       min      max")
    for name, rs in runs.items():
        for k, (mean, sd, lo, hi) in summary(rs).items():
            print(f"{name:9} {k:17} {mean:9.4f} {sd:8.4f} {lo:8.4f} {hi:8.4f}")
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=2) + "\n")
    return 0 if all(r["exit"] == 0 for rs in runs.values() for r in rs) else 1


if __name__ == "__main__":
    sys.exit(main())
