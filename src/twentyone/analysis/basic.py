"""Total-dependent basic strategy, derived from the exact composition-dependent values, and
its exact return.

For each up card, chart rows are decided from the highest totals down (a row's hit value
uses the rows already decided): hit or stand by the probability-weighted return of every hand
of that total (two cards or more); then double, split and surrender by the weighted return of
the two-card hands they apply to. The chart is then played exactly, split hands included
(the chart plays them, doubling where it says so and the rules allow).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from twentyone.analysis.caches import memo
from twentyone.analysis.context import (
    UPS,
    Context,
    Solved,
    chart_solved,
    run_solve,
    shoe_after,
    up_base,
)
from twentyone.analysis.hands import (
    SplitPlay,
    blackjack_value,
    is_blackjack,
    mix_rank_pairs,
    top_offset,
    two_card_deals,
)
from twentyone.analysis.player import BY_TOTAL, CHART, CODE_INDEX, action_of
from twentyone.analysis.shoe_counts import GROUP_OF, IntArray, two_card_probability
from twentyone.analysis.splits import split_value
from twentyone.analysis.variance import column_second_moment
from twentyone.engine.strategy import HARD_TOTALS, SOFT_TOTALS, Strategy


@dataclass(frozen=True)
class Column:
    """One up card's chart column and the chart's return against it; ``actions[(a, b)]``: the
    action the chart takes on each two-card hand (for a ten-value pair split by rank: the
    action of a pair of one rank, then of two ranks)."""

    hard: dict[int, str]
    soft: dict[int, str]
    pairs: dict[int, str]
    ev: float
    hands: dict[tuple[int, int], float]
    second_moment: float
    actions: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    chart: tuple[IntArray, IntArray] | None = None


def _arrays(hard: dict[int, str], soft: dict[int, str]) -> tuple[IntArray, IntArray]:
    h = np.zeros(22, dtype=np.int64)
    s = np.zeros(22, dtype=np.int64)
    for t, c in hard.items():
        h[t] = CODE_INDEX[c]
    for t, c in soft.items():
        s[t] = CODE_INDEX[c]
    return h, s


def _value(code: str, opts: dict[str, float]) -> float:
    """The value of playing a chart code on a first hand, given each action's value."""
    return opts[action_of(code, opts)]


def _options(ctx: Context, up: int, node: int, solved: Solved, pbj: float) -> dict[str, float]:
    s, h, d, bb, sf = solved.stand, solved.hit, solved.double, solved.bonus, solved.bonus_share
    nodes = ctx.nodes
    t, soft = int(nodes.total[node]), bool(nodes.soft[node])
    bonus = float(sf[node] * bb[node])  # a chart does not see suits: the average bonus
    out: dict[str, float] = {}
    if t >= ctx.min_stand or t == 21:
        out["stand"] = float(s[node])
    if t < 21:
        out["hit"] = float(h[node]) + bonus
    if ctx.can_double(t, soft):
        out["double"] = float(d[node]) + bonus
    if ctx.surrender_offered(up):
        out["surrender"] = ctx.surrender_value(pbj)
    return out


def strategy_column(strategy: Strategy, up: int) -> Derived:
    """The column of ``strategy`` (a chart by up card) for ``up`` as :func:`derive_column`
    gives one, without action values (``opts`` empty: :func:`played_options` prices it)."""
    i = UPS.index(up)
    codes = {(False, t): strategy.hard[t][i] for t in HARD_TOTALS}
    codes.update({(True, t): strategy.soft[t][i] for t in SOFT_TOTALS})
    pairs = {a: strategy.pairs[a + 1][i] for a in range(10)}
    return codes_column(codes, pairs)


def codes_column(codes: dict[tuple[bool, int], str], pairs: dict[int, str]) -> Derived:
    """A column of chart codes by (soft, total) row and by pair value index, as
    :func:`derive_column` gives one, without action values (``opts`` empty:
    :func:`played_options` prices it)."""
    return Derived(codes, pairs, _arrays(*_by_total(codes)), {})


@dataclass(frozen=True)
class Derived:
    """One up card's chart column as derived over a shoe: the codes by row (``codes``), by
    pair value index (``pairs``), the chart's integer arrays, and each two-card hand's action
    values there (``opts``, the split's for the pairs the chart splits)."""

    codes: dict[tuple[bool, int], str]
    pairs: dict[int, str]
    chart: tuple[IntArray, IntArray]
    opts: dict[tuple[int, int], dict[str, float]]


