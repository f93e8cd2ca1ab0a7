"""The analysis's kernels compiled ahead of time, so that a new process need not import numba.

A new process's ``twentyone edge`` spends about 0.2 s importing numba and 0.1 s loading its
cached kernels before any analysis. numba can also compile the same kernels ahead of time
(``numba.pycc``) into an ordinary extension module, which loads in a millisecond and needs
neither numba nor LLVM. This module builds that module from the kernels of
:data:`EXPORTS` (the ones Python calls, each with the one signature the analysis calls it
with: :func:`signatures`) and, when one built by the code running now is found, hands its
functions to the kernels' stand-ins (:class:`twentyone.jit.Kernel`), which then never import
numba. The figures are the same to the bit (``tests/test_aot.py``): the same functions,
compiled by the same numba, with the same options.

Building needs a C compiler (pycc compiles numba's runtime into the module) and takes about
15 s of CPU, so it is never in a user's way: after an analysis command, when no module of
this code exists, :func:`spawn_build` starts ``python -m twentyone.analysis.aot build
--background`` as a detached process at the lowest priority; until it is done the kernels run
as before, from numba's cache. Where it cannot build (no compiler, an error) it leaves a
``.failed`` file with the reason and is not tried again for that code. ``TWENTYONE_AOT=off``
turns all of it off; ``python -m twentyone.analysis.aot build`` builds in the foreground.

The module lives beside numba's cache (``TWENTYONE_AOT_DIR``, else ``NUMBA_CACHE_DIR``,
else the package's ``__pycache__``, else the user's cache folder) under a name made of the
package's code digest (:func:`twentyone.result_cache.code_digest`), the machine and its CPU:
the code is compiled for this CPU, so a module found elsewhere is never loaded. Modules of
other code are removed when a new one is built.

>>> export_name("twentyone.analysis.dealer", "dealer_dists")
'dealer__dealer_dists'
>>> len(EXPORTS) == len(set(EXPORTS))
True
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

_HANDS = ("ai", "ai2", "ai", "ai", "ai2", "ai", "ai", "ab", "ab")
_DISTS = ("af", "af", "af", "i", "b", "f", "f", "ai")
_SOLVE = (
    *("ai", "ai2", "ai", "ab", "ai", "ai2", "ai", "ai", "ab", "af", "af", "i", "b", "f", "f"),
    *("i", "b", "i", "b", "f", "i", "ai", "ai", "ai", "ai"),
)
#: The kernels Python calls (module, name), in the module's order, each with the argument
#: types the analysis calls it with: ``i`` int64, ``b`` boolean, ``f`` float64, and arrays
#: ``a`` + the element (``i``, ``b``, ``f``, ``i32``) + ``2`` for two dimensions, all
#: C-contiguous. ``tests/test_aot.py`` checks them against the calls an analysis makes.
EXPORTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("twentyone.analysis.dealer", "dealer_dists", ("ai", "ai2", "ai", "ai", "af", "ai")),
    ("twentyone.analysis.player", "_bonus_need", ("ai",)),
    ("twentyone.analysis.player", "solve", _SOLVE),
    ("twentyone.analysis.player", "stand_rows", ("ai", "ai2", "i", "ab", "ai", "ab")),
    ("twentyone.analysis.player", "gather_stand", ("af2", "ab", "ai", "ai", "ab")),
    ("twentyone.analysis.player", "stand_needed", ("i", "ai2", "ai", "ai", "ai", "ai", "b")),
    ("twentyone.analysis.variance", "moments", (*_HANDS, *_DISTS, "f", "b")),
    ("twentyone.analysis.outcomes", "hand_distributions", (*_HANDS, *_DISTS, "b", "i", "i")),
    (
        "twentyone.analysis.split_joint",
        "_atom_weights",
        ("i", "i", "ai2", "ai", "ai", "ai2", "ai", "b", "b"),
    ),
    ("twentyone.analysis.split_joint", "_pair_rows", ("ai2", "ai", "ai", "ai", "i")),
    ("twentyone.analysis.split_joint", "_accumulate", ("ai", "ai2", "af2", "ai32", "af2")),
    (
        "twentyone.analysis.resplit",
        "state_joint",
        (*_HANDS, "af2", "ai", "i", "b", "ai", "b", "af"),
    ),
)
#: Seconds after which a build's lock is taken for abandoned.
LOCK_SECONDS = 900
#: Whether this process loaded a module (None: not tried yet).
_LOADED: list[bool | None] = [None]


def export_name(module: str, name: str) -> str:
    """The name a kernel has in the compiled module."""
    return f"{module.rsplit('.', 1)[-1]}__{name}"


def signatures() -> list[tuple[Any, tuple[Any, ...]]]:
    """Each kernel of :data:`EXPORTS` with its argument types as numba's types (this imports
    numba)."""
    from numba import types

    scalars = {"i": types.int64, "b": types.boolean, "f": types.float64, "i32": types.int32}

    def numba_type(code: str) -> Any:
        if not code.startswith("a"):
            return scalars[code]
        two = code.endswith("2") and code != "ai32"
        return types.Array(scalars[code[1:-1] if two else code[1:]], 2 if two else 1, "C")

    return [
        (getattr(importlib.import_module(m), n), tuple(numba_type(c) for c in codes))
        for m, n, codes in EXPORTS
    ]


def accepts(codes: tuple[str, ...]) -> Callable[[tuple[Any, ...]], bool]:
    """A test of a call's arguments against the types ``codes`` (see :data:`EXPORTS`): the
    compiled code reads its arguments as declared, without numba's checks (an array of
    another type or layout would be misread), so a call that does not match goes to numba.

    >>> import numpy as np
    >>> ok = accepts(("ai", "f", "b"))
    >>> ok((np.zeros(3, dtype=np.int64), 0.5, True)), ok((np.zeros(3), 0.5, True))
    (True, False)
    >>> ints = np.zeros(6, dtype=np.int64)
    >>> ok((ints[::2], 0.5, True)), ok((ints[:3], 1, True))  # a strided view; an int for a float
    (False, False)
    """
    import numpy as np  # here: after an answer read from the cache, no numpy at all

    dtypes = {"i": np.dtype(np.int64), "b": np.dtype(np.bool_), "f": np.dtype(np.float64)}
    dtypes["i32"] = np.dtype(np.int32)
    arrays: list[tuple[int, np.dtype[Any], int]] = []
    ints: list[int] = []
    bools: list[int] = []
    floats: list[int] = []
    for k, code in enumerate(codes):
        if code.startswith("a"):
            two = code.endswith("2") and code != "ai32"
            arrays.append((k, dtypes[code[1:-1] if two else code[1:]], 2 if two else 1))
        else:
            {"i": ints, "b": bools, "f": floats}[code].append(k)
    n = len(codes)

    def ok(args: tuple[Any, ...]) -> bool:
        if len(args) != n:
            return False
        for k, dtype, ndim in arrays:
            a = args[k]
            if type(a) is not np.ndarray or a.dtype != dtype or a.ndim != ndim:
                return False
            if not a.flags.c_contiguous:
                return False
        for k in ints:
            if type(args[k]) not in (int, np.int64):
                return False
        for k in bools:
            if type(args[k]) not in (bool, np.bool_):
                return False
        return all(type(args[k]) in (float, np.float64) for k in floats)

    return ok


def _cpu() -> str:
    """This machine's processor, as its model name and feature flags (Linux), else as
    :func:`platform.processor` says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            lines = fh.read().split("\n\n", 1)[0].splitlines()
        return "\n".join(x for x in lines if x.startswith(("model name", "flags")))
    except OSError:
        return platform.processor()


