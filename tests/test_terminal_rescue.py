"""The terminal game at a table that redoubles and rescues: the doubled hand's menu offers
``d`` again and ``e`` rescue, and a rescue gives the doubles back (piped lines drive it)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from twentyone.engine.shoe import StackedShoe
from twentyone.terminal.game import play

RULES = """\
decks = 6
dealer_hits_soft_17 = true
double_after_hit = true
redoubles = 2
rescue = true
"""


def test_e_rescues_a_redoubled_hand(tmp_path: Path) -> None:
    # 5S 6D (11) against TH, hole 9C: d doubles (10.00), draws 2S: 13; d redoubles (20.00),
    # draws AS: 14; e rescues: 30.00 back, the original 10.00 lost
    rules = tmp_path / "s21-actions.toml"
    rules.write_text(RULES)
    out = io.StringIO()
    lines = ["10", "d", "d", "e", "q"]
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    shoe = StackedShoe("5S TH 6D 9C 2S AS")
    assert play(str(rules), stdin=stdin, stdout=out, shoe=shoe, color=False) == 0
    text = out.getvalue()
    assert "s stand · d double · e rescue" in text
    assert re.search(r"bet 40\.00\s+rescued\s+paid 30\.00 \(-10\.00\)", text)
    assert "lost 1 · pushed 0 · surrendered 1" in text  # a rescue is a surrender
    found = re.search(r"Net: ([+-]?[\d.,]+)", text)
    assert found is not None and found[1] == "-10.00"
