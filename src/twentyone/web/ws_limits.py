"""What keeps one socket from taking the table down (issue 11): the size of a frame, a
token bucket per socket, the sockets an account may hold at a table, a silent socket's
lifetime, the memory of answered message ids, and how much of a client's text an error
reply quotes.

>>> bucket = TokenBucket(rate=20.0, burst=40, now=0.0)
>>> sum(bucket.take(0.0) for _ in range(50)), bucket.take(0.5), bucket.flooding_for(0.5)
(40, True, 0.5)
>>> bucket.take(1.5), bucket.flooding_for(1.5)  # refilled to half: the flood is over
(True, 0.0)
>>> clip("x" * 100)[-2:], len(clip("x" * 100))
('x…', 65)
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

#: How many characters of what a client sent an error reply quotes.
QUOTE = 64


@dataclass(frozen=True, kw_only=True)
class SocketLimits:
    """The table WebSocket's limits (each a ``twentyone serve`` option; docs/web.md)."""

    max_message_bytes: int = 16 * 1024
    rate: float = 20.0  # messages a second, refilled continuously
    burst: int = 40
    flood_seconds: float = 2.0  # over the rate this long: closed with 1008
    max_sockets_per_table: int = 4
    idle_seconds: float = 120.0  # a socket silent this long is closed
    remembered_ids: int = 1000
    remembered_bytes: int = 256 * 1024

    def __post_init__(self) -> None:
        for name in ("max_message_bytes", "burst", "max_sockets_per_table", "remembered_ids"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}={getattr(self, name)!r}: expected 1 or more")
        for name in ("rate", "flood_seconds", "idle_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name}={getattr(self, name)!r}: expected a positive number")


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` a second; a message takes one."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = now
        self.over_since: float | None = None

    def take(self, now: float) -> bool:
        """Whether a message may pass now (and take its token). A socket that ran dry is
        over the rate until its bucket has refilled to half (it slowed down): the tokens that
        trickle in meanwhile let a message through without ending the flood."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= self.burst / 2:
            self.over_since = None
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        if self.over_since is None:
            self.over_since = now
        return False

    def flooding_for(self, now: float) -> float:
        """How long the socket has been over the rate (see :meth:`take`)."""
        return 0.0 if self.over_since is None else now - self.over_since


def clip(value: Any) -> Any:
    """A client's string cut to :data:`QUOTE` characters (with an ellipsis); other values,
    and containers, as they are when small, else their clipped JSON text."""
    if isinstance(value, str):
        return value if len(value) <= QUOTE else value[:QUOTE] + "…"
    if isinstance(value, int | float | bool) or value is None:
        return value
    import orjson  # here, not at the top: `twentyone serve`'s options read this module's limits

    text = orjson.dumps(value, default=str).decode()
    return value if len(text) <= QUOTE else text[:QUOTE] + "…"


def clip_text(text: str, sent: list[Any]) -> str:
    """An error's English text with every long value the client ``sent`` clipped: a string
    (quoted or not), or any other JSON value as the text quotes it (its ``repr``), which
    becomes its clipped JSON text.

    >>> clip_text(f"type {list(range(100))!r}: expected a string", [list(range(100))])[-30:]
    '21,22,23,2…: expected a string'
    >>> len(clip_text(f"type {list(range(100))!r}: expected", [list(range(100))]))
    80
    """
    for value in sent:
        if isinstance(value, str):
            if len(value) > QUOTE:
                text = text.replace(repr(value), repr(clip(value))).replace(value, clip(value))
        elif not isinstance(value, int | float | bool) and value is not None:
            quoted = repr(value)
            if len(quoted) > QUOTE:
                text = text.replace(quoted, str(clip(value)))
    return text


class Answered:
    """The replies to one player's message ids at one table, bounded in entries and bytes
    (the oldest are forgotten first). Ids are compared as JSON values: ``777``, ``"777"``
    and ``"#777"`` are three ids.

    >>> a = Answered(entries=2, size=10_000)
    >>> a.put(777, {"type": "ack"}); a.put("777", {"type": "ack", "n": 2})
    >>> a.get(777), a.get("777")["n"], a.get("#777")
    ({'type': 'ack'}, 2, None)
    >>> a.put("x", {}); a.get(777) is None
    True
    """

    def __init__(self, entries: int, size: int) -> None:
        self.entries = entries
        self.size = size
        self.bytes = 0
        self._replies: OrderedDict[str, tuple[dict[str, Any], int]] = OrderedDict()

    @staticmethod
    def key(mid: Any) -> str:
        import orjson

        return orjson.dumps(mid).decode()

    def get(self, mid: Any) -> dict[str, Any] | None:
        found = self._replies.get(self.key(mid))
        return found[0] if found is not None else None

    def put(self, mid: Any, reply: dict[str, Any]) -> None:
        import orjson

        key = self.key(mid)
        cost = len(key) + len(orjson.dumps(reply, default=str))
        self._replies[key] = (reply, cost)
        self.bytes += cost
        while len(self._replies) > self.entries or (self.bytes > self.size and self._replies):
            _, (_, old) = self._replies.popitem(last=False)
            self.bytes -= old

    def __len__(self) -> int:
        return len(self._replies)
