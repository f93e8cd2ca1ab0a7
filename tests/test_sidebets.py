"""Side bets as data: the kinds' evaluators, the SideBet setting and its exact prices."""

# The paytables below are written as rule files write them ("25", "3:2"): SideBet reads them
# into Fractions, and its field is typed as what it keeps.
# mypy: disable-error-code="dict-item"

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from twentyone.analysis.side_bets import first_cards_lines, side_bet_price
from twentyone.engine.cards import RANKS, SUITS, Card, parse_cards
from twentyone.engine.errors import BetError, RulesError
from twentyone.engine.hands import BoxBet
from twentyone.engine.records import Deal, Payment
from twentyone.engine.replay import replay, round_result, round_to_replay
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules, rules_from_toml
from twentyone.engine.shoe import Shoe, StackedShoe
from twentyone.engine.sidebets import KINDS, SideBet, outcome

EXAMPLE = Path(__file__).parent.parent / "examples" / "rules" / "side-bets.toml"
PP = SideBet(
    id="pp", kind="perfect-pairs", paytable={"perfect": "25", "coloured": "12", "mixed": "6"}
)
T213 = SideBet(
    id="21-3",
    kind="21+3",
    paytable={
        "suited-trips": "100",
        "straight-flush": "40",
        "three-of-a-kind": "30",
        "straight": "10",
        "flush": "5",
    },
)


def line(bet: SideBet, cards: str) -> str | None:
    return outcome(bet, 1, parse_cards(cards))[0]


def test_perfect_pairs_lines() -> None:
    assert line(PP, "QH QH") == "perfect"
    assert line(PP, "QH QD") == "coloured" and line(PP, "QS QC") == "coloured"
    assert line(PP, "QH QS") == "mixed" and line(PP, "QC QD") == "mixed"
    assert line(PP, "QH KH") is None and line(PP, "TH KH") is None  # same value, not a pair


def test_21_3_lines_pay_the_best_hand_only() -> None:
    assert line(T213, "9S 9S 9S") == "suited-trips"
    assert line(T213, "9S 9H 9S") == "three-of-a-kind"
    assert line(T213, "5D 6D 7D") == "straight-flush"
    assert line(T213, "AH 2H 3H") == "straight-flush"  # ace low
    assert line(T213, "QC KC AC") == "straight-flush"  # ace high
    assert line(T213, "KC AC 2C") == "flush"  # no wrap-around straight
    assert line(T213, "KD AC 2C") is None
    assert line(T213, "9S TH JD") == "straight"
    assert line(T213, "2S 9S KS") == "flush"
    assert line(T213, "2S 2H 3S") is None  # a pair is not on the paytable
    assert outcome(T213, 500, parse_cards("5D 6D 7D")) == ("straight-flush", Fraction(500 * 41))


def test_unknown_kind_and_line_name_the_expected_ones() -> None:
    with pytest.raises(RulesError, match=r"kind 'lucky': expected one of 'perfect-pairs', '21\+3'"):
        SideBet(id="x", kind="lucky", paytable={"a": "1"})
    with pytest.raises(RulesError, match="line 'pair': expected one of 'perfect', 'coloured'"):
        SideBet(id="x", kind="perfect-pairs", paytable={"pair": "5"})
    with pytest.raises(RulesError, match="expected positive odds"):
        SideBet(id="x", kind="perfect-pairs", paytable={"mixed": "0"})
    with pytest.raises(RulesError, match="other than insurance"):
        SideBet(id="insurance", kind="perfect-pairs", paytable={"mixed": "6"})
    with pytest.raises(RulesError, match="kind and paytable"):
        Rules(decks=6, side_bets={"pp": {"kind": "perfect-pairs", "pays": {}}})  # type: ignore[arg-type]


def test_side_bets_from_toml_round_trip() -> None:
    rules = load_rules(str(EXAMPLE))
    assert [b.id for b in rules.side_bets] == ["perfect-pairs", "21-3"]
    assert rules.side_bet("21-3") == T213.__class__(id="21-3", kind="21+3", paytable=T213.paytable)
    assert Rules(**rules.to_dict()) == rules


