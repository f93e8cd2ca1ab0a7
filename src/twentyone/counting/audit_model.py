"""The countability audit's model (:mod:`twentyone.counting.audit`): how often each true count
comes, a counter's figures for a ramp, the best ramps, and the audit's record, which the
renderer (:mod:`~twentyone.counting.audit_render`) and the simulated cross-check
(:mod:`~twentyone.counting.audit_sim`) read.

>>> round(tc_frequencies(6, 0.75, 40)[0], 2)  # true count 0 (0 <= tc < 1) at 6 decks, 3/4
0.26
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from twentyone.counting.count_line import CountLine
from twentyone.counting.index_gen import GeneratedIndex, sample_returns_weighted
from twentyone.counting.indices import named_decisions
from twentyone.engine.rules import Rules

TC_LO, TC_HI = -20, 20
SHOWN = range(-5, 11)
SPREADS = (8, 16)
PENETRATIONS = (Fraction(1, 2), Fraction(2, 3), Fraction(3, 4), Fraction(5, 6))


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def tc_law(
    decks: int, pen: float, spread: float, points: int = 400, unit: float = 1.0
) -> tuple[dict[int, float], dict[int, float]]:
    """How often each floored true count comes (``TC_LO``..``TC_HI``, the tails folded into
    the ends) for a shoe of ``decks`` dealt to ``pen`` (0: a continuous shuffler), a count
    whose squared tags sum to ``spread`` over a deck and whose running count moves in steps
    of ``unit`` (the normal law with a continuity correction: the running count is whole);
    second, the mean true count within each."""
    freq = dict.fromkeys(range(TC_LO, TC_HI + 1), 0.0)
    total = dict.fromkeys(range(TC_LO, TC_HI + 1), 0.0)
    if pen <= 0.0:
        freq[0] = 1.0
        return freq, {tc: (0.0 if tc == 0 else tc + 0.5) for tc in freq}
    n = 52.0 * decks
    var_card = spread / 52.0
    for j in range(points):
        s = (j + 0.5) / points * pen * n
        sd_rc = math.sqrt(s * var_card * (n - s) / (n - 1.0))
        left = (n - s) / 52.0
        prev, prev_pdf = 0.0, 0.0
        for tc in range(TC_LO, TC_HI + 1):
            # floor(rc / left) <= tc  <=>  rc < (tc + 1) * left: the last step below it
            edge = math.ceil((tc + 1) * left / unit - 1e-9) * unit - unit / 2.0
            z = edge / sd_rc
            cdf = 1.0 if tc == TC_HI else _phi(z)
            pdf = 0.0 if tc == TC_HI else math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
            freq[tc] += (cdf - prev) / points
            total[tc] += sd_rc * (prev_pdf - pdf) / left / points  # E[tc; this count]
            prev, prev_pdf = cdf, pdf
    means = {tc: (total[tc] / f if f > 1e-12 else tc + 0.5) for tc, f in freq.items()}
    return freq, {tc: min(max(m, tc), tc + 1.0) for tc, m in means.items()}


def tc_frequencies(
    decks: int, pen: float, spread: float, points: int = 400, unit: float = 1.0
) -> dict[int, float]:
    """The frequencies of :func:`tc_law`."""
    return tc_law(decks, pen, spread, points, unit)[0]


def interpolate(xs: list[float], ys: list[float], x: float) -> float:
    if x <= xs[0]:
        i = 0
    elif x >= xs[-1]:
        i = len(xs) - 2
    else:
        i = max(j for j in range(len(xs) - 1) if xs[j] <= x)
    t = (x - xs[i]) / (xs[i + 1] - xs[i])
    return ys[i] + t * (ys[i + 1] - ys[i])


@dataclass(frozen=True)
class TcRow:
    """One true count: the round's return with basic strategy and with the I18, its SD."""

    tc: int
    ev_basic: float
    ev_i18: float
    sd: float


