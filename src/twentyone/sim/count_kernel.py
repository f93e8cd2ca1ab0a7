"""The counting kernel: a counter and other players at one table, rounds dealt from the rules'
own shoe, the counter's bet following a ramp on the true count.

It plays the flat kernel's round (:func:`twentyone.sim.kernel.round_function`, specialised
for counting: the same deal, hand play, dealer and settlement, the same shoe and random
numbers), with the counter on the
first boxes: every card seen is counted (the hole card when it is shown), index plays override
the chart on the counter's boxes (:mod:`twentyone.sim.count_play`), and the counter insures
(or takes even money) at the insurance index. Each round, before the deal:

1. a new shoe when the rules' shuffle says so (cut card out, or every round for a continuous
   shuffler); the running count starts again at the system's initial count;
2. the true count ``tc``; the counter, if wonging, leaves (``tc < wong_out``) or comes back
   (``tc >= wong_in``), and at a new shoe sits down only when ``tc >= wong_in``;
3. the bet: the ramp's units at ``tc`` (``0``, or wonged out: the counter sits the round out
   and watches the other players' round; with nobody else at the table the dealer deals one
   box played by basic strategy, a back-counted table);
4. the round, the counter on ``boxes`` boxes of that bet, then ``others`` players on one box
   each (basic strategy, flat bets, consuming cards).

Statistics (units of the ramp): the sum and sum of squares of the counter's money per round
observed (a round sat out is a zero), rounds played and units bet, for each true count the
rounds observed and played and the sum and sum of squares of the money per initial bet, and,
with a bankroll, the trips of a bankroll run to ruin or to its ceiling (see
:mod:`twentyone.sim.count_runner`).
"""

from __future__ import annotations

import numpy as np

from twentyone.sim.count_play import (
    CP_COUNTER,
    CP_IRC,
    ST_RC,
    ST_SIZE,
    new_shoe,
    show_hole,
    true_count,
)
from twentyone.sim.encode import MAX_HANDS, P_CONTINUOUS, P_CUT, P_DECKS
from twentyone.sim.hands import H_FIELDS
from twentyone.sim.kernel import play_round_counting
from twentyone.sim.rng import Arr, Int, fast

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
def _run_counting(
    n: Int,
    kc: Int,
    others: Int,
    p: Arr,
    f: Arr,
    chart: tuple[Arr, Arr, Arr, Arr],
    rng: Arr,
    shoe: Arr,
    st: Arr,
    hands: Arr,
    nh: Arr,
    bm: Arr,
    pbox: Arr,
    count: tuple[Arr, Arr, Arr, Arr, Arr, Arr],
    ramp: Arr,
    wong: Arr,
    bank: Arr,
    acc: Arr,
    bins: Arr,
    record: bool,
    cards: Arr,
    ncards: Arr,
    money: Arr,
    bets: Arr,
) -> None:
    hard, soft, pairs, restab = chart
    cp, tags, sides, ixt, ixe, ins = count
    size = shoe.shape[0]
    seated = True
    start, ceiling = bank[0], bank[1]
    for r in range(n):
        fresh = False
        if p[P_CONTINUOUS] or st[0] >= p[P_CUT]:
            st[0] = 0
            new_shoe(st, cp)
            fresh = True
        tc = true_count(st, cp, size)
        if fresh:
            seated = not wong[W_IN_ON] or tc >= wong[W_IN]
        elif not seated and wong[W_IN_ON] and tc >= wong[W_IN]:
            seated = True
        if seated and wong[W_OUT_ON] and tc < wong[W_OUT]:
            seated = False
        bi = tc - TC_LO
        if bi < 0:
            bi = 0
        elif bi >= NBINS:
            bi = NBINS - 1
        units = ramp[bi] if seated else 0
        k = kc if units > 0 else 0
        nb = k + others
        if nb == 0:
            nb = 1
        cp[CP_COUNTER] = k
        for b in range(nb):
            pbox[b] = kc if b < k else 1
        nrec = play_round_counting(
            nb,
            p,
            f,
            hard,
            soft,
            pairs,
            restab,
            shoe,
            st,
            rng,
            hands,
            nh,
            record,
            cards,
            r,
            bm,
            pbox,
            cp,
            tags,
            sides,
            ixt,
            ixe,
            ins,
        )
        show_hole(st)
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
        if start > 0:
            acc[A_BANK] += m
            if acc[A_BANK] <= 0.0:
                acc[A_RUINED] += 1.0
                acc[A_BANK] = start
            elif acc[A_BANK] >= ceiling:
                acc[A_SURVIVED] += 1.0
                acc[A_BANK] = start
        if record:
            ncards[r] = nrec
            money[r, 0] = m
            mo = 0.0
            for b in range(k, nb):
                mo += bm[b]
            money[r, 1] = mo
            bets[r, 0] = units
            bets[r, 1] = tc


def play_counting_kernel(
    n: int,
    counter_boxes: int,
    others: int,
    p: Arr,
    f: Arr,
    chart: tuple[Arr, Arr, Arr, Arr],
    count: tuple[Arr, Arr, Arr, Arr, Arr, Arr],
    ramp: Arr,
    wong: Arr,
    bank: Arr,
    rng: Arr,
    record: tuple[Arr, Arr, Arr, Arr] | None = None,
) -> tuple[Arr, Arr]:
    """Play ``n`` rounds from a fresh shoe: ``chart`` is ``(hard, soft, pairs, restab)``,
    ``count`` is ``(cp, tags, sides, ixt, ixe, ins)`` (:mod:`twentyone.sim.count_play`),
    ``ramp[tc - TC_LO]`` the units bet, ``wong`` the ``W_*`` values, ``bank`` the bankroll and
    its ceiling (``0``: no bankroll), ``rng`` the xoshiro256** state (advanced in place).
    Returns ``(acc, bins)`` (the ``A_*`` and ``B_*`` sums). With ``record`` = ``(cards,
    ncards, money, bets)`` each round's cards, the counter's and the others' money and the
    counter's units and true count are kept (the agreement test)."""
    boxes = counter_boxes + max(others, 1)
    shoe = (np.arange(52 * int(p[P_DECKS])) % 52).astype(np.uint8)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[ST_RC] = count[0][CP_IRC]  # a new shoe: the initial running count
    hands = np.zeros((boxes * MAX_HANDS, H_FIELDS), dtype=np.int64)
    nh = np.zeros(boxes, dtype=np.int64)
    bm = np.zeros(boxes, dtype=np.float64)
    pbox = np.ones(boxes, dtype=np.int64)
    acc = np.zeros(A_SIZE, dtype=np.float64)
    acc[A_BANK] = bank[0]
    bins = np.zeros((NBINS, B_SIZE), dtype=np.float64)
    if record is None:
        rec = (
            np.zeros((1, 1), dtype=np.uint8),
            np.zeros(1, dtype=np.int64),
            np.zeros((1, 2), dtype=np.float64),
            np.zeros((1, 2), dtype=np.int64),
        )
        flag = False
    else:
        rec, flag = record, True
    _run_counting(
        n,
        counter_boxes,
        others,
        p,
        f,
        chart,
        rng,
        shoe,
        st,
        hands,
        nh,
        bm,
        pbox,
        count,
        ramp,
        wong,
        bank,
        acc,
        bins,
        flag,
        *rec,
    )
    return acc, bins
