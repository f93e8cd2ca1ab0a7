"""Double Exposure (the ``double-exposure`` rule file; ``hole_card_up``, ``ties``,
``blackjack_ties``): rounds settled by hand from stacked shoes as the rule sheets cited in the
file describe them. Both of the dealer's cards are seen before anyone plays; the dealer takes a
tie of totals; a blackjack pays 1:1 and beats the dealer's blackjack."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from twentyone import BoxBet, Round, StackedShoe, load_rules, replay
from twentyone.engine.errors import RulesError
from twentyone.engine.replay import round_result, round_to_replay
from twentyone.engine.rules import Rules
from twentyone.web.tables import TableConfig
from web_support import make_app, players_at, register

DE = load_rules("double-exposure")


def _round(cards: str, *decisions: str) -> Round:
    """A one-box round of 100 at the double-exposure table from ``cards`` (box, dealer up,
    box, dealer's second card, then the draws), the ``decisions`` applied in turn."""
    rnd = Round(DE, StackedShoe(cards), [BoxBet("ann", 100)])
    for d in decisions:
        rnd.apply(d)
    assert rnd.is_over
    return rnd


def test_double_exposure_rule_file_cites_the_standard_game() -> None:
    assert (DE.decks, DE.hole_card_up, DE.ties, DE.blackjack_ties) == (8, True, "dealer", "player")
    assert DE.blackjack_pays == Fraction(1) and DE.max_hands == 2 and DE.double_on == "9-11"
    assert DE.insurance_upcards == () and not DE.even_money


def test_both_dealer_cards_are_seen_before_play() -> None:
    rnd = Round(DE, StackedShoe("TS 9H 8D 9C"), [BoxBet("ann", 100)])
    assert rnd.question is not None and rnd.question.kind == "play"
    assert [str(c) for c in rnd.dealer_visible] == ["9H", "9C"]
    assert round_result(rnd)["dealer"]["cards"] == ["9H", "9C"]


def test_the_dealer_takes_a_tie_of_totals() -> None:
    # T-8 = 18 stands against the dealer's 9-9 = 18: lost, not pushed
    rnd = _round("TS 9H 8D 9C", "stand")
    assert round_result(rnd)["boxes"][0]["hands"][0]["result"] == "lose"
    assert rnd.net() == {"ann": -100}


def test_a_three_card_21_loses_to_the_dealers_21() -> None:
    # 7-4 hits a ten: 21; the dealer's 6-5 draws a ten: 21 too, and takes the tie
    rnd = _round("7S 6H 4D 5C TD TS", "hit")
    out = round_result(rnd)
    assert (out["dealer"]["total"], out["boxes"][0]["hands"][0]["result"]) == (21, "lose")


def test_a_blackjack_pays_even_money() -> None:
    rnd = _round("AS 9H KD 7C")
    assert round_result(rnd)["boxes"][0]["hands"][0]["result"] == "blackjack"
    assert rnd.net() == {"ann": 100}


def test_a_blackjack_beats_the_dealers_blackjack() -> None:
    rnd = _round("AS AH KD KC")
    assert rnd.net() == {"ann": 100}
    for ties, net in (("push", 0), ("dealer", -100)):
        other = Round(
            DE.replace(blackjack_ties=ties), StackedShoe("AS AH KD KC"), [BoxBet("a", 100)]
        )
        assert other.net() == {"a": net}


def test_a_dealer_blackjack_takes_the_other_hands_at_once() -> None:
    rnd = _round("7S TH 4D AC")
    assert rnd.net() == {"ann": -100}


def test_the_bust_rule_is_unchanged() -> None:
    # 18 against the dealer's 6-T drawing a ten: 26, the 18 wins
    rnd = _round("TS 6H 8D TC TD", "stand")
    assert rnd.net() == {"ann": 100}


def test_a_double_exposure_round_replays_exactly() -> None:
    rnd = _round("TS 9H 8D 9C", "stand")
    assert replay(round_to_replay(rnd)) == round_result(rnd)


def test_hole_card_up_needs_a_peek() -> None:
    with pytest.raises(RulesError, match="hole_card_up=True needs"):
        Rules(decks=8, hole_card_up=True, peek=False)


def test_the_exact_analysis_prices_the_returns_and_refuses_the_rest_by_name() -> None:
    from twentyone.analysis import analyze

    assert -0.02 < analyze(DE, outcomes=False).ev_optimal < 0.0  # tests/test_analysis_exposed.py
    with pytest.raises(RulesError, match="hole_card_up=True"):
        analyze(DE)  # the round's distribution
    # the tie rules alone (the hole card hidden) are priced; the distribution refuses them
    with pytest.raises(RulesError, match=r"ties='dealer'.*distribution"):
        analyze(DE.replace(hole_card_up=False))


@pytest.mark.parametrize(
    ("spec", "ties"),
    [
        ("6D S17 DAS BJ1:1", {"ties": "dealer", "blackjack_ties": "player"}),
        ("2D H17 DAS SPL3 LS", {"ties": "dealer"}),
        ("1D S17 DAS", {"blackjack_ties": "dealer"}),
    ],
)
def test_the_exact_return_with_the_dealers_ties_agrees_with_the_simulator(
    spec: str, ties: dict[str, str]
) -> None:
    """Ties the dealer takes (the hole card hidden, as the analysis's tables need): the
    basic-strategy return against 10 million seeded rounds of the same chart, shuffled
    continuously (a standard error of about 0.00035)."""
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.sim.runner import simulate

    rules = load_rules(spec).replace(shuffle="continuous", **ties)
    exact = analyze(rules, outcomes=False)
    assert exact.sd is None
    sim = simulate(rules, 10_000_000, seed=21, workers=1, strategy=basic_strategy(rules))
    se = sim.sd / sim.rounds**0.5
    assert abs(sim.ev - exact.ev_basic) < 4 * se, (spec, ties, exact.ev_basic, sim.ev, se)
    # the rule is worth far more than the test's error: it tells the two apart
    pushed = analyze(load_rules(spec).replace(shuffle="continuous"), outcomes=False)
    assert abs(pushed.ev_basic - exact.ev_basic) > 4 * se


@pytest.mark.parametrize("lang", ["en", "ro", "pl", "pt", "hu", "ru"])
def test_the_rule_card_tells_double_exposure_in_every_language(lang: str) -> None:
    from twentyone.rulecard import rule_card

    card = " ".join(rule_card(DE, lang).split())
    classic = " ".join(
        rule_card(DE.replace(hole_card_up=False, ties="push", blackjack_ties="push"), lang).split()
    )
    assert card != classic and len(card) > len(classic)
    if lang != "en":
        assert "face up" not in card and "tie of totals" not in card  # translated


def test_the_web_table_shows_both_dealer_cards(tmp_path: Any) -> None:
    tables = [TableConfig(id="de", rules="double-exposure", multi_player=False)]
    app = make_app(f"sqlite:///{tmp_path}/de.db", {"de": "TS 9H 8D 9C"}, tables=tables)
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "de", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("ready")
            assert view["dealer"]["cards"] == ["9H", "9C"] and view["dealer"]["hidden"] == 0
            view = ann.ok("decide", decision="stand")
            assert view["last_round"]["boxes"][0]["hands"][0]["result"] == "lose"
