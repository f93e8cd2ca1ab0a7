"""The one entry point of the benchmarks: runs ``benchmarks/test_bench.py`` (pytest-benchmark)
and keeps its figures as JSON; ``docs/benchmarks.md`` is generated from them.

Usage (from the repository root, with the ``test`` extra installed)::

    python benchmarks/run.py                  # this working tree's source
    python benchmarks/run.py --compare [REV]  # side by side with REV (default a4da959)
    python benchmarks/run.py --docs           # docs/benchmarks.md from the results

- A run times the benchmarks once against ``src/`` of this working tree and writes
  ``benchmarks/results/<date>-<short sha>.json`` and ``benchmarks/results/latest.json``
  (kept in git: its history is the benchmarks' history).
- ``--compare REV`` checks ``REV`` out into a temporary git worktree and times the same
  benchmark file against both source trees in turn (each in its own processes, with
  ``PYTHONPATH=<tree>/src``): one untimed pass per tree first (numba's kernels compiled or
  loaded, each tree's caches written), then ``--passes`` timed passes per tree, alternating
  (A B B A A B ...: a machine that gets busier slows both alike). Every benchmark's timings of
  all the passes of a tree are pooled; the ratio is this tree's median over REV's (above 1:
  slower). It writes ``benchmarks/results/compare.json`` (and a dated copy), and
  ``latest.json`` from this tree's pooled timings, and prints the table.
- ``--docs`` writes ``docs/benchmarks.md`` from ``latest.json`` and ``compare.json``: nothing
  in it is copied by hand.

Since ``--compare`` runs the benchmark file against older trees, that file imports only names
that have not moved (``tests/test_bench_runner.py`` checks them).

Not run here: the long operational benchmarks, run by hand against a server or a cluster
(``bench_web_load.py``, ``bench_soak.py``, ``bench_cluster.py``), and the older one-off
scripts that print Markdown for a single question (``bench_edge.py``,
``bench_analysis_targets.py``, ``bench_simulate.py``, ``bench_count.py``, ``bench_rl.py``:
first compiles with an empty numba cache, several workers, the counting kernel).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "test_bench.py"
RESULTS = ROOT / "benchmarks" / "results"
LATEST = RESULTS / "latest.json"
COMPARE = RESULTS / "compare.json"
DOCS = ROOT / "docs" / "benchmarks.md"
DEFAULT_BASE = "a4da959"

#: Stated targets (seconds for one call), shown beside the figures: issue 12's for the exact
#: analysis; a new process's ``edge`` got 1.0 s when the saved-machine-code loader went.
TARGETS = {
    "analyze_full_shoe": 0.085,
    "analyze_depleted_shoe": 0.1,
    "advise_one_hand": 0.020,
    "new_process_edge": 1.0,
    "first_simulate_empty_caches": 10.0,  # issue 26, item 6 (and at most 600 MiB)
    "first_edge_empty_caches": 8.0,
}
#: Stated peak memory targets (MiB), beside the peaks the first-run benchmarks record.
PEAK_TARGETS = {"first_simulate_empty_caches": 600, "first_edge_empty_caches": 600}

#: Why a benchmark is known to be slower than the commit compared with (shown under the
#: comparison when it is).
NOTES = {
    "new_process_edge": "the saved-machine-code loader (which ran numba's cached code without "
    "importing numba) was removed on purpose: a new process imports numba and loads its cache "
    "(a stated trade-off, with the target raised to 1.0 s)",
}
_SINCE = (
    "slower since 1eb6b9e, where the {0} kernels take named tuples instead of flat "
    "arguments: its parent 57f7e1f was within 5% of a4da959 here, 1eb6b9e within 5% of this "
    "tree (`run.py --compare REV -k NAME`)"
)
NOTES["analyze_full_shoe"] = NOTES["analyze_depleted_shoe"] = _SINCE.format("analysis's")
NOTES["vector_env_steps"] = _SINCE.format("vector environment's") + (
    "; building the tuples each step and the call itself are a small part of the "
    "difference: the time is lost inside the kernel"
)

Result = dict[str, Any]


# ---------------------------------------------------------------- running the benchmark file


def _git(*args: str, cwd: Path = ROOT) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def _describe(tree: Path) -> dict[str, Any]:
    """The commit of ``tree`` and whether its tracked files differ from it."""
    sha = _git("rev-parse", "HEAD", cwd=tree)
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no", cwd=tree))
    return {"commit": sha, "short": sha[:7], "dirty": dirty}


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def run_pass(tree: Path, out: Path | None, *, select: str | None = None) -> Result | None:
    """The benchmark file once against ``tree``'s source: timed into ``out`` (pytest-benchmark's
    JSON, read back), or untimed when ``out`` is None (each benchmark runs once: a warm-up)."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), TWENTYONE_CACHE_DIR="off")
    env.pop("PYTEST_ADDOPTS", None)  # coverage (.ci/run's --cov) would time its tracing
    cmd = [sys.executable, "-m", "pytest", str(BENCH), "-q", "-p", "no:cacheprovider"]
    cmd += ["-o", "addopts=", "--benchmark-columns=min,median,max,rounds"]
    cmd += (
        ["--benchmark-disable"] if out is None else ["--benchmark-only", f"--benchmark-json={out}"]
    )
    if select:
        cmd += ["-k", select]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    if out is None:
        return None
    data: Result = json.loads(out.read_text())
    return data


