"""Running :func:`~twentyone.analysis.player.solve` on a base table (:func:`run_solve`) and its
results by name (:class:`Solved`); the keys of a cache by two arrays' contents
(:func:`arrays_key`); the shoe after the up card (:func:`shoe_after`). Split out of
:mod:`twentyone.analysis.context`, which re-exports them."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from twentyone.analysis.dealer import blackjack_card
from twentyone.analysis.player import PlayMode, PlayRules, solve
from twentyone.analysis.shoe_counts import BoolArray, FloatArray, IntArray

if TYPE_CHECKING:
    from twentyone.analysis.context import Base, Context


class Solved(NamedTuple):
    """Every hand's values from :func:`~twentyone.analysis.player.solve`: ``stand``, ``hit``
    (best play after), ``double`` (no bonus), ``played`` (as the mode plays it; two-card hands
    as split hands, bonus included), ``bonus`` (a third card's 6-7-8 / 7-7-7 bonus value),
    ``bonus_share`` (the share of such hands it pays), the decisions taken: ``dec`` (``decs``
    for the suited share), and in ``BY_TOTAL`` each chart row's hit (1) or stand (0):
    ``row_hit``."""

    stand: FloatArray
    hit: FloatArray
    double: FloatArray
    played: FloatArray
    bonus: FloatArray
    bonus_share: FloatArray
    dec: IntArray
    decs: IntArray
    row_hit: IntArray


_EMPTY = np.zeros(22, dtype=np.int64)


def run_solve(
    ctx: Context,
    up: int,
    base: Base,
    mode: int,
    *,
    split: bool = False,
    force_stand2: bool = False,
    chart: tuple[IntArray, IntArray] | None = None,
    dec: tuple[IntArray, IntArray] | None = None,
    reach: BoolArray | None = None,
    free: bool = False,
) -> Solved:
    """Run :func:`~twentyone.analysis.player.solve` on a base table in ``mode``
    (:data:`~twentyone.analysis.player.OPTIMUM`, ``BY_TOTAL``, ``CHART``, ``FIXED``): every
    hand's values and decisions, by name. With ``reach``, only the hands in it are solved (a
    fixed play's split hands: those it can reach; ``free``: each hand's own stake is the
    house's, a hand a free split made)."""
    nodes = ctx.nodes
    use = base.mask & base.valid
    if reach is not None:
        use &= reach
    hard, soft = chart if chart is not None else (_EMPTY, _EMPTY)
    zero = np.zeros(nodes.size, dtype=np.int64)
    d_in, ds_in = dec if dec is not None else (zero, zero)
    rules = PlayRules(
        blackjack_card(up) if ctx.hole < 0 else -1,  # a known hole card: no blackjack to come
        ctx.peek,
        ctx.f1s if split else ctx.f1,
        ctx.f2s if split else ctx.f2,
        ctx.min_stand,
        ctx.das,
        ctx.double_rule,
        force_stand2,
        ctx.bonus,
        ctx.free_doubles,
        free,
        ctx.dbl_more,
        ctx.doubles,
        ctx.rescue,
        split,
        base.extra,
    )
    play = PlayMode(mode, hard, soft, d_in, ds_in)
    out = solve(base.comp, nodes.table, use, base.stand, rules, play)
    return Solved(*out)


def arrays_key(pair: tuple[IntArray, IntArray]) -> bytes:
    """Two ``int64`` arrays of one length (a chart's hard and soft rows, a play's decisions)
    as one hashable key, for a cache keyed by their contents (:func:`arrays_of` undoes it).

    >>> a, b = arrays_of(arrays_key((np.arange(3), np.arange(3, 6))))
    >>> a.tolist(), b.tolist(), a.flags.writeable
    ([0, 1, 2], [3, 4, 5], True)
    """
    a, b = pair
    return a.tobytes() + b.tobytes()


def arrays_of(key: bytes) -> tuple[IntArray, IntArray]:
    """The two arrays of :func:`arrays_key` (writable copies)."""
    both = np.frombuffer(key, dtype=np.int64).reshape(2, -1)
    return both[0].copy(), both[1].copy()


def shoe_after(ctx: Context, up: int) -> IntArray:
    """The counts of ``ctx``'s shoe less the dealer's up card ``up``."""
    shoe = ctx.fresh()
    shoe[up] -= 1
    return shoe
