"""docs/rl.md's Q-learning figures from a run (issue 29, item 6): the table of returns and
``ev_loss``, the sentences that quote them, and ``docs/rl-learning-curve.png``, all made from
the run kept in ``benchmarks/results/rl-q-learning.json``.

``--run`` trains ``examples/rl/q_learning.py`` (its options after ``--``; the defaults are the
example's: 400 M steps, seed 1), keeps its JSON summary with the command, the commit, the
machine and the time it took, then writes the docs from it. ``--docs`` writes them from the
kept run without training. ``tests/test_rl_docs.py`` checks that the section in git is what
this script makes of the results in git.

Usage::

    python benchmarks/rl_docs.py --run                    # train (minutes), keep, write docs
    python benchmarks/rl_docs.py --run -- --steps 100e6   # a smaller run
    python benchmarks/rl_docs.py --docs                   # docs/rl.md and the PNG, kept run
    python benchmarks/rl_docs.py                          # print the section
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "rl" / "q_learning.py"
RESULTS = ROOT / "benchmarks" / "results" / "rl-q-learning.json"
DOCS = ROOT / "docs" / "rl.md"
CURVE = ROOT / "docs" / "rl-learning-curve.png"
BEGIN = "<!-- rl-q-learning: made by `python benchmarks/rl_docs.py --docs` -->"
END = "<!-- rl-q-learning: end -->"


def _git(*args: str) -> str:
    out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def _load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run(example_args: list[str]) -> dict[str, Any]:
    """Train with ``example_args`` and return the results file's content."""
    from twentyone.analysis import analyze

    exact = analyze("ru-online", outcomes=False).to_json()
    started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    loads = [_load_average()]
    sha = _git("rev-parse", "HEAD")  # the tree that trains, before anything else moves
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "summary.json"
        cmd = [sys.executable, str(EXAMPLE), *example_args, "--json", str(out)]
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True)
        seconds = time.perf_counter() - t0
        summary = json.loads(out.read_text())
    loads.append(_load_average())
    return {
        "command": " ".join(
            ["python benchmarks/rl_docs.py --run", *(["--"] if example_args else []), *example_args]
        ),
        "date": started,
        "commit": sha[:7],
        "dirty": dirty,
        "machine": f"{_cpu()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "load_average": loads,
        "seconds": round(seconds, 1),
        "exact_basic_return": exact["ev_basic"],
        "summary": summary,
    }


def _pct(x: float, digits: int = 3) -> str:
    return f"{100 * x:.{digits}f}%".replace("-", "−")


def _millions(steps: float) -> str:
    m = steps / 1e6
    return f"{round(m):,} M" if m >= 1 else f"{m:.2g} M"


