"""A total's stand-or-hit returns over every hand that reaches it, not only the two-card ones.

A counter plays ``"16"`` against a ten by one index for every 16: 10-6 and 9-7 as dealt,
and 4-2-T, 5-3-8, 2-2-2-T and every other 16 made by hitting. The stand-or-hit decision of a
total is therefore taken over all of them, each weighted by how often a hand reaches it:

- a two-card hand by its chance of being dealt (the shoe less the up card);
- a hand of three cards or more by the chance of dealing its parent times the parent being
  hit times the chance of the card drawn (the shoe less the up card and the parent's cards),
  summed over its parents. A hand is hit where the composition-dependent optimum at that
  shoe hits it (:class:`~twentyone.analysis.action_moments.HandTable`'s ``dec``), and a
  pair where it is not split either (the pair's split return below its best other play).

The draws are not conditioned on the dealer's hole card (with a peek, the hole card is
known not to make a blackjack; that shifts a drawn card's chances by well under one part in
a hundred). Doubles, splits and surrender are two-card decisions and keep the two-card
returns; pairs keep their own names (``"8,8"``), so a total's two-card hands exclude them,
but hands that grow from an unsplit pair (4-4 drawing an 8) count towards their total.

Returned under ``"any:stand"`` and ``"any:hit"`` (and ``"any:m2:stand"``, ``"any:m2:hit"``:
their second moments), beside the two-card returns of the same hand name.
"""

from __future__ import annotations

from collections.abc import Sequence

from twentyone.analysis.action_moments import HandTable, hand_table
from twentyone.analysis.player import HIT
from twentyone.engine.cards import Card
from twentyone.engine.rules import Rules

ANY = "any:"
M2 = "m2:"

Sums = dict[str, dict[str, float]]


def reach_weights(
    rules: Rules, shoe: Sequence[int], upcard: Card, split: frozenset[int]
) -> tuple[dict[int, float], HandTable]:
    """Per hand of three cards or more (the shoe's node number), the chance a round against
    ``upcard`` reaches it (see the module's text); ``split``: the pair ranks (value index)
    split at this shoe. Second: the :class:`HandTable` used."""
    table = hand_table(rules, shoe, upcard)
    nodes = table.ctx.nodes
    counts = nodes.counts
    child = nodes.child
    left0 = [int(x) for x in shoe]
    left0[table.up] -= 1
    n0 = sum(left0)
    reach: dict[int, float] = {}
    frontier: dict[int, float] = {}
    for a in range(10):
        for b in range(a, 10):
            if left0[a] < 1 + (a == b) or left0[b] < 1 or (a, b) == (0, 9):
                continue
            w = left0[a] * (left0[b] - (a == b)) / (n0 * (n0 - 1.0)) * (1 if a == b else 2)
            node = nodes.index[tuple((v == a) + (v == b) for v in range(10))]
            if a == b and a in split:
                continue
            frontier[node] = frontier.get(node, 0.0) + w
    dec = table.dec
    while frontier:
        nxt: dict[int, float] = {}
        for node, w in frontier.items():
            if dec[node] != HIT or nodes.total[node] >= 21:
                continue
            left = [x - int(c) for x, c in zip(left0, counts[node], strict=True)]
            n = float(sum(left))
            for v in range(10):
                c = int(child[node, v])
                if c >= 0 and left[v] > 0:
                    nxt[c] = nxt.get(c, 0.0) + w * left[v] / n
        for node, w in nxt.items():
            reach[node] = reach.get(node, 0.0) + w
        frontier = nxt
    return reach, table


def multi_card_sums(
    rules: Rules, shoe: Sequence[int], upcard: Card, split: frozenset[int], moments: bool
) -> tuple[Sums, dict[str, float]]:
    """Per hand name, the reach-weighted sums of the stand and hit returns (and second
    moments, with ``moments``) of the hands of three cards or more, and their total weight."""
    reach, table = reach_weights(rules, shoe, upcard, split)
    total = table.ctx.nodes.total
    sums: Sums = {}
    weights: dict[str, float] = {}
    for node, w in reach.items():
        if total[node] >= 21 or w <= 0.0:
            continue
        name = table.hand_name(node)
        acc = sums.setdefault(name, {})
        vals = {"hit": float(table.hit[node])}
        if moments:
            vals[M2 + "hit"] = float(table.hit2[node])
        if table.can_stand(node):
            vals["stand"] = float(table.stand[node])
            if moments:
                vals[M2 + "stand"] = float(table.stand2[node])
        for k, v in vals.items():
            acc[ANY + k] = acc.get(ANY + k, 0.0) + w * v
        weights[name] = weights.get(name, 0.0) + w
    return sums, weights