@memo(64)
def derive_column(ctx: Context, up: int) -> Derived:
    """Derive the chart column for up card ``up`` from the exact values over ``ctx``'s shoe."""
    nodes = ctx.nodes
    base = up_base(ctx, up)
    solved = run_solve(ctx, up, base, BY_TOTAL)
    gdec = solved.row_hit
    shoe = shoe_after(ctx, up)
    rows: dict[tuple[bool, int], list[tuple[int, int, int, float]]] = {}
    for a, b, node, p in two_card_deals(ctx, up):
        if p > 0 and not is_blackjack(a, b):
            key = (bool(nodes.soft[node]), int(nodes.total[node]))
            rows.setdefault(key, []).append((a, b, node, p))
    opts = {
        (a, b): _options(ctx, up, node, solved, float(base.pbj[node]))
        for hands in rows.values()
        for a, b, node, _ in hands
    }
    codes: dict[tuple[bool, int], str] = {}
    for key in [(False, t) for t in HARD_TOTALS] + [(True, t) for t in SOFT_TOTALS]:
        hs = "H" if gdec[GROUP_OF[key]] else "S"
        codes[key] = hs
        hands = rows.get(key, [])
        if hands and ctx.can_double(key[1], key[0]):
            plain = sum(p * _value(hs, opts[(a, b)]) for a, b, _, p in hands)
            dbl = sum(p * opts[(a, b)]["double"] for a, b, _, p in hands)
            if dbl > plain:
                codes[key] = "D" + hs.lower()
    chart = _arrays(*_by_total(codes))
    pairs: dict[int, str] = {}
    for a in range(10):
        node = nodes.index[tuple(2 * (v == a) for v in range(10))]
        row = (bool(nodes.soft[node]), int(nodes.total[node]))
        pairs[a] = codes[row]
        if ctx.can_split and two_card_probability(shoe, a, a) > 0:
            sv = split_value(ctx, up, shoe, a, SplitPlay(mode=CHART, chart=chart), ctx.split_max(a))
            o = opts[(a, a)]
            o["split"] = sv
            if sv > _value(codes[row], {k: v for k, v in o.items() if k != "split"}):
                pairs[a] = "P"
                if "surrender" in o and o["surrender"] > sv:
                    pairs[a] = "Rp"
    if ctx.surrender_offered(up):
        for key, hands in rows.items():
            if key not in codes:
                continue
            live = [(a, b, p) for a, b, _, p in hands if not (a == b and pairs[a] in ("P", "Rp"))]
            if not live:
                continue
            cur = sum(p * _value(codes[key], opts[(a, b)]) for a, b, p in live)
            sur = sum(p * opts[(a, b)]["surrender"] for a, b, p in live)
            if sur > cur:
                codes[key] = "Rs" if codes[key] in ("S", "Ds") else "Rh"
        for a in range(10):
            if pairs[a] not in ("P", "Rp"):
                node = nodes.index[tuple(2 * (v == a) for v in range(10))]
                pairs[a] = codes[(bool(nodes.soft[node]), int(nodes.total[node]))]
        final = _arrays(*_by_total(codes))
        if not all(np.array_equal(x, y) for x, y in zip(final, chart, strict=True)):
            # an R code replaced a D code: split hands now play it (surrender is not
            # theirs, so they hit where they used to double)
            chart = final
            for a in range(10):
                if pairs[a] in ("P", "Rp"):
                    play = SplitPlay(mode=CHART, chart=chart)
                    opts[(a, a)]["split"] = split_value(ctx, up, shoe, a, play, ctx.split_max(a))
    return Derived(codes, pairs, chart, opts)


def _by_total(codes: dict[tuple[bool, int], str]) -> tuple[dict[int, str], dict[int, str]]:
    return (
        {t: codes[(False, t)] for t in HARD_TOTALS},
        {t: codes[(True, t)] for t in SOFT_TOTALS},
    )


def played_options(ctx: Context, up: int, col: Derived) -> dict[tuple[int, int], dict[str, float]]:
    """Each two-card hand's action values over ``ctx``'s shoe, the split's where the column
    splits (by the column's chart)."""
    base = up_base(ctx, up)
    solved = chart_solved(ctx, up, col.chart)  # later cards by the chart
    shoe = shoe_after(ctx, up)
    opts: dict[tuple[int, int], dict[str, float]] = {}
    for a, b, node, p in two_card_deals(ctx, up):
        if p > 0 and not is_blackjack(a, b):
            opts[(a, b)] = _options(ctx, up, node, solved, float(base.pbj[node]))
            if a == b and col.pairs[a] in ("P", "Rp"):
                play = SplitPlay(mode=CHART, chart=col.chart)
                opts[(a, a)]["split"] = split_value(ctx, up, shoe, a, play, ctx.split_max(a))
    return opts


