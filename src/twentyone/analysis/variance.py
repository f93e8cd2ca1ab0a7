"""Second moments of the chart's results, for the standard deviation of a round.

Exact for every first hand that is not split (stand, hit, double, surrender, blackjack, the
6-7-8 / 7-7-7 bonus). A split round's hands are correlated through the dealer's hand; their
cross term is approximated by taking the hands independent given the dealer's final outcome
(the usual approximation), so ``sd`` is exact without splits and approximate with them.

Final states of a hand (for that cross term): index ``stake_part * 7 + state``, ``state`` 0 =
16 or less, 1-5 = 17..21, 6 = bust; ``stake_part`` 0 for one unit, 1 for a doubled hand.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from twentyone.analysis.context import Base, Context, chart_solved, shoe_after, up_base
from twentyone.analysis.dealer import blackjack_card, dealer_distribution
from twentyone.analysis.hands import (
    SplitPlay,
    is_blackjack,
    mix_rank_pairs,
    split_table,
    two_card_deals,
)
from twentyone.analysis.player import (
    CHART,
    HIT,
    STAND,
    StandValues,
    action_of,
    bonus_need,
    cards_left,
)
from twentyone.analysis.shoe_counts import (
    ACE,
    TEN,
    BoolArray,
    FloatArray,
    HandTable,
    IntArray,
)
from twentyone.analysis.split import split_weights
from twentyone.analysis.standing import bust_kept
from twentyone.engine.jit import njit


class MomentRules(NamedTuple):
    """What :func:`moments` reads of the rules for one up card: ``bj`` (the dealer's
    blackjack card, -1: none), ``peek``, ``bj_double`` (X^2 of a doubled hand a dealer
    blackjack beats), ``f2``, ``bonus`` and ``split_aces`` (two-card hands stand)."""

    bj: int
    peek: bool
    bj_double: float
    f2: float
    bonus: float
    split_aces: bool


@njit(cache=True)
def hand_state(t: int) -> int:  # pragma: no cover - compiled
    """A standing hand's row in the tables of outcomes: 16 or less, then 17 to 21."""
    return 0 if t <= 16 else t - 16