def _machine(raw: Result) -> dict[str, Any]:
    info = raw.get("machine_info", {})
    cpu = info.get("cpu", {})
    versions: dict[str, str | None] = {}
    for name in ("numpy", "numba", "pytest-benchmark"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "cpu": cpu.get("brand_raw") or platform.processor() or platform.machine(),
        "cpus": cpu.get("count") or os.cpu_count(),
        "system": f"{info.get('system', platform.system())} {info.get('release', '')}".strip(),
        "python": info.get("python_version", platform.python_version()),
        **versions,
    }


def _timings(raws: list[Result]) -> dict[str, dict[str, Any]]:
    """Each benchmark's timings pooled over the passes, with what it does (in file order)."""
    pooled: dict[str, dict[str, Any]] = {}
    for raw in raws:
        for b in raw["benchmarks"]:
            name = b["name"].removeprefix("test_")
            extra = {k: v for k, v in b["extra_info"].items() if k not in ("cpu", "peak_mib")}
            entry = pooled.setdefault(
                name, {"extra": extra, "data": [], "cpu": [], "passes": [], "peak": []}
            )
            entry["data"].extend(b["stats"]["data"])
            entry["cpu"].extend(b["extra_info"].get("cpu", []))
            entry["peak"].extend(b["extra_info"].get("peak_mib", []))
            entry["passes"].append(b["stats"]["median"])
    return pooled


def _row(name: str, entry: dict[str, Any]) -> Result:
    extra, data = entry["extra"], entry["data"]
    median = statistics.median(data)
    per_call = int(extra.get("per_call", 1))
    unit = extra.get("unit", "call")
    return {
        "name": name,
        "what": extra.get("what", name),
        "unit": unit,
        "per_call": per_call,
        "median_s": median,
        "min_s": min(data),
        "cpu_median_s": statistics.median(entry["cpu"]) if entry["cpu"] else None,
        "timings": len(data),
        "pass_medians": entry["passes"],
        "throughput": per_call / median if unit != "call" else None,
        "target_s": TARGETS.get(name),
        "peak_mib": max(entry["peak"]) if entry["peak"] else None,
        "peak_target_mib": PEAK_TARGETS.get(name),
        "data": data,
        "cpu": entry["cpu"],
    }


def summarize(raws: list[Result], tree: Path, started: str, loads: list[float | None]) -> Result:
    """The results file of one source tree's passes."""
    return {
        "kind": "run",
        "date": started,
        **_describe(tree),
        "machine": _machine(raws[0]),
        "passes": len(raws),
        "load_average": loads,
        "benchmarks": [_row(n, e) for n, e in _timings(raws).items()],
    }


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _write(path: Path, result: Result) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {path.relative_to(ROOT)}")


