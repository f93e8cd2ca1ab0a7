"""The analysis's kernels' saved machine code (:mod:`twentyone.analysis.aot`,
:mod:`twentyone.analysis.machine_code`): built in the background the way a user's first
analysis starts it (no C compiler on the path), loaded without numba, and the same figures to
the bit as numba's kernels; and the stand-ins of :mod:`twentyone.engine.jit`."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from twentyone.analysis import aot

#: What the saved code is checked on: two and four hands, a Romanian preset, a single
#: deck hitting soft 17, and a depleted shoe.
CASES = [
    ("6D S17 DAS SPL1 NS", None),
    ("6D S17 DAS SPL3 NS", None),
    ("ro-casino", None),
    ("1D H17 DAS SPL1 NS", None),
    ("6D S17 DAS SPL1 NS", "5 5 5 5 6 6"),
]

SCRIPT = """
import json, sys
from twentyone import load_rules
from twentyone.analysis import aot, analyze, shoe_of
from twentyone.analysis.advise import advise
from twentyone.counting.eor import effects_of_removal
loaded = aot.load()
out = []
for spec, remove in json.loads(sys.argv[1]):
    r = load_rules(spec)
    shoe = None if remove is None else shoe_of(r, remove=remove)
    d = analyze(r, shoe=shoe).to_json()
    d.pop("seconds")
    out.append(d)
a = advise(load_rules("6D S17 DAS SPL1 NS"), "T 6", "T")
e = effects_of_removal(load_rules("ro-casino")).to_json()
e.pop("seconds", None)
print(json.dumps({"loaded": loaded, "numba": "numba" in sys.modules, "reports": out,
                  "advise": [a.returns, a.best, a.insurance], "eor": e}))
"""


SPAWN = "import json; from twentyone.analysis import aot; print(json.dumps(aot.spawn_build()))"


def _env(where: Path, **more: str) -> dict[str, str]:
    env = dict(os.environ, TWENTYONE_AOT_DIR=str(where), TWENTYONE_CACHE_DIR="off", **more)
    env.pop("TWENTYONE_AOT", None)  # the suite's "off" (tests/conftest.py) lifted here
    return env


def _run(code: str, env: dict[str, str], *args: str) -> Any:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Code saved by the background build a CLI's analysis starts (detached, lowest
    priority), waited for; with nothing on the path (no C compiler, no other program)."""
    where = tmp_path_factory.mktemp("aot")
    env = _env(where, PATH=str(tmp_path_factory.mktemp("empty")))
    env.pop("CC", None)
    started = _run(SPAWN, env)
    assert started is True
    lock = next(iter(where.glob("*.lock")), None)
    deadline = time.monotonic() + 600
    try:
        while time.monotonic() < deadline:
            if list(where.glob("twentyone_aot_*")) and not list(where.glob("*.lock")):
                break
            lock = next(iter(where.glob("*.lock")), lock)
            time.sleep(0.5)
        yield where
    finally:
        if lock is not None and lock.exists():  # a build still running: stop it
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(lock.read_text()), signal.SIGKILL)


@pytest.fixture(scope="module")
def numbas() -> dict[str, Any]:
    """The figures of :data:`SCRIPT` from numba's kernels (a process without the module)."""
    got: dict[str, Any] = _run(SCRIPT, dict(os.environ, TWENTYONE_AOT="off"), json.dumps(CASES))
    assert got["loaded"] is False and got["numba"] is True
    return got


def test_the_background_build_leaves_one_file_and_no_lock(built: Path) -> None:
    modules = list(built.glob("twentyone_aot_*"))
    assert len(modules) == 1, sorted(p.name for p in built.iterdir())
    assert modules[0].suffix == ".code"
    assert not list(built.glob("*.lock")) and not list(built.glob("*.failed"))
    # built: the next analysis starts no other build
    again = _run(SPAWN, _env(built))
    assert again is False


def test_saved_code_gives_numbas_figures_to_the_bit_without_numba(
    built: Path, numbas: dict[str, Any]
) -> None:
    got = _run(SCRIPT, _env(built), json.dumps(CASES))
    assert got["loaded"] is True
    assert got["numba"] is False  # not imported at all
    assert got["reports"] == numbas["reports"]
    assert got["advise"] == numbas["advise"]
    assert got["eor"] == numbas["eor"]


def test_the_cli_edge_runs_on_the_saved_code(built: Path, numbas: dict[str, Any]) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "edge", CASES[1][0], "--json"],
        env=_env(built),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "compiling" not in out.stderr
    got = json.loads(out.stdout)
    got.pop("seconds")
    assert got == numbas["reports"][1]


def test_the_cli_eor_on_the_saved_code_gives_numbas_figures(built: Path) -> None:
    cmd = [sys.executable, "-m", "twentyone.cli", "eor", "ro-casino", "--json"]
    runs = []
    for env in (_env(built), dict(os.environ, TWENTYONE_CACHE_DIR="off", TWENTYONE_AOT="off")):
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        got.pop("seconds", None)
        runs.append(got)
    assert runs[0] == runs[1]


def test_damaged_code_is_ignored_and_numba_runs(
    built: Path, tmp_path: Path, numbas: dict[str, Any]
) -> None:
    good = next(built.glob("twentyone_aot_*"))
    (tmp_path / good.name).write_bytes(b"not saved code")
    got = _run(SCRIPT, _env(tmp_path), json.dumps(CASES[:1]))
    assert got["loaded"] is False and got["numba"] is True
    assert got["reports"] == numbas["reports"][:1]


