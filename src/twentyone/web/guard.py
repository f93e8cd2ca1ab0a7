"""What keeps the web table up under abuse on the HTTP side: a bound on request bodies,
security headers, and throttles on logins and registrations.

- :class:`BodyLimit` (ASGI middleware): a request whose body is over ``max_bytes`` gets 413
  without the body being read whole (a ``Content-Length`` over the bound is refused before a
  byte is read; a chunked body is counted as it arrives).
- :class:`SecurityHeaders` (ASGI middleware): ``Content-Security-Policy`` (scripts and styles
  from the page's own origin only, no inline script, ``frame-ancestors 'none'``),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin``, and
  ``Strict-Transport-Security`` when the cookies are marked Secure (served over HTTPS).
- :class:`Throttle`: failures (or attempts) counted per key in moving windows (written as the
  ``limits`` library writes them), in the database so that every node counts in one place; a
  key over any of its windows is refused with the seconds until it may try again, and the
  windows grow (5 in 5 minutes, 10 in an hour, 20 in a day), so a key that keeps trying waits
  longer each time. Addresses are keyed by :func:`address_key` (IPv6 by its /64).

>>> t = Throttle(["2/minute"])
>>> t.retry_after("ann"), t.hit("ann"), t.hit("ann"), 55 <= t.retry_after("ann") <= 60
(None, None, 60, True)
>>> t.hit_if_allowed("bob"), t.hit_if_allowed("bob"), t.hit_if_allowed("bob")
(None, None, 60)
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the database's parts are imported when a throttle uses them: every
    # command's parser reads this module's defaults, without the web extra installed
    from sqlalchemy import Connection, Engine

Scope = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[dict[str, Any]], Any]
ASGIApp = Callable[[Scope, Receive, Send], Any]

#: The largest request body the API reads (bytes): credentials and a language are tiny.
MAX_BODY_BYTES = 64 * 1024
#: Login failures per username at one client address before 429 (growing windows).
LOGIN_LIMITS = ("5 per 5 minutes", "10 per hour", "20 per day")
#: Login failures per client address, whatever the usernames (many people share an address).
ADDRESS_LOGIN_LIMITS = ("30 per 5 minutes", "100 per hour", "300 per day")
#: Registrations per client address.
REGISTER_LIMITS = ("20 per hour",)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


async def _answer(
    send: Send, status: int, body: bytes, headers: Sequence[tuple[bytes, bytes]]
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, reading no more than the bound."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _too_large(self) -> bytes:
        return (
            b'{"detail": "request body over %d bytes", "message": "request body over {limit} '
            b'bytes", "params": {"limit": %d}}' % (self.max_bytes, self.max_bytes)
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.max_bytes + 1
                if declared > self.max_bytes:
                    await _answer(send, 413, self._too_large(), [])
                    return
        seen = 0
        started = answered = False

        async def counted_receive() -> Any:
            nonlocal seen, answered
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes and not started:
                    # answer now and tell the app the client left: it reads no further
                    answered = True
                    await _answer(send, 413, self._too_large(), [])
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message: dict[str, Any]) -> None:
            nonlocal started
            if answered:
                return  # the 413 went out: whatever the app says after it is dropped
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except Exception:
            if not answered:
                raise


class SecurityHeaders:
    """Add the security headers to every HTTP response (``hsts``: behind HTTPS)."""

    def __init__(self, app: ASGIApp, *, hsts: bool = False) -> None:
        self.app = app
        self.headers = [
            (b"content-security-policy", CSP.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
            (b"x-frame-options", b"DENY"),
        ]
        if hsts:
            self.headers.append((b"strict-transport-security", b"max-age=31536000"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *self.headers]}
            await send(message)

        await self.app(scope, receive, with_headers)


class Throttle:
    """Attempts counted per key in moving windows (``limits``' strings such as
    ``"5 per 5 minutes"``): in the database (``engine``: the ``throttle_hits`` table, so every
    node of a cluster counts in one place), or in memory (no engine: one process).

    :meth:`hit_if_allowed` checks and counts in one step (one transaction, the key locked), so
    concurrent attempts never get past a window together. ``name`` keeps the keys of the
    throttles sharing the table apart."""

    def __init__(
        self,
        windows: Sequence[str],
        engine: Engine | None = None,
        clock: Callable[[], float] = time.time,
        name: str = "",
    ) -> None:
        # imported here: every command's parser reads this module's defaults, and ``limits``
        # takes a tenth of a second to import
        from limits import parse_many

        self.windows = [(i.amount, float(i.get_expiry())) for w in windows for i in parse_many(w)]
        self.longest = max((period for _, period in self.windows), default=0.0)
        self.engine = engine
        self.clock = clock
        self.name = name
        self._memory: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    # ----------------------------------------------------------------- the windows
    def _wait(self, times: Sequence[float], now: float) -> int | None:
        """Seconds until a key with these attempts (oldest first) may try again."""
        waits = []
        for amount, period in self.windows:
            inside = [t for t in times if t > now - period]
            if len(inside) >= amount:
                waits.append(max(1, math.ceil(inside[len(inside) - amount] + period - now)))
        return max(waits) if waits else None

    def _key(self, key: str) -> str:
        return f"{self.name}:{key}"[:160]

    def _times(self, conn: Connection, key: str, now: float) -> list[float]:
        from sqlalchemy import select

        from twentyone.web.storage.models import ThrottleHit

        rows = conn.execute(
            select(ThrottleHit.at)
            .where(ThrottleHit.key == self._key(key), ThrottleHit.at > now - self.longest)
            .order_by(ThrottleHit.at)
        )
        return [float(at) for (at,) in rows]

    # ----------------------------------------------------------------- asking and counting
    def retry_after(self, key: str) -> int | None:
        """Seconds until ``key`` may try again, or ``None`` when it may now."""
        now = self.clock()
        if self.engine is None:
            with self._lock:
                return self._wait(self._memory.get(key, []), now)
        with self.engine.connect() as conn:
            return self._wait(self._times(conn, key, now), now)

    def hit(self, key: str) -> int | None:
        """Count an attempt; returns :meth:`retry_after` after it."""
        return self._count(key, always=True)

    def hit_if_allowed(self, key: str) -> int | None:
        """Count an attempt if ``key`` may make one now (``None``); else count nothing and
        return the seconds to wait."""
        return self._count(key, always=False)

    def _count(self, key: str, *, always: bool) -> int | None:
        now = self.clock()
        if self.engine is None:
            with self._lock:
                times = [t for t in self._memory.get(key, []) if t > now - self.longest]
                wait = self._wait(times, now)
                if always or wait is None:
                    times.append(now)
                self._memory[key] = times
                return self._wait(times, now) if always else wait
        from sqlalchemy import delete, insert, text

        from twentyone.web.storage.models import ThrottleHit

        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":  # one key's check and count at a time
                conn.execute(
                    text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": self._key(key)}
                )
            else:  # SQLite: the write lock, taken before the count is read
                old = ThrottleHit.at <= now - self.longest
                conn.execute(delete(ThrottleHit).where(ThrottleHit.key == self._key(key), old))
            times = self._times(conn, key, now)
            wait = self._wait(times, now)
            if always or wait is None:
                conn.execute(insert(ThrottleHit), {"key": self._key(key), "at": now})
                times.append(now)
            return self._wait(times, now) if always else wait

    def clear(self, key: str) -> None:
        """Forget ``key``'s attempts (a successful login)."""
        if self.engine is None:
            with self._lock:
                self._memory.pop(key, None)
            return
        from sqlalchemy import delete

        from twentyone.web.storage.models import ThrottleHit

        with self.engine.begin() as conn:
            conn.execute(delete(ThrottleHit).where(ThrottleHit.key == self._key(key)))


def address_key(address: str) -> str:
    """The key a client address is throttled by: an IPv6 address by its /64 (one home or one
    host's block: a client picks any address in it), an IPv4 address (mapped in IPv6 too)
    as it is.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("2001:db8:1:2:bbbb::9")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> address_key("::ffff:192.0.2.7"), address_key("192.0.2.7"), address_key("testclient")
    ('192.0.2.7', '192.0.2.7', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)
