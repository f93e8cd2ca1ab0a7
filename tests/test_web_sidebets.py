"""A web table built from a rules file with side bets (examples/rules/side-bets.toml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from twentyone.web.tables import TableConfig
from web_support import get, make_app, players_at, register

EXAMPLE = str(Path(__file__).parent.parent / "examples" / "rules" / "side-bets.toml")


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/sides.db"


def test_side_bets_from_a_rules_file_are_offered_staked_and_paid(url: str) -> None:
    # ann 7H 7D (a coloured pair, 12 to 1) against 8H (no 21+3 hand), hole TC: she stands on
    # 14 and loses 1000; Perfect Pairs 500 returns 6500, 21+3 200 is lost: net +4800.
    tables = [TableConfig(id="sides", rules=EXAMPLE, multi_player=False)]
    app = make_app(url, {"sides": "7H 8H 7D TC"}, tables=tables)
    with TestClient(app) as client:
        token = register(client, "ann")
        (info,) = get(client, "/api/tables", token)
        assert [(b["id"], b["kind"], b["title"]) for b in info["side_bets"]] == [
            ("perfect-pairs", "perfect-pairs", "Perfect Pairs"),
            ("21-3", "21+3", "21+3"),
        ]
        assert info["side_bets"][1]["lines"][1] == {
            "line": "straight-flush",
            "title": "straight flush",
            "pays": "40",
        }
        with players_at(client, "sides", {"ann": token}) as (ann,):
            ann.ok("sit")
            err = ann.do("bet", box=0, amount=100, side="lucky")
            assert err["field"] == "side" and "perfect-pairs, 21-3" in err["error"]
            ann.ok("bet", box=0, amount=1000)
            ann.ok("bet", box=0, amount=500, side="perfect-pairs")
            view = ann.ok("bet", box=0, amount=200, side="21-3")
            assert view["boxes"][0]["side_bets"] == {"perfect-pairs": 500, "21-3": 200}
            assert view["you"]["pending"] == 1700
            assert [b["id"] for b in view["table"]["side_bets"]] == ["perfect-pairs", "21-3"]
            view = ann.ok("ready")
            assert view["phase"] == "playing"
            box = view["boxes"][0]
            assert box["side_bets"] == {"perfect-pairs": 500, "21-3": 200}
            assert box["side_paid"] == {"perfect-pairs": 6500, "21-3": 0}  # paid after the deal
            view = ann.ok("decide", decision="stand")
            assert view["last_round"]["net"] == {"ann": 4800}
        assert get(client, "/api/me", token)["balance"] == 100_000 + 4800
        assert app.state.ledger.audit() == []
