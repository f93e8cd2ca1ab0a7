"""The player's expected values for every hand, exactly, by composition (numba kernels).

Values are kept *in the no-blackjack space* when the dealer peeks: a hand's value is then
E[payoff x 1{dealer has no blackjack}], so decisions compare correctly (the factor
P(no blackjack | hand) is the same for every action) and a bust costs the stake only when the
dealer has no blackjack. Without a peek a dealer blackjack takes each hand's stake (``f1``,
``f2``: the part of a standing or doubled stake that a dealer blackjack takes).

Modes of :func:`solve`:

- 0: composition-dependent optimum (each hand its own best play);
- 1: total-dependent hit/stand: one decision per chart row, weighted by the probability of
  each hand in it (the first step of deriving basic strategy);
- 2: play a chart (``chart_hard``/``chart_soft`` codes for this up card);
- 3: play fixed per-hand decisions (``dec_in``/``decs_in``): CDZ- split hands.

Chart codes as integers: see :data:`CODE_INDEX`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from twentyone.analysis.shoe_counts import BoolArray, FloatArray, IntArray
from twentyone.compiled import may_stand_jit, total_may_double_jit

#: Modes of :func:`solve`: how the hands are played.
OPTIMUM, BY_TOTAL, CHART, FIXED = 0, 1, 2, 3

CODE_INDEX = {"H": 0, "S": 1, "Dh": 2, "Ds": 3, "P": 4, "Rh": 5, "Rs": 6, "Rp": 7}
STAND, HIT, DOUBLE = 0, 1, 2
NEG = -1e9


@njit(cache=True)
def _bonus_need(c: IntArray) -> tuple[int, float]:  # pragma: no cover - compiled
    """For a two-card hand: the value index completing 6-7-8 or 7-7-7, and the share of such
    hands for which it pays (1/4 of 6-7/6-8/7-8 hands are suited; 7-7 always)."""
    if c[6] == 2:
        return 6, 1.0
    if c[5] == 1 and c[6] == 1:
        return 7, 0.25
    if c[5] == 1 and c[7] == 1:
        return 6, 0.25
    if c[6] == 1 and c[7] == 1:
        return 5, 0.25
    return -1, 0.0


@njit(cache=True)
def _pick(code: int, can_hit: bool, can_stand: bool, can_dbl: bool) -> int:  # pragma: no cover
    """Resolve a chart code into STAND/HIT/DOUBLE as :func:`twentyone.strategy.resolve`."""
    if (code == 2 or code == 3) and can_dbl:
        return DOUBLE
    if code == 1 or code == 3 or code == 6:
        if can_stand:
            return STAND
        return HIT if can_hit else STAND
    if can_hit:
        return HIT
    return STAND


@njit(cache=True)
def solve(
    comp_base: IntArray,
    counts: IntArray,
    total: IntArray,
    soft: BoolArray,
    ncards: IntArray,
    child: IntArray,
    order: IntArray,
    bounds: IntArray,
    mask: BoolArray,
    valid: BoolArray,
    nb: FloatArray,
    pbj: FloatArray,
    bj: int,
    peek: bool,
    f1: float,
    f2: float,
    min_stand: int,
    dbl_split: bool,
    double_rule: int,
    force_stand2: bool,
    bonus: float,
    mode: int,
    chart_hard: IntArray,
    chart_soft: IntArray,
    dec_in: IntArray,
    decs_in: IntArray,
) -> tuple[
    FloatArray,
    FloatArray,
    FloatArray,
    FloatArray,
    FloatArray,
    FloatArray,
    IntArray,
    IntArray,
    IntArray,
]:  # pragma: no cover - compiled
    """Values of every hand in ``mask``: ``S`` stand, ``H`` hit (best play after, no bonus),
    ``D`` double (no bonus), ``B`` the hand's value as played (for two-card hands: as a split
    hand, bonus included), ``b`` the bonus value of a third card for a paying two-card hand
    and ``sf`` the share of such hands it pays; ``dec``/``decs`` the decisions taken (``decs``
    for the suited share), and ``gdec`` each chart row's hit (1) / stand (0) in mode 1."""
    n = counts.shape[0]
    S = np.zeros(n)
    H = np.full(n, NEG)
    D = np.full(n, NEG)
    B = np.zeros(n)
    bb = np.zeros(n)
    sf = np.zeros(n)
    dec = np.zeros(n, dtype=np.int64)
    decs = np.zeros(n, dtype=np.int64)
    w = np.zeros(n)
    comp = np.zeros(10, dtype=np.int64)
    nbase = 0
    for v in range(10):
        nbase += comp_base[v]
    ngroups = bounds.shape[0] - 1
    gdec = np.zeros(ngroups, dtype=np.int64)
    for g in range(ngroups):
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not mask[i] or not valid[i]:
                continue
            nn = 0
            for v in range(10):
                comp[v] = comp_base[v] - counts[i, v]
                nn += comp[v]
            S[i] = nb[i] - f1 * pbj[i]
            t = total[i]
            if t < 21:
                h = 0.0
                d = 0.0
                for v in range(10):
                    if comp[v] == 0:
                        continue
                    p = comp[v] / nn
                    c = child[i, v]
                    if c < 0:
                        keep = 1.0
                        if peek and bj >= 0:
                            keep = 1.0 - (comp[bj] - (1 if v == bj else 0)) / (nn - 1.0)
                        h -= p * keep
                        d -= 2.0 * p * keep
                    else:
                        h += p * B[c]
                        d += p * (2.0 * nb[c] - f2 * pbj[c])
                H[i] = h
                if ncards[i] == 2:
                    D[i] = d
            if ncards[i] == 2 and bonus > 0.0:
                need, share = _bonus_need(counts[i])
                if need >= 0:
                    keep = 1.0
                    if peek and bj >= 0:
                        keep = 1.0 - comp[bj] / (nn - 1.0)
                    per = 0.25 if share < 1.0 else 1.0
                    bb[i] = bonus * comp[need] / nn * per * keep
                    sf[i] = share
            if mode == 1 and ncards[i] >= 2:
                # chart weight: probability that the first cards drawn are this hand
                m = ncards[i]
                x = 1.0
                for k in range(m):
                    x *= (k + 1.0) / (nbase - k)
                for v in range(10):
                    for k in range(counts[i, v]):
                        x *= (comp_base[v] - k) / (k + 1.0)
                w[i] = x
        if mode == 1:
            ws = 0.0
            wh = 0.0
            t = -1
            for j in range(bounds[g], bounds[g + 1]):
                i = order[j]
                if not mask[i] or not valid[i] or ncards[i] < 2:
                    continue
                t = total[i]
                ws += w[i] * S[i]
                wh += w[i] * (H[i] + sf[i] * bb[i])
            if 0 <= t < 21 and (t < min_stand or wh > ws):
                gdec[g] = HIT
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not mask[i] or not valid[i]:
                continue
            t = total[i]
            can_hit = t < 21
            can_stand = may_stand_jit(t, min_stand)
            if ncards[i] == 2:
                if force_stand2:
                    B[i] = S[i]
                    continue
                can_dbl = dbl_split and total_may_double_jit(t, soft[i], double_rule)
                if mode == 0:
                    bu = NEG
                    du = STAND
                    bs = NEG
                    ds = STAND
                    for a in range(3):
                        if a == STAND:
                            if not can_stand:
                                continue
                            x = S[i]
                            y = S[i]
                        elif a == HIT:
                            if not can_hit:
                                continue
                            x = H[i]
                            y = H[i] + bb[i]
                        else:
                            if not can_dbl:
                                continue
                            x = D[i]
                            y = D[i] + bb[i]
                        if x > bu:
                            bu = x
                            du = a
                        if y > bs:
                            bs = y
                            ds = a
                    dec[i] = du
                    decs[i] = ds
                elif mode == 1:
                    dec[i] = gdec[g]
                    decs[i] = gdec[g]
                elif mode == 2:
                    cd = chart_soft[t] if soft[i] else chart_hard[t]
                    dec[i] = _pick(cd, can_hit, can_stand, can_dbl)
                    decs[i] = dec[i]
                else:
                    dec[i] = dec_in[i]
                    decs[i] = decs_in[i]
                vu = S[i] if dec[i] == STAND else H[i] if dec[i] == HIT else D[i]
                vs = S[i] if decs[i] == STAND else H[i] if decs[i] == HIT else D[i]
                B[i] = (1.0 - sf[i]) * vu + sf[i] * (vs + (bb[i] if decs[i] != STAND else 0.0))
            elif ncards[i] >= 3:
                if mode == 0:
                    a = HIT if (can_hit and (not can_stand or H[i] > S[i])) else STAND
                elif mode == 1:
                    a = gdec[g] if can_hit else STAND
                elif mode == 2:
                    cd = chart_soft[t] if soft[i] else chart_hard[t]
                    a = _pick(cd, can_hit, can_stand, False)
                else:
                    a = dec_in[i]
                dec[i] = a
                B[i] = H[i] if a == HIT else S[i]
    return S, H, D, B, bb, sf, dec, decs, gdec


