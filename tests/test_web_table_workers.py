"""Issue 27, item 10: no commit blocks the event loop. With table worker threads (the default
on PostgreSQL, ``serve --table-threads``) a table's work and its ledger commits run off the
loop, one piece at a time per table: a slow commit at one table holds up nobody at another.
A real SQLite ledger whose round start is made slow (as a PostgreSQL commit is when its disk
or network is) shows it; on the loop (0 threads) the same commit holds up every table."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from twentyone.web.table_parts import TableConfig
from twentyone.web.table_workers import TableWorkers
from web_support import BACKENDS, database_url, make_app, players_at, register

SLOW = 1.0  # seconds the round start's commit takes at table "a"


def _slow_round_starts(app: Any, table_id: str) -> None:
    ledger = app.state.ledger
    start_round = ledger.start_round

    def slow(table: str, *args: Any, **kwargs: Any) -> Any:
        if table == table_id:
            time.sleep(SLOW)
        return start_round(table, *args, **kwargs)

    ledger.start_round = slow


@pytest.mark.parametrize("threads", [2, 0])
def test_a_slow_commit_at_one_table_holds_up_no_other_table(tmp_path: Any, threads: int) -> None:
    tables = [TableConfig(id="a", rules="pl-online"), TableConfig(id="b", rules="pl-online")]
    shoe = "TS 9D 7H 5C 8H 8D 8C 2S 3S 4S"
    app = make_app(
        f"sqlite:///{tmp_path}/w.db", {"a": shoe, "b": shoe}, tables=tables, table_threads=threads
    )
    assert (app.state.hub.workers is not None) == bool(threads)
    with TestClient(app) as client:
        ann, bob = register(client, "ann"), register(client, "bob")
        with (
            players_at(client, "a", {"ann": ann}) as [a],
            players_at(client, "b", {"bob": bob}) as [b],
        ):
            a.ok("sit")
            a.ok("bet", box=0, amount=1000)
            b.ok("sit")
            _slow_round_starts(app, "a")
            a.send("deal")
            time.sleep(0.2)  # the deal's commit at "a" has begun
            started = time.monotonic()
            answer = b.do("bet", box=0, amount=500)
            took = time.monotonic() - started
            assert answer["type"] == "ack", answer
            if threads:
                assert took < SLOW / 2, took  # answered while "a" still commits
            else:
                assert took > SLOW / 2, took  # on the loop: "b" waited for "a"'s commit
            dealt = a.view_where(lambda v: v["phase"] != "betting" or v["last_round"])
            assert dealt["boxes"][0]["hands"][0]["cards"][:2] == ["TS", "7H"]


def test_a_table_s_work_runs_in_order_and_its_messages_go_out_on_the_loop() -> None:
    import asyncio
    import threading

    from twentyone.web.connection import OUTBOX, Connection

    sent: list[tuple[str, Any]] = []

    class Recorder(Connection):
        """A connection whose socket is a list: what reaches it, and from which thread."""

        def __init__(self) -> None:  # only what send() reads
            self.failed = False
            self.waiting = False

        def send(self, message: Any) -> None:
            if getattr(OUTBOX, "box", None) is not None:
                super().send(message)  # in a worker: into its outbox
            else:
                sent.append((threading.current_thread().name, message))

    workers = TableWorkers(3)
    order: list[int] = []
    conn = Recorder()

    def piece(i: int) -> str:
        time.sleep(0.01 * (5 - i))  # later pieces are quicker: only the turn keeps order
        order.append(i)
        conn.send({"i": i})
        return threading.current_thread().name

    async def main() -> list[str]:
        return await asyncio.gather(*(workers.run("t", piece, i) for i in range(5)))

    names = asyncio.run(main())
    workers.close()
    assert order == [0, 1, 2, 3, 4]
    assert all(n.startswith("twentyone-table") for n in names)
    assert [m for _, m in sent] == [f'{{"i":{i}}}' for i in range(5)]  # encoded in the thread
    assert {t for t, _ in sent} == {threading.main_thread().name}  # written on the loop
    with pytest.raises(ValueError, match="table worker threads 0"):
        TableWorkers(0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_default_threads_are_the_postgresql_connections_and_none_on_sqlite(
    tmp_path: Any, backend: str
) -> None:
    # PostgreSQL: one thread per connection the node may hold (pool + overflow), so tables
    # whose threads wait for the round connection leave threads to the others; SQLite: none
    for url in database_url(backend, tmp_path):
        app = make_app(url, {}, db_pool_size=3, db_max_overflow=4)
        workers = app.state.hub.workers
        if backend == "sqlite":
            assert workers is None
        else:
            assert workers is not None and workers.threads == 3 + 4
            workers.close()
        app.state.engine.dispose()