@njit(cache=True)
def moments(
    comp_base: IntArray,
    hands: HandTable,
    use: BoolArray,
    stand: StandValues,
    rules: MomentRules,
    dec: IntArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:  # pragma: no cover
    """Per hand: E[X^2] as the chart plays it (``m2``; two-card hands as split hands), the
    second moments of standing / hitting / doubling a two-card hand (bonus included), and the
    distribution of final states ``fs`` as played. With a peek, moments are E[X^2 1{no
    dealer blackjack}]. ``bj_double``: X^2 of a doubled hand that a dealer blackjack beats."""
    counts, total, ncards = hands.counts, hands.total, hands.ncards
    child, order, bounds = hands.child, hands.order, hands.bounds
    nb, pbj, push = stand.nb, stand.pbj, stand.push
    bj, peek, bj_double, f2 = rules.bj, rules.peek, rules.bj_double, rules.f2
    bonus, split_aces = rules.bonus, rules.split_aces
    n = counts.shape[0]
    m2 = np.zeros(n)
    s2 = np.zeros(n)
    h2 = np.zeros(n)
    d2 = np.zeros(n)
    fs = np.zeros((n, 14))
    hf = np.zeros(14)
    df = np.zeros(14)
    comp = np.zeros(10, dtype=np.int64)
    for g in range(bounds.shape[0] - 1):
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not use[i]:
                continue
            nn = cards_left(comp_base, counts, i, comp)
            t = total[i]
            s2[i] = 1.0 - push[i] - (pbj[i] if peek else 0.0)
            st = hand_state(t)
            for k in range(14):
                hf[k] = 0.0
                df[k] = 0.0
            h = 0.0
            d = 0.0
            if t < 21:
                for v in range(10):
                    if comp[v] == 0:
                        continue
                    p = comp[v] / nn
                    c = child[i, v]
                    if c < 0:
                        keep = bust_kept(comp, nn, v, bj, peek)
                        h += p * keep
                        d += 4.0 * p * keep
                        hf[6] += p
                        df[13] += p
                    else:
                        h += p * m2[c]
                        no_bj = 1.0 - push[c] - pbj[c]
                        d += p * (4.0 * no_bj + (0.0 if peek else bj_double * pbj[c]))
                        for k in range(14):
                            hf[k] += p * fs[c, k]
                        df[7 + hand_state(total[c])] += p
                if ncards[i] == 2 and bonus > 0.0:
                    need, share = bonus_need(counts[i])
                    if need >= 0 and comp[need] > 0:
                        c = child[i, need]
                        keep = 1.0
                        if peek and bj >= 0:
                            keep = 1.0 - comp[bj] / (nn - 1.0)
                        per = 0.25 if share < 1.0 else 1.0
                        q = comp[need] / nn * per * share
                        one = nb[c] - (0.0 if peek else pbj[c])
                        two = 2.0 * nb[c] - f2 * pbj[c]
                        h += q * (bonus * bonus * keep + 2.0 * bonus * one)
                        d += q * (bonus * bonus * keep + 2.0 * bonus * two)
            h2[i] = h
            d2[i] = d
            a = dec[i]  # one type for the decision (the constant STAND would be a literal)
            if a == STAND or t == 21 or (ncards[i] == 2 and split_aces):
                m2[i] = s2[i]
                fs[i, st] = 1.0
            elif a == HIT:
                m2[i] = h
                for k in range(14):
                    fs[i, k] = hf[k]
            else:
                m2[i] = d
                for k in range(14):
                    fs[i, k] = df[k]
    return m2, s2, h2, d2, fs


def payoff_given_dealer(
    fs: FloatArray, bj_loss: tuple[float, float], push22: bool = False
) -> FloatArray:
    """E[hand result | dealer outcome] for outcomes 17..21, bust, blackjack, from a hand's
    final-state distribution (``bj_loss``: what a dealer blackjack takes from a one-unit and
    a doubled hand); ``push22``: an eighth outcome, the dealer's 22 (a standing hand nets 0, a
    busted one loses), and the bust is 23 or more."""
    width = 8 if push22 else 7
    out = [0.0] * width  # Python floats: the same arithmetic as numpy's, without its overhead
    states = fs.tolist()
    for part, stake in ((0, 1.0), (1, 2.0)):
        for state in range(7):
            p = states[part * 7 + state]
            if p == 0.0:
                continue
            if state == 6:
                for k in range(width):
                    out[k] -= p * stake
                continue
            mine = 0 if state == 0 else 16 + state
            for k in range(5):
                d = 17 + k
                out[k] += p * stake * (1.0 if mine > d else -1.0 if mine < d else 0.0)
            out[5] += p * stake
            out[6] -= p * bj_loss[part]
    return np.array(out)


class Moments(NamedTuple):
    """:func:`moments` by name: per hand, ``second`` (E[X^2] as played), the second moments of
    standing, hitting and doubling a two-card hand, and ``states`` (the distribution of final
    states as played)."""

    second: FloatArray
    stand: FloatArray
    hit: FloatArray
    double: FloatArray
    states: FloatArray


def run_moments(
    ctx: Context,
    up: int,
    base: Base,
    dec: IntArray,
    *,
    split_aces: bool,
    reach: BoolArray | None = None,
) -> Moments:
    """:func:`moments` for the hands of ``base`` (up card ``up``) played by ``dec`` (with
    ``reach``: only for those hands, the ones a split hand's play reaches: a hand's moments
    read only those of the hands its play goes on to)."""
    nodes = ctx.nodes
    obo = not ctx.peek and ctx.f2 == 1.0
    use = base.mask if reach is None else base.mask & reach
    rules = MomentRules(
        blackjack_card(up), ctx.peek, 1.0 if obo else 4.0, ctx.f2, ctx.bonus, split_aces
    )
    out = moments(base.comp, nodes.table, use & base.valid, base.stand, rules, dec)
    return Moments(*out)


def column_second_moment(
    ctx: Context,
    up: int,
    chart: tuple[IntArray, IntArray],
    codes: dict[tuple[bool, int], str],
    pairs: dict[int, str],
    opts: dict[tuple[int, int], dict[str, float]],
) -> float:
    """E[X^2] of one round against ``up`` played by the chart column."""
    nodes = ctx.nodes
    base = up_base(ctx, up)
    solved = chart_solved(ctx, up, chart)
    dec = solved.dec
    mom = run_moments(ctx, up, base, dec, split_aces=False)
    s2, h2, d2 = mom.stand, mom.hit, mom.double
    total = 0.0
    for a, b, node, p in two_card_deals(ctx, up):
        if p == 0.0:
            continue
        pbj = float(base.pbj[node])
        if is_blackjack(a, b):
            total += p * ctx.bj_pays**2 * (1.0 - pbj)
            continue
        sur = 0.25 * (1.0 - pbj)
        if not ctx.peek:
            sur = 0.25 if ctx.surrender == "early" else 0.25 * (1.0 - pbj) + pbj
        m2 = {"stand": s2[node], "hit": h2[node], "double": d2[node], "surrender": sur}
        o = opts[(a, b)]
        key = (bool(nodes.soft[node]), int(nodes.total[node]))
        plain = {k: x for k, x in o.items() if k != "split"}
        v = float(m2[action_of(codes[key], plain)])
        if a == b and pairs[a] in ("P", "Rp"):
            act = action_of(pairs[a], o)
            w = _split_second_moment(ctx, up, a, chart) if act == "split" else float(m2[act])
            v = mix_rank_pairs(ctx, a, b, w, v)
        if ctx.peek and up in (ACE, TEN):
            v += pbj  # the dealer's blackjack takes the original bet before play
        total += p * v
    return total


def _split_second_moment(
    ctx: Context, up: int, pair: int, chart: tuple[IntArray, IntArray]
) -> float:
    """E[X^2] of a split (approximate: hands independent given the dealer's outcome)."""
    nodes = ctx.nodes
    shoe = shoe_after(ctx, up)
    table = split_table(ctx, up, pair, SplitPlay(CHART, chart=chart), 2)  # the split value's
    base = table.base
    aces = pair == ACE and not ctx.hsa
    mom = run_moments(ctx, up, base, table.solved.dec, split_aces=aces, reach=table.reach)
    m2, fs = mom.second, mom.states
    left = base.comp.copy()
    left[pair] -= 1
    n = float(left.sum())
    one = nodes.index[tuple(int(v == pair) for v in range(10))]
    hand_m2 = 0.0
    hand_fs = [0.0] * 14  # Python floats: numpy's arithmetic, without its overhead
    kids = nodes.child[one].tolist()
    for c, count in enumerate(left.tolist()):
        if count > 0:
            q = count / n
            hand_m2 += q * float(m2[kids[c]])
            for j, x in enumerate(fs[kids[c]].tolist()):
                hand_fs[j] += q * x
    w_np, w_any = split_weights(
        ctx.split_max(pair), ctx.pair_cards_left(shoe, pair, up), float(shoe.sum() - 2)
    )
    hands = sum(w_np.values()) + w_any
    dealer = dealer_distribution(left, up, ctx.h17_from, ctx.push22)
    loss = (ctx.f1s, ctx.f2s) if not ctx.peek else (0.0, 0.0)
    given = payoff_given_dealer(np.array(hand_fs), loss, ctx.push22)
    if ctx.peek:
        dealer[6] = 0.0
    cross = float(np.sum(dealer * given**2))
    return hands * hand_m2 + hands * (hands - 1.0) * cross
