"""Run a module as ``python -m`` does, under cProfile, for bench_web_load.py ``--profile``.

The profiler times the main thread's CPU (``time.thread_time``), not the wall clock: on a
machine shared with other work, time the server spent waiting for a core is not counted in
whichever function it was in. It is off at the start; ``SIGUSR1`` turns it on and ``SIGUSR2``
off (the benchmark brackets its measured seconds with them, so the profile is of the same
actions as its CPU per action). The stats are written when the module returns.

Usage: ``python benchmarks/profile_server.py OUT.pstats MODULE [ARG...]``
"""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys
import time


def main() -> None:
    """Profile ``MODULE`` between the two signals; the stats to ``OUT``."""
    out, module, *rest = sys.argv[1:]
    profiler = cProfile.Profile(time.thread_time)
    signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
    signal.signal(signal.SIGUSR2, lambda *_: profiler.disable())
    sys.argv = [module, *rest]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    main()
