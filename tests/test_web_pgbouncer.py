"""The web table behind Debian's PgBouncer in transaction mode (issue 27, item 10): two
server processes on one database through a PgBouncer whose every transaction may land on
another server connection play rounds side by side, and the books balance."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from cluster_support import free_port, fresh_database
from web_support import POSTGRES_ENV, get, make_app, players_at, register

pytestmark = pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} unset")

SHOW = text("SHOW synchronous_commit")
PGBOUNCER = shutil.which("pgbouncer") or (
    "/usr/sbin/pgbouncer" if os.path.exists("/usr/sbin/pgbouncer") else None
)


@pytest.fixture
def bouncer() -> Iterator[str]:
    """A fresh database behind a PgBouncer in transaction mode (two server connections, so
    consecutive transactions of one client move between them); its URL."""
    if PGBOUNCER is None:
        if os.environ.get("CI"):
            pytest.fail("pgbouncer is missing (apt-get install pgbouncer)")
        pytest.skip("pgbouncer is missing (apt-get install pgbouncer)")
    base = urlsplit(os.environ[POSTGRES_ENV])
    work = Path(tempfile.mkdtemp(prefix="twentyone-pgbouncer-"))
    work.chmod(0o755)
    port = free_port()
    (work / "userlist.txt").write_text(f'"{base.username}" "{base.password}"\n')
    (work / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={base.hostname} port={base.port or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = scram-sha-256\nauth_file = {work}/userlist.txt\n"
        "pool_mode = transaction\ndefault_pool_size = 2\nmax_client_conn = 200\n"
        f"logfile = {work}/pgbouncer.log\npidfile = {work}/pgbouncer.pid\n"
        "ignore_startup_parameters = extra_float_digits,options\n"
    )
    as_root = os.geteuid() == 0  # PgBouncer will not run as root: it switches user
    if as_root:
        shutil.chown(work, "postgres")
        for f in work.iterdir():
            shutil.chown(f, "postgres")
    cmd = [PGBOUNCER, *(["-u", "postgres"] if as_root else []), f"{work}/pgbouncer.ini"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        with fresh_database(os.environ[POSTGRES_ENV]) as direct:
            name = urlsplit(direct).path
            url = f"postgresql://{base.username}:{base.password}@127.0.0.1:{port}{name}"
            _wait_for(url)
            yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def _wait_for(url: str) -> None:
    import psycopg

    deadline = time.monotonic() + 20
    while True:
        try:
            with psycopg.connect(url, connect_timeout=2) as c:
                c.execute("SELECT 1")
                return
        except psycopg.OperationalError:
            assert time.monotonic() < deadline, "pgbouncer did not come up"
            time.sleep(0.1)


def _round(player: Any) -> dict[str, Any]:
    player.ok("bet", box=0, amount=100)
    view: dict[str, Any] = player.ok("deal")
    assert view["round"] is not None or view["last_round"] is not None, view
    while view["phase"] == "playing":
        if view["turn"] is None:  # the round moves on by itself: the next view
            view = player.until(lambda m: m["type"] == "view")
            continue
        actions = view["turn"]["actions"]
        pick = next(a for a in ("stand", "no-insurance", "no-even-money") if a in actions)
        view = player.ok("decide", decision=pick)
    return view


@pytest.mark.parametrize("synchronous", [True, False], ids=["sync-on", "sync-off"])
def test_two_nodes_play_through_pgbouncer_in_transaction_mode(
    bouncer: str, synchronous: bool
) -> None:
    # serve --pg-synchronous-commit off: the round transactions' SET LOCAL goes through the
    # bouncer (a startup `options` would not: this one ignores it), and stays in its transaction
    shoes = {t: "TS 9D 7H 8C " * 12 for t in ("pl-online", "ru-online")}  # 17 against 17
    with (
        TestClient(make_app(bouncer, shoes, pg_synchronous_commit=synchronous)) as a,
        TestClient(make_app(bouncer, shoes, pg_synchronous_commit=synchronous)) as b,
    ):
        ann, bob = register(a, "ann"), register(b, "bob")
        with (
            players_at(a, "pl-online", {"ann": ann}) as (pa,),
            players_at(b, "ru-online", {"bob": bob}) as (pb,),
        ):
            pa.ok("sit")
            pb.ok("sit")
            for _ in range(12):  # more than a driver's prepare threshold (5) of each query
                _round(pa)
                _round(pb)
        ledger = a.app.state.ledger  # type: ignore[attr-defined]
        assert ledger.audit() == [] and ledger.total() == 0
        with ledger._round_transaction("pl-online") as conn:
            seen = ledger._sql.run(conn, SHOW, {}, fetch=True).scalar_one()
        assert seen == ("on" if synchronous else "off")
        for _ in range(4):  # the two server connections the bouncer shares keep the default
            with ledger.engine.connect() as conn:
                assert conn.execute(SHOW).scalar_one() == "on"
        assert len(get(a, "/api/rounds?limit=100", ann)) == 12
        assert len(get(b, "/api/rounds?limit=100", bob)) == 12
