"""Spanish 21 (``deck="spanish"``, the Match the Dealer side bet): rounds and shoes checked by
hand against the rule sheets cited in the ``spanish-21`` rule file. A Spanish deck is a
standard deck without its four ten-spots (48 cards; jacks, queens and kings kept); Match the
Dealer pays each of the box's first two cards of the dealer's up card's rank (Wizard of Odds,
"Match the Dealer")."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from twentyone import BoxBet, Round, StackedShoe, replay
from twentyone.analysis.context import Context, full_shoe
from twentyone.analysis.side_bets import side_bets
from twentyone.engine.cards import deck_cards
from twentyone.engine.errors import CardError, ReplayError, RulesError
from twentyone.engine.provable import ProvableShoe, verify
from twentyone.engine.records import Payment
from twentyone.engine.replay import round_result, round_to_replay
from twentyone.engine.rules import Rules
from twentyone.engine.shoe import Shoe
from twentyone.engine.sidebets import SideBet
from twentyone.rulecard import rule_card
from twentyone.sim.encode import encode_rules

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


def test_the_simulator_refuses_a_spanish_deck_naming_the_field() -> None:
    with pytest.raises(RulesError, match="deck='spanish': the simulator does not play this"):
        encode_rules(SPANISH)


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
