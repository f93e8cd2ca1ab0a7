"""The Super Match bet of Blackjack Switch tables (kind ``super-match``, view ``pair-four``): a
pair or better among the first four cards of a player's switch pair, by rank, settled right
after the deal (before the switch), on the paytable of the ``switch`` rule file (four of a kind
40 to 1, two pairs 8 to 1, three of a kind 5 to 1, a pair 1 to 1), priced exactly by the
analysis from the shoe.

Cards are dealt round-robin: box 1, box 2, the dealer's up card, box 1, box 2, the hole card."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules
from twentyone.analysis.side_bets import side_bet_price
from twentyone.engine.errors import RulesError
from twentyone.engine.records import Action, Payment
from twentyone.engine.replay import replay_round, round_result, round_to_replay
from twentyone.engine.rules import Rules

SWITCH = load_rules("switch")


def _round(cards: str, first: int = 100, second: int = 0) -> Round:
    """ann's pair of 1000 each, Super Match staked ``first`` on box 1 and ``second`` on box 2."""
    bets = [
        BoxBet("ann", 1000, {"super-match": first} if first else {}),
        BoxBet("ann", 1000, {"super-match": second} if second else {}),
    ]
    return Round(SWITCH, StackedShoe(cards), bets)


def _super(rnd: Round) -> list[Payment]:
    return [r for r in rnd.log if isinstance(r, Payment) and r.kind == "side-bet"]


def test_the_switch_table_offers_super_match_at_the_published_odds() -> None:
    bet = SWITCH.side_bet("super-match")
    assert bet.paytable == {
        "four-of-a-kind": Fraction(40),
        "two-pairs": Fraction(8),
        "three-of-a-kind": Fraction(5),
        "pair": Fraction(1),
    }


@pytest.mark.parametrize(
    ("cards", "line", "returned"),
    [
        ("QS 9H TD QH 5C 9D", "pair", 200),  # Q-Q, 9, 5
        ("QS 9H TD QH 9C 8D", "two-pairs", 900),  # Q-Q, 9-9
        ("QS QC TD QH 5C 9D", "three-of-a-kind", 600),  # Q-Q-Q, 5
        ("QS QC TD QH QD 9D", "four-of-a-kind", 4100),  # four queens (six decks)
        ("QS 9H TD KH 5C 9D", None, 0),  # a queen and a king are no pair
    ],
)
def test_super_match_pays_its_line_on_the_pairs_four_cards(
    cards: str, line: str | None, returned: int
) -> None:
    rnd = _round(cards)
    (pay,) = _super(rnd)
    assert (pay.box, pay.side_bet, pay.line, pay.amount) == (0, "super-match", line, returned)
    assert rnd.boxes[0].side_paid == {"super-match": returned}


def test_super_match_is_settled_before_the_switch() -> None:
    rnd = _round("QS 9H TD QH 5C 9D")
    q = rnd.question
    assert q is not None and q.kind == "switch"
    rnd.switch()  # Q-5 and 9-Q: the bet was already paid on Q-Q-9-5
    paid = rnd.log.index(_super(rnd)[0])
    switched = next(i for i, r in enumerate(rnd.log) if isinstance(r, Action))
    assert paid < switched


def test_a_stake_on_either_box_of_the_pair_sees_the_same_four_cards() -> None:
    rnd = _round("QS 9H TD QH 9C 8D", first=100, second=50)
    lines = [(p.box, p.line, p.amount) for p in _super(rnd)]
    assert lines == [(0, "two-pairs", 900), (1, "two-pairs", 450)]


def test_a_super_match_round_replays_exactly() -> None:
    rnd = _round("QS 9H TD QH 5C 9D 7S")
    rnd.keep()
    rnd.stand()
    rnd.stand()
    data = round_to_replay(rnd)
    assert data["boxes"][0]["side_bets"] == {"super-match": 100}
    again = replay_round(data)
    assert again.log == rnd.log and round_result(again) == round_result(rnd)


def test_super_match_needs_a_switch_table() -> None:
    bets = {"sm": {"kind": "super-match", "paytable": {"pair": "1"}}}
    with pytest.raises(RulesError, match="needs switch=True") as err:
        Rules(decks=6, side_bets=bets)  # type: ignore[arg-type]  # the TOML table
    assert err.value.code == "pair-bet-needs-switch"


def test_the_analysis_prices_super_match_exactly() -> None:
    # four cards from six decks (312 cards, 24 of each rank), counted by hand
    n, total = 24, comb(312, 4)
    want = {
        "four-of-a-kind": Fraction(13 * comb(n, 4), total),
        "two-pairs": Fraction(comb(13, 2) * comb(n, 2) ** 2, total),
        "three-of-a-kind": Fraction(13 * comb(n, 3) * 12 * n, total),
        "pair": Fraction(13 * comb(n, 2) * comb(12, 2) * n * n, total),
    }
    price = side_bet_price(SWITCH, SWITCH.side_bet("super-match"))
    for line, p in want.items():
        assert price["lines"][line] == pytest.approx(float(p), rel=1e-12), line
    pays = {"four-of-a-kind": 40, "two-pairs": 8, "three-of-a-kind": 5, "pair": 1}
    ret = sum(p * (1 + pays[line]) for line, p in want.items()) - 1
    assert price["return"] == pytest.approx(float(ret), rel=1e-12)
