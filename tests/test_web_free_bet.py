"""A web table dealing Free Bet (the ``free-bet`` rule file): a free double shows the house's
stake on the hand, and the books balance with the free stake's winnings paid from the bank."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from twentyone.web.tables import TableConfig
from web_support import get, make_app, players_at, register


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/free.db"


def test_a_free_double_at_the_web_table_pays_the_house_stake(url: str) -> None:
    # ann 6S 5D (hard 11) against TH, hole 7C: the double is free and draws TD: 21 beats 17.
    # Her 1000 wins 1000 and the house's free 1000 wins 1000: +2000, nothing more staked
    tables = [TableConfig(id="fb", rules="free-bet", multi_player=False)]
    app = make_app(url, {"fb": "6S TH 5D 7C TD"}, tables=tables)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "fb", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("ready")
            assert "double" in view["turn"]["actions"]  # free: nothing to afford
            view = ann.ok("decide", decision="double")
            last = view["last_round"]
            (hand,) = last["boxes"][0]["hands"]
            assert (hand["bet"], hand["free"], hand["result"]) == (1000, 1000, "win")
            assert hand["returned"] == 3000  # her 1000 back, 1000 won, the free 1000's win
            assert last["boxes"][0]["net"] == 2000
        assert get(client, "/api/me", token)["balance"] == 100_000 + 2000
        assert app.state.ledger.audit() == []
