"""A real PostgreSQL server stopped and restarted in the middle of a round at a live web table
(issue 11, item 5): the table does not freeze. The round shows as settling while the server is
down, settles exactly once when it is back (or, past the patience, is voided and refunded),
play goes on, and the books balance.

Runs when ``TWENTYONE_TEST_POSTGRES_URL`` is set (CI sets it) and the
machine has Debian's postgresql-common tools and may run them (root or the ``postgres`` user):
the module makes its own cluster on a free port (``pg_createcluster``), stops and starts that
one, and drops it at the end; otherwise it is skipped, saying which of these is missing. The
test server of the URL is never stopped, so other tests may use it meanwhile.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import shlex
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from twentyone.engine.session import SETTLE_PATIENCE
from web_support import (
    POSTGRES_ENV,
    FakeClock,
    Player,
    cookie,
    database_url,
    make_app,
    players_at,
    register,
)

pytestmark = pytest.mark.skipif(
    not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set"
)


class Cluster:
    """A Debian PostgreSQL cluster of this module's own (``pg_createcluster`` on a free port),
    stopped and started with pg_ctlcluster: the test server of the URL, which other tests
    (other pytest workers among them) use meanwhile, is never stopped."""

    def __init__(self, version: str, name: str, port: int) -> None:
        self.version, self.name, self.port = version, name, port

    def ctl(self, *action: str) -> None:
        subprocess.run(
            ["pg_ctlcluster", self.version, self.name, *action],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def stop(self) -> None:
        """A fast shutdown: every session is cut off, as in a crash or a restart."""
        self.ctl("stop", "-m", "fast")

    def start(self) -> None:
        self.ctl("start")

    def running(self) -> bool:
        return (
            subprocess.run(
                ["pg_ctlcluster", self.version, self.name, "status"],
                capture_output=True,
                timeout=60,
            ).returncode
            == 0
        )

    @contextlib.contextmanager
    def down(self) -> Iterator[None]:
        """The server is stopped while the block runs (and started again however it ends)."""
        self.stop()
        try:
            yield
        finally:
            self.start()

    def url(self) -> str:
        """The URL of the database ``twentyone`` of the role ``twentyone`` on this cluster."""
        return f"postgresql://twentyone:twentyone@127.0.0.1:{self.port}/twentyone"


def _as_postgres(*command: str) -> None:
    """Run ``command`` as the postgres user (root switches to it with ``su``)."""
    if os.geteuid() == 0:
        command = ("su", "postgres", "-c", " ".join(shlex.quote(c) for c in command))
    subprocess.run(command, check=True, capture_output=True, timeout=120)


def _missing() -> str | None:
    """Why this module's own cluster cannot be made here, or None."""
    for tool in ("pg_createcluster", "pg_ctlcluster", "pg_dropcluster"):
        if shutil.which(tool) is None:
            return f"{tool} is not available (Debian's postgresql-common)"
    if os.geteuid() != 0 and getpass.getuser() != "postgres":
        return "pg_createcluster needs root or the postgres user"
    return None


