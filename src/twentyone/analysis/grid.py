"""Nets of a round on a grid of half bets, and a split hand's net by its final state.

>>> split_hand_net(7 + 4, 5, (1.0, 2.0))  # a doubled 20 against a dealer's bust
2.0
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from twentyone.analysis.context import Base, Context
from twentyone.analysis.shoe_counts import FloatArray, IntArray

STEP = 0.5


class Grid:
    """Nets on a grid of half bets wide enough for the rules' largest split (index ``off +
    2 * net``)."""

    def __init__(self, ctx: Context, hands: int | None = None) -> None:
        """``hands``: the most hands it must hold (default the rules' largest split from the
        shoe; 1: one hand's nets, its bonus included, with room to pay it once more)."""
        most = max(ctx.split_max(p) for p in range(10)) if hands is None else hands
        reach = most * (2 + ctx.bonus) + 2 + ctx.bonus  # split hands doubled, each paid it
        if abs(2 * ctx.bonus - round(2 * ctx.bonus)) > 1e-12:
            raise ValueError(f"bonus {ctx.bonus}: the grid holds half bets only")
        self.off = math.ceil(reach / STEP)
        self.size = 2 * self.off + 1

    def point(self, net: float, mass: float) -> FloatArray:
        out = np.zeros(self.size)
        out[self.off + round(net / STEP)] = mass
        return out

    def stake_stand(self, ctx: Context, base: Base, node: int, stake: float) -> FloatArray:
        rest = 1.0 - base.push[node] - base.pbj[node]
        out = self.point(stake, (rest + base.nb[node]) / 2.0)
        out += self.point(-stake, (rest - base.nb[node]) / 2.0)
        out += self.point(0.0, base.push[node])
        if not ctx.peek:
            out += self.point(-ctx.f2 if stake == 2 else -ctx.f1, base.pbj[node])
        return out

    def embed(self, dist: FloatArray, small: Grid) -> FloatArray:
        """``dist`` on ``small``, a narrower grid, placed on this one (the same nets)."""
        out = np.zeros(self.size)
        out[self.off - small.off : self.off + small.off + 1] = dist
        return out

    def shift(self, dist: FloatArray, by: float) -> FloatArray:
        k = round(by / STEP)
        out = np.zeros(self.size)
        out[k:] = dist[: self.size - k]
        return out

    def add_sum(self, x: FloatArray, y: FloatArray) -> FloatArray:
        """The net of two independent parts (masses ``x`` and ``y`` on the grid); only
        their nonzero spans are convolved (a split of many hands sums dozens of them).

        >>> g = Grid.__new__(Grid); g.off, g.size = 4, 9
        >>> [float(v) for v in g.add_sum(g.point(1.0, 0.5), g.point(-0.5, 1.0))]
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0]
        """
        out = np.zeros(self.size)
        nx, ny = np.flatnonzero(x), np.flatnonzero(y)
        if nx.size == 0 or ny.size == 0:
            return out
        part = np.convolve(x[nx[0] : nx[-1] + 1], y[ny[0] : ny[-1] + 1])
        start = int(nx[0] + ny[0]) - self.off  # the first product's place on the grid
        lo, hi = max(start, 0), min(start + part.size, self.size)
        if lo < hi:
            out[lo:hi] = part[lo - start : hi - start]
        return out


def split_hand_net(state: int, d: int, loss: tuple[float, float], bonus: float = 0.0) -> float:
    """A split hand's net in final state ``state`` (``part * 7 + state``; 14 and 15: a 21
    paid the 6-7-8 / 7-7-7 ``bonus``, doubled the second) against dealer outcome ``d`` (0-4 =
    17..21, 5 bust, 6 blackjack).

    >>> split_hand_net(14, 6, (1.0, 2.0), 3.0)  # a 7-7-7 paid 3, then the dealer's blackjack
    2.0
    """
    if state >= 14:
        return split_hand_net(7 * (state - 14) + 5, d, loss) + bonus
    part, st = divmod(state, 7)
    stake = 2.0 if part else 1.0
    if st == 6:
        return -stake
    if d == 6:
        return -loss[part]
    if d == 5:
        return stake
    mine = 0 if st == 0 else 16 + st
    return stake * ((mine > 17 + d) - (mine < 17 + d))


@lru_cache(maxsize=16)
def hand_nets(ctx: Context) -> IntArray:
    """A split hand's net in half bets, by its final state (``part * 7 + state``, and the two
    bonus states: :data:`~twentyone.analysis.split_joint.STATES`) and the dealer's outcome."""
    from twentyone.analysis.split_joint import STATES

    loss, bonus = (ctx.f1s, ctx.f2s), ctx.bonus
    nets = [
        [round(split_hand_net(s, d, loss, bonus) / STEP) for d in range(7)] for s in range(STATES)
    ]
    return np.array(nets, dtype=np.int64)
