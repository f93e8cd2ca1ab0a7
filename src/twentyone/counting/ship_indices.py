"""Regenerate the shipped index lists and their pages: ``python -m
twentyone.counting.ship_indices [PRESET ...]`` writes ``counting/indices/<preset>-hilo.json``
and ``docs/indices/<preset>.md``, and the risk-averse list beside them
(``<preset>-hilo-risk-averse.json``, ``docs/indices/<preset>-risk-averse.md``); run from the
repository root, a minute or two a preset."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from twentyone.counting.indices import METHODS, IndexList, render_md, shipped_path
from twentyone.engine.rulesets import PRESETS, load_rules


def ship(preset: str, root: Path) -> None:
    """Generate one preset's Hi-Lo lists (ev and risk-averse, from the same shoes' analyses)
    and write their JSON and pages under ``root``."""
    from twentyone.counting.count_line import count_line, default_decks_left
    from twentyone.counting.indices import generated_indices

    rules = load_rules(preset)
    dl = count_line("hilo", default_decks_left(rules)).decks_left
    for method in METHODS:
        lst = generated_indices(rules, "hilo", dl, None, method, True)
        lst = IndexList.from_json(lst.to_json())  # the page shows what the file holds
        name = shipped_path(preset, method=method)
        data = root / "src" / "twentyone" / "counting" / "indices" / name
        data.write_text(json.dumps(lst.to_json(), indent=1) + "\n", "utf-8")
        page = root / "docs" / "indices" / (name.replace("-hilo", "").replace(".json", ".md"))
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(render_md(lst), "utf-8")


def main(argv: list[str]) -> int:
    """Ship the presets named (default: all)."""
    for preset in argv or sorted(PRESETS):
        print(preset, flush=True)
        ship(preset, Path.cwd())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
