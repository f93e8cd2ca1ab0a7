"""A rule a house invents, end to end: "the dealer hits soft 17 only with three or more cards"
(``dealer_hits_soft_17_min_cards``; examples/rules/h17-three-cards.toml). The engine draws by
it, the exact analysis's dealer tables and the small-shoe walk agree with the engine, the
edge sits between S17's and H17's, and the rule card says it in every language. The
simulator's and the vector environment's agreement with the engine round by round are in
tests/test_sim_agreement.py and tests/test_gym_vector.py, which include this rule set."""

from __future__ import annotations

from pathlib import Path

import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules
from twentyone.analysis import analyze
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules
from twentyone.rulecard import rule_card

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "rules" / "h17-three-cards.toml"
H17C3 = Rules(decks=1, dealer_hits_soft_17=True, dealer_hits_soft_17_min_cards=3)


def _dealer_after_standing(rules: Rules, cards: str) -> list[str]:
    """The dealer's cards once a box of T-T (20) stands; ``cards``: the shoe from the deal."""
    rnd = Round(rules, StackedShoe(cards), [BoxBet("ann", 100)])
    rnd.stand()
    assert rnd.phase == "done"
    return [str(c) for c in rnd.dealer]


def test_a_two_card_soft_17_stands() -> None:
    # deal: box TS, dealer 6H (up), box TD, dealer AC (hole); the dealer holds 6-A
    assert _dealer_after_standing(H17C3, "TS 6H TD AC 4S") == ["6H", "AC"]
    # the same cards under plain H17: the dealer draws on 6-A
    h17 = H17C3.replace(dealer_hits_soft_17_min_cards=2)
    assert _dealer_after_standing(h17, "TS 6H TD AC 4S") == ["6H", "AC", "4S"]


def test_a_three_card_soft_17_draws() -> None:
    # 2-A is soft 13: the dealer draws a 4 (2-A-4, soft 17 with three cards) and draws again
    assert _dealer_after_standing(H17C3, "TS 2H TD AC 4S 3D") == ["2H", "AC", "4S", "3D"]
    # standing on every soft 17, the dealer keeps 2-A-4
    assert _dealer_after_standing(Rules(decks=1), "TS 2H TD AC 4S 3D") == ["2H", "AC", "4S"]
    # H17C4: a three-card soft 17 stands, a four-card one draws
    four = H17C3.replace(dealer_hits_soft_17_min_cards=4)
    assert _dealer_after_standing(four, "TS 2H TD AC 4S 3D") == ["2H", "AC", "4S"]
    assert _dealer_after_standing(four, "TS 2H TD AC 2S 2D 3H") == ["2H", "AC", "2S", "2D", "3H"]


def test_the_rule_is_refused_where_it_means_nothing() -> None:
    with pytest.raises(RulesError, match="dealer_hits_soft_17_min_cards=3 needs"):
        Rules(decks=6, dealer_hits_soft_17_min_cards=3)
    with pytest.raises(RulesError, match="dealer_hits_soft_17_min_cards"):
        Rules(decks=6, dealer_hits_soft_17=True, dealer_hits_soft_17_min_cards=8)
    with pytest.raises(RulesError, match="H17C3"):
        load_rules("6D S17 H17C3")  # two answers to the dealer's rule


def test_the_file_the_shorthand_and_the_fields_are_one_rule() -> None:
    from_file = load_rules(str(EXAMPLE))
    short = load_rules("6D H17C3 LS SPL3")
    assert from_file.soft_17_hit_from == short.soft_17_hit_from == 3
    assert from_file.replace(name="x") == short.replace(name="x")


# aces, twos, fours and sixes: the dealer makes soft 17s of two cards and three (A-2-4)
SMALL = (2, 2, 0, 2, 0, 2, 0, 0, 0, 5)  # 13 cards: the engine walks every round in seconds


@pytest.mark.parametrize("h17_from", [0, 2, 3])
def test_a_small_shoes_exact_distribution_is_the_engines(h17_from: int) -> None:
    from test_outcomes_engine import engine_outcomes

    rules = Rules(
        name="small",
        decks=1,
        dealer_hits_soft_17=h17_from != 0,
        dealer_hits_soft_17_min_cards=max(h17_from, 2),
        max_hands=2,
    )
    want = engine_outcomes(rules, SMALL)
    got = analyze(rules, shoe=SMALL).outcomes_optimal
    assert got is not None
    have = {k: v for k, v in got.items() if v > 1e-15}
    assert set(have) == set(want)
    for net, p in want.items():
        assert have[net] == pytest.approx(p, abs=1e-12), net


def test_the_edge_lies_between_s17_and_h17() -> None:
    s17, h17c3, h17 = (analyze(load_rules(f"6D {t} DAS SPL3 NS")) for t in ("S17", "H17C3", "H17"))
    assert s17.ev_basic > h17c3.ev_basic > h17.ev_basic
    # a two-card soft 17 (A-6) is most of the dealer's soft 17s: most of H17's cost remains
    assert (s17.ev_basic - h17c3.ev_basic) < (s17.ev_basic - h17.ev_basic)


@pytest.mark.parametrize("lang", ["en", "ro", "pl", "pt", "hu", "ru"])
def test_the_rule_card_says_it_in_every_language(lang: str) -> None:
    card = rule_card(load_rules(str(EXAMPLE)), lang=lang)
    plain = rule_card(load_rules("6D H17 LS SPL3"), lang=lang)
    assert "3" in card and card != plain.replace("6D H17 LS SPL3", "h17-three-cards")
    if lang == "en":
        assert "hits a soft 17 only with 3 or more cards" in card
