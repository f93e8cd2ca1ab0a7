"""Garbage-collector settings for a long-running server process.

CPython's cyclic collector pauses the whole process while it runs. A server holds a large,
long-lived heap (the analysis's compiled kernels, SQLAlchemy's metadata, the app itself),
and every full collection walks all of it: on the load benchmark such pauses reached 150 ms,
and with the default thresholds the young-generation collections alone took a noticeable share
of the server's time. So ``twentyone serve``:

- moves everything alive once the app is built, and again once the background analysis has
  finished, into the permanent generation (:func:`gc.freeze`), which collections skip;
- collects the young generation after :data:`SERVING_THRESHOLDS` ``[0]`` new container
  objects instead of 700 (most of what a request allocates is freed by reference counting
  long before that).

Nothing is switched off: reference cycles are still collected, only less often.
"""

from __future__ import annotations

import gc

#: ``gc.set_threshold`` arguments while serving (CPython's defaults: 700, 10, 10).
SERVING_THRESHOLDS = (10_000, 50, 10)


def settle() -> int:
    """Collect what is garbage now, then freeze the survivors (collections skip them from now
    on); the number of objects frozen in all.

    >>> settle() > 0
    True
    >>> gc.unfreeze()  # (a test process goes on as before)
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def tune_for_serving() -> None:
    """Apply :data:`SERVING_THRESHOLDS` and :func:`settle` the heap built so far."""
    gc.set_threshold(*SERVING_THRESHOLDS)
    settle()
