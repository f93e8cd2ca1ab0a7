"""The table WebSocket (docs/protocol.md): connections, intentions applied once, views.

A connection is authenticated from its session cookie before it is accepted. Each
connection has a queue and a writer task, so a slow browser never holds up a table. The
:class:`Hub` owns the live tables, applies intentions, remembers the answer to each client
message id (a repeated id gets the same answer, nothing is applied twice), and sends every
connection its own view after each change; the view names in ``acks`` the connection's
intentions it reflects and carries the change's notices (one message per change, not an
ack, notices and a view). Its ticker fires countdowns and decision clocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError

from twentyone.i18n import N_
from twentyone.web.auth import COOKIE
from twentyone.web.cluster import MOVING
from twentyone.web.connection import Connection
from twentyone.web.hint_worker import hints_on
from twentyone.web.ledger import Ledger
from twentyone.web.refusal import UNAVAILABLE, engine_text
from twentyone.web.storage.accounts import Player
from twentyone.web.table_workers import TableWorkers
from twentyone.web.tables import Clock, LiveTable, TableError
from twentyone.web.views import table_view, table_views
from twentyone.web.ws_limits import Answered, SocketLimits, TokenBucket, clip, clip_text

if TYPE_CHECKING:
    from twentyone.web.metrics import Metrics

log = logging.getLogger(__name__)
#: Close codes: a frame over the size limit, and a policy breach (flooding, too many
#: sockets); a socket whose session ended (logout); a silent socket.
TOO_BIG, POLICY, LOGGED_OUT, IDLE = 1009, 1008, 4401, 4408


class Hub:
    """The live tables and everyone connected to them."""

    def __init__(
        self,
        tables: dict[str, LiveTable],
        ledger: Ledger,
        clock: Clock,
        tick_interval: float = 0.05,
        limits: SocketLimits | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        workers: TableWorkers | None = None,
    ) -> None:
        self.tables = tables
        # each table's work in worker threads (a database whose commits take time): None,
        # on the event loop (SQLite's commits are quicker than the hop to a thread)
        self.workers = workers
        self.ledger = ledger
        self.clock = clock
        self.tick_interval = tick_interval
        self.limits = limits or SocketLimits()
        self.monotonic = monotonic
        self.connections: dict[str, set[Connection]] = {t: set() for t in tables}
        self.replies: dict[tuple[str, str], Answered] = {}
        self.last_balances: dict[int, int] = {}
        self.loop: asyncio.AbstractEventLoop | None = None  # the sockets' (set by serve)
        self.dirty: dict[str, LiveTable] = {}  # tables whose broadcast is due this loop turn
        # a cluster node's lease check (twentyone.web.cluster): may this node deal the table
        # now? A table it may not is dropped before anything else happens at it.
        self.may_deal: Callable[[str], bool] | None = None
        self.metrics: Metrics | None = None  # the server's metrics, when they are on
        # a cluster node cut off from the database: may this table wait, paused? (the node)
        self.paused: Callable[[str], bool] | None = None
        self.paused_since: dict[str, float] = {}  # paused tables: since when (the clock)
        self.on_drop: Callable[[str], None] | None = None

    def add_table(self, table: LiveTable) -> None:
        """A table comes alive here (a cluster node took its lease)."""
        self.tables[table.id] = table
        self.connections.setdefault(table.id, set())

    def drop_table(self, table_id: str, code: int, reason: str = "") -> LiveTable | None:
        """A table stops here at once (its lease is lost or given back): its sockets are
        closed with ``code`` and ``reason`` (where to reconnect), and nothing more happens at
        it. Returns the table, if it was here."""
        table = self.tables.pop(table_id, None)
        self.dirty.pop(table_id, None)
        if self.workers is not None:
            self.workers.forget(table_id)
        self.paused_since.pop(table_id, None)
        conns = self.connections.pop(table_id, set())
        for conn in conns:
            conn.closing = code
            conn.close_reason = reason
        loop = self.loop
        if conns and loop is not None:
            for conn in conns:
                loop.create_task(_close(conn.ws, code, reason))
        if table is not None and self.on_drop is not None:
            self.on_drop(table_id)
        return table

    def _lapsed(self, table_id: str) -> bool:
        """Whether the table may not be dealt here now: paused while its node is cut off from
        the database (its clocks stop, and go on from where they stopped when it is back),
        else dropped (the node loop tells the players where it went)."""
        if self.may_deal is None or self.may_deal(table_id):
            since = self.paused_since.pop(table_id, None)
            table = self.tables.get(table_id)
            if since is not None and table is not None:  # back: the pause is not play time
                table.session.shift_clocks(self.clock() - since)
                self.schedule_broadcast(table)
            return False
        if self.paused is not None and self.paused(table_id):
            self.paused_since.setdefault(table_id, self.clock())
            return True
        self.drop_table(table_id, MOVING)
        return True

    def seated_at(self, username: str) -> str | None:
        """The table a player is seated at, if any."""
        for table in self.tables.values():
            if username in table.seats:
                return table.id
        return None

    # ----------------------------------------------------------------- sending
    def _balances(self, account_ids: set[int]) -> dict[int, int]:
        """Balances for views: the ledger's, or while it cannot be read the last known."""
        try:
            found = self.ledger.balances(account_ids)
        except DBAPIError:
            return {a: self.last_balances.get(a, 0) for a in account_ids}
        self.last_balances.update(found)
        return found

    def send_view(self, conn: Connection, balance: int | None = None) -> None:
        """Send one connection its view."""
        if balance is None:
            balance = self._balances({conn.player.id}).get(conn.player.id, 0)
        conn.send_view(table_view(conn.table, conn.player.username, balance))

    def schedule_broadcast(self, table: LiveTable) -> None:
        """Broadcast the table once the event loop has read what is ready now: intentions for
        one table arriving together get one broadcast (each player's ack goes first, the view
        that reflects it follows in the same loop turn)."""
        if table.id in self.dirty:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a direct call): broadcast at once
            self.broadcast(table)
            return
        self.dirty[table.id] = table
        loop.call_soon(self._flush, table.id)

    def _flush(self, table_id: str) -> None:
        table = self.dirty.pop(table_id, None)
        if table is not None:
            self.broadcast(table)

    def broadcast(self, table: LiveTable) -> None:
        """Each connection's own view, carrying the notices of the change."""
        self.dirty.pop(table.id, None)
        conns = tuple(self.connections.get(table.id, ()))  # the loop may add one meanwhile
        notices = table.take_notices()
        if not conns:
            return
        balances = self._balances({c.player.id for c in conns})
        views = table_views(table, {c.player.username: balances.get(c.player.id, 0) for c in conns})
        carried = orjson.Fragment(orjson.dumps(notices)) if notices else None  # encoded once
        for conn in conns:
            conn.send_view(views[conn.player.username], carried)

    # ----------------------------------------------------------------- intentions
    def _open(self, conn: Connection) -> bool:
        """On the event loop, before a message is applied: whether its table is still dealt
        here (else the socket is told why, or closed) and the socket within its rate."""
        table = conn.table
        if self.tables.get(table.id) is not table or self._lapsed(table.id):
            if table.id in self.paused_since:  # waiting for the database: try again
                refused = TableError(UNAVAILABLE, counted="seconds", seconds=5)
                conn.send(_error(None, refused))
                return False
            conn.closing = conn.closing or MOVING
            return False
        if not conn.bucket.take(self.monotonic()):
            limits = self.limits
            conn.send(
                _error(
                    None,
                    TableError(
                        N_("too many messages: at most {rate} a second (bursts of {burst})"),
                        None,
                        None,
                        rate=limits.rate,
                        burst=limits.burst,
                    ),
                )
            )
            return False
        return True

    def _apply(self, conn: Connection, text: str) -> object:
        """Apply one client message at its table (once per id; on the loop, or in the
        table's worker thread) and send what follows from it; returns its type (for the
        metrics)."""
        table = conn.table
        try:
            msg = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            conn.send(
                _error(None, TableError(N_("not valid JSON"), detail=f"not valid JSON: {exc}"))
            )
            return None
        if not isinstance(msg, dict):
            refused = TableError(N_("a message is a JSON object with type and id"), None, msg)
            conn.send(_error(None, refused))
            return None
        kind = msg.get("type")
        mid = msg.get("id")
        if (isinstance(mid, bool) or not isinstance(mid, str | int)) or (
            isinstance(mid, str) and not 1 <= len(mid) <= 64
        ):
            refused = TableError(
                N_("id {id!r}: expected a string of 1 to 64 characters or an integer"),
                "id",
                mid,
                id=mid,
            )
            conn.send(_error(None, refused))
            return kind
        remembered = self.replies.get((conn.player.username, table.id))
        if remembered is None:
            limits = self.limits
            remembered = Answered(limits.remembered_ids, limits.remembered_bytes)
            self.replies[(conn.player.username, table.id)] = remembered
        answered = remembered.get(mid)
        if answered is not None:
            conn.send({**answered, "duplicate": True})
            return kind
        before = table.seq
        try:
            self._dispatch(conn, msg)
            reply: dict[str, Any] = {"type": "ack", "id": mid, "duplicate": False}
        except TableError as exc:
            reply = _error(mid, exc, msg, conn.language)
        remembered.put(mid, reply)
        if reply["type"] == "ack":
            conn.acks.append(mid)  # acknowledged by the view that reflects it
        else:
            conn.send(reply)
        if table.seq != before or table.notices:
            self.schedule_broadcast(table)
        elif reply["type"] == "ack" and table.id not in self.dirty:
            self.send_view(conn)
        return kind

    def _dispatch(self, conn: Connection, msg: dict[str, Any]) -> None:
        table, player = conn.table, conn.player
        kind = msg.get("type")
        if kind == "sit":
            elsewhere = self.seated_at(player.username)
            if elsewhere is not None and elsewhere != table.id:
                raise TableError(
                    N_("you are seated at table {table}: leave it first"),
                    "type",
                    "sit",
                    table=elsewhere,
                )
            mine = sum(1 for c in tuple(self.connections[table.id]) if c.player.id == player.id)
            table.sit(player, connections=mine)
        elif kind == "leave":
            table.leave(player)
        elif kind == "bet":
            table.bet(player, msg.get("box"), msg.get("amount"), msg.get("side", "main"))
        elif kind == "undo":
            table.undo(player)
        elif kind == "clear":
            table.clear(player)
        elif kind == "rebet":
            table.rebet(player, 1)
        elif kind == "double-rebet":
            table.rebet(player, 2)
        elif kind in ("ready", "deal"):
            table.ready(player)
        elif kind == "decide":
            table.decide(player, msg.get("decision"), msg.get("box"), msg.get("hand"))
        elif kind == "seed":
            table.set_client_seed(player, msg.get("seed"))
        elif kind == "hints":
            conn.hints = hints_on(msg.get("on"))
            self._hints_wanted(table)
        elif kind == "view":
            pass  # the view follows the ack
        else:
            raise TableError(
                N_(
                    "type {type!r}: expected one of sit, leave, bet, undo, clear, rebet, "
                    "double-rebet, ready, deal, decide, seed, hints, view"
                ),
                "type",
                kind,
                type=kind,
            )

    def _hints_wanted(self, table: LiveTable) -> None:
        conns = tuple(self.connections.get(table.id, ()))
        table.hint_wanted = {c.player.username for c in conns if c.hints}

    # ----------------------------------------------------------------- time
    def tick(self) -> None:
        """Fire every table's countdown and decision clock that is due."""
        now = self.clock()
        workers = self.workers
        for table in list(self.tables.values()):
            if self._lapsed(table.id):
                continue
            if workers is None:
                self._tick(table, now)
            elif not workers.busy(table.id):  # else its next tick comes soon enough
                workers.start(table.id, self._tick, table, now)

    def _tick(self, table: LiveTable, now: float) -> None:
        try:
            changed = table.tick(now)
        except Exception:  # keep the other tables going
            log.exception("table %s failed on tick", table.id)
            changed = True
        if changed or table.notices:
            self.broadcast(table)

    async def at_table(self, table: LiveTable, fn: Callable[..., Any], *args: Any) -> Any:
        """Do ``fn(*args)`` at a table: in its worker thread when there are workers."""
        if self.workers is None:
            return fn(*args)
        return await self.workers.run(table.id, fn, *args)

    async def ticker(self) -> None:
        """Tick forever (the app's lifespan starts and cancels it)."""
        while True:
            await asyncio.sleep(self.tick_interval)
            self.tick()

    # ----------------------------------------------------------------- sockets
    def sockets_of(self, player: Player, table_id: str) -> int:
        """How many sockets ``player`` has open at a table."""
        return sum(1 for c in tuple(self.connections.get(table_id, ())) if c.player.id == player.id)

    def close_sockets(self, *, session: str | None = None, player_id: int | None = None) -> int:
        """Close (code 4401) the sockets of a login session, or of every session of a
        player; returns how many. Their readers end them within the event loop's turn."""
        closing = [
            c
            for conns in self.connections.values()
            for c in conns
            if (session is not None and c.session == session)
            or (player_id is not None and c.player.id == player_id)
        ]
        loop = self.loop
        if not closing or loop is None:
            return len(closing)

        def close_them() -> None:
            for conn in closing:
                conn.closing = LOGGED_OUT
                loop.create_task(_close(conn.ws, LOGGED_OUT))

        try:
            running = asyncio.get_running_loop()
        except RuntimeError:  # an endpoint in the thread pool
            running = None
        if running is loop:
            close_them()
        else:
            loop.call_soon_threadsafe(close_them)
        return len(closing)

    async def _receive(self, conn: Connection) -> str | None:
        """The next text frame, or ``None`` once the socket is to close (its code set)."""
        limits = self.limits
        while True:
            try:
                message = await asyncio.wait_for(conn.ws.receive(), limits.idle_seconds)
            except TimeoutError:
                conn.closing = IDLE
                return None
            if message["type"] == "websocket.disconnect":
                return None
            text = message.get("text")
            if text is None:  # a binary frame: refused, and counted against the rate
                now = self.monotonic()
                if conn.bucket.take(now):  # over the rate: no reply at all
                    refused = TableError(N_("binary frames are not read: send JSON text"))
                    conn.send(_error(None, refused))
                elif conn.bucket.flooding_for(now) >= limits.flood_seconds:
                    conn.closing = POLICY
                    return None
                continue
            if len(text) > limits.max_message_bytes or (
                4 * len(text) > limits.max_message_bytes
                and len(text.encode()) > limits.max_message_bytes
            ):
                conn.closing = TOO_BIG
                return None
            return str(text)

    async def serve(self, conn: Connection) -> None:
        """Run an accepted connection until it closes."""
        table = conn.table
        self.loop = asyncio.get_running_loop()
        if self.tables.get(table.id) is not table:  # dropped meanwhile (a cluster node)
            await _close(conn.ws, MOVING)
            return
        self.connections[table.id].add(conn)
        writer = asyncio.create_task(conn.writer())
        workers = self.workers
        try:
            if workers is None:
                self._opened(conn)
            else:
                await workers.run(table.id, self._opened, conn)
            while conn.closing is None:
                text = await self._receive(conn)
                if text is None:
                    break
                started = time.perf_counter()
                kind = None
                if self._open(conn):
                    if workers is None:
                        kind = self._apply(conn, text)
                    else:
                        kind = await workers.run(table.id, self._apply, conn, text)
                if self.metrics is not None:
                    self.metrics.action(str(kind), time.perf_counter() - started)
                if conn.bucket.flooding_for(self.monotonic()) >= self.limits.flood_seconds:
                    conn.closing = POLICY
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.connections.get(table.id, set()).discard(conn)
            if workers is None:
                self._closed(conn)
            else:  # done even if this task is cancelled (the server stopping)
                with contextlib.suppress(Exception):
                    await asyncio.shield(workers.run(table.id, self._closed, conn))
            conn.send(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=1)
            if conn.closing is not None and conn.closing != LOGGED_OUT:
                await _close(conn.ws, conn.closing, conn.close_reason)

    def _opened(self, conn: Connection) -> None:
        """At the table: a connection opened; it gets its view."""
        conn.table.connect(conn.player)
        self.send_view(conn)

    def _closed(self, conn: Connection) -> None:
        """At the table: a connection closed (the player may stand up)."""
        table = conn.table
        table.disconnect(conn.player)
        self._hints_wanted(table)
        if not self.sockets_of(conn.player, table.id) and conn.player.username not in table.seats:
            self.replies.pop((conn.player.username, table.id), None)  # nothing to resend
        self.schedule_broadcast(table)


