"""The first run's compile notice and the kernels compiled on two cores before the analysis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from twentyone.analysis import analyze, warmup
from twentyone.analysis.warmup import _first_run_signatures, compile_first_run


def test_the_first_run_signatures_are_the_ones_the_analysis_calls() -> None:
    # A signature that differs from the analysis's call would compile a kernel nobody loads,
    # and the first edge would compile it again when the analysis calls it.
    analyze("6D S17 DAS SPL1 NS")  # a split into two hands
    analyze("6D S17 DAS SPL3 NS")  # resplits
    for kernel, signature in _first_run_signatures():
        assert signature in kernel.signatures, kernel.__name__


def test_the_first_run_compiles_every_kernel_the_analysis_calls_from_python() -> None:
    # every kernel of kernel_types.EXPORTS but bonus_need (which only kernels call, and which
    # numba compiles with them), each once
    from twentyone.analysis.kernel_types import EXPORTS

    names = [kernel.py_func.__name__ for kernel, _ in _first_run_signatures()]
    assert sorted(names) == sorted(name for _, name, _ in EXPORTS if name != "bonus_need")


def test_nothing_is_compiled_once_the_kernels_are_cached() -> None:
    analyze("6D S17 DAS SPL1 NS")
    analyze("6D S17 DAS SPL3 NS")
    assert compile_first_run() is False


def test_rules_without_resplits_compile_no_resplit_kernel() -> None:
    from twentyone.analysis import resplit

    two = [kernel for kernel, _ in _first_run_signatures(resplits=False)]
    assert resplit.state_joint not in two
    assert resplit.state_joint in [kernel for kernel, _ in _first_run_signatures()]


class _Logged:
    """A stand-in kernel whose ``compile`` appends its name and the process's id to a file."""

    def __init__(self, name: str, log: str) -> None:
        self.name, self.log = name, log

    def compile(self, signature: object) -> None:
        import time

        time.sleep(0.02)
        with open(self.log, "a", encoding="utf-8") as fh:
            fh.write(f"{self.name} {os.getpid()}\n")


def test_two_processes_compile_each_kernel_once(monkeypatch: Any, tmp_path: Any) -> None:
    log = str(tmp_path / "compiled")
    kernels = [(_Logged(f"k{i}", log), ()) for i in range(12)]
    monkeypatch.setattr(warmup, "_first_run_signatures", lambda resplits=True: kernels)
    monkeypatch.setattr(warmup, "kernel_cached", lambda kernel: False)
    assert compile_first_run() is True
    with open(log, encoding="utf-8") as fh:
        done = [line.split() for line in fh.read().splitlines()]
    assert sorted(name for name, _ in done) == sorted(k.name for k, _ in kernels)  # each once


def test_a_cached_kernel_is_not_compiled_again(monkeypatch: Any, tmp_path: Any) -> None:
    log = str(tmp_path / "compiled")
    kernels = [(_Logged(f"k{i}", log), ()) for i in range(4)]
    monkeypatch.setattr(warmup, "_first_run_signatures", lambda resplits=True: kernels)
    monkeypatch.setattr(warmup, "kernel_cached", lambda kernel: kernel.name != "k2")
    assert compile_first_run() is True  # k2 is not cached
    with open(log, encoding="utf-8") as fh:
        assert [line.split()[0] for line in fh.read().splitlines()] == ["k2"]


_NEW_PROCESS = """
import json, sys
from twentyone.analysis import analyze, warmup
told = warmup.prepare(resplits=sys.argv[1].endswith("SPL3 NS"))
loaded = sum(len(k.overloads) for k in warmup._kernels())
data = analyze(sys.argv[1]).to_json()
data.pop("seconds")
started = "numba.np.linalg" in sys.modules  # imported by numba's compiler start-up only
print(json.dumps({"told": told, "loaded": loaded, "started": started, "data": data}))
"""


def _new_process(rules: str) -> dict[str, object]:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _NEW_PROCESS, rules], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    got: dict[str, object] = json.loads(out.stdout)
    return got


def test_a_new_process_loads_the_cached_kernels_without_numbas_compiler_start_up() -> None:
    for rules in ("6D S17 DAS SPL1 NS", "6D S17 DAS SPL3 NS"):
        want = analyze(rules).to_json()  # this process: compiled or loaded the numba way
        want.pop("seconds")
        got = _new_process(rules)
        assert got["told"] is False  # every kernel cached: nothing said, all loaded now
        assert isinstance(got["loaded"], int) and got["loaded"] >= 11
        assert got["started"] is False  # the registries were never installed
        assert got["data"] == want  # the same cached code: the same figures, to the bit


def test_a_kernel_whose_cache_cannot_be_read_is_left_to_numbas_first_call() -> None:
    from twentyone.analysis.warmup import load_cached

    class Unreadable:  # a kernel whose cache index cannot be read
        def __init__(self) -> None:
            self.overloads: dict[object, object] = {}
            self.targetctx = None

        @property
        def _cache(self) -> object:
            raise OSError("unreadable")

    assert load_cached([Unreadable()]) == 0  # nothing loaded, nothing raised


_CALLS = [
    ("6D S17 DAS SPL1 NS", None),
    ("6D S17 DAS SPL3 NS", None),
    ("ro-casino", None),
    ("1D H17 DAS SPL1 NS", None),
    ("6D S17 DAS SPL1 NS", "5 5 5 5 6 6"),
]


def _run_json(code: str, *args: str) -> Any:
    env = dict(os.environ, TWENTYONE_CACHE_DIR="off")
    out = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_declared_signatures_are_the_ones_the_analysis_calls() -> None:
    # in a process of its own: the suite's other tests call kernels with other types
    code = """
import json, sys
from twentyone import load_rules
from twentyone.engine import jit
from twentyone.analysis import analyze, kernel_types, shoe_of
from twentyone.analysis.advise import advise
jit.materialize()
for spec, remove in json.loads(sys.argv[1]):
    r = load_rules(spec)
    analyze(r, shoe=None if remove is None else shoe_of(r, remove=remove))
advise(load_rules("6D S17 DAS SPL1 NS"), "T 6", "T")
out = {}
for (module, name, _), (kernel, args) in zip(kernel_types.EXPORTS, kernel_types.signatures()):
    out[name] = [[str(s.args) for s in kernel.nopython_signatures], str(tuple(args))]
print(json.dumps(out))
"""
    from twentyone.analysis import kernel_types

    got = _run_json(code, json.dumps(_CALLS))
    assert set(got) == {name for _, name, _ in kernel_types.EXPORTS}
    for name, (called, declared) in got.items():
        assert called == [declared], name


def test_kernels_wait_for_numba_until_one_runs() -> None:
    code = """
import json, sys
import numpy as np
from twentyone.engine import jit
from twentyone.analysis import dealer, split_joint
before = [type(dealer.dealer_dists) is jit.Kernel, "numba" in sys.modules]
row = split_joint._slot(np.full(8, -1, dtype=np.int64), 5)
after = [type(dealer.dealer_dists) is jit.Kernel, type(split_joint.dealer_dists) is jit.Kernel,
         "numba" in sys.modules, jit.materialized()]
print(json.dumps({"before": before, "after": after, "row": int(row)}))
"""
    got = _run_json(code)
    assert got["before"] == [True, False]  # declared, numba not imported
    assert got["after"] == [False, False, True, True]  # dispatchers everywhere now
    assert 0 <= got["row"] < 8
