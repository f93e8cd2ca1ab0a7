"""A web table dealing Blackjack Switch (the ``switch`` rule file): a pair's switch question
with its Switch and Keep answers, the swapped cards on the table, unequal bets refused when the
player says ready, and the books balanced."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from twentyone.web.tables import TableConfig
from web_support import get, make_app, players_at, register


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/switch.db"


def test_a_pair_switches_its_second_cards_at_the_web_table(url: str) -> None:
    # ann's boxes: A-7 and 9-K against T up, 9 in the hole. Switching makes A-K (a plain 21,
    # paid 1:1) and 9-7 (16, stands and loses to 19): net 0
    tables = [TableConfig(id="sw", rules="switch", multi_player=False)]
    app = make_app(url, {"sw": "AS 9H TD 7C KS 9D"}, tables=tables)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "sw", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("bet", box=1, amount=1000)
            view = ann.ok("ready")
            turn = view["turn"]
            assert (turn["kind"], turn["box"], turn["partner"]) == ("switch", 0, 1)
            assert turn["actions"] == ["switch", "keep"]
            assert view["dealer"]["cards"] == ["TD"]  # the hole card stays on the server
            view = ann.ok("decide", decision="switch")
            first, second = (view["boxes"][b]["hands"][0] for b in (0, 1))
            assert (first["cards"], first["switched"]) == (["AS", "KS"], True)
            assert (second["cards"], second["switched"]) == (["9H", "7C"], True)
            assert view["turn"]["kind"] == "play" and view["turn"]["box"] == 1
            view = ann.ok("decide", decision="stand")
            last = view["last_round"]
            results = [last["boxes"][b]["hands"][0]["result"] for b in (0, 1)]
            assert results == ["win", "lose"]
            assert last["boxes"][0]["hands"][0]["returned"] == 2000  # 1:1, not a blackjack
        assert get(client, "/api/me", token)["balance"] == 100_000
        assert app.state.ledger.audit() == []


def test_unequal_bets_on_a_pair_are_refused_at_ready(url: str) -> None:
    tables = [TableConfig(id="sw", rules="switch", multi_player=False)]
    app = make_app(url, {"sw": "AS 9H TD 7C KS 9D"}, tables=tables)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "sw", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("bet", box=1, amount=500)
            err = ann.do("ready")
            assert err["type"] == "error" and err["code"] == "switch-unequal-bets"
            assert "1000 and 500" in err["error"]
            ann.ok("bet", box=1, amount=500)
            view = ann.ok("ready")
            assert view["turn"]["kind"] == "switch"
