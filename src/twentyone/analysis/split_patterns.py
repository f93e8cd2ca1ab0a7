"""The rest of a split round, as the exact moments of :mod:`twentyone.analysis.split_moments`
see it: the events the round holds besides the one or two hands read and the dealer, and their
chances.

A split is dealt hand by hand in the engine's order: the hand in play takes its second card; a
pair card makes one more hand while the rules allow one (the hand in play takes another second
card), any other card starts the hand's play; once the last allowed hand is made, a pair card
is a card like any other. So a round is a sequence of events: *pair cards* that made a hand
(``k``), hands whose second card could not be a pair card (``np``: made while another hand was
still allowed) and hands whose second card could be any card (``any``). :func:`patterns` counts
the orders of events the engine allows, by ``(k, np, any)``. Every order of the same cards has
the same chance, so once the hands read and the dealer have taken ``l`` cards, ``q`` of them
pair cards, the rest of a pattern (its pair cards, and the other ``np`` hands' second cards:
not pair cards; the ``any`` hands' and every hand's later cards have a chance of 1) has the
chance ``ff(P, k) * ff(N - P, n) / ff(N, k + n)`` from the ``P`` pair cards of the ``N`` cards
left: :func:`rest_weights` sums it over the patterns, times how many hands or ordered pairs of
hands of each kind each holds.

>>> sorted(patterns(3, 20).items())  # two hands; a pair card first; a pair card second
[((0, 2, 0), 1), ((1, 0, 3), 1), ((1, 1, 2), 1)]
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from twentyone.analysis.caches import memo
from twentyone.analysis.shoe_counts import FloatArray

#: The tables of :func:`rest_weights`: one hand read (``np``, ``any``), two hands read
#: (``np`` and ``np``, ``np`` and ``any``, ``any`` and ``any``).
ONE_NP, ONE_ANY, TWO_NP, NP_ANY, TWO_ANY = range(5)


def patterns(limit: int, pair_cards: int) -> dict[tuple[int, int, int], int]:
    """How many orders of a split's events the engine allows, by ``(k, np, any)``: ``k`` pair
    cards that made a hand, ``np`` hands whose second card could not be a pair card (another
    hand was allowed), ``any`` hands whose second card could be any card. ``limit``: the most
    hands; ``pair_cards``: the pair cards left (no more hands than they can make)."""
    most = min(limit, 2 + pair_cards)
    out: dict[tuple[int, int, int], int] = defaultdict(int)
    states: dict[tuple[int, int, int, int], int] = {(2, 0, 0, 0): 1}  # hands, ended, np, any
    while states:
        nxt: dict[tuple[int, int, int, int], int] = defaultdict(int)
        for (m, a, n1, n2), c in states.items():
            if a == m:
                out[(m - 2, n1, n2)] += c
            elif m < most:
                nxt[(m + 1, a, n1, n2)] += c
                nxt[(m, a + 1, n1 + 1, n2)] += c
            else:
                nxt[(m, a + 1, n1, n2 + 1)] += c
        states = nxt
    return dict(out)


def _rest(k: int, n: int, pair_left: FloatArray, other_left: FloatArray) -> FloatArray:
    """``ff(P, k) * ff(Q, n) / ff(P + Q, k + n)`` elementwise (a product of ratios)."""
    total = pair_left + other_left
    out = np.ones_like(total)
    for i in range(k):
        out *= np.maximum(pair_left - i, 0.0) / np.maximum(total - i, 1.0)
    for j in range(n):
        out *= np.maximum(other_left - j, 0.0) / np.maximum(total - k - j, 1.0)
    return out


@memo(256, table=True)
def rest_weights(limit: int, pair_cards: int, others: int, most: int) -> FloatArray:
    """``w[t, q, l]``: the chances of the :func:`patterns` of a split to ``limit`` hands (see
    the module's docstring) times how many hands (``t`` = :data:`ONE_NP`, :data:`ONE_ANY`) or
    ordered pairs of hands (:data:`TWO_NP`, :data:`NP_ANY` both orders, :data:`TWO_ANY`) of
    table ``t``'s kinds each holds, when the hands read and the dealer took ``l`` cards, ``q``
    of them pair cards, from a shoe of ``pair_cards`` pair cards and ``others`` other cards
    (``l`` up to ``most``; kept: every split of one pair against most up cards reads the same).
    """
    found = patterns(limit, pair_cards)
    q = np.arange(pair_cards + 1, dtype=np.float64)[:, None]
    ell = np.arange(most + 1, dtype=np.float64)[None, :]
    pair_left = np.broadcast_to(pair_cards - q, (q.size, ell.size))
    other_left = others - (ell - q)
    ok = other_left >= 0
    other_left = np.where(ok, other_left, 0.0)
    total = pair_left + other_left
    uses: dict[tuple[int, int], list[tuple[int, float]]] = defaultdict(list)
    for (k, n1, n2), count in found.items():
        for table, hands, others_np in (
            (ONE_NP, n1, n1 - 1),
            (ONE_ANY, n2, n1),
            (TWO_NP, n1 * (n1 - 1), n1 - 2),
            (NP_ANY, 2 * n1 * n2, n1 - 1),
            (TWO_ANY, n2 * (n2 - 1), n1),
        ):
            if hands > 0:
                uses[(k, others_np)].append((table, float(count) * hands))
    out = np.zeros((5, pair_cards + 1, most + 1))
    top_n: dict[int, int] = {}  # by k, the most np hands besides those read
    for k, n in uses:
        top_n[k] = max(top_n.get(k, 0), n)
    by_k = np.ones_like(total)
    for k in range(max(top_n, default=-1) + 1):
        if k > 0:  # ff(P, k) / ff(N, k), a ratio at a time
            by_k = by_k * np.maximum(pair_left - (k - 1), 0.0) / np.maximum(total - (k - 1), 1.0)
        chance = by_k
        for n in range(top_n.get(k, -1) + 1):
            if n > 0:  # times ff(Q, n) / ff(N - k, n)
                chance = chance * np.maximum(other_left - (n - 1), 0.0)
                chance = chance / np.maximum(total - k - (n - 1), 1.0)
            for table, times in uses.get((k, n), ()):
                out[table] += times * chance
    return np.where(ok[None], out, 0.0)


def pattern_chance(found: dict[tuple[int, int, int], int], pair_cards: int, others: int) -> float:
    """The chance of all the :func:`patterns` together from ``pair_cards`` pair cards and
    ``others`` other cards: 1 (every split ends), a check on the patterns.

    >>> round(pattern_chance(patterns(4, 22), 22, 284), 12)
    1.0
    """
    p, q = np.array([float(pair_cards)]), np.array([float(others)])
    return sum(float(c) * float(_rest(k, n1, p, q)[0]) for (k, n1, _), c in found.items())
