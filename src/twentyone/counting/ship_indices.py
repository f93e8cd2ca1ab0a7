"""Regenerate the shipped index lists and their pages: ``python -m
twentyone.counting.ship_indices [PRESET ...]`` writes ``counting/indices/<preset>-hilo.json``
and ``docs/indices/<preset>.md`` (run from the repository root; about a minute a preset)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from twentyone.counting.indices import IndexList, index_list, render_md, shipped_path
from twentyone.rulesets import PRESETS, load_rules


def ship(preset: str, root: Path) -> None:
    """Generate one preset's Hi-Lo list and write its JSON and page under ``root``."""
    rules = load_rules(preset)
    lst = index_list(rules, "hilo", shipped=False)
    lst = IndexList.from_json(lst.to_json())  # the page shows what the file holds
    data = root / "src" / "twentyone" / "counting" / "indices" / shipped_path(preset)
    data.write_text(json.dumps(lst.to_json(), indent=1) + "\n", "utf-8")
    page = root / "docs" / "indices" / f"{preset}.md"
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