def i18_gains(
    rules: Rules, line: CountLine, entries: list[GeneratedIndex]
) -> tuple[list[float], list[list[float]], list[GeneratedIndex]]:
    """Per I18 entry, at each sample's true count: the return of its ``at_or_above`` play
    less its ``below`` play, per round (times the chance of the hand and the up card; a
    stand-or-hit entry over every hand that reaches its total)."""
    used = [e for e in entries if any(d.matches(e) for d in named_decisions("I18"))]
    samples = sample_returns_weighted(rules, line, None, frozenset((e.up, e.hand) for e in used))
    xs: list[float] = []
    rows: list[list[float]] = []
    for e in used:
        per = samples[e.up]
        xs = [tc for tc, _, _ in per]
        row = []
        for tc, ret, w in per:
            shoe = line.shoe(round(tc / line.tc_step))
            n = float(sum(shoe))
            u = "A23456789T".index(e.up)
            p_up = shoe[u] / n
            r = ret.get(e.hand, {})
            if e.hand == "insurance":
                row.append(p_up * 0.5 * (r["insure"] - r["no-insurance"]))
                continue
            if e.at_or_above not in r or e.below not in r:
                row.append(0.0)
                continue
            keep = 1.0
            if rules.hole_card and rules.peek and e.up in ("A", "T"):
                keep = 1.0 - shoe[9 if e.up == "A" else 0] / (n - 1.0)
            pre = ""  # a stand-or-hit entry plays every hand that reaches the total
            if {e.below, e.at_or_above} == {"hit", "stand"} and "any:stand" in r:
                pre = "any:"
            gain = r[pre + e.at_or_above] - r[pre + e.below]
            row.append(p_up * w[pre + e.hand] * keep * gain)
        rows.append(row)
    return xs, rows, used


@dataclass(frozen=True)
class Ramp:
    """Units bet at each floored true count (the lowest bet below the first)."""

    units: dict[int, int]

    def at(self, tc: int) -> int:
        return self.units[tc]

    def text(self) -> str:
        """The ramp as ``tc:units`` pairs (``simulate --ramp``'s form): the lowest bet from
        the count below the first raise, then each raise.

        >>> Ramp({-1: 1, 0: 1, 1: 1, 2: 2, 3: 4}).text()
        '1:1 2:2 3:4'
        >>> Ramp({-1: 1, 0: 1}).text()
        '0:1'
        """
        tcs = sorted(self.units)
        low = self.units[tcs[0]]
        raises = [tc for tc in tcs if self.units[tc] != low]
        if not raises:
            return f"0:{low}"
        out, last = [f"{raises[0] - 1}:{low}"], low
        for tc in tcs:
            if tc >= raises[0] and self.units[tc] != last:
                out.append(f"{tc}:{self.units[tc]}")
                last = self.units[tc]
        return " ".join(out)


@dataclass(frozen=True)
class CounterResult:
    """A counter's figures per round, in betting units (see the module's text)."""

    ramp: Ramp
    avg_bet: float
    ev: float
    sd: float

    @property
    def win_per_100(self) -> float:
        return 100.0 * self.ev

    @property
    def di(self) -> float:
        return 1000.0 * self.ev / self.sd if self.sd > 0 else 0.0

    @property
    def score(self) -> float:
        return self.di * self.di if self.ev > 0 else 0.0

    @property
    def n0(self) -> float | None:
        return (self.sd / self.ev) ** 2 if self.ev > 0 else None

    def ror(self, bankroll: float) -> float:
        """Risk of ruin of ``bankroll`` units (diffusion formula)."""
        if self.ev <= 0:
            return 1.0
        return math.exp(-2.0 * self.ev * bankroll / (self.sd * self.sd))

    def to_json(self, bankroll: float) -> dict[str, Any]:
        return {
            "ramp": self.ramp.text(),
            "avg_bet": self.avg_bet,
            "ev_per_round": self.ev,
            "sd_per_round": self.sd,
            "win_per_100": self.win_per_100,
            "di": self.di,
            "score": self.score,
            "n0": self.n0,
            "ror": self.ror(bankroll),
        }


