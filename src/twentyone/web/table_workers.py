"""Each table's work off the event loop: what a table does with a message or a tick (the engine
and the ledger's commits) runs in a worker thread, one piece at a time per table, so a database
commit never holds up the other tables' sockets (PostgreSQL: a network round trip and a flush to
disk per round transaction).

The messages such work sends go to the thread's outbox (:data:`~twentyone.web.connection.OUTBOX`)
and are written to the sockets on the event loop, in order, before the table's next piece of
work starts. A table's pieces never overlap, so the engine's single-threaded model holds; two
tables' pieces run side by side in the pool's threads.

>>> import asyncio
>>> workers = TableWorkers(2)
>>> asyncio.run(workers.run("t1", lambda a, b: a + b, 2, 3))
5
>>> workers.close()
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from twentyone.web.connection import OUTBOX

if TYPE_CHECKING:
    from twentyone.web.connection import Connection

__all__ = ["TableWorkers"]

T = TypeVar("T")


class TableWorkers:
    """A pool of ``threads`` worker threads running each table's work in turn."""

    def __init__(self, threads: int) -> None:
        if threads < 1:
            raise ValueError(f"table worker threads {threads!r}: expected at least 1")
        self.threads = threads
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="twentyone-table")
        self._locks: dict[str, asyncio.Lock] = {}
        self.tasks: set[asyncio.Task[Any]] = set()  # started by start(), kept until done

    def busy(self, table_id: str) -> bool:
        """Whether a piece of the table's work runs or waits now."""
        lock = self._locks.get(table_id)
        return lock is not None and lock.locked()

    async def run(self, table_id: str, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker thread after the table's earlier work, then send what
        it sent (on the event loop, in order); returns what ``fn`` returns."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        async with lock:
            outbox: list[tuple[Connection, Any]] = []
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self.pool, _call, outbox, fn, args)
            finally:
                for conn, message in outbox:
                    conn.send(message)

    def start(self, table_id: str, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` for the table as :meth:`run` does, without waiting for it."""
        task = asyncio.get_running_loop().create_task(self.run(table_id, fn, *args))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def forget(self, table_id: str) -> None:
        """The table is gone from this node: its turn-keeping goes too (not while busy)."""
        if not self.busy(table_id):
            self._locks.pop(table_id, None)

    def close(self) -> None:
        """Stop the threads once the work given to them is done."""
        self.pool.shutdown(wait=True)


def _call(outbox: list[tuple[Connection, Any]], fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    OUTBOX.box = outbox
    try:
        return fn(*args)
    finally:
        OUTBOX.box = None
