"""The Portuguese casino table (pt-casino), clause by clause: pt.1 ... pt.13 of RULES.md.

Stacked shoes are read in pt's dealing order (round-robin, pt.1): one card to each box, the
bank's up card, a second card to each box, the bank's hole card; then the cards the boxes draw
in order of play, then the bank's draws. A split hand gets its second card when play reaches
it. Every bet is 100 (the table minimum) unless a test says otherwise.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from helpers import all_dealt, dealer, hand, payments, play, shown, side_payments
from twentyone import (
    Action,
    BetError,
    BoxBet,
    Deal,
    IllegalActionError,
    Payment,
    Reveal,
    StackedShoe,
    load_rules,
)

PT = load_rules("pt-casino")


def jackpot_return(stake: int, aces: int) -> int:
    """What the jackpot bet returns for ``aces`` first aces: stake plus the paytable's odds."""
    return stake * (1 + int(dict(PT.jackpot_paytable)[aces]))


# ---------------------------------------------------------------- pt.1 dealing


def test_pt_1_bets_first_then_two_open_cards_each_and_bank_one_up_one_down() -> None:
    # box1 TC 8S, box2 9D 9S, bank 7H up, TD down (17).
    rnd = play(PT, "TC 9D 7H 8S 9S TD", bets=(100, 100))
    assert shown(hand(rnd, 0)) == ["TC", "8S"]
    assert shown(hand(rnd, 1)) == ["9D", "9S"]
    assert dealer(rnd) == ["7H", "TD"]
    assert [str(c) for c in rnd.dealer_visible] == ["7H"]
    deals = [r for r in rnd.log if isinstance(r, Deal)]
    assert [d.box for d in deals] == [0, 1, None, 0, 1, None]
    assert [d.face_down for d in deals] == [False] * 5 + [True]
    first_deal = rnd.log.index(deals[0])
    stakes = [i for i, r in enumerate(rnd.log) if isinstance(r, Payment) and r.kind == "stake"]
    assert len(stakes) == 2 and max(stakes) < first_deal
    rnd.stand()
    rnd.stand()
    assert any(isinstance(r, Reveal) and str(r.card) == "TD" for r in rnd.log)
    assert [hand(rnd, b).result for b in (0, 1)] == ["win", "win"]
    assert rnd.net() == {"ann": 200}


# ---------------------------------------------------------------- pt.2 card values


def test_pt_2_bank_stands_on_soft_17() -> None:
    # ann TC 8H (18); bank 6D up, AS down: soft 17, the bank stands (no card left to draw).
    rnd = play(PT, "TC 6D 8H AS", decisions=["stand"])
    assert dealer(rnd) == ["6D", "AS"]
    assert all_dealt(rnd)
    assert hand(rnd).result == "win"
    assert rnd.net() == {"ann": 100}


def test_pt_2_bank_ace_counts_one_when_eleven_would_pass_21() -> None:
    # Bank 5D AS = soft 16 draws TC: 5+1+10 = hard 16, draws again 4H -> 20; ann TC 9H = 19.
    rnd = play(PT, "TC 5D 9H AS TC 4H", decisions=["stand"])
    assert dealer(rnd) == ["5D", "AS", "TC", "4H"]
    assert hand(rnd).result == "lose"
    assert rnd.net() == {"ann": -100}


# ---------------------------------------------------------------- pt.3 blackjack paid when


def test_pt_3_blackjack_paid_at_once_against_two_to_nine() -> None:
    # box1 AS KH (blackjack), box2 TC 7S; bank 9D up, 8C down.
    rnd = play(PT, "AS TC 9D KH 7S 8C", bets=(100, 100))
    bj = hand(rnd, 0)
    assert rnd.question is not None and rnd.question.box == 1  # box2 still to play
    assert bj.result == "blackjack" and bj.returned == 250  # 100 back + 150 (3:2)
    paid = rnd.log.index(payments(rnd, "return")[0])
    assert not any(isinstance(r, Action) for r in rnd.log[:paid])
    rnd.stand()
    assert hand(rnd, 1).result == "push"  # 17 against 17
    assert rnd.net() == {"ann": 150}


