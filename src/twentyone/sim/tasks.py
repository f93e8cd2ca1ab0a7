"""A simulation cut into chunks: each chunk a picklable :class:`Task` with its own random
stream, played by :func:`run_task` wherever it runs (this process, local workers, Ray).

:func:`twentyone.sim.runner.simulate` makes the tasks and adds their sums in chunk order;
:mod:`twentyone.sim.cluster` runs them on Ray.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy
from twentyone.sim.encode import check_chart, encode_rules, encode_strategy, resolve_table
from twentyone.sim.switch import switch_table

CHUNK = 1_000_000  # rounds per chunk: fixed, so results never depend on the workers

Progress = Callable[[int], None]  # called with the rounds just finished


@dataclass(frozen=True)
class Task:
    """One chunk of rounds: everything a worker needs (picklable)."""

    index: int
    rounds: int
    boxes: int
    params: Any
    floats: Any
    hard: Any
    soft: Any
    pairs: Any
    restab: Any
    state: Any  # 4 uint64: the chunk's xoshiro256** state
    switch: Any = None  # a switch table's returns (twentyone.sim.switch.switch_table)


def play_chunk(task: Task, kernel: Callable[..., Any], *record: Any) -> Any:
    """Play one chunk's rounds through ``kernel``, an entry point of :mod:`twentyone.sim.kernel`
    (``play_rounds_kernel``; ``record_rounds_kernel`` with its record arrays ``record``), from
    the chunk's random stream: the kernel's ``(sum of money, sum of squares)``."""
    rng = np.array(task.state, dtype=np.uint64)
    return kernel(
        task.rounds,
        task.boxes,
        (task.params, task.floats),
        (task.hard, task.soft, task.pairs, task.restab),
        rng,
        *record,
        task.switch,
    )


def run_task(task: Task) -> tuple[int, float, float]:
    """Play one chunk: ``(index, sum of money, sum of squares)``."""
    from twentyone.sim.kernel import play_rounds_kernel

    total, squares = play_chunk(task, play_rounds_kernel)
    return task.index, float(total), float(squares)


def chunk_states(seed: int, n_chunks: int) -> list[npt.NDArray[Any]]:
    """Each chunk's 256-bit xoshiro256** state from ``SeedSequence(seed).spawn(n_chunks)``.

    >>> a, b = chunk_states(7, 2)
    >>> a.dtype.name, a.shape, bool((a != b).any())
    ('uint64', (4,), True)
    """
    states = []
    for child in np.random.SeedSequence(seed).spawn(n_chunks):
        state = child.generate_state(4, np.uint64)
        if not state.any():  # xoshiro's one forbidden state (probability 2**-256)
            state[0] = 1
        states.append(state)
    return states


def chunk_state(seed: int, index: int) -> npt.NDArray[Any]:
    """Chunk ``index``'s state alone: ``chunk_states(seed, n)[index]`` for any ``n > index``
    (``SeedSequence.spawn``'s ``i``-th child is ``SeedSequence(seed, spawn_key=(i,))``).

    >>> bool((chunk_state(7, 1) == chunk_states(7, 2)[1]).all())
    True
    """
    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(4, np.uint64)
    if not state.any():  # as in chunk_states
        state[0] = 1
    return state


class Tasks(Sequence[Task]):
    """The chunks of a simulation, in order, each made when it is asked for: a run of a
    million chunks neither waits for a million seeds up front nor holds them all."""

    def __init__(self, rules: Rules, strategy: Strategy, rounds: int, boxes: int, seed: int):
        self.params = encode_rules(rules)
        check_chart(rules, strategy)
        self.chart = encode_strategy(strategy)
        self.restab = resolve_table()
        self.switch = switch_table(rules, boxes) if rules.switch else None
        self.rounds = rounds
        self.boxes = boxes
        self.seed = seed
        self.n = max(1, math.ceil(rounds / CHUNK))

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, i: int) -> Task: ...
    @overload
    def __getitem__(self, i: slice) -> list[Task]: ...
    def __getitem__(self, i: int | slice) -> Task | list[Task]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        p, f = self.params
        hard, soft, pairs = self.chart
        rounds = min(CHUNK, self.rounds - i * CHUNK)
        state = chunk_state(self.seed, i)
        return Task(i, rounds, self.boxes, p, f, hard, soft, pairs, self.restab, state, self.switch)

    def __iter__(self) -> Iterator[Task]:
        return (self[i] for i in range(self.n))


def make_tasks(rules: Rules, strategy: Strategy, rounds: int, boxes: int, seed: int) -> Tasks:
    """The chunks of a simulation, in order (made as they are asked for)."""
    return Tasks(rules, strategy, rounds, boxes, seed)
