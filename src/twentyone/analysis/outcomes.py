"""The distribution of one round's net result (in initial bets), for the optimum and for basic
strategy, and the standard deviation it gives.

A first hand that is not split is followed exactly: every hand the strategy can reach, each
ending stood, doubled or bust, against the dealer's outcomes drawn from the cards left after
it (:func:`hand_distributions`). Blackjacks, surrenders and the 6-7-8 / 7-7-7 bonus are
exact too. A split round's hands are correlated through the cards they share and the
dealer's hand. With ``exact_splits`` a split into two hands (no resplit: SPL1, or aces split
once) is exact: every pair of the hands' endings with the dealer drawing after both
(:mod:`twentyone.analysis.split_joint`, Eric Farmer's definition). Otherwise, and for
resplits, the hands are taken independent given the dealer's outcome, each ending as a split
hand does with the two pair cards out, in a number of hands drawn card by card
(:func:`hands_distribution`): the mean stays within about 1e-5 of the exact return and the
standard deviation within about 2e-5 (6D S17 DAS SPL1 NS: 1.146560 for the exact 1.146540).

Nets sit on a grid of half bets (index ``off + 2 * net``); the blackjack's payout is kept apart.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from twentyone.analysis.context import UPS, Base, Context, base_table, run_solve, up_base
from twentyone.analysis.dealer import blackjack_card, dealer_distribution, dealer_table
from twentyone.analysis.hands import (
    SplitPlay,
    hand_options,
    is_blackjack,
    shoe_after,
    split_needs,
    two_card_nodes,
)
from twentyone.analysis.player import CHART, DOUBLE, FIXED, HIT, STAND, _bonus_need
from twentyone.analysis.shoe_counts import ACE, TEN, BoolArray, FloatArray, IntArray
from twentyone.analysis.shoe_counts import two_card_probability as two_card_p
from twentyone.analysis.split_joint import pair_joint, split_terminals
from twentyone.analysis.variance import hand_state

STEP = 0.5
OUTCOMES_NOTE = (
    "outcomes, sd_optimal, sd_basic: exact without splits; a split's hands each exact with "
    "the dealer's outcome, taken independent of each other given it"
)
OUTCOMES_EXACT_NOTE = (
    "outcomes, sd_optimal, sd_basic: exact, a split into two hands included (every pair of "
    "the hands' endings, the dealer drawing after both); resplits: the hands taken independent "
    "given the dealer's outcome"
)


@njit(cache=True)
def hand_distributions(
    comp_base: IntArray,
    counts: IntArray,
    total: IntArray,
    ncards: IntArray,
    child: IntArray,
    order: IntArray,
    bounds: IntArray,
    mask: BoolArray,
    valid: BoolArray,
    nb: FloatArray,
    pbj: FloatArray,
    push: FloatArray,
    bj: int,
    peek: bool,
    f1: float,
    f2: float,
    dec: IntArray,
    force_stand2: bool,
    size: int,
    off: int,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:  # pragma: no cover - compiled
    """Per hand, the distribution of its net on the grid when it stands, hits (then plays by
    ``dec``), doubles, and as played by ``dec``. With a peek, masses are joint with "the dealer
    has no blackjack" (they sum to its probability), as the values are."""
    n = counts.shape[0]
    stand = np.zeros((n, size))
    hit = np.zeros((n, size))
    dbl = np.zeros((n, size))
    played = np.zeros((n, size))
    comp = np.zeros(10, dtype=np.int64)
    l1 = int(2.0 * f1 + 0.5)
    l2 = int(2.0 * f2 + 0.5)
    for g in range(bounds.shape[0] - 1):
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not mask[i] or not valid[i]:
                continue
            nn = 0
            for v in range(10):
                comp[v] = comp_base[v] - counts[i, v]
                nn += comp[v]
            t = total[i]
            rest = 1.0 - push[i] - pbj[i]
            stand[i, off + 2] += (rest + nb[i]) / 2.0
            stand[i, off - 2] += (rest - nb[i]) / 2.0
            stand[i, off] += push[i]
            if not peek:
                stand[i, off - l1] += pbj[i]
            if t < 21:
                for v in range(10):
                    if comp[v] == 0:
                        continue
                    p = comp[v] / nn
                    c = child[i, v]
                    if c < 0:
                        keep = 1.0
                        if peek and bj >= 0:
                            keep = 1.0 - (comp[bj] - (1 if v == bj else 0)) / (nn - 1.0)
                        hit[i, off - 2] += p * keep
                        dbl[i, off - 4] += p * keep
                    else:
                        for k in range(size):
                            hit[i, k] += p * played[c, k]
                        rc = 1.0 - push[c] - pbj[c]
                        dbl[i, off + 4] += p * (rc + nb[c]) / 2.0
                        dbl[i, off - 4] += p * (rc - nb[c]) / 2.0
                        dbl[i, off] += p * push[c]
                        if not peek:
                            dbl[i, off - l2] += p * pbj[c]
            a = dec[i]
            if t == 21 or (ncards[i] == 2 and force_stand2):
                a = STAND
            src = (
                hit
                if a == HIT and t < 21
                else dbl
                if a == DOUBLE and t < 21 and ncards[i] == 2
                else stand
            )
            for k in range(size):
                played[i, k] = src[i, k]
    return stand, hit, dbl, played