def section(data: dict[str, Any]) -> str:
    """The Markdown between the markers: how the run was made, its table and what it says."""
    s = data["summary"]
    agent, basic = s["ev_loss"], s["basic_strategy_ev_loss"]
    curve = s["curve"]
    gap = s["gap"]
    gap_se = (s["agent_se"] ** 2 + s["basic_strategy_se"] ** 2) ** 0.5
    diff = agent["mean_ev_loss_per_round"] - basic["mean_ev_loss_per_round"]
    diff_se = (agent["se_ev_loss_per_round"] ** 2 + basic["se_ev_loss_per_round"] ** 2) ** 0.5
    loads = [x for x in data["load_average"] if x is not None]
    load = f"1-minute load average {min(loads)} to {max(loads)}" if loads else "load unknown"
    lines = [
        f"One run, made by `{data['command']}` (seed {s['seed']}, "
        f"{_millions(s['training_steps'])} training steps; {data['seconds']:.0f} s in all, "
        f"training, checkpoints and scoring, on {data['machine']}, {load}; commit "
        f"`{data['commit']}`{' with local changes' if data['dirty'] else ''}, "
        f"{data['date'][:10]}). "
        "The same seed gives the same numbers. The figures below and the curve above are "
        "written from its results (`benchmarks/results/rl-q-learning.json`) by "
        "`python benchmarks/rl_docs.py --docs`; `ev_loss` is scored over the real remaining "
        "shoe.",
        "",
        f"| | return over {_rounds(s['eval_rounds'])} rounds "
        f"| `ev_loss` per round ({agent['rounds']:,} rounds) | `ev_loss` per decision "
        "| decisions that gave up anything |",
        "|---|---|---|---|---|",
        f"| Q-learning, greedy, {_millions(s['training_steps'])} steps "
        f"| {_pct(s['agent_return'])} ± {_pct(s['agent_se'])} "
        f"| {_pct(agent['mean_ev_loss_per_round'])} ± {_pct(agent['se_ev_loss_per_round'])} "
        f"| {_pct(agent['mean_ev_loss_per_decision'])} "
        f"| {_pct(agent['share_of_decisions_with_loss'], 1)} |",
        f"| basic strategy (the chart) "
        f"| {_pct(s['basic_strategy_return'])} ± {_pct(s['basic_strategy_se'])} "
        f"| {_pct(basic['mean_ev_loss_per_round'])} ± {_pct(basic['se_ev_loss_per_round'])} "
        f"| {_pct(basic['mean_ev_loss_per_decision'])} "
        f"| {_pct(basic['share_of_decisions_with_loss'], 1)} |",
        "",
        f"(± one standard error.) Over the rounds played the agent returned {_pct(gap)} ± "
        f"{_pct(gap_se)} less than basic strategy; by the exact score, which has no luck in "
        f"it, it gave up {_pct(diff)} ± {_pct(diff_se)} more per round. The curve's right "
        f"panel (each point scored on {s['curve_ev_rounds']:,} rounds) shows that score "
        f"going from {_pct(curve[0]['ev_loss_per_round'])} per round after "
        f"{_millions(curve[0]['steps'])} steps to {_pct(curve[-1]['ev_loss_per_round'])} after "
        f"{_millions(curve[-1]['steps'])}."
        + _largest(" The agent's largest losses per round", agent)
        + " Basic strategy's own `ev_loss` is what a total-dependent chart gives up against "
        "the best play for the cards left in the shoe, which it cannot see (index plays win "
        "some of it back)" + _largest("; its largest", basic, 3),
    ]
    if data.get("exact_basic_return") is not None:
        z = (s["basic_strategy_return"] - data["exact_basic_return"]) / s["basic_strategy_se"]
        lines += [
            "",
            "The basic strategy's return over the rounds played "
            f"({_pct(s['basic_strategy_return'])}) and the analysis's fresh-shoe figure "
            f"({_pct(data['exact_basic_return'])}, `twentyone edge ru-online`) differ by "
            f"{abs(z):.1f} standard errors; they measure slightly different games: the "
            "environment deals a real cut-card shoe (ru.1, two thirds), the analysis a fresh "
            "shoe every round.",
        ]
    return "\n".join(_wrap(line) for line in lines) + "\n"


def _largest(head: str, scored: dict[str, Any], n: int = 4) -> str:
    """``head`` and the ``n`` decisions that gave up the most per round, or a full stop."""
    top = list(scored["largest_losses_per_round"].items())[:n]
    if not top:
        return "."
    of = _pct(scored["mean_ev_loss_per_round"])
    return f"{head} (of {of}): " + "; ".join(f"{k} ({_pct(v)})" for k, v in top) + "."


def _rounds(n: float) -> str:
    return f"{n / 1e6:g} M" if n >= 1e6 else f"{int(n):,}"


def _wrap(line: str, width: int = 96) -> str:
    """Paragraphs wrapped as the docs are; table rows and blank lines as they are."""
    if not line or line.startswith("|"):
        return line
    out, current = [], ""
    for word in line.split(" "):
        if current and len(current) + 1 + len(word) > width:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    out.append(current)
    return "\n".join(out)


def with_section(page: str, text: str) -> str:
    """``page`` with the text between the markers replaced by ``text``."""
    head, rest = page.split(BEGIN + "\n", 1)
    _old, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + text + END + tail


def load(path: Path = RESULTS) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("q_learning", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_docs(data: dict[str, Any]) -> None:
    DOCS.write_text(with_section(DOCS.read_text(), section(data)))
    print(f"wrote {DOCS.relative_to(ROOT)}")
    s = data["summary"]
    _example().plot(s["curve"], s["basic_strategy_return"], s["basic_strategy_se"], s, str(CURVE))
    print(f"wrote {CURVE.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    example_args: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, example_args = argv[:i], argv[i + 1 :]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true", help="train, keep the results, write the docs")
    ap.add_argument("--docs", action="store_true", help=f"write {DOCS.name} and the curve")
    args = ap.parse_args(argv)
    if args.run:
        data = run(example_args)
        RESULTS.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {RESULTS.relative_to(ROOT)}")
        write_docs(data)
    elif args.docs:
        write_docs(load())
    else:
        sys.stdout.write(section(load()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
