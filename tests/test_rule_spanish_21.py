"""Spanish 21 (``deck="spanish"``, the Match the Dealer side bet): rounds and shoes checked by
hand against the rule sheets cited in the ``spanish-21`` rule file. A Spanish deck is a
standard deck without its four ten-spots (48 cards; jacks, queens and kings kept); Match the
Dealer pays each of the box's first two cards of the dealer's up card's rank (Wizard of Odds,
"Match the Dealer")."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules, replay
from twentyone.analysis.context import Context, full_shoe
from twentyone.analysis.side_bets import side_bets
from twentyone.engine.cards import Card, deck_cards, hand_total, parse_cards
from twentyone.engine.errors import CardError, ReplayError, RulesError
from twentyone.engine.provable import ProvableShoe, verify
from twentyone.engine.records import Payment
from twentyone.engine.replay import round_result, round_to_replay
from twentyone.engine.rules import Rules, rules_from_fields
from twentyone.engine.shoe import Shoe
from twentyone.engine.sidebets import SideBet
from twentyone.rulecard import rule_card
from twentyone.sim.encode import (
    F_B21_CARDS,
    F_B21_MIXED,
    F_B21_SPADES,
    F_B21_SUITED,
    P_CUT,
    P_P21_WINS,
    P_SPANISH,
    card_index,
    encode_rules,
    index_card,
)
from twentyone.sim.kernel import new_state
from twentyone.sim.textbook import textbook_6d_s17_das

SPANISH = Rules(decks=6, deck="spanish")

#: Match the Dealer at six Spanish decks (WoO): a match 4 to 1, a suited one 9 to 1, each
#: matching card paid (two matches: the sum of the two cards' odds).
MATCH = SideBet(
    id="match",
    kind="match-the-dealer",
    paytable={
        "two-suited": Fraction(18),
        "suited-and-unsuited": Fraction(13),
        "two-unsuited": Fraction(8),
        "suited": Fraction(9),
        "unsuited": Fraction(4),
    },
)


# ------------------------------------------------------------------------------- the deck
def test_a_spanish_shoe_holds_48_cards_a_deck_and_no_ten_spot() -> None:
    for decks in (1, 6, 8):
        shoe = Shoe.for_rules(Rules(decks=decks, deck="spanish"), seed=decks)
        cards = shoe.draw_many(shoe.size)
        assert len(cards) == shoe.size == 48 * decks
        assert not any(c.rank == "T" for c in cards)
        counts = Counter(cards)
        assert set(counts.values()) == {decks} and len(counts) == 48
        assert sum(c.is_ten for c in cards) == 12 * decks  # J, Q, K of four suits


def test_a_standard_shoe_keeps_its_52_cards() -> None:
    shoe = Shoe.for_rules(Rules(decks=2), seed=3)
    cards = shoe.draw_many(shoe.size)
    assert len(cards) == 104 and sum(c.rank == "T" for c in cards) == 8


def test_a_cryptographic_spanish_shoe_deals_no_ten_spot() -> None:
    shoe = Shoe.for_rules(Rules(decks=1, deck="spanish", shuffle="continuous"))
    shoe.begin_round()
    assert not any(c.rank == "T" for c in shoe.draw_many(48))


def test_a_stacked_ten_spot_is_refused_where_the_decks_hold_none() -> None:
    with pytest.raises(CardError, match="TD is stacked 1 times, but 6 decks hold 0"):
        StackedShoe("9H TD", decks=6, deck="spanish")
    StackedShoe("9H KD", decks=6, deck="spanish")
    StackedShoe("9H TD", decks=6)  # a standard shoe holds six of each


def test_a_replay_of_a_spanish_round_refuses_a_ten_spot() -> None:
    rnd = Round(SPANISH, StackedShoe("KS 9H 8D 9C"), [BoxBet("ann", 100)])
    rnd.apply("stand")
    data = round_to_replay(rnd)
    assert replay(data) == round_result(rnd)
    data["shoe"] = data["shoe"].replace("KS", "TS")
    with pytest.raises(ReplayError, match="TS is stacked 1 times, but 6 decks hold 0"):
        replay(data)


def test_a_provable_spanish_shoe_commits_to_48_cards_a_deck_and_verifies() -> None:
    shoe = ProvableShoe(decks=2, shuffle="continuous", deck="spanish")
    commitment = shoe.commitment
    shoe.begin_round()
    dealt = [shoe.draw() for _ in range(96)]
    shoe.note_round(1, " ".join(map(str, dealt)))
    shoe.finish_round()
    assert not any(c.rank == "T" for c in dealt) and len(set(dealt)) == 48
    (check,) = shoe.verification()
    assert check["record"]["deck"] == "spanish"
    assert verify(check["record"], check["rounds"], [commitment]) == 96
    standard = ProvableShoe(decks=1, shuffle="continuous")
    standard.begin_round()
    standard.draw()
    standard.finish_round()
    assert "deck" not in standard.revealed[-1]  # a standard record as it always was


def test_the_analysis_counts_twelve_ten_values_a_spanish_deck() -> None:
    assert full_shoe(SPANISH) == (24, 24, 24, 24, 24, 24, 24, 24, 24, 72)
    assert full_shoe(Rules(decks=6))[9] == 96
    assert Context.of(SPANISH).shoe == full_shoe(SPANISH)
    # insurance: 3 * P(ten under the ace) - 1 with 72 ten-values among 287 cards
    assert side_bets(SPANISH)["insurance"]["A"] == pytest.approx(3 * 72 / 287 - 1)  # type: ignore[index]


def test_the_simulators_shoe_is_spanish_and_the_counting_simulator_refuses_it() -> None:
    p, _ = encode_rules(SPANISH)
    assert p[P_SPANISH] == 1 and p[P_CUT] == int(288 * SPANISH.penetration)
    shoe = new_state(6, 1, "spanish")[0]
    assert len(shoe) == 288 and not any(index_card(int(i)).rank == "T" for i in shoe)
    assert Counter(index_card(int(i)).value for i in shoe)[10] == 72
    from twentyone.counting.ramp import Ramp
    from twentyone.counting.sim_runner import CountSetup, kernel_inputs
    from twentyone.counting.trainer import count_system

    setup = CountSetup(system=count_system("hilo"), ramp=Ramp(steps=((0, 1),)))
    with pytest.raises(RulesError, match="deck='spanish': the counting simulator does not"):
        kernel_inputs(SPANISH, textbook_6d_s17_das(), setup)


def test_the_vector_environments_shoes_are_spanish() -> None:
    from twentyone.gym.vector import BlackjackVectorEnv

    env = BlackjackVectorEnv(2, SPANISH)
    assert env._shoe.shape == (2, 288)
    assert not any(index_card(int(i)).rank == "T" for i in env._shoe[0])


def test_the_rule_card_says_spanish_decks() -> None:
    words = " ".join(rule_card(SPANISH).split())
    assert "6 Spanish decks of 48 cards (each deck's four tens taken out" in words
    assert "decks of 52 cards" not in words
    assert "48" in " ".join(rule_card(SPANISH, "ru").split())


def test_deck_cards_is_the_standard_deck_less_its_ten_spots() -> None:
    assert set(deck_cards("standard")) - set(deck_cards("spanish")) == {
        c for c in deck_cards() if c.rank == "T"
    }
    with pytest.raises(RulesError, match="deck='french'"):
        Rules(decks=6, deck="french")  # type: ignore[arg-type]


# ------------------------------------------------------------------------ Match the Dealer
def _match_round(cards: str) -> Round:
    rules = SPANISH.replace(side_bets=(MATCH,))
    return Round(rules, StackedShoe(cards), [BoxBet("ann", 100, {"match": 10})])


def _match_paid(rnd: Round) -> tuple[str | None, int]:
    (pay,) = [
        p
        for p in rnd.log
        if isinstance(p, Payment) and p.kind == "side-bet" and p.side_bet == "match"
    ]
    return pay.line, pay.amount


@pytest.mark.parametrize(
    ("cards", "line", "returned"),
    [
        ("7S 7H 4D KC", "unsuited", 50),  # one 7 of another suit: 4 to 1
        ("7H 7H 4D KC", "suited", 100),  # the 7 of hearts: 9 to 1
        ("7S 7H 7D KC", "two-unsuited", 90),  # two 7s, neither a heart: 4 + 4
        ("7H 7H 7D KC", "suited-and-unsuited", 140),  # 9 + 4
        ("7H 7H 7H KC", "two-suited", 190),  # 9 + 9
        ("KS QH KH 9C", None, 0),  # a king and a queen do not match by rank
        ("8S 7H 4D KC", None, 0),
    ],
)
def test_match_the_dealer_pays_each_matching_card(
    cards: str, line: str | None, returned: int
) -> None:
    rnd = _match_round(cards)
    while not rnd.is_over:
        rnd.apply("stand")
    assert _match_paid(rnd) == (line, returned)


def test_match_the_dealer_is_priced_as_published() -> None:
    # 888casino / WoO: six Spanish decks, 4 and 9 to 1: house edge 3.055%, hit 15.411%
    price = side_bets(SPANISH.replace(side_bets=(MATCH,)))["match"]
    assert price["return"] == pytest.approx(-0.03055, abs=5e-6)  # type: ignore[index]
    assert sum(price["lines"].values()) == pytest.approx(0.15411, abs=5e-6)  # type: ignore[index]


def test_match_the_dealer_knows_its_lines() -> None:
    with pytest.raises(RulesError, match="paytable line 'pair'"):
        SideBet(id="m", kind="match-the-dealer", paytable={"pair": Fraction(4)})


# ------------------------------------------------------------ the 21s: bonuses and wins
S21 = load_rules("spanish-21")
#: The table without doubling after hits, redoubling and the rescue (the counting simulator
#: refuses them by name: sim.encode.refuse_spanish_doubles).
S21_KERNELS = S21.replace(double_after_hit=False, redoubles=0, rescue=False)


def _s21(cards: str, *decisions: str, rules: Rules = S21) -> Round:
    """A one-box round of 1000 at the spanish-21 table from ``cards`` (box, dealer up, box,
    dealer's hole card, then the draws), the ``decisions`` applied in turn."""
    rnd = Round(
        rules, StackedShoe(cards, decks=rules.decks, deck=rules.deck), [BoxBet("ann", 1000)]
    )
    for d in decisions:
        rnd.apply(d)
    assert rnd.is_over
    return rnd


def _results(rnd: Round) -> list[str]:
    return [h["result"] for h in round_result(rnd)["boxes"][0]["hands"]]


def test_spanish_21_rule_file_is_the_published_h17_game() -> None:
    assert (S21.decks, S21.deck, S21.dealer_hits_soft_17, S21.peek) == (6, "spanish", True, True)
    assert S21.player_21_wins and S21.blackjack_ties == "player"
    assert S21.blackjack_pays == Fraction(3, 2) and S21.surrender == "late"
    assert dict(S21.bonus_21_cards) == {5: Fraction(3, 2), 6: Fraction(2), 7: Fraction(3)}
    assert dict(S21.bonus_21_678_777) == {
        "mixed": Fraction(3, 2),
        "suited": Fraction(2),
        "spades": Fraction(3),
    }
    assert (S21.max_hands, S21.resplit_aces, S21.hit_split_aces) == (4, True, True)
    assert S21.side_bet("match").kind == "match-the-dealer"
    assert rules_from_fields(S21.to_dict(), "again") == S21  # the odds tables round-trip


@pytest.mark.parametrize(
    ("cards", "hits", "net"),
    [
        # 2-3 against a 9 (hole 8: 17 stands); 4, 5, 7: a five-card 21, 3 to 2
        ("2S 9C 3D 8H 4H 5C 7S", 3, 1500),
        # 2-2, then 3, 4, 5, 5: a six-card 21, 2 to 1
        ("2S 9C 2D 8H 3H 4C 5S 5D", 4, 2000),
        # 2-2, then 2, 3, 3, 4, 5: a seven-card 21, 3 to 1
        ("2S 9C 2D 8H 2H 3C 3S 4D 5C", 5, 3000),
        # eight cards: 2-2-2-2-3-3-3-4, "7 or more" still 3 to 1
        ("2S 9C 2D 8H 2H 2C 3S 3D 3C 4H", 6, 3000),
        # a four-card 21 (2-3 then 6, KD) wins 1 to 1 only
        ("2S 9C 3D 8H 6H KD", 2, 1000),
    ],
)
def test_a_21_of_five_six_seven_or_more_cards_pays_its_bonus(
    cards: str, hits: int, net: int
) -> None:
    rnd = _s21(cards, *["hit"] * hits)
    assert rnd.net() == {"ann": net}
    assert _results(rnd) == ["bonus-21" if net > 1000 else "win"]


@pytest.mark.parametrize(
    ("cards", "net"),
    [
        ("6H 9C 7H 8D 8H", 2000),  # 6-7-8 of hearts: suited, 2 to 1
        ("6S 9C 7S 8D 8S", 3000),  # 6-7-8 of spades: 3 to 1
        ("6S 9C 7H 8D 8D", 1500),  # mixed suits: 3 to 2
        ("7D 9C 7D 8D 7D", 2000),  # 7-7-7 of diamonds: suited, 2 to 1
        ("7S 9C 7S 8D 7S", 3000),  # 7-7-7 of spades: 3 to 1
        ("7S 9C 7H 8D 7D", 1500),  # 7-7-7 of mixed suits: 3 to 2
        ("8S 9C 6S 8D 7S", 3000),  # the order of the three cards does not matter
    ],
)
def test_a_six_seven_eight_or_three_sevens_21_pays_by_suit(cards: str, net: int) -> None:
    rnd = _s21(cards, "hit")  # the dealer's 9-8 = 17 stands
    assert rnd.net() == {"ann": net}
    assert _results(rnd) == ["bonus-21"]


def test_no_bonus_on_a_doubled_21_which_still_wins() -> None:
    # 6-7 of spades doubles and draws the 8 of spades: a 6-7-8 of spades, but doubled: it
    # wins 1 to 1 on its 2000
    rnd = _s21("6S 9C 7S 8D 8S", "double")
    assert rnd.net() == {"ann": 2000} and _results(rnd) == ["win"]
    # a doubled 21 against the dealer's 21 still wins (6-5 doubles to 21 with a king; the
    # dealer's 6-5 draws a king too)
    rnd = _s21("6S 6C 5S 5D KS KD", "double")
    assert rnd.net() == {"ann": 2000} and _results(rnd) == ["win"]


def test_a_player_21_beats_the_dealers_21() -> None:
    # K-5 hits a 6: 21 of three cards (no bonus); the dealer's 6-5 draws a king: 21
    rnd = _s21("KS 6C 5D 5H 6S KD", "hit")
    assert round_result(rnd)["dealer"]["total"] == 21
    assert rnd.net() == {"ann": 1000} and _results(rnd) == ["win"]
    pushed = _s21("KS 6C 5D 5H 6S KD", "hit", rules=S21.replace(player_21_wins=False))
    assert pushed.net() == {"ann": 0} and _results(pushed) == ["push"]


def test_a_21_bonus_beats_the_dealers_21_too() -> None:
    # 6-7-8 of hearts against the dealer's 6-5 drawing a king (21): paid 2 to 1
    rnd = _s21("6H 6C 7H 5D 8H KD", "hit")
    assert round_result(rnd)["dealer"]["total"] == 21
    assert rnd.net() == {"ann": 2000}


def test_a_player_blackjack_beats_a_dealer_blackjack() -> None:
    # A-K against the dealer's K up and ace in the hole: the peek finds it; the blackjack
    # still wins 3 to 2
    rnd = _s21("AS KC KD AH")
    assert round_result(rnd)["dealer"]["total"] == 21
    assert rnd.net() == {"ann": 1500} and _results(rnd) == ["blackjack"]


def test_a_dealer_blackjack_takes_a_hand_before_it_reaches_21() -> None:
    rnd = _s21("9S KC 2D AH")  # the peek ends the round: 11 never draws
    assert rnd.net() == {"ann": -1000}


def test_a_split_hands_21_bonus_is_paid() -> None:
    # 7-7 split against a 9 (hole 8: 17); the first hand gets 7D (hit: 7C) = 7-7-7 mixed
    # (3 to 2 on 1000); the second 7H gets KS = 17, a push
    rnd = _s21("7S 9C 7H 8D 7D 7C KS", "split", "hit", "stand")
    assert _results(rnd) == ["bonus-21", "push"]
    assert rnd.net() == {"ann": 1500}


def test_a_bonus_round_replays_exactly() -> None:
    rnd = _s21("2S 9C 3D 8H 4H 5C 7S", "hit", "hit", "hit")
    assert replay(round_to_replay(rnd)) == round_result(rnd)


def test_the_exact_analysis_prices_the_21_rules_and_its_distribution_refuses_them() -> None:
    changes: tuple[tuple[str, Any], ...] = (
        ("player_21_wins", True),
        ("bonus_21_cards", {5: "3:2"}),
        ("bonus_21_678_777", {"suited": "2"}),
    )
    for field, value in changes:
        ctx = Context.of(Rules(decks=6).replace(**{field: value}))  # priced: analysis.spanish
        with pytest.raises(RulesError, match=f"{field}=.*the exact analysis does not price"):
            ctx.refuse_spanish("outcomes")


def test_the_compiled_rules_carry_the_21_rules() -> None:
    p, f = encode_rules(S21_KERNELS)
    assert p[P_P21_WINS] == 1
    assert [f[F_B21_CARDS + n] for n in (3, 4, 5, 6, 7, 8, 21)] == [0, 0, 1.5, 2, 3, 3, 3]
    assert (f[F_B21_MIXED], f[F_B21_SUITED], f[F_B21_SPADES]) == (1.5, 2, 3)


def _kernel_money(rules: Rules, hand: str, dealer: int, *, doubled: bool = False) -> float:
    """What the kernels' settlement pays one hand of ``hand`` (one unit; two doubled)
    against the dealer's final ``dealer``."""
    import numpy as np

    from twentyone.sim.hands import FL_DOUBLED, H_BET, H_FIELDS, H_FLAGS, add
    from twentyone.sim.settle import box_money

    p, f = encode_rules(rules)
    hands = np.zeros((1, H_FIELDS), dtype=np.int64)
    hands[0, H_BET] = 2 if doubled else 1
    hands[0, H_FLAGS] = FL_DOUBLED if doubled else 0
    for c in hand.split():
        add(hands, 0, card_index(Card.parse(c)))
    return float(box_money(p, f, hands, 0, 1, 0, dealer))


@pytest.mark.parametrize(
    ("hand", "dealer", "doubled", "money"),
    [
        ("2S 3D 4H 5C 7S", 18, False, 1.5),  # five cards: 3 to 2
        ("2S 2D 3H 4C 5S 5D", 21, False, 2.0),  # six cards, against the dealer's 21
        ("2S 2D 2H 2C 3S 3D 3C 4H", 19, False, 3.0),  # eight cards: "7 or more"
        ("6S 8S 7S", 17, False, 3.0),  # 6-7-8 of spades
        ("7H 7H 7H", 17, False, 2.0),  # 7-7-7 of hearts
        ("6S 7H 8D", 21, False, 1.5),  # mixed, against the dealer's 21
        ("6S 7S 8S", 17, True, 2.0),  # doubled: 1 to 1 on two units
        ("KS 5D 6H", 21, False, 1.0),  # a three-card 21 beats the dealer's 21
        ("KS 5D 6H", 22, False, 1.0),  # a dealer's bust
        ("KS 9D", 19, False, 0.0),  # not a 21: totals compare
    ],
)
def test_the_kernels_settle_the_21_rules_as_the_engine(
    hand: str, dealer: int, doubled: bool, money: float
) -> None:
    assert _kernel_money(S21_KERNELS, hand, dealer, doubled=doubled) == money
    # and the engine's settlement of the same hand says the same
    if not doubled:
        odds = S21.bonus_21(parse_cards(hand), False)
        total = hand_total(parse_cards(hand)).total
        want = float(odds) if odds is not None else (1.0 if total == 21 or dealer > 21 else 0.0)
        assert money == want


def test_without_the_rules_a_kernels_21_pushes_the_dealers_21() -> None:
    assert _kernel_money(Rules(decks=6), "2S 3D 4H 5C 7S", 21) == 0.0
    assert _kernel_money(Rules(decks=6), "2S 3D 4H 5C 7S", 20) == 1.0


def test_the_21_rules_refuse_bad_tables() -> None:
    with pytest.raises(RulesError, match=r"bonus_21_cards=.*3 to 21"):
        Rules(decks=6, bonus_21_cards={2: "1"})  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"bonus_21_678_777=.*spades, suited, mixed"):
        Rules(decks=6, bonus_21_678_777={"clubs": "1"})  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="positive ratio"):
        Rules(decks=6, bonus_21_cards={5: "0"})  # type: ignore[arg-type]


