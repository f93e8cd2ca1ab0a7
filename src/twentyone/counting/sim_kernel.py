"""The counting kernel: a counter and other players at one table, rounds dealt from the rules'
own shoe, the counter's bet following a ramp on the true count.

It plays the flat kernel's loop and round (:func:`twentyone.sim.kernel.kernel_function`,
compiled for counting: the same deal, hand play, dealer and settlement, the same shoe and
random numbers), with the counter on the
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
:mod:`twentyone.counting.sim_runner`). The steps before and after the round are
:func:`twentyone.sim.count_play.take_seat` and :func:`~twentyone.sim.count_play.tally`.
"""

from __future__ import annotations

import numpy as np

from twentyone.sim.count_play import (
    A_BANK,
    A_SIZE,
    B_SIZE,
    CP_IRC,
    CP_OTHERS,
    NBINS,
    ST_RC,
    ST_SEATED,
    ST_SIZE,
    TC_HI,
    TC_LO,
)
from twentyone.sim.encode import MAX_HANDS, P_DECKS
from twentyone.sim.hands import H_FIELDS
from twentyone.sim.kernel import kernel_function
from twentyone.sim.rng import Arr
from twentyone.sim.switch import no_switch

__all__ = ["TC_HI", "TC_LO", "play_counting_kernel"]

counting_kernel = kernel_function(True, "counting_kernel")


def play_counting_kernel(
    n: int,
    seats: tuple[int, int],
    rules: tuple[Arr, Arr],
    chart: tuple[Arr, Arr, Arr, Arr],
    count: tuple[Arr, Arr, Arr, Arr, Arr, Arr],
    betting: tuple[Arr, Arr, Arr],
    rng: Arr,
    record: tuple[Arr, Arr, Arr, Arr] | None = None,
) -> tuple[Arr, Arr]:
    """Play ``n`` rounds from a fresh shoe: ``seats`` is ``(counter_boxes, others)``, the
    counter's boxes and the other players; ``rules`` the compiled rules ``(p, f)``; ``chart``
    is ``(hard, soft, pairs, restab)``, ``count`` is ``(cp, tags, sides, ixt, ixe, ins)``
    (:mod:`twentyone.sim.count_play`); ``betting`` is ``(ramp, wong, bank)``: ``ramp[tc -
    TC_LO]`` the units bet, ``wong`` the ``W_*`` values, ``bank`` the bankroll and its ceiling
    (``0``: no bankroll); ``rng`` the xoshiro256** state (advanced in place).
    Returns ``(acc, bins)`` (the ``A_*`` and ``B_*`` sums). With ``record`` = ``(cards,
    ncards, money, bets)`` each round's cards, the counter's and the others' money and the
    counter's units and true count are kept (the agreement test)."""
    counter_boxes, others = seats
    p, f = rules
    ramp, wong, bank = betting
    boxes = counter_boxes + max(others, 1)
    shoe = (np.arange(52 * int(p[P_DECKS])) % 52).astype(np.uint8)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[ST_RC] = count[0][CP_IRC]  # a new shoe: the initial running count
    st[ST_SEATED] = 1
    count[0][CP_OTHERS] = others
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
    table = (bm, pbox, ramp, wong, bank, acc, bins)
    deck, work = (rng, shoe, st), (hands, nh)
    play = (p, f, chart, no_switch())  # switch tables are refused (counting.sim_runner)
    counting_kernel(n, counter_boxes, play, deck, work, (flag, rec), count, table)
    return acc, bins