def test_pt_3_blackjack_against_ten_waits_and_pushes_a_bank_blackjack() -> None:
    # box1 AS KH vs bank TD; box2 TC 8S; the bank's hole card AC makes blackjack.
    rnd = play(PT, "AS TC TD KH 8S AC", bets=(100, 100))
    assert rnd.question is not None and rnd.question.box == 1
    assert hand(rnd, 0).result is None and hand(rnd, 0).returned == 0  # not paid yet
    assert rnd.question.kind == "play"  # pt.10: no insurance on a ten
    rnd.stand()
    assert rnd.dealer_blackjack is True
    assert hand(rnd, 0).result == "push" and hand(rnd, 0).returned == 100
    assert hand(rnd, 1).result == "lose"
    assert len(rnd.dealer) == 2 and all_dealt(rnd)
    assert rnd.net() == {"ann": -100}


def test_pt_3_blackjack_against_ten_paid_once_the_bank_has_none() -> None:
    # ann AS KH vs TD up, 7C down: 17, no bank blackjack -> 3:2, and the bank needs no card.
    rnd = play(PT, "AS TD KH 7C")
    assert rnd.is_over and rnd.decisions == []  # pt.4: no even money against a ten
    assert hand(rnd).result == "blackjack" and hand(rnd).returned == 250
    assert dealer(rnd) == ["TD", "7C"]


# ---------------------------------------------------------------- pt.4 even money


def test_pt_4_even_money_paid_before_the_bank_shows_its_blackjack() -> None:
    # ann AS KD vs AH up; the hole card KC is a bank blackjack, but even money is already paid.
    rnd = play(PT, "AS AH KD KC")
    q = rnd.question
    assert q is not None and q.kind == "even-money"
    assert q.actions == ("even-money", "insure", "insure:N", "no-even-money")  # pt.10 too
    rnd.even_money()
    assert rnd.is_over
    assert hand(rnd).result == "even-money" and hand(rnd).returned == 200
    assert [p.amount for p in payments(rnd, "even-money")] == [200]
    assert rnd.net() == {"ann": 100}


@pytest.mark.parametrize(
    ("hole", "result", "back", "insurance_back", "net"),
    [("KC", "push", 1000, 900, 600), ("6C", "blackjack", 2500, 0, 1200)],
)
def test_pt_10_a_blackjack_may_insure_up_to_half_instead_of_even_money(
    hole: str, result: str, back: int, insurance_back: int, net: int
) -> None:
    # ann AS KD (10.00) vs AH up insures 3.00 (pt.10 "up to half the bet"): the bank's KC makes
    # blackjack (stand-off, insurance 2:1: +6.00), or 6C makes soft 17 (3:2, insurance lost).
    rnd = play(PT, f"AS AH KD {hole}", [1000], ["insure:300"])
    assert rnd.is_over and rnd.boxes[0].insurance == 300
    assert hand(rnd).result == result and hand(rnd).returned == back
    assert [p.amount for p in payments(rnd, "insurance")] == [insurance_back]
    assert rnd.net() == {"ann": net}


def test_pt_9_a_full_double_spelled_with_its_amount_is_the_same_decision() -> None:
    # item 3: pt doubles only the full bet (no double for less), so double:1000 is "double"
    rnd = play(PT, "6S 9H 4D 7C TC TD", [1000], ["double:1000"])
    assert rnd.decisions == ["double"] and hand(rnd).bet == 2000
    with pytest.raises(IllegalActionError, match="'double:500' is not allowed"):
        play(PT, "6S 9H 4D 7C TC TD", [1000], ["double:500"])


def test_pt_4_declined_even_money_asks_no_insurance_and_waits_for_the_bank() -> None:
    # ann AS KD vs AH up, 6C down (soft 17): declined, the blackjack is paid 3:2 at the end.
    rnd = play(PT, "AS AH KD 6C", decisions=["no-even-money"])
    assert rnd.is_over
    assert rnd.decisions == ["no-even-money"]  # not asked about insurance
    assert rnd.boxes[0].insurance == 0
    assert hand(rnd).result == "blackjack" and hand(rnd).returned == 250
    assert rnd.net() == {"ann": 150}


# ---------------------------------------------------------------- pt.5 stand on 12+