@njit(cache=True)
def gather_stand(
    dists: FloatArray, ok: BoolArray, rows: IntArray, total: IntArray, mask: BoolArray
) -> tuple[FloatArray, FloatArray, FloatArray]:  # pragma: no cover - compiled
    """Stand values of the hands in ``mask`` from the dealer outcome rows ``dists[rows[i]]``:
    ``nb`` = P(win) - P(lose) over the dealer's non-blackjack outcomes, P(dealer blackjack)
    and P(push)."""
    n = rows.shape[0]
    nb = np.zeros(n)
    pbj = np.zeros(n)
    push = np.zeros(n)
    for i in range(n):
        r = rows[i]
        if not mask[i] or r < 0 or not ok[r]:
            continue
        t = total[i]
        x = dists[r, 5]
        for j in range(5):
            d = 17 + j
            if t > d:
                x += dists[r, j]
            elif t < d:
                x -= dists[r, j]
            else:
                push[i] = dists[r, j]
        nb[i] = x
        pbj[i] = dists[r, 6]
    return nb, pbj, push


@njit(cache=True)
def stand_needed(
    one: int,
    child: IntArray,
    ncards: IntArray,
    total: IntArray,
    dec: IntArray,
    decs: IntArray,
    force_stand2: bool,
) -> BoolArray:  # pragma: no cover - compiled
    """The hands whose stand values a split hand starting from the one-card hand ``one``
    needs when played by the fixed decisions ``dec``/``decs``: those it stands on and those
    a double ends on."""
    n = child.shape[0]
    need = np.zeros(n, dtype=np.bool_)
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    top = 0
    for v in range(10):
        k = child[one, v]
        if k >= 0 and not seen[k]:
            seen[k] = True
            stack[top] = k
            top += 1
    while top > 0:
        top -= 1
        i = stack[top]
        if total[i] == 21 or (ncards[i] == 2 and force_stand2):
            need[i] = True
            continue
        hit = False
        for a in (dec[i], decs[i]) if ncards[i] == 2 else (dec[i], dec[i]):
            if a == STAND:
                need[i] = True
            elif a == DOUBLE:
                for v in range(10):
                    c = child[i, v]
                    if c >= 0:
                        need[c] = True
            else:
                hit = True
        if hit:
            for v in range(10):
                c = child[i, v]
                if c >= 0 and not seen[c]:
                    seen[c] = True
                    stack[top] = c
                    top += 1
    return need