@functools.cache
def module_name() -> str:
    """The compiled module's name for the code running now on this machine."""
    from twentyone.result_cache import code_digest

    text = f"{code_digest()}\n{platform.machine()}\n{_cpu()}\n{EXPORTS!r}"
    return "twentyone_aot_" + hashlib.sha256(text.encode()).hexdigest()[:20]


def aot_dir() -> Path:
    """Where the compiled module is kept (see the module's docstring)."""
    for var, sub in (("TWENTYONE_AOT_DIR", ""), ("NUMBA_CACHE_DIR", "twentyone-aot")):
        if os.environ.get(var):
            return Path(os.environ[var]) / sub
    here = Path(__file__).resolve().parent / "__pycache__"
    if os.access(here if here.exists() else here.parent, os.W_OK):
        return here
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "twentyone" / "aot"


def module_path(where: Path | None = None) -> Path:
    """The compiled module's file."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return (where or aot_dir()) / f"{module_name()}{suffix}"


def enabled() -> bool:
    """False when ``TWENTYONE_AOT`` is ``off`` (or ``0``, ``no``, ``false``)."""
    from twentyone.result_cache import OFF_WORDS

    return os.environ.get("TWENTYONE_AOT", "").lower() not in OFF_WORDS


def load() -> bool:
    """Load the compiled module of this code, if there is one, into the kernels' stand-ins;
    returns whether the kernels of :data:`EXPORTS` now run from it. A module that cannot be
    loaded, or numba already in use (its kernels then run as they are), gives False."""
    from twentyone import jit

    if _LOADED[0] is not None:
        return _LOADED[0]
    _LOADED[0] = False
    if not enabled() or jit.materialized():
        return False
    try:
        path = module_path()
        if not path.is_file():
            return False
        spec = importlib.util.spec_from_file_location(module_name(), path)
        if spec is None or spec.loader is None:
            return False
        compiled = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(compiled)
        found = [
            (getattr(importlib.import_module(m), n), getattr(compiled, export_name(m, n)), c)
            for m, n, c in EXPORTS
        ]
    except Exception:  # damaged, foreign or incomplete: numba's kernels as before
        return False
    if not all(isinstance(kernel, jit.Kernel) for kernel, _, _ in found):
        return False
    for kernel, code, codes in found:
        kernel.aot = code
        kernel.aot_accepts = accepts(codes)
    _LOADED[0] = True
    return True


@contextlib.contextmanager
def _lock(where: Path) -> Iterator[bool]:
    """Hold the build's lock file (yields False when another live build holds it)."""
    lock = where / f"{module_name()}.lock"
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        if not _stale(lock):
            yield False
            return
        lock.unlink(missing_ok=True)
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    try:
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        yield True
    finally:
        lock.unlink(missing_ok=True)


