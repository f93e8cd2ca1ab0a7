"""The fast path: a numba kernel that plays rounds of one player's chart over a real shoe.

This is a second implementation of the engine's rules (:mod:`twentyone.engine.round`, its play and
its settlement, stays the single source of truth); the agreement test replays every recorded
round of this kernel in the engine and compares the money round by round.

What it plays: one player on ``boxes`` boxes, each with an initial bet of one unit, following
a chart (by up card, or by the dealer's two-card total where the hole card is dealt face up)
exactly as :func:`twentyone.engine.strategy.decide` answers the engine's questions
(insurance and even money declined, surrender before play where the chart says ``R``). Cards
are 52-card indices (so a suited 6-7-8 is seen). The shoe and its random numbers are in
:mod:`twentyone.sim.rng` (a lazily shuffled array: a "new shoe" is ``pos = 0``; continuous
shuffle: every round; cut card: when the cut card is out, or when a round empties the shoe, as
:class:`twentyone.engine.shoe.Shoe` does); the table of hands and the rules' tests on it are in
:mod:`twentyone.sim.hands`.

The loop and the round are written once, in :func:`kernel_function`, and compiled twice:
``counting`` is a closure constant of each, which numba prunes on before typing, so the flat
kernel :data:`flat_kernel` has none of the counter's code (no count, no index plays, no insurance,
no ramp) and plays as fast as before counting existed, while the counting kernel
(:mod:`twentyone.counting.sim_kernel`) has it all. Two entry points share the flat kernel (the
``record`` flag is their only difference). The hand and shoe helpers are
ordinary compiled calls that LLVM may inline: inlining them all at numba's level (each call
site a copy of their typed IR) made the first compile take 44 s of CPU and 1.9 GiB instead of
7 s and 0.3 GiB, for no speed. The round's steps it shares with the RL environment's kernel
(the play question, the dealer's turn and the settlement: :mod:`twentyone.sim.hands`,
:mod:`twentyone.sim.settle`) are the exception, inlined at their one call site: as calls,
which LLVM did not inline, they cost a fifth of the speed.
:func:`play_rounds_kernel` accumulates the sum and the sum of squares of the rounds' money,
:func:`record_rounds_kernel` also keeps every round's cards and money (the agreement test).
Everything below the entry points is compiled without reference counting (see
:func:`twentyone.sim.rng.fast`) and allocates nothing per round.

At a Blackjack Switch table (``P_SWITCH``) the boxes play in pairs (boxes ``2k`` and
``2k + 1``): after the peek each pair keeps or switches its second cards by the table of hand
returns in ``play`` (:mod:`twentyone.sim.switch`, :func:`twentyone.sim.hands.switch_pair`).

Money is in units of the initial bet per box: a 3:2 blackjack is ``1.5``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from twentyone.engine.compiled import dealer_draws_jit
from twentyone.sim.count_play import (
    CP_COUNTER,
    CP_EVEN_MONEY,
    CP_INS_A,
    CP_INS_T,
    CP_SCALE,
    CP_SIZE,
    ST_SIZE,
    deal,
    dealer_card,
    index_act,
    new_shoe,
    show_hole,
    surrenders_before_play,
    take_seat,
    tally,
    true_count,
)
from twentyone.sim.encode import (
    A_DOUBLE,
    A_HIT,
    A_SPLIT,
    A_STAND,
    A_SURRENDER,
    C_P,
    C_RH,
    C_RP,
    C_RS,
    CARD_VALUE,
    MAX_HANDS,
    P_AT_ONCE,
    P_BOX_BY_BOX,
    P_CONTINUOUS,
    P_CUT,
    P_DECKS,
    P_H17,
    P_HOLE,
    P_HOLE_UP,
    P_PEEK,
    P_SPANISH,
    P_SURR_BEFORE,
    P_SURR_VS_ACE,
    P_SURRENDER,
    P_SWITCH,
    TOTAL_COLUMNS,
    shoe_indices,
)
from twentyone.sim.hands import (
    FL_ACTED,
    FL_DONE,
    FL_DOUBLED,
    FL_SETTLED,
    FL_SURRENDERED,
    H_ACE,
    H_BET,
    H_FIELDS,
    H_FLAGS,
    H_N,
    H_SUM,
    add,
    after_card,
    best_total,
    chart_code,
    double_stake,
    keep,
    play_acts,
    split_hand,
    surrender_in_play,
    switch_pair,
)
from twentyone.sim.rng import Arr, Int, fast
from twentyone.sim.settle import box_money, dealer_needed
from twentyone.sim.switch import no_switch


def kernel_function(counting: bool, name: str) -> Any:
    """The simulator's loop and round (one source), compiled as ``name``: ``counting`` is a
    closure constant of the compiled function, so numba prunes the branches on it before
    typing, and the flat kernel (``False``) compiles without any of the counter's code (no
    count, no index plays, no insurance, no bet ramp); the counting one (``True``, see
    :mod:`twentyone.counting.sim_kernel`) counts every card, bets the ramp and plays the
    counter's boxes by the indices. Each is one compiled function (no numba-level inlining:
    copying a big function's IR into its caller was a third of the first compile).

    >>> [k.py_func.__closure__[0].cell_contents for k in (flat_kernel, kernel_function(True, "c"))]
    [False, True]
    """

    def run(
        n: Int,
        boxes: Int,
        play: tuple[Arr, Arr, tuple[Arr, Arr, Arr, Arr], Arr],
        deck: tuple[Arr, Arr, Arr],
        work: tuple[Arr, Arr],
        recording: tuple[bool, tuple[Arr, Arr, Arr, Arr]],
        count: tuple[Arr, Arr, Arr, Arr, Arr, Arr],
        table: tuple[Arr, Arr, Arr, Arr, Arr, Arr, Arr],
    ) -> tuple[float, float]:
        """``n`` rounds; returns the sum and the sum of squares of the rounds' money (flat).

        ``play``: the compiled rules, the chart and the switch table, ``(p, f, (hard, soft,
        pairs, restab), sw)`` (columns by up card, or, tables
        :data:`~twentyone.sim.encode.TOTAL_COLUMNS` wide at a face-up hole card, by the
        dealer's two-card total; the counter's indices by up card; the switch table of
        :mod:`twentyone.sim.switch`, read only at a switch table);
        ``deck``: ``(rng, shoe, st)``, the random stream, the shoe and its state; ``work``:
        ``(hands, nh)``, the hand table and each box's number of hands; ``recording``:
        ``(record, rec)``, ``rec`` = ``(cards, ncards, money, bets)`` written when ``record``;
        ``count``: ``(cp, tags, sides, ixt, ixe, ins)`` (see
        :mod:`twentyone.sim.count_play`); ``table``: ``(bm, pbox, ramp, wong, bank, acc,
        bins)``: each box's money in a round (units of its bet), how many boxes its player
        plays (pl.7), and the counter's ramp, wonging, bankroll and sums. Flat: ``boxes``
        boxes of one player. Counting: the counter's ``boxes`` boxes (the first ones, while
        seated), then ``cp[CP_OTHERS]`` players' one box each."""
        p, f, chart, sw = play
        rng, shoe, st = deck
        hands, nh = work
        record, rec = recording
        hard, soft, pairs, restab = chart
        cards, ncards, moneys, _ = rec
        cp, tags, sides, ixt, ixe, ins = count
        bm, pbox, ramp, wong, bank, acc, bins = table
        dealt = (shoe, st, rng, tags, sides, cp, counting)  # what deal() and dealer_card() take
        size = shoe.shape[0]
        # a chart by the dealer's two-card total (its tables' width) at a face-up hole card
        by_total = hard.shape[1] == TOTAL_COLUMNS and p[P_HOLE_UP] != 0
        sum_money = 0.0
        squares = 0.0
        for r in range(n):
            nrec: Int = np.int64(0)  # not a literal: one compile of keep()
            fresh = False
            if p[P_CONTINUOUS] or st[0] >= p[P_CUT]:
                st[0] = 0
                fresh = True
                if counting:
                    new_shoe(st, cp)
            nb = boxes
            counter: Int = 0
            units: Int = 0
            tc: Int = 0
            if counting:
                tc = true_count(st, cp, size)
                units, nb = take_seat(fresh, tc, boxes, st, cp, ramp, wong, pbox)
                counter = cp[CP_COUNTER]
            for b in range(nb):
                base = b * MAX_HANDS
                nh[b] = 1
                bm[b] = 0.0
                for fld in range(H_FIELDS):
                    hands[base, fld] = 0
                hands[base, H_BET] = 1

            # ------------------------------------------------------------ the deal
            if p[P_BOX_BY_BOX]:
                for b in range(nb):
                    for _ in range(2):
                        c = deal(shoe, st, rng, tags, sides, cp, counting)
                        if record:
                            nrec = keep(cards, r, nrec, c)
                        add(hands, b * MAX_HANDS, c)
                up = deal(shoe, st, rng, tags, sides, cp, counting)
                if record:
                    nrec = keep(cards, r, nrec, up)
            else:
                for b in range(nb):
                    c = deal(shoe, st, rng, tags, sides, cp, counting)
                    if record:
                        nrec = keep(cards, r, nrec, c)
                    add(hands, b * MAX_HANDS, c)
                up = deal(shoe, st, rng, tags, sides, cp, counting)
                if record:
                    nrec = keep(cards, r, nrec, up)
                for b in range(nb):
                    c = deal(shoe, st, rng, tags, sides, cp, counting)
                    if record:
                        nrec = keep(cards, r, nrec, c)
                    add(hands, b * MAX_HANDS, c)
            upv = CARD_VALUE[up]
            dsum = upv
            dace: Int = 1 if upv == 1 else 0
            dn = 1
            if p[P_HOLE]:
                nrec, dsum, dace = dealer_card(True, dealt, record, cards, r, nrec, dsum, dace)
                dn = 2
            col = 9 if upv == 1 else upv - 2
            ccol = col  # the chart's column: the up card's, or the dealer's two-card total's
            if by_total:  # (a dealer blackjack's, past the last, is never read: peek ends it)
                ccol = dsum + TOTAL_COLUMNS - 11 if dace else dsum - 4
            # dealer blackjack: -1 unknown, 0 no, 1 yes
            dbj = -1 if (upv == 1 or upv == 10) else 0
            for b in range(nb):
                h = b * MAX_HANDS
                if best_total(hands[h, H_SUM], hands[h, H_ACE]) == 21:
                    hands[h, H_FLAGS] = FL_DONE  # a blackjack (insurance and even money declined)

            # ------------------------------------------------------------ a counter's insurance
            insured = 0  # bit b: box b insured (half its bet)
            if counting and counter > 0 and dbj == -1:
                offered = cp[CP_INS_A] if upv == 1 else cp[CP_INS_T]
                at = ins[0] if upv == 1 else ins[1]
                even = upv == 1 and cp[CP_EVEN_MONEY]
                if (offered or even) and true_count(st, cp, size) >= at:
                    for b in range(counter):
                        h = b * MAX_HANDS
                        if hands[h, H_FLAGS] & FL_DONE and even:
                            hands[h, H_FLAGS] = FL_DONE | FL_SETTLED
                            bm[b] = 1.0
                        elif offered:
                            insured |= 1 << b

            # ------------------------------------------------------------ the peek
            if p[P_PEEK] and dbj == -1:
                dbj = 1 if best_total(dsum, dace) == 21 else 0
                if counting and dbj == 0:  # the insurance is lost
                    for b in range(counter):
                        if insured & (1 << b):
                            bm[b] -= 0.5
                    insured = 0

            # ------------------------------------------------------------ the switch
            if p[P_SWITCH] and dbj != 1:  # a blackjack seen at the peek: the hands as dealt
                for b in range(0, nb - 1, 2):  # the pairs: boxes 2k and 2k + 1
                    switch_pair(hands, b * MAX_HANDS, (b + 1) * MAX_HANDS, sw, upv)

            # ------------------------------------------------------------ surrender before play
            surrender = p[P_SURRENDER]
            if dbj != 1 and p[P_SURR_BEFORE] and surrender != 0 and (upv != 1 or p[P_SURR_VS_ACE]):
                for b in range(nb):
                    h = b * MAX_HANDS
                    if not hands[h, H_FLAGS] & FL_DONE:
                        code = chart_code(hard, soft, pairs, hands, h, ccol, True)
                        says = code in (C_RH, C_RS, C_RP)
                        if counting and b < counter:
                            says = surrenders_before_play(
                                says, hands, h, col, (ixt, ixe), (st, cp, size)
                            )
                        if says:
                            hands[h, H_FLAGS] |= FL_SURRENDERED | FL_DONE

            # ------------------------------------------------------------ play
            surr_in_play = surrender_in_play(p, upv)
            for b in range(nb if dbj != 1 else 0):  # a peeked blackjack: settled as it stands
                base = b * MAX_HANDS
                own = pbox[b]
                bonus = 0.0  # 6-7-8 and 7-7-7 bonuses paid as the cards come
                j: Int = np.int64(0)
                while j < nh[b]:
                    h = base + j
                    if not hands[h, H_FLAGS] & FL_DONE and hands[h, H_N] == 1:
                        c = deal(shoe, st, rng, tags, sides, cp, counting)
                        if record:
                            nrec = keep(cards, r, nrec, c)
                        add(hands, h, c)
                        bonus += after_card(p, f, hands, h, nh[b], own)
                    while not hands[h, H_FLAGS] & FL_DONE:
                        fl = hands[h, H_FLAGS]
                        acts = play_acts(p, hands, h, nh[b], own, surr_in_play)
                        if acts == 0:
                            hands[h, H_FLAGS] = fl | FL_DONE
                            break
                        # strategy.decide
                        code = chart_code(hard, soft, pairs, hands, h, ccol, True)
                        if acts & A_SPLIT and (code in (C_P, C_RP)):
                            act = A_SURRENDER if code == C_RP and acts & A_SURRENDER else A_SPLIT
                        else:
                            if code in (C_P, C_RP):
                                code = chart_code(hard, soft, pairs, hands, h, ccol, False)
                            act = restab[code, acts]
                        if counting and b < counter:
                            act = int(
                                index_act(
                                    act, acts, chart, hands, h, col, (ixt, ixe), (st, cp, size)
                                )
                            )
                        if act == A_STAND:
                            hands[h, H_FLAGS] = fl | FL_DONE | FL_ACTED
                        elif act in (A_HIT, A_DOUBLE):
                            if act == A_DOUBLE:
                                double_stake(p, hands, h)
                                fl |= FL_DOUBLED
                            hands[h, H_FLAGS] = fl | FL_ACTED
                            c = deal(shoe, st, rng, tags, sides, cp, counting)
                            if record:
                                nrec = keep(cards, r, nrec, c)
                            add(hands, h, c)
                            bonus += after_card(p, f, hands, h, nh[b], own)
                        elif act == A_SURRENDER:
                            hands[h, H_FLAGS] = fl | FL_DONE | FL_SURRENDERED
                        else:  # split
                            split_hand(p, hands, base, j, nh[b])
                            nh[b] += 1
                            c = deal(shoe, st, rng, tags, sides, cp, counting)
                            if record:
                                nrec = keep(cards, r, nrec, c)
                            add(hands, h, c)
                            bonus += after_card(p, f, hands, h, nh[b], own)
                            if p[P_AT_ONCE]:
                                c = deal(shoe, st, rng, tags, sides, cp, counting)
                                if record:
                                    nrec = keep(cards, r, nrec, c)
                                add(hands, h + 1, c)
                                bonus += after_card(p, f, hands, h + 1, nh[b], own)
                    j += 1
                bm[b] += bonus

            # ------------------------------------------------------------ the dealer
            live = False
            waiting = insured != 0
            early = surrender == 2
            for b in range(nb):
                box_live, box_waiting = dealer_needed(hands, b * MAX_HANDS, nh[b], early)
                live |= box_live
                waiting |= box_waiting
            if dn == 1 and (live or (waiting and dbj == -1)):  # no hole card: a late second
                nrec, dsum, dace = dealer_card(False, dealt, record, cards, r, nrec, dsum, dace)
                dn = 2
            if dn == 2:
                dbj = 1 if best_total(dsum, dace) == 21 else 0
            if live and dbj != 1:
                h17 = p[P_H17]
                while True:
                    best = best_total(dsum, dace)
                    if not dealer_draws_jit(best, best != dsum, dn, h17):
                        break
                    nrec, dsum, dace = dealer_card(False, dealt, record, cards, r, nrec, dsum, dace)
                    dn += 1
            dealer = best_total(dsum, dace)

            # ------------------------------------------------------------ settlement
            for b in range(nb):
                money = box_money(p, f, hands, b * MAX_HANDS, nh[b], dbj, dealer)
                if insured & (1 << b):
                    money += 1.0 if dbj == 1 else -0.5
                bm[b] += money

            if counting:
                show_hole(st)
                tally(r, (units, tc, counter, nb), bm, (bank, acc, bins), recording, nrec)
            else:
                m = 0.0
                for b in range(nb):
                    m += bm[b]
                sum_money += m
                squares += m * m
                if record:
                    moneys[r] = m
                    ncards[r] = nrec
        return sum_money, squares

    run.__name__ = run.__qualname__ = name
    return fast()(run)