def test_pt_5_stand_only_on_12_or_more() -> None:
    # ann 5C 2H (7) vs 6D up, TS down; hits 4D (11), AH (hard 12), stands; bank draws 7C, busts.
    rnd = play(PT, "5C 6D 2H TS 4D AH 7C")
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "surrender")
    with pytest.raises(IllegalActionError, match="stand"):
        rnd.stand()
    rnd.hit()
    assert hand(rnd).total.total == 11
    assert rnd.question.actions == ("hit",)  # type: ignore[comparison-overlap]
    assert not rnd.can_stand()
    rnd.hit()
    assert hand(rnd).total == (12, False)
    assert rnd.question.actions == ("hit", "stand")
    rnd.stand()
    assert dealer(rnd) == ["6D", "TS", "7C"]
    assert hand(rnd).result == "win" and rnd.net() == {"ann": 100}


def test_pt_5_doubled_hand_ends_after_one_card_even_on_11() -> None:
    # ann 5C 4H (hard 9) doubles and draws 2C: 11, and the hand is over; bank 6D TS draws 9H.
    rnd = play(PT, "5C 6D 4H TS 2C 9H")
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "double", "surrender")
    rnd.double()
    assert rnd.is_over and all_dealt(rnd)
    h = hand(rnd)
    assert h.total.total == 11 and h.doubled and h.bet == 200
    assert h.result == "win" and h.returned == 400  # the bank busted with 25
    assert rnd.net() == {"ann": 200}


# ---------------------------------------------------------------- pt.6 comparison


def test_pt_6_closer_wins_even_money_equal_pushes_further_loses() -> None:
    # Boxes 19, 18, 17 against the bank's 9D 9C = 18.
    rnd = play(PT, "TC TD TH 9D 9S 8S 7S 9C", bets=(100, 100, 100))
    for _ in range(3):
        rnd.stand()
    assert [hand(rnd, b).result for b in range(3)] == ["win", "push", "lose"]
    assert [hand(rnd, b).returned for b in range(3)] == [200, 100, 0]
    assert rnd.net() == {"ann": 0}


def test_pt_6_blackjack_beats_a_bank_21_of_three_cards() -> None:
    # box1 AS KS, box2 TD 8C; bank TH up, 6D down, draws 5C: 21 in three cards.
    rnd = play(PT, "AS TD TH KS 8C 6D 5C", bets=(100, 100), decisions=["stand"])
    assert dealer(rnd) == ["TH", "6D", "5C"]
    assert hand(rnd, 0).result == "blackjack" and hand(rnd, 0).returned == 250
    assert hand(rnd, 1).result == "lose"


def test_pt_6_bank_blackjack_beats_a_player_21_of_three_cards() -> None:
    # ann 7C 4H hits TC: 21; the bank's TD AS (no peek in pt) is a blackjack and wins.
    rnd = play(PT, "7C TD 4H AS TC", decisions=["hit"])
    assert hand(rnd).total.total == 21
    assert rnd.dealer_blackjack is True
    assert hand(rnd).result == "lose" and rnd.net() == {"ann": -100}


# ---------------------------------------------------------------- pt.7 bank draws to 17


def test_pt_7_bank_draws_on_16_and_stands_on_17() -> None:
    # ann 9C 9H (18) both times; bank TD 6S draws 7C (bust), then TD 7S stands (5C stays).
    drew = play(PT, "9C TD 9H 6S 7C", decisions=["stand"])
    assert dealer(drew) == ["TD", "6S", "7C"] and hand(drew).result == "win"
    stood = play(PT, "9C TD 9H 7S 5C", decisions=["stand"])
    assert dealer(stood) == ["TD", "7S"] and hand(stood).result == "win"
    assert isinstance(stood.shoe, StackedShoe) and stood.shoe.remaining == 1


# ---------------------------------------------------------------- pt.8 split


def test_pt_8_split_by_value_into_two_bets_of_the_same_stake() -> None:
    # ann KS QH (both ten-value) vs 6D up, TC down; split: KS+9C, QH+8S; bank draws 7D, busts.
    rnd = play(PT, "KS 6D QH TC 9C 8S 7D")
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "stand", "split", "surrender")
    split = rnd.split()
    assert split.amount == 100
    assert shown(hand(rnd, 0, 0)) == ["KS", "9C"] and shown(hand(rnd, 0, 1)) == ["QH"]
    rnd.stand()
    assert shown(hand(rnd, 0, 1)) == ["QH", "8S"]
    rnd.stand()
    box = rnd.boxes[0]
    assert [h.bet for h in box.hands] == [100, 100]
    assert [h.result for h in box.hands] == ["win", "win"]
    assert [h.returned for h in box.hands] == [200, 200]
    assert box.net == 200