def test_legacy_jackpot_and_bonus_keys_still_load() -> None:
    old = rules_from_toml(
        'decks = 6\nbonus_678_777 = "3"\n[jackpot_paytable]\n2 = "25"\n3 = "250"\n4 = "2500"\n'
    )
    pt = load_rules("pt-casino")
    assert old.side_bets == tuple(sorted(pt.side_bets, key=lambda b: b.id != "jackpot"))
    assert old.bonus_678_777 == 3
    assert pt.replace(bonus_678_777=0).side_bets == (pt.side_bet("jackpot"),)


def test_perfect_pairs_8_decks_published_house_edge() -> None:
    # The published figure for 25/12/6 at eight decks: a house edge of 4.0964%.
    rules = Rules(decks=8, side_bets=(PP,))
    price = side_bet_price(rules, PP)
    assert price["return"] == pytest.approx(-0.040964, abs=5e-7)
    # by hand from the 416-card shoe: the second card matches the first's rank and suit in 7
    # ways, its rank and colour (the other suit) in 8, its rank in the other colour in 16
    n = 416 * 415
    perfect, coloured, mixed = 52 * 8 * 7, 52 * 8 * 8, 52 * 8 * 16
    assert price["lines"] == pytest.approx(
        {"perfect": perfect / n, "coloured": coloured / n, "mixed": mixed / n}
    )


def _brute_21_3(cards: list[Card]) -> str | None:
    """An independent classifier: the best hand of three cards as a casino pays 21+3."""
    ranks = [RANKS.index(c.rank) for c in cards]  # 0 = deuce .. 12 = ace
    suits = {c.suit for c in cards}
    same_rank = len(set(ranks)) == 1
    flush = len(suits) == 1
    lo = sorted(ranks)
    run = lo[1] == lo[0] + 1 and lo[2] == lo[1] + 1
    wheel = lo == [0, 1, 12]  # A-2-3
    if same_rank and flush:
        return "suited-trips"
    if (run or wheel) and flush:
        return "straight-flush"
    if same_rank:
        return "three-of-a-kind"
    if run or wheel:
        return "straight"
    if flush:
        return "flush"
    return None


def test_21_3_exact_against_brute_force_on_one_and_two_decks() -> None:
    deck = [Card(r, s) for r in RANKS for s in SUITS]
    for decks in (1, 2):
        shoe = deck * decks
        counts: dict[str | None, int] = {}
        for a, b, c in permutations(range(len(shoe)), 3) if decks == 1 else _sample(shoe):
            key = _brute_21_3([shoe[a], shoe[b], shoe[c]])
            counts[key] = counts.get(key, 0) + 1
        total = sum(counts.values())
        exact = first_cards_lines(T213, decks)
        assert {k: Fraction(v, total) for k, v in counts.items()} == exact


def _sample(shoe: list[Card]) -> list[tuple[int, int, int]]:
    """Every unordered triple of shoe positions (enough for order-free evaluators)."""
    n = len(shoe)
    return [(a, b, c) for a in range(n) for b in range(a + 1, n) for c in range(b + 1, n)]


def test_every_kind_has_titles_for_its_lines() -> None:
    for kind in KINDS.values():
        assert kind.title and set(kind.line_titles) == set(kind.lines)


def test_edge_json_prices_the_example_side_bets() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "edge", str(EXAMPLE), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    side = json.loads(out.stdout)["side_bets"]
    assert set(side) == {"insurance", "even_money", "blackjack_vs_ace", "perfect-pairs", "21-3"}
    assert side["perfect-pairs"]["return"] == pytest.approx(-0.0610932, abs=1e-7)  # 6 decks
    assert side["21-3"]["kind"] == "21+3"
    assert set(side["21-3"]["lines"]) == set(T213.paytable)
    flush = float(first_cards_lines(T213, 6)["flush"])
    assert side["21-3"]["lines"]["flush"] == pytest.approx(flush)


