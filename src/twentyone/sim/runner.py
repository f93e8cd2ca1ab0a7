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
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TextIO, TypeVar

from twentyone.engine.errors import TwentyOneError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy
from twentyone.sim.tasks import CHUNK as CHUNK
from twentyone.sim.tasks import Progress as Progress
from twentyone.sim.tasks import Task as Task
from twentyone.sim.tasks import chunk_states as chunk_states
from twentyone.sim.tasks import make_tasks, run_task

#: what an interrupted simulation returns (:class:`SimResult`, a counting run's result)
ResultT = TypeVar("ResultT")


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
    interrupted: bool = False  # stopped (Ctrl-C) after ``rounds``, fewer than were asked

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
        """The ``--json`` shape (``"interrupted": true`` added to a run stopped early)."""
        lo, hi = self.ci95
        shape = {
            "rounds": self.rounds,
            "ev": self.ev,
            "stderr": self.stderr,
            "ci95": [lo, hi],
            "sd": self.sd,
            "rounds_per_second": self.rounds_per_second,
            "exact_ev": exact_ev,
            "z": self.z(exact_ev),
        }
        if self.interrupted:
            shape["interrupted"] = True
        return shape


class Interrupted(KeyboardInterrupt, Generic[ResultT]):
    """Ctrl-C stopped a simulation (:func:`simulate`, the counting simulator's
    :func:`~twentyone.counting.sim_runner.simulate_counting`): ``result`` holds the chunks
    finished by then (None when none had), marked ``interrupted``. A ``KeyboardInterrupt``,
    so a caller that does not look for it stops as it would have."""

    def __init__(self, result: ResultT | None) -> None:
        super().__init__()
        self.result = result


#: Rounds of one box a core plays in a day, to refuse a ``--rounds`` the simulator cannot
#: finish in one. Measured: ``simulate`` on one core of a 2-core x86-64 build machine
#: (6D S17 CSM, basic strategy) plays 12.1 million rounds/s with one box and 14.0 / 14.4
#: million box-rounds/s with 2 / 3 boxes (7.0 / 4.8 million rounds/s); 12 million x 86,400 s
#: is 1.04e12, rounded down to 1e12. So the most rounds a run takes is this times its
#: workers, divided by its boxes (a cluster is counted as this machine's cores).
BOX_ROUNDS_A_CORE_DAY = 10**12

#: The same for ``simulate --count`` (twentyone.counting.sim_runner), measured the same way:
#: a Hi-Lo counter with a ramp, alone at 6D S17 DAS LS, plays 9.65 million rounds/s on one
#: core (3.94 million with two other players and I18): 9.65 million x 86,400 s is 8.3e11,
#: rounded down; divided by every box dealt (the counter's and the other players').
COUNT_BOX_ROUNDS_A_CORE_DAY = 8 * 10**11


def most_rounds(boxes: int, workers: int | None, a_core_day: int = BOX_ROUNDS_A_CORE_DAY) -> int:
    """The most rounds :func:`check_arguments` lets a run of ``boxes`` boxes on ``workers``
    local processes (None: every core) play: about a day's work (``a_core_day``: box-rounds
    one core plays in a day, :data:`BOX_ROUNDS_A_CORE_DAY` by default).

    >>> most_rounds(1, 2), most_rounds(2, 1)
    (2000000000000, 500000000000)
    """
    cores = workers if workers is not None else os.cpu_count() or 1
    return a_core_day * cores // max(boxes, 1)


def check_day(rounds: int, boxes: int, workers: int | None, a_core_day: int) -> None:
    """Refuse more rounds than about a day's work (:func:`most_rounds`), naming the limit."""
    most = most_rounds(boxes, workers, a_core_day)
    if rounds > most:
        raise TwentyOneError("sim-rounds-day", rounds=rounds, most=most)


