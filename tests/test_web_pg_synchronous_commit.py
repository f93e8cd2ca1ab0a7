"""``serve --pg-synchronous-commit off`` (issue 27, item 10): on PostgreSQL the round
transactions (a round's start, payments, settlement) set ``synchronous_commit = off`` for
themselves, and nothing else does; the option is refused for a bad value, and on SQLite.

The PostgreSQL tests run when ``TWENTYONE_TEST_POSTGRES_URL`` is set; the setting is read
with ``SHOW synchronous_commit`` inside a round transaction on the ledger's own connection.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from twentyone.cli import main
from twentyone.web.ledger import Ledger, RoundMove
from twentyone.web.storage.accounts import Accounts
from twentyone.web.storage.db import make_engine, migrate
from web_support import POSTGRES_ENV, database_url, make_app, players_at, register

needs_postgres = pytest.mark.skipif(
    not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set"
)
SHOW = text("SHOW synchronous_commit")


def _in_a_round_transaction(ledger: Ledger, table_id: str = "t") -> str:
    """``synchronous_commit`` as a round transaction of the ledger sees it."""
    with ledger._round_transaction(table_id) as conn:
        return str(ledger._sql.run(conn, SHOW, {}, fetch=True).scalar_one())


def _outside(ledger: Ledger) -> str:
    """``synchronous_commit`` on another connection of the same engine (the pool's)."""
    with ledger.engine.connect() as conn:
        return str(conn.execute(SHOW).scalar_one())


@pytest.fixture
def pg_url(tmp_path: Any) -> Iterator[str]:
    yield from database_url("postgresql", tmp_path)


@needs_postgres
@pytest.mark.parametrize("pipelined", [True, False], ids=["pipeline", "no-pipeline"])
@pytest.mark.parametrize("synchronous", [True, False], ids=["on", "off"])
def test_the_round_transactions_and_only_they_commit_asynchronously_when_asked(
    pg_url: str, synchronous: bool, pipelined: bool
) -> None:
    engine = make_engine(pg_url)
    migrate(engine)
    ledger = Ledger(engine, synchronous_commit=synchronous)
    # a driver without pipeline mode: the same setting, as a statement of its own
    ledger._sql.pipelined = ledger._sql.pipelined and pipelined
    try:
        expected = "on" if synchronous else "off"
        assert _in_a_round_transaction(ledger) == expected
        # a cluster node's transactions begin with the lease check (the fence), before the
        # pipeline opens: the setting is there all the same
        ledger.fence = lambda conn, table_id, round_id: None
        assert _in_a_round_transaction(ledger) == expected
        # the setting is the transaction's: the kept connection's next use outside a round
        # transaction, and the pool's other connections, keep the server's default
        assert _outside(ledger) == "on"
        kept = ledger._round_conn
        assert kept is not None
        with kept.begin():
            assert kept.execute(SHOW).scalar_one() == "on"
        # and the round's money is written as ever
        ann = Accounts(ledger, 1_000).create_player("ann", "x")
        round_id = ledger.start_round("t", "ru-online", {}, [ann.id], [RoundMove(0, ann.id, -100)])
        result = {"boxes": [{"player": "ann", "hands": [{"result": "win"}]}], "net": {"ann": 100}}
        assert ledger.settle_round(
            round_id, [RoundMove(1, ann.id, 200)], {}, result, {ann.id: (100, 100)}
        )
        assert ledger.balance(ann.id) == 1_100 and ledger.audit() == [] and ledger.total() == 0
    finally:
        ledger.close()
        engine.dispose()


@needs_postgres
@pytest.mark.parametrize("synchronous", [True, False], ids=["on", "off"])
def test_the_app_s_option_reaches_the_ledger_of_its_tables(pg_url: str, synchronous: bool) -> None:
    # ann 10 + 9 (19) against the dealer's 7, who draws a 10 (17): she stands and wins 1000
    app = make_app(pg_url, {"hu-casino": "TS 9C 7H TD"}, pg_synchronous_commit=synchronous)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "hu-casino", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("ready")
            ann.send("decide", decision="stand")
            done = ann.until(lambda m: m["type"] == "notice" and m["kind"] == "round-end")
            assert done["net"] == {"ann": 1000}
        ledger = app.state.ledger
        assert _in_a_round_transaction(ledger, "hu-casino") == ("on" if synchronous else "off")
        assert _outside(ledger) == "on"
        assert ledger.audit() == []


def test_create_app_refuses_asynchronous_commits_on_sqlite(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="needs a PostgreSQL database"):
        make_app(f"sqlite:///{tmp_path}/web.db", pg_synchronous_commit=False)


def test_serve_refuses_a_bad_pg_synchronous_commit_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--pg-synchronous-commit", "maybe"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "--pg-synchronous-commit" in last and "'maybe'" in last, err
    assert "'on', 'off'" in last and "Traceback" not in err


def test_serve_refuses_pg_synchronous_commit_off_on_sqlite(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    url = f"sqlite:///{tmp_path}/web.db"
    argv = ["serve", "--port", "8123", "--database-url", url, "--pg-synchronous-commit", "off"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert err.startswith("twentyone: error: --pg-synchronous-commit off needs a PostgreSQL")
    assert url in err
    assert not (tmp_path / "web.db").exists()  # refused before the database was opened
