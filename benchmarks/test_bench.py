"""The benchmarks ``benchmarks/run.py`` runs (pytest-benchmark): the exact analysis, ``advise``,
the simulator, the engine, the vector environment and a new process's ``edge``.

Run through the runner (``python benchmarks/run.py``), or by hand::

    PYTHONPATH=src python -m pytest benchmarks/test_bench.py --benchmark-only \\
        --benchmark-json=out.json

``pytest`` from the repository root does not collect this file (``testpaths`` names ``tests``
and ``src/twentyone`` only).

``run.py --compare REV`` runs this same file against an older source tree, so it imports only
names that have not moved (``tests/test_bench_runner.py`` checks its imports against a list):
the package's ``Round``, ``BoxBet``, ``Shoe``, ``load_rules``, the analysis's ``analyze``,
``basic_strategy``, ``shoe_of``, ``clear_caches``, ``advise``, the simulator's ``simulate`` and
``warm_up``, ``BlackjackVectorEnv`` and the command line (``python -m twentyone``).

Every benchmark times a fixed amount of work per call with a fixed number of rounds
(``benchmark.pedantic``), so that two source trees do the same work, and records what a call
does in ``extra_info``: ``unit`` and ``per_call`` (the runner reports ``per_call / median``
as the throughput: rounds/s, steps/s), and ``what`` (a line for the docs' table). Each
in-process benchmark is warmed first (numba's kernels compiled or loaded from its cache, the
analysis's hand and dealer tables built): what is timed is a process that has run before.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import twentyone
from twentyone import BoxBet, Round, Shoe, load_rules
from twentyone.analysis import analyze, basic_strategy, clear_caches, shoe_of
from twentyone.analysis.advise import advise
from twentyone.gym.vector import BlackjackVectorEnv
from twentyone.sim.runner import simulate, warm_up

RULES = "6D S17 DAS SPL1 NS"
#: no answer kept on disk, in this process and in the new processes it starts
os.environ["TWENTYONE_CACHE_DIR"] = "off"

Bench = Any  # pytest-benchmark's fixture (its class is not part of its public API)


def _info(benchmark: Bench, what: str, unit: str = "call", per_call: int = 1) -> None:
    benchmark.extra_info.update(what=what, unit=unit, per_call=per_call)


def _cpu() -> float:
    """CPU seconds of this process (all its threads) and of its children waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _timed(
    benchmark: Bench, target: Callable[[], object], rounds: int, setup: Callable[[], None]
) -> None:
    """``target`` once untimed (warm), then ``rounds`` timed calls, ``setup`` before each.
    pytest-benchmark times the wall clock; each call's CPU time goes to ``extra_info["cpu"]``
    (the steadier figure on a machine shared with other work)."""
    setup()
    target()
    cpu: list[float] = []

    def each() -> tuple[tuple[()], dict[str, Any]]:
        setup()
        return (), {}

    def call() -> None:
        start = _cpu()
        target()
        cpu.append(_cpu() - start)

    benchmark.pedantic(call, setup=each, rounds=rounds, iterations=1)
    benchmark.extra_info["cpu"] = cpu


def _nothing() -> None:
    pass


def test_analyze_full_shoe(benchmark: Bench) -> None:
    """``analyze`` of a full shoe without the distributions, results forgotten, tables kept."""
    _info(benchmark, f'analyze("{RULES}", outcomes=False), warm')
    _timed(benchmark, lambda: analyze(RULES, outcomes=False), 30, clear_caches)


def test_analyze_outcomes_ro_casino(benchmark: Bench) -> None:
    """``analyze`` with the exact distributions on a table whose splits resplit."""
    _info(benchmark, 'analyze("ro-casino") with the distributions, warm')
    _timed(benchmark, lambda: analyze("ro-casino"), 8, clear_caches)


def test_analyze_depleted_shoe(benchmark: Bench) -> None:
    """``analyze`` of a depleted shoe (its own dealer tables each time)."""
    rules = load_rules(RULES)
    shoe = shoe_of(rules, remove="5 5 6 T")
    _info(benchmark, 'analyze of the shoe less "5 5 6 T", no distributions, warm')
    _timed(benchmark, lambda: analyze(rules, shoe=shoe, outcomes=False), 20, clear_caches)


def test_advise_one_hand(benchmark: Bench) -> None:
    """``advise`` for one hand from a depleted shoe."""
    rules = load_rules(RULES)
    shoe = shoe_of(rules, remove="5 5 6 T")
    _info(benchmark, "advise T-6 against T, depleted shoe, warm")
    _timed(benchmark, lambda: advise(rules, "T 6", "T", shoe=shoe), 60, clear_caches)


def test_basic_strategy(benchmark: Bench) -> None:
    """The basic-strategy chart from the exact analysis."""
    rules = load_rules(RULES)
    _info(benchmark, f'basic_strategy("{RULES}"), warm')
    _timed(benchmark, lambda: basic_strategy(rules), 30, clear_caches)


