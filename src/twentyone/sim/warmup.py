"""Whether the simulator's numba kernel still has to be compiled (the first run after an
install or an update), so that ``twentyone simulate`` says so before a silent wait at 0%.

It reads numba's cache files as :mod:`twentyone.analysis.warmup` does (a guide, not a promise).

>>> isinstance(compile_pending(), bool)
True
"""

from __future__ import annotations

import sys
from typing import TextIO

#: What the user is told while the kernels compile (measured: 57 s of CPU for the simulator
#: and the exact analysis it checks against, five minutes of wall time on two busy cores).
NOTICE = (
    "twentyone: compiling the simulator and the exact analysis (once after an install or an "
    "update: about a minute of CPU time, longer on a busy machine; later runs load them from "
    "numba's cache)"
)


def compile_pending() -> bool:
    """True when the simulator's kernel, or a kernel of the exact analysis that ``simulate``
    uses (the chart, the exact return), has no cache file yet."""
    from twentyone.analysis import warmup
    from twentyone.sim import kernel

    return not warmup._cached(kernel._run) or warmup.compile_pending()


def notice(out: TextIO | None = None) -> bool:
    """Tell the user (on standard error) when the kernel is about to compile; returns whether
    it did."""
    if not compile_pending():
        return False
    print(NOTICE, file=out if out is not None else sys.stderr, flush=True)
    return True