@memo(64)
def basic_column(ctx: Context, up: int) -> Column:
    """The chart column for up card ``up`` (derived over the rules' full shoe) played exactly
    over ``ctx``'s shoe."""
    col = derive_column(ctx.full(), up)
    # Spanish 21's doubles: the derivation's hands of three cards or more hit or stand by row
    # and redouble at their best; the chart's own play prices the column
    exact = ctx.is_full and not ctx.spanish_doubles
    opts = col.opts if exact else played_options(ctx, up, col)
    codes, pairs, chart = col.codes, col.pairs, col.chart
    hard, soft = _by_total(codes)
    total, values, actions = play_column(ctx, up, col, opts)
    # free stakes, ties the dealer takes: the moments' kernels know neither (FREE_REFUSED)
    unpriced = ctx.has_free or ctx.has_ties
    m2 = 0.0 if unpriced else column_second_moment(ctx, up, chart, codes, pairs, opts)
    by_pair = {a + 1: c for a, c in pairs.items()}
    return Column(hard, soft, by_pair, total, values, m2, actions, chart)


def play_column(
    ctx: Context, up: int, col: Derived, opts: dict[tuple[int, int], dict[str, float]]
) -> tuple[float, dict[tuple[int, int], float], dict[tuple[int, int], tuple[str, str]]]:
    """The return of a chart column ``col`` against ``up`` over ``ctx``'s shoe given each
    two-card hand's action values ``opts`` (:func:`played_options`), each hand's value and
    the action taken on it (see :class:`Column`)."""
    nodes = ctx.nodes
    codes, pairs = col.codes, col.pairs
    base = up_base(ctx, up)
    total = 0.0
    values: dict[tuple[int, int], float] = {}
    actions: dict[tuple[int, int], tuple[str, str]] = {}
    for a, b, node, p in two_card_deals(ctx, up):
        if p == 0.0:
            continue
        pbj = float(base.pbj[node])
        if is_blackjack(a, b):
            v = blackjack_value(ctx, pbj)
            actions[(a, b)] = ("blackjack", "blackjack")
        else:
            o = opts[(a, b)]
            key = (bool(nodes.soft[node]), int(nodes.total[node]))
            plain = {k: x for k, x in o.items() if k != "split"}
            by_total = _value(codes[key], plain)
            v = by_total
            act = action_of(codes[key], plain)
            actions[(a, b)] = (act, act)
            if a == b and pairs[a] in ("P", "Rp"):
                v = mix_rank_pairs(ctx, a, b, _value(pairs[a], o), by_total)
                actions[(a, b)] = (action_of(pairs[a], o), act)
            v += top_offset(ctx, up, pbj)
        values[(a, b)] = v
        total += p * v
    return total, values, actions


class _Codes(NamedTuple):
    """One column's chart codes: by hard total, by soft total, by pair card (1 = ace)."""

    hard: dict[int, str]
    soft: dict[int, str]
    pairs: dict[int, str]


def chart(ctx: Context, name: str) -> Strategy:
    """The whole chart (every up card): the columns' codes alone, as :func:`basic_column`
    derives them (no returns or second moments played out: a simulation's chart compiles
    and runs only what the codes need)."""
    full = ctx.full()
    cols = []
    for u in UPS:
        derived = derive_column(full, u)
        hard, soft = _by_total(derived.codes)
        cols.append(_Codes(hard, soft, {a + 1: c for a, c in derived.pairs.items()}))
    notes = [f"derived from the exact composition-dependent analysis of {name}"]
    if ctx.rules.surrender_before_play and ctx.rules.offers_surrender:
        notes.append("R: surrender in the before-play phase (asked before the first box plays)")
    if ctx.rules.surrender != "none" and not ctx.surrender_vs_ace:
        notes.append("no surrender against an ace")
    return Strategy(
        name=name,
        hard={t: tuple(c.hard[t] for c in cols) for t in HARD_TOTALS},
        soft={t: tuple(c.soft[t] for c in cols) for t in SOFT_TOTALS},
        pairs={v: tuple(c.pairs[v] for c in cols) for v in range(1, 11)},
        notes=tuple(notes),
    )
