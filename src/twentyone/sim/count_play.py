"""What the round of :mod:`twentyone.sim.kernel` does for a counter: count each card as it is
seen, take the true count, and let index plays override the chart.

The shoe state ``st`` (int64) holds, after the shoe position ``st[ST_POS]``, the counter's
running count in the system's units (tags times :attr:`CountSystem.scale
<twentyone.counting.counts.CountSystem.scale>`), the side count's cards seen, the hole card's
tag and side-count card waiting for the card to be shown, the shuffle number (a reshuffle
makes a new shoe) and the shuffle number the hole card was dealt in. The flat kernel counts
with all-zero tags; the counting kernel (:mod:`twentyone.counting.sim_kernel`) reads the count.

The counting parameters ``cp`` (int64) are the ``CP_*`` constants below: the counter's boxes,
the scale, the initial running count, the deck estimation and rounding
(:class:`~twentyone.counting.counts.TrueCount`, as indices of ``ESTIMATIONS`` and
``ROUNDINGS``), the side count's betting weight (scaled) and cards per deck, the decks, and
the insurance offers. The true count here is computed in integers and equals
:meth:`TrueCount.of <twentyone.counting.counts.TrueCount.of>` exactly (a test checks it).
"""

from __future__ import annotations

import numpy as np

from twentyone.sim.encode import (
    A_SPLIT,
    A_SURRENDER,
    C_P,
    C_RP,
    CARD_VALUE,
    K_SURRENDER,
    X_CHART,
    X_SURRENDER,
)
from twentyone.sim.hands import H_ACE, H_C0, H_C1, H_N, H_SUM, best_total, keep
from twentyone.sim.rng import Arr, Int, draw, fast

# the shoe state
ST_POS = 0  # next card's position in the shoe
ST_RC = 1  # running count (scaled)
ST_SIDE = 2  # side-count cards seen
ST_HOLE_TAG = 3  # the hole card's tag, counted when the round ends
ST_HOLE_SIDE = 4  # 1 when the hole card is a side-count card
ST_EPOCH = 5  # shuffles so far
ST_HOLE_EPOCH = 6  # the shuffle the hole card was dealt in
ST_SEATED = 7  # 1 while the counter is seated (wonging)
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
CP_OTHERS = 11  # other players at the table (one box each, after the counter's)
CP_SIZE = 12

TC_LO = -60  # true counts are binned from TC_LO to TC_HI (beyond: the end bins)
TC_HI = 60
NBINS = TC_HI - TC_LO + 1

# acc: the run's sums
A_MONEY = 0  # the counter's money (units)
A_SQUARES = 1
A_PLAYED = 2  # rounds the counter played
A_UNITS = 3  # units bet initially (all the counter's boxes)
A_RUINED = 4  # bankroll trips ruined
A_SURVIVED = 5  # bankroll trips that reached the ceiling
A_BANK = 6  # the bankroll now
A_SIZE = 8

# bins[tc - TC_LO]: the per-true-count sums
B_SEEN = 0  # rounds observed at this true count
B_PLAYED = 1  # rounds played
B_MONEY = 2  # money per initial bet of the rounds played
B_SQUARES = 3
B_SIZE = 4

# wong[]: W_IN_ON, W_IN, W_OUT_ON, W_OUT
W_IN_ON, W_IN, W_OUT_ON, W_OUT = 0, 1, 2, 3


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
def dealer_card(
    hole: bool,
    dealt: tuple[Arr, Arr, Arr, Arr, Arr, Arr, bool],
    record: bool,
    cards: Arr,
    r: Int,
    nrec: Int,
    dsum: Int,
    dace: Int,
) -> tuple[Int, Int, Int]:
    """A card for the dealer, kept in round ``r``'s record when ``record``: returns the cards
    recorded, the dealer's total with aces as 1 and whether the hand holds an ace, after it.
    The hole card (``hole``) is counted when the round ends (:func:`show_hole`), any other
    as it is dealt (:func:`deal`)."""
    shoe, st, rng, tags, sides, cp, counting = dealt
    if hole:
        c = draw(shoe, st, rng)
        if counting:
            if st[ST_POS] == 1:
                new_shoe(st, cp)
            st[ST_HOLE_TAG] = tags[c]
            st[ST_HOLE_SIDE] = sides[c]
            st[ST_HOLE_EPOCH] = st[ST_EPOCH]
    else:
        c = deal(shoe, st, rng, tags, sides, cp, counting)
    if record:
        nrec = keep(cards, r, nrec, c)
    v = CARD_VALUE[c]
    return nrec, dsum + v, 1 if v == 1 else dace


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
    chart_says: bool,
    hands: Arr,
    h: Int,
    col: Int,
    indices: tuple[Arr, Arr],
    counted: tuple[Arr, Arr, Int],
) -> bool:
    """ro.11's question before play, for a counter's box: the surrender entry, else the
    chart (``indices``: ``(ixt, ixe)``; ``counted``: ``(st, cp, size)``, the shoe's state,
    the count's parameters and the shoe's size)."""
    ixt, ixe = indices
    st, cp, size = counted
    e = surrender_entry(hands, h, col, ixt)
    if e < 0:
        return chart_says
    return _chosen(ixe, e, true_count(st, cp, size)) == X_SURRENDER


