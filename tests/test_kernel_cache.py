"""A kernel's numba cache is dropped when a module it reads a constant from changes (issue 26:
numba keys its cache by the kernel's own file alone, so a renumbered ``P_`` index in
``engine/compiled.py`` left the simulator's kernels computing with the old one until their
cache files were deleted by hand). Each test runs a throwaway package in new processes, the
way a checkout updated by git is run again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: The package: ``kern`` declares a cached kernel returning ``K``, which it imports from ``mid``,
#: which re-exports it from ``consts`` (a dependency two imports away); ``other`` is imported
#: by nothing.
PACKAGE = {
    "__init__.py": "",
    "consts.py": "K = 1\n",
    "mid.py": "from pkgx.consts import K as K\n",
    "other.py": "X = 1\n",
    "kern.py": (
        "from twentyone.engine.jit import njit\n"
        "from pkgx.mid import K\n\n\n"
        "@njit(cache=True)\n"
        "def value():\n"
        "    return K\n"
    ),
}
#: The same kernel declared once numba is in use (as ``twentyone.sim.rng.fast`` does).
MATERIALIZED = (
    "from twentyone.engine.jit import materialize, njit\n\n"
    "materialize()\n"
    "from pkgx.mid import K  # noqa: E402\n\n\n"
    "@njit(cache=True)\n"
    "def value():\n"
    "    return K\n"
)
RUN = (
    "import json, pkgx.kern as k\n"
    "from twentyone.analysis.warmup import kernel_cached\n"
    "cached = kernel_cached(k.value)\n"
    "v = k.value()\n"
    "print(json.dumps([v, sum(k.value.stats.cache_hits.values()), cached]))\n"
)


def _package(tmp_path: Path, kern: str | None = None) -> Path:
    root = tmp_path / "src" / "pkgx"
    root.mkdir(parents=True)
    for name, text in PACKAGE.items():
        (root / name).write_text(text if name != "kern.py" or kern is None else kern, "utf-8")
    return root


def _run(tmp_path: Path, **env: str) -> tuple[int, int]:
    """The kernel's value and how many times it was loaded from numba's cache (checking that
    the warm-up's count of cached kernels said so before the call)."""
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environ["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "src"), str(SRC)])
    environ["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    environ.update(env)
    out = subprocess.run(
        [sys.executable, "-c", RUN], env=environ, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    value, hits, cached = json.loads(out.stdout.splitlines()[-1])
    assert cached == (hits > 0)
    return value, hits


@pytest.mark.parametrize("kern", [None, MATERIALIZED], ids=["deferred", "materialized"])
def test_a_changed_constant_module_recompiles_the_kernel_reading_it(
    tmp_path: Path, kern: str | None
) -> None:
    root = _package(tmp_path, kern)
    assert _run(tmp_path) == (1, 0)  # compiled, cached
    assert _run(tmp_path) == (1, 1)  # loaded from the cache: nothing changed
    (root / "other.py").write_text("X = 2\n", "utf-8")
    assert _run(tmp_path) == (1, 1)  # a module it does not import: still loaded
    (root / "consts.py").write_text("K = 7\n", "utf-8")  # kern.py and mid.py untouched
    assert _run(tmp_path) == (7, 0)  # numba alone loads the cached 1 (a stale kernel)
    assert _run(tmp_path) == (7, 1)
    assert (root / "__pycache__" / "kern.deps-stamp").is_file()


def test_unwritable_cache_directories_are_passed_by(tmp_path: Path) -> None:
    # the package's __pycache__ and NUMBA_CACHE_DIR cannot be made (a file is in the way),
    # so numba caches in the user-wide directory: the stamp follows it there
    root = _package(tmp_path)
    (root / "__pycache__").write_text("", "utf-8")
    blocked = str(tmp_path / "a-file" / "numba")
    (tmp_path / "a-file").write_text("", "utf-8")
    assert _run(tmp_path, NUMBA_CACHE_DIR=blocked) == (1, 0)
    assert _run(tmp_path, NUMBA_CACHE_DIR=blocked) == (1, 1)
    (root / "consts.py").write_text("K = 5\n", "utf-8")
    assert _run(tmp_path, NUMBA_CACHE_DIR=blocked) == (5, 0)
    stamps = list((tmp_path / "user-cache" / "numba").glob("*/kern.deps-stamp"))
    assert len(stamps) == 1


def test_a_cache_dir_is_stamped_too(tmp_path: Path) -> None:
    root = _package(tmp_path)
    where = str(tmp_path / "numba-cache")
    assert _run(tmp_path, NUMBA_CACHE_DIR=where) == (1, 0)
    (root / "consts.py").write_text("K = 3\n", "utf-8")
    assert _run(tmp_path, NUMBA_CACHE_DIR=where) == (3, 0)
    assert _run(tmp_path, NUMBA_CACHE_DIR=where) == (3, 1)
    assert not (root / "__pycache__").exists() or not list((root / "__pycache__").glob("*.nbi"))
