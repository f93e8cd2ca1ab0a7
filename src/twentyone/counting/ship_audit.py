"""Regenerate the audit pages: ``python -m twentyone.counting.ship_audit [PRESET ...]`` writes
``docs/audit/<preset>.md`` and, for all five, ``docs/audit/README.md`` with the headline table,
each with the counting simulation's cross-check (run from the repository root; a few
minutes a preset)."""

from __future__ import annotations

import sys
from pathlib import Path

from twentyone.counting.audit import audit
from twentyone.counting.audit_render import (
    HEADLINE_HEAD,
    NOTES,
    SIMULATED_HEAD,
    headline,
    render_md,
)
from twentyone.engine.rulesets import PRESETS, load_rules

BANKROLL = 2000.0
ROR = 0.05


#: Rounds the counting simulation plays for each headline spread (seed 1).
ROUNDS = 2_000_000


def headline_md(rows: list[list[str]]) -> str:
    """The page comparing the presets."""
    head = HEADLINE_HEAD + SIMULATED_HEAD
    out = [
        "# Countability audits",
        "",
        "What a Hi-Lo counter playing the Illustrious 18 can expect at each table, and what each "
        "house can expect from counters: the win per 100 rounds (in units of the table "
        "minimum) and SCORE of the DI-best ramp with a 1-8 and a 1-16 spread, and the spread "
        f"with the highest win rate whose risk of ruin of {BANKROLL:g} units is at most "
        f"{ROR:.0%}. Each table as it deals (its shuffle and cut card); the page of each table "
        "shows what another shuffle or cut card does. How the cards are dealt is the "
        "rulebook's own only at ru-online, and there ru.13 contradicts it; each page says what "
        "it assumes and what counting is worth if the other reading holds. The last two "
        "columns: the counting "
        f"simulation's win with the same ramps and I18, {ROUNDS:,} rounds each (seed 1), "
        "± its standard error.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out += ["", " ".join(f"[{r[0]}]({r[0]}.md)" for r in rows), "", NOTES, ""]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    """Audit the presets named (default: all, and write the README)."""
    root = Path.cwd() / "docs" / "audit"
    root.mkdir(parents=True, exist_ok=True)
    rows = []
    for preset in argv or list(PRESETS):
        print(preset, flush=True)
        report = audit(load_rules(preset), bankroll=BANKROLL, ror=ROR, rounds=ROUNDS)
        (root / f"{preset}.md").write_text(render_md(report), "utf-8")
        rows.append(headline(report))
    if not argv:
        (root / "README.md").write_text(headline_md(rows), "utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
