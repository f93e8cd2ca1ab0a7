"""The basic-strategy charts shipped with the simulator (``src/twentyone/sim/charts``): one
JSON per rule set loaded by name whose chart the exact analysis derives, one box, written from
a run of :func:`twentyone.analysis.basic_strategy`. ``twentyone simulate`` plays them without
loading the exact analysis (a first run on an empty cache compiles only the simulator's
kernel); tests/test_shipped_charts.py checks each against a fresh derivation.

    .venv/bin/python tools/ship_charts.py
"""

from __future__ import annotations

import json
import sys

from twentyone.analysis import basic_strategy
from twentyone.engine.errors import TwentyOneError
from twentyone.engine.rulesets import SHIPPED, load_rules
from twentyone.sim.textbook import CHARTS_DIR


def main() -> int:
    CHARTS_DIR.mkdir(exist_ok=True)
    for name in SHIPPED:
        try:
            chart = basic_strategy(load_rules(name))
        except TwentyOneError as exc:  # a rule set the analysis does not price yet
            print(f"{name}: no chart ({exc})", file=sys.stderr)
            continue
        text = json.dumps(chart.to_dict(), indent=1, ensure_ascii=False) + "\n"
        (CHARTS_DIR / f"{name}.json").write_text(text, "utf-8")
        print(f"{name}: written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
