"""A dealer's 22 pushes (``dealer_22 = "push"``, shorthand ``P22``; Free Bet, Blackjack Switch;
examples/rules/push-22.toml), end to end: rounds settled by hand from stacked shoes, the rule
from a file, the shorthand and the fields, the replay of such a round, and the exact analysis
against the engine. The simulator's and the vector environment's agreement with the engine
round by round are in tests/test_sim_agreement.py and tests/test_gym_vector.py, which include
a P22 rule set."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules, replay
from twentyone.engine.errors import RulesError
from twentyone.engine.replay import round_result, round_to_replay
from twentyone.engine.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "rules" / "push-22.toml"
PUSH = Rules(decks=1, dealer_22="push")
BUST = Rules(decks=1)


def _round(rules: Rules, cards: str, *decisions: str) -> Round:
    """A one-box round of 100 from ``cards`` (dealt box, dealer up, box, dealer hole, then
    the draws), the ``decisions`` applied in turn."""
    rnd = Round(rules, StackedShoe(cards), [BoxBet("ann", 100)])
    for d in decisions:
        rnd.apply(d)
    assert rnd.is_over
    return rnd


def test_a_standing_20_pushes_against_a_dealer_22() -> None:
    # box T-T (20); dealer 6 up, 6 in the hole (12), draws a ten: 22
    for rules, net, result in ((PUSH, 0, "push"), (BUST, 100, "win")):
        rnd = _round(rules, "TS 6H TD 6C KS", "stand")
        out = round_result(rnd)
        assert out["dealer"]["total"] == 22
        assert out["boxes"][0]["hands"][0]["result"] == result
        assert out["net"] == {"ann": net}


def test_a_dealer_23_still_busts() -> None:
    # dealer 6 up, 7 in the hole, draws a king: 23, the box's 20 wins under either rule
    for rules in (PUSH, BUST):
        rnd = _round(rules, "TS 6H TD 7C KS", "stand")
        assert round_result(rnd)["dealer"]["total"] == 23
        assert rnd.net() == {"ann": 100}


def test_a_busted_hand_loses_against_a_dealer_22() -> None:
    # dealt round robin: ann 2-T, bob T-T, dealer 6 up, 6 in the hole; ann hits a ten and
    # busts, bob stands on 20, the dealer draws a king: 22
    boxes = [BoxBet("ann", 100), BoxBet("bob", 100)]
    rnd = Round(PUSH, StackedShoe("2S TD 6H TC TH 6D TS KS"), boxes)
    for d in ("hit", "stand"):
        rnd.apply(d)
    assert rnd.is_over
    out = round_result(rnd)
    assert out["dealer"]["total"] == 22
    assert [b["hands"][0]["result"] for b in out["boxes"]] == ["bust", "push"]
    assert rnd.net() == {"ann": -100, "bob": 0}


def test_a_blackjack_is_paid_against_a_dealer_22() -> None:
    # dealt round robin: ann A-K (blackjack), bob T-T, dealer 6 up, 6 in the hole; bob stands,
    # the dealer draws a ten: 22. The blackjack is paid 3:2, the 20 pushes
    rnd = Round(PUSH, StackedShoe("AS TC 6H KD TH 6C TS"), [BoxBet("ann", 100), BoxBet("bob", 100)])
    rnd.apply("stand")
    assert rnd.is_over
    out = round_result(rnd)
    assert out["dealer"]["total"] == 22
    assert [b["hands"][0]["result"] for b in out["boxes"]] == ["blackjack", "push"]
    assert rnd.net() == {"ann": 150, "bob": 0}


def test_a_doubled_hand_pushes_both_stakes_against_22() -> None:
    # box 5-6 (11) doubles and draws a nine (20); dealer 6-6 draws a ten: 22
    for rules, net in ((PUSH, 0), (BUST, 200)):
        rnd = _round(rules, "5S 6H 6D 6C 9S TS", "double")
        hand = round_result(rnd)["boxes"][0]["hands"][0]
        assert (hand["bet"], hand["total"]) == (200, 20)
        assert rnd.net() == {"ann": net}
        assert rnd.boxes[0].hands[0].returned == 200 + net


def test_the_replay_of_a_22_round_reproduces_it() -> None:
    rnd = _round(load_rules("1D S17 P22"), "5S 6H 6D 6C 9S TS", "double")
    data = json.loads(json.dumps(round_to_replay(rnd)))
    assert data["rules"] == "1D S17 P22"
    assert replay(data) == round_result(rnd)
    assert replay(data)["net"] == {"ann": 0}


def test_the_file_the_shorthand_and_the_fields_are_one_rule() -> None:
    from_file = load_rules(str(EXAMPLE))
    short = load_rules("6D H17 P22")
    assert from_file.dealer_22 == short.dealer_22 == "push"
    assert from_file.replace(name="x") == short.replace(name="x")
    assert load_rules("6D H17").dealer_22 == "bust"
    with pytest.raises(RulesError, match="dealer_22='never'"):
        Rules(decks=6, dealer_22="never")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="P22"):
        load_rules("6D XYZ")  # the token is in the help


@pytest.mark.parametrize("lang", ["en", "ro", "pl", "pt", "hu", "ru"])
def test_the_rule_card_says_it_in_every_language(lang: str) -> None:
    from twentyone.rulecard import rule_card

    card = rule_card(load_rules("6D H17 P22"), lang=lang)
    plain = rule_card(load_rules("6D H17"), lang=lang)
    extra = set(card.splitlines()) - set(plain.splitlines())
    assert any("22" in line for line in extra), extra
    if lang == "en":
        assert "exactly 22 does not bust: every hand still standing pushes" in " ".join(
            card.split()
        )


def test_the_terminal_shows_a_dealer_22_as_a_push() -> None:
    from twentyone.engine.cards import parse_cards
    from twentyone.terminal.text import table_facts, total_text, use_language

    try:
        use_language("ru")
        assert total_text(parse_cards("6H 6C KS"), push22=True) == "22, ничья"
    finally:
        use_language("en")  # the terminal's language is the process's: leave it English
    assert total_text(parse_cards("6H 6C KS"), push22=True) == "22, pushes"
    assert total_text(parse_cards("6H 6C KS")) == "bust 22"
    assert "dealer's 22 pushes" in table_facts(load_rules("6D H17 P22"))
    assert "dealer's 22 pushes" not in table_facts(load_rules("6D H17"))


@pytest.mark.parametrize("spec", ["6D H17 P22", "2D S17 DAS P22 SPL3", "1D H17 DAS SPL3 P22"])
def test_the_exact_return_agrees_with_the_simulator(spec: str) -> None:
    """The analysis's basic-strategy return under a dealer's 22 that pushes, against 10
    million seeded rounds of the same chart (a standard error of about 0.0003). The simulator
    shuffles continuously (CSM: every round from the full shoe, as the analysis deals it; a cut
    card moves a single deck's return by about 0.001, under "bust" as much)."""
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.sim.runner import simulate

    rules = load_rules(f"{spec} CSM")  # the shuffle: not read by the analysis
    exact = analyze(rules, outcomes=False)
    sim = simulate(rules, 10_000_000, seed=22, workers=1, strategy=basic_strategy(rules))
    se = sim.sd / sim.rounds**0.5
    assert abs(sim.ev - exact.ev_basic) < 4 * se, (spec, exact.ev_basic, sim.ev, se)
    # the second moment (exact but for splits, as under "bust"): the sd agrees closely
    assert exact.sd == pytest.approx(sim.sd, rel=0.01)


def test_a_push_on_22_costs_about_the_dealers_chance_of_22() -> None:
    """It takes from the player the rounds the dealer ends on 22 with a hand standing: a
    little less than P(dealer 22), about 0.074 for an H17 dealer (0.07 of the return)."""
    from twentyone.analysis import analyze

    bust = analyze(load_rules("6D H17"), outcomes=False)
    push = analyze(load_rules("6D H17 P22"), outcomes=False)
    p22 = sum(u["probability"] * push.dealer_totals[k]["22"] for k, u in push.by_upcard.items())
    assert 0.065 < p22 < 0.08
    for a, b in ((bust.ev_basic, push.ev_basic), (bust.ev_optimal, push.ev_optimal)):
        assert 0.8 * p22 < a - b < p22
    for k, totals in push.dealer_totals.items():  # the bust splits into 22 and 23 or more
        was = bust.dealer_totals[k]
        assert totals["bust"] + totals["22"] == pytest.approx(was["bust"], abs=1e-12)
        assert [totals[o] for o in ("17", "18", "19", "20", "21", "blackjack")] == pytest.approx(
            [was[o] for o in ("17", "18", "19", "20", "21", "blackjack")], abs=1e-12
        )


def test_the_analysis_refuses_by_name_only_the_parts_it_does_not_price() -> None:
    from twentyone.analysis import analyze
    from twentyone.analysis.action_moments import action_second_moments
    from twentyone.analysis.context import PUSH22_REFUSED, Context
    from twentyone.analysis.outcomes import round_outcomes
    from twentyone.analysis.split_moments import split_moments_of
    from twentyone.engine.cards import parse_cards

    rules = load_rules("6D H17 P22")
    assert set(PUSH22_REFUSED) == {"outcomes", "split moments", "action moments"}
    with pytest.raises(RulesError, match="dealer_22='push'") as got:
        analyze(rules)  # the round's distribution (outcomes=True)
    assert got.value.params["part"] == "outcomes"
    ctx = Context.of(rules)
    with pytest.raises(RulesError, match="dealer_22='push'"):
        round_outcomes(ctx, True)
    with pytest.raises(RulesError, match="dealer_22='push'"):
        split_moments_of(ctx, 5, 7, np.zeros(ctx.nodes.size, dtype=np.int64), 8)
    cards = parse_cards("8h 8d")
    with pytest.raises(RulesError, match="dealer_22='push'"):
        action_second_moments(rules, cards, parse_cards("6s")[0])


def test_the_simulator_plays_the_rule_round_for_round() -> None:
    """Same seed, same chart, same cards: the rounds differ only where the dealer makes 22
    against a hand standing, which wins under "bust" and pushes under "push". An H17 dealer
    ends on 22 about one time in fourteen (0.074 from an infinite shoe), and most such rounds
    have a hand standing: the return falls by about 0.07 (0.071 with seed 7)."""
    from twentyone.sim.runner import simulate
    from twentyone.sim.textbook import textbook_6d_s17_das

    chart = textbook_6d_s17_das()
    bust, push = (
        simulate(load_rules(spec), 100_000, seed=11, workers=1, strategy=chart)
        for spec in ("6D H17", "6D H17 P22")
    )
    assert 0.05 < bust.ev - push.ev < 0.09


def test_the_web_view_marks_a_dealer_22_that_pushes() -> None:
    from twentyone.web.views import dealer_view

    for rules, pushes in ((PUSH, True), (BUST, None)):
        rnd = _round(rules, "TS 6H TD 6C KS", "stand")
        view = dealer_view(rnd)
        assert view["total"] == 22 and view.get("pushes") is pushes
    # a table where the dealer's 22 pushes, a 23: no mark
    assert "pushes" not in dealer_view(_round(PUSH, "TS 6H TD 7C KS", "stand"))


def _dealer_finals(shoe: list[int], up: int, h17_from: int) -> dict[int, float]:
    """The dealer's final totals (blackjack as 0) drawing to ``up`` from value counts
    ``shoe``, by a plain walk of the engine's drawing rule (no table, no trie)."""
    from twentyone.engine.predicates import dealer_draws

    out: dict[int, float] = {}

    def walk(values: list[int], left: list[int], p: float) -> None:
        hard = sum(v + 1 for v in values)
        soft = 0 in values and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if len(values) == 2 and total == 21:
            out[0] = out.get(0, 0.0) + p
            return
        if len(values) > 1 and not dealer_draws(total, soft, len(values), h17_from):
            out[total] = out.get(total, 0.0) + p
            return
        n = sum(left)
        for v, c in enumerate(left):
            if c:
                left[v] -= 1
                walk([*values, v], left, p * c / n)
                left[v] += 1

    walk([up], list(shoe), 1.0)
    return out


@pytest.mark.parametrize("h17_from", [0, 2])
def test_the_dealers_22_apart_is_the_plain_walks(h17_from: int) -> None:
    import numpy as np

    from twentyone.analysis.dealer import BLACKJACK, BUST, TWENTY_TWO, dealer_distribution

    shoe = [2, 3, 2, 3, 2, 3, 2, 2, 2, 6]  # 27 cards: the walk stays small
    twenty_twos = 0
    for up in range(10):
        left = list(shoe)
        left[up] -= 1
        want = _dealer_finals(left, up, h17_from)
        plain = dealer_distribution(np.array(left), up, h17_from)
        got = dealer_distribution(np.array(left), up, h17_from, True)
        assert got.shape == (8,) and plain.shape == (7,)
        assert got[TWENTY_TWO] == pytest.approx(want.get(22, 0.0), abs=1e-14)
        twenty_twos += want.get(22, 0.0) > 0.01
        over = sum(p for t, p in want.items() if t > 22)
        assert got[BUST] == pytest.approx(over, abs=1e-14)
        assert got[BLACKJACK] == pytest.approx(want.get(0, 0.0), abs=1e-14)
        for j in range(5):
            assert got[j] == plain[j] == pytest.approx(want.get(17 + j, 0.0), abs=1e-14)
        assert got.sum() == pytest.approx(1.0, abs=1e-14)
    assert twenty_twos >= 8  # the dealer makes 22 under almost every up card
