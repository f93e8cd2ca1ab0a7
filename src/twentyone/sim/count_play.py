"""What the round of :mod:`twentyone.sim.kernel` does for a counter: count each card as it is
seen, take the true count, and let index plays override the chart.

The shoe state ``st`` (int64) holds, after the shoe position ``st[ST_POS]``, the counter's
running count in the system's units (tags times :attr:`CountSystem.scale
<twentyone.counting.counts.CountSystem.scale>`), the side count's cards seen, the hole card's
tag and side-count card waiting for the card to be shown, the shuffle number (a reshuffle
makes a new shoe) and the shuffle number the hole card was dealt in. The flat kernel counts
with all-zero tags; the counting kernel (:mod:`twentyone.sim.count_kernel`) reads the count.

The counting parameters ``cp`` (int64) are the ``CP_*`` constants below: the counter's boxes,
the scale, the initial running count, the deck estimation and rounding
(:class:`~twentyone.counting.counts.TrueCount`, as indices of ``ESTIMATIONS`` and
``ROUNDINGS``), the side count's betting weight (scaled) and cards per deck, the decks, and
the insurance offers. The true count here is computed in integers and equals
:meth:`TrueCount.of <twentyone.counting.counts.TrueCount.of>` exactly (a test checks it).
"""

from __future__ import annotations

import numpy as np

from twentyone.counting.index_set import K_SURRENDER, X_CHART, X_SURRENDER
from twentyone.sim.encode import A_SPLIT, A_SURRENDER, C_P, C_RP, CARD_VALUE
from twentyone.sim.hands import H_ACE, H_C0, H_C1, H_N, H_SUM, best_total
from twentyone.sim.rng import Arr, Int, draw, fast

# the shoe state
ST_POS = 0  # next card's position in the shoe
ST_RC = 1  # running count (scaled)
ST_SIDE = 2  # side-count cards seen
ST_HOLE_TAG = 3  # the hole card's tag, counted when the round ends
ST_HOLE_SIDE = 4  # 1 when the hole card is a side-count card
ST_EPOCH = 5  # shuffles so far
ST_HOLE_EPOCH = 6  # the shuffle the hole card was dealt in
ST_SIZE = 8

# the counting parameters
CP_COUNTER = 0  # boxes (the first ones) played by the counter: indices and insurance
CP_SCALE = 1  # tags are counted times this
CP_IRC = 2  # initial running count (scaled)
CP_EST = 3  # 0 exact, 1 half-deck, 2 full-deck, 3 none
CP_ROUND = 4  # 0 floor, 1 truncate, 2 round
CP_SIDE_W = 5  # side count's betting weight (scaled); 0: no side count
CP_SIDE_PER_DECK = 6  # side-count cards in one deck
CP_DECKS = 7
CP_INS_A = 8  # insurance offered against an ace (1/0)
CP_INS_T = 9  # against a ten (ru.5)
CP_EVEN_MONEY = 10  # even money offered to a blackjack facing an ace
CP_SIZE = 12


@fast()
def deal(shoe: Arr, st: Arr, rng: Arr, tags: Arr, sides: Arr, cp: Arr, counting: bool) -> Int:
    """Draw a card and, ``counting``, count it (a card that starts a new shoe first resets
    the count). The flat round passes a constant ``False``: only the draw is left."""
    c = draw(shoe, st, rng)
    if counting:
        if st[ST_POS] == 1:
            new_shoe(st, cp)
        st[ST_RC] += tags[c]
        st[ST_SIDE] += sides[c]
    return c


@fast()
def deal_hole(shoe: Arr, st: Arr, rng: Arr, tags: Arr, sides: Arr, cp: Arr, counting: bool) -> Int:
    """Draw the hole card: counted when the round ends (:func:`show_hole`)."""
    c = draw(shoe, st, rng)
    if counting:
        if st[ST_POS] == 1:
            new_shoe(st, cp)
        st[ST_HOLE_TAG] = tags[c]
        st[ST_HOLE_SIDE] = sides[c]
        st[ST_HOLE_EPOCH] = st[ST_EPOCH]
    return c


@fast(inline="always")
def show_hole(st: Arr) -> None:
    """Count the hole card, unless the shoe was reshuffled since it was dealt."""
    if st[ST_HOLE_EPOCH] == st[ST_EPOCH]:
        st[ST_RC] += st[ST_HOLE_TAG]
        st[ST_SIDE] += st[ST_HOLE_SIDE]
    st[ST_HOLE_TAG] = 0
    st[ST_HOLE_SIDE] = 0


@fast(inline="always")
def new_shoe(st: Arr, cp: Arr) -> None:
    st[ST_RC] = cp[CP_IRC]
    st[ST_SIDE] = 0
    st[ST_EPOCH] += 1