def run(select: str | None) -> Result:
    """Time this working tree once; write the dated results and ``latest.json``."""
    started, loads = _stamp(), [_load()]
    with tempfile.TemporaryDirectory() as tmp:
        raw = run_pass(ROOT, Path(tmp) / "head.json", select=select)
        assert raw is not None
    loads.append(_load())
    result = summarize([raw], ROOT, started, loads)
    _write(RESULTS / f"{started[:10]}-{result['short']}.json", result)
    if select is None:  # a selection is no current table
        _write(LATEST, result)
    print(table(result))
    return result


def compare(base_rev: str, passes: int, select: str | None) -> Result:
    """Time this working tree and ``base_rev`` side by side (see the module)."""
    base_sha = _git("rev-parse", "--verify", f"{base_rev}^{{commit}}")
    started, loads = _stamp(), [_load()]
    with tempfile.TemporaryDirectory(prefix="twentyone-bench-") as tmp:
        base = Path(tmp) / "base"
        _git("worktree", "add", "--detach", str(base), base_sha)
        try:
            trees = {"head": ROOT, "base": base}
            for label, tree in trees.items():
                print(f"== warm-up pass, {label} ({tree})", flush=True)
                run_pass(tree, None, select=select)
            raws: dict[str, list[Result]] = {"head": [], "base": []}
            for i in range(passes):
                order = ("head", "base") if i % 2 == 0 else ("base", "head")
                for label in order:
                    print(f"== pass {i + 1}/{passes}, {label}", flush=True)
                    out = Path(tmp) / f"{label}-{i}.json"
                    raw = run_pass(trees[label], out, select=select)
                    assert raw is not None
                    raws[label].append(raw)
                    loads.append(_load())
            head = summarize(raws["head"], ROOT, started, loads)
            old = summarize(raws["base"], base, started, loads)
        finally:
            _git("worktree", "remove", "--force", str(base))
    result = side_by_side(head, old, base_rev)
    _write(RESULTS / f"{started[:10]}-{head['short']}-vs-{old['short']}.json", result)
    if select is None:
        _write(COMPARE, result)
        _write(LATEST, head)
    print(compare_table(result))
    return result


def _ratio(new: float | None, old: float | None) -> float | None:
    return new / old if new is not None and old else None


def side_by_side(head: Result, base: Result, base_rev: str) -> Result:
    """The comparison of two summaries: each benchmark's medians, the ratio head / base and
    the range of the passes' own ratios."""
    olds = {b["name"]: b for b in base["benchmarks"]}
    rows = []
    for b in head["benchmarks"]:
        o = olds.get(b["name"])
        if o is None:
            continue
        pairs = zip(b.get("pass_medians", []), o.get("pass_medians", []), strict=False)
        per_pass = [h / x for h, x in pairs]
        rows.append(
            {
                "name": b["name"],
                "what": b["what"],
                "unit": b["unit"],
                "per_call": b["per_call"],
                "head_median_s": b["median_s"],
                "base_median_s": o["median_s"],
                "ratio": b["median_s"] / o["median_s"],
                "head_cpu_median_s": b.get("cpu_median_s"),
                "base_cpu_median_s": o.get("cpu_median_s"),
                "cpu_ratio": _ratio(b.get("cpu_median_s"), o.get("cpu_median_s")),
                "pass_ratios": per_pass,
                "target_s": b.get("target_s"),
            }
        )
    keep = ("commit", "short", "dirty")
    return {
        "kind": "compare",
        "date": head["date"],
        "head": {k: head[k] for k in keep},
        "base": {"rev": base_rev, **{k: base[k] for k in keep}},
        "machine": head["machine"],
        "passes": head["passes"],
        "load_average": head["load_average"],
        "benchmarks": rows,
    }


# ---------------------------------------------------------------- tables and the docs page


def seconds(s: float) -> str:
    """``0.00102`` -> ``'1.02 ms'``: three significant figures in s, ms or µs."""
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if s >= scale or unit == "µs":
            v = s / scale
            return f"{v:#.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"
    raise AssertionError  # pragma: no cover


