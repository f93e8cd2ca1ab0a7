"""The countability audit of a table (``twentyone audit``): what a Hi-Lo counter can expect
from it, and a house from counters.

Everything comes from the exact analysis, at the shoes a counter sees at each true count
(:mod:`twentyone.counting.index_gen`), weighed by how often each true count comes:

- **advantage by true count**: the round's exact return at the expected shoe of each true
  count, playing the full shoe's basic strategy (``ev_basic``), and with the Illustrious 18
  (``ev_i18``: basic strategy's return plus what each of the I18's deviations gains at that
  count, from the same shoes' exact returns), with the round's standard deviation;
- **how often each true count comes**: the running count after ``s`` cards of a shoe of
  ``N`` is a sum of the tags of a sample drawn without replacement, so its variance is
  ``s * S/52 * (N - s) / (N - 1)`` (``S``: the squared tags of a deck); the true count
  (running count over the decks left, floored to a whole number) is taken normal with that
  spread, and the rounds spread evenly over the dealt part of the shoe (0 to the cut card).
  A continuous shuffler deals every round from a shoe at a true count of 0;
- **a counter's results** for a ramp (units bet at each true count): average bet, return
  and standard deviation per round, win per 100 rounds, DI (1000 return / SD), SCORE (DI
  squared: the win per 100 rounds for a bankroll of 10,000 units bet at full Kelly), N0
  ((SD / return) squared rounds) and the risk of ruin of a bankroll of ``B`` units,
  ``exp(-2 * return * B / SD^2)``. The ramp for a 1-to-M spread is the one that maximizes DI
  among ``clamp(round(c * advantage / variance), 1, M)`` (the Kelly shape, whole units).

With ``rounds``, the headline spreads' figures are cross-checked by the counting simulation
(real shoes dealt to the cut card, the ramp and the generated I18: ``simulated``,
:mod:`twentyone.counting.audit_sim`).

The model (the true counts' law, a counter's figures, the record) is
:mod:`twentyone.counting.audit_model`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from twentyone.analysis import analyze
from twentyone.counting.audit_model import (
    PENETRATIONS,
    SPREADS,
    Audit,
    TcRow,
    best_at_ror,
    best_ramp,
    i18_gains,
    interpolate,
    tc_law,
)
from twentyone.counting.count_line import CountLine, count_line, default_decks_left
from twentyone.counting.index_gen import GeneratedIndex
from twentyone.counting.indices import index_list
from twentyone.engine.rules import Rules


@dataclass(frozen=True)
class TcCurve:
    """The exact figures along the true count, at the line's shoes: the round's return with
    basic strategy, its SD, and what each I18 entry's ``at_or_above`` play gains over its
    ``below`` play per round."""

    xs: tuple[float, ...]
    ev_basic: tuple[float, ...]
    sd: tuple[float, ...]
    gx: tuple[float, ...]
    gains: tuple[tuple[float, ...], ...]
    used: tuple[GeneratedIndex, ...]

    def row(self, tc: int, x: float) -> TcRow:
        """The row of the floored true count ``tc``, taken at the true count ``x``; the
        counter plays each I18 entry by ``tc``, basic strategy by the count 0."""
        x = max(min(x, self.xs[-1]), self.xs[0])
        basic = interpolate(list(self.xs), list(self.ev_basic), x)
        extra = 0.0
        for e, g in zip(self.used, self.gains, strict=True):
            d = interpolate(list(self.gx), list(g), x)
            plays_above = tc >= e.index
            basic_above = e.crossover <= 0.0
            if plays_above and not basic_above:
                extra += d
            elif basic_above and not plays_above:
                extra -= d
        return TcRow(tc, basic, basic + extra, interpolate(list(self.xs), list(self.sd), x))


def tc_curve(rules: Rules, line: CountLine) -> TcCurve:
    """:class:`TcCurve` from the exact analyses of the line's shoes (minutes)."""
    ks = line.steps(-12.0, 12.0)
    reps = [analyze(rules, shoe=line.shoe(k), outcomes=False) for k in ks]
    entries = list(index_list(rules, "hilo", decks_left=line.decks_left).entries)
    gx, gains, used = i18_gains(rules, line, entries)
    return TcCurve(
        tuple(k * line.tc_step for k in ks),
        tuple(r.ev_basic for r in reps),
        tuple(float(r.sd or 0.0) for r in reps),
        tuple(gx),
        tuple(tuple(g) for g in gains),
        tuple(used),
    )


def table_rows(curve: TcCurve, means: dict[int, float]) -> dict[int, TcRow]:
    """Each floored true count's row, taken at its mean true count at the table."""
    return {tc: curve.row(tc, x) for tc, x in means.items()}


def audit(
    rules: Rules,
    *,
    bankroll: float = 2000.0,
    ror: float = 0.05,
    curve: TcCurve | None = None,
    rounds: int = 0,
    seed: int = 1,
) -> Audit:
    """The audit of ``rules`` for a Hi-Lo counter playing the I18 (see the module's text);
    ``curve``: :func:`tc_curve` already computed; ``rounds``: simulate each headline spread
    that many rounds with ``seed`` (0: no simulation)."""
    from twentyone.counting.audit_sim import cross_check

    start = time.perf_counter()
    line = count_line("hilo", default_decks_left(rules))
    if curve is None:
        curve = tc_curve(rules, line)
    full = analyze(rules, outcomes=False)
    spread = float(line.spread)

    def at(pen: float) -> tuple[dict[int, float], dict[int, TcRow]]:
        freq, means = tc_law(rules.decks, pen, spread)
        rows = table_rows(curve, means)
        if pen <= 0.0:  # a continuous shuffler: every round from a full shoe
            rows[0] = TcRow(0, full.ev_basic, full.ev_basic, float(full.sd or 0.0))
        return freq, rows

    freq, rows = at(float(rules.penetration) if rules.shuffle == "cut-card" else 0.0)
    spreads = {m: best_ramp(freq, rows, m) for m in SPREADS}
    best = best_at_ror(freq, rows, bankroll, ror)
    shuffles = [("continuous shuffler", 0.0, best_ramp(*at(0.0), 8))]
    for p in PENETRATIONS:
        shuffles.append((f"cut card at {p}", float(p), best_ramp(*at(float(p)), 8)))
    return Audit(
        rules,
        line.decks_left,
        rows,
        freq,
        full.ev_basic,
        spreads,
        best,
        bankroll,
        ror,
        shuffles,
        time.perf_counter() - start,
        cross_check(rules, spreads, rounds, seed),
    )


def render(report: Audit, fmt: str) -> str:
    """The audit as Markdown, HTML or JSON (:mod:`twentyone.counting.audit_render`)."""
    from twentyone.counting.audit_render import render_audit

    return render_audit(report, fmt)