flat_kernel = kernel_function(False, "flat_kernel")


def new_state(decks: int, boxes: int, deck: str = "standard") -> tuple[Arr, Arr, Arr, Arr]:
    """A fresh shoe of ``decks`` decks of the kind ``deck`` (in deck order: the lazy shuffle
    makes it random), the shoe state (see :mod:`twentyone.sim.count_play`) and the hand table."""
    shoe = shoe_indices(decks, deck)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    hands = np.zeros((boxes * MAX_HANDS, H_FIELDS), dtype=np.int64)
    nh = np.zeros(boxes, dtype=np.int64)
    return shoe, st, hands, nh


def no_count(boxes: int) -> tuple[tuple[Arr, ...], tuple[Arr, ...]]:
    """The ``count`` and ``table`` arguments of :data:`flat_kernel` for one player on
    ``boxes`` boxes who does not count: empty counting tables, each box's money, the
    player's boxes for each box, and an unused ramp, wonging, bankroll and sums."""
    cp = np.zeros(CP_SIZE, dtype=np.int64)
    cp[CP_SCALE] = 1
    count = (
        cp,
        np.zeros(52, dtype=np.int64),
        np.zeros(52, dtype=np.int64),
        np.full((6, 22, 10), -1, dtype=np.int64),
        np.zeros((1, 3), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
    )
    unused = np.zeros(1, dtype=np.int64)
    sums = np.zeros(1, dtype=np.float64)
    table = (
        np.zeros(boxes, dtype=np.float64),
        np.full(boxes, boxes, dtype=np.int64),
        unused,
        unused,
        sums,
        sums,
        np.zeros((1, 1), dtype=np.float64),
    )
    return count, table


# The entry points are plain Python: they allocate, then make one call into the compiled loop
# with ``record`` as an ordinary (not a literal) boolean, so the loop is compiled once for both.
def play_rounds_kernel(
    n: int,
    boxes: int,
    rules: tuple[Arr, Arr],
    chart: tuple[Arr, Arr, Arr, Arr],
    rng: Arr,
    switch: Arr | None = None,
) -> tuple[float, float]:
    """Play ``n`` rounds from a fresh shoe; return the sum and the sum of squares of the
    rounds' money. ``rules``: the compiled rules ``(p, f)``
    (:func:`twentyone.sim.encode.encode_rules`); ``chart``: ``(hard, soft, pairs, restab)``
    (:func:`~twentyone.sim.encode.encode_strategy`, :func:`~twentyone.sim.encode.resolve_table`);
    ``rng`` (4 ``uint64``, not all zero) is the xoshiro256** state, advanced in place;
    ``switch``: at a switch table, :func:`twentyone.sim.switch.switch_table` (which decides
    each pair's switch)."""
    rec = (
        np.zeros((1, 1), dtype=np.uint8),
        np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.float64),
        np.zeros((1, 1), dtype=np.int64),
    )
    return _play(n, boxes, (rules, chart, switch), rng, False, rec)


