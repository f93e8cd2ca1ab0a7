"""docs/scaling.md's "Web fast paths against the public APIs" is what
``benchmarks/web_fastpaths.py --docs`` makes of the runs kept in benchmarks/results, and its
rule (issue 26, item 8) on small made-up runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def fastpaths() -> ModuleType:
    path = ROOT / "benchmarks" / "web_fastpaths.py"
    spec = importlib.util.spec_from_file_location("web_fastpaths", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _runs(rounds_s: float, p99_ms: float) -> list[dict[str, Any]]:
    """Two passes of one tree."""
    one = {"rounds_s": rounds_s, "p50_ms": p99_ms / 2, "p99_ms": p99_ms, "money_ok": True}
    return [dict(one), dict(one)]


def test_the_rule(fastpaths: ModuleType) -> None:
    def within(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
        return bool(fastpaths.verdict(a, b)["within"])

    assert within(_runs(200, 70), _runs(185, 75))
    assert not within(_runs(200, 70), _runs(179, 70))  # 10.5% fewer rounds a second
    assert not within(_runs(200, 70), _runs(200, 78))  # p99 11% longer
    assert not within(_runs(200, 95), _runs(200, 101))  # p99 over 100 ms
    lost = _runs(200, 70)
    lost[1]["money_ok"] = False
    assert not within(_runs(200, 70), lost)


def test_the_section_is_the_results_in_git(fastpaths: ModuleType) -> None:
    page = fastpaths.DOCS.read_text()
    assert fastpaths.with_table(page, fastpaths.table(fastpaths.load())) == page
    for run in fastpaths.load()["runs"]:
        assert (run["players"], run["tables"]) == (500, 100)
