"""Rounds whose split reaches three hands or more (resplits), approximately, where the shoe
is too big to list them exactly (:mod:`twentyone.analysis.resplit_exact`): each hand's final
state exact jointly with the dealer's outcome (:func:`state_joint`), the hands taken
independent given that outcome, in a number of hands drawn card by card
(:func:`hands_distribution`). Splits that end with two hands are exact
(:mod:`twentyone.analysis.split_joint`); this part is bounded by its probability, and
:mod:`twentyone.analysis.outcomes` matches it to its exact mean and second moment
(:mod:`twentyone.analysis.split_moments`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from twentyone.analysis.caches import memo
from twentyone.analysis.context import Base, Context, shoe_after
from twentyone.analysis.dealer import blackjack_card, dealer_distribution
from twentyone.analysis.grid import STEP, Grid, split_hand_net
from twentyone.analysis.player import DOUBLE, STAND, cards_left
from twentyone.analysis.shoe_counts import ACE, BoolArray, FloatArray, HandTable, IntArray
from twentyone.analysis.variance import hand_state
from twentyone.engine.jit import njit


class DealerOutcomes(NamedTuple):
    """The dealer's outcomes :func:`state_joint` reads: ``dists[rows[i]]`` for the cards hand
    ``i`` leaves (``rows[i]`` -1: not known), ``fallback`` where not known."""

    dists: FloatArray
    rows: IntArray
    fallback: FloatArray


@njit(cache=True)
def state_joint(
    comp_base: IntArray,
    hands: HandTable,
    use: BoolArray,
    dealer: DealerOutcomes,
    dec: IntArray,
    bj: int,
    peek: bool,
    force_stand2: bool,
) -> FloatArray:  # pragma: no cover - compiled
    """Per hand as played by ``dec``: the joint probability of its final state (``stake_part *
    7 + state``: 0 = 16 or less, 1-5 = 17..21, 6 = bust; part 1 doubled) and the dealer's
    outcome (17..21, bust, blackjack) drawn from the cards the hand leaves. A bust's dealer
    outcomes (which do not change its net) are read before its last card where known, else
    from ``fallback``, scaled to the bust card's chance of no blackjack."""
    counts, total, ncards = hands.counts, hands.total, hands.ncards
    child, order, bounds = hands.child, hands.order, hands.bounds
    dists, rows, fallback = dealer.dists, dealer.rows, dealer.fallback
    n = counts.shape[0]
    joint = np.zeros((n, 14, 7))
    comp = np.zeros(10, dtype=np.int64)
    for g in range(bounds.shape[0] - 1):
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not use[i]:
                continue
            nn = cards_left(comp_base, counts, i, comp)
            t = total[i]
            a = dec[i]
            if t == 21 or (ncards[i] == 2 and force_stand2) or a == STAND:
                if rows[i] >= 0:
                    for d in range(7):
                        joint[i, hand_state(t), d] = dists[rows[i], d]
                continue
            part = 1 if (a == DOUBLE and ncards[i] == 2) else 0
            for v in range(10):
                if comp[v] == 0:
                    continue
                p = comp[v] / nn
                c = child[i, v]
                if c >= 0 and part == 0:
                    for k in range(14):
                        for d in range(7):
                            joint[i, k, d] += p * joint[c, k, d]
                elif c >= 0:
                    if rows[c] >= 0:
                        for d in range(7):
                            joint[i, 7 + hand_state(total[c]), d] += p * dists[rows[c], d]
                else:
                    row = dists[rows[i]] if rows[i] >= 0 else fallback
                    keep = 1.0 - row[6]
                    if bj >= 0 and nn > 1:
                        keep = 1.0 - (comp[bj] - (1 if v == bj else 0)) / (nn - 1.0)
                    scale = keep / (1.0 - row[6]) if row[6] < 1.0 else 0.0
                    for d in range(6):
                        joint[i, part * 7 + 6, d] += p * row[d] * scale
                    joint[i, part * 7 + 6, 6] += p * (1.0 - keep)
    return joint


def hands_distribution(
    max_hands: int, pair_cards: float, cards: float
) -> dict[tuple[int, int], float]:
    """The probability that a split makes ``k`` hands of which ``m`` drew their second card
    after the last allowed hand was made (any card; the others drew a card that is not a pair
    card), as ``{(k, m): p}``; second cards are drawn in turn, ``pair_cards`` of ``cards``
    left allow a resplit.

    >>> hands_distribution(2, 22.0, 307.0)
    {(2, 2): 1.0}
    >>> d = hands_distribution(4, 22.0, 307.0)
    >>> round(sum(d.values()), 12), round(d[(2, 0)], 4)
    (1.0, 0.8616)
    """
    return dict(_hands_distribution(max_hands, pair_cards, cards))


@memo(256)
def _hands_distribution(
    max_hands: int, pair_cards: float, cards: float
) -> dict[tuple[int, int], float]:
    """:func:`hands_distribution`, kept (the optimum and the chart ask for the same)."""
    if max_hands <= 2:
        return {(2, 2): 1.0}
    out: dict[tuple[int, int], float] = {}
    states: dict[tuple[int, int], float] = {(2, 2): 1.0}
    while states:
        nxt: dict[tuple[int, int], float] = {}
        for (pend, k), mass in states.items():
            left = cards - (k - 2) - (k - pend)
            p_pair = max(pair_cards - (k - 2), 0.0) / left if left > 0 else 0.0
            if p_pair > 0:
                if k + 1 == max_hands:
                    key = (k + 1, pend + 1)
                    out[key] = out.get(key, 0.0) + mass * p_pair
                else:
                    nxt[(pend + 1, k + 1)] = nxt.get((pend + 1, k + 1), 0.0) + mass * p_pair
            q = mass * (1.0 - p_pair)
            if pend == 1:
                out[(k, 0)] = out.get((k, 0), 0.0) + q
            else:
                nxt[(pend - 1, k)] = nxt.get((pend - 1, k), 0.0) + q
        states = nxt
    return dict(sorted(out.items()))


