"""One table at a time per account across a cluster (issue 27, item 3): the seat is claimed in
the database, so a second node refuses an account seated at the first node's table."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from twentyone.web.storage.models import SeatClaim
from web_support import BACKENDS, database_url, make_app, players_at, register


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    yield from database_url(request.param, tmp_path)


def _claims(url: str) -> dict[int, str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {a: t for a, t in conn.execute(select(SeatClaim.account_id, SeatClaim.table_id))}
    finally:
        engine.dispose()


def test_issue_27_3_an_account_sits_at_one_table_across_nodes(url: str) -> None:
    # Two server processes on one database, as two nodes (each deals its own table here).
    with TestClient(make_app(url)) as node_a, TestClient(make_app(url)) as node_b:
        token = register(node_a, "ann")
        with players_at(node_a, "pl-online", {"ann": token}) as (ann_a,):
            ann_a.ok("sit")
            assert list(_claims(url).values()) == ["pl-online"]
            with players_at(node_b, "ru-online", {"ann": token}) as (ann_b,):
                refused = ann_b.do("sit")
                assert refused["type"] == "error"
                assert refused["message"] == "you are seated at table {table}: leave it first"
                assert refused["params"] == {"table": "pl-online"}
                ann_a.ok("leave")  # the seat is freed in the database too
                assert _claims(url) == {}
                ann_b.ok("sit")
                assert list(_claims(url).values()) == ["ru-online"]


def test_issue_27_3_a_table_coming_alive_frees_the_seats_its_last_holder_left(url: str) -> None:
    with TestClient(make_app(url)) as node_a:
        token = register(node_a, "ann")
        with players_at(node_a, "pl-online", {"ann": token}) as (ann,):
            ann.ok("sit")
            assert list(_claims(url).values()) == ["pl-online"]
            # node a stops dealing pl-online without freeing its seats (a crash); another
            # process that takes the table frees them, and ann may sit anywhere again
            with TestClient(make_app(url)) as node_b:
                assert _claims(url) == {}
                with players_at(node_b, "ru-online", {"ann": token}) as (ann_b,):
                    ann_b.ok("sit")