def rate(per_s: float | None, unit: str) -> str:
    """``6.4e6, 'rounds'`` -> ``'6.40 M rounds/s'``; none: ``'—'``."""
    if per_s is None:
        return "—"
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_s >= scale:
            return f"{per_s / scale:#.3g} {prefix} {unit}/s"
    return f"{per_s:.3g} {unit}/s"


def _commit(c: Result) -> str:
    return f"`{c['short']}`" + (" (with uncommitted changes)" if c.get("dirty") else "")


def _machine_line(m: Result) -> str:
    versions = ", ".join(f"{k} {m[k]}" for k in ("numpy", "numba") if m.get(k))
    return f"{m['cpu']}, {m['cpus']} CPUs, {m['system']}, Python {m['python']}, {versions}"


def _s(x: float | None) -> str:
    return "—" if x is None else seconds(x)


def table(result: Result) -> str:
    """The Markdown table of one results file."""
    lines = [
        "| benchmark | what one call does | median | throughput | CPU median | target "
        "| peak memory (target) | timings |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for b in result["benchmarks"]:
        peak = b.get("peak_mib")
        peak_text = "—" if peak is None else f"{peak:.0f} MiB"
        if b.get("peak_target_mib"):
            peak_text += f" ({b['peak_target_mib']} MiB)"
        lines.append(
            f"| `{b['name']}` | {b['what']} | {seconds(b['median_s'])} "
            f"| {rate(b.get('throughput'), b['unit'])} | {_s(b.get('cpu_median_s'))} "
            f"| {_s(b.get('target_s'))} | {peak_text} | {b['timings']} |"
        )
    return "\n".join(lines)


def _r(ratio: float | None) -> str:
    if ratio is None:
        return "—"
    return f"{ratio:.2f}" + (" **slower by more than 5%**" if ratio > 1.05 else "")


def compare_table(result: Result) -> str:
    """The Markdown table of a comparison."""
    base = f"`{result['base']['rev']}`"
    lines = [
        f"| benchmark | {base} median | this tree's median | ratio | passes' ratios "
        f"| {base} CPU | this tree's CPU | CPU ratio |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for b in result["benchmarks"]:
        spread = b.get("pass_ratios") or []
        span = f"{min(spread):.2f}–{max(spread):.2f}" if spread else "—"
        lines.append(
            f"| `{b['name']}` | {seconds(b['base_median_s'])} | {seconds(b['head_median_s'])} "
            f"| {_r(b['ratio'])} | {span} | {_s(b.get('base_cpu_median_s'))} "
            f"| {_s(b.get('head_cpu_median_s'))} | {_r(b.get('cpu_ratio'))} |"
        )
    return "\n".join(lines)


def _loads(result: Result) -> str:
    loads = [x for x in result.get("load_average", []) if x is not None]
    return f"1-minute load average {min(loads)} to {max(loads)}" if loads else "load unknown"


def docs(latest: Result | None, compared: Result | None) -> str:
    """The text of ``docs/benchmarks.md``."""
    out = [
        "# Benchmarks",
        "",
        "<!-- Generated by `python benchmarks/run.py --docs` from benchmarks/results/*.json:",
        "     do not edit by hand. -->",
        "",
        "The benchmarks are `benchmarks/test_bench.py` (pytest-benchmark), run by one runner:",
        "`python benchmarks/run.py` times them against this working tree's `src/` and writes",
        "`benchmarks/results/latest.json`; `python benchmarks/run.py --compare REV` times them",
        "side by side with another commit; `python benchmarks/run.py --docs` writes this page.",
        "Each figure is the median of every timing of one call: wall time, and beside it CPU",
        "time (the process's and its children's: the steadier figure on a machine shared with",
        "other work). A call's work is fixed, so a throughput is the work of one call over the",
        "wall time's median. The analysis, `advise`, the simulator, the engine and the vector",
        "environment are timed warm (kernels loaded, tables built, in a process that has run",
        "them before); `new_process_edge` is a new process's `twentyone edge --json` for a",
        "query never asked (no result cache, numba's cache warm). `first_simulate_empty_caches`",
        "and `first_edge_empty_caches` are a user's very first command: a new process with",
        "numba's and twentyone's caches empty (new folders each call), its peak resident memory",
        "beside it. The targets are the ones stated for them (issue 12's for the exact analysis,",
        "issue 26's for a first run).",
        "",
    ]
    if latest is None:
        out += ["No results yet: run `python benchmarks/run.py`.", ""]
    else:
        out += [
            "## Now",
            "",
            f"Commit {_commit(latest)}, {latest['date']}, {latest['passes']} pass(es); "
            f"{_machine_line(latest['machine'])}; {_loads(latest)}.",
            "",
            table(latest),
            "",
        ]
    if compared is not None:
        base, head = compared["base"], compared["head"]
        out += [
            f"## Against `{base['rev']}`",
            "",
            f"Commit {_commit(head)} against `{base['rev']}`"
            + (f" ({base['short']})" if not base["short"].startswith(base["rev"]) else "")
            + f", {compared['date']}: {compared['passes']} timed passes of each tree, alternating, "
            "after one untimed pass of each; every timing of a tree pooled. Ratio: this tree's "
            "median over the other's (above 1: slower); the passes' ratios show how far one "
            "pass's own ratio strays on this machine. "
            f"{_machine_line(compared['machine'])}; {_loads(compared)}.",
            "",
            compare_table(compared),
            "",
        ]
        out += [
            f"- `{b['name']}`: {NOTES[b['name']]}"
            for b in compared["benchmarks"]
            if b["name"] in NOTES and max(b["ratio"], b.get("cpu_ratio") or 0) > 1.05
        ]
        out += [""] if out[-1] != "" else []
    out += [
        "## Older runs",
        "",
        "This page was a lab notebook of every run until the runner; those runs, their",
        "figures and their notes are in git: `git log -p docs/benchmarks.md`. The long",
        "operational benchmarks (the web table under load, the soak, the cluster:",
        "`benchmarks/bench_web_load.py`, `bench_soak.py`, `bench_cluster.py`) are run by hand",
        "and are not on this page; their last figures are in that history too, and in",
        "docs/scaling.md.",
        "",
        "### The web table's CPU per action",
        "",
        "`bench_web_load.py` reports the server's CPU seconds during the measured play (the",
        "event loop apart from its other threads) and that CPU per action. On a shared",
        "machine the actions a second follow whatever else runs beside the server; its CPU",
        "per action much less, so two source trees are compared by it, side by side:",
        "`benchmarks/web_cpu_ab.py --tree base=OTHER/src --tree mine=src:--metrics --passes 3",
        "-- --players 100 --tables 20 --seconds 20` runs them alternately and prints each",
        "one's mean and spread. `--profile FILE` profiles the server's event loop over the",
        "measured seconds only, timing its CPU rather than the wall clock",
        "(`benchmarks/profile_server.py`); the profiler's overhead triples the CPU per",
        "action, so compare profiles with each other (calls per action are exact), not with",
        "plain runs.",
        "",
    ]
    return "\n".join(out)


def _read(path: Path) -> Result | None:
    return json.loads(path.read_text()) if path.exists() else None


def write_docs(latest: Path = LATEST, compared: Path = COMPARE, to: Path = DOCS) -> str:
    """Write ``to`` from the results files; returns its text."""
    text = docs(_read(latest), _read(compared))
    to.write_text(text)
    print(f"wrote {to}")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--compare",
        nargs="?",
        const=DEFAULT_BASE,
        metavar="REV",
        help=f"time side by side with REV (default {DEFAULT_BASE})",
    )
    ap.add_argument("--passes", type=int, default=3, help="timed passes per tree (--compare)")
    ap.add_argument("--docs", action="store_true", help="write docs/benchmarks.md and stop")
    ap.add_argument("-k", dest="select", help="only the benchmarks pytest's -k selects")
    args = ap.parse_args(argv)
    if args.docs:
        write_docs()
        return 0
    if shutil.which("git") is None:
        print("git is needed (the results name their commit)", file=sys.stderr)
        return 1
    start = time.perf_counter()
    if args.compare:
        compare(args.compare, args.passes, args.select)
    else:
        run(args.select)
    print(f"{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
