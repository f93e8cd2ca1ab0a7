"""Running a simulation's chunks as Ray tasks (the optional extra ``twentyone[cluster]``).

Every node needs ``twentyone`` installed; each task compiles (or loads from numba's cache) the
kernel once per worker process. The chunks and their seeds are the local run's, so the totals
are the same as on one machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from twentyone.engine.errors import TwentyOneError
from twentyone.sim.tasks import Task, run_task

Done = Callable[[tuple[int, float, float], int], None]  # as twentyone.sim.runner.Done


def import_ray() -> Any:
    """The ``ray`` module, or an error that says how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise TwentyOneError("needs-ray") from exc
    return ray


def run_ray(tasks: Sequence[Task], address: str, done: Done) -> None:
    """Run the chunks on the Ray cluster at ``address`` (``auto``, ``ray://host:port``),
    handing each chunk's sums to ``done`` as it finishes; a Ray already started in this
    process (``ray.init``) is used as it is and left running. Ctrl-C cancels the chunks not
    finished."""
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise TwentyOneError("ray-connect", address=address, reason=str(exc)) from exc
        started = True
    try:
        remote = ray.remote(run_task)
        pending = {remote.remote(t): t for t in tasks}
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    task = pending.pop(ref)
                    done(ray.get(ref), task.rounds)
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref)
            raise
    finally:
        if started:
            ray.shutdown()
