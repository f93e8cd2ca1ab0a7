"""Second moments of each action's result on one hand, and every hand's stand and hit
values, for comparing plays by more than their returns (risk-averse index plays).

:func:`action_second_moments` answers ``E[X^2]`` (per unit of the hand's bet) for each
action :func:`~twentyone.analysis.actions.action_evs` answers ``E[X]`` for, with the rest of
the hand played the same way (the composition-dependent optimum; split hands by CDZ-). Both
are conditional on no dealer blackjack where the dealer peeks under an ace or a ten. Exact
for every action, a split's resplits included (:mod:`twentyone.analysis.split_moments`).

:func:`hand_table` gives the same figures for *every* hand of the shoe (three cards or
more as well), with the optimum's decision on each: what a total's index needs when it is
taken over every hand that reaches the total, not only the two-card ones.

>>> from twentyone import load_rules, parse_cards
>>> r = load_rules("6D S17 DAS LS")
>>> cards, up = list(parse_cards("TS 6D")), parse_cards("TH")[0]
>>> m2 = action_second_moments(r, cards, up)
>>> sorted(m2), round(m2["surrender"], 4)
(['double', 'hit', 'stand', 'surrender'], 0.25)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from twentyone.analysis.context import Context, base_table, run_solve, shoe_after, up_base
from twentyone.analysis.dealer import dealer_distribution
from twentyone.analysis.hands import SplitPlay, split_decisions, split_needs
from twentyone.analysis.optimal import optimal_solved
from twentyone.analysis.player import FIXED
from twentyone.analysis.shoe_counts import ACE, TEN, FloatArray, IntArray, hand_counts, value_index
from twentyone.analysis.split import split_weights
from twentyone.analysis.variance import Moments, payoff_given_dealer, run_moments
from twentyone.engine.cards import Card
from twentyone.engine.errors import TwentyOneError
from twentyone.engine.rules import Rules


@lru_cache(maxsize=64)
def optimal_moments(ctx: Context, up: int) -> Moments:
    """:class:`~twentyone.analysis.variance.Moments` of every hand played by the optimum
    (cached)."""
    return run_moments(ctx, up, up_base(ctx, up), optimal_solved(ctx, up).dec, split_aces=False)


@lru_cache(maxsize=640)
def split_second_moment(ctx: Context, up: int, pair: int) -> float:
    """``E[X^2]`` of splitting ``pair`` against ``up`` (per unit of the first bet; split
    hands played by CDZ-), exactly (:mod:`~twentyone.analysis.split_moments`, resplits
    included); with a peek, ``E[X^2 1{no dealer blackjack}]``. A ten-value pair split by rank
    (whose rank's cards the shoe's counts do not tell) takes its hands independent given the
    dealer's final outcome (:func:`_independent_second_moment`)."""
    from twentyone.analysis.split_moments import split_moments_of

    solved = optimal_solved(ctx, up)
    play = SplitPlay(mode=FIXED, dec=(solved.dec, solved.decs))
    dec, decs, _ = split_decisions(ctx, up, pair, play)
    got = split_moments_of(ctx, up, pair, dec, ctx.split_max(pair), decs=decs)
    if got is None or got.second is None:
        return _independent_second_moment(ctx, up, pair, play)
    return got.second


def _independent_second_moment(ctx: Context, up: int, pair: int, play: SplitPlay) -> float:
    """``E[X^2]`` of a split with its hands taken independent given the dealer's final
    outcome (the usual approximation)."""
    nodes = ctx.nodes
    aces = pair == ACE and not ctx.hsa
    base = base_table(ctx, up, pair, 1, split_needs(ctx, up, pair, play))
    got = run_solve(ctx, up, base, FIXED, split=True, force_stand2=aces, dec=play.dec)
    mom = run_moments(ctx, up, base, got.dec, split_aces=aces)
    left = base.comp.copy()
    left[pair] -= 1
    n = float(left.sum())
    one = nodes.index[tuple(int(v == pair) for v in range(10))]
    hand_m2 = 0.0
    hand_fs = np.zeros(14)
    for c in range(10):
        if left[c] > 0:
            k = nodes.child[one, c]
            hand_m2 += left[c] / n * mom.second[k]
            hand_fs += left[c] / n * mom.states[k]
    shoe = shoe_after(ctx, up)
    w_np, w_any = split_weights(
        ctx.split_max(pair), ctx.pair_cards_left(shoe, pair, up), float(shoe.sum() - 2)
    )
    hands = sum(w_np.values()) + w_any
    dealer = dealer_distribution(left, up, ctx.h17_from, ctx.push22)
    loss = (ctx.f1s, ctx.f2s) if not ctx.peek else (0.0, 0.0)
    given = payoff_given_dealer(hand_fs, loss, ctx.push22)
    if ctx.peek:
        dealer[6] = 0.0
    cross = float(np.sum(dealer * given**2))
    return hands * hand_m2 + hands * (hands - 1.0) * cross


