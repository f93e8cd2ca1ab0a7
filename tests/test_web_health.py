"""Health, readiness and metrics (issue 27, item 6): /healthz answers while the process does,
/readyz says whether the node should take traffic and why not, and the metrics come in
Prometheus' text format on their own address only."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from cluster_support import free_port
from twentyone.web.proxy_config import haproxy, nginx
from web_support import make_app, players_at, register


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'health.db'}"


def test_healthz_and_readyz_answer_and_readyz_names_what_is_wrong(url: str) -> None:
    app = make_app(url)
    with TestClient(app) as client:
        assert client.get("/healthz").json() == {"ok": True}
        assert client.get("/readyz").json() == {"ready": True}
        app.state.draining = True
        r = client.get("/readyz")
        assert r.status_code == 503 and r.json()["reasons"] == ["draining: the node is stopping"]
        app.state.draining = False
        good = app.state.engine
        # a database nobody answers at (a closed port): not ready, and the reason says so
        app.state.engine = create_engine("postgresql+psycopg://x:y@127.0.0.1:1/none")
        try:
            r = client.get("/readyz")
        finally:
            app.state.engine.dispose()
            app.state.engine = good
        assert r.status_code == 503 and r.json()["reasons"][0].startswith("database: ")
        assert client.get("/healthz").status_code == 200  # the process still answers


def test_metrics_count_rounds_actions_sockets_and_commits(url: str) -> None:
    app = make_app(url, {"ru-online": "TS 9D 7H 8C"}, metrics=True)
    with TestClient(app) as client:
        tokens = {"ann": register(client, "ann")}
        with players_at(client, "ru-online", tokens) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("deal")
            ann.ok("decide", decision="stand")
            text = app.state.metrics.exposition()
            assert "twentyone_sockets 1.0" in text
        text = app.state.metrics.exposition()
    samples = dict(
        line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#")
    )
    assert samples['twentyone_rounds_total{event="started"}'] == "1.0"
    assert samples['twentyone_rounds_total{event="settled"}'] == "1.0"
    assert samples['twentyone_actions_total{type="bet"}'] == "1.0"
    assert float(samples["twentyone_action_seconds_count"]) >= 4
    assert float(samples["twentyone_db_commit_seconds_count"]) >= 2  # start and settle
    assert samples["twentyone_tables"] == "5.0" and samples["twentyone_sockets"] == "0.0"


def test_serve_puts_the_metrics_on_their_own_address_only(tmp_path: Path) -> None:
    port, metrics_port = free_port(), free_port()
    cmd = [sys.executable, "-m", "twentyone", "serve", "--port", str(port),
           "--database-url", f"sqlite:///{tmp_path / 'm.db'}",
           "--metrics-port", str(metrics_port)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        body = _get(f"http://127.0.0.1:{metrics_port}/metrics", wait=30)
        assert "# TYPE twentyone_rounds_total counter" in body
        assert "twentyone_action_seconds_bucket" in body
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5)
        assert err.value.code == 404  # not on the players' port
        assert _get(f"http://127.0.0.1:{port}/readyz") == '{"ready":true}'
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _get(address: str, wait: float = 0.0) -> str:
    deadline = time.monotonic() + wait
    while True:
        try:
            with urllib.request.urlopen(address, timeout=5) as r:
                return str(r.read().decode())
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_the_proxies_send_no_new_traffic_to_a_node_that_is_not_ready() -> None:
    nodes = [("a", "http://127.0.0.1:9001")]
    hap = haproxy(nodes)
    assert "option httpchk GET /readyz" in hap and "http-check expect status 200" in hap
    assert "server a 127.0.0.1:9001 check inter 1s fall 2 rise 2" in hap
    conf = nginx(nodes)
    api = conf.split("location /api/ {", 1)[1].split("}", 1)[0]
    assert "proxy_read_timeout 10s;" in api and "proxy_connect_timeout 2s;" in api
    assert "max_fails=1 fail_timeout=3s" in conf