def test_a_build_keeps_no_code_that_fails_its_check(built: Path, tmp_path: Path) -> None:
    from twentyone.analysis import machine_code

    codes = machine_code.read(next(built.glob("twentyone_aot_*")))
    # two kernels' code swapped: it loads, and must not be kept
    first, second = codes[0], codes[1]
    swapped = [
        machine_code.Code(**{**vars(first), "module": second.module, "name": second.name}),
        machine_code.Code(**{**vars(second), "module": first.module, "name": first.name}),
        *codes[2:],
    ]
    part = tmp_path / "swapped.part"
    machine_code.save(swapped, part)
    with pytest.raises(machine_code.MachineCodeError, match=r"failed its check|differ"):
        aot._verify(part)
    machine_code.save(codes, part)
    aot._verify(part)  # the code as saved passes


def test_aot_off_and_a_failed_build_start_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWENTYONE_AOT_DIR", str(tmp_path))
    monkeypatch.setenv("TWENTYONE_AOT", "off")
    assert aot.spawn_build() is False
    monkeypatch.delenv("TWENTYONE_AOT")
    (tmp_path / f"{aot.module_name()}.failed").write_text("CompileError: no compiler\n")
    assert aot.spawn_build() is False  # not tried again for this code
    (tmp_path / f"{aot.module_name()}.failed").unlink()
    (tmp_path / f"{aot.module_name()}.lock").write_text(str(os.getpid()))
    assert aot.spawn_build() is False  # a live build holds the lock
    assert not list(tmp_path.glob("twentyone_aot_*.code"))


def test_a_lock_is_stale_when_its_build_is_gone(tmp_path: Path) -> None:
    lock = tmp_path / "x.lock"
    lock.write_text(str(os.getpid()))
    assert aot._stale(lock) is False
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    lock.write_text(done.stdout.strip())  # a process that has ended
    assert aot._stale(lock) is True
    lock.write_text("garbage")
    assert aot._stale(lock) is True


def test_the_declared_signatures_are_the_ones_the_analysis_calls() -> None:
    # in a process of its own: the suite's other tests call kernels with other types
    code = """
import json, sys
from twentyone import load_rules
from twentyone.engine import jit
from twentyone.analysis import aot, analyze, shoe_of
from twentyone.analysis.advise import advise
jit.materialize()
for spec, remove in json.loads(sys.argv[1]):
    r = load_rules(spec)
    analyze(r, shoe=None if remove is None else shoe_of(r, remove=remove))
advise(load_rules("6D S17 DAS SPL1 NS"), "T 6", "T")
out = {}
for (module, name, _), (kernel, args) in zip(aot.EXPORTS, aot.signatures()):
    out[name] = [[str(s.args) for s in kernel.nopython_signatures], str(tuple(args))]
print(json.dumps(out))
"""
    got = _run(code, dict(os.environ), json.dumps(CASES))
    assert set(got) == {name for _, name, _ in aot.EXPORTS}
    for name, (called, declared) in got.items():
        assert called == [declared], name


def test_calls_the_saved_code_cannot_read_go_to_numba(built: Path) -> None:
    code = """
import json, sys
import numpy as np
from twentyone.analysis import aot
from twentyone.analysis.dealer import dealer_dists, dealer_table
loaded = aot.load()
t = dealer_table(5, False)
comp = np.array([24] * 9 + [96], dtype=np.int64)
comp[4] -= 1
keys = np.zeros((4, 10), dtype=np.int64)
keys[1, 3], keys[2, 9], keys[3, 0] = 1, 2, 1
good = dealer_dists(comp, keys, t.parent, t.fac, t.ways, t.bucket)[0]
compiled_only = "numba" not in sys.modules
wide = np.zeros((4, 20), dtype=np.int64)
wide[:, ::2] = keys  # the same cards, as a strided view the compiled code would misread
strided = dealer_dists(comp, wide[:, ::2], t.parent, t.fac, t.ways, t.bucket)[0]
print(json.dumps({"loaded": loaded, "compiled_only": compiled_only,
                  "numba": "numba" in sys.modules, "same": bool(np.array_equal(good, strided))}))
"""
    got = _run(code, _env(built))
    assert got == {"loaded": True, "compiled_only": True, "numba": True, "same": True}


def test_kernels_wait_for_numba_until_one_runs_without_compiled_code() -> None:
    code = """
import json, sys
import numpy as np
from twentyone.engine import jit
from twentyone.analysis import dealer, split_joint
before = [type(dealer.dealer_dists) is jit.Kernel, "numba" in sys.modules]
row = split_joint._slot(np.full(8, -1, dtype=np.int64), 5)  # no compiled module: numba's
after = [type(dealer.dealer_dists) is jit.Kernel, type(split_joint.dealer_dists) is jit.Kernel,
         "numba" in sys.modules, jit.materialized()]
print(json.dumps({"before": before, "after": after, "row": int(row)}))
"""
    env = dict(os.environ, TWENTYONE_AOT="off")
    got = _run(code, env)
    assert got["before"] == [True, False]  # declared, numba not imported
    assert got["after"] == [False, False, True, True]  # dispatchers everywhere now
    assert 0 <= got["row"] < 8
