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

    def span(self, dist: FloatArray) -> tuple[int, FloatArray]:
        """``dist``'s nonzero span: where it starts (in steps from a net of 0) and its
        masses (sums of many hands convolve spans, not the whole grid).

        >>> g = Grid.__new__(Grid); g.off, g.size = 4, 9
        >>> at, values = g.span(g.point(-1.0, 0.5) + g.point(0.5, 0.5))
        >>> at, [float(v) for v in values]
        (-2, [0.5, 0.0, 0.0, 0.5])
        """
        nz = np.flatnonzero(dist)
        if nz.size == 0:
            return 0, np.zeros(1)
        return int(nz[0]) - self.off, dist[nz[0] : nz[-1] + 1]

    def add_span(self, out: FloatArray, at: int, values: FloatArray) -> None:
        """Add the masses ``values`` of nets from ``at`` steps on to ``out``."""
        start = self.off + at
        if start < 0 or start + values.size > self.size:
            raise AssertionError(f"nets {at} .. {at + values.size - 1} steps: off the grid")
        out[start : start + values.size] += values


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
