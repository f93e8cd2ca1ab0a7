"""Seeds, chunks, workers and results of a simulation.

The rounds are cut into chunks of :data:`CHUNK` rounds (the last one shorter), whatever the
number of workers; chunk ``i`` plays from a fresh shoe with the random stream
``SeedSequence(seed).spawn(n_chunks)[i]``, and the chunks' sums are added in chunk order. So a
result depends only on the rules, the chart, the rounds, the boxes and the seed: never on the
number of workers or on where they run (local processes, or Ray with ``address``).

>>> from twentyone import load_rules
>>> from twentyone.engine.strategy import Strategy
>>> res = simulate(load_rules("6D S17 CSM"), 2000, seed=1, strategy=Strategy.uniform("S"))
>>> res.rounds, res.ev < 0, res.ci95[0] < res.ev < res.ci95[1]
(2000, True, True)
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from twentyone.engine.errors import TwentyOneError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy
from twentyone.sim.tasks import CHUNK as CHUNK
from twentyone.sim.tasks import Progress as Progress
from twentyone.sim.tasks import Task as Task
from twentyone.sim.tasks import chunk_states as chunk_states
from twentyone.sim.tasks import make_tasks, run_task


@dataclass(frozen=True)
class SimResult:
    """Totals of a simulation. Money is in units of one box's initial bet; ``ev`` and ``sd``
    are per initial bet (a round's money divided by its boxes)."""

    rounds: int
    boxes: int
    total: float
    squares: float
    seconds: float
    seed: int
    workers: int

    @property
    def ev(self) -> float:
        """Mean return per initial bet."""
        return self.total / self.rounds / self.boxes

    @property
    def sd(self) -> float:
        """Standard deviation of a round's return per initial bet."""
        n = self.rounds
        mean = self.total / n
        var = (self.squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
        return math.sqrt(max(var, 0.0)) / self.boxes

    @property
    def stderr(self) -> float:
        return self.sd / math.sqrt(self.rounds)

    @property
    def ci95(self) -> tuple[float, float]:
        half = 1.959963984540054 * self.stderr
        return self.ev - half, self.ev + half

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    def z(self, exact: float | None) -> float | None:
        """How many standard errors the result lies from an exact value."""
        if exact is None or self.stderr == 0:
            return None
        return (self.ev - exact) / self.stderr

    def to_dict(self, exact_ev: float | None = None) -> dict[str, Any]:
        """The ``--json`` shape."""
        lo, hi = self.ci95
        return {
            "rounds": self.rounds,
            "ev": self.ev,
            "stderr": self.stderr,
            "ci95": [lo, hi],
            "sd": self.sd,
            "rounds_per_second": self.rounds_per_second,
            "exact_ev": exact_ev,
            "z": self.z(exact_ev),
        }


def check_arguments(rules: Rules, rounds: int, boxes: int, workers: int | None) -> None:
    """Refuse arguments the simulation cannot take, naming the value."""
    if rounds < 1:
        raise TwentyOneError("sim-rounds", rounds=rounds)
    if not 1 <= boxes <= rules.boxes_per_player:
        raise TwentyOneError(
            "sim-boxes", boxes=boxes, table=rules.name, most=rules.boxes_per_player
        )
    if workers is not None and workers < 1:
        raise TwentyOneError("sim-workers", workers=workers)


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel in this process."""
    from twentyone.engine.rules import Rules

    tasks = make_tasks(Rules(decks=1), Strategy.uniform("S"), 1, 1, 0)
    run_task(tasks[0])


def compile_notice(out: TextIO | None = None, exact: bool = False) -> bool:
    """Tell the user (on standard error) when ``simulate``'s kernels, this one and the
    chart's analysis's (with ``exact``: the exact return's too), are about to compile; returns
    whether it did."""
    from twentyone.analysis import variance
    from twentyone.analysis.warmup import notice
    from twentyone.sim.kernel import flat_kernel

    return notice(
        out, "simulate", extra=(flat_kernel, variance.moments) if exact else (flat_kernel,)
    )


def compile_aside() -> Any | None:
    """When the kernel has no numba cache file yet (the first run after an install), start
    compiling it in another process, which writes the cache this one then loads: it compiles
    on a second core while this process does other work (``simulate``'s exact analysis).
    Returns the process to ``join()`` before :func:`warm_up`, or None when nothing is to
    compile (or no process could start: :func:`warm_up` then compiles here)."""
    from twentyone.analysis.warmup import kernel_cached
    from twentyone.sim.kernel import flat_kernel

    if kernel_cached(flat_kernel):
        return None
    try:
        helper = _pool_context().Process(target=warm_up, daemon=True)
        helper.start()
    except OSError:
        return None
    return helper


def _pool_context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def run_local(tasks: Sequence[Task], workers: int, progress: Progress | None) -> list[Any]:
    """Run the chunks here (one worker) or on a pool of local processes."""
    results: list[Any] = [None] * len(tasks)
    if workers == 1 or len(tasks) == 1:
        for t in tasks:
            results[t.index] = run_task(t)
            if progress:
                progress(t.rounds)
        return results
    with _pool_context().Pool(min(workers, len(tasks))) as pool:
        for out in pool.imap_unordered(run_task, tasks):
            results[out[0]] = out
            if progress:
                progress(tasks[out[0]].rounds)
    return results


def simulate(
    rules: Rules,
    rounds: int,
    *,
    boxes: int = 1,
    seed: int = 0,
    workers: int | None = 1,
    strategy: Strategy | None = None,
    address: str | None = None,
    progress: Progress | None = None,
) -> SimResult:
    """Play ``rounds`` rounds of ``strategy`` (default: basic strategy, see
    :func:`twentyone.sim.textbook.chart_for`) on ``boxes`` boxes of one player.

    ``workers``: local processes (``None``: every core); ``address``: run the chunks as Ray
    tasks instead (``"auto"``, ``"ray://host:port"``; an already started Ray is used as is).
    """
    if workers is None:
        workers = os.cpu_count() or 1
    check_arguments(rules, rounds, boxes, workers)
    if strategy is None:
        from twentyone.sim.textbook import chart_for

        strategy = chart_for(rules, boxes)[0]
    tasks = make_tasks(rules, strategy, rounds, boxes, seed)
    if address is None:
        warm_up()  # compile once here: forked workers inherit it
    start = time.perf_counter()
    if address is not None:
        from twentyone.sim.cluster import run_ray

        results = run_ray(tasks, address, progress)
    else:
        results = run_local(tasks, workers, progress)
    seconds = time.perf_counter() - start
    total = 0.0
    squares = 0.0
    for _, t, s in results:  # chunk order: the same sums whatever ran them
        total += t
        squares += s
    return SimResult(rounds, boxes, total, squares, seconds, seed, workers)
