"""Whether the analysis's numba kernels still have to be compiled (the first run after an
install or an update), so that the command can say so before the wait.

numba caches each compiled kernel beside its source (``__pycache__``, or under
``NUMBA_CACHE_DIR``) in a file named after the function and the line it starts on; a kernel
without one is compiled on first use (a cache file numba finds stale also recompiles, unseen
here: the notice is a guide, not a promise).

>>> isinstance(compile_pending(), bool)
True
"""

from __future__ import annotations

import glob
import inspect
import os
import sys
from typing import Any, TextIO

#: What the user is told while the kernels compile.
NOTICE = (
    "twentyone: compiling the exact analysis (once after an install or an update: about "
    "30 s on two cores; later runs load it from numba's cache)"
)


def _kernels() -> list[Any]:
    from twentyone.analysis import dealer, outcomes, player, variance

    return [
        dealer.dealer_probs,
        dealer.dealer_dists,
        player.solve,
        player.gather_stand,
        player.stand_needed,
        variance.moments,
        outcomes.hand_distributions,
        outcomes.state_joint,
    ]


def _cached(kernel: Any) -> bool:
    func = kernel.py_func
    source = inspect.getsourcefile(func)
    if source is None:
        return False
    module = func.__module__.rsplit(".", 1)[-1]
    ver = f"py{sys.version_info.major}{sys.version_info.minor}"
    name = f"{module}.{func.__qualname__}-{func.__code__.co_firstlineno}.{ver}.nbi"
    where = os.environ.get("NUMBA_CACHE_DIR")
    if where:
        found = glob.glob(os.path.join(where, "**", name), recursive=True)
    else:
        found = [os.path.join(os.path.dirname(source), "__pycache__", name)]
    return any(os.path.exists(f) for f in found)


def compile_pending() -> bool:
    """True when some kernel of the analysis has no cache file."""
    return not all(_cached(k) for k in _kernels())


def notice(out: TextIO | None = None) -> bool:
    """Tell the user (on standard error) when the kernels are about to compile; returns
    whether it did."""
    if not compile_pending():
        return False
    print(NOTICE, file=out if out is not None else sys.stderr, flush=True)
    return True
