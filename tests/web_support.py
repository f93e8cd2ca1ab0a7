"""Helpers for the web tests: databases (SQLite and PostgreSQL), a fake clock, stacked shoes,
players with their session cookies, and WebSocket reads that never hang."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import anyio
import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient

from twentyone.engine.shoe import CardSource, StackedShoe
from twentyone.web.app import create_app
from twentyone.web.auth import COOKIE
from twentyone.web.tables import TableConfig

POSTGRES_ENV = "TWENTYONE_TEST_POSTGRES_URL"
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(
            not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set"
        ),
    ),
]


class FakeClock:
    """A clock the test moves by hand (epoch seconds)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def database_url(backend: str, tmp_path: Any, base: str | None = None) -> Iterator[str]:
    """A fresh, empty database of the backend; PostgreSQL ones (on the server of ``base``,
    by default the test server's URL) are dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path}/web.db"
        return
    import psycopg

    base = base or os.environ[POSTGRES_ENV]
    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    head, _, _old = base.rpartition("/")
    try:
        yield f"{head}/{name}"
    finally:
        drop_database(base, name)


def drop_database(base: str, name: str, tries: int = 40) -> None:
    """Drop the test database ``name``. FORCE ends the test role's own sessions, but not an
    autovacuum worker's (a superuser process): while one works on the database the drop is
    refused, so it is tried again for up to ten seconds."""
    import time

    import psycopg

    for attempt in range(tries):
        try:
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except psycopg.errors.InsufficientPrivilege:
            if attempt == tries - 1:
                raise
            time.sleep(0.25)


def stacked(shoes: dict[str, str]) -> Callable[[TableConfig, Any], CardSource]:
    """A shoe factory dealing the given cards at the named tables (others: empty)."""
    return lambda config, _rules: StackedShoe(shoes.get(config.id, ""))


def make_app(
    url: str,
    shoes: dict[str, str] | None = None,
    *,
    tables: Sequence[TableConfig] | None = None,
    clock: FakeClock | None = None,
    starting_balance: int = 100_000,
    **options: Any,
) -> FastAPI:
    """The app as the tests use it: fast hashing, no analysis, stacked shoes, registrations
    not throttled (every test player registers from the same address); ``options`` go to
    :func:`create_app`."""
    options.setdefault("register_limits", ("100000 per hour",))
    return create_app(
        url,
        tables=tables,
        clock=clock or FakeClock(),
        shoe_factory=stacked(shoes or {}),
        starting_balance=starting_balance,
        password_hasher=FAST_HASHER,
        analysis=False,
        tick_interval=0.01,
        **options,
    )


def register(client: TestClient, username: str, password: str = "password123") -> str:
    """Register a player; returns their session token (the client keeps no cookie)."""
    r = client.post("/api/register", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    token: str | None = r.cookies.get(COOKIE)
    client.cookies.clear()
    assert token
    return token


def cookie(token: str) -> dict[str, str]:
    """Headers carrying a session."""
    return {"cookie": f"{COOKIE}={token}"}


def get(client: TestClient, path: str, token: str) -> Any:
    """GET as a player, the JSON answer."""
    r = client.get(path, headers=cookie(token))
    assert r.status_code == 200, r.text
    return r.json()


class Player:
    """A WebSocket session of one player with numbered message ids and bounded reads."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.counter = 0
        self.prefix = f"{name}-{uuid.uuid4().hex[:6]}"  # a page load's own prefix
        self.seen: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.pushed: list[dict[str, Any]] = []  # read ahead by do(), read again next

    def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next message; fails the test after ``timeout`` seconds instead of hanging."""
        import json

        if self.pushed:
            return self.pushed.pop()

        async def _get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(_get)
        assert message["type"] == "websocket.send", message
        data: dict[str, Any] = json.loads(message["text"])
        self.seen.append(data)
        if data["type"] == "view":
            self.view = data
            carried = data.get("notices", [])
            if carried:  # read as they were shown: the notices first, then the view
                self.pushed.append(data)
                self.pushed.extend(reversed(carried[1:]))
                return dict(carried[0])
        return data

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 200) -> dict[str, Any]:
        """Read until a message satisfies ``pred``."""
        for _ in range(limit):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError(f"{self.name}: no such message in {limit}")

    def view_where(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read until a view satisfies ``pred``."""
        return self.until(lambda m: m["type"] == "view" and pred(m))

    def send(self, type_: str, mid: Any = None, **fields: Any) -> Any:
        """Send an intention; returns its id."""
        if mid is None:
            self.counter += 1
            mid = f"{self.prefix}-{self.counter}"
        self.ws.send_json({"type": type_, "id": mid, **fields})
        return mid

    def do(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Send an intention and return its answer: the ``error``, or for an applied one an
        ``ack`` record made from the view whose ``acks`` name it (its ``view``). That view,
        and the notices sent just before it with it, are read again by the next reads."""
        mid = self.send(type_, **fields)
        read: list[dict[str, Any]] = []
        for _ in range(200):
            msg = self.recv()
            read.append(msg)
            if msg["type"] in ("error", "ack") and msg["id"] == mid:
                return msg
            if msg["type"] == "view" and mid in msg.get("acks", ()):
                again = [msg]
                for earlier in reversed(read[:-1]):
                    if earlier["type"] != "notice":
                        break
                    again.append(earlier)
                self.pushed.extend(again)  # popped from the end: the notices first
                return {"type": "ack", "id": mid, "duplicate": False, "view": msg}
        raise AssertionError(f"{self.name}: no answer to {mid}")

    def ok(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Send an intention that must be accepted; returns the view that acknowledges it."""
        answer = self.do(type_, **fields)
        assert answer["type"] == "ack", answer
        return self.until(lambda m: m["type"] == "view")


@contextlib.contextmanager
def players_at(client: TestClient, table: str, tokens: dict[str, str]) -> Iterator[list[Player]]:
    """A WebSocket per named player at a table, each first view read; in ``tokens`` order."""
    with contextlib.ExitStack() as stack:
        players = []
        for name, token in tokens.items():
            ws = stack.enter_context(
                client.websocket_connect(f"/ws/tables/{table}", headers=cookie(token))
            )
            player = Player(ws, name)
            player.recv()
            players.append(player)
        yield players