@fast(inline="always")
def index_act(
    act: Int,
    acts: Int,
    chart: tuple[Arr, Arr, Arr, Arr],
    hands: Arr,
    h: Int,
    col: Int,
    indices: tuple[Arr, Arr],
    counted: tuple[Arr, Arr, Int],
) -> Int:
    """The counter's action: ``act`` (the chart's) unless an index entry covers the hand;
    then the surrender entry decides surrender, the pair entry the split, the total's entry
    (or the surrender entry's other side) the play (``chart``: ``(hard, soft, pairs,
    restab)``; ``indices``, ``counted``: as :func:`surrenders_before_play`)."""
    hard, soft, pairs, restab = chart
    ixt, ixe = indices
    st, cp, size = counted
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


@fast(inline="always")
def _bin(tc: Int) -> Int:
    bi = tc - TC_LO
    if bi < 0:
        return 0
    return bi if bi < NBINS else NBINS - 1


@fast(inline="always")
def take_seat(
    fresh: bool, tc: Int, kc: Int, st: Arr, cp: Arr, ramp: Arr, wong: Arr, pbox: Arr
) -> tuple[Int, Int]:
    """Before the deal, at true count ``tc`` (``fresh``: a new shoe): whether the counter
    wongs in or out, the units bet (the ramp's; ``0``: the counter sits out), the counter's
    boxes (``kc`` or none) in ``cp[CP_COUNTER]``, each box's player's boxes in ``pbox``.
    Returns ``(units, boxes dealt)`` (one, played by the chart, when nobody else plays)."""
    seated = st[ST_SEATED] != 0
    if fresh:
        seated = not wong[W_IN_ON] or tc >= wong[W_IN]
    elif not seated and wong[W_IN_ON] and tc >= wong[W_IN]:
        seated = True
    if seated and wong[W_OUT_ON] and tc < wong[W_OUT]:
        seated = False
    st[ST_SEATED] = 1 if seated else 0
    units = ramp[_bin(tc)] if seated else 0
    k = kc if units > 0 else 0
    nb = k + cp[CP_OTHERS]
    if nb == 0:
        nb = 1
    cp[CP_COUNTER] = k
    for b in range(nb):
        pbox[b] = kc if b < k else 1
    return units, nb


@fast(inline="always")
def tally(
    r: Int,
    seats: tuple[Int, Int, Int, Int],
    bm: Arr,
    sums: tuple[Arr, Arr, Arr],
    recording: tuple[bool, tuple[Arr, Arr, Arr, Arr]],
    nrec: Int,
) -> None:
    """After the round (``seats``: ``(units, tc, k, nb)``): the counter's money (``units`` on
    each of its ``k`` boxes) into the run's sums ``acc``, the true count's ``bins`` and the
    bankroll (``sums``: ``(bank, acc, bins)``); with ``record`` (``recording``: ``(record,
    rec)``), round ``r``'s cards dealt, the counter's and the others' money, units and true
    count."""
    units, tc, k, nb = seats
    bank, acc, bins = sums
    record, rec = recording
    bi = _bin(tc)
    m = 0.0
    for b in range(k):
        m += bm[b]
    m = float(m * units)
    acc[A_MONEY] += m
    acc[A_SQUARES] += m * m
    bins[bi, B_SEEN] += 1.0
    if k > 0:
        x = m / (units * k)
        acc[A_PLAYED] += 1.0
        acc[A_UNITS] += units * k
        bins[bi, B_PLAYED] += 1.0
        bins[bi, B_MONEY] += x
        bins[bi, B_SQUARES] += x * x
    start, ceiling = bank[0], bank[1]
    if start > 0:
        acc[A_BANK] += m
        if acc[A_BANK] <= 0.0:
            acc[A_RUINED] += 1.0
            acc[A_BANK] = start
        elif acc[A_BANK] >= ceiling:
            acc[A_SURVIVED] += 1.0
            acc[A_BANK] = start
    if record:
        _, ncards, money, bets = rec
        ncards[r] = nrec
        money[r, 0] = m
        mo = 0.0
        for b in range(k, nb):
            mo += bm[b]
        money[r, 1] = mo
        bets[r, 0] = units
        bets[r, 1] = tc
