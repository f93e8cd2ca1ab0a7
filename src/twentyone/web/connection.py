"""One player's open WebSocket at a table: its messages sent in order without holding up the
table, and the ids of the intentions its next view acknowledges.

A message is written at once when nothing waits before it; one that must wait (a slow
browser) goes, with everything behind it, through the connection's queue and writer task.
Work done for a table in a worker thread (:mod:`twentyone.web.table_workers`) puts its
messages in that thread's outbox instead: they are sent, in order, on the event loop.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from twentyone.web.views import dumps
from twentyone.web.ws_limits import TokenBucket

if TYPE_CHECKING:
    import orjson
    from fastapi import WebSocket

    from twentyone.web.storage.accounts import Player
    from twentyone.web.tables import LiveTable

__all__ = ["OUTBOX", "Connection"]

#: Per thread: where messages go instead of the socket (a table's worker thread collects
#: them, the event loop sends them); unset on the event loop.
OUTBOX = threading.local()


class _Unfinished:
    """A send that had to wait for the socket (flow control), to be finished by the writer."""

    def __init__(self, coro: Coroutine[Any, Any, None], blocker: Any) -> None:
        self.coro = coro
        self.blocker = blocker

    async def finish(self) -> None:
        """Wait for what the send waits for, and drive it on until it returns."""
        coro, blocker = self.coro, self.blocker
        while True:
            try:
                if blocker is None:  # a bare yield: give the loop one turn
                    await asyncio.sleep(0)
                else:
                    await blocker
            except BaseException as exc:
                try:
                    blocker = coro.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                blocker = coro.send(None)
            except StopIteration:
                return


class Connection:
    """One open WebSocket of a player at a table, and the ids of the intentions applied since
    its last view (the next view acknowledges them).

    A message is written to the socket at once when nothing is waiting before it: the ASGI
    send is driven by hand and normally returns without suspending (the transport takes the
    frame). Only when it must wait (the browser reads slowly and the transport's buffer is
    full) does the rest go through the queue and the writer task, in order, so a slow browser
    never holds up the table and nobody's messages change order. Sending at once saves the
    event-loop turn a writer task would take to wake for every message.
    """

    def __init__(
        self,
        ws: WebSocket,
        player: Player,
        table: LiveTable,
        *,
        session: str | None = None,
        bucket: TokenBucket | None = None,
        language: str = "en",
    ) -> None:
        self.ws = ws
        self.player = player
        self.table = table
        self.language = language  # the player's (else the table's): the engine's refusals
        self.session = session  # the login session's token (logout closes the socket)
        self.bucket = bucket or TokenBucket(20.0, 40, time.monotonic())
        self.queue: asyncio.Queue[_Unfinished | str | None] = asyncio.Queue()
        self.waiting = False  # a send is waiting: later messages queue behind it
        self.failed = False
        self.acks: list[str | int] = []
        self.hints = False  # the page shows the hint: work out the exact one for this player
        self.closing: int | None = None  # the close code, once the socket is to close
        self.close_reason = ""  # sent with it (a moved table: where it went)

    def send(self, message: dict[str, Any] | str | None) -> None:
        """Send a message (a dict, or JSON text already encoded; never blocks); ``None``
        ends the writer."""
        box = getattr(OUTBOX, "box", None)
        if box is not None:  # in a table's worker thread: encoded here, sent by the loop
            box.append((self, message if message is None or isinstance(message, str)
                        else dumps(message)))  # fmt: skip
            return
        if message is None:
            self.queue.put_nowait(None)
            return
        if self.failed:
            return
        text = message if isinstance(message, str) else dumps(message)
        if self.waiting:
            self.queue.put_nowait(text)
            return
        # Starlette's send_text driven by hand (beyond its documented API; pyproject bounds its
        # version). Measured 2026-12-03 with benchmarks/bench_web_load.py, 500 players / 100
        # tables, 3 alternating passes (docs/scaling.md, "Web fast paths against the public
        # APIs"): 215 rounds/s, p99 63 ms with every fast path against 177 rounds/s, p99 81 ms
        # (one pass 104 ms) with every message queued for the writer task and the views as
        # dicts (0.82; the dicts alone cost nothing measurable); the queue alone gave 0.85 to
        # 0.93 of the rounds/s in three sittings.
        coro = self.ws.send_text(text)
        try:
            blocker = coro.send(None)
        except StopIteration:
            return
        except Exception:  # the socket is gone; the connection's reader ends it
            self.failed = True
            return
        self.waiting = True
        self.queue.put_nowait(_Unfinished(coro, blocker))

    def send_view(
        self, view: dict[str, Any], notices: list[dict[str, Any]] | orjson.Fragment | None = None
    ) -> None:
        """Send a ``view`` message with, in front, the ids it acknowledges and the change's
        ``notices`` (a list, or its JSON as a fragment: a broadcast encodes them once)."""
        head: dict[str, Any] = {}
        if self.acks:
            head["acks"] = self.acks
            self.acks = []
        if notices:
            head["notices"] = notices
        self.send({**head, **view} if head else view)

    async def writer(self) -> None:
        """Finish the sends that had to wait, and what queued behind them, in order, until
        ``None`` or the socket fails."""
        queue = self.queue
        while True:
            item = await queue.get()
            if item is None:
                return
            try:
                if isinstance(item, _Unfinished):
                    await item.finish()
                else:
                    await self.ws.send_text(item)
            except Exception:
                self.failed = True
                return
            if queue.empty():
                self.waiting = False
