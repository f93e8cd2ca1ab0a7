"""The exact return of a game whose dealer shows both cards (Double Exposure,
``Rules.hole_card_up``).

Both of the dealer's cards are known before the player acts, so the player's best play
depends on the dealer's two-card start ``(up, hole)``. The return is the sum over every start
of its chance (the up card, then the hole card, drawn from the shoe) times the player's return
against it: the hand tables of :meth:`Context.exposed <twentyone.analysis.context.Context.
exposed>` (the hole card out of the shoe, the dealer drawing to both cards, no dealer
blackjack to come), the same kernels as a hidden hole card's, splits included (Farmer's exact
CDZ- method to four hands). A dealer blackjack is seen at once: the player's blackjack is
settled by ``Rules.blackjack_ties``, every other hand loses its bet (there is no play).

``ev_optimal`` plays each first hand by its own cards and the dealer's two (CDZ-, as for a
hidden hole card); ``ev_basic`` plays, against each dealer start, the total-dependent chart
derived for that start (a chart by the player's total against the dealer's two cards, derived
on the full shoe less them: :func:`~twentyone.analysis.basic.derive_column`).

>>> from twentyone import load_rules
>>> r = exposed_report(load_rules("double-exposure"))
>>> -0.02 < r.ev_optimal < -0.01 and r.ev_basic <= r.ev_optimal
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from twentyone.analysis.basic import basic_column, play_column, played_options, strategy_column
from twentyone.analysis.caches import memo
from twentyone.analysis.context import UPS, Context, up_key
from twentyone.analysis.dealer import (
    OUTCOMES,
    OUTCOMES_22,
    blackjack_card,
    start_distribution,
)
from twentyone.analysis.optimal import optimal_upcard
from twentyone.analysis.report import EdgeReport
from twentyone.analysis.shoe_counts import ACE, TEN, two_card_probability
from twentyone.analysis.side_bets import side_bets
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy

#: How ``edge`` names the split method for a face-up hole card.
EXPOSED_SPLIT_METHOD = (
    "CDZ- by the dealer's two cards (Farmer's exact split values to four hands); "
    "ev_basic: a total-dependent chart per dealer two-card start"
)


@dataclass(frozen=True)
class Start:
    """One dealer two-card start ``(up, hole)``: its chance from the shoe, the returns of the
    chart derived for it (``ev_basic``) and of the optimum (``ev_optimal``), and the dealer's
    outcomes from it (the shoe less both cards; :data:`~twentyone.analysis.dealer.OUTCOMES`)."""

    probability: float
    ev_basic: float
    ev_optimal: float
    dealer: tuple[float, ...]


def exposed_context(rules: Rules, boxes: int = 1, shoe: Sequence[int] | None = None) -> Context:
    """The context of ``rules`` (``hole_card_up=True``) before a hole card is known."""
    if not rules.hole_card_up:
        raise RulesError(
            "analysis-refuses",
            field="hole_card_up",
            value=rules.hole_card_up,
            lacks="a hidden hole card is priced by analyze()",
        )
    return Context.of(rules, boxes, shoe, exposed=True)


def dealer_blackjack_value(ctx: Context, up: int, hole: int) -> float:
    """The return against a dealer blackjack ``(up, hole)`` seen before play (``ctx``: before
    the hole card is known): a player blackjack is settled by ``ctx.bj_tie`` (0 a push, the
    blackjack's pay, -1 lost), every other hand loses its bet."""
    shoe = ctx.fresh()
    shoe[up] -= 1
    shoe[hole] -= 1
    pbj = two_card_probability(shoe, ACE, TEN)
    return pbj * ctx.bj_tie - (1.0 - pbj)


@memo(256)  # a hundred starts a rule set
def exposed_start(ctx: Context, up: int, hole: int) -> Start:
    """The returns against the dealer start ``(up, hole)`` (``ctx``: before the hole card is
    known, :func:`exposed_context`)."""
    shoe = ctx.fresh()
    n = float(shoe.sum())
    p = shoe[up] / n * (shoe[hole] - (up == hole)) / (n - 1.0)
    left = shoe.copy()
    left[up] -= 1
    left[hole] -= 1
    dealer = start_distribution(left, up, hole, ctx.h17_from, ctx.push22)
    dealer_t = tuple(float(x) for x in dealer)
    if p <= 0.0:
        return Start(0.0, 0.0, 0.0, dealer_t)
    if blackjack_card(up) == hole:
        v = dealer_blackjack_value(ctx, up, hole)
        return Start(float(p), v, v, dealer_t)
    known = ctx.exposed(hole)
    return Start(float(p), basic_column(known, up).ev, optimal_upcard(known, up).ev, dealer_t)


def exposed_starts(ctx: Context) -> dict[tuple[int, int], Start]:
    """Every dealer start ``(up, hole)`` the shoe can deal (value indexes, 0 = ace)."""
    shoe = ctx.fresh()
    out: dict[tuple[int, int], Start] = {}
    for u in UPS:
        for h in UPS:
            if shoe[u] > 0 and shoe[h] - (u == h) > 0:
                out[(u, h)] = exposed_start(ctx, u, h)
    return out


def exposed_report(rules: Rules, boxes: int = 1, shoe: Sequence[int] | None = None) -> EdgeReport:
    """The :class:`~twentyone.analysis.report.EdgeReport` of rules with a face-up hole card:
    the returns (``by_upcard`` averages over the hole card given the up card, the dealer's
    outcomes too); no standard deviation or distribution (refused, naming
    ``hole_card_up``)."""
    start = time.perf_counter()
    ctx = exposed_context(rules, boxes, shoe)
    starts = exposed_starts(ctx)
    names = OUTCOMES_22 if ctx.push22 else OUTCOMES
    by_up: dict[str, dict[str, float]] = {}
    totals: dict[str, dict[str, float]] = {}
    ev_b = ev_o = 0.0
    for u in UPS:
        mine = [(h, s) for (uu, h), s in starts.items() if uu == u]
        pu = sum(s.probability for _, s in mine)
        if pu <= 0.0:
            continue
        b = sum(s.probability * s.ev_basic for _, s in mine)
        o = sum(s.probability * s.ev_optimal for _, s in mine)
        ev_b += b
        ev_o += o
        by_up[up_key(u)] = {"probability": pu, "ev_basic": b / pu, "ev_optimal": o / pu}
        dealer = np.zeros(len(names))
        for _, s in mine:
            dealer += s.probability * np.array(s.dealer)
        dealer /= pu
        totals[up_key(u)] = dict(zip(names, (float(x) for x in dealer), strict=True))
    notes = [
        "hole card face up: the player plays against both dealer cards; ev_basic is a chart "
        "by the player's total against each dealer two-card start",
        "sd: not priced with the hole card face up",
    ]
    if not ctx.is_full:
        notes.append("ev_basic: the full shoe's charts played on this shoe; side bets: full shoe")
    return EdgeReport(
        rules=rules.name,
        ev_basic=float(ev_b),
        ev_optimal=float(ev_o),
        by_upcard=by_up,
        dealer_totals=totals,
        sd=None,
        side_bets=side_bets(rules),
        split_method=EXPOSED_SPLIT_METHOD,
        seconds=time.perf_counter() - start,
        boxes=boxes,
        notes=tuple(notes),
        shoe=ctx.shoe,
    )


def chart_return(
    rules: Rules, strategy: Strategy, boxes: int = 1, shoe: Sequence[int] | None = None
) -> float:
    """The exact return of ``strategy``, a chart by up card that does not look at the face-up
    hole card, on rules with ``hole_card_up=True`` (as the simulator plays such a chart): the
    sum over the dealer's starts of the chart's return against each."""
    ctx = exposed_context(rules, boxes, shoe)
    shoe_arr = ctx.fresh()
    n = float(shoe_arr.sum())
    total = 0.0
    for u in UPS:
        col = strategy_column(strategy, u)
        for h in UPS:
            p = shoe_arr[u] / n * (shoe_arr[h] - (u == h)) / (n - 1.0)
            if p <= 0.0:
                continue
            if blackjack_card(u) == h:
                total += p * dealer_blackjack_value(ctx, u, h)
                continue
            known = ctx.exposed(h)
            total += p * play_column(known, u, col, played_options(known, u, col))[0]
    return float(total)
