"""The server's fast paths stay exact: the ledger's cached balances always equal the
database's, and the views built from a shared part equal the plain views."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from twentyone.web.ledger import InsufficientFundsError, Ledger, RoundMove
from twentyone.web.storage.accounts import Accounts
from twentyone.web.storage.db import make_engine, migrate
from twentyone.web.storage.models import Account
from twentyone.web.views import dumps, table_view, table_views
from web_support import make_app, players_at, register


def db_balances(ledger: Ledger) -> dict[int, int]:
    with ledger.sessions() as s:
        return {i: b for i, b in s.execute(select(Account.id, Account.balance))}


def test_cached_balances_follow_commits_and_ignore_rollbacks(tmp_path: Any) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/cache.db")
    migrate(engine)
    ledger = Ledger(engine)
    accounts = Accounts(ledger, 1_000)
    ids = [accounts.create_player(f"p{i}", "x").id for i in range(4)]
    everyone = [*ids, ledger.house_id, ledger.bank_id]
    rng = random.Random(7)
    assert ledger.balances(everyone) == {i: db_balances(ledger)[i] for i in everyone}
    failures = 0
    for n in range(300):
        a, b = rng.sample(ids, 2)
        try:
            if n % 3 == 0:  # a round: stakes and payments against the house
                moves = [RoundMove(k, rng.choice(ids), rng.randint(-900, 900)) for k in range(3)]
                ledger.start_round("t", "ru-online", {}, ids, moves)
            elif n % 3 == 1:
                with ledger.sessions.begin() as s:
                    ledger.post(s, "stake", a, b, rng.randint(1, 700))
            else:  # money moves, then the transaction fails and rolls back
                with pytest.raises(RuntimeError), ledger.sessions.begin() as s:
                    ledger.post(s, "stake", a, ledger.house_id, 1)
                    raise RuntimeError("rolled back")
        except InsufficientFundsError:
            failures += 1
        # the cache (warm: read every time) equals the database after every transaction
        assert ledger.balances(everyone) == {i: db_balances(ledger)[i] for i in everyone}
    assert failures > 0  # refused debits (rolled back) were exercised too
    assert ledger.audit() == []


def test_table_views_equal_each_players_view(tmp_path: Any) -> None:
    # ro-casino, two players mid-round: the views sent to each player equal table_view
    app = make_app(f"sqlite:///{tmp_path}/views.db", {"ro-casino": "TS 9D 8H 7C 6S 5H 4D"})
    with TestClient(app) as client:
        tokens = {name: register(client, name) for name in ("ann", "bob")}
        with players_at(client, "ro-casino", tokens) as (ann, bob):
            for p, box in ((ann, 0), (bob, 1)):
                p.ok("sit")
                p.ok("bet", box=box, amount=1000)
            ann.ok("ready")
            view = bob.ok("ready")
            assert view["phase"] == "playing" and view["turn"] is not None
            table = app.state.hub.tables["ro-casino"]
            balances = {"ann": 99_000, "bob": 99_000}
            views = table_views(table, balances)
            for name, view in views.items():
                assert json.loads(dumps(view)) == table_view(table, name, balances[name])
            # only the player whose turn it is gets the actions
            turn = {n: v["turn"] for n, v in views.items()}
            assert turn["ann"]["actions"] and turn["bob"]["actions"] == []


def test_a_view_acknowledges_the_intentions_it_reflects_and_only_its_own(tmp_path: Any) -> None:
    # two intentions sent together: the view that reflects them names both, in order; the
    # other player's view names none; a refused one is answered by an error, not in acks
    app = make_app(f"sqlite:///{tmp_path}/acks.db")
    with TestClient(app) as client:
        tokens = {name: register(client, name) for name in ("ann", "bob")}
        with players_at(client, "ro-casino", tokens) as (ann, bob):
            ann.ok("sit")
            first = ann.send("bet", box=0, amount=500)
            second = ann.send("bet", box=0, amount=700)
            refused = ann.send("bet", box=0, amount=-1)
            acked: list[Any] = []
            while len(acked) < 2:
                msg = ann.until(lambda m: m["type"] in ("view", "error"))
                if msg["type"] == "error":
                    assert msg["id"] == refused and msg["field"] == "amount"
                else:
                    acked += msg.get("acks", [])
                    assert refused not in msg.get("acks", [])
            assert acked == [first, second]
            assert ann.view is not None and ann.view["boxes"][0]["bet"] == 1200
            seen_by_bob = bob.view_where(lambda v: v["boxes"][0]["bet"] == 1200)
            assert "acks" not in seen_by_bob


def test_serving_gc_settings_raise_the_young_threshold_and_freeze_the_heap() -> None:
    import gc

    from twentyone.web.gc_tuning import SERVING_THRESHOLDS, tune_for_serving

    before = gc.get_threshold()
    try:
        tune_for_serving()
        assert gc.get_threshold() == SERVING_THRESHOLDS != before
        assert gc.get_freeze_count() > 1000  # the heap built so far is frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_send_that_must_wait_keeps_the_order_and_the_rest_queue_behind_it() -> None:
    import asyncio

    from twentyone.web.connection import Connection

    class SlowSocket:
        """Its first send waits (a full transport buffer) until the gate opens."""

        def __init__(self) -> None:
            self.sent: list[str] = []
            self.gate = asyncio.Event()
            self.first = True

        async def send_text(self, text: str) -> None:
            if self.first:
                self.first = False
                await self.gate.wait()
            self.sent.append(text)

    async def scenario() -> None:
        ws = SlowSocket()
        conn = Connection(ws, None, None)  # type: ignore[arg-type]
        writer = asyncio.create_task(conn.writer())
        conn.send("a")  # must wait
        conn.send("b")
        conn.send({"type": "notice"})
        assert ws.sent == [] and conn.waiting
        ws.gate.set()
        for _ in range(10):
            await asyncio.sleep(0)
        assert ws.sent == ["a", "b", '{"type":"notice"}'] and not conn.waiting
        conn.send("c")  # nothing waiting: written at once, without a turn of the loop
        assert ws.sent[-1] == "c"
        conn.send(None)
        await asyncio.wait_for(writer, 1)

    asyncio.run(scenario())


def test_the_sqlite_fast_path_stores_exactly_what_core_stores(tmp_path: Any) -> None:
    # the same round money through the driver's cursor and through SQLAlchemy Core: the same
    # rows in every table (timestamps in the same format; only their values differ)
    import re
    import sqlite3

    def books(raw: bool) -> dict[str, list[tuple[Any, ...]]]:
        path = tmp_path / f"raw-{raw}.db"
        engine = make_engine(f"sqlite:///{path}")
        migrate(engine)
        ledger = Ledger(engine)
        ledger._sql.raw = raw
        ids = [Accounts(ledger, 10**6).create_player(f"u{i}", "x").id for i in range(3)]
        rid = ledger.start_round(
            "t1",
            "ro-casino",
            {"a": [1, 2]},
            ids,
            [RoundMove(i, a, -1000) for i, a in enumerate(ids)],
        )
        ledger.record_moves(rid, [RoundMove(5, ids[0], -1000)], {"a": [3]}, [1])
        # posted again (a retry): found among the keys already posted, nothing moves twice
        ledger.record_moves(rid, [RoundMove(5, ids[0], -1000)], {"a": [3]}, [1])
        ledger.settle_round(
            rid, [RoundMove(9, ids[1], 2000)], {"z": 1}, {"r": [1]}, {a: (1000, 5) for a in ids}
        )
        assert ledger.audit() == []
        ledger.close()
        engine.dispose()
        with sqlite3.connect(path) as db:
            return {
                t: db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for t in ("rounds", "round_players", "ledger_entries", "accounts")
            }

    stamp = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$")

    def masked(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        return [
            tuple("<time>" if isinstance(v, str) and stamp.match(v) else v for v in row)
            for row in rows
        ]

    fast, core = books(True), books(False)
    assert fast["rounds"][0][3] == "settled" and len(fast["ledger_entries"]) == 3 + 3 + 1 + 1
    for table in core:
        assert masked(fast[table]) == masked(core[table]), table
