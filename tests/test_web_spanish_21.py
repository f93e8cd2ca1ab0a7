"""A web table dealing Spanish 21 (the ``spanish-21`` rule file): a five-card 21 is paid its
bonus, shown as its result, and the books balance; the shoe is counted in Spanish decks."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from twentyone.web.tables import TableConfig
from web_support import get, make_app, players_at, register


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/s21.db"


def test_a_five_card_21_at_the_web_table_pays_its_bonus(url: str) -> None:
    # ann 2S 3D against 9C, hole 8H (17); she hits 4H, 5C, 7S: a five-card 21, paid 3 to 2
    tables = [TableConfig(id="s21", rules="spanish-21", multi_player=False)]
    app = make_app(url, {"s21": "2S 9C 3D 8H 4H 5C 7S"}, tables=tables)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "s21", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("ready")
            assert view["shoe"]["size"] == 6 * 48  # six Spanish decks
            ann.ok("decide", decision="hit")
            ann.ok("decide", decision="hit")
            view = ann.ok("decide", decision="hit")
            last = view["last_round"]
            (hand,) = last["boxes"][0]["hands"]
            assert (len(hand["cards"]), hand["total"], hand["result"]) == (5, 21, "bonus-21")
            assert hand["returned"] == 2500 and last["boxes"][0]["net"] == 1500
        assert get(client, "/api/me", token)["balance"] == 100_000 + 1500
        assert app.state.ledger.audit() == []
