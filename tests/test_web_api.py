"""The JSON API (accounts, sessions, lobby, recall, OpenAPI, the page) on SQLite and
PostgreSQL, and `twentyone serve` started for real on a free port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from twentyone.engine.rulesets import PRESETS
from twentyone.web.advice import edge_text
from twentyone.web.storage.models import Account
from twentyone.web.tables import DefaultAction, TableConfig
from web_support import BACKENDS, cookie, database_url, get, make_app, register


@pytest.fixture(params=BACKENDS)
def client(request: Any, tmp_path: Any) -> Iterator[TestClient]:
    for url in database_url(request.param, tmp_path):
        with TestClient(make_app(url, starting_balance=50_000)) as c:
            yield c


def test_register_logs_in_with_a_safe_cookie_and_a_starting_balance(client: TestClient) -> None:
    r = client.post("/api/register", json={"username": "Ann_1", "password": "s3cret-pass"})
    assert r.status_code == 201
    assert r.json() == {
        "username": "Ann_1",
        "balance": 50_000,
        "starting_balance": 50_000,
        "table": None,
        "language": None,
    }
    set_cookie = r.headers["set-cookie"].lower()
    assert "twentyone_session=" in set_cookie
    assert "httponly" in set_cookie and "samesite=lax" in set_cookie and "path=/" in set_cookie
    assert client.get("/api/me").json()["username"] == "Ann_1"
    # the password is stored as an Argon2id hash, never in clear
    with client.app.state.ledger.sessions() as s:  # type: ignore[attr-defined]
        stored = s.scalar(select(Account.password_hash).where(Account.username == "Ann_1"))
    assert stored.startswith("$argon2id$") and "s3cret-pass" not in stored


def test_login_logout_and_wrong_passwords(client: TestClient) -> None:
    register(client, "bob", "password-bob")
    assert client.get("/api/me").status_code == 401
    bad = client.post("/api/login", json={"username": "bob", "password": "password-bo"})
    assert bad.status_code == 401 and "wrong" in bad.json()["detail"]
    nobody = client.post("/api/login", json={"username": "carol", "password": "password-bob"})
    assert nobody.status_code == 401
    ok = client.post("/api/login", json={"username": "BOB", "password": "password-bob"})
    assert ok.status_code == 200 and ok.json()["username"] == "bob"
    assert client.get("/api/me").status_code == 200
    token = client.cookies.get("twentyone_session")
    assert client.post("/api/logout").status_code == 204
    client.cookies.clear()
    assert client.get("/api/me", headers=cookie(token)).status_code == 401  # session gone


@pytest.mark.parametrize(
    ("username", "password", "named"),
    [
        ("ab", "password123", "username"),
        ("has space", "password123", "username"),
        ("x" * 25, "password123", "username"),
        ("carol", "short", "password"),
    ],
)
def test_bad_credentials_name_the_field(
    client: TestClient, username: str, password: str, named: str
) -> None:
    r = client.post("/api/register", json={"username": username, "password": password})
    assert r.status_code == 400 and r.json()["detail"].startswith(named)


def test_usernames_are_unique_ignoring_case(client: TestClient) -> None:
    register(client, "dora")
    r = client.post("/api/register", json={"username": "DORA", "password": "password123"})
    assert r.status_code == 409 and "DORA" in r.json()["detail"]
    missing = client.post("/api/register", json={"username": "eve"})
    assert missing.status_code == 400 and "password" in missing.json()["detail"]


def test_lobby_lists_one_table_per_preset(client: TestClient) -> None:
    tables = client.get("/api/tables").json()
    assert [t["id"] for t in tables] == list(PRESETS)
    by_id = {t["id"]: t for t in tables}
    assert by_id["pl-online"]["boxes"] == 3 and by_id["pl-online"]["boxes_per_player"] == 3
    assert by_id["ru-online"]["boxes"] == 5 and not by_id["ru-online"]["multi_player"]
    assert by_id["ro-casino"]["multi_player"] and by_id["ro-casino"]["free_boxes"] == 7
    assert [b["id"] for b in by_id["pt-casino"]["side_bets"]] == ["jackpot"]  # not the bonus
    assert by_id["pt-casino"]["side_bets"][0]["lines"][-1] == {
        "line": "2",
        "title": "first {n} cards aces",
        "pays": "25",
    }
    assert by_id["hu-casino"]["side_bets"] == []
    assert by_id["ru-online"]["countdown_seconds"] is None
    for t in tables:
        assert t["limits"] == {"min": 100, "max": 500_000}
        assert t["house_edge"] is None and t["house_edge_text"] == "—"  # analysis off
        assert t["default_action"] == "stand"
        assert t["rule_card"].startswith(t["rules"])
    assert client.get("/api/tables/hu-casino").json()["id"] == "hu-casino"
    assert client.get("/api/tables/nope").status_code == 404


def test_rounds_need_a_login_and_start_empty(client: TestClient) -> None:
    assert client.get("/api/rounds").status_code == 401
    token = register(client, "fay")
    assert get(client, "/api/rounds", token) == []
    assert client.get("/api/rounds/1", headers=cookie(token)).status_code == 404
    assert client.get("/api/rounds?limit=0", headers=cookie(token)).status_code == 400


def test_openapi_docs_and_page(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in (
        "/api/register",
        "/api/login",
        "/api/logout",
        "/api/me",
        "/api/tables",
        "/api/rounds",
        "/api/rounds/{round_id}",
    ):
        assert path in spec["paths"], path
    assert "TableOut" in spec["components"]["schemas"]
    assert client.get("/docs").status_code == 200
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()


def test_tables_are_configurable(tmp_path: Path) -> None:
    tables = [
        TableConfig(id="fast", rules="6D H17 DAS SPL3 LS"),
        TableConfig(id="solo", rules="ro-casino", multi_player=False),
    ]
    with TestClient(make_app(f"sqlite:///{tmp_path}/c.db", tables=tables)) as c:
        lobby = c.get("/api/tables").json()
    assert [t["id"] for t in lobby] == ["fast", "solo"]
    assert lobby[0]["rules"] == "6D H17 DAS SPL3 LS" and lobby[0]["multi_player"]
    assert not lobby[1]["multi_player"]


def test_edge_text() -> None:
    assert edge_text(0.00523) == "0.52%" and edge_text(None) == "—"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_twentyone_serve_starts_and_answers(tmp_path: Path) -> None:
    port = _free_port()
    db = tmp_path / "serve.db"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "twentyone.cli",
            "serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{db}",
            "--table",
            "solo=ru-online",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=tmp_path,
    )
    try:
        body = None
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1) as r:
                    body = json.loads(r.read())
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.1)
        assert body is not None, proc.stdout.read().decode() if proc.stdout else ""
        assert [t["id"] for t in body] == ["solo"] and body[0]["rules"] == "ru-online"
        assert db.exists()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_with_the_analysis_the_clock_plays_basic_strategy() -> None:
    analysis = pytest.importorskip("twentyone.analysis")
    from twentyone.engine.hands import BoxBet
    from twentyone.engine.round import Round
    from twentyone.engine.rulesets import load_rules
    from twentyone.engine.shoe import StackedShoe
    from twentyone.web.advice import Advice

    rules = load_rules("ru-online")
    advice = Advice(enabled=True)
    action = advice.default_action(rules)
    assert action.name == "stand" and advice.house_edge(rules) is None  # until computed
    advice.start()
    assert advice.thread is not None
    advice.thread.join(120)
    assert action.name == "basic strategy"
    assert advice.house_edge(rules) == pytest.approx(-analysis.analyze(rules).ev_basic)
    # hard 11 (6S 5C) against a 5: every basic strategy doubles; the plain default stands
    rnd = Round(rules, StackedShoe("6S 5D 5C 9H 8D"), [BoxBet("ann", 1000)])
    assert action.decide(rnd) == "double"
    assert DefaultAction("stand").decide(rnd) == "stand"
