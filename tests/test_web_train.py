"""The trainers' API (``/api/train/...``): the server deals, and grades the answers from the
cards sent back; the counts are worked out here with Hi-Lo's published tags."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twentyone.analysis import basic_strategy
from twentyone.cards import parse_cards
from twentyone.rulesets import load_rules
from twentyone.trainer_cards import Flashcard, chart_play, legal_plays
from twentyone.web.tables import TableConfig
from web_support import make_app

HILO = {**dict.fromkeys("23456", 1), **dict.fromkeys("789", 0), **dict.fromkeys("TJQKA", -1)}
TABLES = [TableConfig(id="pt", rules="pt-casino"), TableConfig(id="two", rules="2D S17 LS")]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(f"sqlite:///{tmp_path}/t.db", tables=TABLES)) as c:
        yield c


def test_a_count_question_deals_from_a_new_shoe_of_the_tables_decks(client: TestClient) -> None:
    q = client.get("/api/train/count", params={"table": "two", "cards": 12}).json()
    assert q["table"] == "two" and q["count"] == "Hi-Lo" and q["decks"] == 2
    assert len(q["cards"]) == 12 and q["cards_left"] == 104 - 12
    assert q["decks_left"] == pytest.approx(92 / 52)
    assert max(Counter(q["cards"]).values()) <= 2  # no card more often than in two decks
    # shuffled anew each time (a cryptographic shuffle: two equal deals are a 1e-20 chance)
    assert client.get("/api/train/count", params={"table": "two"}).json()["cards"] != q["cards"]


def test_the_server_grades_a_count_from_the_cards_sent(client: TestClient) -> None:
    q = client.get("/api/train/count", params={"table": "two", "cards": 20}).json()
    rc = sum(HILO[c[0]] for c in q["cards"])
    tc = (rc * 52) // (104 - 20)
    body = {"table": "two", "cards": q["cards"], "running": rc, "true_count": tc}
    g = client.post("/api/train/count", json=body).json()
    assert g["running"]["right"] and g["true_count"]["right"] and g["cards_left"] == 84
    wrong = client.post("/api/train/count", json={**body, "running": rc + 1, "true_count": None})
    g = wrong.json()
    assert not g["running"]["right"] and g["true_count"] is None
    assert g["running"]["expected"] == (f"+{rc}" if rc > 0 else str(rc))


def test_count_refusals_name_the_problem(client: TestClient) -> None:
    r = client.get("/api/train/count", params={"table": "nope"})
    assert r.status_code == 404 and r.json()["message"] == "no table {table!r}"
    assert client.get("/api/train/count", params={"table": "two", "cards": 53}).status_code == 400
    body = {"table": "two", "cards": ["AS", "AS", "AS"], "running": -3}
    r = client.post("/api/train/count", json=body)
    assert r.status_code == 400
    assert r.json()["detail"] == "card AS appears more often than in 2 decks"
    r = client.post("/api/train/count", json={**body, "cards": ["ZZ"]})
    assert r.status_code == 400 and "bad rank 'Z'" in r.json()["detail"]
    r = client.post("/api/train/count", json={**body, "count": "zen"})
    assert r.status_code == 400 and r.json()["params"]["name"] == "zen"


def test_a_flashcard_offers_the_plays_the_rules_give_and_is_graded_by_the_chart(
    client: TestClient,
) -> None:
    rules = load_rules("pt-casino")
    chart = basic_strategy(rules)
    for _ in range(12):
        c = client.get("/api/train/card", params={"table": "pt"}).json()
        hand, up = parse_cards(" ".join(c["hand"])), parse_cards(c["up"])[0]
        assert c["plays"] == list(legal_plays(rules, hand, up))
        right = chart_play(chart, rules, hand, up)
        assert Flashcard(hand=hand, up=up)  # a card the library can draw
        body = {"table": "pt", "hand": c["hand"], "up": c["up"], "play": right}
        assert client.post("/api/train/card", json=body).json() == {
            "given": right,
            "expected": right,
            "right": True,
        }
        other = "stand" if right != "stand" else "hit"
        g = client.post("/api/train/card", json={**body, "play": other}).json()
        assert not g["right"] and g["expected"] == right


def test_flashcard_refusals(client: TestClient) -> None:
    body = {"table": "pt", "hand": ["AS", "KD"], "up": "5C", "play": "stand"}
    r = client.post("/api/train/card", json=body)
    assert r.status_code == 400 and "not a blackjack" in r.json()["detail"]
    r = client.post("/api/train/card", json={**body, "hand": ["TS", "6D"], "play": "fly"})
    assert r.status_code == 400 and r.json()["message"].startswith("{text!r} is not a play")
    assert client.post("/api/train/card", json={**body, "table": "x"}).status_code == 404


def test_the_trainer_page_is_served_without_inline_script(client: TestClient) -> None:
    page = client.get("/").text
    assert 'id="trainer-view"' in page and 'href="#/train"' in page
    assert "<script>" not in page
    js = client.get("/static/trainer.js")
    assert js.status_code == 200 and "/api/train/count" in js.text
    assert client.get("/static/trainer.css").status_code == 200


def test_a_cluster_node_trains_on_tables_it_does_not_deal(client: TestClient) -> None:
    # a node without the table's lease has no live table, but knows every table's rules
    client.app.state.hub.tables.pop("two")  # type: ignore[attr-defined]
    q = client.get("/api/train/count", params={"table": "two", "cards": 4}).json()
    assert q["decks"] == 2 and len(q["cards"]) == 4