def _ready(rows: IntArray, done: BoolArray) -> IntArray:
    """Rows whose dealer outcomes are computed (-1 for the others)."""
    ok = rows >= 0
    out = np.full(rows.shape[0], -1, dtype=np.int64)
    out[ok] = np.where(done[rows[ok]], rows[ok], -1)
    return out


def _hand_joints(
    ctx: Context, up: int, pair: int, dec: IntArray, base: Base
) -> tuple[FloatArray, FloatArray]:
    """One split hand's final state jointly with the dealer's outcome (``[part * 7 + state,
    d]``) when its second card is any card and when it is not a pair card (``base``: the
    stand values with the pair cards out)."""
    from twentyone.analysis.context import up_dists
    from twentyone.analysis.shoe_counts import removed_sets

    ctx.refuse_push22("outcomes")  # seven dealer outcomes here: no 22 among them yet
    ctx.refuse_free("outcomes")
    ctx.refuse_ties("outcomes")
    ctx.refuse_spanish("outcomes")
    nodes = ctx.nodes
    rows = removed_sets(ctx.decks, ctx.hands_by_pair).where[pair, 1]
    left = base.comp.copy()
    left[pair] -= 1
    cache = up_dists(ctx, up)
    # every row the walk may read, computed now: which rows earlier analyses happened to
    # compute must not change the figures (a bust's dealer outcomes before its last card)
    cache.ensure(rows[base.mask & base.valid])
    dealer = DealerOutcomes(
        cache.dists, _ready(rows, cache.done), dealer_distribution(left, up, ctx.h17_from)
    )
    joint = state_joint(
        base.comp,
        nodes.table,
        base.mask & base.valid,
        dealer,
        dec,
        blackjack_card(up),
        ctx.peek,
        pair == ACE and not ctx.hsa,
    )
    n = float(left.sum())
    one = nodes.index[tuple(int(v == pair) for v in range(10))]
    j_any = sum(
        (left[c] / n * joint[nodes.child[one, c]] for c in range(10) if left[c] > 0),
        np.zeros((14, 7)),
    )
    p_pair = ctx.pair_cards_left(shoe_after(ctx, up), pair, up) / n
    j_np = j_any
    if 0 < p_pair < 1:
        j_np = (j_any - p_pair * joint[nodes.child[one, pair]]) / (1.0 - p_pair)
    return j_any, j_np


def _hand_given_dealer(ctx: Context, grid: Grid, joint: FloatArray, d: int) -> FloatArray:
    """One split hand's net on the grid given dealer outcome ``d``."""
    loss = (ctx.f1s, ctx.f2s)
    out = np.zeros(grid.size)
    for state in range(14):
        out[grid.off + round(split_hand_net(state, d, loss) / STEP)] += float(joint[state, d])
    return out / max(float(joint[:, d].sum()), 1e-300)


def more_hands(
    ctx: Context, grid: Grid, up: int, pair: int, dec: IntArray, base: Base
) -> FloatArray:
    """The rounds whose split reaches three hands or more, approximately: the hands
    independent given the dealer's outcome, as many as :func:`hands_distribution` draws."""
    shoe = shoe_after(ctx, up)
    j_any, j_np = _hand_joints(ctx, up, pair, dec, base)
    q0 = ctx.pair_cards_left(shoe, pair, up)
    k_dist = hands_distribution(ctx.split_max(pair), q0, float(shoe.sum() - 2))
    more = {km: pk for km, pk in k_dist.items() if km[0] >= 3}
    dealer = j_any.sum(axis=0)
    out = np.zeros(grid.size)
    if not more:
        return out
    for d in range(6 if ctx.peek else 7):
        if dealer[d] <= 0.0:
            continue
        pow_np = _powers(
            grid.span(_hand_given_dealer(ctx, grid, j_np, d)), max(k - m for k, m in more)
        )
        pow_any = _powers(
            grid.span(_hand_given_dealer(ctx, grid, j_any, d)), max(m for _, m in more)
        )
        by_m: dict[int, FloatArray] = {}  # the hands like any, by number: the others summed
        for (k, m), pk in more.items():
            at, values = pow_np[k - m]
            if m not in by_m:
                by_m[m] = np.zeros(grid.size)
            grid.add_span(by_m[m], at, pk * values)
        for m, dist in by_m.items():
            at, values = grid.span(dist)
            at_m, values_m = pow_any[m]
            grid.add_span(out, at + at_m, dealer[d] * np.convolve(values, values_m))
    return out


def _powers(hand: tuple[int, FloatArray], most: int) -> list[tuple[int, FloatArray]]:
    """The net of ``0 .. most`` independent hands alike (spans, as :meth:`Grid.span` gives them);
    the grid is wide enough for the rules' largest split."""
    out = [(0, np.ones(1))]
    while len(out) <= most:
        at, values = out[-1]
        out.append((at + hand[0], np.convolve(values, hand[1])))
    return out
