"""The analysis's kernels' machine code kept ahead of time, so that a new process need not
import numba.

A new process's ``twentyone edge`` spends about 0.2 s importing numba and 0.15 s loading its
cached kernels through it before any analysis. The kernels of :data:`EXPORTS` (the ones
Python calls, each with the one signature the analysis calls it with: :func:`signatures`)
are instead read once from numba's cache into one file (:mod:`twentyone.analysis.machine_code`),
which a new process loads with llvmlite in about 0.05 s, numba never imported; its functions
go to the kernels' stand-ins (:class:`twentyone.engine.jit.Kernel`). The code run is the code numba
compiled, byte for byte: the figures are the same to the bit (``tests/test_aot.py``).

Building needs nothing but numba (no C compiler) and takes about a second (numba's import
and its cache read; the kernels are compiled first where the cache lacks them), so it is
never in a user's way: after an analysis command, when no file of this code exists,
:func:`spawn_build` starts ``python -m twentyone.analysis.aot build --background`` as a
detached process at the lowest priority; until it is done the kernels run as before, from
numba's cache. Where it cannot build it leaves a ``.failed`` file with the reason and is not
tried again for that code. ``TWENTYONE_AOT=off`` turns all of it off; ``python -m
twentyone.analysis.aot build`` builds in the foreground.

The file lives beside numba's cache (``TWENTYONE_AOT_DIR``, else ``NUMBA_CACHE_DIR``, else
the package's ``__pycache__``, else the user's cache folder) under a name made of the
package's code digest (:func:`twentyone.analysis.result_cache.code_digest`), the machine, its CPU
and the numba and llvmlite files installed: the code is compiled for this CPU by that numba, so a
file found elsewhere is never loaded. Files of other code are removed when a new one is built.

>>> len(EXPORTS) == len(set(EXPORTS))
True
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import os
import platform
import subprocess
import sys
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
#: ``a`` + the element (``i``, ``b``, ``f``, ``i32``) + ``2`` or ``3`` for two or three
#: dimensions, all C-contiguous. ``tests/test_aot.py`` checks them against the calls an
#: analysis makes.
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
        ("i", "i", "ai2", "ai", "ai", "ai2", "ai", "ai", "b", "b", "b"),
    ),
    ("twentyone.analysis.split_joint", "_pair_rows", ("ai2", "ai", "ai", "ai", "i")),
    ("twentyone.analysis.split_joint", "_accumulate", ("ai", "ai2", "af2", "ai32", "af2")),
    (
        "twentyone.analysis.resplit",
        "state_joint",
        (*_HANDS, "af2", "ai", "i", "b", "ai", "b", "af"),
    ),
    ("twentyone.analysis.split_joint", "_key_rows", ("ai", "ai", "ai", "i")),
    (
        "twentyone.analysis.split_moments",
        "weighted_rows",
        ("ai", "ai2", "i", "ai", "ai", "af", "ai", "af3"),
    ),
    ("twentyone.analysis.split_moments", "_chances", ("ai", "ai2", "ai32", "b")),
    ("twentyone.analysis.split_moments", "_singles", ("af", "ai32", "af3", "af3", "i")),
    ("twentyone.analysis.split_moments", "_pairs", ("af", "ai32", "af3", "af3", "i")),
)


def array_code(code: str) -> tuple[str, int]:
    """An array's element code and number of dimensions from its code in :data:`EXPORTS`.

    >>> array_code("ai32"), array_code("af3"), array_code("ai2"), array_code("ab")
    (('i32', 1), ('f', 3), ('i', 2), ('b', 1))
    """
    if code == "ai32":
        return "i32", 1
    if code[-1] in "23":
        return code[1:-1], int(code[-1])
    return code[1:], 1


#: Seconds after which a build's lock is taken for abandoned.
LOCK_SECONDS = 900
#: Whether this process loaded the saved code (None: not tried yet).
_LOADED: list[bool | None] = [None]


def signatures() -> list[tuple[Any, tuple[Any, ...]]]:
    """Each kernel of :data:`EXPORTS` with its argument types as numba's types (this imports
    numba)."""
    from numba import types

    scalars = {"i": types.int64, "b": types.boolean, "f": types.float64, "i32": types.int32}

    def numba_type(code: str) -> Any:
        if not code.startswith("a"):
            return scalars[code]
        element, ndim = array_code(code)
        return types.Array(scalars[element], ndim, "C")

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
            element, ndim = array_code(code)
            arrays.append((k, dtypes[element], ndim))
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


def _installed() -> str:
    """The numba and llvmlite files the saved code depends on, as name, size and time."""
    from twentyone.analysis.machine_code import extension_files, package_folder

    llvmlite = sorted(package_folder("llvmlite").glob("binding/*.so"))
    stats = [
        (f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in (*extension_files(), *llvmlite)
    ]
    return repr(stats)


@functools.cache
def module_name() -> str:
    """The saved code's name for the code running now on this machine."""
    from twentyone.analysis.result_cache import code_digest

    text = f"{code_digest()}\n{platform.machine()}\n{_cpu()}\n{EXPORTS!r}\n{_installed()}"
    return "twentyone_aot_" + hashlib.sha256(text.encode()).hexdigest()[:20]


