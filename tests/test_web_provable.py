"""A provably fair shoe at the web table (issue 11, item 10): the commitment is in every view
before the cards come, seated players add seeds, the revealed shoe and its rounds' cards are
served, and ``twentyone verify`` checks them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from twentyone.web.app import create_app
from twentyone.web.tables import TableConfig
from web_support import FAST_HASHER, FakeClock, Player, players_at, register


def test_a_provable_table_deals_the_committed_shoe_and_verify_checks_it(tmp_path: Path) -> None:
    # one deck, continuous shuffle: every round is a shoe of its own, revealed after it
    config = TableConfig(id="fair", rules="1D S17 CSM", shuffle="provable")
    app = create_app(
        f"sqlite:///{tmp_path / 'fair.db'}",
        tables=[config],
        clock=FakeClock(),
        password_hasher=FAST_HASHER,
        analysis=False,
        tick_interval=0.01,
    )
    commitments = []
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "fair", {"ann": token}) as (ann,):
            view = ann.ok("sit")
            err = ann.do("seed", seed="x" * 65)
            assert err["type"] == "error" and err["field"] == "seed"
            view = ann.ok("seed", seed="my lucky seed")
            assert view["table"]["provable"]["client_seeds"] == ["ann"]
            for _ in range(3):
                commitments.append(view["table"]["provable"]["commitment"])
                ann.ok("bet", box=0, amount=100)
                view = ann.ok("ready")
                while view["phase"] == "playing":  # stand (or decline) until the round ends
                    actions = view["turn"]["actions"]
                    pick = next(a for a in ("stand", "no-insurance", "no-even-money",
                                            "no-surrender") if a in actions)  # fmt: skip
                    view = ann.ok("decide", decision=pick)
        shoes = client.get("/api/tables/fair/shoes").json()
    assert [s["record"]["commitment"] for s in shoes] == commitments
    assert shoes[0]["record"]["client_seeds"] == ["ann:my lucky seed"]
    assert all(len(s["rounds"]) == 1 and s["rounds"][0]["shoe"] for s in shoes)
    path = tmp_path / "fair.json"
    path.write_text(json.dumps(shoes), "utf-8")
    run = [sys.executable, "-m", "twentyone.cli", "verify", str(path)]
    out = subprocess.run(run, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    checked: dict[str, Any] = json.loads(out.stdout)
    assert checked["ok"] is True and checked["shoes"] == 3 and checked["rounds"] == 3
    # one card changed: the verification names it
    cards = shoes[1]["rounds"][0]["shoe"].split()
    cards[0] = "AS" if cards[0] != "AS" else "KD"
    shoes[1]["rounds"][0]["shoe"] = " ".join(cards)
    path.write_text(json.dumps(shoes), "utf-8")
    out = subprocess.run(run, capture_output=True, text=True)
    assert out.returncode == 2 and "committed order" in json.loads(out.stdout)["error"]


def _play_round(ann: Player) -> dict[str, Any]:
    ann.ok("bet", box=0, amount=100)
    view = ann.ok("ready")
    while view["phase"] == "playing":
        actions = view["turn"]["actions"]
        pick = next(a for a in ("stand", "no-insurance", "no-even-money", "no-surrender")
                    if a in actions)  # fmt: skip
        view = ann.ok("decide", decision=pick)
    return view


def test_issue_27_5_the_shoes_outlive_a_restart_and_a_live_shoe_is_revealed_after_it(
    tmp_path: Path,
) -> None:
    # a cut-card shoe: two rounds dealt, then the server stops with the shoe still live; the
    # next server reveals it from the database and serves it, and it verifies against the
    # commitment the player saw before the shoe
    config = TableConfig(id="fair", rules="1D S17", shuffle="provable")
    url = f"sqlite:///{tmp_path / 'fair.db'}"

    def app() -> Any:
        return create_app(url, tables=[config], clock=FakeClock(), password_hasher=FAST_HASHER,
                          analysis=False, tick_interval=0.01)  # fmt: skip

    with TestClient(app()) as client:
        token = register(client, "ann")
        with players_at(client, "fair", {"ann": token}) as (ann,):
            seen = ann.ok("sit")["table"]["provable"]["commitment"]
            for _ in range(2):
                _play_round(ann)
        assert client.get("/api/tables/fair/shoes").json() == []  # not revealed yet
    with TestClient(app()) as client:
        shoes = client.get("/api/tables/fair/shoes").json()
        with players_at(client, "fair", {"ann": token}) as (ann,):
            next_shoe = ann.ok("sit")["table"]["provable"]
    assert [s["record"]["commitment"] for s in shoes] == [seen]
    assert len(shoes[0]["rounds"]) == 2 and next_shoe["shoe"] == shoes[0]["record"]["shoe"] + 1
    path = tmp_path / "fair.json"
    path.write_text(json.dumps(shoes), "utf-8")
    run = [sys.executable, "-m", "twentyone.cli", "verify", str(path), "--commitment", seen]
    out = subprocess.run(run, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(out.stdout)["commitments"] == [seen]
