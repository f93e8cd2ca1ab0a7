"""Exact analysis of a rule set: house edge, basic strategy, each action's return.

Everything is computed over the full, fresh shoe of the rules' decks (no infinite-deck
approximation), or over any shoe composition given (``shoe=``, see :func:`shoe_of`), for
every rule the engine plays. Returns are fractions of the initial bet.

- :func:`analyze` -> :class:`EdgeReport` (basic and optimal returns, by up card, dealer
  totals, side bets);
- :func:`basic_strategy` -> :class:`~twentyone.engine.strategy.Strategy` (the total-dependent
chart); - :func:`action_evs` -> the exact return of each legal action on a given hand.

Split hands use the pre-split composition-dependent strategy (CDZ-) for the optimum and the
chart for basic strategy. A double for less is never better than a full double or not
doubling (the return is linear in the amount added), so it is not listed apart.

>>> from twentyone import load_rules, parse_cards
>>> from twentyone.analysis import action_evs
>>> evs = action_evs(load_rules("1D S17 NDAS SPL1 NS"), list(parse_cards("2S 2D")),
...                  parse_cards("6H")[0])
>>> round(evs["split"], 12)  # Eric Farmer's published CDZ- value 0.1189818683947885
0.118981868395
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from twentyone.analysis.report import EdgeReport, dist_sd
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules

if TYPE_CHECKING:  # imported when first used: the package loads without numba
    from twentyone.analysis.actions import action_evs
    from twentyone.analysis.context import Context
    from twentyone.analysis.outcomes import UpOutcomes
    from twentyone.analysis.shoe import shoe_of
    from twentyone.engine.strategy import Strategy

#: What the package gives by name without importing it (each loads numba's kernels).
_LAZY = {"action_evs": "twentyone.analysis.actions", "shoe_of": "twentyone.analysis.shoe"}


def __getattr__(name: str) -> Any:
    """``action_evs`` and ``shoe_of``, imported on first use (so that ``import
    twentyone.analysis.report`` costs no numba start-up)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


SPLIT_METHOD = (
    "CDZ-: split hands use the pre-split composition-dependent strategy (basic strategy: the "
    "chart), evaluated exactly by Eric Farmer's method up to 4 hands, beyond by the split's "
    "exact moments to every hand the rules and the pair's cards allow (a ten-value pair split "
    "by rank, whose rank's cards the shoe's counts do not tell: hands weighted by the pair "
    "cards drawn as second cards, up to 16 hands)"
)

__all__ = ["EdgeReport", "action_evs", "analyze", "basic_strategy", "clear_caches", "shoe_of"]


def clear_caches(tables: bool = False) -> None:
    """Forget every cached result (for benchmarks); ``tables`` also the hand and dealer tables
    that depend only on the deck count and the dealer's rule
    (:mod:`twentyone.analysis.caches`)."""
    from twentyone.analysis import caches

    caches.clear(tables)


def _rules(rules: Rules | str) -> Rules:
    return rules if isinstance(rules, Rules) else load_rules(rules)


def basic_strategy(rules: Rules | str, boxes: int = 1) -> Strategy:
    """The total-dependent basic-strategy chart of ``rules``, derived from the exact analysis
    (at a switch table: each hand's play once its pair has switched or kept; the switch itself
    is decided by the hands' returns, :func:`twentyone.analysis.switch.switches`).

    >>> from twentyone import load_rules
    >>> s = basic_strategy(load_rules("6D S17 DAS SPL3 NS"))
    >>> s.code(total=16, soft=False, up="T"), s.pair_code(8, "T")
    ('H', 'P')
    """
    from twentyone.analysis.basic import chart
    from twentyone.analysis.context import Context

    r = _rules(rules)
    if r.switch:  # each hand's play once the pair has switched or kept (analysis.switch)
        from twentyone.analysis.switch import switch_context

        return chart(switch_context(r, boxes), r.name)
    return chart(Context.of(r, boxes), r.name)


class UpPiece(NamedTuple):
    """What :func:`analyze` reads of one up card: the chart's return and second moment, the
    optimum's return, the dealer's outcomes, and (with ``outcomes``) each strategy's
    :func:`~twentyone.analysis.outcomes.up_outcomes`."""

    ev_basic: float
    second_moment: float
    ev_optimal: float
    dealer: list[float]
    outcomes_optimal: UpOutcomes | None
    outcomes_basic: UpOutcomes | None


def up_piece(ctx: Context, up: int, outcomes: bool = True) -> UpPiece:
    """One up card's part of :func:`analyze` (computed apart, by another process for
    instance, it gives the same figures: :func:`analyze` adds the parts in a fixed order)."""
    from twentyone.analysis.basic import basic_column
    from twentyone.analysis.dealer import dealer_distribution
    from twentyone.analysis.optimal import optimal_upcard
    from twentyone.analysis.outcomes import up_outcomes

    col = basic_column(ctx, up)
    left = ctx.fresh()
    left[up] -= 1
    return UpPiece(
        col.ev,
        col.second_moment,
        optimal_upcard(ctx, up).ev,
        [float(x) for x in dealer_distribution(left, up, ctx.h17_from, ctx.push22)],
        up_outcomes(ctx, up, True) if outcomes else None,
        up_outcomes(ctx, up, False) if outcomes else None,
    )


