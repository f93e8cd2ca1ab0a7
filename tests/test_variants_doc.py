"""docs/variants.md is what tools/variants.py makes from a run: every edge of ours on the page is
the exact analysis's now (a change to the analysis that moves one fails here until the page is
regenerated)."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_variants_page_is_generated_from_a_run() -> None:
    tool = runpy.run_path(str(ROOT / "tools" / "variants.py"), run_name="variants")
    assert tool["render"]() == (ROOT / "docs" / "variants.md").read_text("utf-8")