@fast(inline="always")
def _divide(num: Int, den: Int, rounding: Int) -> Int:
    """``num / den`` (``den > 0``) rounded: floor, toward zero, or to the nearest (halves
    away from zero)."""
    if rounding == 0:
        return num // den
    a = num if num >= 0 else -num
    q = a // den if rounding == 1 else (2 * a + den) // (2 * den)
    return q if num >= 0 else -q


@fast(inline="always")
def true_count(st: Arr, cp: Arr, size: Int) -> Int:
    """The counter's true count now (integers throughout)."""
    left = size - st[ST_POS]
    if left < 0:
        left = 0
    # the running count times 52, with the side count's adjustment:
    # weight * (cards of its rank left - per_deck * left / 52)
    num = st[ST_RC] * 52
    w = cp[CP_SIDE_W]
    if w != 0:
        per = cp[CP_SIDE_PER_DECK]
        num += w * (52 * (per * cp[CP_DECKS] - st[ST_SIDE]) - per * left)
    den = cp[CP_SCALE] * 52
    est = cp[CP_EST]
    if est == 0:
        num *= 52
        den *= left if left > 0 else 1
    elif est == 1:
        halves = (left + 13) // 26
        num *= 2
        den *= halves if halves > 0 else 1
    elif est == 2:
        d = (left + 26) // 52
        den *= d if d > 0 else 1
    return _divide(num, den, cp[CP_ROUND])


@fast(inline="always")
def _chosen(ixe: Arr, e: Int, tc: Int) -> Int:
    return np.int64(ixe[e, 2] if tc >= ixe[e, 0] else ixe[e, 1])


@fast(inline="always")
def surrender_entry(hands: Arr, h: Int, col: Int, ixt: Arr) -> Int:
    """The hand's surrender entry (its pair's first, then its total's), or ``-1``."""
    if hands[h, H_N] == 2:
        v = CARD_VALUE[hands[h, H_C0]]
        if v == CARD_VALUE[hands[h, H_C1]]:
            e = ixt[K_SURRENDER + 2, v, col]
            if e >= 0:
                return np.int64(e)
    hsum = hands[h, H_SUM]
    best = best_total(hsum, hands[h, H_ACE])
    return np.int64(ixt[K_SURRENDER + (1 if best != hsum else 0), best, col])


@fast(inline="always")
def surrenders_before_play(
    chart_says: bool, hands: Arr, h: Int, col: Int, ixt: Arr, ixe: Arr, st: Arr, cp: Arr, size: Int
) -> bool:
    """ro.11's question before play, for a counter's box: the surrender entry, else the
    chart."""
    e = surrender_entry(hands, h, col, ixt)
    if e < 0:
        return chart_says
    return _chosen(ixe, e, true_count(st, cp, size)) == X_SURRENDER


@fast(inline="always")
def index_act(
    act: Int,
    acts: Int,
    hard: Arr,
    soft: Arr,
    pairs: Arr,
    restab: Arr,
    hands: Arr,
    h: Int,
    col: Int,
    ixt: Arr,
    ixe: Arr,
    st: Arr,
    cp: Arr,
    size: Int,
) -> Int:
    """The counter's action: ``act`` (the chart's) unless an index entry covers the hand;
    then the surrender entry decides surrender, the pair entry the split, the total's entry
    (or the surrender entry's other side) the play."""
    pv = 0
    if hands[h, H_N] == 2:
        v = CARD_VALUE[hands[h, H_C0]]
        if v == CARD_VALUE[hands[h, H_C1]]:
            pv = v
    hsum = hands[h, H_SUM]
    best = best_total(hsum, hands[h, H_ACE])
    kind = 1 if best != hsum else 0
    e_ps = ixt[K_SURRENDER + 2, pv, col] if pv else -1
    e_pp = ixt[2, pv, col] if pv else -1
    e_ts = ixt[K_SURRENDER + kind, best, col]
    e_tp = ixt[kind, best, col]
    if e_ps < 0 and e_pp < 0 and e_ts < 0 and e_tp < 0:
        return act
    tc = true_count(st, cp, size)
    fallback: Int = X_CHART
    rest = acts & ~A_SURRENDER
    if acts & A_SURRENDER:
        es = e_ps if e_ps >= 0 else e_ts
        if es >= 0:
            code = _chosen(ixe, es, tc)
            if code == X_SURRENDER:
                return A_SURRENDER
            fallback = code
        elif act == A_SURRENDER:
            return A_SURRENDER
    if rest & A_SPLIT:
        if e_pp >= 0:
            code = _chosen(ixe, e_pp, tc)
            if code == C_P:
                return A_SPLIT
            return np.int64(restab[code, rest])
        pc = pairs[pv, col] if pv else -1
        if pc in (C_P, C_RP):
            return A_SPLIT
    if e_tp >= 0:
        code = _chosen(ixe, e_tp, tc)
    elif fallback != X_CHART:
        code = fallback
    else:
        code = np.int64(soft[best, col]) if kind else np.int64(hard[best, col])
    return np.int64(restab[code, rest])
