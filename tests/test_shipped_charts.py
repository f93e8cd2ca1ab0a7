"""The simulator's shipped basic-strategy charts (src/twentyone/sim/charts, written by
tools/ship_charts.py) are what the exact analysis derives now, and ``simulate`` plays them
without loading the exact analysis (a first run compiles only its own kernel)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from twentyone.engine.rulesets import SHIPPED, load_rules
from twentyone.sim.textbook import CHARTS_DIR, chart_for, shipped_chart


@pytest.mark.parametrize("name", sorted(p.stem for p in CHARTS_DIR.glob("*.json")))
def test_a_shipped_chart_is_the_analysis_chart(name: str) -> None:
    from twentyone.analysis import basic_strategy

    rules = load_rules(name)
    assert shipped_chart(rules) == basic_strategy(rules)


def test_every_rule_set_the_analysis_charts_has_its_chart_shipped() -> None:
    from twentyone.analysis import basic_strategy
    from twentyone.engine.errors import TwentyOneError

    for name in SHIPPED:
        try:
            basic_strategy(load_rules(name))
        except TwentyOneError:
            assert not (CHARTS_DIR / f"{name}.json").exists(), name
            continue
        assert (CHARTS_DIR / f"{name}.json").is_file(), f"{name}: run tools/ship_charts.py"


def test_a_changed_rule_set_or_more_boxes_get_no_shipped_chart() -> None:
    ro = load_rules("ro-casino")
    assert shipped_chart(ro) is not None
    assert shipped_chart(ro.replace(dealer_hits_soft_17=True)) is None
    assert shipped_chart(ro, boxes=2) is None
    assert shipped_chart(load_rules("6D S17")) is None


def test_simulate_plays_a_shipped_chart_without_the_exact_analysis() -> None:
    code = (
        "import sys\n"
        "from twentyone import load_rules\n"
        "from twentyone.sim.textbook import chart_for\n"
        "chart, note = chart_for(load_rules('ru-online'))\n"
        "print(note is None, chart.name, 'twentyone.analysis' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "ru-online", "False"]
    assert chart_for(load_rules("ru-online"))[1] is None
