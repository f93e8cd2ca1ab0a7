"""The web table's facts and a player's statistics (issue 15 items 1 and 3): each table's
name and country from its rules file's ``[house]``, the rule card as sections, the shoe and
discard tray counts in the view, statistics kept by the server per account (they survive a
new login, a restart, and the migration fills them from rounds already played), recall's
decisions with their box and hand, and the favicon."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from twentyone.engine.errors import RulesError
from twentyone.engine.house import House, split_house
from twentyone.engine.rulesets import PRESETS, load_house, load_rules
from twentyone.web.storage.db import MIGRATIONS, make_engine
from twentyone.web.tables import TableConfig
from web_support import get, make_app, players_at, register

HOUSES = {
    "ro-casino": ("Bucharest Casino", "RO"),
    "pl-online": ("Warsaw Online", "PL"),
    "pt-casino": ("Lisbon Casino", "PT"),
    "hu-casino": ("Budapest Casino", "HU"),
    "ru-online": ("Moscow Online", "RU"),
}
# hu-casino deals box by box, no hole card: ann TS 9C = 19 against the dealer's 7H, 9D = 16,
# then 5S = 21: ann loses 10.00. Round 2: ann TS 9C again, dealer 7H TD = 17: ann wins.
HU_SHOE = "TS 9C 7H 9D 5S" + " TS 9C 7H TD"


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'facts.db'}"


def test_every_preset_names_its_house_and_country_as_data() -> None:
    for preset in PRESETS:
        house = load_house(preset)
        assert house is not None and (house.name, house.country) == HOUSES[preset]
        load_rules(preset)  # the [house] table is not a rule: the rules load as before
    assert load_house("6D S17") is None


def test_a_bad_house_is_refused_naming_the_field() -> None:
    with pytest.raises(RulesError, match=r"house\.country='Romania'"):
        House(name="Bucharest Casino", country="Romania")
    with pytest.raises(RulesError, match=r"house\.house="):
        split_house({"house": {"name": "x"}})


def test_the_lobby_shows_names_countries_and_the_rule_card_as_sections(url: str) -> None:
    tables = [TableConfig(id=p, rules=p) for p in PRESETS] + [
        TableConfig(id="mine", rules="ro-casino", name="Kitchen Table", country="GB")
    ]
    with TestClient(make_app(url, tables=tables)) as client:
        token = register(client, "ann")
        lobby = {t["id"]: t for t in get(client, "/api/tables?lang=ro", token)}
    for preset, (name, country) in HOUSES.items():
        assert (lobby[preset]["name"], lobby[preset]["country"]) == (name, country)
    assert (lobby["mine"]["name"], lobby["mine"]["country"]) == ("Kitchen Table", "GB")
    sections = lobby["hu-casino"]["rule_sections"]
    assert sections[0]["title"] == "Jocul"  # the sections in the asked language
    assert all(s["lines"] and "=====" not in " ".join(s["lines"]) for s in sections)
    assert "No surrender." not in str(sections)
    assert [s["title"] for s in sections] == [
        line for line in lobby["hu-casino"]["rule_card"].splitlines()
        if line and not line.startswith((" ", "=")) and line != "hu-casino"
    ]  # fmt: skip


def test_the_view_carries_the_shoe_and_discard_tray_of_a_cut_card_game(url: str) -> None:
    with TestClient(make_app(url, {"hu-casino": HU_SHOE, "pt-casino": ""})) as client:
        tokens = {"ann": register(client, "ann")}
        with players_at(client, "hu-casino", tokens) as (ann,):
            view = ann.ok("sit")
            assert view["shoe"] == {
                "kind": "cut-card",
                "size": 312,
                "left": 9,
                "discards": 303,
                "cut": False,
            }  # fmt: skip  (a stacked shoe of 9 cards)
            assert view["table"]["name"] == "Budapest Casino"
            assert view["table"]["country"] == "HU"
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("ready")
            if view["phase"] != "playing":
                view = ann.view_where(lambda v: v["phase"] == "playing")
            assert view["shoe"]["left"] == 6  # three cards out: two to ann, one to the dealer
        with players_at(client, "ro-casino", {"bob": register(client, "bob")}) as (bob,):
            shoe = bob.ok("sit")["shoe"]
            assert shoe["kind"] == "continuous" and shoe["left"] is None  # a shuffler: no count


def play_hu_round(ann: Any) -> dict[str, Any]:
    ann.ok("bet", box=0, amount=1000)
    if not ann.ok("ready")["turn"]:
        ann.view_where(lambda v: v["turn"] and v["turn"]["player"] == "ann")
    view: dict[str, Any] = ann.ok("decide", decision="stand")
    return view


def test_statistics_are_kept_by_the_server_across_logins_and_restarts(url: str) -> None:
    with TestClient(make_app(url, {"hu-casino": HU_SHOE})) as client:
        tokens = {"ann": register(client, "ann")}
        assert get(client, "/api/me/stats", tokens["ann"])["rounds"] == 0
        with players_at(client, "hu-casino", tokens) as (ann,):
            ann.ok("sit")
            assert play_hu_round(ann)["last_round"]["net"] == {"ann": -1000}
            assert play_hu_round(ann)["last_round"]["net"] == {"ann": 1000}
        again = client.post("/api/login", json={"username": "ann", "password": "password123"})
        assert again.status_code == 200  # a new login: the server's numbers, not the page's
        stats = client.get("/api/me/stats").json()
    assert stats == {
        "rounds": 2, "hands": 2, "won": 1, "pushed": 0, "lost": 1, "blackjacks": 0,
        "staked": 2000, "net": 0, "best": 1000, "worst": -1000,
    }  # fmt: skip
    with TestClient(make_app(url, {})) as client:  # a restart: the same numbers
        token = client.post("/api/login", json={"username": "ann", "password": "password123"})
        assert token.status_code == 200
        assert client.get("/api/me/stats").json() == stats


def test_the_migration_fills_statistics_from_the_rounds_already_played(url: str) -> None:
    with TestClient(make_app(url, {"hu-casino": HU_SHOE})) as client:
        tokens = {"ann": register(client, "ann")}
        with players_at(client, "hu-casino", tokens) as (ann,):
            ann.ok("sit")
            play_hu_round(ann)
            play_hu_round(ann)
        before = get(client, "/api/me/stats", tokens["ann"])
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "0003")
        assert "player_stats" not in sa.inspect(connection).get_table_names()
        command.upgrade(cfg, "head")
    engine.dispose()
    with TestClient(make_app(url, {})) as client:
        assert get(client, "/api/me/stats", tokens["ann"]) == before


def test_recall_names_each_decisions_box_and_hand(url: str) -> None:
    # ru-online (up to 5 boxes, hole card): ann bets on boxes 1 and 2: 8S 8D (box 1) and
    # TC 7H (box 2), dealer 6C (hole 9S). Box 1 splits: 8S 3C, 8D 2D (each hand's second
    # card comes when play reaches it). The dealer's 6C 9S TS busts.
    shoe = "8S TC 6C 8D 7H 9S 3C 2D TS TH"
    with TestClient(make_app(url, {"ru-online": shoe})) as client:
        tokens = {"ann": register(client, "ann")}
        with players_at(client, "ru-online", tokens) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.ok("bet", box=1, amount=1000)
            view = ann.ok("deal")
            for decision in ("split", "stand", "stand", "stand"):
                t = view["turn"]
                view = ann.ok("decide", decision=decision, box=t["box"], hand=t["hand"])
        record = get(client, "/api/rounds?limit=1", tokens["ann"])[0]
    where = [(s["box"], s["hand"], s["decision"]) for s in record["steps"]]
    assert where == [(0, 0, "split"), (0, 0, "stand"), (0, 1, "stand"), (1, 0, "stand")]
    assert record["steps"][1]["cards"] == ["8S", "3C"]
    assert record["steps"][0]["dealer"] == ["6C"]


def test_the_favicon_is_served() -> None:
    with TestClient(make_app("sqlite://", {})) as client:
        r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.content.startswith(b"<svg")
