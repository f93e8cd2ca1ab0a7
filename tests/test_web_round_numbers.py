"""Round numbers count each table's own rounds (issue 29): a first round at a table is round 1
however many rounds other tables played before it; the database's id stays internal. The
migration numbers rounds already recorded the same way, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from twentyone.engine.ledger import MemoryLedger
from twentyone.web.storage.db import MIGRATIONS, make_engine, migrate
from web_support import BACKENDS, database_url, get, make_app, players_at, register

# ru-online (single player, hole card): TS 9D 8C 7S -> the player stands on 18 against 9D 7S = 16,
# who draws TD: bust. Two rounds at ru-online, then the first at hu-casino.
SHOES = {"ru-online": "TS 9D 8C 7S TD " * 2, "hu-casino": "TS 7D 6C 5H 9C 8D"}


@pytest.fixture(params=BACKENDS)
def url(request: Any, tmp_path: Any) -> Iterator[str]:
    yield from database_url(request.param, tmp_path)


def play_a_round(client: TestClient, table: str, token: str, name: str) -> dict[str, Any]:
    """Sit, bet 10.00 on box 1, deal, stand until the round is over; the notices and the
    finished view."""
    with players_at(client, table, {name: token}) as (p,):
        p.ok("sit")
        p.ok("bet", box=0, amount=1000)
        view = p.ok("deal" if table == "ru-online" else "ready")
        playing_number = view["round"]["number"]
        while view["phase"] == "playing":
            if view["turn"] and view["turn"]["actions"]:
                p.do("decide", decision="stand")
            view = p.view_where(lambda v: v["phase"] == "betting" or bool(v["turn"]))
        p.ok("leave")
    carried = [n for m in p.seen if m["type"] == "view" for n in m.get("notices", [])]
    (start,) = [n for n in carried if n["kind"] == "round-start"]
    return {"start": start, "playing": playing_number, "view": view}


def test_each_table_counts_its_own_rounds(url: str) -> None:
    app = make_app(url, SHOES)
    with TestClient(app) as client:
        token = register(client, "ann")
        first = play_a_round(client, "ru-online", token, "ann")
        second = play_a_round(client, "ru-online", token, "ann")
        budapest = play_a_round(client, "hu-casino", token, "ann")
        rounds = get(client, "/api/rounds", token)
        one = get(client, f"/api/rounds/{rounds[0]['id']}", token)
    assert [first["playing"], second["playing"], budapest["playing"]] == [1, 2, 1]
    assert budapest["start"]["params"] == {"round": 1}
    assert budapest["start"]["text"] == "round 1: no more bets"
    last = budapest["view"]["last_round"]
    assert last["number"] == 1 and last["id"] == 3  # the database's id: internal
    assert [(r["table"], r["number"]) for r in rounds] == [
        ("hu-casino", 1),
        ("ru-online", 2),
        ("ru-online", 1),
    ]
    assert one["number"] == 1 and one["table"] == "hu-casino"


def test_the_memory_ledger_numbers_rounds_per_table() -> None:
    ledger = MemoryLedger()
    ids = [ledger.start_round(t, "ru-online", {}, [], []) for t in ("a", "a", "b", "a", "b")]
    assert [ledger.round_number(i) for i in ids] == [1, 2, 1, 3, 2]


def test_the_migration_numbers_the_rounds_recorded_before_it(url: str) -> None:
    engine = make_engine(url)
    try:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "0007")
        rounds = sa.table(
            "rounds",
            sa.column("id"),
            sa.column("table_id"),
            sa.column("rules"),
            sa.column("status"),
            sa.column("started_at"),
            sa.column("replay", sa.JSON),
            sa.column("clock_decisions", sa.JSON),
        )
        now = datetime.now(UTC)
        with engine.begin() as conn:
            for table in ("a", "b", "a", "a", "b"):
                conn.execute(
                    rounds.insert().values(
                        table_id=table,
                        rules="ru-online",
                        status="settled",
                        started_at=now,
                        replay={},
                        clock_decisions=[],
                    )
                )
        migrate(engine)
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT table_id, number FROM rounds ORDER BY id")).all()
        assert [tuple(r) for r in rows] == [("a", 1), ("b", 1), ("a", 2), ("a", 3), ("b", 2)]
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO rounds (table_id, number, rules, status, started_at, replay, "
                    "clock_decisions) VALUES ('a', 3, 'ru-online', 'open', :now, '{}', '[]')"
                ),
                {"now": now},
            )
    finally:
        engine.dispose()


def test_a_round_without_a_number_is_refused_on_every_database(url: str) -> None:
    """NOT NULL on PostgreSQL; on SQLite the triggers of migration 0009 refuse it alike, on
    insert and on update."""
    engine = make_engine(url)
    try:
        migrate(engine)
        now = datetime.now(UTC)
        insert = (
            "INSERT INTO rounds (table_id, number, rules, status, started_at, replay, "
            "clock_decisions) VALUES ('a', {number}, 'ru-online', 'open', :now, '{{}}', '[]')"
        )
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
            conn.execute(sa.text(insert.format(number="NULL")), {"now": now})
        with engine.begin() as conn:
            conn.execute(sa.text(insert.format(number="1")), {"now": now})
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
            conn.execute(sa.text("UPDATE rounds SET number = NULL"))
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT table_id, number FROM rounds")).all()
        assert [tuple(r) for r in rows] == [("a", 1)]
    finally:
        engine.dispose()