def check_arguments(rules: Rules, rounds: int, boxes: int, workers: int | None) -> None:
    """Refuse arguments the simulation cannot take, naming the value."""
    if rounds < 1:
        raise TwentyOneError("sim-rounds", rounds=rounds)
    if not 1 <= boxes <= rules.boxes_per_player:
        raise TwentyOneError(
            "sim-boxes", boxes=boxes, table=rules.name, most=rules.boxes_per_player
        )
    if rules.switch and boxes % 2:  # each pair of boxes may switch (sim.switch)
        raise TwentyOneError("sim-switch-boxes", boxes=boxes, table=rules.name)
    if workers is not None and workers < 1:
        raise TwentyOneError("sim-workers", workers=workers)
    check_day(rounds, boxes, workers, BOX_ROUNDS_A_CORE_DAY)


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel in this process."""
    from twentyone.engine.rules import Rules

    tasks = make_tasks(Rules(decks=1), Strategy.uniform("S"), 1, 1, 0)
    run_task(tasks[0])


def compile_notice(out: TextIO | None = None, exact: bool = False, chart: bool = True) -> bool:
    """Tell the user (on standard error) when ``simulate``'s kernels, this one and the
    chart's analysis's (with ``exact``: the exact return's too), are about to compile; returns
    whether it did. ``chart``: whether the chart is derived by the analysis (not for a
    shipped chart or a chart file: without ``exact``, only this kernel is waited for then)."""
    from twentyone.analysis import variance
    from twentyone.analysis.warmup import notice
    from twentyone.sim.kernel import flat_kernel

    if exact:
        return notice(out, "simulate", extra=(flat_kernel, variance.moments))
    return notice(out, "simulate" if chart else "simulator", extra=(flat_kernel,))


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


Done = Callable[[tuple[int, float, float], int], None]  # a chunk's sums and its rounds


def _ignore_ctrl_c() -> None:
    """A pool worker's start: Ctrl-C is the parent's to handle (it stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(tasks: Sequence[Task], workers: int, done: Done) -> None:
    """Run the chunks here (one worker) or on a pool of local processes, handing each
    chunk's sums to ``done`` as it finishes."""
    if workers == 1 or len(tasks) == 1:
        for t in tasks:
            done(run_task(t), t.rounds)
        return
    with _pool_context().Pool(min(workers, len(tasks)), initializer=_ignore_ctrl_c) as pool:
        for out in pool.imap_unordered(run_task, tasks):
            done(out, tasks[out[0]].rounds)


class _Sums:
    """The chunks' sums, added in chunk order whatever order they finish in (so the result
    never depends on the workers), holding only those that finished ahead of their turn."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.total = 0.0
        self.squares = 0.0
        self.rounds = 0
        self.next = 0
        self.ahead: dict[int, tuple[float, float]] = {}

    def __call__(self, out: tuple[int, float, float], rounds: int) -> None:
        index, total, squares = out
        self.ahead[index] = (total, squares)
        self.rounds += rounds
        while self.next in self.ahead:
            self._add(self.ahead.pop(self.next))
            self.next += 1
        if self.progress:
            self.progress(rounds)

    def _add(self, sums: tuple[float, float]) -> None:
        self.total += sums[0]
        self.squares += sums[1]

    def finish(self) -> None:
        """Add the chunks still waiting for an earlier one (a run stopped early)."""
        for index in sorted(self.ahead):
            self._add(self.ahead.pop(index))


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
    ``progress`` is called with the rounds of each chunk as it finishes.

    Ctrl-C (``KeyboardInterrupt``) stops the run: :class:`Interrupted` is raised with the
    result of the chunks finished by then.
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
    sums = _Sums(progress)
    start = time.perf_counter()
    try:
        if address is not None:
            from twentyone.sim.cluster import run_ray

            run_ray(tasks, address, sums)
        else:
            run_local(tasks, workers, sums)
    except KeyboardInterrupt:
        seconds = time.perf_counter() - start
        sums.finish()
        if sums.rounds == 0:
            raise Interrupted(None) from None
        part = SimResult(sums.rounds, boxes, sums.total, sums.squares, seconds, seed, workers, True)
        raise Interrupted(part) from None
    seconds = time.perf_counter() - start
    return SimResult(rounds, boxes, sums.total, sums.squares, seconds, seed, workers)
