"""Blackjack Switch in the simulator (``Rules.switch``): the table by which the kernel decides
each pair of boxes' switch.

The kernel (:mod:`twentyone.sim.kernel`) pairs a player's boxes (boxes ``2k`` and ``2k + 1``,
as :func:`twentyone.engine.bets.switch_pairs` does) and, after the peek (a dealer blackjack seen
there settles the hands as dealt), switches a pair whose hands made by swapping the second
cards return more than the hands dealt (a tie keeps), as
:func:`twentyone.analysis.switch.switches` decides. The returns are those of
:func:`twentyone.analysis.switch.hand_returns` played by the rules' basic chart (what
``ev_basic`` prices): :func:`switch_table` lays them out as
``table[up, a, b, 0]`` (the hand ``a, b`` as dealt) and ``table[up, a, b, 1]`` (made by a
switch: a two-card 21 is a plain 21), indexed by the kernel's card values (ace 1, ten-value
10), both orders of ``a, b``. A table that is not a switch table's is :func:`no_switch`'s
one-cell table, which the kernel never reads.

>>> import numpy as np
>>> no_switch().shape
(1, 1, 1, 2)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from twentyone.engine.rules import Rules

FloatArray = npt.NDArray[np.float64]


def no_switch() -> FloatArray:
    """The kernel's switch table at a table without the switch (never read)."""
    return np.zeros((1, 1, 1, 2), dtype=np.float64)


def switch_table(rules: Rules, boxes: int = 2) -> FloatArray:
    """``table[up, a, b, k]``: the return of a first hand ``a, b`` against the up card ``up``
    (kernel card values: ace 1, ten-value 10), as dealt (``k`` 0) or made by a switch (``k``
    1), played by the rules' basic chart, given no dealer blackjack where the dealer peeks
    (:func:`twentyone.analysis.switch.hand_returns` with ``optimal=False``); :func:`no_switch`
    for a table without the switch. Needs the exact analysis.

    >>> from twentyone import load_rules
    >>> t = switch_table(load_rules("switch"))
    >>> t.shape  # T-5 and 6-T against a 7 switch: T-T and 6-5 return more
    (11, 11, 11, 2)
    >>> bool(t[7, 10, 10, 1] + t[7, 6, 5, 1] > t[7, 10, 5, 0] + t[7, 6, 10, 0])
    True
    """
    if not rules.switch:
        return no_switch()
    from twentyone.analysis.switch import hand_returns, switch_context

    ctx = switch_context(rules, boxes)
    table = np.zeros((11, 11, 11, 2), dtype=np.float64)
    for up in range(10):  # the analysis's value indexes: ace 0, 2..9 = 1..8, ten-value 9
        returns = hand_returns(ctx, up, False)
        for k, values in enumerate((returns.dealt, returns.switched)):
            for (a, b), value in values.items():
                table[up + 1, a + 1, b + 1, k] = value
                table[up + 1, b + 1, a + 1, k] = value
    return table
