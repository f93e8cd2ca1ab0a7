"""A clean stop: the node drains (``twentyone serve`` on SIGTERM, or :func:`drain` itself).

1. The node stops taking new rounds: ``/readyz`` answers 503 (``draining``), every table
   closes for new rounds (chips on the table go back, bets and ready are refused: a
   ``table-closing`` notice), and a cluster node takes no new lease.
2. The rounds in play are played out (the decision clock plays for whoever does not act),
   for at most ``seconds`` (``serve --drain-seconds``, 30 by default); one still open then is
   refunded by the table's next holder, as after a crash.
3. The node hands its tables over at once: a cluster node gives back every lease and marks
   itself gone, so the other nodes take the tables on their next turn; the tables' sockets
   are closed with 4503 (a cluster: reconnect through the proxy) or 1001 (going away).

A clean stop therefore voids no round that finishes within the drain.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import TYPE_CHECKING, Any

import uvicorn
from fastapi import FastAPI

from twentyone.web.cluster import MOVING

if TYPE_CHECKING:
    from twentyone.web.tables import LiveTable
    from twentyone.web.ws import Hub

log = logging.getLogger("twentyone.web")

#: Seconds a drain waits for the rounds in play by default.
DRAIN_SECONDS = 30.0
GOING_AWAY = 1001  # the WebSocket close code of a server going down


async def drain(app: FastAPI, seconds: float = DRAIN_SECONDS) -> dict[str, Any]:
    """Drain the app's node (see the module); returns what happened: the rounds still open
    at the end (``open``) and the seconds it waited (``waited``)."""
    state = app.state
    hub = state.hub
    state.draining = True
    cluster = state.cluster
    if cluster is not None:
        cluster.draining = True  # no new lease from now on
    for table in list(hub.tables.values()):  # at the table (its worker thread, if any)
        await hub.at_table(table, _no_new_rounds, hub, table)
    loop = asyncio.get_running_loop()
    started = loop.time()
    while loop.time() - started < seconds and any(t.session.busy for t in hub.tables.values()):
        await asyncio.sleep(0.05)
    still_open = sorted(t.id for t in hub.tables.values() if t.session.busy)
    if still_open:
        log.warning("drain: rounds still open at %s after %.0f s", still_open, seconds)
    if cluster is not None:
        await asyncio.to_thread(cluster.leases.leave)
    for table_id in list(hub.tables):
        hub.drop_table(table_id, MOVING if cluster is not None else GOING_AWAY)
    return {"open": still_open, "waited": loop.time() - started}


class DrainingServer(uvicorn.Server):
    """uvicorn's server that drains on the first SIGTERM (:func:`drain`, then the shutdown
    uvicorn does); SIGINT, or a second SIGTERM, shuts down at once."""

    def __init__(self, config: uvicorn.Config, app: FastAPI, drain_seconds: float) -> None:
        super().__init__(config)
        self.app = app
        self.drain_seconds = drain_seconds
        self.loop: asyncio.AbstractEventLoop | None = None
        self.draining = False

    async def serve(self, sockets: Any = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets=sockets)

    def handle_exit(self, sig: int, frame: Any) -> None:
        loop = self.loop
        if sig != signal.SIGTERM or self.draining or loop is None:
            super().handle_exit(sig, frame)
            return
        self.draining = True
        self._captured_signals.append(sig)  # re-raised once shut down, as uvicorn does
        loop.call_soon_threadsafe(lambda: loop.create_task(self._drain_then_stop()))

    async def _drain_then_stop(self) -> None:
        try:
            await drain(self.app, self.drain_seconds)
        finally:
            self.should_exit = True


def _no_new_rounds(hub: Hub, table: LiveTable) -> None:
    table.session.close_for_new_rounds()
    hub.broadcast(table)
