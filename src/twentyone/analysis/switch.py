"""Blackjack Switch's return (``Rules.switch``): a player's two boxes are dealt, the dealer
peeks, and the pair may swap its second cards before either hand is played.

Each box's hand is priced by the same kernels as a classic table's (the rules with
``switch=False``): its return against the up card, composition-dependent (CDZ-, splits
included) for ``ev_optimal`` or by the rules' basic chart for ``ev_basic``, over the shoe less
the up card and the hand's own two cards. A switch gives the hands ``(a, d)`` and ``(c, b)``
of the boxes ``(a, b)`` and ``(c, d)``; a two-card 21 it makes is a plain 21, played as a
soft 21 (it stands). The four cards are drawn from the shoe less the up card, each ordered
deal with its exact chance, and the pair keeps or switches, whichever pair of hands returns
more; with a peek it knows that the dealer has no blackjack (the dealer's blackjack, whose
chance is read from the shoe less all five cards, settles the hands as dealt). Returns are per
hand, as published: half the pair's.

The one approximation: a hand's return is computed with its own cards out of the shoe but not
the other box's two cards, nor the other box's draws (each hand is priced as if it were the
only box); the tests measure what that costs against rounds the engine deals.

>>> from twentyone import load_rules
>>> r = switch_report(load_rules("switch"))
>>> 0.0 < -r.ev_optimal < 0.01 and r.ev_basic <= r.ev_optimal
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from twentyone.analysis.basic import basic_column
from twentyone.analysis.context import UPS, Context, up_base, up_key
from twentyone.analysis.dealer import OUTCOMES, OUTCOMES_22, blackjack_card, dealer_distribution
from twentyone.analysis.hands import is_blackjack, top_offset, two_card_deals
from twentyone.analysis.optimal import optimal_solved, optimal_upcard
from twentyone.analysis.report import EdgeReport
from twentyone.analysis.side_bets import side_bets
from twentyone.engine.rules import Rules

#: How ``edge`` names the split method at a switch table.
SWITCH_SPLIT_METHOD = (
    "CDZ- per hand (Farmer's exact split values to four hands), each hand priced with its own "
    "cards out of the shoe; the pair keeps or switches, whichever returns more"
)
#: What the report says of its one approximation.
SWITCH_NOTE = (
    "switch: each hand priced with its own two cards and the up card out of the shoe, not the "
    "other box's cards nor its draws; returns per hand (half the pair's)"
)


@dataclass(frozen=True)
class HandReturns:
    """One up card's returns of a first hand, given that the dealer has no blackjack (with a
    peek; the unconditional return without one): ``dealt[(a, b)]`` as dealt (a blackjack
    paid as one), ``switched[(a, b)]`` made by a switch (a two-card 21 is a plain 21); and
    ``lost[(a, b)]``, what the hand as dealt gets from a dealer blackjack seen at the peek
    (keys ``a <= b``, card values)."""

    dealt: dict[tuple[int, int], float]
    switched: dict[tuple[int, int], float]
    lost: dict[tuple[int, int], float]


def switch_context(rules: Rules, boxes: int = 1, shoe: Sequence[int] | None = None) -> Context:
    """The context of one box's hand at a switch table: the rules without the switch (and
    without a bet on the pair's four cards, which only a switch table takes; it pays apart
    from the hands and is priced apart, :func:`~twentyone.analysis.side_bets.side_bets`)."""
    bets = tuple(b for b in rules.side_bets if b.spec.view != "pair-four")
    return Context.of(replace(rules, switch=False, side_bets=bets), boxes, shoe)


def hand_returns(ctx: Context, up: int, optimal: bool) -> HandReturns:
    """Each first hand's returns against ``up`` (:class:`HandReturns`), played by the optimum
    (CDZ-) or by the rules' basic chart."""
    values = optimal_upcard(ctx, up).hands if optimal else basic_column(ctx, up).hands
    solved = optimal_solved(ctx, up)
    base = up_base(ctx, up)
    peeked = ctx.peek and up in (0, 9)  # a dealer blackjack is known before the switch
    dealt: dict[tuple[int, int], float] = {}
    switched: dict[tuple[int, int], float] = {}
    lost: dict[tuple[int, int], float] = {}
    for a, b, node, p in two_card_deals(ctx, up):
        if p == 0.0:
            continue
        pbj = float(base.pbj[node])
        natural = is_blackjack(a, b)
        # what a dealer blackjack does to the hand as dealt: a blackjack by the tie rule,
        # any other hand loses its bet
        lost[(a, b)] = ctx.bj_tie if natural else -1.0
        # a switched 21 stands: the stand value, with the peek's blackjack taken as for any hand
        made = float(solved.stand[node]) + top_offset(ctx, up, pbj) if natural else values[(a, b)]
        if peeked and pbj < 1.0:  # the returns given no dealer blackjack
            dealt[(a, b)] = (values[(a, b)] - pbj * lost[(a, b)]) / (1.0 - pbj)
            switched[(a, b)] = (made + pbj) / (1.0 - pbj)
        else:
            dealt[(a, b)] = values[(a, b)]
            switched[(a, b)] = made
    return HandReturns(dealt, switched, lost)


