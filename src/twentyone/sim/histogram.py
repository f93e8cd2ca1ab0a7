"""The distribution of a round's net, simulated: every round's money kept and counted.

:func:`net_histogram` plays the chunks :func:`twentyone.sim.runner.simulate` plays (the same
:class:`~twentyone.sim.tasks.Task` list, the same random streams: one seed, the same rounds
and the same sums) through :func:`~twentyone.sim.kernel.record_rounds_kernel`, which keeps
each round's money, and counts the rounds by net. A round's net is the money of all its
boxes divided by the boxes (per initial bet: at a switch table, the pair's money over its two
bets), in initial bets; the nets are sums of a few payout ratios, so equal nets are equal
floats and counting them exactly is sound. Nothing in the kernel changes: this module only
reads what its recording entry point returns (the cards' record is kept one column wide: a
round longer than the record counts its cards without writing them).

>>> from twentyone import load_rules
>>> from twentyone.engine.strategy import Strategy
>>> h = net_histogram(load_rules("6D S17 CSM"), 5000, seed=2, strategy=Strategy.uniform("S"))
>>> sum(h.counts.values()), h.rounds, sorted(h.counts)[0]
(5000, 5000, -1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy
from twentyone.sim.runner import SimResult, check_arguments, warm_up
from twentyone.sim.tasks import Task, make_tasks, play_chunk


@dataclass(frozen=True)
class NetHistogram:
    """``counts[net]``: the rounds whose net per initial bet was ``net``; ``total`` and
    ``squares``: the sums of the rounds' money and its squares (a round's money is ``boxes``
    times its net), as :class:`~twentyone.sim.runner.SimResult` keeps them."""

    rounds: int
    boxes: int
    seed: int
    counts: dict[float, int]
    total: float
    squares: float
    seconds: float

    @property
    def result(self) -> SimResult:
        """The same run as :func:`~twentyone.sim.runner.simulate`'s result (mean, sd, z)."""
        return SimResult(
            self.rounds, self.boxes, self.total, self.squares, self.seconds, self.seed, 1
        )

    def dist(self) -> dict[float, float]:
        """``{net: share of the rounds}``, by net."""
        return {net: n / self.rounds for net, n in sorted(self.counts.items())}

    def share_stderr(self, share: float) -> float:
        """The standard error of a share of the rounds (binomial)."""
        return math.sqrt(max(share * (1.0 - share), 0.0) / self.rounds)

    def sd_stderr(self) -> float:
        """The standard error of the standard deviation per round: by the delta method,
        ``sqrt((m4 - s**4) / (4 s**2 n))`` from the sample's second and fourth central
        moments (``m4``, ``s**2``).

        >>> h = NetHistogram(4, 1, 0, {-1.0: 2, 1.0: 2}, 0.0, 4.0, 0.0)
        >>> h.sd_stderr()  # a fair coin's nets: m4 = s**4 = 1, nothing to spread
        0.0
        """
        dist = self.dist()
        mean = sum(x * p for x, p in dist.items())
        var = sum((x - mean) ** 2 * p for x, p in dist.items())
        m4 = sum((x - mean) ** 4 * p for x, p in dist.items())
        if var <= 0.0:
            return 0.0
        return math.sqrt(max(m4 - var * var, 0.0) / (4.0 * var * self.rounds))


def _chunk_moneys(task: Task) -> tuple[npt.NDArray[np.float64], float, float]:
    """One chunk's rounds' money, and the kernel's sums of it and of its squares."""
    from twentyone.sim.kernel import record_rounds_kernel

    cards = np.zeros((task.rounds, 1), dtype=np.uint8)
    ncards = np.zeros(task.rounds, dtype=np.int64)
    money = np.zeros(task.rounds, dtype=np.float64)
    total, squares = play_chunk(task, record_rounds_kernel, (cards, ncards, money))
    return money, total, squares


def net_histogram(
    rules: Rules, rounds: int, *, boxes: int = 1, seed: int = 0, strategy: Strategy | None = None
) -> NetHistogram:
    """Play ``rounds`` rounds as :func:`~twentyone.sim.runner.simulate` does (one process,
    the same chunks and streams: the same ``total`` and ``squares``) and count their nets."""
    import time

    check_arguments(rules, rounds, boxes, 1)
    if strategy is None:
        from twentyone.sim.textbook import chart_for

        strategy = chart_for(rules, boxes)[0]
    tasks = make_tasks(rules, strategy, rounds, boxes, seed)
    warm_up()
    start = time.perf_counter()
    counts: dict[float, int] = {}
    total = squares = 0.0
    for task in tasks:
        money, chunk_total, chunk_squares = _chunk_moneys(task)
        total += chunk_total  # added in chunk order, as simulate adds them
        squares += chunk_squares
        values, seen = np.unique(money, return_counts=True)
        for value, n in zip(values.tolist(), seen.tolist(), strict=True):
            net = value / boxes
            counts[net] = counts.get(net, 0) + int(n)
    seconds = time.perf_counter() - start
    return NetHistogram(rounds, boxes, seed, counts, total, squares, seconds)