def aot_dir() -> Path:
    """Where the saved code is kept (see the module's docstring)."""
    for var, sub in (("TWENTYONE_AOT_DIR", ""), ("NUMBA_CACHE_DIR", "twentyone-aot")):
        if os.environ.get(var):
            return Path(os.environ[var]) / sub
    here = Path(__file__).resolve().parent / "__pycache__"
    if os.access(here if here.exists() else here.parent, os.W_OK):
        return here
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "twentyone" / "aot"


def module_path(where: Path | None = None) -> Path:
    """The saved code's file."""
    return (where or aot_dir()) / f"{module_name()}.code"


def enabled() -> bool:
    """False when ``TWENTYONE_AOT`` is ``off`` (or ``0``, ``no``, ``false``)."""
    from twentyone.analysis.result_cache import OFF_WORDS

    return os.environ.get("TWENTYONE_AOT", "").lower() not in OFF_WORDS


def load(path: Path | None = None) -> bool:
    """Load the saved code of this code (or the file ``path``), if there is some, into the
    kernels' stand-ins; returns whether the kernels of :data:`EXPORTS` now run from it. Code
    that cannot be loaded, or numba already imported (its kernels then run as they are), gives
    False."""
    from twentyone.engine import jit

    if _LOADED[0] is not None:
        return _LOADED[0]
    _LOADED[0] = False
    if not enabled() or jit.materialized() or "numba" in sys.modules:
        return False
    try:
        from twentyone.analysis import machine_code

        path = path or module_path()
        if not path.is_file():
            return False
        codes = machine_code.read(path)
        if sorted((c.module, c.name) for c in codes) != sorted((m, n) for m, n, _ in EXPORTS):
            return False
        made = machine_code.load(codes)
        found = [(getattr(importlib.import_module(m), n), made[m, n], c) for m, n, c in EXPORTS]
    except Exception:  # damaged, foreign or incomplete: numba's kernels as before
        return False
    if not all(isinstance(kernel, jit.Kernel) for kernel, _, _ in found):
        return False
    for kernel, code, codes_ in found:
        kernel.aot = code
        kernel.aot_accepts = accepts(codes_)
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
    """Save the machine code of the kernels of :data:`EXPORTS` (numba's, from its cache; a
    kernel it lacks is compiled first) to this code's file in ``where`` (default
    :func:`aot_dir`) and return its path; files of other code there are removed. Raises
    what numba raises, or :class:`~twentyone.analysis.machine_code.MachineCodeError`."""
    from twentyone.analysis import machine_code
    from twentyone.engine import jit

    where = where or aot_dir()
    where.mkdir(parents=True, exist_ok=True)
    target = module_path(where)
    jit.materialize()
    codes = [
        machine_code.collect(kernel, args, module, name)
        for (module, name, _), (kernel, args) in zip(EXPORTS, signatures(), strict=True)
    ]
    with tempfile.NamedTemporaryFile(dir=where, suffix=".part", delete=False) as fh:
        part = Path(fh.name)
    try:
        machine_code.save(codes, part)
        part.chmod(0o644)  # as numba's cache files
        _verify(part)
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
    stem = module_name()
    for other in where.glob("twentyone_aot_*"):
        if not other.name.startswith(stem):
            other.unlink(missing_ok=True)
    return target


#: The analysis a build checks its saved code with: every kernel of :data:`EXPORTS` runs
#: (resplits from a shoe too big to list: the approximated rounds' kernel too).
CHECK_RULES = "1D S17 DAS SPL3"


def _figures() -> str:
    """:data:`CHECK_RULES`' figures as JSON, the time taken left out."""
    import json

    from twentyone.analysis import analyze

    report = analyze(CHECK_RULES).to_json()
    report.pop("seconds", None)
    return json.dumps(report, sort_keys=True)


def _verify(path: Path) -> None:
    """Load ``path`` in a new process (numba not imported there) and require numba's
    figures for :data:`CHECK_RULES` to the bit; raises
    :class:`~twentyone.analysis.machine_code.MachineCodeError` otherwise (a crash included:
    numba's internals may have moved)."""
    from twentyone.analysis.machine_code import MachineCodeError

    env = dict(os.environ, TWENTYONE_CACHE_DIR="off")
    env.pop("TWENTYONE_AOT", None)
    cmd = [sys.executable, "-m", "twentyone.analysis.aot", "check", str(path)]
    got = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=LOCK_SECONDS)
    if got.returncode != 0:
        raise MachineCodeError(
            f"the saved code failed its check (exit {got.returncode}): {got.stderr.strip()[-500:]}"
        )
    if got.stdout.strip() != _figures():
        raise MachineCodeError(f"the saved code's figures for {CHECK_RULES} differ from numba's")


def spawn_build() -> bool:
    """After an analysis: start a detached background build when this code has no saved code
    and no build failed or runs for it; returns whether one started."""
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
    """``python -m twentyone.analysis.aot build [--background]``; ``check FILE`` (what a
    build runs) prints :data:`CHECK_RULES`' figures computed on ``FILE``'s code."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "check":
        if not load(Path(args[1])):
            print(f"twentyone: {args[1]} could not be loaded", file=sys.stderr)
            return 3
        print(_figures())
        return 0 if "numba" not in sys.modules else 4
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
            print("another build of this code is running", file=sys.stderr)
            return 1
        try:
            path = build(where)
        except Exception as exc:  # say why, and do not try again
            failed.write_text(f"{type(exc).__name__}: {exc}\n", encoding="utf-8")
            print(f"twentyone: the ahead-of-time build failed: {exc}", file=sys.stderr)
            return 1
    failed.unlink(missing_ok=True)
    if not background:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