async def _close(ws: WebSocket, code: int, reason: str = "") -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=code, reason=reason or None)


def _error(mid: Any, exc: TableError, sent: Any = None, lang: str = "en") -> dict[str, Any]:
    """The ``error`` message of a refused intention: the English text, and the catalog
    message with its parameters for the page to translate. What the client sent is quoted
    to at most 64 characters (``sent``: the message, whose long strings are clipped). A
    refusal of the engine's also carries its error ``code`` and ``text``, the engine's reason
    in ``lang``."""
    long = list(sent.values()) if isinstance(sent, dict) else [sent]
    long += [*exc.params.values(), exc.value]
    reply = {
        "type": "error",
        "id": clip(mid),
        "field": exc.field,
        "value": clip(exc.value),
        "error": clip_text(str(exc), long),
        "message": exc.message,
        "params": {k: clip(v) for k, v in exc.params.items()},
        "code": exc.code,
        "duplicate": False,
    }
    if exc.counted is not None:
        reply["count"] = exc.counted
    text = engine_text(exc, lang)
    if text is not None:
        reply["text"] = clip_text(text, long)
    return reply


def origin_allowed(ws: WebSocket) -> bool:
    """A browser's ``Origin`` must name this server's host (no cross-site sockets)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """A player's connection to a table (authenticated before it is accepted)."""
    state = ws.app.state
    hub: Hub = state.hub
    session = ws.cookies.get(COOKIE)
    player = state.auth.player_from_cookies(ws.cookies)
    table = hub.tables.get(table_id)
    cluster = state.cluster
    if (
        table is None
        and cluster is not None
        and player is not None
        and table_id in state.configs
        and origin_allowed(ws)
    ):
        # a cluster's table dealt elsewhere (or changing node): say where, relay nothing
        code, reason = await asyncio.to_thread(cluster.redirect, table_id)
        await ws.accept()
        await _close(ws, code, reason)
        return
    if player is None or table is None or not origin_allowed(ws):
        await ws.close(code=4403)
        return
    if hub.sockets_of(player, table.id) >= hub.limits.max_sockets_per_table:
        await ws.close(code=POLICY)  # at most max_sockets_per_table per account and table
        return
    await ws.accept()
    bucket = TokenBucket(hub.limits.rate, hub.limits.burst, hub.monotonic())
    language = state.accounts.language(player.id) or table.config.language or "en"
    await hub.serve(
        Connection(ws, player, table, session=session, bucket=bucket, language=language)
    )