def counter(freq: dict[int, float], rows: dict[int, TcRow], ramp: Ramp) -> CounterResult:
    """A counter's figures with ``ramp`` at a table whose true counts come with ``freq``."""
    avg = sum(f * ramp.at(tc) for tc, f in freq.items())
    ev = sum(f * ramp.at(tc) * rows[tc].ev_i18 for tc, f in freq.items())
    m2 = sum(
        f * ramp.at(tc) ** 2 * (rows[tc].sd ** 2 + rows[tc].ev_i18 ** 2) for tc, f in freq.items()
    )
    return CounterResult(ramp, avg, ev, math.sqrt(max(m2 - ev * ev, 0.0)))


def _ramp(rows: dict[int, TcRow], c: float, top: int) -> Ramp:
    units = {}
    for tc, r in rows.items():
        k = c * r.ev_i18 / (r.sd * r.sd)
        units[tc] = min(top, max(1, round(k)))
    return Ramp(units)


def best_ramp(freq: dict[int, float], rows: dict[int, TcRow], top: int) -> CounterResult:
    """The ramp of a 1-to-``top`` spread with the highest DI (see the module's text)."""
    best: CounterResult | None = None
    for i in range(1, 241):
        c = 10.0 ** (i / 60.0)  # 1.04 .. 10^4
        got = counter(freq, rows, _ramp(rows, c, top))
        if best is None or got.di > best.di:
            best = got
    assert best is not None
    return best


def best_at_ror(
    freq: dict[int, float], rows: dict[int, TcRow], bankroll: float, ror: float
) -> CounterResult | None:
    """The ramp (any spread up to 1-to-50) with the highest win rate whose risk of ruin of
    ``bankroll`` units is at most ``ror``."""
    best: CounterResult | None = None
    for top in range(1, 51):
        for i in range(1, 181):
            got = counter(freq, rows, _ramp(rows, 10.0 ** (i / 45.0), top))
            if got.ev > 0 and got.ror(bankroll) <= ror and (best is None or got.ev > best.ev):
                best = got
    return best


@dataclass(frozen=True)
class Audit:
    """The audit of one rule set (see the module's text and :func:`audit`)."""

    rules: Rules
    decks_left: Fraction
    rows: dict[int, TcRow]
    freq: dict[int, float]
    base_ev: float
    spreads: dict[int, CounterResult]
    best: CounterResult | None
    bankroll: float
    ror: float
    shuffles: list[tuple[str, float, CounterResult]]
    seconds: float
    simulated: tuple[Any, ...] = ()  # audit_sim.SimCheck per headline spread

    @property
    def dealt(self) -> str:
        r = self.rules
        if r.shuffle == "continuous":
            return "continuous shuffler"
        return f"cut card at {r.penetration}"

    def to_json(self) -> dict[str, Any]:
        """The ``audit --format json`` shape."""
        return {
            "rules": self.rules.name,
            "decks": self.rules.decks,
            "dealt": self.dealt,
            "count": "Hi-Lo",
            "indices": "I18",
            "decks_left": str(self.decks_left),
            "base_ev": self.base_ev,
            "by_true_count": [
                {
                    "tc": tc,
                    "frequency": self.freq[tc],
                    "ev_basic": self.rows[tc].ev_basic,
                    "ev_i18": self.rows[tc].ev_i18,
                    "sd": self.rows[tc].sd,
                }
                for tc in SHOWN
            ],
            "spreads": {f"1-{k}": v.to_json(self.bankroll) for k, v in self.spreads.items()},
            "best_at_ror": None if self.best is None else self.best.to_json(self.bankroll),
            "bankroll_units": self.bankroll,
            "target_ror": self.ror,
            "shuffles": [
                {"dealt": name, "penetration": pen, **res.to_json(self.bankroll)}
                for name, pen, res in self.shuffles
            ],
            "simulated": [c.to_json() for c in self.simulated] or None,
            "seconds": self.seconds,
        }
