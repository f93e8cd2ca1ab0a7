"""Whether the simulator's numba kernel still has to be compiled (the first run after an
install or an update), so that ``twentyone simulate`` says so before a silent wait at 0%.

It reads numba's cache files as :mod:`twentyone.analysis.warmup` does (a guide, not a promise).

>>> isinstance(compile_pending(), bool)
True
"""

from __future__ import annotations

import sys
from typing import TextIO

#: What the user is told while the kernel compiles.
NOTICE = (
    "twentyone: compiling the simulator (once after an install or an update: about a minute "
    "on two cores; later runs load it from numba's cache)"
)


def compile_pending() -> bool:
    """True when the simulator's kernel has no cache file yet."""
    from twentyone.analysis.warmup import _cached
    from twentyone.sim import kernel

    return not _cached(kernel._run)


def notice(out: TextIO | None = None) -> bool:
    """Tell the user (on standard error) when the kernel is about to compile; returns whether
    it did."""
    if not compile_pending():
        return False
    print(NOTICE, file=out if out is not None else sys.stderr, flush=True)
    return True
