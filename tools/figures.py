"""Every figure a refactor must keep to the bit, as one JSON: exact edges and their
distributions (presets and shorthand), advise, basic-strategy charts, seeded simulations and
replays of the example hand histories. Imports only names that did not move, so the same
script runs against an older checkout (``PYTHONPATH=<checkout>/src python tools/figures.py``);
``diff`` the two outputs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from twentyone import load_rules, replay
from twentyone.analysis import analyze, basic_strategy, shoe_of
from twentyone.analysis.advise import advise
from twentyone.sim.runner import simulate

RULES = [
    "ro-casino", "pl-online", "pt-casino", "hu-casino", "ru-online",
    "6D S17 DAS SPL1 NS", "6D S17 DAS SPL3 LS", "1D H17 DAS SPL3 RSA ENHC", "8D D9 NDAS H17",
    "2D HSA D10 SPL3 DAS RSA H17 BJ6:5", "6D OBO ES SPL3",
]  # fmt: skip


def main() -> None:
    out: dict[str, object] = {}
    for spec in RULES:
        rules = load_rules(spec)
        data = analyze(rules).to_json()
        data.pop("seconds", None)
        out[f"edge {spec}"] = data
        depleted = analyze(rules, shoe=shoe_of(rules, remove="5 5 6 T T"), outcomes=False)
        d = depleted.to_json()
        d.pop("seconds", None)
        out[f"edge {spec} depleted"] = d
        out[f"chart {spec}"] = basic_strategy(rules).to_dict()
        advice = advise(rules, "T 6", "T")
        out[f"advise {spec}"] = [advice.returns, advice.best, advice.insurance]
        sim = simulate(rules, 200_000, seed=7, workers=1)
        out[f"sim {spec}"] = [sim.ev, sim.sd]
    examples = Path(__file__).resolve().parents[1] / "examples"
    for path in sorted(examples.glob("*.json")):
        if path.name.startswith("error-"):
            continue
        out[f"replay {path.name}"] = replay(json.loads(path.read_text()))
    json.dump(out, sys.stdout, indent=1, sort_keys=True, default=repr)


if __name__ == "__main__":
    main()
