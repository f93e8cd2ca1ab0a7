"""Risk-averse index plays: where a Kelly bettor's growth, not the return, changes sides.

A counter who bets a fraction ``f`` of the bankroll on a round whose result per unit bet is
``X`` grows the bankroll, per round, by ``E[log(1 + f X)]``, which to second order is

    f E[X] - f^2 E[X^2] / 2  =  f (E[X] - (f / 2) E[X^2]).

A decision inside the round (a double, a split, a stand) changes ``E[X]`` and ``E[X^2]`` by
what the two plays' results differ by, times the chance of the hand; so at a given bet the
play that grows the bankroll faster is the one with the larger *certainty equivalent*
``E[X] - (f / 2) E[X^2]``. The fraction is the Kelly bet at that true count,
``f = k * max(A, 0) / V``: ``A`` the round's advantage (the composition-dependent optimum's
exact return on the expected shoe at that count), ``V`` the round's second moment
(``SD^2 + A^2``, its SD under basic strategy), ``k`` the Kelly fraction (1: full Kelly;
:data:`KELLY`). Where the advantage is not positive a Kelly bettor bets nothing (a counter
the table minimum, a small fraction), so the returns alone decide, as the ``ev`` method's.

The criterion is the one behind Don Schlesinger's risk-averse indices (*Blackjack Attack*,
built on the Kelly bettor's expected logarithm; the quadratic approximation and the critical
bet fraction of a higher-variance play are set out on bjmath.com's Kelly pages). Doubles and
splits (twice the money) and not surrendering have the larger second moment, so a
risk-averse double or split index is at or above the ``ev`` one and a surrender index at or
below; standing rather than hitting, with a result as spread, barely moves; insurance, which
pays when the hand loses, comes at or below. The second moments are those of
:mod:`twentyone.analysis.action_moments` (the rest of the hand played by the optimum for its
return, the usual convention; a split's is approximate).

>>> from fractions import Fraction
>>> from twentyone import load_rules
>>> from twentyone.counting.count_line import count_line
>>> f = aversion_curve(load_rules("6D S17 DAS LS"), count_line("hilo", Fraction(15, 4)))
>>> f(-4.0), 0.005 < f(4.0) < 0.012
(0.0, True)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise

from twentyone.analysis import analyze
from twentyone.counting.count_line import MARGIN, TC_RANGE, CountLine
from twentyone.engine.rules import Rules

#: The Kelly fraction of the bettor the risk-averse indices are for (full Kelly).
KELLY = 1.0


@lru_cache(maxsize=8)
def advantage_curve(rules: Rules, line: CountLine) -> tuple[tuple[float, float, float], ...]:
    """``(true count, advantage, second moment)`` of a round on each shoe of ``line`` from
    -12 to +12 (exact analysis: the optimum's return, basic strategy's SD)."""
    out = []
    for k in line.steps(-TC_RANGE - MARGIN, TC_RANGE + MARGIN):
        rep = analyze(rules, shoe=line.shoe(k), outcomes=False)
        sd = float(rep.sd or 0.0)
        out.append((k * line.tc_step, rep.ev_optimal, sd * sd + rep.ev_optimal**2))
    return tuple(out)


def aversion_curve(rules: Rules, line: CountLine, kelly: float = KELLY) -> Callable[[float], float]:
    """The weight of the second moment at a true count, ``f / 2`` (see the module's text),
    straight between the line's shoes."""
    pts = [
        (tc, kelly * max(a, 0.0) / v / 2.0 if v > 0 else 0.0)
        for tc, a, v in advantage_curve(rules, line)
    ]

    def at(tc: float) -> float:
        if tc <= pts[0][0]:
            return pts[0][1]
        for (x0, y0), (x1, y1) in pairwise(pts):
            if x0 <= tc <= x1:
                return y0 + (y1 - y0) * (tc - x0) / (x1 - x0)
        return pts[-1][1]

    return at
