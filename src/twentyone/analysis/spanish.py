"""Spanish 21's rules in the exact analysis: a player's 21 that always wins
(``Rules.player_21_wins``), the 21 bonuses (``bonus_21_cards``, ``bonus_21_678_777``), and the
doubles of :func:`~twentyone.analysis.player.solve` on any number of cards
(``double_after_hit``), again after a double (``redoubles``) and given up (``rescue``).

The engine's rules, as the analysis prices them (``engine/round.py``, ``round_settlement.py``):

- a 21 (not a blackjack) stands at once; with ``player_21_wins`` it wins whatever the dealer
  makes but a blackjack (which, with a peek, ended the round before play); a bonus 21 is paid
  its odds instead of 1:1 when it wins, never on a doubled hand, a split hand's included; the
  higher odds where a card-count and a 6-7-8 / 7-7-7 line both fit;
- a doubled hand, once its card came, may stand (whatever its total), double again while it
  has doubled at most ``redoubles`` times (each double stakes everything on the hand again:
  the ``k``-th double leaves ``2**k`` units on it), on the totals ``double_on`` allows (a split
  hand only with ``double_after_split``), or be rescued: it loses its original bet and takes
  back what the doubles staked; a dealer blackjack (without a peek) takes it as any doubled
  hand. A 21 stands.

Suits: the hand table keeps ranks only. The 6-7-8 / 7-7-7 lines are priced with each rank's
cards spread evenly over the four suits of the context's shoe (``Context.shoe``: a quarter of
each rank's count a suit) and the suits of a hand's cards drawn without replacement within
each rank: three cards of different ranks are one suit with chance 1/16 (spades 1/64), three
sevens out of ``n`` with ``4 q (q-1) (q-2) / (n (n-1) (n-2))``, ``q = n / 4`` (spades a quarter
of it). The play reads ranks only (no decision looks at suits): the bonus is its mean over
the suits.

The values of a doubled hand (stake ``m = 2**k`` after the ``k``-th double, ``K`` doubles at
most): ``V[k, c] = max(m * stand(c), rescue(c), E[V[k+1, c + card]])``, the last two where
allowed (the optimum; a chart redoubles where its code for the hand's total doubles and never
rescues, as :func:`twentyone.engine.strategy.decide` plays it). Split hands: as for every rule
set (Farmer's CDZ- method, :mod:`twentyone.analysis.hands`); a split hand played by the
optimum's fixed decisions redoubles where the optimum doubles that hand undoubled and never
rescues (a fixed decision per hand has no rescue), so the optimum's split values are a lower
bound by that much; a chart's split hands are exact as the engine plays the chart.

>>> from twentyone import load_rules
>>> from twentyone.analysis.context import Context
>>> ctx = Context.of(load_rules("spanish-21"))
>>> ctx.dbl_more, ctx.doubles, ctx.rescue, ctx.has_spanish
(True, 3, True, True)
>>> round(suited_three(24, True), 6), round(suited_three(24, False), 6)
(0.039526, 0.0625)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from twentyone.analysis.shoe_counts import BoolArray, FloatArray, IntArray
from twentyone.analysis.standing import bust_kept
from twentyone.engine.jit import njit

#: Value indexes of the ranks 6, 7, 8 (ace 0, ten-value 9).
SIX, SEVEN, EIGHT = 5, 6, 7


def suited_three(n: int, same_rank: bool) -> float:
    """The chance that three cards are of one suit: three of one rank out of its ``n`` cards
    (``same_rank``: a quarter of them each suit), or of three different ranks (1/16).

    >>> suited_three(8, True) == 4 * 2 * 1 * 0 / (8 * 7 * 6)
    True
    """
    if not same_rank:
        return 1.0 / 16.0
    if n < 3:
        return 0.0
    q = n / 4.0
    return 4.0 * q * (q - 1.0) * (q - 2.0) / (n * (n - 1.0) * (n - 2.0))


def _card_odds(table: tuple[tuple[int, Fraction], ...], ncards: int) -> Fraction | None:
    """The card-count bonus of a 21 of ``ncards`` cards (the last that fits, fewest first)."""
    best = None
    for least, odds in table:
        if ncards >= least:
            best = odds
    return best


def _higher(a: Fraction | None, b: Fraction | None) -> Fraction:
    """The higher of two odds, 1 (even money) where neither pays."""
    got = [x for x in (a, b) if x is not None]
    return max(got) if got else Fraction(1)


def bonus_odds(
    rules_cards: tuple[tuple[int, Fraction], ...],
    lines: dict[str, Fraction],
    counts: IntArray,
    sevens: int,
) -> float:
    """The mean odds a winning undoubled 21 of rank counts ``counts`` is paid (1 for even
    money): its card-count bonus, or for 6-7-8 and 7-7-7 the higher of that and its suits'
    line, averaged over the suits (``sevens``: the shoe's sevens, see the module's text).

    >>> from fractions import Fraction as F
    >>> c = np.zeros(10, dtype=np.int64); c[[5, 6, 7]] = 1
    >>> lines = {"mixed": F(3, 2), "suited": F(2), "spades": F(3)}
    >>> bonus_odds((), lines, c, 24) == 1.5 * 15 / 16 + 2 * 3 / 64 + 3 / 64
    True
    """
    n = int(counts.sum())
    cards = _card_odds(rules_cards, n)
    if n == 3 and (
        counts[SEVEN] == 3 or (counts[SIX] == 1 and counts[SEVEN] == 1 and counts[EIGHT] == 1)
    ):
        suited = suited_three(sevens, bool(counts[SEVEN] == 3))
        spades = suited / 4.0
        return float(
            (1.0 - suited) * float(_higher(cards, lines.get("mixed")))
            + (suited - spades) * float(_higher(cards, lines.get("suited")))
            + spades * float(_higher(cards, lines.get("spades")))
        )
    return float(_higher(cards, None))


def apply_21_rules(
    rules: object,
    shoe: tuple[int, ...],
    counts: IntArray,
    total: IntArray,
    want: BoolArray,
    nb: FloatArray,
    push: FloatArray,
    pbj: FloatArray,
) -> FloatArray:
    """Spanish 21's 21s in a stand-value table (the hands in ``want``): with
    ``player_21_wins`` a 21 wins every dealer outcome but a blackjack (``nb``, ``push``
    changed in place); returns what an undoubled stand adds for the 21 bonuses (``(odds - 1)``
    times the chance of a win, 0 elsewhere: a doubled hand is paid even money)."""
    from twentyone.engine.rules import Rules

    assert isinstance(rules, Rules)
    extra = np.zeros(nb.shape[0])
    idx = np.flatnonzero(want & (total == 21))
    if rules.player_21_wins:
        nb[idx] = 1.0 - pbj[idx]
        push[idx] = 0.0
    if not (rules.bonus_21_cards or rules.bonus_21_678_777):
        return extra
    lines = dict(rules.bonus_21_678_777)
    for i in idx.tolist():
        odds = bonus_odds(rules.bonus_21_cards, lines, counts[i], shoe[SEVEN])
        if odds != 1.0:
            extra[i] = (odds - 1.0) * nb[i]
    return extra


@njit(cache=True, inline="always")
def _next_card(
    comp: IntArray,
    nn: int,
    children: IntArray,
    values: FloatArray,
    stake: float,
    bj: int,
    peek: bool,
) -> float:  # pragma: no cover - compiled
    """A doubled hand's value after one more card from ``comp`` (``nn`` cards): a child's
    value in ``values`` (``children``: the hand's child by card, < 0 a bust), a bust losing
    ``stake`` where the dealer's blackjack (peeked) has not already taken it."""
    e = 0.0
    for v in range(10):
        if comp[v] == 0:
            continue
        p = comp[v] / nn
        c = children[v]
        if c < 0:
            e -= stake * p * bust_kept(comp, nn, v, bj, peek)
        else:
            e += p * values[c]
    return e


@njit(cache=True)
def doubled_values(
    i: int,
    comp: IntArray,
    nn: int,
    child: IntArray,
    nb: FloatArray,
    pbj: FloatArray,
    V: FloatArray,
    spec: tuple[int, bool, float, float, int, bool, bool, int],
) -> float:  # pragma: no cover - compiled
    """Hand ``i`` (``comp``: the shoe after its cards, ``nn`` of them) as a doubled hand:
    ``V[k, i]`` for each ``k`` of 1..K (``V`` rows 0..K; the children's rows are known), and
    returns the value of doubling it now (each next card, then ``V[1]``; a bust loses 2).
    ``spec``: ``(bj, peek, f1, f2, K, rescue, may_more, choose)``: the blackjack card, the peek,
    the parts of a single / doubled stake a dealer blackjack takes (``f1 + (f2 - f1) (m - 1)``
    of a stake ``m``), the most doubles, whether a rescue may be chosen (the hand's total
    under 21: a 21 stands), whether its total may double again, and ``choose``: 1 the best
    of the options (the optimum), 0 stand, 2 double again where allowed (a chart's or a
    fixed play: neither rescues)."""
    bj, peek, f1, f2, most, rescue, may_more, choose = spec
    for k in range(most, 0, -1):
        m = 2.0**k
        fk = f1 + (f2 - f1) * (m - 1.0)
        best = m * nb[i] - fk * pbj[i]
        if rescue and choose == 1:
            best = max(best, -(1.0 - pbj[i]) - fk * pbj[i])
        if k < most and may_more and choose != 0:
            e = _next_card(comp, nn, child[i], V[k + 1], 2.0 * m, bj, peek)
            if choose == 2 or e > best:
                best = e
        V[k, i] = best
    return _next_card(comp, nn, child[i], V[1], 2.0, bj, peek)
