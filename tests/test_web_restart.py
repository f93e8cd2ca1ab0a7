"""A server restart in the middle of a round: the round's money is returned (docs/web.md),
on SQLite and PostgreSQL. Amounts worked out by hand from the stacked shoes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from web_support import BACKENDS, Player, cookie, database_url, get, make_app, players_at, register


@pytest.fixture(params=BACKENDS)
def url(request: Any, tmp_path: Any) -> Iterator[str]:
    yield from database_url(request.param, tmp_path)


def _login(client: TestClient, name: str) -> str:
    r = client.post("/api/login", json={"username": name, "password": "password123"})
    assert r.status_code == 200, r.text
    token: str | None = r.cookies.get("twentyone_session")
    client.cookies.clear()
    assert token
    return token


def test_stakes_doubles_and_insurance_come_back_after_a_restart(url: str) -> None:
    # pl-online: ann 8S 8D against AH + hole 9C; she insures (500) and splits (1000 more):
    # 2500 staked when the server stops.
    first = make_app(url, {"pl-online": "8S AH 8D 9C 3H 2D TC 9S"})
    with TestClient(first) as client:
        token = register(client, "ann")
        with players_at(client, "pl-online", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("deal")
            ann.ok("decide", decision="insure")
            view = ann.ok("decide", decision="split")
            assert view["you"]["balance"] == 97_500
            round_id = view["round"]["id"]
    # the server stops here, the round unfinished; a new one starts on the same database
    second = make_app(url, {"pl-online": "TS 9D 7H 5C 8H"})
    assert second.state.refunded_at_start == [round_id]
    with TestClient(second) as client:
        token = _login(client, "ann")
        assert get(client, "/api/me", token)["balance"] == 100_000
        record = get(client, f"/api/rounds/{round_id}", token)
        assert record["status"] == "refunded" and record["net"] == 0
        assert record["staked"] == 2500
        assert record["replay"]["decisions"] == ["insure", "split"]
        assert second.state.ledger.audit() == []
        # the table is free and plays on: TS 7H stands against 9D 5C 8H (bust), +1000
        with client.websocket_connect("/ws/tables/pl-online", headers=cookie(token)) as ws:
            ann = Player(ws, "ann")
            view = ann.recv()
            assert view["phase"] == "betting" and view["you"]["seated"] is False
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("deal")
            view = ann.ok("decide", decision="stand")
            assert view["you"]["balance"] == 101_000
    # a third start finds nothing left to refund
    third = make_app(url)
    assert third.state.refunded_at_start == []
    third.state.engine.dispose()


def test_money_paid_at_once_is_taken_back_with_the_refund(url: str) -> None:
    # ru-online pays a blackjack at once against a 9 (ru.7): box 0 AS KD is paid 2500 on its
    # 1000; box 1 TH 6C (1000) is still to play when the server stops. ann's balance then is
    # 100000 - 2000 + 2500 = 100500; voiding the round brings her back to 100000.
    first = make_app(url, {"ru-online": "AS TH 9D KD 6C 7S"})
    with TestClient(first) as client:
        token = register(client, "ann")
        with client.websocket_connect("/ws/tables/ru-online", headers=cookie(token)) as ws:
            ann = Player(ws, "ann")
            ann.recv()
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("bet", box=1, amount=1000)
            view = ann.ok("deal")
            assert view["boxes"][0]["hands"][0]["result"] == "blackjack"
            assert view["turn"]["box"] == 1
            assert view["you"]["balance"] == 100_500
    second = make_app(url)
    with TestClient(second) as client:
        token = _login(client, "ann")
        assert get(client, "/api/me", token)["balance"] == 100_000
        assert second.state.ledger.audit() == []
        assert second.state.ledger.total() == 0