def test_the_rule_card_tells_the_21_rules() -> None:
    words = " ".join(rule_card(S21).split())
    assert "A player's 21 that is not a blackjack always wins" in words
    assert "5 cards, 3 to 2; 6 cards, 2 to 1; 7 or more cards, 3 to 1" in words
    assert "mixed suits, 3 to 2; one suit, 2 to 1; all spades, 3 to 1" in words
    assert "A blackjack against a dealer blackjack wins" in words
    assert "Match the Dealer" in words
    for lang in ("ro", "pl", "pt", "hu", "ru"):
        card = " ".join(rule_card(S21, lang).split())
        assert "always wins" not in card and "3 to 2" not in card, lang


def test_every_result_is_shown_in_words_at_the_terminal_and_on_the_web() -> None:
    from pathlib import Path
    from typing import get_args

    from twentyone.cli.replay_view import _RESULTS
    from twentyone.engine.records import Result
    from twentyone.i18n import Words
    from twentyone.terminal.text import RESULT_WORDS

    results = set(get_args(Result))
    assert "bonus-21" in results
    assert results <= set(RESULT_WORDS) and results <= set(_RESULTS)
    js = (Path(__file__).parents[1] / "src/twentyone/web/static/ui.js").read_text("utf-8")
    assert '"bonus-21": N_("21 bonus")' in js
    for lang in ("ro", "pl", "pt", "hu", "ru"):
        w = Words(lang)
        assert w._("21 bonus") != "21 bonus" and w._(RESULT_WORDS["bonus-21"][0]) != "21 BONUS"


