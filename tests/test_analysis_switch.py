"""Blackjack Switch's exact return (:mod:`twentyone.analysis.switch`): a pair that always keeps
returns, hand for hand and to the last digits, what the classic analysis returns for one box
of the same rules; switching only adds; a 21 made by switching is a plain 21; and rounds the
engine deals, played by the rules' basic chart and the analysis's switch choices, return what
``ev_basic`` says within four standard errors."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from twentyone import BoxBet, Round, Shoe, load_rules
from twentyone.analysis import analyze, basic_strategy
from twentyone.analysis.context import UPS, up_key
from twentyone.analysis.switch import (
    hand_returns,
    pair_return,
    switch_context,
    switch_report,
    switches,
)
from twentyone.engine.cards import Card
from twentyone.engine.errors import RulesError
from twentyone.engine.strategy import decide

SWITCH = load_rules("switch")
CLASSIC = replace(SWITCH, switch=False, side_bets=())  # Super Match needs a switch table


@pytest.mark.parametrize("optimal", [True, False])
def test_a_pair_that_always_keeps_returns_two_classic_boxes(optimal: bool) -> None:
    """Keeping always, the pair's chances of a dealer blackjack seen at the peek (read from
    all five cards) add up, over the other box's cards, to each hand's own: the pair returns
    twice one classic box, against every up card."""
    ctx = switch_context(SWITCH)
    classic = analyze(CLASSIC, outcomes=False)
    key = "ev_optimal" if optimal else "ev_basic"
    for u in UPS:
        kept = pair_return(ctx, u, hand_returns(ctx, u, optimal), switching=False) / 2.0
        assert kept == pytest.approx(classic.by_upcard[up_key(u)][key], abs=1e-12), u


def test_switching_adds_to_every_up_card_and_the_edge_is_per_hand() -> None:
    report = switch_report(SWITCH)
    classic = analyze(CLASSIC, outcomes=False)
    for u in UPS:
        mine, theirs = report.by_upcard[up_key(u)], classic.by_upcard[up_key(u)]
        assert mine["ev_optimal"] > theirs["ev_optimal"] + 0.01, u  # a switch is worth a lot
    assert report.ev_basic <= report.ev_optimal < 0.0  # the house keeps an edge
    assert analyze(SWITCH, outcomes=False).ev_optimal == report.ev_optimal  # routed here
    assert any("per hand" in n for n in report.notes)


def test_a_21_made_by_switching_is_not_paid_as_a_blackjack() -> None:
    ctx = switch_context(SWITCH)
    six = hand_returns(ctx, 5, True)
    assert six.dealt[(0, 9)] == pytest.approx(1.0)  # a blackjack, paid 1:1 (up 6: no peek)
    assert 0.5 < six.switched[(0, 9)] < six.dealt[(0, 9)]  # 21 stands, can push a dealer 21/22
    assert six.switched[(4, 9)] == six.dealt[(4, 9)]  # any other hand is the same hand


def test_the_pairs_choice_against_a_seven() -> None:
    ctx = switch_context(SWITCH)
    seven = hand_returns(ctx, 6, True)
    assert switches(seven, (9, 4), (5, 9))  # T-5 and 6-T: T-T and 6-5
    assert not switches(seven, (9, 9), (9, 8))  # T-T and T-9 kept
    # A-6 and T-T switch to A-T (a plain 21) and T-6 (16) only if those return more
    made = seven.switched[(0, 9)] + seven.switched[(5, 9)]
    kept = seven.dealt[(0, 5)] + seven.dealt[(9, 9)]
    assert switches(seven, (0, 5), (9, 9)) == (made > kept)


def test_the_other_parts_of_the_analysis_refuse_switch_by_name() -> None:
    from twentyone.analysis.context import Context

    with pytest.raises(RulesError, match="switch"):
        Context.of(SWITCH)
    with pytest.raises(RulesError, match="switch"):
        analyze(SWITCH, outcomes=True)


def _value(card: Card) -> int:
    """A card's value index (A 0, 2..9 1..8, ten-value 9)."""
    v = card.value  # an ace 1, a ten-value 10
    return 0 if v == 1 else v - 1


def test_engine_rounds_by_the_chart_and_the_switch_choice_return_ev_basic() -> None:
    """40,000 pairs dealt by the engine from a seeded shoe: per hand, the return is
    ev_basic's within four standard errors (the switch decided by the analysis's returns,
    every hand played by the basic chart of the rules)."""
    chart = basic_strategy(CLASSIC)
    ctx = switch_context(SWITCH)
    returns = {u: hand_returns(ctx, u, False) for u in UPS}
    shoe = Shoe(decks=SWITCH.decks, shuffle="continuous", seed=2026)  # a full shoe each round
    nets: list[int] = []
    for _ in range(40_000):
        rnd = Round(SWITCH, shoe, [BoxBet("ann", 100), BoxBet("ann", 100)])
        while not rnd.is_over:
            q = rnd.question
            assert q is not None
            if q.kind == "switch":
                assert q.partner is not None
                (a, b), (c, d) = (
                    [_value(x) for x in rnd.boxes[i].hands[0].cards] for i in (q.box, q.partner)
                )
                up = _value(rnd.upcard)
                rnd.apply("switch" if switches(returns[up], (a, b), (c, d)) else "keep")
            else:
                rnd.apply(decide(chart, rnd))
        nets.append(rnd.net()["ann"])
    n = len(nets)
    mean = sum(nets) / n / 200.0  # per hand of 100
    sd = math.sqrt(sum((x / 200.0 - mean) ** 2 for x in nets) / (n - 1))
    ev = switch_report(SWITCH).ev_basic
    assert abs(mean - ev) < 4 * sd / math.sqrt(n), (mean, ev, sd / math.sqrt(n))