@njit(cache=True)
def state_joint(
    comp_base: IntArray,
    counts: IntArray,
    total: IntArray,
    ncards: IntArray,
    child: IntArray,
    order: IntArray,
    bounds: IntArray,
    mask: BoolArray,
    valid: BoolArray,
    dists: FloatArray,
    rows: IntArray,
    bj: int,
    peek: bool,
    dec: IntArray,
    force_stand2: bool,
    fallback: FloatArray,
) -> FloatArray:  # pragma: no cover - compiled
    """Per hand as played by ``dec``: the joint probability of its final state (``stake_part *
    7 + state``: 0 = 16 or less, 1-5 = 17..21, 6 = bust; part 1 doubled) and the dealer's
    outcome (17..21, bust, blackjack) drawn from the cards the hand leaves. A bust's dealer
    outcomes (which do not change its net) are read before its last card where known, else
    from ``fallback``, scaled to the bust card's chance of no blackjack."""
    n = counts.shape[0]
    joint = np.zeros((n, 14, 7))
    comp = np.zeros(10, dtype=np.int64)
    for g in range(bounds.shape[0] - 1):
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not mask[i] or not valid[i]:
                continue
            nn = 0
            for v in range(10):
                comp[v] = comp_base[v] - counts[i, v]
                nn += comp[v]
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


class _Grid:
    def __init__(self, ctx: Context) -> None:
        most = max(ctx.split_max(p) for p in range(10))
        reach = 2 * most + 2 + ctx.bonus
        if abs(2 * ctx.bonus - round(2 * ctx.bonus)) > 1e-12:
            raise ValueError(f"bonus {ctx.bonus}: the grid holds half bets only")
        self.off = math.ceil(reach / STEP)
        self.size = 2 * self.off + 1

    def point(self, net: float, mass: float) -> FloatArray:
        out = np.zeros(self.size)
        out[self.off + round(net / STEP)] = mass
        return out

    def stake_stand(self, ctx: Context, base: Base, node: int, stake: float) -> FloatArray:
        rest = 1.0 - base.push[node] - base.pbj[node]
        out = self.point(stake, (rest + base.nb[node]) / 2.0)
        out += self.point(-stake, (rest - base.nb[node]) / 2.0)
        out += self.point(0.0, base.push[node])
        if not ctx.peek:
            out += self.point(-ctx.f2 if stake == 2 else -ctx.f1, base.pbj[node])
        return out

    def shift(self, dist: FloatArray, by: float) -> FloatArray:
        k = round(by / STEP)
        out = np.zeros(self.size)
        out[k:] = dist[: self.size - k]
        return out

    def add_sum(self, x: FloatArray, y: FloatArray) -> FloatArray:
        full = np.convolve(x, y)
        return np.asarray(full[self.off : self.off + self.size])


def _surrender(ctx: Context, grid: _Grid, pbj: float) -> FloatArray:
    if ctx.peek:
        return grid.point(-0.5, 1.0 - pbj)
    if ctx.surrender == "early":
        return grid.point(-0.5, 1.0)
    return grid.point(-0.5, 1.0 - pbj) + grid.point(-1.0, pbj)