@pytest.fixture(scope="module")
def server() -> Iterator[Cluster]:
    """A PostgreSQL cluster made for this module (dropped afterwards)."""
    missing = _missing()
    if missing:
        pytest.skip(missing)
    version = sorted(os.listdir("/usr/lib/postgresql"), key=float)[-1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    found = Cluster(version, f"restart{port}", port)
    subprocess.run(
        ["pg_createcluster", version, found.name, "-p", str(port)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    try:
        found.start()
        _as_postgres(
            "psql", "-p", str(port), "-q", "-v", "ON_ERROR_STOP=1", "-c",
            "CREATE ROLE twentyone LOGIN CREATEDB PASSWORD 'twentyone'",
        )  # fmt: skip
        _as_postgres("createdb", "-p", str(port), "-O", "twentyone", "twentyone")
        yield found
    finally:
        subprocess.run(
            ["pg_dropcluster", version, found.name, "--stop"], capture_output=True, timeout=120
        )


@pytest.fixture
def cluster(server: Cluster) -> Iterator[Cluster]:
    yield server
    if not server.running():
        server.start()


@pytest.fixture
def url(cluster: Cluster, tmp_path: Any) -> Iterator[str]:
    yield from database_url("postgresql", tmp_path, cluster.url())


def _wait_until(predicate: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


# hu-casino: ann TS 9C (19) against the dealer's 7H; she stands; TD: 17. +1000. Then a
# second round: ann 9S 8C (17) against 9H; she stands; 8D: 17, a push.
SHOE = "TS 9C 7H TD 9S 8C 9H 8D"


def _second_round(ann: Player) -> dict[str, Any]:
    """Play goes on: a whole round after the trouble, settled as usual."""
    ann.ok("bet", box=0, amount=1000)
    view = ann.ok("ready")
    assert view["turn"]["player"] == "ann"
    ann.send("decide", decision="stand")
    return ann.until(lambda m: m["type"] == "notice" and m["kind"] == "round-end")


def _books(client: TestClient, app: Any, token: str) -> tuple[int, list[str]]:
    me = client.get("/api/me", headers=cookie(token)).json()
    rounds = client.get("/api/rounds", headers=cookie(token)).json()
    assert app.state.ledger.audit() == []
    return me["balance"], [r["status"] for r in rounds]


def test_a_round_settles_once_when_postgresql_is_back(cluster: Cluster, url: str) -> None:
    clock = FakeClock()
    app = make_app(url, {"hu-casino": SHOE}, clock=clock)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "hu-casino", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("ready")  # the round is dealt and its stake written
            assert view["turn"]["player"] == "ann"
            with cluster.down():
                ann.send("decide", decision="stand")  # the round ends: it cannot settle
                settling = ann.until(lambda m: m["type"] == "notice")
                assert settling["kind"] == "settling", settling
                # what must write (or read the sessions) answers 503 with Retry-After
                r = client.post("/api/login", json={"username": "ann", "password": "x" * 9})
                assert r.status_code == 503 and r.headers["retry-after"] == "5", r.text
                clock.advance(1)  # a retry while the server is still down changes nothing
                time.sleep(0.3)
                assert app.state.hub.tables["hu-casino"].session.settling is not None
            # the server is back: the next retry (on a fresh connection) settles the round
            clock.advance(5)
            done = ann.until(lambda m: m["type"] == "notice" and m["kind"] == "round-end")
            assert done["net"] == {"ann": 1000}
            clock.advance(60)  # later retries find nothing to do: settled exactly once
            time.sleep(0.2)
            assert _second_round(ann)["net"] == {"ann": 0}
        balance, statuses = _books(client, app, token)
    assert balance == 101_000
    assert statuses == ["settled", "settled"]


#: ``serve --pg-synchronous-commit``: a clean restart (a fast shutdown flushes the WAL) loses
#: no round commit either way, even one that did not wait for the disk
SYNCHRONOUS = pytest.mark.parametrize("synchronous", [True, False], ids=["sync-on", "sync-off"])


@SYNCHRONOUS
def test_a_restart_between_two_steps_of_a_round_costs_nothing(
    cluster: Cluster, url: str, synchronous: bool
) -> None:
    """The server restarts while a player thinks: the connection the table's ledger keeps is
    dead, and the settlement that finds it so is written on a new one."""
    clock = FakeClock()
    app = make_app(url, {"hu-casino": SHOE}, clock=clock, pg_synchronous_commit=synchronous)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "hu-casino", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("ready")
            cluster.ctl("restart", "-m", "fast")
            ann.send("decide", decision="stand")
            while True:  # settled at once, or after one settling notice and a retry
                msg = ann.until(lambda m: m["type"] == "notice")
                if msg["kind"] == "round-end":
                    break
                assert msg["kind"] == "settling", msg
                clock.advance(1)
            assert msg["net"] == {"ann": 1000}
            assert _second_round(ann)["net"] == {"ann": 0}
        balance, statuses = _books(client, app, token)
    assert balance == 101_000
    assert statuses == ["settled", "settled"]


@SYNCHRONOUS
def test_a_restart_between_rounds_does_not_cost_the_next_round(
    cluster: Cluster, url: str, synchronous: bool
) -> None:
    """The server restarts while the table waits for bets: the next round starts as usual
    (the connection the table's ledger kept, dead since the restart, is found so before the
    round's stakes are written, not by a failed round start). The restart comes right after
    the first round's settlement: with ``synchronous_commit`` off its commit did not wait for
    the disk, and the fast shutdown's flush keeps it all the same."""
    clock = FakeClock()
    app = make_app(url, {"hu-casino": SHOE}, clock=clock, pg_synchronous_commit=synchronous)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "hu-casino", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("ready")
            ann.send("decide", decision="stand")
            assert ann.until(lambda m: m["type"] == "notice")["kind"] == "round-end"
            cluster.ctl("restart", "-m", "fast")
            time.sleep(1.1)  # the kept connection has been idle a while
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("ready")
            assert view["phase"] != "betting" and view["turn"]["player"] == "ann", view
            ann.send("decide", decision="stand")
            done = ann.until(lambda m: m["type"] == "notice")
            assert done["kind"] == "round-end" and done["net"] == {"ann": 0}, done
        balance, statuses = _books(client, app, token)
    assert balance == 101_000
    assert statuses == ["settled", "settled"]


def test_past_the_patience_the_round_is_voided_and_refunded(cluster: Cluster, url: str) -> None:
    clock = FakeClock()
    app = make_app(url, {"hu-casino": SHOE}, clock=clock)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "hu-casino", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("ready")
            with cluster.down():
                ann.send("decide", decision="stand")
                assert ann.until(lambda m: m["type"] == "notice")["kind"] == "settling"
                clock.advance(SETTLE_PATIENCE + 1)  # the patience is out: void
                void = ann.until(lambda m: m["type"] == "notice")
                assert void["kind"] == "round-void", void
                session = app.state.hub.tables["hu-casino"].session
                assert session.voids  # the refund waits for the server
            clock.advance(1)  # the server is back: the refund is written
            _wait_until(lambda: not session.voids)
            assert _second_round(ann)["net"] == {"ann": 0}
        balance, statuses = _books(client, app, token)
    assert balance == 100_000  # the voided round's stake came back, the push moved nothing
    assert sorted(statuses) == ["refunded", "settled"]


def test_issue_27_10_a_database_stop_pauses_the_cluster_and_voids_no_round(
    cluster: Cluster,
) -> None:
    # two nodes on PostgreSQL; a round is in play when the server stops for 10 s (twice a
    # lease): the tables wait, paused (the player's socket stays open and is told to try
    # again), and when the server is back the same node goes on and the round settles
    from cluster_support import Cluster as Nodes
    from cluster_support import Player, fresh_database

    with fresh_database(cluster.url()) as db:
        nodes = Nodes(db, ["p1", "p2"], [f"q{i}=pl-online" for i in range(1, 5)],
                      lease_seconds=5.0)  # fmt: skip
        try:
            for n in nodes.ports:  # no proxy: the player goes to its table's node directly
                nodes.start_node(n)
                nodes.wait_up(n)
            owners = _owned(nodes)
            table, node = sorted(owners.items())[0]
            player = Player(nodes, _register(nodes.base(node), "ann"), table)
            nodes.proxy_port = nodes.ports[node]
            player.open()
            player.send("sit")
            player.send("bet", box=0, amount=500)
            view = player.send("deal")
            with cluster.down():
                time.sleep(10)
            deadline = time.monotonic() + 30
            while True:  # paused until the node renews its lease, then the round goes on
                try:
                    while view.get("phase") != "betting":
                        actions = (view.get("turn") or {}).get("actions", [])
                        pick = next(a for a in ("stand", "no-insurance", "no-even-money")
                                    if a in actions)  # fmt: skip
                        view = player.send("decide", decision=pick)
                    break
                except RuntimeError as exc:  # "the database is unavailable: try again"
                    assert "database is unavailable" in str(exc), exc
                    assert time.monotonic() < deadline
                    time.sleep(0.5)
            assert _owned(nodes)[table] == node  # the same node deals it
            player.close()
            engine = create_engine(db)
            with engine.connect() as c:
                statuses = c.execute(text("SELECT status FROM rounds")).scalars().all()
                refunds = c.execute(
                    text("SELECT count(*) FROM ledger_entries WHERE kind = 'refund'")
                ).scalar_one()
            engine.dispose()
            assert statuses == ["settled"] and refunds == 0
        finally:
            nodes.stop()


def _owned(nodes: Any) -> dict[str, str]:
    deadline = time.monotonic() + 60
    owners: dict[str, Any] = {}
    while True:
        with contextlib.suppress(OSError):
            lobby = nodes.lobby(nodes.base("p1"))
            owners = {t: v["node"] for t, v in lobby.items()}
            if owners and all(owners.values()):
                return {t: str(n) for t, n in owners.items()}
        owners = {}
        assert time.monotonic() < deadline, owners
        time.sleep(0.2)


def _register(base: str, name: str) -> str:
    import json
    import urllib.request

    body = json.dumps({"username": name, "password": "password123"}).encode()
    req = urllib.request.Request(base + "/api/register", body, {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return str(r.headers["set-cookie"]).split(";", 1)[0]
