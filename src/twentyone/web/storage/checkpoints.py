"""SQLite WAL checkpoints on a thread of their own, off the event loop.

In WAL mode every commit appends the pages it changed to the ``-wal`` file, and SQLite's
automatic checkpoint copies them back into the database file whenever the log passes a
threshold (1,000 pages by default), inside the commit that passed it. On the web server those
commits run on the event loop: a checkpoint of 1,000 pages held the loop for about 5 ms, ten
times a second on the load benchmark, and every player in flight waited for it.

:class:`BackgroundCheckpoints` runs a ``PASSIVE`` checkpoint every ``interval`` seconds on
a connection of its own, in a daemon thread (the sqlite3 driver lets go of the GIL while
SQLite copies pages). A passive checkpoint never waits for, and never holds up, a writer.
The engine's connections keep an automatic checkpoint, at :data:`SAFETY_PAGES` instead of
1,000: SQLite restarts the log from its start only once every page in it has been copied
back, which a checkpoint running beside a steady writer seldom sees, so the writer's own
automatic checkpoint is what lets the log restart; it finds almost everything copied
already, and it bounds the log if the thread falls behind or is not running at all. (While
the thread's checkpoint holds the lock, syncing the disk, a writer's own finds it taken: the
log can pass SAFETY_PAGES by what is written meanwhile, and starts over at the next.)

Nothing about durability changes: what a commit wrote is in the log either way.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from sqlalchemy import Engine

log = logging.getLogger(__name__)

#: Pages in the log at which a connection checkpoints by itself (SQLite's default is 1,000).
SAFETY_PAGES = 4000


def is_sqlite_file(engine: Engine) -> bool:
    """Whether the engine is SQLite on a file (the only kind with a WAL to checkpoint)."""
    database = engine.url.database or ""
    return engine.dialect.name == "sqlite" and database not in ("", ":memory:")


class BackgroundCheckpoints:
    """A thread that checkpoints an SQLite engine's WAL every ``interval`` seconds.

    ``start()`` and ``stop()`` bracket its life (the app's lifespan calls them); on any
    other engine it does nothing.
    """

    def __init__(self, engine: Engine, interval: float = 0.1) -> None:
        if interval <= 0:
            raise ValueError(f"interval {interval!r}: expected a positive number of seconds")
        self.engine = engine
        self.interval = interval
        self.enabled = is_sqlite_file(engine)
        self.runs = 0  # checkpoints done (for tests and the curious)
        self.failures = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the thread (once; a no-op where there is no WAL)."""
        if not self.enabled or self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, name="sqlite-wal-checkpoints", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and wait for it (its checkpoint in progress finishes first)."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stop.set()
        thread.join()

    def _run(self) -> None:
        raw: Any = self.engine.raw_connection()
        try:
            driver = raw.driver_connection
            while not self._stop.wait(self.interval):
                try:
                    driver.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.runs += 1
                except Exception:  # a busy or failing database: the next turn tries again
                    self.failures += 1
                    if self.failures == 1:
                        log.exception("background WAL checkpoint failed")
        finally:
            raw.close()
