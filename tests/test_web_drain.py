"""A clean stop (issue 27, item 7): on SIGTERM a node takes no new rounds, lets the open ones
finish, hands its tables over and exits; a clean stop voids no round."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cluster_support import free_port
from twentyone.web.drain import GOING_AWAY, drain
from web_support import make_app, players_at, register


def test_a_drain_plays_the_open_round_out_and_closes_the_sockets(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'drain.db'}"
    app = make_app(url, {"ru-online": "TS 9D 7H 8C"})
    with TestClient(app) as client:
        tokens = {"ann": register(client, "ann")}
        with players_at(client, "ru-online", tokens) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("deal")  # the round waits for ann
            assert client.portal is not None
            done = client.portal.start_task_soon(drain, app, 10.0)
            closing = ann.until(lambda m: m["type"] == "notice" and m["kind"] == "table-closing")
            assert closing["message"].startswith("the table is closing")
            assert client.get("/readyz").status_code == 503
            ann.send("decide", decision="stand")  # the round is played out
            result = done.result(timeout=10)
            assert result["open"] == []
    engine = create_engine(url)
    with engine.connect() as conn:
        statuses = [s for (s,) in conn.execute(text("SELECT status FROM rounds"))]
        refunds = conn.execute(text("SELECT count(*) FROM ledger_entries WHERE kind = 'refund'"))
        assert statuses == ["settled"] and refunds.scalar_one() == 0
    engine.dispose()


def test_sigterm_drains_the_server_and_voids_no_round(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "term.db"
    cmd = [sys.executable, "-m", "twentyone", "serve", "--port", str(port),
           "--database-url", f"sqlite:///{db}", "--drain-seconds", "20",
           "--table", "solo=ru-online"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(base + "/readyz")
        cookie = _register(base, "ann")
        ws = connect(f"ws://127.0.0.1:{port}/ws/tables/solo", additional_headers={"cookie": cookie})
        n = 0

        def send(kind: str, **fields: Any) -> dict[str, Any]:
            nonlocal n
            n += 1
            ws.send(json.dumps({"type": kind, "id": n, **fields}))
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg["type"] == "error" and msg.get("id") == n:
                    return dict(msg)
                if msg["type"] == "view" and n in msg.get("acks", ()):
                    return dict(msg)

        send("sit")
        send("bet", box=0, amount=1000)
        view = send("deal")
        assert view["phase"] in ("playing", "betting")
        proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        while _status(base + "/readyz") != 503:  # draining: no new traffic
            assert time.monotonic() < deadline
            time.sleep(0.05)
        while view["phase"] == "playing":  # the round is played out
            actions = view["turn"]["actions"]
            pick = next(a for a in ("stand", "no-insurance", "no-even-money") if a in actions)
            view = send("decide", decision=pick)
        try:
            while True:
                ws.recv(timeout=10)
        except ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == GOING_AWAY
        assert proc.wait(timeout=30) in (0, -signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        statuses = [s for (s,) in conn.execute(text("SELECT status FROM rounds"))]
        refunds = conn.execute(text("SELECT count(*) FROM ledger_entries WHERE kind = 'refund'"))
        assert statuses == ["settled"] and refunds.scalar_one() == 0
    engine.dispose()


def _status(address: str) -> int:
    try:
        with urllib.request.urlopen(address, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except (urllib.error.URLError, ConnectionError):
        return 0


def _wait(address: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while _status(address) != 200:
        assert time.monotonic() < deadline, f"{address} did not come up"
        time.sleep(0.2)


def _register(base: str, name: str) -> str:
    body = json.dumps({"username": name, "password": "password123"}).encode()
    req = urllib.request.Request(base + "/api/register", body, {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return str(r.headers["set-cookie"]).split(";", 1)[0]
