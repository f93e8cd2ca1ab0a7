"""Effects of removal: how the return moves when one card of each rank leaves the full shoe,
and how well the usual counting systems' tags follow it (their betting correlation).

``eor_optimal[r]`` is the change in the composition-dependent optimum's return, ``eor_basic[r]``
the change in the full shoe's basic strategy's return (the chart kept), both in units of the
initial bet, for ranks ``A 2 .. 9 T``. A system's betting correlation is the correlation of its
tags with ``eor_basic`` over the 52 cards of a deck (each ten-value rank counted apart), the
usual measure of how well the count's running total tracks the player's advantage.

>>> round(betting_correlation(TAGS["Hi-Lo"], TAGS["Hi-Lo"]), 12)
1.0
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twentyone.analysis.report import EdgeReport
from twentyone.analysis.shoe import RANKS
from twentyone.counting.counts import builtin_counts
from twentyone.engine.rules import Rules

#: Tags of the counting systems, by rank A, 2..9, T: read from the systems' TOML files
#: (:mod:`twentyone.counting.counts`, written once there). A rank whose colours count
#: differently (Red 7's sevens) has the mean of its colours' tags.
TAGS: dict[str, tuple[float, ...]] = {
    name: tuple(float(t) for t in system.rank_tags) for name, system in builtin_counts().items()
}

_PER_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)


def betting_correlation(tags: Sequence[float], eors: Sequence[float]) -> float:
    """Pearson correlation of ``tags`` with ``eors`` (by rank A, 2..9, T) over the cards of a
    deck (four of each rank, sixteen ten-value cards)."""
    n = sum(_PER_DECK)
    mt = sum(w * t for w, t in zip(_PER_DECK, tags, strict=True)) / n
    me = sum(w * e for w, e in zip(_PER_DECK, eors, strict=True)) / n
    cov = sum(w * (t - mt) * (e - me) for w, t, e in zip(_PER_DECK, tags, eors, strict=True))
    vt = sum(w * (t - mt) ** 2 for w, t in zip(_PER_DECK, tags, strict=True))
    ve = sum(w * (e - me) ** 2 for w, e in zip(_PER_DECK, eors, strict=True))
    return cov / math.sqrt(vt * ve) if vt > 0 and ve > 0 else 0.0


@dataclass(frozen=True)
class EorReport:
    """The effects of removal of one card of each rank (see the module's text)."""

    rules: str
    ev_basic: float
    ev_optimal: float
    eor_basic: dict[str, float]
    eor_optimal: dict[str, float]
    betting_correlation: dict[str, float]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The ``eor --json`` shape."""
        return {
            "rules": self.rules,
            "ev_basic": self.ev_basic,
            "ev_optimal": self.ev_optimal,
            "eor_basic": self.eor_basic,
            "eor_optimal": self.eor_optimal,
            "betting_correlation": self.betting_correlation,
            "tags": {k: dict(zip(RANKS, v, strict=True)) for k, v in TAGS.items()},
            "seconds": self.seconds,
        }


def effects_of_removal(rules: Rules, boxes: int = 1) -> EorReport:
    """Analyse the full shoe and the ten shoes one card short of it."""
    from twentyone.analysis import analyze

    start = time.perf_counter()
    full: EdgeReport = analyze(rules, boxes, outcomes=False)
    eb: dict[str, float] = {}
    eo: dict[str, float] = {}
    for v, rank in enumerate(RANKS):
        shoe = list(full.shoe)
        shoe[v] -= 1
        less = analyze(rules, boxes, shoe, outcomes=False)
        eb[rank] = less.ev_basic - full.ev_basic
        eo[rank] = less.ev_optimal - full.ev_optimal
    bc = {name: betting_correlation(tags, list(eb.values())) for name, tags in TAGS.items()}
    return EorReport(
        rules=rules.name,
        ev_basic=full.ev_basic,
        ev_optimal=full.ev_optimal,
        eor_basic=eb,
        eor_optimal=eo,
        betting_correlation=bc,
        seconds=time.perf_counter() - start,
    )
