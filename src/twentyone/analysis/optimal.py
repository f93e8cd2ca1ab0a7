"""The composition-dependent optimum: each first hand played by its own cards and the up card;
split hands by the same decisions their cards get before a split (CDZ-)."""

from __future__ import annotations

from dataclasses import dataclass

from twentyone.analysis.caches import memo
from twentyone.analysis.context import Context, Solved, run_solve, shoe_after, up_base
from twentyone.analysis.hands import (
    SplitPlay,
    blackjack_value,
    hand_options,
    is_blackjack,
    mix_rank_pairs,
    top_offset,
    two_card_deals,
)
from twentyone.analysis.player import FIXED, OPTIMUM
from twentyone.analysis.splits import split_value


@dataclass(frozen=True)
class UpResult:
    """One up card's return, and each first hand's (``hands[(a, b)]``)."""

    ev: float
    hands: dict[tuple[int, int], float]


@memo(64)
def optimal_solved(ctx: Context, up: int, free: bool = False) -> Solved:
    """Mode-0 solution over the fresh shoe less the up card (cached); ``free``: each hand's
    own stake the house's (a hand a free split made)."""
    solved = run_solve(ctx, up, up_base(ctx, up), OPTIMUM, free=free)
    return solved


@memo(640)
def optimal_split(ctx: Context, up: int, pair: int, max_hands: int) -> float:
    """CDZ- return of splitting ``pair`` against ``up`` (values' space)."""
    solved = optimal_solved(ctx, up)
    play = SplitPlay(mode=FIXED, dec=(solved.dec, solved.decs))
    return split_value(ctx, up, shoe_after(ctx, up), pair, play, max_hands)


@memo(64)
def optimal_upcard(ctx: Context, up: int) -> UpResult:
    """The optimum's return against one up card."""
    base = up_base(ctx, up)
    solved = optimal_solved(ctx, up)
    total = 0.0
    hands: dict[tuple[int, int], float] = {}
    for a, b, node, p in two_card_deals(ctx, up):
        if p == 0.0:
            continue
        pbj = float(base.pbj[node])
        if is_blackjack(a, b):
            v = blackjack_value(ctx, pbj)
        else:
            sur = ctx.surrender_offered(up)
            no_split = hand_options(ctx, up, node, solved, base, split=None, surrender=sur)
            v = no_split.best()
            if a == b and ctx.can_split:
                sv = optimal_split(ctx, up, a, ctx.split_max(a))
                with_split = hand_options(ctx, up, node, solved, base, split=sv, surrender=sur)
                v = mix_rank_pairs(ctx, a, b, with_split.best(), v)
            v += top_offset(ctx, up, pbj)
        hands[(a, b)] = v
        total += p * v
    return UpResult(total, hands)
