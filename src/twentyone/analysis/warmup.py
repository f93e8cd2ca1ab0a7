"""Whether the analysis's numba kernels still have to be compiled (the first run after an
install or an update), so that the command can say so before the wait.

numba caches each compiled kernel beside its source (``__pycache__``, or under
``NUMBA_CACHE_DIR``) in a file named after the function and the line it starts on; a kernel
without one is compiled on first use. Files made stale by an edit (to the kernel's module or
to one it imports) are removed before they are counted
(:func:`twentyone.engine.kernel_cache.forget_stale`).

>>> isinstance(compile_pending(), bool), isinstance(compile_pending("simulate"), bool)
(True, True)
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

#: What the user is told while the kernels compile (the first run's wall time on two idle cores
#: of the project's benchmark machine: benchmarks/bench_analysis_targets.py's first run).
NOTICE = (
    "twentyone: compiling the exact analysis (once after an install or an update: about "
    "6 s on two idle cores; later runs load it from numba's cache)"
)
#: The same for ``simulate`` (its kernel, compiled in a second process, and the analysis
#: that derives the basic-strategy chart).
NOTICE_SIMULATE = (
    "twentyone: compiling the simulator and the basic-strategy chart's analysis (once after an "
    "install or an update: about 7 s on two idle cores; later runs load them from numba's cache)"
)


def _chart_kernels() -> list[Any]:
    """The kernels that derive a basic-strategy chart (``simulate`` without ``--exact``)."""
    from twentyone.analysis import dealer, player, standing

    return [
        dealer.dealer_dists,
        player.solve,
        player.bonus_need,
        standing.gather_stand,
        standing.stand_needed,
        standing.stand_rows,
    ]


def _return_kernels() -> list[Any]:
    """The kernels of the returns (every analysis command)."""
    from twentyone.analysis import variance

    return [*_chart_kernels(), variance.moments]


def _kernels(
    command: str = "analysis", resplits: bool = True, extra: Sequence[Any] = ()
) -> list[Any]:
    """The kernels ``command`` compiles; ``extra``: the caller's own (the simulator's kernel,
    which this layer does not import: :func:`twentyone.sim.runner.compile_notice`);
    ``"simulator"``: those alone (a ``simulate`` whose chart is not derived here)."""
    from twentyone.analysis import outcomes, resplit, split_joint, split_moments

    if command == "simulator":
        return list(extra)
    if command == "simulate":  # the chart's analysis and the simulator
        return [*_chart_kernels(), *extra]
    out = [*_return_kernels(), *extra]
    splits = [
        split_joint.atom_weights_kernel,
        split_joint.pair_rows_kernel,
        split_joint.accumulate_kernel,
    ]
    more = []  # rounds reaching three hands: approximated, matched to their exact moments
    if resplits:
        more = [resplit.state_joint, split_joint.key_rows_kernel, split_moments.weighted_rows]
        more += [
            split_moments.chances_kernel,
            split_moments.singles_kernel,
            split_moments.pairs_kernel,
        ]
    return [*out, outcomes.hand_distributions, *splits, *more]


#: The kernels of a first ``edge``, costliest to compile first (CPU seconds each on the project's
#: two-core machine, about: solve 2.5, weighted_rows 1.5, dealer_dists, hand_distributions,
#: chances_kernel, accumulate_kernel 0.8, moments, state_joint, key_rows_kernel,
#: atom_weights_kernel, pair_rows_kernel 0.6, stand_rows 0.45, stand_needed 0.3, the others
#: 0.2 or less), so that two processes taking them in turn finish about together.
BY_COST = (
    "solve",
    "weighted_rows",
    "dealer_dists",
    "hand_distributions",
    "chances_kernel",
    "accumulate_kernel",
    "moments",
    "state_joint",
    "key_rows_kernel",
    "atom_weights_kernel",
    "pair_rows_kernel",
    "stand_rows",
    "stand_needed",
    "gather_stand",
    "pairs_kernel",
    "singles_kernel",
)
#: Those only rules that let a round reach three hands call.
RESPLIT_KERNELS = frozenset(
    {
        "state_joint",
        "key_rows_kernel",
        "weighted_rows",
        "chances_kernel",
        "singles_kernel",
        "pairs_kernel",
    }
)


def _first_run_signatures(resplits: bool = True) -> list[tuple[Any, tuple[Any, ...]]]:
    """The kernels an ``edge`` calls (the returns and the exact distribution), each with the
    one signature the analysis calls it with (:func:`twentyone.analysis.kernel_types.signatures`,
    checked against the calls by ``tests/test_warmup.py``), in :data:`BY_COST`'s order;
    ``resplits``: with the kernels of rounds that reach three hands, which rules allowing two
    hands never call."""
    from twentyone.analysis.kernel_types import signatures

    by_name = {kernel.py_func.__name__: (kernel, args) for kernel, args in signatures()}
    names = [n for n in BY_COST if resplits or n not in RESPLIT_KERNELS]
    return [by_name[n] for n in names]


def _compile_in_turn(resplits: bool, taken: Any) -> None:
    """Compile the kernels of :func:`_first_run_signatures` not in numba's cache, each taken
    in turn off the shared counter ``taken`` (a ``multiprocessing.Value``): whichever of the
    processes sharing it is free takes the next, so each kernel is compiled once."""
    todo = _first_run_signatures(resplits)
    while True:
        with taken.get_lock():
            i = taken.value
            taken.value = i + 1
        if i >= len(todo):
            return
        kernel, signature = todo[i]
        if not kernel_cached(kernel):
            kernel.compile(signature)


def _start_compiler() -> None:
    """numba's compiler start-up (installing its typing and lowering registries: about 0.15 s),
    which a kernel's first compile does in each process; done before a fork, it is done once
    for both. Any failure is left to that first compile."""
    from twentyone.analysis import dealer

    kernel: Any = dealer.dealer_dists
    try:
        kernel.typingctx.refresh()
        kernel.targetctx.refresh()
    except Exception:  # pragma: no cover - a numba without these internals
        return


def compile_first_run(resplits: bool = True) -> bool:
    """On a first run (some kernel of :func:`_first_run_signatures` not in numba's cache),
    compile them all on two cores before the analysis runs: this process and a second one take
    the kernels in turn (:func:`_compile_in_turn`); the analysis then finds each compiled here
    or in numba's cache that the other process wrote. The code is numba's for the signatures
    the analysis calls, so the figures are those of kernels compiled on first call. Returns
    whether there was anything to compile. Where no second process can start, this one
    compiles them all."""
    import multiprocessing

    if all(kernel_cached(kernel) for kernel, _ in _first_run_signatures(resplits)):
        return False
    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    if context.get_start_method() == "fork":
        _start_compiler()  # once, for both processes
    taken = context.Value("i", 0)
    helper = None
    try:
        helper = context.Process(target=_compile_in_turn, args=(resplits, taken), daemon=True)
        helper.start()
    except OSError:
        helper = None
    _compile_in_turn(resplits, taken)
    if helper is not None:
        helper.join()
    return True


def kernel_cached(kernel: Any) -> bool:
    """Whether numba's cache holds a compiled ``kernel`` (a ``@njit(cache=True)`` function),
    in the directory numba would load it from, once the cache files an edit to a module it
    depends on made stale are removed (:func:`twentyone.engine.kernel_cache.forget_stale`)."""
    from twentyone.engine.kernel_cache import cache_dir, forget_stale

    func = kernel.py_func
    source = inspect.getsourcefile(func)
    if source is None:
        return False
    forget_stale(func.__code__.co_filename, func.__module__)
    folder = cache_dir(func.__code__.co_filename)
    if folder is None:
        return False
    module = os.path.splitext(os.path.basename(func.__code__.co_filename))[0]
    ver = f"py{sys.version_info.major}{sys.version_info.minor}{getattr(sys, 'abiflags', '')}"
    name = f"{module}.{func.__qualname__}-{func.__code__.co_firstlineno}.{ver}.nbi"
    return os.path.exists(os.path.join(folder, name))


def compile_pending(
    command: str = "analysis", resplits: bool = True, extra: Sequence[Any] = ()
) -> bool:
    """True when some kernel ``command`` uses (``"analysis"``: ``edge``, ``advise``, ``eor``,
    ``par``; ``"simulate"``; ``"simulator"``: ``extra`` alone) has no cache file
    (``resplits``: for rules that let a round reach three hands)."""
    return not all(kernel_cached(k) for k in _kernels(command, resplits, extra))


def prepare(
    resplits: bool = True,
    out: TextIO | None = None,
    distributions: bool = True,
) -> bool:
    """Before an analysis: the notice when its kernels are to compile (returns True), else
    their cached code loaded now (:func:`load_cached`; ``distributions``: the exact
    distribution's kernels too, which ``advise`` and ``eor`` never call)."""
    if notice(out, "analysis", resplits):
        return True
    load_cached(_kernels("analysis", resplits) if distributions else _return_kernels())
    return False


def load_cached(kernels: list[Any]) -> int:
    """Load ``kernels``' compiled code from numba's cache now, without numba's compiler
    start-up; returns how many overloads were loaded.

    A kernel's first call in a process loads its cache entry through numba's compiler, which
    first installs every typing and lowering registry it has (about 0.15 s of a new process,
    more than the analysis of a depleted shoe) although a cached entry is machine code that
    needs none of them: only numba's runtime (the memory manager the kernels allocate with) and
    the code's own library. This reads each kernel's cache index and loads the entries made for
    this machine as numba's ``Dispatcher.compile`` does, minus the registries. A kernel that
    already has code, has no entry, or fails to load in any way is left to numba's own first
    call (which loads or compiles it as before), so the figures cannot differ: the code run is
    the same cached code."""
    try:
        from numba.core.runtime.nrt import rtsys
    except ImportError:  # pragma: no cover - a numba without these internals
        return 0
    loaded = 0
    for kernel in kernels:
        if kernel.overloads:
            continue
        try:
            cache, context = kernel._cache, kernel.targetctx
            rtsys.initialize(context)
            magic = context.codegen().magic_tuple()
            for sig, machine, _ in cache._cache_file._load_index():
                if machine != magic:
                    continue
                cres = cache._load_overload(sig, context)
                if cres is None or cres.objectmode:
                    continue
                context.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
                kernel.add_overload(cres)
                loaded += 1
        except Exception:  # numba's first call loads or compiles it its own way
            continue
    return loaded


def notice(
    out: TextIO | None = None,
    command: str = "analysis",
    resplits: bool = True,
    extra: Sequence[Any] = (),
) -> bool:
    """Tell the user (on standard error) when the kernels ``command`` uses (and ``extra``) are
    about to compile; returns whether it did."""
    if not compile_pending(command, resplits=resplits, extra=extra):
        return False
    text = NOTICE_SIMULATE if command in ("simulate", "simulator") else NOTICE
    print(text, file=out if out is not None else sys.stderr, flush=True)
    return True