def _split(
    ctx: Context, grid: _Grid, up: int, pair: int, play: SplitPlay, exact: bool
) -> FloatArray:
    """A split round's net (values' space). ``exact`` and two hands at most: exactly
    (:func:`_split_exact`); else each hand's final state jointly with the dealer's outcome
    exactly, the hands independent given the dealer's outcome."""
    from twentyone.analysis.context import up_dists
    from twentyone.analysis.shoe_counts import removed_sets

    nodes = ctx.nodes
    shoe = shoe_after(ctx, up)
    base = base_table(ctx, up, pair, 1, split_needs(ctx, up, pair, play))
    aces = pair == ACE and not ctx.hsa
    solved = run_solve(
        ctx, up, base, play.mode, split=True, force_stand2=aces, chart=play.chart, dec=play.dec
    )
    rows = removed_sets(ctx.decks, ctx.hands_by_pair).where[pair, 1]
    left = base.comp.copy()
    left[pair] -= 1
    cache = up_dists(ctx, up)
    if exact and ctx.split_max(pair) == 2:
        return _split_exact(ctx, grid, up, pair, solved.dec, aces)
    joint = state_joint(
        base.comp, nodes.counts, nodes.total, nodes.ncards, nodes.child, nodes.order,
        nodes.bounds, base.mask, base.valid, cache.dists, _ready(rows, cache.done),
        blackjack_card(up), ctx.peek, solved.dec, aces, dealer_distribution(left, up, ctx.h17),
    )  # fmt: skip
    n = float(left.sum())
    one = nodes.index[tuple(int(v == pair) for v in range(10))]
    j_any = sum(
        (left[c] / n * joint[nodes.child[one, c]] for c in range(10) if left[c] > 0),
        np.zeros((14, 7)),
    )
    q0 = ctx.pair_cards_left(shoe, pair, up)
    p_pair = q0 / n
    j_np = j_any
    if 0 < p_pair < 1:
        j_np = (j_any - p_pair * joint[nodes.child[one, pair]]) / (1.0 - p_pair)
    loss = (ctx.f1s, ctx.f2s)
    k_dist = hands_distribution(ctx.split_max(pair), q0, float(shoe.sum() - 2))
    out = np.zeros(grid.size)
    dealer = j_any.sum(axis=0)
    for d in range(6 if ctx.peek else 7):
        if dealer[d] <= 0.0:
            continue
        hand_np, hand_any = np.zeros(grid.size), np.zeros(grid.size)
        for part, stake in ((0, 1.0), (1, 2.0)):
            for state in range(7):
                if state == 6:
                    net = -stake
                elif d == 6:
                    net = -loss[part]
                elif d == 5:
                    net = stake
                else:
                    mine = 0 if state == 0 else 16 + state
                    net = stake * ((mine > 17 + d) - (mine < 17 + d))
                hand_np += grid.point(net, float(j_np[part * 7 + state, d]))
                hand_any += grid.point(net, float(j_any[part * 7 + state, d]))
        hand_np /= max(float(j_np[:, d].sum()), 1e-300)
        hand_any /= float(j_any[:, d].sum())
        powers = [grid.point(0.0, 1.0)]
        for (k, m), pk in k_dist.items():
            while len(powers) <= k:
                powers.append(grid.add_sum(powers[-1], hand_np))
            acc = powers[k - m]
            for _ in range(m):
                acc = grid.add_sum(acc, hand_any)
            out += dealer[d] * pk * acc
    return out


def _net(state: int, d: int, loss: tuple[float, float]) -> float:
    """A split hand's net in final state ``state`` (``part * 7 + state``) against dealer
    outcome ``d`` (0-4 = 17..21, 5 bust, 6 blackjack)."""
    part, st = divmod(state, 7)
    stake = 2.0 if part else 1.0
    if st == 6:
        return -stake
    if d == 6:
        return -loss[part]
    if d == 5:
        return stake
    mine = 0 if st == 0 else 16 + st
    return stake * ((mine > 17 + d) - (mine < 17 + d))


def _split_exact(
    ctx: Context, grid: _Grid, up: int, pair: int, dec: IntArray, aces: bool
) -> FloatArray:
    """A split into two hands, exactly (:mod:`twentyone.analysis.split_joint`)."""
    shoe = shoe_after(ctx, up)
    shoe[pair] -= 2
    t = split_terminals(ctx.nodes, dec, pair, aces)
    joint = pair_joint(shoe, t, dealer_table(up, ctx.h17))
    loss = (ctx.f1s, ctx.f2s)
    out = np.zeros(grid.size)
    for s1, s2, d in zip(*np.nonzero(joint), strict=True):
        if ctx.peek and d == 6:
            continue
        net = _net(int(s1), int(d), loss) + _net(int(s2), int(d), loss)
        out += grid.point(net, float(joint[s1, s2, d]))
    return out


def _ready(rows: IntArray, done: BoolArray) -> IntArray:
    """Rows whose dealer outcomes are computed (-1 for the others)."""
    ok = rows >= 0
    out = np.full(rows.shape[0], -1, dtype=np.int64)
    out[ok] = np.where(done[rows[ok]], rows[ok], -1)
    return out


