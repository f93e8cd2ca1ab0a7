"""Risk-averse indices, pair surrender indices and totals over every hand that reaches them
(issue 13 item 3's leftovers).

The risk-averse criterion is the Kelly bettor's certainty equivalent, ``E[X] - (f/2) E[X^2]``
with ``f`` the Kelly bet at the count (twentyone.counting.risk_averse). Published direction
(Schlesinger, *Blackjack Attack*, risk-averse Illustrious 18 for Hi-Lo, 6 decks): doubles and
splits come later (higher indices) than the EV ones, surrender and insurance no later.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest

from twentyone import load_rules, parse_cards
from twentyone.analysis.action_moments import action_second_moments
from twentyone.analysis.actions import action_evs
from twentyone.analysis.dealer import dealer_distribution
from twentyone.counting.count_line import count_line
from twentyone.counting.index_gen import Decision, GeneratedIndex, generate, shoe_returns
from twentyone.counting.risk_averse import aversion_curve
from twentyone.engine.rules import Rules

GAME = "6D S17 DAS LS"
DECKS_LEFT = Fraction(15, 4)
UPS = "A23456789T"
#: (up, hand) of the doubles, splits, surrenders and insurance compared.
WANTED = frozenset(
    {
        ("A", "11"),
        ("T", "10"),
        ("2", "9"),
        ("A", "10"),
        ("7", "9"),
        ("5", "T,T"),
        ("6", "T,T"),
        ("T", "14"),
        ("T", "15"),
        ("T", "8,8"),
        ("3", "13"),
    }
)


@cache
def lists() -> tuple[Rules, list[GeneratedIndex], list[GeneratedIndex]]:
    rules = load_rules(GAME)
    _, ev = generate(rules, "hilo", decks_left=DECKS_LEFT, wanted=WANTED, moments=True)
    _, ra = generate(rules, "hilo", decks_left=DECKS_LEFT, wanted=WANTED, method="risk-averse")
    return rules, ev, ra


def _one(entries: list[GeneratedIndex], hand: str, up: str, play: str) -> GeneratedIndex | None:
    got = [e for e in entries if e.hand == hand and e.up == up and play == e.at_or_above]
    assert len(got) <= 1
    return got[0] if got else None


# -- the second moments -----------------------------------------------------------------------


def test_second_moments_of_standing_and_surrendering_are_exact() -> None:
    rules = load_rules(GAME)
    six = parse_cards("6H")[0]
    m2 = action_second_moments(rules, list(parse_cards("TS QD")), six)
    # standing on 20 against a 6: |X| = 1 unless the dealer makes 20 too (a push)
    shoe = [24] * 9 + [96]
    shoe[5] -= 1
    shoe[9] -= 2
    import numpy as np

    d = dealer_distribution(np.array(shoe), 5, rules.dealer_hits_soft_17)
    assert m2["stand"] == pytest.approx(1.0 - d[3], abs=1e-12)
    sixteen = action_second_moments(rules, list(parse_cards("TS 6D")), parse_cards("TH")[0])
    assert sixteen["stand"] == pytest.approx(1.0)  # 16 never pushes
    assert sixteen["surrender"] == pytest.approx(0.25)


@pytest.mark.parametrize("hand,up", [("5S 6D", "AH"), ("8S 8D", "TH"), ("TS 2D", "3H")])
def test_second_moments_bound_the_returns(hand: str, up: str) -> None:
    rules = load_rules(GAME)
    cards, upcard = list(parse_cards(hand)), parse_cards(up)[0]
    evs = action_evs(rules, cards, upcard)
    m2 = action_second_moments(rules, cards, upcard)
    assert set(m2) == set(evs)
    for k, ev in evs.items():
        assert ev * ev <= m2[k] + 1e-12, k  # a variance is not negative
    assert m2["double"] > 3.0 * m2["hit"]  # twice the money, four times the square
    assert m2["double"] <= 4.0


# -- the criterion and its indices ------------------------------------------------------------


def test_aversion_is_half_the_kelly_bet() -> None:
    rules = load_rules(GAME)
    line = count_line("hilo", DECKS_LEFT)
    f = aversion_curve(rules, line)
    assert f(-2.0) == 0.0  # no advantage: no bet, the returns alone decide
    assert 0.0 < f(3.0) < f(6.0) < 0.05
    assert aversion_curve(rules, line, kelly=0.5)(6.0) == pytest.approx(f(6.0) / 2)


def _ce_delta(rules: Rules, e: GeneratedIndex, tc: float) -> float:
    """at_or_above's certainty equivalent less below's on the expected shoe at ``tc``
    (the whole-card shoe under that composition plus each rank's share of one card more)."""
    line = count_line("hilo", DECKS_LEFT)
    a = aversion_curve(rules, line)(tc)
    comp = line.composition(tc)
    base = [math.floor(x) for x in comp]

    def delta(shoe: list[int]) -> float:
        ret, _ = shoe_returns(rules, shoe, UPS.index(e.up), frozenset({e.hand}), True)
        r = ret[e.hand]
        if "surrender" in (e.below, e.at_or_above):
            others = ("split", "hit", "stand", "double")
            got = Decision(e.hand, "surrender", others).delta(r, a)
            assert got is not None
            return got[0] if e.at_or_above == "surrender" else -got[0]
        below, above = (p.replace("double-stand", "double") for p in (e.below, e.at_or_above))
        return Decision(e.hand, above, (below,)).delta(r, a)[0]  # type: ignore[index]

    d0 = delta(base)
    total = d0
    for r, x in enumerate(comp):
        if x - base[r] > 1e-9:
            more = list(base)
            more[r] += 1
            total += (x - base[r]) * (delta(more) - d0)
    return total


@pytest.mark.parametrize("hand,up,play", [("10", "A", "double"), ("T,T", "5", "split")])
def test_risk_averse_index_picks_the_plays_on_each_side(hand: str, up: str, play: str) -> None:
    rules, _, ra = lists()
    e = _one(ra, hand, up, play)
    assert e is not None
    assert _ce_delta(rules, e, e.index - 1) < 0.0  # below has the larger certainty equivalent
    assert _ce_delta(rules, e, e.index + 1) > 0.0


@pytest.mark.parametrize(
    "hand,up,play",
    [
        ("11", "A", "double"),
        ("10", "T", "double"),
        ("9", "2", "double"),
        ("10", "A", "double"),
        ("9", "7", "double"),
        ("T,T", "5", "split"),
        ("T,T", "6", "split"),
    ],
)
def test_risk_averse_doubles_and_splits_come_later(hand: str, up: str, play: str) -> None:
    _, ev, ra = lists()
    e, r = _one(ev, hand, up, play), _one(ra, hand, up, play)
    assert e is not None
    # none within -10..+10: a full-Kelly bettor never takes the play there
    assert r is None or (r.crossover > e.crossover and r.index >= e.index)


def test_risk_averse_surrender_and_insurance_come_no_later() -> None:
    _, ev, ra = lists()
    for hand in ("14", "15"):
        e, r = _one(ev, hand, "T", "surrender"), _one(ra, hand, "T", "surrender")
        assert e is not None and r is not None
        # (0.05: where the two criteria agree, the cubic through shoes above 0 differs)
        assert r.crossover <= e.crossover + 0.05 and r.index <= e.index
    e, r = _one(ev, "insurance", "A", "insure"), _one(ra, "insurance", "A", "insure")
    assert e is not None and r is not None and r.crossover <= e.crossover
    # at a negative count a Kelly bettor bets nothing: the index is the EV one
    e, r = _one(ev, "13", "3", "stand"), _one(ra, "13", "3", "stand")
    assert e is not None and r is not None
    assert r.crossover == pytest.approx(e.crossover, abs=0.05)


# -- pair surrender ---------------------------------------------------------------------------


def test_pair_surrender_index_8_8_against_ten() -> None:
    rules, ev, _ = lists()
    e = [x for x in ev if x.hand == "8,8" and x.up == "T" and x.at_or_above == "surrender"]
    assert len(e) == 1 and e[0].below == "no-surrender"
    line = count_line("hilo", DECKS_LEFT)

    def sur_less_best(tc: float) -> float:
        k = round(tc / line.tc_step)
        ret, _ = shoe_returns(rules, line.shoe(k), 9, frozenset({"8,8"}))
        got = Decision("8,8", "surrender", ("split", "hit", "stand")).delta(ret["8,8"])
        assert got is not None
        return got[0]

    # the whole-card shoes on each side of the crossover
    lo = math.floor(e[0].crossover / line.tc_step) * line.tc_step
    assert sur_less_best(lo) < 0.0 < sur_less_best(lo + line.tc_step)


def test_pair_surrender_where_the_rules_allow_it() -> None:
    from twentyone.counting.indices import named_indices

    ru = named_indices(load_rules("ro-casino"), "hilo", "FULL")
    pairs = [e for e in ru if "," in e["hand"] and "surrender" in (e["below"], e["at_or_above"])]
    assert pairs and all(e["up"] != "A" for e in pairs)  # ro.11: not against an ace
    hu = named_indices(load_rules("hu-casino"), "hilo", "FULL")
    assert not [e for e in hu if "surrender" in (e["below"], e["at_or_above"])]


# -- totals over every hand that reaches them --------------------------------------------------


def test_multi_card_sixteens_favour_standing_against_a_ten() -> None:
    rules = load_rules(GAME)
    line = count_line("hilo", DECKS_LEFT)
    ret, w = shoe_returns(rules, line.shoe(0), 9, frozenset({"16"}))
    r = ret["16"]
    two = r["stand"] - r["hit"]
    every = r["any:stand"] - r["any:hit"]
    assert w["any:16"] > w["16"]  # hands of three cards or more reach 16 too
    assert every > two  # and they lose more by hitting (fewer small cards left)
    assert r["stand"] == pytest.approx(r["any:stand"], abs=1e-3)  # 16 stands the same


def test_sixteen_against_ten_matches_published_with_every_hand() -> None:
    # Schlesinger's I18: 16 v T stands at 0 or more (two-card hands alone gave +1)
    rules = load_rules(GAME)
    _, got = generate(rules, "hilo", decks_left=DECKS_LEFT, wanted=frozenset({("T", "16")}))
    e = _one(got, "16", "T", "stand")
    assert e is not None and e.index == 0 and e.below == "hit"