def _stale(lock: Path) -> bool:
    """Whether a lock file was left by a build that is gone (or older than allowed)."""
    try:
        pid = int(lock.read_text() or "0")
        age = time.time() - lock.stat().st_mtime
    except (OSError, ValueError):
        return True
    if age > LOCK_SECONDS or pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def build(where: Path | None = None) -> Path:
    """Compile the kernels of :data:`EXPORTS` into this code's module in ``where`` (default
    :func:`aot_dir`) and return its path; modules of other code there are removed. Raises
    whatever the compiler raises (no C compiler, for one)."""
    from twentyone import jit

    where = where or aot_dir()
    where.mkdir(parents=True, exist_ok=True)
    target = module_path(where)
    jit.materialize()  # pycc types the kernels' calls to one another through numba
    pycc: Any = importlib.import_module("numba.pycc")  # untyped

    with tempfile.TemporaryDirectory(dir=where) as out:
        cc = pycc.CC(module_name(), source_module=__name__)
        cc.output_dir = out
        cc.target_cpu = "host"
        for (module, name, _), (kernel, args) in zip(EXPORTS, signatures(), strict=True):
            cc.export(export_name(module, name), args)(kernel.py_func)
        cc.compile()
        made = next(Path(out).glob(f"{module_name()}.*"))
        os.replace(made, target)
    stem = module_name()
    for other in where.glob("twentyone_aot_*"):
        if not other.name.startswith(stem):
            other.unlink(missing_ok=True)
    return target


def spawn_build() -> bool:
    """After an analysis: start a detached background build when this code has no module, no
    build failed or runs for it, and a C compiler is on the path; returns whether one
    started."""
    if not enabled() or _LOADED[0]:
        return False
    try:
        where = aot_dir()
        if module_path(where).is_file() or (where / f"{module_name()}.failed").exists():
            return False
        lock = where / f"{module_name()}.lock"
        if lock.exists() and not _stale(lock):
            return False
    except (OSError, RuntimeError):  # no folder to keep it in (no home, for one)
        return False
    if not any(shutil.which(c) for c in (os.environ.get("CC", "cc"), "gcc", "clang")):
        return False
    try:
        subprocess.Popen(
            [sys.executable, "-m", "twentyone.analysis.aot", "build", "--background"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m twentyone.analysis.aot build [--background]``."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "build":
        print("usage: python -m twentyone.analysis.aot build [--background]", file=sys.stderr)
        return 2
    background = "--background" in args
    if background and hasattr(os, "nice"):
        os.nice(19)  # the lowest priority: a user's commands come first
    where = aot_dir()
    where.mkdir(parents=True, exist_ok=True)
    failed = where / f"{module_name()}.failed"
    with _lock(where) as mine:
        if not mine:
            print("another build of this module is running", file=sys.stderr)
            return 1
        try:
            path = build(where)
        except Exception as exc:  # no compiler, for one: say why, and do not try again
            failed.write_text(f"{type(exc).__name__}: {exc}\n", encoding="utf-8")
            print(f"twentyone: the ahead-of-time build failed: {exc}", file=sys.stderr)
            return 1
    failed.unlink(missing_ok=True)
    if not background:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
