"""The web fast paths against the frameworks' public APIs (issue 26, item 8): the table of
docs/scaling.md's section "Web fast paths against the public APIs", made from the runs kept
in ``benchmarks/results/2026-12-03-web-fastpaths.json``.

Each comparison runs two source trees alternately in one sitting with
``benchmarks/bench_web_load.py --players 500 --tables 100`` (5 s warm-up, 30 s measured,
SQLite); the results file names the trees. The rule: B may replace A when B's p99 stays
under 100 ms in every pass and its rounds a second and p99 (means over the passes) stay
within 10% of A's, with the money check passing everywhere.

Usage::

    python benchmarks/web_fastpaths.py            # print the section's table
    python benchmarks/web_fastpaths.py --docs     # write it into docs/scaling.md
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "2026-12-03-web-fastpaths.json"
DOCS = ROOT / "docs" / "scaling.md"
BEGIN = "<!-- web-fastpaths: made by `python benchmarks/web_fastpaths.py --docs` -->"
END = "<!-- web-fastpaths: end -->"
#: B may be this much slower than A (rounds a second down, p99 up), and its p99 under the
#: bound, for the public API to replace the fast path.
TOLERANCE, P99_BOUND_MS = 0.10, 100.0


def _mean(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.fmean(r[key] for r in runs)


def verdict(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """The means of A's and B's passes, B's ratios to A, and whether B keeps to the rule."""
    out: dict[str, Any] = {}
    for key in ("rounds_s", "p50_ms", "p99_ms"):
        out[key] = (_mean(a, key), _mean(b, key))
    rounds_ratio = out["rounds_s"][1] / out["rounds_s"][0]
    p99_ratio = out["p99_ms"][1] / out["p99_ms"][0]
    out["rounds_ratio"], out["p99_ratio"] = rounds_ratio, p99_ratio
    out["b_worst_p99"] = max(r["p99_ms"] for r in b)
    out["within"] = (
        out["b_worst_p99"] < P99_BOUND_MS
        and rounds_ratio >= 1 - TOLERANCE
        and p99_ratio <= 1 + TOLERANCE
        and all(r["money_ok"] for r in a + b)
    )
    return out


def _runs_of(runs: list[dict[str, Any]], c: dict[str, Any], variant: str) -> list[dict[str, Any]]:
    return [
        r
        for r in runs
        if (r["sitting"], r["experiment"], r["variant"]) == (c["sitting"], c["experiment"], variant)
    ]


def table(data: dict[str, Any]) -> str:
    """The section's Markdown: each comparison's means and verdict, then every run."""
    runs = data["runs"]
    lines = [
        "| sitting | A | B | passes | rounds/s A → B (B/A) | p50 ms A → B | p99 ms A → B (B/A) "
        "| worst p99 of B | B within the rule |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c in data["comparisons"]:
        a, b = _runs_of(runs, c, c["a"]), _runs_of(runs, c, c["b"])
        v = verdict(a, b)
        lines.append(
            f"| {c['sitting']} | {c['a']}: {c['a_is']} | {c['b']}: {c['b_is']} | "
            f"{len(a)} + {len(b)} | "
            f"{v['rounds_s'][0]:.1f} → {v['rounds_s'][1]:.1f} ({v['rounds_ratio']:.2f}) | "
            f"{v['p50_ms'][0]:.1f} → {v['p50_ms'][1]:.1f} | "
            f"{v['p99_ms'][0]:.1f} → {v['p99_ms'][1]:.1f} ({v['p99_ratio']:.2f}) | "
            f"{v['b_worst_p99']:.1f} | {'yes' if v['within'] else 'no'} |"
        )
    lines += [
        "",
        "| sitting | experiment | variant | pass | ended | rounds/s | actions/s | p50 ms "
        "| p99 ms | server CPU s | money check |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        lines.append(
            f"| {r['sitting']} | {r['experiment']} | {r['variant']} | {r['pass']} | "
            f"{r['ended']} | {r['rounds_s']:.1f} | {r['actions_s']:.1f} | {r['p50_ms']:.1f} | "
            f"{r['p99_ms']:.1f} | {r['server_cpu_s']:.1f} | "
            f"{'OK' if r['money_ok'] else 'FAILED'} |"
        )
    return "\n".join(lines) + "\n"


def with_table(page: str, text: str) -> str:
    """``page`` with the text between the markers replaced by ``text``."""
    head, rest = page.split(BEGIN + "\n", 1)
    _old, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + text + END + tail


def load(path: Path = RESULTS) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", action="store_true", help=f"write the table into {DOCS.name}")
    args = ap.parse_args(argv)
    text = table(load())
    if args.docs:
        DOCS.write_text(with_table(DOCS.read_text(), text))
        print(f"wrote {DOCS}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