def analyze(
    rules: Rules | str,
    boxes: int = 1,
    shoe: Sequence[int] | None = None,
    *,
    outcomes: bool = True,
    pieces: Mapping[int, UpPiece] | None = None,
) -> EdgeReport:
    """Exact returns of ``rules`` for one box (``boxes`` matters only where the rules make the
    number of boxes matter: pl.7 splits only with one box), dealt from ``shoe`` (counts of A,
    2..9, ten-value; default the rules' full shoe, see :func:`shoe_of`): ``ev_optimal`` is the
    composition-dependent optimum for that shoe, ``ev_basic`` the full shoe's chart played on
    it. ``outcomes``: also the distribution of one round's net and its standard deviation for
    each (see :mod:`twentyone.analysis.outcomes`: exact, a split into two hands included; the
    rounds that reach three hands spread over the nets approximately, their probability given
    in the notes, their mean and second moment exact: so are the mean and standard deviation).
    ``pieces``: up cards' :func:`up_piece` computed already (see
    :func:`twentyone.analysis.forked.analyze_forked`).

    >>> from twentyone import load_rules
    >>> from twentyone.analysis import shoe_of
    >>> r = load_rules("1D S17 DAS SPL1 NS")
    >>> full = analyze(r)
    >>> fewer_fives = analyze(r, shoe=shoe_of(r, remove="5"))
    >>> fewer_fives.shoe[4], fewer_fives.ev_basic > full.ev_basic
    (3, True)
    """
    import numpy as np

    from twentyone.analysis.context import UPS, Context, up_key
    from twentyone.analysis.dealer import OUTCOMES, OUTCOMES_22
    from twentyone.analysis.outcomes import outcomes_note, round_outcomes
    from twentyone.analysis.side_bets import side_bets

    start = time.perf_counter()
    r = _rules(rules)
    if r.hole_card_up and pieces is None:  # both dealer cards seen: priced by dealer start
        from twentyone.analysis.exposed import exposed_report

        if outcomes:
            Context.of(r, boxes, shoe)  # refused by name: hole_card_up (ANALYSIS_REFUSES)
        return exposed_report(r, boxes, shoe)
    if r.switch and pieces is None:  # a pair of boxes and its switch: analysis.switch
        from twentyone.analysis.switch import switch_report

        if outcomes:
            Context.of(r, boxes, shoe)  # refused by name: switch (ANALYSIS_REFUSES)
        return switch_report(r, boxes, shoe)
    ctx = Context.of(r, boxes, shoe)
    if outcomes:
        ctx.refuse_push22("outcomes")
        ctx.refuse_free("outcomes")
        ctx.refuse_ties("outcomes")
        ctx.refuse_spanish("outcomes")
    names = OUTCOMES_22 if ctx.push22 else OUTCOMES  # push22: a dealer's 22 apart
    shoe_arr = ctx.fresh()
    n = float(shoe_arr.sum())
    by_up: dict[str, dict[str, float]] = {}
    totals: dict[str, dict[str, float]] = {}
    ev_b = ev_o = m2 = 0.0
    got: dict[int, UpPiece] = {}
    for u in UPS:
        if shoe_arr[u] == 0:
            continue
        p = shoe_arr[u] / n
        piece = got[u] = pieces[u] if pieces and u in pieces else up_piece(ctx, u, outcomes)
        b = piece.ev_basic
        m2 += p * piece.second_moment
        o = piece.ev_optimal
        ev_b += p * b
        ev_o += p * o
        by_up[up_key(u)] = {"probability": p, "ev_basic": b, "ev_optimal": o}
        totals[up_key(u)] = dict(zip(names, piece.dealer, strict=True))
    sd: float | None = None
    notes = ["sd: exact without splits; split hands taken independent given the dealer's outcome"]
    if ctx.has_free or ctx.has_ties or ctx.has_spanish:  # the moments know none of them
        notes[0] = "sd: not priced with free stakes, ties the dealer takes or Spanish 21's rules"
    else:
        sd = float(np.sqrt(m2 - ev_b * ev_b))
    if not ctx.is_full:
        notes.append("ev_basic: the full shoe's chart played on this shoe; side bets: full shoe")
    if r.double_for_less:
        notes.append("double for less is never better than a full double or not doubling")
    if r.surrender_before_play and r.offers_surrender:
        notes.append("surrender decided before play: the chart's R codes")
    dist_o = dist_b = None
    if outcomes:
        parts_o = {u: x.outcomes_optimal for u, x in got.items() if x.outcomes_optimal}
        parts_b = {u: x.outcomes_basic for u, x in got.items() if x.outcomes_basic}
        got_o = round_outcomes(ctx, True, parts_o)
        got_b = round_outcomes(ctx, False, parts_b)
        dist_o, dist_b = got_o.dist, got_b.dist
        sd = dist_sd(dist_b)
        notes[0] = "sd: sd_basic, from basic strategy's distribution (see the outcomes note)"
        resplits = any(ctx.split_max(pair) > 2 for pair in range(10))
        notes.append(
            outcomes_note(
                max(got_o.resplit_mass, got_b.resplit_mass),
                resplits,
                max(got_o.unmatched, got_b.unmatched),
            )
        )
    return EdgeReport(
        rules=r.name,
        ev_basic=float(ev_b),
        ev_optimal=float(ev_o),
        by_upcard=by_up,
        dealer_totals=totals,
        sd=sd,
        side_bets=side_bets(r),
        split_method=SPLIT_METHOD,
        seconds=time.perf_counter() - start,
        boxes=boxes,
        notes=tuple(notes),
        shoe=ctx.shoe,
        outcomes_optimal=dist_o,
        outcomes_basic=dist_b,
    )
