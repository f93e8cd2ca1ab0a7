"""docs/rl.md's Q-learning section is what ``benchmarks/rl_docs.py --docs`` makes of the run
kept in benchmarks/results (issue 29, item 6): the figures are generated, not copied."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rl_docs() -> ModuleType:
    path = ROOT / "benchmarks" / "rl_docs.py"
    spec = importlib.util.spec_from_file_location("rl_docs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_section_is_the_results_in_git(rl_docs: ModuleType) -> None:
    page = rl_docs.DOCS.read_text()
    assert rl_docs.BEGIN in page and rl_docs.END in page
    assert rl_docs.with_section(page, rl_docs.section(rl_docs.load())) == page
    assert rl_docs.CURVE.exists()


def test_the_section_follows_the_results(rl_docs: ModuleType) -> None:
    data = rl_docs.load()
    text = rl_docs.section(data)
    assert f"made by `{data['command']}`" in text
    assert "`python benchmarks/rl_docs.py --docs`" in text
    other = copy.deepcopy(data)
    other["summary"]["ev_loss"]["mean_ev_loss_per_round"] = 0.01234
    other["summary"]["training_steps"] = 100_000_000
    changed = rl_docs.section(other)
    assert "| 1.234% ± " in changed and "Q-learning, greedy, 100 M steps" in changed
    page = "head\n" + rl_docs.BEGIN + "\nold\n" + rl_docs.END + "\ntail\n"
    assert rl_docs.with_section(page, "new\n") == (
        "head\n" + rl_docs.BEGIN + "\nnew\n" + rl_docs.END + "\ntail\n"
    )
