"""The trainers' API (``/api/train/...``): the server deals, and grades the answers from the
cards sent back; the counts are worked out here with Hi-Lo's published tags."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twentyone.analysis import basic_strategy
from twentyone.counting.trainer_cards import Flashcard, chart_play, legal_plays, load_index_list
from twentyone.engine.cards import parse_cards
from twentyone.engine.rulesets import load_rules
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


def test_the_true_count_is_rounded_down_unless_truncation_is_asked(client: TestClient) -> None:
    # one ace from two decks: -1 with 103 cards left, -0.50: down -1, toward zero 0
    body = {"table": "two", "cards": ["AS"], "running": -1, "true_count": -1}
    g = client.post("/api/train/count", json=body).json()
    assert g["true_count"]["right"] and g["true_count"]["expected"] == "-1"
    assert client.post("/api/train/count", json={**body, "rounding": "floor"}).json()["true_count"][
        "right"
    ]
    g = client.post("/api/train/count", json={**body, "rounding": "truncate"}).json()
    assert not g["true_count"]["right"] and g["true_count"]["expected"] == "0"
    r = client.post("/api/train/count", json={**body, "rounding": "up"})
    assert r.status_code == 400 and r.json()["params"]["rounding"] == "up"


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
    r = client.post("/api/train/count", json={**body, "count": "/etc/passwd"})  # never a file
    assert r.status_code == 400 and r.json()["params"]["name"] == "/etc/passwd"


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
            "rules": [],
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


def test_the_trainer_offers_every_built_in_count_and_the_published_index_sets(
    client: TestClient,
) -> None:
    got = client.get("/api/train/systems").json()
    assert got["counts"]["hilo"] == "Hi-Lo" and got["counts"]["halves"] == "Wong Halves"
    assert len(got["counts"]) == 8 and got["indices"] == ["I18", "FAB4", "I18+FAB4"]


def test_ko_and_halves_drills_are_graded(client: TestClient) -> None:
    # KO: a 2-deck shoe starts at 4 - 8 = -4, sevens count +1
    body = {"table": "two", "count": "ko", "cards": ["7H", "5C", "KD"], "running": -3}
    assert client.post("/api/train/count", json=body).json()["running"]["right"]
    # Wong Halves: 5 +1.5, 2 +0.5, 9 -0.5
    body = {"table": "two", "count": "halves", "cards": ["5H", "2C", "9D"], "running": 1.5}
    g = client.post("/api/train/count", json=body).json()
    assert g["running"] == {"given": "+3/2", "expected": "+3/2", "right": True, "rules": []}


def test_index_flashcards_of_a_published_set(client: TestClient) -> None:
    seen_tc, insurance = set(), 0
    for _ in range(30):
        c = client.get("/api/train/card", params={"table": "two", "indices": "I18"}).json()
        assert c["true_count"] is not None and c["indices"] == "I18"
        seen_tc.add(c["true_count"])
        if c["insurance"]:
            insurance += 1
            assert c["plays"] == ["insure", "no-insurance"]
            right = "insure" if c["true_count"] >= 3 else "no-insurance"
        else:
            right = None
        body = {
            key: c[key] for key in ("table", "hand", "up", "indices", "true_count", "insurance")
        }
        g = client.post("/api/train/card", json={**body, "play": right or c["plays"][0]}).json()
        assert g["rules"] and all(r in I18 for r in g["rules"])
        if right is not None:
            assert g["right"] and g["expected"] == right
    assert len(seen_tc) > 3
    # 16 against a ten at +1: stand (I18: stand from 0)
    body = {"table": "two", "hand": ["TS", "6D"], "up": "KH", "indices": "I18", "true_count": 1,
            "play": "stand"}  # fmt: skip
    assert client.post("/api/train/card", json=body).json()["right"]
    r = client.post("/api/train/card", json={**body, "true_count": None})
    assert r.status_code == 400
    r = client.get("/api/train/card", params={"table": "two", "indices": "/etc/passwd"})
    assert r.status_code in (400, 422)


I18 = [e.to_dict() for e in load_index_list("I18")]