def test_the_exact_return_of_a_spanish_shoe_agrees_with_the_simulator() -> None:
    """The analysis's basic-strategy return on Spanish decks (the spanish-21 table without its
    21 rules and its doubles) against 10 million seeded rounds of the same chart
    dealt from the simulator's Spanish shoe, shuffled continuously (every round from the
    full shoe, as the analysis deals it)."""
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.sim.runner import simulate

    rules = S21_KERNELS.replace(
        player_21_wins=False, bonus_21_cards=(), bonus_21_678_777=(), shuffle="continuous"
    )
    exact = analyze(rules, outcomes=False)
    assert 0.02 < -exact.ev_basic < 0.023  # the ten-spots out cost about 2%
    sim = simulate(rules, 10_000_000, seed=21, workers=1, strategy=basic_strategy(rules))
    se = sim.sd / sim.rounds**0.5
    assert abs(sim.ev - exact.ev_basic) < 4 * se, (exact.ev_basic, sim.ev, se)
    # the standard shoe's chart and return differ: the shoe is read
    standard = analyze(rules.replace(deck="standard"), outcomes=False)
    assert -standard.ev_basic < 0.005


def test_simulate_spanish_21_agrees_with_the_exact_edge() -> None:
    """``simulate spanish-21`` (its doubles on any number of cards, redoubles, the rescue a
    chart never takes, the 21 rules) against ``edge spanish-21``'s basic-strategy return:
    3 million seeded rounds from a fresh shoe each (as the analysis deals), within 4 standard
    errors (about 0.074% each: the round's sd is about 1.28 units)."""
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.sim.runner import simulate

    rules = S21.replace(shuffle="continuous")
    exact = analyze(rules, outcomes=False)
    sim = simulate(rules, 3_000_000, seed=2121, workers=1, strategy=basic_strategy(rules))
    se = sim.sd / sim.rounds**0.5
    assert se < 0.0008
    assert abs(sim.ev - exact.ev_basic) < 4 * se, (exact.ev_basic, sim.ev, se)