SIM_ROUNDS = 2_000_000


def test_simulate(benchmark: Bench) -> None:
    """The simulator's flat kernel on one worker."""
    warm_up()
    rules = load_rules(RULES)
    _info(benchmark, f"simulate {SIM_ROUNDS:,} rounds, 1 worker", "rounds", SIM_ROUNDS)
    _timed(benchmark, lambda: simulate(rules, SIM_ROUNDS, seed=1, workers=1), 7, _nothing)


ENGINE_ROUNDS = 1_000


def test_engine_rounds(benchmark: Bench) -> None:
    """The engine (``Round``) dealing rounds from a seeded shoe, one box, always standing."""
    rules = load_rules(RULES)

    def rounds() -> None:
        shoe = Shoe(decks=rules.decks, seed=1)
        for _ in range(ENGINE_ROUNDS):
            rnd = Round(rules, shoe, [BoxBet("ann", rules.table_min)])
            while rnd.question is not None:
                acts = rnd.question.actions
                rnd.apply("stand" if "stand" in acts else next(a for a in acts if a[:3] == "no-"))

    _info(benchmark, f"{ENGINE_ROUNDS:,} engine rounds, standing", "rounds", ENGINE_ROUNDS)
    _timed(benchmark, rounds, 10, _nothing)


ENVS, STEPS = 1024, 200


def test_vector_env_steps(benchmark: Bench) -> None:
    """``BlackjackVectorEnv`` stepped with random legal actions (numpy's, in this process)."""

    def steps() -> None:
        envs = BlackjackVectorEnv(ENVS, rules=RULES)
        _, info = envs.reset(seed=1)
        rng = np.random.default_rng(1)
        for _ in range(STEPS):
            mask = info["action_mask"]
            _, _, _, _, info = envs.step(np.argmax(rng.random(mask.shape) * mask, axis=1))

    what = f"{ENVS} vector environments, {STEPS} steps"
    _info(benchmark, what, "steps", ENVS * STEPS)
    _timed(benchmark, steps, 10, _nothing)


@pytest.fixture(scope="module")
def src_env() -> dict[str, str]:
    """The environment of a new process that imports this process's ``twentyone``."""
    src = str(Path(twentyone.__file__).resolve().parent.parent)
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path, TWENTYONE_CACHE_DIR="off")


def test_new_process_edge(benchmark: Bench, src_env: dict[str, str]) -> None:
    """``python -m twentyone edge RULES --json`` in a new process, never asked (no result
    cache), numba's cache warm."""
    cmd = [sys.executable, "-m", "twentyone", "edge", RULES, "--json"]

    def edge() -> None:
        subprocess.run(cmd, env=src_env, check=True, capture_output=True)

    _info(benchmark, f'new process: twentyone edge "{RULES}" --json, never asked')
    _timed(benchmark, edge, 8, _nothing)


def _first_run(benchmark: Bench, src_env: dict[str, str], args: list[str], what: str) -> None:
    """``python -m twentyone ARGS`` in a new process whose caches are empty: numba's
    (``NUMBA_CACHE_DIR``, a new folder each call) and twentyone's (``TWENTYONE_CACHE_DIR``,
    another): what a user's very first command costs. Each call's peak resident memory (from
    ``/usr/bin/time``) goes to ``extra_info["peak_mib"]``."""
    cmd = ["/usr/bin/time", "-f", "%M", sys.executable, "-m", "twentyone", *args]
    peaks: list[float] = []
    folders: list[tempfile.TemporaryDirectory[str]] = []

    def fresh() -> None:
        for f in folders:
            f.cleanup()
        folders[:] = [tempfile.TemporaryDirectory(), tempfile.TemporaryDirectory()]

    def first() -> None:
        env = dict(src_env, NUMBA_CACHE_DIR=folders[0].name, TWENTYONE_CACHE_DIR=folders[1].name)
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
        peaks.append(int(out.stderr.strip().splitlines()[-1]) / 1024)

    _info(benchmark, what)
    try:
        _timed(benchmark, first, 2, fresh)
    finally:
        for f in folders:
            f.cleanup()
    benchmark.extra_info["peak_mib"] = peaks


def test_first_simulate_empty_caches(benchmark: Bench, src_env: dict[str, str]) -> None:
    """A first ``simulate ro-casino`` of a million rounds on one core, every cache empty."""
    args = ["simulate", "ro-casino", "--rounds", "1000000", "--workers", "1", "--seed", "1"]
    what = (
        "first `simulate ro-casino --rounds 1000000 --workers 1`, "
        "numba's and twentyone's caches empty"
    )
    _first_run(benchmark, src_env, args, what)


def test_first_edge_empty_caches(benchmark: Bench, src_env: dict[str, str]) -> None:
    """A first ``edge ro-casino``, every cache empty."""
    what = "first `edge ro-casino`, numba's and twentyone's caches empty"
    _first_run(benchmark, src_env, ["edge", "ro-casino"], what)