def test_pt_8_split_aces_one_card_each_and_ace_ten_is_21_not_blackjack() -> None:
    # ann AS AH vs 9D up, 8C down (17); the split aces get KD and 5S, one card each.
    rnd = play(PT, "AS 9D AH 8C KD 5S", decisions=["split"])
    assert rnd.is_over and all_dealt(rnd)
    ten_hand, soft_16 = rnd.boxes[0].hands
    assert shown(ten_hand) == ["AS", "KD"] and not ten_hand.is_blackjack
    assert ten_hand.result == "win" and ten_hand.returned == 200  # 1:1, not 3:2
    assert shown(soft_16) == ["AH", "5S"] and soft_16.result == "lose"
    assert rnd.net() == {"ann": 0}


def test_pt_8_two_hands_at_most_and_no_double_after_split() -> None:
    # ann 8S 8H vs 6D TC; split: 8S+8C (no resplit), 8H+3D = 11 (no double), hits TD;
    # the bank draws 7H and busts.
    rnd = play(PT, "8S 6D 8H TC 8C 3D TD 7H", decisions=["split"])
    assert rnd.question is not None
    assert shown(hand(rnd, 0, 0)) == ["8S", "8C"]
    assert rnd.question.actions == ("hit", "stand")
    rnd.stand()
    assert shown(hand(rnd, 0, 1)) == ["8H", "3D"]
    assert rnd.question.actions == ("hit",)  # type: ignore[comparison-overlap]
    with pytest.raises(IllegalActionError):
        rnd.double()
    rnd.hit()
    assert rnd.is_over
    assert [h.result for h in rnd.boxes[0].hands] == ["win", "win"]


# ---------------------------------------------------------------- pt.9 double on 9-11


@pytest.mark.parametrize(
    ("first", "second", "offered"),
    [
        ("5C", "4D", True),  # 9
        ("2C", "7D", True),  # 9
        ("6C", "4D", True),  # 10
        ("7C", "4D", True),  # 11
        ("6C", "2D", False),  # 8
        ("7C", "5D", False),  # 12
        ("AC", "8D", False),  # soft 19, not 9
        ("AC", "9D", False),  # soft 20, not 10
    ],
)
def test_pt_9_double_only_on_hard_9_10_11(first: str, second: str, offered: bool) -> None:
    rnd = play(PT, f"{first} 6H {second} TS")
    assert rnd.question is not None and rnd.question.kind == "play"
    assert ("double" in rnd.question.actions) is offered
    assert rnd.can_double() is offered
    assert "double:N" not in rnd.question.actions  # no double for less


def test_pt_9_ace_eight_is_soft_19_and_cannot_double() -> None:
    # ann AC 8D vs 6H TS; refused double, stands on 19; the bank draws 2C: 18.
    rnd = play(PT, "AC 6H 8D TS 2C")
    assert hand(rnd).total == (19, True)
    with pytest.raises(IllegalActionError, match="double"):
        rnd.double()
    rnd.stand()
    assert hand(rnd).bet == 100 and hand(rnd).result == "win"
    assert rnd.net() == {"ann": 100}


# ---------------------------------------------------------------- pt.10 insurance


def test_pt_10_insurance_up_to_half_pays_two_to_one_on_bank_blackjack() -> None:
    # ann TC 8H vs AD up; the hole KS is a blackjack (seen only at the end: no peek).
    rnd = play(PT, "TC AD 8H KS")
    q = rnd.question
    assert q is not None and q.kind == "insurance"
    assert q.actions == ("insure", "insure:N", "no-insurance")
    assert q.amount_range == (1, 50)
    assert not rnd.can_insure(51)
    with pytest.raises(IllegalActionError):
        rnd.insure(51)
    rnd.insure(30)
    assert rnd.boxes[0].insurance == 30
    assert rnd.question is not None and rnd.question.actions == ("hit", "stand")
    rnd.stand()
    assert [p.amount for p in payments(rnd, "insurance")] == [90]  # 30 back + 60
    assert hand(rnd).result == "lose"
    assert rnd.net() == {"ann": -100 - 30 + 90}