def surrender_second_moment(ctx: Context, pbj: float) -> float:
    """``E[X^2]`` of surrendering (with a peek: times the chance of no dealer blackjack).

    >>> from twentyone import load_rules
    >>> surrender_second_moment(Context.of(load_rules("6D S17 DAS LS")), 0.0)
    0.25
    """
    if ctx.peek:
        return 0.25 * (1.0 - pbj)
    if ctx.surrender == "early":
        return 0.25
    return 0.25 * (1.0 - pbj) + pbj


def action_second_moments(
    rules: Rules,
    cards: Sequence[Card],
    upcard: Card,
    *,
    shoe: Sequence[int] | None = None,
) -> dict[str, float]:
    """``E[X^2]`` (per unit of the hand's bet) of each legal action on a first hand, the
    actions and conditions of :func:`~twentyone.analysis.actions.action_evs` (one box, the
    hand not itself a split hand)."""
    from twentyone.analysis.actions import action_evs

    ctx = Context.of(rules, 1, shoe)
    ctx.refuse_push22("action moments")
    ctx.refuse_free("action moments")
    ctx.refuse_ties("action moments")
    ctx.refuse_spanish("action moments")
    evs = action_evs(rules, cards, upcard, shoe=shoe)
    up = value_index(upcard)
    key = tuple(int(x) for x in hand_counts(list(cards)))
    if key not in ctx.nodes.index:
        raise TwentyOneError("hand-bust")
    node = ctx.nodes.index[key]
    mom = optimal_moments(ctx, up)
    pbj = float(up_base(ctx, up).pbj[node])
    scale = 1.0 / (1.0 - pbj) if ctx.peek and up in (ACE, TEN) else 1.0
    got = {
        "stand": float(mom.stand[node]),
        "hit": float(mom.hit[node]),
        "double": float(mom.double[node]),
        "surrender": surrender_second_moment(ctx, pbj),
    }
    if "split" in evs:
        got["split"] = split_second_moment(ctx, up, value_index(cards[0]))
    return {k: got[k] * scale for k in evs}


@dataclass(frozen=True)
class HandTable:
    """Every hand of a shoe against one up card (arrays over the shoe's hands, see
    :class:`~twentyone.analysis.shoe_counts.Nodes`): the returns and second moments of
    standing and hitting (conditional as :func:`action_second_moments`'s), and the optimum's
    decision (``dec``: :data:`~twentyone.analysis.player.STAND`, ``HIT``, ``DOUBLE``)."""

    ctx: Context
    up: int
    stand: FloatArray
    hit: FloatArray
    stand2: FloatArray
    hit2: FloatArray
    dec: IntArray

    def hand_name(self, node: int) -> str:
        """``"16"`` or ``"soft 18"``: the hand's total as an index names it."""
        nodes = self.ctx.nodes
        t = int(nodes.total[node])
        return f"soft {t}" if nodes.soft[node] else str(t)

    def can_stand(self, node: int) -> bool:
        """Whether the rules let the hand stand (pt.5: not below 12)."""
        t = int(self.ctx.nodes.total[node])
        return t >= self.ctx.min_stand or t == 21


def hand_table(rules: Rules, shoe: Sequence[int] | None, upcard: Card) -> HandTable:
    """The :class:`HandTable` of ``shoe`` (default the rules' full shoe) against ``upcard``.

    >>> from twentyone import load_rules, parse_cards
    >>> t = hand_table(load_rules("6D S17 DAS LS"), None, parse_cards("TH")[0])
    >>> n = t.ctx.nodes.index[(0, 0, 1, 1, 0, 0, 0, 0, 0, 1)]  # 3, 4 and a ten: 17
    >>> t.hand_name(n), bool(t.stand[n] > t.hit[n]), t.can_stand(n)
    ('17', True, True)
    """
    ctx = Context.of(rules, 1, shoe)
    up = value_index(upcard)
    solved = optimal_solved(ctx, up)
    mom = optimal_moments(ctx, up)
    pbj = up_base(ctx, up).pbj
    scale = 1.0 / (1.0 - pbj) if ctx.peek and up in (ACE, TEN) else np.ones_like(pbj)
    return HandTable(
        ctx,
        up,
        solved.stand * scale,
        solved.hit * scale,
        mom.stand * scale,
        mom.hit * scale,
        solved.dec,
    )
