"""What keeps the web table up under abuse on the HTTP side: a bound on request bodies,
security headers, and throttles on logins and registrations.

- :class:`BodyLimit` (ASGI middleware): a request whose body is over ``max_bytes`` gets 413
  without the body being read whole (a ``Content-Length`` over the bound is refused before a
  byte is read; a chunked body is counted as it arrives).
- :class:`SecurityHeaders` (ASGI middleware): ``Content-Security-Policy`` (scripts and styles
  from the page's own origin only, no inline script, ``frame-ancestors 'none'``),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin``, and
  ``Strict-Transport-Security`` when the cookies are marked Secure (served over HTTPS).
- :class:`Throttle`: failures (or attempts) counted per key in moving windows with the
  ``limits`` library; a key over any of its windows is refused with the seconds until it
  may try again, and the windows grow (5 in 5 minutes, 10 in an hour, 20 in a day), so a
  key that keeps trying waits longer each time.

>>> t = Throttle(["2/minute"])
>>> t.retry_after("ann"), t.hit("ann"), t.hit("ann"), 55 <= t.retry_after("ann") <= 60
(None, None, 60, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from limits import RateLimitItem

Scope = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[dict[str, Any]], Any]
ASGIApp = Callable[[Scope, Receive, Send], Any]

#: The largest request body the API reads (bytes): credentials and a language are tiny.
MAX_BODY_BYTES = 64 * 1024
#: Login failures per username and per client address before 429 (growing windows).
LOGIN_LIMITS = ("5 per 5 minutes", "10 per hour", "20 per day")
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
    """Attempts counted per key in moving windows (``limits`` strings such as
    ``"5 per 5 minutes"``), in memory."""

    def __init__(self, windows: Sequence[str]) -> None:
        # imported here: every command's parser reads this module's defaults, and ``limits``
        # takes a tenth of a second to import
        from limits import parse_many
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        self.items: list[RateLimitItem] = [i for w in windows for i in parse_many(w)]
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def retry_after(self, key: str) -> int | None:
        """Seconds until ``key`` may try again, or ``None`` when it may now."""
        waits = []
        for item in self.items:
            if not self.limiter.test(item, key):
                reset, _ = self.limiter.get_window_stats(item, key)
                waits.append(max(1, math.ceil(reset - time.time())))
        return max(waits) if waits else None

    def hit(self, key: str) -> int | None:
        """Count an attempt; returns :meth:`retry_after` after it."""
        for item in self.items:
            self.limiter.hit(item, key)
        return self.retry_after(key)

    def clear(self, key: str) -> None:
        """Forget ``key``'s attempts (a successful login)."""
        for item in self.items:
            self.limiter.clear(item, key)
