"""The web table when the database cannot write (issue 11, row 3 and item 5), on a real
SQLite file switched to read-only (SQLite's own ``query_only``) in the middle of a round: the
table does not freeze, the round settles exactly once when the file is writable again, and
the HTTP API answers 503 with Retry-After, never 500."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event

from web_support import FakeClock, cookie, make_app, players_at, register


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'faults.db'}"


@contextmanager
def read_only(app: FastAPI) -> Iterator[None]:
    """Every connection of the app's database refuses writes while the block runs."""
    engine, ledger = app.state.engine, app.state.ledger

    def on_checkout(dbapi: Any, *_: Any) -> None:
        dbapi.execute("PRAGMA query_only = ON")

    def set_all(on: bool) -> None:
        value = "ON" if on else "OFF"
        conn = ledger._round_conn  # the connection the round methods keep
        if conn is not None and not conn.closed:
            conn.exec_driver_sql(f"PRAGMA query_only = {value}")
            conn.commit()
        with engine.connect() as c:
            c.exec_driver_sql(f"PRAGMA query_only = {value}")

    event.listen(engine, "checkout", on_checkout)
    set_all(True)
    try:
        yield
    finally:
        event.remove(engine, "checkout", on_checkout)
        engine.dispose()  # pooled connections come back writable
        set_all(False)


def test_row_3_a_round_settles_once_when_the_file_is_writable_again(url: str) -> None:
    # hu-casino: ann TS 9C (19) against the dealer's 7H; she stands; TD: 17. +1000.
    clock = FakeClock()
    app = make_app(url, {"hu-casino": "TS 9C 7H TD"}, clock=clock)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "hu-casino", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("ready")  # everyone seated is ready: the round is dealt
            assert view["turn"]["player"] == "ann"
            with read_only(app):
                ann.send("decide", decision="stand")
                settling = ann.until(lambda m: m["type"] == "notice")
                assert settling["kind"] == "settling"
                # reading works; what must write answers 503 with Retry-After, not 500
                assert client.get("/api/rounds", headers=cookie(token)).status_code == 200
                for path, body in (
                    ("/api/register", {"username": "bob", "password": "p" * 9}),
                    ("/api/login", {"username": "ann", "password": "password123"}),
                ):
                    r = client.post(path, json=body)
                    assert r.status_code == 503 and r.headers["retry-after"] == "5", r.text
                    assert "database" in r.json()["detail"]
            clock.advance(1)  # the next try finds the file writable
            done = ann.until(lambda m: m["type"] == "notice" and m["kind"] == "round-end")
            assert done["net"] == {"ann": 1000}
        assert client.get("/api/me", headers=cookie(token)).json()["balance"] == 101_000
        rounds = client.get("/api/rounds", headers=cookie(token)).json()
        assert [r["status"] for r in rounds] == ["settled"] and rounds[0]["net"] == 1000
        assert app.state.ledger.audit() == []
