"""A web table whose rules double after hits, redouble and rescue (``double_after_hit``,
``redoubles``, ``rescue``): a doubled hand is asked again (stand, double, rescue), a redouble
stakes the hand's whole stake, a rescue gives back the doubles, and the books balance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from twentyone.web.tables import TableConfig
from web_support import get, make_app, players_at, register

RULES = """\
decks = 6
dealer_hits_soft_17 = true
double_after_hit = true
redoubles = 2
rescue = true
"""


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/rescue.db"


def test_a_redoubled_hand_rescued_at_the_web_table_gets_the_doubles_back(
    url: str, tmp_path: Path
) -> None:
    # ann 5S 6D (11) against TH, hole 9C: she doubles (1000) and draws 2S: 13; redoubles
    # (2000) and draws AS: 14; rescues: 3000 back, the original 1000 lost
    rules = tmp_path / "s21-actions.toml"
    rules.write_text(RULES)
    tables = [TableConfig(id="s21", rules=str(rules), multi_player=False)]
    app = make_app(url, {"s21": "5S TH 6D 9C 2S AS"}, tables=tables)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "s21", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("ready")
            view = ann.ok("decide", decision="double")
            assert view["turn"]["actions"] == ["stand", "double", "rescue"]
            view = ann.ok("decide", decision="double")
            assert view["turn"]["actions"] == ["stand", "double", "rescue"]
            (hand,) = view["boxes"][0]["hands"]
            assert (hand["bet"], hand["doubles"], hand["rescued"]) == (4000, 2, False)
            view = ann.ok("decide", decision="rescue")
            last = view["last_round"]
            (hand,) = last["boxes"][0]["hands"]
            assert (hand["bet"], hand["result"], hand["returned"]) == (4000, "rescue", 3000)
            assert hand["rescued"] and last["boxes"][0]["net"] == -1000
        assert get(client, "/api/me", token)["balance"] == 100_000 - 1000
        assert app.state.ledger.audit() == []