def test_rule_card_lists_a_side_bet_with_its_catalog_strings() -> None:
    from twentyone.rulecard import rule_card

    rules = load_rules(str(EXAMPLE))
    card = " ".join(rule_card(rules).split())
    assert "Perfect Pairs: an optional side bet" in card
    assert "perfect pair (one suit), 25 to 1" in card and "straight flush, 40 to 1" in card
    pt = " ".join(rule_card(rules, "pt").split())
    assert "Pares perfeitos:" in pt and "sequência de cor, 40 para 1" in pt


# ----------------------------------------------------------------------------- in the engine
def _example_round(shoe: str, sides: dict[str, int], decisions: list[str]) -> Round:
    rnd = Round(load_rules(str(EXAMPLE)), StackedShoe(shoe), [BoxBet("ann", 1000, sides)])
    for d in decisions:
        rnd.apply(d)
    return rnd


def test_side_bets_are_staked_then_paid_right_after_the_deal() -> None:
    # ann 7H 7D (a coloured pair: both red) against the up card 8H: 7-7-8 is no 21+3 hand.
    rnd = _example_round("7H 8H 7D TC", {"perfect-pairs": 500, "21-3": 200}, [])
    stakes = [p for p in rnd.log if isinstance(p, Payment) and p.kind == "stake"]
    assert [(p.side_bet, p.amount) for p in stakes] == [
        (None, -1000),
        ("perfect-pairs", -500),
        ("21-3", -200),
    ]
    paid = [p for p in rnd.log if isinstance(p, Payment) and p.kind == "side-bet"]
    assert [(p.side_bet, p.line, p.amount) for p in paid] == [
        ("perfect-pairs", "coloured", 500 * 13),
        ("21-3", None, 0),
    ]
    assert not any(isinstance(r, Deal) for r in rnd.log[rnd.log.index(paid[0]) :])
    assert rnd.question is not None and rnd.question.kind == "play"
    assert rnd.boxes[0].net == -1000 - 500 - 200 + 6500
    rnd.stand()  # 14 against 8H TC (18): the main bet loses
    assert rnd.net() == {"ann": -1000 - 200 + 500 * 12}


def test_21_3_reads_the_dealer_up_card() -> None:
    # ann 9S TS, up card JS: a straight flush 9-T-J pays 40 to 1.
    rnd = _example_round("9S JS TS 7C", {"21-3": 100}, ["stand"])
    (paid,) = [p for p in rnd.log if isinstance(p, Payment) and p.kind == "side-bet"]
    assert (paid.line, paid.amount) == ("straight-flush", 4100)
    assert rnd.net() == {"ann": 1000 + 4000}  # 19 beats 17


def test_side_bet_stakes_are_checked_against_the_table() -> None:
    rules = load_rules(str(EXAMPLE))
    with pytest.raises(
        BetError, match=r"side bet 'lucky': this table offers 'perfect-pairs', '21-3'"
    ):
        Round(rules, StackedShoe("7H 8H 7D TC"), [BoxBet("ann", 1000, {"lucky": 100})])
    with pytest.raises(BetError, match="side bet '21-3' 60000: expected 0 to 50000"):
        Round(rules, StackedShoe("7H 8H 7D TC"), [BoxBet("ann", 1000, {"21-3": 60_000})])
    with pytest.raises(BetError, match="bets 1600 but has 1500"):
        Round(
            rules, StackedShoe("7H 8H 7D TC"), [BoxBet("ann", 1000, {"21-3": 600})], {"ann": 1500}
        )
    with pytest.raises(BetError, match="offers none"):
        Round(load_rules("ro-casino"), StackedShoe("7H 8H 7D TC"), [BoxBet("a", 100, {"pp": 1})])


