"""A chart for a game whose dealer shows both cards (Double Exposure, ``Rules.hole_card_up``):
the player's hand (hard total, soft total, pair) against the dealer's two-card total (hard 4
to 20, soft 12 to 20), and its exact return.

Each dealer two-card start has its own total-dependent chart
(:func:`~twentyone.analysis.basic.derive_column` over the full shoe less the dealer's two
cards, as :mod:`~twentyone.analysis.exposed`'s ``ev_basic`` plays it). The starts of one
dealer total (a hard 12: T-2, 9-3, 8-4, 7-5, 6-6) share a column here: each cell takes the
code the most probable share of them takes. The chart is then played exactly against every
start, split hands included (:func:`~twentyone.analysis.basic.played_options`).

>>> from twentyone import load_rules
>>> c = dealer_total_chart(load_rules("double-exposure"))
>>> c.columns[:3], c.code("hard", 16, "20"), c.code("hard", 16, "16")
(('4', '5', '6'), 'H', 'S')
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from twentyone.analysis.basic import (
    Derived,
    codes_column,
    derive_column,
    play_column,
    played_options,
)
from twentyone.analysis.caches import memo
from twentyone.analysis.context import Context
from twentyone.analysis.dealer import blackjack_card
from twentyone.analysis.exposed import dealer_blackjack_value, exposed_context
from twentyone.analysis.shoe_counts import ACE, IntArray
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import DEALER_TOTALS, HARD_TOTALS, SOFT_TOTALS, Strategy

#: The dealer's two-card totals, the chart's columns: hard 4 to 20, then soft 12 to 20 (an
#: ace and 1 to 9), each with its unordered starts (value indexes, 0 = ace).
COLUMNS: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    *(
        (str(t), tuple((a, t - 2 - a) for a in range(1, 10) if a <= t - 2 - a <= 9))
        for t in range(4, 21)
    ),
    *((f"A,{'A' if b == 0 else b + 1}", ((ACE, b),)) for b in range(0, 9)),
)


@dataclass(frozen=True)
class ExposedChart:
    """The chart by dealer total: ``hard[t]``, ``soft[t]``, ``pairs[v]`` (1 = ace) each a code
    per column of ``columns``; ``ev`` its exact return (per initial bet, one box)."""

    name: str
    columns: tuple[str, ...]
    hard: dict[int, tuple[str, ...]]
    soft: dict[int, tuple[str, ...]]
    pairs: dict[int, tuple[str, ...]]
    ev: float

    def code(self, kind: str, row: int, column: str) -> str:
        """The code of row ``row`` (a total, or a pair card 1-10) of ``kind`` (``hard``,
        ``soft``, ``pairs``) against dealer total ``column``."""
        table = {"hard": self.hard, "soft": self.soft, "pairs": self.pairs}[kind]
        return table[row][self.columns.index(column)]

    def text(self) -> str:
        """The chart as fixed-width text."""
        lines = [
            f"Double Exposure chart: {self.name} (the player's hand against the dealer's two "
            "cards' total)",
            "",
        ]
        head = "".join(f"{c:>4}" for c in self.columns)
        tables = (
            ("Hard", [(str(t), self.hard[t]) for t in reversed(HARD_TOTALS) if t >= 5]),
            ("Soft", [(f"A,{t - 11}", self.soft[t]) for t in reversed(SOFT_TOTALS) if t >= 13]),
            (
                "Pairs",
                [
                    ("A,A" if v == 1 else "T,T" if v == 10 else f"{v},{v}", self.pairs[v])
                    for v in (1, *range(10, 1, -1))
                ],
            ),
        )
        for name, rows in tables:
            lines.append(f"{name:<6}" + head)
            lines.extend(f"{label:<6}" + "".join(f"{c:>4}" for c in codes) for label, codes in rows)
            lines.append("")
        lines.append(f"Exact return of this chart: {100 * self.ev:+.4f}%")
        return "\n".join(lines) + "\n"

    def strategy(self) -> Strategy:
        """The chart as a :class:`~twentyone.engine.strategy.Strategy` by dealer total (its
        columns :data:`~twentyone.engine.strategy.DEALER_TOTALS`), as the engine and the
        simulator play it."""
        assert self.columns == DEALER_TOTALS
        return Strategy(
            name=f"{self.name}: by the dealer's two-card total",
            hard=self.hard,
            soft=self.soft,
            pairs=self.pairs,
            columns=self.columns,
        )

    def to_json(self) -> str:
        """The chart as JSON: name, columns, hard, soft, pairs (row -> codes), ev."""
        data = {
            "name": self.name,
            "columns": list(self.columns),
            "hard": {str(t): list(c) for t, c in self.hard.items()},
            "soft": {str(t): list(c) for t, c in self.soft.items()},
            "pairs": {str(v): list(c) for v, c in self.pairs.items()},
            "ev": self.ev,
        }
        return json.dumps(data, indent=1) + "\n"


def _start_weight(shoe: IntArray, a: int, b: int) -> float:
    """The chance of the unordered dealer start ``{a, b}`` (either card up)."""
    n = float(shoe.sum())
    if a == b:
        return float(shoe[a] * (shoe[a] - 1)) / (n * (n - 1.0))
    return 2.0 * float(shoe[a] * shoe[b]) / (n * (n - 1.0))


def _vote(codes: list[tuple[float, str]]) -> str:
    """The code with the largest summed weight (the first such in order of appearance)."""
    sums: dict[str, float] = {}
    for w, c in codes:
        sums[c] = sums.get(c, 0.0) + w
    return max(sums, key=lambda c: sums[c])


@memo(8)
def dealer_total_chart(rules: Rules, boxes: int = 1) -> ExposedChart:
    """The chart by dealer total of ``rules`` (``hole_card_up=True``) and its exact return."""
    ctx = exposed_context(rules, boxes)
    shoe = ctx.fresh()
    hard: dict[int, list[str]] = {t: [] for t in HARD_TOTALS}
    soft: dict[int, list[str]] = {t: [] for t in SOFT_TOTALS}
    pairs: dict[int, list[str]] = {v: [] for v in range(1, 11)}
    total = 0.0
    for _, starts in COLUMNS:
        live = [(a, b, _start_weight(shoe, a, b)) for a, b in starts]
        live = [(a, b, w) for a, b, w in live if w > 0]
        derived = [(w, derive_column(ctx.exposed(b).full(), a)) for a, b, w in live]
        codes = {key: _vote([(w, d.codes[key]) for w, d in derived]) for key in derived[0][1].codes}
        pair_codes = {p: _vote([(w, d.pairs[p]) for w, d in derived]) for p in range(10)}
        col = codes_column(codes, pair_codes)
        for t in HARD_TOTALS:
            hard[t].append(codes[(False, t)])
        for t in SOFT_TOTALS:
            soft[t].append(codes[(True, t)])
        for p in range(10):
            pairs[p + 1].append(pair_codes[p])
        for a, b, w in live:
            total += w * _column_return(ctx, a, b, col)
    for u in range(10):  # the dealer's blackjacks, either card up
        h = blackjack_card(u)
        if h >= 0 and shoe[u] > 0 and shoe[h] > 0:
            p = shoe[u] / float(shoe.sum()) * shoe[h] / float(shoe.sum() - 1)
            total += p * dealer_blackjack_value(ctx, u, h)
    return ExposedChart(
        rules.name,
        tuple(label for label, _ in COLUMNS),
        {t: tuple(c) for t, c in hard.items()},
        {t: tuple(c) for t, c in soft.items()},
        {v: tuple(c) for v, c in pairs.items()},
        float(total),
    )


def _column_return(ctx: Context, up: int, hole: int, col: Derived) -> float:
    """The chart column ``col`` played exactly against the start ``(up, hole)``."""
    known = ctx.exposed(hole)
    return play_column(known, up, col, played_options(known, up, col))[0]
