"""The runs of benchmarks/bench_soak.py (``--database``, ``--pg-synchronous-commit``,
``--repeat``) and their summary: each run's steady p99, PostgreSQL's over SQLite's of the same
repetition, the medians over the repetitions."""

from __future__ import annotations

import argparse
import statistics
from typing import Any


def planned_runs(args: argparse.Namespace) -> list[tuple[int, str, str]]:
    """(repetition, database, synchronous_commit) of each run, in order: per repetition
    SQLite first, then PostgreSQL with each setting asked for, in turns.

    >>> a = argparse.Namespace(database="both", pg_synchronous_commit="both", repeat=2)
    >>> planned_runs(a)  # doctest: +NORMALIZE_WHITESPACE
    [(1, 'sqlite', 'on'), (1, 'postgres', 'on'), (1, 'postgres', 'off'),
     (2, 'sqlite', 'on'), (2, 'postgres', 'off'), (2, 'postgres', 'on')]
    """
    kinds = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    asked = ["on", "off"] if args.pg_synchronous_commit == "both" else [args.pg_synchronous_commit]
    runs = []
    for rep in range(1, args.repeat + 1):
        settings = asked if rep % 2 else asked[::-1]
        for kind in kinds:
            for setting in settings if kind == "postgres" else ["on"]:
                runs.append((rep, kind, setting))
    return runs


def summary(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Each run's steady p99 (ms) by repetition, PostgreSQL's over SQLite's of the same
    repetition, and the medians over the repetitions.

    >>> runs = [{"repetition": 1, "database": "sqlite", "pg_synchronous_commit": None,
    ...          "steady_latency_ms": {"p99": 4.0}},
    ...         {"repetition": 1, "database": "postgresql", "pg_synchronous_commit": "off",
    ...          "steady_latency_ms": {"p99": 6.0}}]
    >>> summary(runs)["by_repetition"]
    [{'repetition': 1, 'sqlite_p99_ms': 4.0, 'postgresql_off_p99_ms': 6.0, 'ratio_off': 1.5}]
    """
    reps: dict[int, dict[str, Any]] = {}
    for r in reports:
        row = reps.setdefault(r["repetition"], {"repetition": r["repetition"]})
        p99 = r["steady_latency_ms"]["p99"]
        if r["database"] == "sqlite":
            row["sqlite_p99_ms"] = p99
        else:
            row[f"postgresql_{r['pg_synchronous_commit']}_p99_ms"] = p99
    for row in reps.values():
        base = row.get("sqlite_p99_ms")
        for key in [k for k in row if k.startswith("postgresql_")]:
            if base:
                row["ratio_" + key.split("_")[1]] = round(row[key] / base, 2)
    rows = [reps[k] for k in sorted(reps)]
    keys = sorted({k for row in rows for k in row if k != "repetition"})
    medians = {k: round(statistics.median(row[k] for row in rows if k in row), 2) for k in keys}
    return {"by_repetition": rows, "median": medians}


def print_summary(found: dict[str, Any]) -> None:
    """The summary's lines: steady p99 per run and the ratios."""
    print("== steady p99 (ms) by repetition; ratio: PostgreSQL over SQLite of the repetition")
    for row in [*found["by_repetition"], {"repetition": "median", **found["median"]}]:
        print("  " + ", ".join(f"{k} {v}" for k, v in row.items()))
