"""Recall shows a player their own bankroll, nobody else's (issue 11, row 12), and the replay
it gives still plays to the round's result."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from twentyone import replay
from twentyone.web.recall import private_replay
from web_support import get, make_app, players_at, register


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'recall.db'}"


def test_row_12_a_two_player_rounds_recall_hides_the_other_wallet(url: str) -> None:
    # hu-casino deals box by box: ann TS 9C (19), bob TD 8C (18), the dealer's 7H, then 9D: 16,
    # then 5S: 21. Both lose 1000.
    app = make_app(url, {"hu-casino": "TS 9C TD 8C 7H 9D 5S"})
    with TestClient(app) as client:
        tokens = {"ann": register(client, "ann"), "bob": register(client, "bob")}
        with players_at(client, "hu-casino", tokens) as (ann, bob):
            ann.ok("sit")
            bob.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            bob.ok("bet", box=1, amount=1000)
            ann.ok("ready")
            bob.ok("ready")
            ann.view_where(lambda v: v["turn"] and v["turn"]["player"] == "ann")
            ann.ok("decide", decision="stand")
            bob.view_where(lambda v: v["turn"] and v["turn"]["player"] == "bob")
            view = bob.ok("decide", decision="stand")  # the dealer plays: the round is over
            assert view["phase"] == "betting"
            assert view["last_round"]["net"] == {"ann": -1000, "bob": -1000}
        mine = get(client, "/api/rounds?limit=1", tokens["ann"])[0]
        theirs = get(client, "/api/rounds?limit=1", tokens["bob"])[0]
    assert mine["replay"]["bankrolls"] == {"ann": 100_000, "bob": 1000}
    assert theirs["replay"]["bankrolls"] == {"ann": 1000, "bob": 100_000}
    for record in (mine, theirs):
        assert replay(record["replay"])["net"] == {"ann": -1000, "bob": -1000}


def test_a_wallet_that_decided_a_question_shows_only_as_much_as_it_took() -> None:
    # ru-online: ann and bob against the dealer's AH (hole 7C): both are asked about
    # insurance (exactly half: 500) and decline. With only his 1000 staked, bob could not have
    # covered it and would not have been asked: his wallet shows as 2000, the least amount
    # (doubling from his stake) that replays the same round, not his 1,000,000.
    data = {
        "rules": "ru-online",
        "shoe": "TS 9D AH 8C 9S 7C",
        "boxes": [{"player": "ann", "bet": 1000}, {"player": "bob", "bet": 1000}],
        "decisions": ["no-insurance", "no-insurance", "stand", "stand"],
        "bankrolls": {"ann": 5000, "bob": 1_000_000},
    }
    shown = private_replay(data, "ann")
    assert shown["bankrolls"] == {"ann": 5000, "bob": 2000}
    assert replay(shown) == replay(data)
    assert private_replay(data, "bob")["bankrolls"] == {"ann": 2000, "bob": 1_000_000}
