"""Clause tests for the Romanian casino rulebook (ro.1 ... ro.17 of shared/RULES.md).

Every round is played on the ``ro-casino`` preset with a stacked shoe worked out by hand from
the dealing order: one card to each box, the dealer's up card, a second card to each box; no
hole card, so the dealer's second card is drawn after the players (and only when settlement
needs it). After a split the next hand gets its second card when play reaches it (in-turn).
Bets are 100 (= 1.00, the table minimum) unless a test says otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest

from helpers import dealer_text as dealer
from helpers import left, play, results, returned
from twentyone import (
    Action,
    BetError,
    BoxBet,
    Deal,
    IllegalActionError,
    Payment,
    Round,
    Shoe,
    StackedShoe,
    format_cards,
    hand_total,
    load_rules,
    verify_bets,
)

RO = load_rules("ro-casino")
PLAYERS = ("ann", "bob", "cy", "dee")


def ro(shoe: str, bets: Sequence[int], decisions: Sequence[str] = ()) -> Round:
    """A round on the ro-casino preset (box i belongs to ``PLAYERS[i]``)."""
    return play(RO, shoe, bets, decisions, players=PLAYERS)


def first_safe(actions: Sequence[str]) -> str:
    for a in ("stand", "no-insurance", "no-surrender", "no-even-money"):
        if a in actions:
            return a
    raise AssertionError(f"no passive action in {actions}")


# ro.1 ---------------------------------------------------------------------------------------


def test_ro_1_six_decks_reshuffled_by_the_machine_every_round() -> None:
    assert (RO.decks, RO.shuffle) == (6, "continuous")
    full = Shoe.for_rules(RO, seed=11)
    full.begin_round()
    counts = Counter(str(c) for c in full.draw_many(312))
    assert len(counts) == 52 and set(counts.values()) == {6}  # six 52-card decks
    shoe = Shoe.for_rules(RO, seed=5)
    shuffles = []
    for _ in range(3):
        rnd = Round(RO, shoe, [BoxBet("ann", 100), BoxBet("bob", 100)])
        # the round drew from a full 312-card shoe, whatever the last round took
        assert shoe.remaining == 312 - len(rnd.cards_dealt)
        while rnd.question is not None:
            rnd.apply(first_safe(rnd.question.actions))
        assert shoe.remaining == 312 - len(rnd.cards_dealt) < 312
        shuffles.append(shoe.shuffles)
    assert shuffles[1] == shuffles[0] + 1 and shuffles[2] == shuffles[1] + 1


# ro.2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("bet", [99, 1, 500_001])
def test_ro_2_bet_outside_table_limits_is_refused(bet: int) -> None:
    with pytest.raises(BetError, match=rf"bet {bet} is outside the table limits 100 to 500000"):
        Round(RO, StackedShoe("TS 9H 8D 7C"), [BoxBet("ann", bet)])


def test_ro_2_one_player_on_several_boxes_each_within_limits() -> None:
    # ann: boxes 1 and 3 at the two limits; bob: box 2
    shoe = StackedShoe("TS 9C 8D 6H 7S 9D 4C")
    bets = [BoxBet("ann", 100), BoxBet("bob", 2_500), BoxBet("ann", 500_000)]
    rnd = Round(RO, shoe, bets)
    assert rnd.net() == {"ann": -500_100, "bob": -2_500}
    assert [b.bet for b in rnd.boxes] == [100, 2_500, 500_000]
    assert verify_bets(RO, [BoxBet("ann", 100)] * 7) is None  # type: ignore[func-returns-value]
    with pytest.raises(BetError, match="the table has 7"):
        verify_bets(RO, [BoxBet("ann", 100)] * 8)


# ro.3 ---------------------------------------------------------------------------------------


def test_ro_3_blackjack_is_21_on_the_first_two_cards_only() -> None:
    # box1 AS KD blackjack; box2 7C 4D + TH = 21 in three cards; dealer 9H + 8S = 17
    rnd, asked = play(
        "ro-casino",
        "AS 7C 9H KD 4D TH 8S",
        [100, 100],
        ["no-surrender", "hit"],
        players=PLAYERS,
        asked=True,
    )
    # ro.5 too: the blackjack is never asked for a card, only box 2 is asked
    assert [(q.kind, q.box) for q in asked] == [("surrender", 1), ("play", 1)]
    assert rnd.boxes[0].hands[0].is_blackjack
    assert not rnd.boxes[1].hands[0].is_blackjack
    assert results(rnd) == [["blackjack"], ["win"]]
    assert returned(rnd) == [[250], [200]]
    assert rnd.net() == {"ann": 150, "bob": 100}


# ro.4 ---------------------------------------------------------------------------------------


def test_ro_4_court_cards_count_ten_and_an_ace_one_or_eleven() -> None:
    rnd, asked = play(
        "ro-casino",
        "AS QS 5D 9C 6H JD",
        [100],
        ["no-surrender", "hit", "hit"],
        asked=True,
    )
    hand = rnd.boxes[0].hands[0]
    assert hand_total(hand.cards[:2]) == (16, True)  # A-5 is soft 16
    assert hand_total(hand.cards[:3]) == (15, False)  # A-5-9: the ace drops to 1, hard 15
    assert hand.total == (21, False)
    assert hand_total(rnd.dealer) == (20, False)  # Q + J
    assert {"hit", "stand"} <= set(asked[1].actions)
    assert results(rnd) == [["win"]]


# ro.5 ---------------------------------------------------------------------------------------


def test_ro_5_bust_loses_at_once() -> None:
    # box1 TS 6D + 9C = 25; box2 9S 9D = 18; dealer 7H + KC = 17
    rnd = Round(RO, StackedShoe("TS 9S 7H 6D 9D 9C KC"), [BoxBet("ann", 100), BoxBet("bob", 100)])
    rnd.apply("no-surrender")
    rnd.apply("no-surrender")
    rnd.apply("hit")
    lost = rnd.boxes[0].hands[0]
    assert (lost.result, lost.returned, lost.settled) == ("bust", 0, True)
    assert rnd.question is not None and rnd.question.box == 1
    assert dealer(rnd) == "7H"  # lost before the dealer plays
    rnd.apply("stand")
    assert dealer(rnd) == "7H KC"
    assert results(rnd) == [["bust"], ["win"]]
    assert rnd.net() == {"ann": -100, "bob": 100}


def test_ro_5_dealer_draws_nothing_when_every_box_busted() -> None:
    rnd = ro("TS 7H 6D 9C 5S", [100], ["no-surrender", "hit"])
    assert rnd.is_over
    assert dealer(rnd) == "7H"
    assert left(rnd) == 1
    assert rnd.net() == {"ann": -100}


def test_ro_5_no_card_on_soft_or_hard_21() -> None:
    # box1 AS 5D + 5C = soft 21; box2 7C 4D + TH = hard 21; dealer 9H + 8S = 17
    rnd = Round(RO, StackedShoe("AS 7C 9H 5D 4D 5C TH 8S"), [BoxBet("ann", 100)] * 2)
    rnd.apply("no-surrender")
    rnd.apply("no-surrender")
    rnd.apply("hit")
    assert rnd.boxes[0].hands[0].total == (21, True)
    assert rnd.question is not None and rnd.question.box == 1  # play moved on at soft 21
    rnd.apply("hit")
    assert rnd.boxes[1].hands[0].total == (21, False)
    assert rnd.is_over  # hard 21: nothing more is asked
    assert results(rnd) == [["win"], ["win"]]


# ro.6 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shoe", "drawn", "result"),
    [
        # 2 3 4 2 5 = 16 draws 3H = 19 and stops; 20 wins
        ("TS 2C KD 3D 4H 2S 5C 3H 9S", "2C 3D 4H 2S 5C 3H", "win"),
        # soft 17 (6 + A) stands; 18 wins
        ("TS 6H 8D AC 5S", "6H AC", "win"),
        # 2 + 4 = 6 draws an ace: soft 17 of three cards stands; 17 pushes
        ("TS 2H 7D 4C AS 5S", "2H 4C AS", "push"),
        # 9 + 7 = 16 draws an ace: hard 17 stands; 17 pushes
        ("TS 9H 7D 7C AS 5S", "9H 7C AS", "push"),
    ],
)
def test_ro_6_dealer_draws_until_17_or_more_and_stands_on_soft_17(
    shoe: str, drawn: str, result: str
) -> None:
    rnd = ro(shoe, [100], ["no-surrender", "stand"])
    assert dealer(rnd) == drawn
    assert left(rnd) == 1  # the card after the dealer's last stays in the shoe
    assert results(rnd) == [[result]]


# ro.7 ---------------------------------------------------------------------------------------


def test_ro_7_equal_totals_are_a_stand_off() -> None:
    rnd = ro("TS 9H 8D 9C", [100], ["no-surrender", "stand"])
    assert results(rnd) == [["push"]]
    assert returned(rnd) == [[100]]
    assert rnd.net() == {"ann": 0}


def test_ro_7_blackjack_against_blackjack_is_a_stand_off() -> None:
    rnd = ro("AS TH KD AC", [100])
    assert rnd.is_over and rnd.decisions == []
    assert dealer(rnd) == "TH AC"
    assert results(rnd) == [["push"]]
    assert rnd.net() == {"ann": 0}


# ro.8 ---------------------------------------------------------------------------------------


def test_ro_8_insurance_offered_on_an_ace_box_by_box_then_closed() -> None:
    rnd, asked = play(
        "ro-casino",
        "TS 9S AH 8D 7D 6C",
        [100, 100],
        ["no-insurance", "no-insurance", "stand", "stand"],
        players=PLAYERS,
        asked=True,
    )
    assert [(q.kind, q.box) for q in asked] == [
        ("insurance", 0),
        ("insurance", 1),
        ("play", 0),
        ("play", 1),
    ]
    assert not any(a.startswith("insure") for q in asked[2:] for a in q.actions)
    assert dealer(rnd) == "AH 6C"  # soft 17 stands
    assert results(rnd) == [["win"], ["lose"]]
    assert [b.insurance for b in rnd.boxes] == [0, 0]


def test_ro_8_insurance_cannot_be_taken_after_it_closes() -> None:
    rnd = Round(RO, StackedShoe("TS AH 8D 6C"), [BoxBet("ann", 1000)])
    assert rnd.can("insure:100")
    rnd.apply("no-insurance")
    assert rnd.question is not None and rnd.question.kind == "play"
    with pytest.raises(IllegalActionError):
        rnd.apply("insure:100")
    assert rnd.boxes[0].insurance == 0


def test_ro_8_no_insurance_against_a_ten() -> None:
    rnd, asked = play("ro-casino", "TS TH 8D 7C", [100], ["no-surrender", "stand"], asked=True)
    assert [q.kind for q in asked] == ["surrender", "play"]
    assert results(rnd) == [["win"]]


# ro.9 ---------------------------------------------------------------------------------------


def test_ro_9_insurance_from_half_the_table_minimum_to_half_the_bet_pays_2_to_1() -> None:
    rnd = Round(RO, StackedShoe("TS AH 9D KC"), [BoxBet("ann", 1000)])
    q = rnd.question
    assert q is not None and q.kind == "insurance"
    assert "insure:N" in q.actions and "no-insurance" in q.actions
    assert q.amount_range == (50, 500)
    assert not rnd.can("insure:49")
    assert not rnd.can("insure:501")
    assert rnd.can("insure:50") and rnd.can("insure:500") and rnd.can("insure")
    rnd.apply("insure:200")
    rnd.apply("stand")
    assert dealer(rnd) == "AH KC"
    assert rnd.boxes[0].insurance == 200
    paid = [p for p in rnd.log if isinstance(p, Payment) and p.kind == "insurance"]
    assert [p.amount for p in paid] == [600]  # the stake and 2:1
    assert results(rnd) == [["lose"]]
    assert rnd.net() == {"ann": -1000 - 200 + 600}


def test_ro_9_insurance_lost_when_the_second_card_is_not_a_ten() -> None:
    rnd = ro("TS AH 9D 7C", [1000], ["insure:50", "stand"])
    assert dealer(rnd) == "AH 7C"  # soft 18
    paid = [p for p in rnd.log if isinstance(p, Payment) and p.kind == "insurance"]
    assert [p.amount for p in paid] == [0]
    assert results(rnd) == [["win"]]
    assert rnd.net() == {"ann": 1000 - 50}


@pytest.mark.parametrize(
    ("second", "result", "back", "insurance_back", "net"),
    [
        # dealer AH + KC: blackjack; the box's blackjack pushes, the 200 insurance pays 2:1
        ("KC", "push", 1000, 600, 400),
        # dealer AH + 9C: soft 20; the blackjack is paid 3:2, the insurance is lost
        ("9C", "blackjack", 2500, 0, 1300),
    ],
)
def test_ro_9_a_blackjack_may_insure_instead_of_taking_even_money(
    second: str, result: str, back: int, insurance_back: int, net: int
) -> None:
    # ann AS KD (blackjack, 10.00) vs AH: "any player may place an insurance bet" (ro.9), for
    # any amount from half the table minimum (0.50) to half the bet (5.00): here 2.00.
    rnd, asked = play("ro-casino", f"AS AH KD {second}", [1000], ["insure:200"], asked=True)
    assert asked[0].kind == "even-money" and asked[0].amount_range == (50, 500)
    assert rnd.is_over and rnd.boxes[0].insurance == 200
    assert dealer(rnd) == f"AH {second}" and left(rnd) == 0
    assert results(rnd) == [[result]] and returned(rnd) == [[back]]
    assert [p.amount for p in rnd.log if isinstance(p, Payment) and p.kind == "insurance"] == [
        insurance_back
    ]
    assert rnd.net() == {"ann": net}


def test_ro_9_insuring_half_a_blackjack_is_worth_even_money_either_way() -> None:
    # 5.00 of insurance on a 10.00 blackjack: +10.00 whatever the dealer's second card is.
    for second in ("KC", "5C"):
        rnd = play("ro-casino", f"AS AH KD {second}", [1000], ["insure"])
        assert rnd.decisions == ["insure"] and rnd.net() == {"ann": 1000}


def test_ro_9_insurance_on_a_blackjack_outside_its_limits_is_refused() -> None:
    rnd = ro("AS AH KD KC", [1000])
    for bad in ("insure:49", "insure:501"):
        with pytest.raises(IllegalActionError, match="outside 50 to 500"):
            rnd.apply(bad)
    assert rnd.question is not None and rnd.question.kind == "even-money"
    assert rnd.boxes[0].insurance == 0 and rnd.net() == {"ann": -1000}


# ro.10 --------------------------------------------------------------------------------------


def test_ro_10_even_money_is_paid_at_once_and_the_dealer_draws_nothing() -> None:
    rnd, asked = play("ro-casino", "AS AH KD KC", [100], ["even-money"], asked=True)
    # ro.9 + ro.10: even money, or insurance instead (half the 1.00 bet is the table's least
    # insurance, so 0.50 exactly), or neither
    assert asked[0].kind == "even-money"
    assert asked[0].actions == ("even-money", "insure", "insure:N", "no-even-money")
    assert asked[0].amount_range == (50, 50)
    assert rnd.is_over
    assert dealer(rnd) == "AH" and left(rnd) == 1
    assert results(rnd) == [["even-money"]]
    assert returned(rnd) == [[200]]
    assert [p.amount for p in rnd.log if isinstance(p, Payment) and p.kind == "even-money"] == [200]
    assert rnd.net() == {"ann": 100}


def test_ro_10_even_money_kept_when_the_dealer_then_makes_blackjack() -> None:
    # box1 AS KD takes even money; box2 9C 8C stands on 17; dealer AH + KC = blackjack
    rnd = Round(RO, StackedShoe("AS 9C AH KD 8C KC"), [BoxBet("ann", 100), BoxBet("bob", 100)])
    rnd.apply("even-money")
    assert rnd.boxes[0].hands[0].returned == 200 and rnd.boxes[0].hands[0].settled
    assert len(rnd.dealer) == 1  # settled before the dealer's second card
    assert rnd.question is not None and (rnd.question.kind, rnd.question.box) == ("insurance", 1)
    rnd.apply("no-insurance")
    rnd.apply("stand")
    assert dealer(rnd) == "AH KC"
    assert results(rnd) == [["even-money"], ["lose"]]
    assert rnd.net() == {"ann": 100, "bob": -100}


def test_ro_10_declined_even_money_declines_insurance_too_and_waits() -> None:
    rnd = ro("AS AH KD 9C 5S", [100], ["no-even-money"])
    assert rnd.is_over  # one question for the blackjack: no insurance question follows
    assert rnd.boxes[0].insurance == 0
    assert dealer(rnd) == "AH 9C" and left(rnd) == 1  # only the second card
    assert results(rnd) == [["blackjack"]]
    assert returned(rnd) == [[250]]


def test_ro_10_no_even_money_against_a_ten() -> None:
    # box1 blackjack, box2 TC 5D, dealer TH: the first question is box2's surrender
    rnd = Round(RO, StackedShoe("AS TC TH KD 5D 9S"), [BoxBet("ann", 100), BoxBet("bob", 100)])
    q = rnd.question
    assert q is not None and (q.kind, q.box) == ("surrender", 1)
    assert not rnd.can("even-money")
    rnd.apply("no-surrender")
    rnd.apply("stand")
    assert results(rnd) == [["blackjack"], ["lose"]]
    assert rnd.net() == {"ann": 150, "bob": -100}


# ro.11 --------------------------------------------------------------------------------------


def test_ro_11_surrender_is_asked_box_by_box_before_play() -> None:
    rnd, asked = play(
        "ro-casino",
        "TS TC 9H 6D 8D 9S",
        [100, 100],
        ["surrender", "no-surrender", "stand"],
        players=PLAYERS,
        asked=True,
    )
    assert [(q.kind, q.box) for q in asked] == [("surrender", 0), ("surrender", 1), ("play", 1)]
    assert asked[0].actions == ("surrender", "no-surrender")
    assert "surrender" not in asked[2].actions  # not once play has started
    assert results(rnd) == [["surrender"], ["push"]]  # 18 against 9H 9S
    assert returned(rnd) == [[50], [100]]
    assert rnd.net() == {"ann": -50, "bob": 0}


def test_ro_11_surrender_settles_at_once_and_the_dealer_draws_nothing() -> None:
    rnd = ro("TS 9H 6D 8S", [100], ["surrender"])
    assert rnd.is_over
    assert dealer(rnd) == "9H" and left(rnd) == 1
    assert rnd.net() == {"ann": -50}


def test_ro_11_no_surrender_against_an_ace() -> None:
    rnd, asked = play("ro-casino", "TS AH 6D 7C", [100], ["no-insurance", "stand"], asked=True)
    assert [q.kind for q in asked] == ["insurance", "play"]
    assert "surrender" not in asked[1].actions
    assert results(rnd) == [["lose"]]  # 16 against soft 18


def test_ro_11_surrender_keeps_half_when_the_dealer_then_makes_blackjack() -> None:
    rnd = ro("TS 9C TH 6D 8C AS", [100, 100], ["surrender", "no-surrender", "stand"])
    assert dealer(rnd) == "TH AS"
    assert results(rnd) == [["surrender"], ["lose"]]
    assert returned(rnd) == [[50], [0]]
    assert rnd.net() == {"ann": -50, "bob": -100}


# ro.12 --------------------------------------------------------------------------------------


def test_ro_12_blackjack_paid_3_to_2_at_once_against_2_to_9() -> None:
    rnd = Round(RO, StackedShoe("AS TC 5H KD 6D TS 9S"), [BoxBet("ann", 100), BoxBet("bob", 100)])
    bj = rnd.boxes[0].hands[0]
    assert (bj.result, bj.returned) == ("blackjack", 250)  # before anyone decides
    assert dealer(rnd) == "5H"
    rnd.apply("no-surrender")
    rnd.apply("stand")
    paid = next(i for i, r in enumerate(rnd.log) if isinstance(r, Payment) and r.amount == 250)
    first_action = next(i for i, r in enumerate(rnd.log) if isinstance(r, Action))
    assert paid < first_action
    assert dealer(rnd) == "5H TS 9S"  # 15 draws to 24
    assert results(rnd) == [["blackjack"], ["win"]]
    assert rnd.net() == {"ann": 150, "bob": 100}


def test_ro_12_lone_blackjack_against_a_6_dealer_draws_nothing() -> None:
    rnd = ro("AS 6H KD 5C", [100])
    assert rnd.is_over
    assert dealer(rnd) == "6H" and left(rnd) == 1
    assert rnd.net() == {"ann": 150}


def test_ro_12_blackjack_against_a_ten_waits_then_is_paid_3_to_2() -> None:
    rnd = ro("AS TH KD 5C 9S", [100])
    assert rnd.is_over
    assert dealer(rnd) == "TH 5C" and left(rnd) == 1  # only the second card, no draw to 17
    assert results(rnd) == [["blackjack"]]
    deals = [r for r in rnd.log if isinstance(r, Deal)]
    pay = [i for i, r in enumerate(rnd.log) if isinstance(r, Payment) and r.amount == 250]
    assert pay and pay[0] > rnd.log.index(deals[-1])  # paid after the dealer's second card
    assert rnd.net() == {"ann": 150}


# ro.13 --------------------------------------------------------------------------------------


def test_ro_13_decisions_box_by_box_left_to_right() -> None:
    rnd, asked = play(
        "ro-casino",
        "8S TC 5D 7H 8D 9C 6D 9H TD",
        [100, 100, 100],
        ["no-surrender"] * 3 + ["stand", "stand", "hit", "stand"],
        players=PLAYERS,
        asked=True,
    )
    assert [(q.kind, q.box) for q in asked] == [
        ("surrender", 0),
        ("surrender", 1),
        ("surrender", 2),
        ("play", 0),
        ("play", 1),
        ("play", 2),
        ("play", 2),
    ]
    assert set(asked[3].actions) == {"stand", "hit", "double", "double:N", "split"}
    assert dealer(rnd) == "7H TD"
    assert results(rnd) == [["lose"], ["win"], ["win"]]  # 16, 19, 20 against 17
    assert rnd.net() == {"ann": -100, "bob": 100, "cy": 100}


# ro.14 --------------------------------------------------------------------------------------


def test_ro_14_dealer_blackjack_takes_doubles_and_splits() -> None:
    rnd = Round(RO, StackedShoe("8S TD 8H 3C 9D 2C KS AH"), [BoxBet("ann", 100)])
    rnd.apply("no-surrender")
    rnd.apply("split")
    # in-turn: the second hand waits for its card until play reaches it
    assert [format_cards(h.cards) for h in rnd.boxes[0].hands] == ["8S 3C", "8H"]
    rnd.apply("double")
    rnd.apply("double")
    hands = rnd.boxes[0].hands
    assert [format_cards(h.cards) for h in hands] == ["8S 3C 9D", "8H 2C KS"]
    assert [h.bet for h in hands] == [200, 200]
    assert dealer(rnd) == "TD AH"
    assert rnd.dealer_blackjack
    assert results(rnd) == [["lose", "lose"]]
    assert rnd.net() == {"ann": -400}


def test_ro_14_dealer_blackjack_beats_a_three_card_21_blackjack_pushes() -> None:
    rnd = ro("7C AS AH 4D KH TS KC", [100, 100], ["no-insurance", "no-even-money", "hit"])
    assert rnd.boxes[0].hands[0].total == (21, False)
    assert dealer(rnd) == "AH KC"
    assert results(rnd) == [["lose"], ["push"]]
    assert rnd.net() == {"ann": -100, "bob": 0}


# ro.15 --------------------------------------------------------------------------------------


def test_ro_15_double_for_less_down_to_the_table_minimum() -> None:
    rnd = Round(RO, StackedShoe("6S 6H 5D TC TD 7S"), [BoxBet("ann", 500)])
    rnd.apply("no-surrender")
    q = rnd.question
    assert q is not None and {"double", "double:N"} <= set(q.actions)
    assert q.amount_range == (100, 500)
    assert not rnd.can("double:99")
    assert not rnd.can("double:501")
    with pytest.raises(IllegalActionError):
        rnd.apply("double:50")
    rnd.apply("double:200")
    hand = rnd.boxes[0].hands[0]
    assert hand.bet == 700 and format_cards(hand.cards) == "6S 5D TC"
    assert dealer(rnd) == "6H TD 7S"  # 16 draws to 23
    assert results(rnd) == [["win"]]
    assert returned(rnd) == [[1400]]
    assert rnd.net() == {"ann": 700}


def test_ro_15_double_takes_exactly_one_card() -> None:
    # box1 5S 4D doubles and gets 2C: 11, and play moves on; box2 TC 7C; dealer 8H TS
    rnd, asked = play(
        "ro-casino",
        "5S TC 8H 4D 7C 2C TS",
        [100, 100],
        ["no-surrender", "no-surrender", "double", "stand"],
        players=PLAYERS,
        asked=True,
    )
    assert [(q.kind, q.box) for q in asked[2:]] == [("play", 0), ("play", 1)]
    hand = rnd.boxes[0].hands[0]
    assert format_cards(hand.cards) == "5S 4D 2C" and hand.bet == 200
    assert results(rnd) == [["lose"], ["lose"]]
    assert rnd.net() == {"ann": -200, "bob": -100}


def test_ro_15_no_double_after_a_third_card() -> None:
    rnd, asked = play("ro-casino", "2S 7H 3D 4C TD", [100], ["no-surrender", "hit"], asked=True)
    assert not rnd.can("double") and not rnd.can("double:100")
    assert rnd.question is not None and set(rnd.question.actions) == {"hit", "stand"}
    assert "double" in asked[1].actions


# ro.16 --------------------------------------------------------------------------------------


def test_ro_16_split_by_rank_king_queen_no_jack_jack_yes() -> None:
    rnd, asked = play(
        "ro-casino",
        "KS JC 7H QD JH 9C TD TS",
        [100, 100],
        ["no-surrender", "no-surrender", "stand", "split", "stand", "stand"],
        players=PLAYERS,
        asked=True,
    )
    assert "split" not in asked[2].actions  # K + Q: same value, not the same rank
    assert "split" in asked[3].actions  # J + J
    assert [format_cards(h.cards) for h in rnd.boxes[1].hands] == ["JC 9C", "JH TD"]
    assert results(rnd) == [["win"], ["win", "win"]]
    assert rnd.net() == {"ann": 100, "bob": 200}


@pytest.mark.parametrize(
    ("dealer_cards", "first", "net"),
    [("9C 8S", ("win", 200), 0), ("2C TS", ("push", 100), -100)],
)
def test_ro_16_split_aces_one_card_each_ace_ten_is_21_not_blackjack(
    dealer_cards: str, first: tuple[str, int], net: int
) -> None:
    # AS AD split: AS + KC = 21 (two cards, but after a split), AD + 5D = 16; one card each
    rnd = ro(f"AS 9H AD KC 5D {dealer_cards}", [100], ["no-surrender", "split"])
    assert rnd.is_over  # nothing asked after the split
    hands = rnd.boxes[0].hands
    assert [format_cards(h.cards) for h in hands] == ["AS KC", "AD 5D"]
    assert not hands[0].is_blackjack
    # 1:1, never 3:2, and a three-card 21 of the dealer only pushes it
    assert (hands[0].result, hands[0].returned) == first
    assert hands[1].result == "lose"
    assert rnd.net() == {"ann": net}


def test_ro_16_split_into_2_or_more_hands_with_no_limit() -> None:
    # 8S 8D vs 6H: each split gives the first hand another 8, so it splits four times into
    # five hands (no limit stated: "2 or more"); the fifth hand's first pair, 8S 8C, could
    # split again. Hands: 8S 8C (16), 8S TC, 8H 9D, 8C 2S, 8D TH; dealer 6H 9H KH busts.
    rnd, asked = play(
        "ro-casino",
        "8S 6H 8D 8C 8H 8S 8C TC 9D 2S TH 9H KH",
        [100],
        ["no-surrender", "split", "split", "split", "split"] + ["stand"] * 5,
        asked=True,
    )
    assert all("split" in q.actions for q in asked[1:6])  # the fifth hand may split again
    hands = rnd.boxes[0].hands
    assert [format_cards(h.cards) for h in hands] == ["8S 8C", "8S TC", "8H 9D", "8C 2S", "8D TH"]
    assert all(h.bet == 100 for h in hands)
    assert dealer(rnd) == "6H 9H KH" and left(rnd) == 0
    assert results(rnd) == [["win"] * 5]
    assert rnd.net() == {"ann": 500}
    assert RO.max_hands == "unlimited" and RO.hand_limit is None


# ro.17 --------------------------------------------------------------------------------------


def test_ro_17_win_pays_1_to_1_fewer_points_lose() -> None:
    rnd = ro("TS TC 9H QD 7D TH", [100, 100], ["no-surrender", "no-surrender", "stand", "stand"])
    assert results(rnd) == [["win"], ["lose"]]  # 20 and 17 against 19
    assert returned(rnd) == [[200], [0]]
    assert rnd.net() == {"ann": 100, "bob": -100}


def test_ro_17_dealer_bust_every_standing_box_wins() -> None:
    rnd = ro(
        "TS TC KD 6H 2D 3D QD 9C TH 9S",
        [100, 100, 100],
        ["no-surrender"] * 3 + ["stand", "hit", "stand"],
    )
    assert dealer(rnd) == "6H TH 9S"
    assert results(rnd) == [["win"], ["bust"], ["win"]]  # 12 wins; the bust still loses
    assert rnd.net() == {"ann": 100, "bob": -100, "cy": 100}


def test_ro_17_blackjack_3_to_2_floored_with_the_remainder_recorded() -> None:
    rnd = ro("AS 5H KD", [101])
    hand = rnd.boxes[0].hands[0]
    assert (hand.result, hand.returned, hand.remainder) == ("blackjack", 252, Fraction(1, 2))
    pay = [p for p in rnd.log if isinstance(p, Payment) and p.kind == "return"]
    assert [(p.amount, p.remainder) for p in pay] == [(252, Fraction(1, 2))]
