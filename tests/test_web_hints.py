"""The web's hint on the cards really left (issue 12, item 3): with ``exact_hints`` a table's
default action, which the page shows as the hint, is ``advise``'s best play for the hand over
the shoe the players know."""

from __future__ import annotations

import threading
from typing import Any

from fastapi.testclient import TestClient

from twentyone import load_rules, parse_cards
from twentyone.analysis.advise import advise
from twentyone.analysis.context import full_shoe
from twentyone.web.app import create_app
from twentyone.web.tables import TableConfig
from web_support import FAST_HASHER, FakeClock, players_at, register, stacked


def test_exact_hints_are_advises_best_play_for_the_cards_in_sight(tmp_path: Any) -> None:
    # ru-online: ann 9S 3D (12) against the dealer's 2H (hole 7C); the hint is advise's best
    # over the full shoe less the cards in sight (a stacked shoe tells no more).
    done = threading.Event()
    app = create_app(
        f"sqlite:///{tmp_path / 'hints.db'}",
        tables=[TableConfig(id="ru-online", rules="ru-online")],
        clock=FakeClock(),
        shoe_factory=stacked({"ru-online": "9S 2H 3D 7C TC TH"}),
        password_hasher=FAST_HASHER,
        tick_interval=0.01,
        exact_hints=True,
        after_analysis=done.set,
    )
    with TestClient(app) as client:
        assert done.wait(120)
        assert client.get("/api/tables").json()[0]["default_action"] == "exact"
        tokens = {"ann": register(client, "ann")}
        with players_at(client, "ru-online", tokens) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("deal")
            rules = load_rules("ru-online")
            shoe = list(full_shoe(rules))
            best = advise(rules, parse_cards("9S 3D"), "2H", shoe=shoe).best
            assert view["turn"]["default"] == best