def round_outcomes(
    ctx: Context, optimal: bool, *, exact_splits: bool = False
) -> dict[float, float]:
    """``{net: probability}`` of one round dealt from ``ctx``'s shoe, played by the optimum
    (CDZ-) or by the full shoe's basic strategy; ``exact_splits``: a split into two hands (no
    resplit) exactly, jointly with the other hand and the dealer (see
    :mod:`twentyone.analysis.split_joint`; slower: every pair of the hands' endings)."""
    from twentyone.analysis.basic import basic_column
    from twentyone.analysis.optimal import optimal_solved, optimal_split

    grid = _Grid(ctx)
    nodes = ctx.nodes
    full = ctx.fresh()
    n_all = float(full.sum())
    out: dict[float, float] = {}
    main = np.zeros(grid.size)
    for up in UPS:
        if full[up] == 0:
            continue
        pu = full[up] / n_all
        base = up_base(ctx, up)
        shoe = shoe_after(ctx, up)
        col = None if optimal else basic_column(ctx, up)
        if optimal:
            solved = optimal_solved(ctx, up)
        else:
            assert col is not None and col.chart is not None
            solved = run_solve(ctx, up, base, CHART, chart=col.chart)
        stand, hit, dbl, played = hand_distributions(
            base.comp, nodes.counts, nodes.total, nodes.ncards, nodes.child, nodes.order,
            nodes.bounds, base.mask, base.valid, base.nb, base.pbj, base.push,
            blackjack_card(up), ctx.peek, ctx.f1, ctx.f2, solved.dec, False, grid.size, grid.off,
        )  # fmt: skip
        sur = ctx.surrender_offered(up)
        for a, b, node in two_card_nodes(ctx):
            p = two_card_p(shoe, a, b) * pu
            if p == 0.0:
                continue
            pbj = float(base.pbj[node])
            if is_blackjack(a, b):
                out[ctx.bj_pays] = out.get(ctx.bj_pays, 0.0) + p * (1.0 - pbj)
                out[0.0] = out.get(0.0, 0.0) + p * pbj
                continue
            sf = float(solved.bonus_share[node])
            hit_b, dbl_b = hit[node], dbl[node]
            need, share = _bonus_need(nodes.counts[node])
            comp = shoe - nodes.counts[node]
            if ctx.bonus and need >= 0 and comp[need] > 0 and int(nodes.total[node]) < 21:
                c = int(nodes.child[node, need])
                q = comp[need] / float(comp.sum()) * (0.25 if share < 1.0 else 1.0)
                hit_b = hit_b + q * (grid.shift(played[c], ctx.bonus) - played[c])
                two = grid.stake_stand(ctx, base, c, 2)
                dbl_b = dbl_b + q * (grid.shift(two, ctx.bonus) - two)
            plain = {"stand": stand[node], "hit": hit[node], "double": dbl[node]}
            paid = {"stand": stand[node], "hit": hit_b, "double": dbl_b}
            if sur:
                plain["surrender"] = paid["surrender"] = _surrender(ctx, grid, pbj)
            ten_share = ctx.same_rank_share() if a == b == TEN and ctx.split_rank else 1.0
            if optimal:
                choices: list[tuple[float, float | None]] = [(1.0, None)]
                if a == b and ctx.can_split:
                    split_ev = optimal_split(ctx, up, a, ctx.split_max(a))
                    choices = [(ten_share, split_ev), (1.0 - ten_share, None)]
                dist = np.zeros(grid.size)
                for weight, sv in choices:
                    if weight == 0.0:
                        continue
                    opts = hand_options(ctx, up, node, solved, base, split=sv, surrender=sur)
                    for w2, values, dists in (
                        (1.0 - sf, opts.plain, plain),
                        (sf, opts.bonus, paid),
                    ):
                        if w2 == 0.0:
                            continue
                        act = max(values, key=lambda k: values[k])
                        if act == "split":
                            play = SplitPlay(mode=FIXED, dec=(solved.dec, solved.decs))
                            dists = {"split": _split(ctx, grid, up, a, play, exact_splits)}
                        dist += weight * w2 * dists[act]
            else:
                assert col is not None
                avg = {k: (1.0 - sf) * plain[k] + sf * paid[k] for k in plain}
                with_split, by_total = col.actions[(a, b)]
                dist = avg[by_total]
                if with_split == "split":
                    play = SplitPlay(mode=CHART, chart=col.chart)
                    sp = _split(ctx, grid, up, a, play, exact_splits)
                    dist = ten_share * sp + (1.0 - ten_share) * dist
                elif with_split != by_total:
                    dist = ten_share * avg[with_split] + (1.0 - ten_share) * dist
            if ctx.peek and up in (ACE, TEN):
                dist = dist + grid.point(-1.0, pbj)
            main += p * dist
    for k in np.nonzero(main)[0]:
        net = (int(k) - grid.off) * STEP
        out[net] = out.get(net, 0.0) + float(main[k])
    return dict(sorted(out.items()))