def test_replay_writes_and_reads_side_bets_per_box() -> None:
    rnd = _example_round("7H 8H 7D TC", {"perfect-pairs": 500, "21-3": 200}, ["stand"])
    data = json.loads(json.dumps(round_to_replay(rnd)))
    assert data["boxes"] == [
        {"player": "ann", "bet": 1000, "side_bets": {"perfect-pairs": 500, "21-3": 200}}
    ]
    out = replay(data)
    assert out == round_result(rnd)
    (box,) = out["boxes"]
    assert box["side_paid"] == {"perfect-pairs": 6500, "21-3": 0}
    assert box["net"] == -1000 - 200 + 6000


def test_old_replays_with_a_jackpot_key_still_load() -> None:
    old = {
        "rules": "pt-casino",
        "shoe": "AS TD AH 8C",
        "boxes": [{"player": "ann", "bet": 100, "jackpot": 100}],
        "decisions": ["stand"],
    }
    out = replay(old)
    assert out["boxes"][0]["side_bets"] == {"jackpot": 100}
    assert out["net"] == {"ann": -100 - 100 + 2600}


def test_seeded_play_agrees_with_the_exact_prices() -> None:
    # 4000 rounds from a seeded 6-deck shoe: each side bet's average return is within four
    # standard errors (from the exact line probabilities) of its exact price.
    rules = load_rules(str(EXAMPLE))
    shoe = Shoe.for_rules(rules, 7)
    totals = {"perfect-pairs": 0, "21-3": 0}
    n = 4000
    for _ in range(n):
        rnd = Round(rules, shoe, [BoxBet("ann", 100, {"perfect-pairs": 1, "21-3": 1})])
        while rnd.question is not None:
            q = rnd.question
            rnd.apply("stand" if "stand" in q.actions else q.actions[0])
        for bet_id in totals:
            totals[bet_id] += rnd.boxes[0].side_paid[bet_id] - 1
    for bet in rules.side_bets:
        price = side_bet_price(rules, bet)
        second = sum(p * float(bet.paytable[k]) ** 2 for k, p in price["lines"].items())
        second += 1 - sum(price["lines"].values())  # a lost unit
        sd = (second - price["return"] ** 2) ** 0.5
        assert abs(totals[bet.id] / n - price["return"]) < 4 * sd / n**0.5, bet.id


def test_a_new_kind_needs_only_its_evaluator(monkeypatch: pytest.MonkeyPatch) -> None:
    # A kind made up here, registered with nothing else changed: the rules take it, the engine
    # settles it after the deal, the analysis prices it, the web lists it.
    from twentyone.engine.sidebets import Kind
    from twentyone.web.views import side_bets_info

    def colours(cards: Any) -> frozenset[str]:
        a, b = cards[:2]
        if a.suit == b.suit:
            return frozenset({"suited"})
        return frozenset({"one-colour"}) if (a.suit in "DH") == (b.suit in "DH") else frozenset()

    kind = Kind(
        name="colours",
        title="Colours",
        lines=("suited", "one-colour"),
        line_titles={"suited": "suited", "one-colour": "one colour"},
        view="first-two",
        evaluate=colours,
    )
    monkeypatch.setitem(KINDS, "colours", kind)
    bet = SideBet(id="c", kind="colours", paytable={"suited": "3", "one-colour": "1"})
    rules = Rules(decks=1, side_bets=(bet,))
    price = side_bet_price(rules, bet)
    assert price["lines"] == pytest.approx({"suited": 12 / 51, "one-colour": 13 / 51})
    assert price["return"] == pytest.approx(12 / 51 * 4 + 13 / 51 * 2 - 1)
    rnd = Round(rules, StackedShoe("2H 9C 5D TS"), [BoxBet("ann", 100, {"c": 10})])
    (paid,) = [p for p in rnd.log if isinstance(p, Payment) and p.kind == "side-bet"]
    assert (paid.line, paid.amount) == ("one-colour", 20)
    assert side_bets_info(rules)[0]["title"] == "Colours"
