"""The web's hint on the cards really left (issue 12, item 3): the page's hint is
``advise``'s best play for the hand over the shoe the players know, worked out off the event
loop (the chart's move until it is ready); the decision clock plays the chart."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from twentyone import load_rules, parse_cards
from twentyone.analysis.advise import advise
from twentyone.analysis.context import full_shoe
from twentyone.engine.cards import Card
from twentyone.engine.shoe import StackedShoe
from twentyone.web import hint_worker
from twentyone.web.app import create_app
from twentyone.web.tables import TableConfig
from web_support import FAST_HASHER, FakeClock, Player, players_at, register, stacked

# two decks, cut card: one deck's 2s, 3s, 4s and 5s were dealt in earlier rounds of the shoe
CUT = "2D S17 DAS NS"
SMALL_GONE = "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S"


class SeenShoe(StackedShoe):
    """A stacked cut-card shoe that also tells the cards dealt since the shuffle: ``gone``
    (earlier rounds), then those it deals."""

    def __init__(self, gone: str, cards: str) -> None:
        super().__init__(cards)
        self.gone = parse_cards(gone)
        self.drawn: list[Card] = []

    def draw(self) -> Card:
        card = super().draw()
        self.drawn.append(card)
        return card

    def dealt(self) -> tuple[Card, ...]:
        return (*self.gone, *self.drawn)


def _app(tmp_path: Any, shoe_factory: Any, rules: str, **options: Any) -> tuple[FastAPI, Any]:
    done = threading.Event()
    app = create_app(
        f"sqlite:///{tmp_path / 'hints.db'}",
        tables=[TableConfig(id="t", rules=rules, multi_player=False)],
        clock=options.pop("clock", FakeClock()),
        shoe_factory=shoe_factory,
        password_hasher=FAST_HASHER,
        tick_interval=0.01,
        after_analysis=done.set,
        **options,
    )
    return app, done


@contextmanager
def _ann_betting(tmp_path: Any, **options: Any) -> Iterator[tuple[FastAPI, Player]]:
    """ann at a 2-deck cut-card table served with ``options``, analysis done, her page
    showing the hint, about to be dealt TS 6D against TH (hole 7C) after one deck's small
    cards have gone."""
    factory = lambda _config, _rules: SeenShoe(SMALL_GONE, "TS TH 6D 7C TC 9C")  # noqa: E731
    app, done = _app(tmp_path, factory, CUT, **options)
    with TestClient(app) as client:
        assert done.wait(120)
        tokens = {"ann": register(client, "ann")}
        with players_at(client, "t", tokens) as (ann,):
            ann.ok("sit")
            ann.ok("hints", on=True)
            ann.ok("bet", box=0, amount=1000)
            yield app, ann


@pytest.fixture
def cut_table(tmp_path: Any) -> Iterator[tuple[FastAPI, Player, FakeClock]]:
    """:func:`_ann_betting` on a clock the test moves."""
    clock = FakeClock()
    with _ann_betting(tmp_path, clock=clock) as (app, ann):
        yield app, ann, clock


def test_the_hint_is_the_best_play_for_the_cards_left_not_the_chart(
    cut_table: tuple[FastAPI, Player, FakeClock],
) -> None:
    # 16 against a ten: the chart hits; with a deck's 2-5s gone from two decks standing is
    # better, and the hint says so once worked out. The clock still plays the chart.
    app, ann, clock = cut_table
    rules = load_rules(CUT)
    shoe = list(full_shoe(rules))
    for c in parse_cards(SMALL_GONE):
        shoe[c.value - 1] -= 1
    assert advise(rules, parse_cards("TS 6D"), "TH", shoe=shoe).best == "stand"
    assert advise(rules, parse_cards("TS 6D"), "TH").best == "hit"
    view = ann.ok("deal")
    turn = view["turn"]
    assert turn["default"] == "hit"  # the clock's: the chart
    assert turn["hint"] == {"decision": "hit", "exact": False}  # at once: the chart's
    view = ann.view_where(lambda v: bool(v["turn"] and v["turn"]["hint"]["exact"]))
    assert view["turn"]["hint"] == {"decision": "stand", "exact": True}
    assert view["turn"]["default"] == "hit"
    clock.advance(app.state.hub.tables["t"].session.decision_seconds + 1)
    notice = ann.until(lambda m: m.get("kind") == "default-action")
    assert notice["params"]["decision"] == "hit"
    assert notice["params"]["default"] == "basic strategy"


def test_the_hint_does_not_know_the_hole_card(
    cut_table: tuple[FastAPI, Player, FakeClock],
) -> None:
    # the shoe the hint is worked out on is the full shoe less the cards seen before the
    # hand: the dealer's hidden 7C is still in it (the hand and the up card are taken out by
    # the analysis itself)
    app, ann, _clock = cut_table
    ann.ok("deal")
    ann.view_where(lambda v: bool(v["turn"] and v["turn"]["hint"]["exact"]))
    question = app.state.hub.tables["t"].hint.question
    rules = load_rules(CUT)
    want = list(full_shoe(rules))
    for c in parse_cards(SMALL_GONE):
        want[c.value - 1] -= 1
    assert question.shoe == tuple(want)  # a 7 fewer if the hole card were counted
    assert [str(c) for c in question.cards] == ["TS", "6D"] and str(question.upcard) == "TH"


def test_the_hint_is_worked_out_off_the_event_loop(
    cut_table: tuple[FastAPI, Player, FakeClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the worker is held up: the table still answers (the hint stays the chart's) and the
    # exact one follows when the worker lets go, worked out on the hints' thread
    _app, ann, _clock = cut_table
    release = threading.Event()
    threads: list[str] = []
    real = hint_worker.best_play  # type: ignore[attr-defined]  # the name the worker calls

    def held(rules: Any, hq: Any, **kw: Any) -> str | None:
        threads.append(threading.current_thread().name)
        assert release.wait(20)
        return real(rules, hq, **kw)

    monkeypatch.setattr(hint_worker, "best_play", held)
    ann.ok("deal")
    for _ in range(3):  # the table answers while the worker is busy
        view = ann.ok("view")
        assert view["turn"]["hint"] == {"decision": "hit", "exact": False}
    assert not release.is_set()
    release.set()
    view = ann.view_where(lambda v: bool(v["turn"] and v["turn"]["hint"]["exact"]))
    assert view["turn"]["hint"] == {"decision": "stand", "exact": True}
    assert threads and all(name.startswith("twentyone-hints") for name in threads)


def test_the_hint_at_a_continuous_shuffler_is_advises_best_for_the_cards_in_sight(
    tmp_path: Any,
) -> None:
    # ru-online: ann 9S 3D (12) against the dealer's 2H (hole 7C); the hint is advise's best
    # over the full shoe less the cards in sight (a stacked shoe tells no more)
    app, done = _app(tmp_path, stacked({"t": "9S 2H 3D 7C TC TH"}), "ru-online")
    with TestClient(app) as client:
        assert done.wait(120)
        assert client.get("/api/tables").json()[0]["default_action"] == "basic strategy"
        tokens = {"ann": register(client, "ann")}
        with players_at(client, "t", tokens) as (ann,):
            ann.ok("sit")
            ann.ok("hints", on=True)
            ann.ok("bet", box=0, amount=1000)
            ann.ok("deal")
            view = ann.view_where(lambda v: bool(v["turn"] and v["turn"]["hint"]["exact"]))
            rules = load_rules("ru-online")
            best = advise(rules, parse_cards("9S 3D"), "2H", shoe=list(full_shoe(rules))).best
            assert view["turn"]["hint"]["decision"] == best


def test_no_work_for_a_page_that_does_not_show_the_hint(
    cut_table: tuple[FastAPI, Player, FakeClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    # ann hides the hint: her questions cost the worker nothing and the hint stays the
    # chart's; shown again mid-question, the exact one follows
    _app, ann, _clock = cut_table
    asked: list[Any] = []
    real = hint_worker.best_play  # type: ignore[attr-defined]  # the name the worker calls

    def counted(rules: Any, hq: Any, **kw: Any) -> str | None:
        asked.append(hq)
        return real(rules, hq, **kw)

    monkeypatch.setattr(hint_worker, "best_play", counted)
    ann.ok("hints", on=False)
    ann.ok("deal")
    for _ in range(5):
        threading.Event().wait(0.05)  # a few of the table's ticks
        assert ann.ok("view")["turn"]["hint"] == {"decision": "hit", "exact": False}
    assert asked == []
    ann.ok("hints", on=True)
    view = ann.view_where(lambda v: bool(v["turn"] and v["turn"]["hint"]["exact"]))
    assert view["turn"]["hint"] == {"decision": "stand", "exact": True} and len(asked) == 1
    error = ann.do("hints", on="yes")
    assert error["type"] == "error" and error["field"] == "on"
    assert error["error"] == "on 'yes': expected true or false"


def test_chart_hints_keep_the_chart(tmp_path: Any) -> None:
    # serve --chart-hints: the page's hint is the chart's move, and no exact one follows
    with _ann_betting(tmp_path, chart_hints=True) as (app, ann):
        ann.ok("deal")
        for _ in range(5):
            view = ann.ok("view")
            assert view["turn"]["hint"] == {"decision": "hit", "exact": False}
        assert app.state.hub.tables["t"].hint.exact is None


def test_the_pool_keeps_its_bound() -> None:
    pool = hint_worker.HintPool(max_pending=1)
    gate = threading.Event()
    try:
        first = pool.submit(lambda: gate.wait(20))
        assert first is not None
        assert pool.submit(lambda: 1) is None  # full: the chart's hint stays
        gate.set()
        assert first.result(20) is True
        for _ in range(100):  # the slot comes back once the first is done
            again = pool.submit(lambda: 2)
            if again is not None:
                break
            threading.Event().wait(0.01)
        assert again is not None and again.result(20) == 2
    finally:
        gate.set()
        pool.shutdown()