def hand_key(x: int, y: int) -> tuple[int, int]:
    """The two card values of a hand as :class:`HandReturns` keys them (the lower first).

    >>> hand_key(9, 4), hand_key(4, 9)
    ((4, 9), (4, 9))
    """
    return (x, y) if x <= y else (y, x)


def pair_return(ctx: Context, up: int, hands: HandReturns, switching: bool = True) -> float:
    """The return of a pair of boxes against ``up``: the sum over the four cards' ordered
    deals (boxes ``(a, b)`` and ``(c, d)``) of their chance times the better of keeping and
    switching (only keeping, without ``switching``: two boxes of the classic game), or what a
    peeked dealer blackjack leaves of the hands as dealt."""
    left = ctx.fresh().astype(np.float64)
    left[up] -= 1
    n = float(left.sum())
    peeked = ctx.peek and up in (0, 9)
    bj = blackjack_card(up) if peeked else -1
    dealt, switched, lost = hands.dealt, hands.switched, hands.lost
    total = 0.0
    for a in range(10):
        pa = left[a] / n
        if pa == 0.0:
            continue
        left[a] -= 1
        for b in range(10):
            pb = pa * left[b] / (n - 1)
            if pb == 0.0:
                continue
            left[b] -= 1
            for c in range(10):
                pc = pb * left[c] / (n - 2)
                if pc == 0.0:
                    continue
                left[c] -= 1
                for d in range(10):
                    p = pc * left[d] / (n - 3)
                    if p == 0.0:
                        continue
                    ab, cd, ad, cb = hand_key(a, b), hand_key(c, d), hand_key(a, d), hand_key(c, b)
                    keep = dealt[ab] + dealt[cd]
                    swap = switched[ad] + switched[cb]
                    best = keep if keep >= swap or not switching else swap
                    if bj >= 0:
                        q = (left[bj] - (d == bj)) / (n - 4)  # the hole card, from the rest
                        total += p * (q * (lost[ab] + lost[cd]) + (1.0 - q) * best)
                    else:
                        total += p * best
                left[c] += 1
            left[b] += 1
        left[a] += 1
    return total


def switches(hands: HandReturns, first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Whether a pair dealt ``first`` and ``second`` (two card values each, in the order
    dealt) switches: the hands a switch makes return more than those dealt, given the
    :class:`HandReturns` against the up card.

    >>> from twentyone import load_rules
    >>> ctx = switch_context(load_rules("switch"))
    >>> seven = hand_returns(ctx, 6, True)
    >>> switches(seven, (9, 4), (5, 9))  # T-5 and 6-T against a 7: T-T and 6-5
    True
    >>> switches(seven, (9, 9), (9, 8))  # T-T and T-9: kept
    False
    """
    keep, switch = pair_returns(hands, first, second)
    return switch > keep


def pair_returns(
    hands: HandReturns, first: tuple[int, int], second: tuple[int, int]
) -> tuple[float, float]:
    """A pair's returns ``(keep, switch)``: its two hands' returns summed as dealt and as a
    switch makes them (``first`` and ``second``: value indexes, in the order dealt)."""
    (a, b), (c, d) = first, second
    keep = hands.dealt[hand_key(a, b)] + hands.dealt[hand_key(c, d)]
    return keep, hands.switched[hand_key(a, d)] + hands.switched[hand_key(c, b)]


def switch_report(rules: Rules, boxes: int = 1, shoe: Sequence[int] | None = None) -> EdgeReport:
    """The returns of a switch table's rules, per hand (:mod:`twentyone.analysis.switch`)."""
    start = time.perf_counter()
    ctx = switch_context(rules, boxes, shoe)
    names = OUTCOMES_22 if ctx.push22 else OUTCOMES
    fresh = ctx.fresh()
    n = float(fresh.sum())
    by_up: dict[str, dict[str, float]] = {}
    totals: dict[str, dict[str, float]] = {}
    ev_b = ev_o = 0.0
    for u in UPS:
        if fresh[u] == 0:
            continue
        pu = fresh[u] / n
        o = pair_return(ctx, u, hand_returns(ctx, u, True)) / 2.0
        b = pair_return(ctx, u, hand_returns(ctx, u, False)) / 2.0
        ev_o += pu * o
        ev_b += pu * b
        by_up[up_key(u)] = {"probability": pu, "ev_basic": b, "ev_optimal": o}
        left = ctx.fresh()
        left[u] -= 1
        dist = dealer_distribution(left, u, ctx.h17_from, ctx.push22)
        totals[up_key(u)] = dict(zip(names, (float(x) for x in dist), strict=True))
    notes = [
        SWITCH_NOTE,
        "ev_basic: each hand by the rules' basic chart, the switch by the chart's returns",
        "sd: not priced at a switch table",
    ]
    return EdgeReport(
        rules=rules.name,
        ev_basic=float(ev_b),
        ev_optimal=float(ev_o),
        by_upcard=by_up,
        dealer_totals=totals,
        sd=None,
        side_bets=side_bets(rules),
        split_method=SWITCH_SPLIT_METHOD,
        seconds=time.perf_counter() - start,
        boxes=boxes,
        notes=tuple(notes),
        shoe=ctx.shoe,
    )
