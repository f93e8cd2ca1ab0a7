"""The exact return of each legal action on one hand (for hints: the chart's move and what a
deviation costs).

The shoe is the fresh shoe (or any shoe given) less the visible cards (the hand and the up
card). Continuations are played by the composition-dependent optimum. With a peek the dealer
is known not to have a blackjack when the player acts, so the returns are conditional on that.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from twentyone.analysis.context import Context, shoe_after, up_base
from twentyone.analysis.hands import SplitPlay
from twentyone.analysis.optimal import optimal_solved
from twentyone.analysis.player import FIXED
from twentyone.analysis.shoe_counts import ACE, TEN, hand_counts, value_index
from twentyone.analysis.splits import split_value
from twentyone.engine.cards import Card, hand_total
from twentyone.engine.errors import CardError, TwentyOneError
from twentyone.engine.rules import Rules

_NEED = {(6, 7): 8, (6, 8): 7, (7, 8): 6}


def _bonus(ctx: Context, cards: Sequence[Card], up: Card, left: int, n: float) -> float:
    """The 6-7-8 suited / 7-7-7 bonus a third card brings, knowing the suits."""
    ranks = sorted(c.value for c in cards)
    if ranks == [7, 7]:
        return ctx.bonus * left / n
    need = _NEED.get((ranks[0], ranks[1]))
    if need is None or cards[0].suit != cards[1].suit:
        return 0.0
    seen = sum(1 for c in (*cards, up) if c.value == need and c.suit == cards[0].suit)
    suited = ctx.shoe[need - 1] / 4.0  # the shoe's cards of that value, a quarter each suit
    return ctx.bonus * max(suited - seen, 0.0) / n


def action_evs(
    rules: Rules,
    cards: Sequence[Card],
    upcard: Card,
    *,
    boxes: int = 1,
    split_hands: int = 1,
    shoe: Sequence[int] | None = None,
    free: bool = False,
    context: Context | None = None,
) -> dict[str, float]:
    """Exact return (per unit of the hand's bet) of each legal action on ``cards`` against
    ``upcard``; ``split_hands``: how many hands the box has now (more than one: this is a
    split hand); ``shoe``: the counts of A, 2..9, ten-value before the hand and the up card
    were dealt (default the rules' full shoe); ``free``: the hand's stake is the house's (a
    hand a free split made: it wins its stake and loses nothing); ``context``: the context of
    ``rules``, ``boxes`` and ``shoe`` where the caller has it already.

    >>> from twentyone import load_rules, parse_cards
    >>> r = load_rules("6D S17 DAS SPL3 NS")
    >>> evs = action_evs(r, list(parse_cards("TS 6D")), parse_cards("TH")[0])
    >>> sorted(evs), evs["hit"] > evs["stand"]
    (['double', 'hit', 'stand'], True)
    """
    ctx = Context.of(rules, boxes, shoe) if context is None else context
    nodes = ctx.nodes
    up = value_index(upcard)
    key = tuple(int(x) for x in hand_counts(list(cards)))
    if key not in nodes.index:
        raise TwentyOneError("hand-bust")
    if (np.array(ctx.shoe) < hand_counts([*cards, upcard])).any():
        raise CardError(
            "shoe-lacks-hand",
            shoe=list(ctx.shoe),
            cards=" ".join(str(c) for c in (*cards, upcard)),
        )
    node = nodes.index[key]
    base = up_base(ctx, up)
    solved = optimal_solved(ctx, up, free)
    s, h, d = solved.stand, solved.hit, solved.double
    pbj = float(base.pbj[node])
    scale = 1.0 / (1.0 - pbj) if ctx.peek and up in (ACE, TEN) else 1.0
    t = hand_total(cards)
    first = len(cards) == 2 and split_hands == 1
    out: dict[str, float] = {}
    if t.total >= ctx.min_stand or t.total == 21:
        out["stand"] = float(s[node])
    comp = shoe_after(ctx, up) - hand_counts(list(cards))
    n = float(comp.sum())
    bonus = 0.0
    if ctx.bonus and len(cards) == 2 and t.total < 21:
        keep = 1.0
        if ctx.peek and up in (ACE, TEN):
            keep = 1.0 - comp[TEN if up == ACE else ACE] / (n - 1.0)
        bonus = _bonus(ctx, cards, upcard, int(comp[6]), n) * keep
    if t.total < 21:
        out["hit"] = float(h[node]) + bonus
    more = len(cards) == 2 or ctx.dbl_more  # Rules.double_after_hit: on any number of cards
    if more and t.total < 21 and (split_hands == 1 or ctx.das) and ctx.can_double(t.total, t.soft):
        out["double"] = float(d[node]) + bonus
    a, b = (cards[0], cards[1]) if len(cards) == 2 else (cards[0], cards[0])
    pair = a.rank == b.rank if ctx.split_rank else a.value == b.value
    if len(cards) == 2 and pair and ctx.can_split:
        p = value_index(a)
        most = ctx.split_max(p) - (split_hands - 1)
        if (split_hands == 1 or p != ACE or ctx.rsa) and most >= 2:
            play = SplitPlay(mode=FIXED, dec=(solved.dec, solved.decs))
            out["split"] = split_value(ctx, up, shoe_after(ctx, up), p, play, most, free_hand=free)
    if first and ctx.surrender_offered(up):
        out["surrender"] = ctx.surrender_value(pbj)
    return {k: v * scale for k, v in out.items()}