def test_pt_10_insurance_lost_when_the_bank_has_no_blackjack() -> None:
    # ann TC 8H vs AD up, 7S down: soft 18, no blackjack; the full half (50) is lost.
    rnd = play(PT, "TC AD 8H 7S", decisions=["insure", "stand"])
    assert rnd.boxes[0].insurance == 50
    assert [p.amount for p in payments(rnd, "insurance")] == [0]
    assert hand(rnd).result == "push"
    assert rnd.net() == {"ann": -50}


def test_pt_10_no_insurance_against_a_ten() -> None:
    rnd = play(PT, "TC KD 8H 7S")
    assert rnd.question is not None and rnd.question.kind == "play"
    assert not rnd.can("insure")


# ---------------------------------------------------------------- pt.11 surrender


def test_pt_11_early_surrender_keeps_half_even_against_a_bank_blackjack() -> None:
    # ann TC 6H vs TD up; surrenders; the hole card AS makes a bank blackjack afterwards.
    rnd = play(PT, "TC TD 6H AS")
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "stand", "surrender")
    rnd.surrender()
    assert rnd.is_over
    assert rnd.dealer_blackjack is True
    h = hand(rnd)
    assert h.surrendered and h.result == "surrender" and h.returned == 50
    assert rnd.net() == {"ann": -50}


def test_pt_11_no_surrender_against_an_ace() -> None:
    # ann TC 6H vs AD up, 7S down (soft 18).
    rnd = play(PT, "TC AD 6H 7S", decisions=["no-insurance"])
    assert rnd.question is not None and rnd.question.actions == ("hit", "stand")
    assert not rnd.can_surrender()
    with pytest.raises(IllegalActionError, match="surrender"):
        rnd.surrender()


def test_pt_11_surrender_only_on_the_hands_first_decision() -> None:
    # ann 5C 3H (8) vs 9D 8S (17): surrender offered, ann hits 4C instead: 12, no surrender.
    rnd = play(PT, "5C 9D 3H 8S 4C")
    assert rnd.question is not None and rnd.question.actions == ("hit", "surrender")
    rnd.hit()
    assert rnd.question is not None and rnd.question.actions == ("hit", "stand")
    assert not rnd.can_surrender()
    rnd.stand()
    assert hand(rnd).result == "lose" and hand(rnd).returned == 0


def test_pt_11_no_surrender_after_a_split() -> None:
    # ann 9S 9H vs 6D TC: after the split, 9S 2C is the split hand's first decision, but the
    # box's first decision (split) is taken.
    rnd = play(PT, "9S 6D 9H TC 2C", decisions=["split"])
    assert rnd.question is not None and rnd.question.hand == 0
    assert "surrender" not in rnd.question.actions


# ---------------------------------------------------------------- pt.12 special prize


def test_pt_12_suited_678_pays_three_times_at_once_and_is_kept_when_the_hand_loses() -> None:
    # box1 6H 7H hits 8H (21); box2 TC 8C; bank TD up, AS down: blackjack beats box1's 21.
    rnd = play(PT, "6H TC TD 7H 8C AS 8H", bets=(100, 100), decisions=["hit"])
    assert rnd.question is not None and rnd.question.box == 1  # box2 still to play
    assert hand(rnd, 0).bonus == 300 and hand(rnd, 0).result is None
    assert [(p.box, p.amount) for p in side_payments(rnd, "bonus")] == [(0, 300)]
    rnd.stand()
    assert hand(rnd, 0).result == "lose" and hand(rnd, 0).returned == 0
    assert hand(rnd, 0).bonus == 300
    assert rnd.boxes[0].net == -100 + 300
    assert rnd.boxes[1].net == -100


def test_pt_12_three_sevens_of_any_suits_pay_three_times_the_bet() -> None:
    # ann 7C 7D hits 7S: 21 against the bank's 9D TH (19).
    rnd = play(PT, "7C 9D 7D TH 7S")
    assert rnd.question is not None and "split" in rnd.question.actions
    rnd.hit()
    h = hand(rnd)
    assert h.bonus == 300 and h.result == "win" and h.returned == 200
    assert rnd.net() == {"ann": 100 + 300}


def test_pt_12_678_of_mixed_suits_is_no_prize() -> None:
    # ann 6H 7H hits 8S: 21 but not one suit; the bank 9D TH (19).
    rnd = play(PT, "6H 9D 7H TH 8S", decisions=["hit"])
    assert hand(rnd).bonus == 0 and side_payments(rnd, "bonus") == []
    assert rnd.net() == {"ann": 100}