def record_rounds_kernel(
    n: int,
    boxes: int,
    rules: tuple[Arr, Arr],
    chart: tuple[Arr, Arr, Arr, Arr],
    rng: Arr,
    out: tuple[Arr, Arr, Arr],
    switch: Arr | None = None,
) -> tuple[float, float]:
    """:func:`play_rounds_kernel`, keeping in ``out`` = ``(cards, ncards, money)`` each
    round's cards (``cards[r, :ncards[r]]``, in the order they left the shoe; ``cards`` needs
    :func:`twentyone.sim.encode.max_cards` columns) and money (``money[r]``)."""
    cards, ncards, money = out
    rec = (cards, ncards, money, np.zeros((1, 1), dtype=np.int64))
    return _play(n, boxes, (rules, chart, switch), rng, True, rec)


def _play(
    n: int,
    boxes: int,
    game: tuple[tuple[Arr, Arr], tuple[Arr, Arr, Arr, Arr], Arr | None],
    rng: Arr,
    record: bool,
    rec: tuple[Arr, Arr, Arr, Arr],
) -> tuple[float, float]:
    (p, f), chart, switch = game
    shoe, st, hands, nh = new_state(
        int(p[P_DECKS]), boxes, "spanish" if p[P_SPANISH] else "standard"
    )
    count, table = no_count(boxes)
    play = (p, f, chart, no_switch() if switch is None else switch)
    total, squares = flat_kernel(
        n, boxes, play, (rng, shoe, st), (hands, nh), (record, rec), count, table
    )
    return float(total), float(squares)