def test_pt_12_prize_on_a_split_hand() -> None:
    # ann 7S 7D split: 7S gets 7H, hits 7C (three 7s, 21); 7D gets TS (17); bank 9C TH (19).
    rnd = play(PT, "7S 9C 7D TH 7H 7C TS", decisions=["split", "hit", "stand"])
    first, second = rnd.boxes[0].hands
    assert shown(first) == ["7S", "7H", "7C"] and first.bonus == 300
    assert shown(second) == ["7D", "TS"] and second.bonus == 0
    assert [first.result, second.result] == ["win", "lose"]
    assert rnd.net() == {"ann": -200 + 200 + 300}


# ---------------------------------------------------------------- pt.13 aces jackpot


def test_pt_13_preset_paytable() -> None:
    assert PT.side_bet("jackpot").kind == "aces-jackpot"
    assert PT.jackpot_paytable == ((2, Fraction(25)), (3, Fraction(250)), (4, Fraction(2500)))


def test_pt_13_two_first_aces_pay_the_jackpot_although_the_main_hand_loses() -> None:
    # ann AS AH (+100 jackpot) stands on soft 12 against TD 8C (18).
    rnd = play(PT, "AS TD AH 8C", bets=[BoxBet("ann", 100, {"jackpot": 100})])
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "stand", "split", "surrender")
    rnd.stand()
    assert hand(rnd).result == "lose"
    assert [p.amount for p in side_payments(rnd, "jackpot")] == [jackpot_return(100, 2)]
    assert rnd.net() == {"ann": -100 - 100 + 2600}


def test_pt_13_jackpot_paid_on_a_surrendered_hand() -> None:
    rnd = play(
        PT, "AS TD AH 8C", bets=[BoxBet("ann", 100, {"jackpot": 100})], decisions=["surrender"]
    )
    assert hand(rnd).result == "surrender" and hand(rnd).returned == 50
    assert [p.amount for p in side_payments(rnd, "jackpot")] == [2600]
    assert rnd.net() == {"ann": -50 - 100 + 2600}


def test_pt_13_three_first_aces_through_a_split() -> None:
    # ann AS AH split; AS gets AD (the box's third card, an ace), AH gets 9C; bank TD 8C.
    rnd = play(PT, "AS TD AH 8C AD 9C", bets=[BoxBet("ann", 100, {"jackpot": 100})])
    rnd.split()
    assert rnd.is_over
    assert [h.result for h in rnd.boxes[0].hands] == ["lose", "win"]  # soft 12, soft 20
    assert [p.amount for p in side_payments(rnd, "jackpot")] == [jackpot_return(100, 3)]
    assert rnd.net() == {"ann": -300 + 200 + 25100}


def test_pt_13_four_first_aces() -> None:
    # ann AS AH hits AD, AC (soft 14), stands; bank TD 8C.
    rnd = play(
        PT, "AS TD AH 8C AD AC", [BoxBet("ann", 100, {"jackpot": 100})], ["hit", "hit", "stand"]
    )
    assert hand(rnd).result == "lose"
    assert [p.amount for p in side_payments(rnd, "jackpot")] == [jackpot_return(100, 4)]
    assert rnd.net() == {"ann": -200 + 250100}


def test_pt_13_only_the_first_cards_count() -> None:
    # ann AS 5H hits AC, AD: three aces, but the box's second card is not one: no jackpot.
    rnd = play(
        PT, "AS 9D 5H 8C AC AD", [BoxBet("ann", 100, {"jackpot": 100})], ["hit", "hit", "stand"]
    )
    assert hand(rnd).total == (18, True) and hand(rnd).result == "win"
    assert [p.amount for p in side_payments(rnd, "jackpot")] == [0]
    assert rnd.net() == {"ann": 100 - 100}


@pytest.mark.parametrize("preset", ["ro-casino", "pl-online", "hu-casino", "ru-online"])
def test_pt_13_jackpot_bet_needs_a_jackpot_table(preset: str) -> None:
    with pytest.raises(BetError, match="jackpot"):
        play(load_rules(preset), "AS TD AH 8C", bets=[BoxBet("ann", 100, {"jackpot": 100})])


def test_pt_13_jackpot_only_beside_a_main_bet() -> None:
    with pytest.raises(BetError):
        play(PT, "AS TD AH 8C", bets=[BoxBet("ann", 0, {"jackpot": 100})])
