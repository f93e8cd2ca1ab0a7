"""The Hungarian casino table (hu-casino), clause by clause: hu.1 ... hu.10 of RULES.md.

Stacked shoes are read in hu's dealing order (hu.4, box by box): box 1's two cards, box 2's
two cards, ..., then the dealer's one open card; then the cards the boxes draw in order of
play; then the dealer's second card and draws (no hole card). A split hand gets its second
card when play reaches it. Every bet is 100 (the table minimum) unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from helpers import all_dealt, dealer, hand, payments, play, shown
from twentyone import (
    Action,
    BoxBet,
    Deal,
    IllegalActionError,
    Shoe,
    StackedShoe,
    load_rules,
)

HU = load_rules("hu-casino")


# ---------------------------------------------------------------- hu.1 the table


def test_hu_1_several_boxes_and_players_each_against_the_dealer() -> None:
    assert HU.decks == 6 and Shoe.for_rules(HU, seed=1).size == 312
    # ann TC 9C (19), bob TD 7D (17), ann TH 6H (16, hits 5S: 21); dealer 9S, then 8S (17).
    bets = [BoxBet("ann", 100), BoxBet("bob", 200), BoxBet("ann", 300)]
    rnd = play(HU, "TC 9C TD 7D TH 6H 9S 5S 8S", bets, ["stand", "stand", "hit"])
    assert rnd.is_over and all_dealt(rnd)
    assert [hand(rnd, b).result for b in range(3)] == ["win", "push", "win"]
    assert rnd.net() == {"ann": 100 + 300, "bob": 0}


# ---------------------------------------------------------------- hu.2 blackjack


def test_hu_2_blackjack_beats_a_dealer_21_of_three_cards() -> None:
    # box1 AS KH, box2 TD 6D stands; dealer 7C, then 4S (11) and TS: 21 in three cards.
    rnd = play(HU, "AS KH TD 6D 7C 4S TS", bets=(100, 100), decisions=["stand"])
    assert dealer(rnd) == ["7C", "4S", "TS"]
    assert hand(rnd, 0).is_blackjack
    assert hand(rnd, 0).result == "blackjack" and hand(rnd, 0).returned == 250
    assert hand(rnd, 1).result == "lose"


# ---------------------------------------------------------------- hu.3 payouts


def test_hu_3_wins_pay_one_to_one_and_blackjack_three_to_two_at_the_end() -> None:
    # box1 AC QD, box2 TH 9H; dealer 9S, then 9D (18).
    rnd = play(HU, "AC QD TH 9H 9S 9D", bets=(100, 100))
    assert rnd.question is not None and rnd.question.box == 1
    assert hand(rnd, 0).result is None and payments(rnd, "return") == []  # not paid yet
    rnd.stand()
    assert hand(rnd, 0).result == "blackjack" and hand(rnd, 0).returned == 250
    assert hand(rnd, 1).result == "win" and hand(rnd, 1).returned == 200
    assert rnd.net() == {"ann": 150 + 100}


# ---------------------------------------------------------------- hu.4 dealing


def test_hu_4_two_cards_to_each_box_then_one_open_dealer_card() -> None:
    # box1 TC 7D, box2 9H 8S, dealer 6C; both stand; the dealer's TD (16) and 5H (21) come last.
    rnd = play(HU, "TC 7D 9H 8S 6C TD 5H", bets=(100, 100))
    assert shown(hand(rnd, 0)) == ["TC", "7D"] and shown(hand(rnd, 1)) == ["9H", "8S"]
    assert dealer(rnd) == ["6C"]  # no hole card during play
    assert [str(c) for c in rnd.dealer_visible] == ["6C"]
    rnd.stand()
    rnd.stand()
    deals = [r for r in rnd.log if isinstance(r, Deal)]
    assert [d.box for d in deals] == [0, 0, 1, 1, None, None, None]
    assert not any(d.face_down for d in deals)  # every card is open
    last_action = max(i for i, r in enumerate(rnd.log) if isinstance(r, Action))
    assert rnd.log.index(deals[5]) > last_action  # the second dealer card after the players
    assert dealer(rnd) == ["6C", "TD", "5H"]
    assert [hand(rnd, b).result for b in (0, 1)] == ["lose", "lose"]


def test_hu_4_dealer_blackjack_after_the_players_takes_a_double() -> None:
    # ann 6C 5D doubles against TH and draws 9S (20); the dealer's second card AC: blackjack.
    rnd = play(HU, "6C 5D TH 9S AC", decisions=["double"])
    assert rnd.is_over and all_dealt(rnd)
    assert rnd.dealer_blackjack is True
    assert hand(rnd).bet == 200 and hand(rnd).result == "lose"
    assert rnd.net() == {"ann": -200}


# ---------------------------------------------------------------- hu.5 play in order


def test_hu_5_boxes_play_in_dealing_order_and_a_bust_loses_at_once() -> None:
    # box1 TC 6D hits 9H (25); box2 TH 9S stands; dealer 7C, then TD (17).
    rnd = play(HU, "TC 6D TH 9S 7C 9H TD", bets=(100, 100))
    assert rnd.question is not None and rnd.question.box == 0
    rnd.hit()
    assert hand(rnd, 0).result == "bust" and hand(rnd, 0).returned == 0
    assert rnd.question is not None and rnd.question.box == 1
    assert dealer(rnd) == ["7C"]  # lost before the dealer plays
    rnd.stand()
    assert hand(rnd, 0).result == "bust"  # stays lost
    assert hand(rnd, 1).result == "win"
    assert rnd.net() == {"ann": 0}


# ---------------------------------------------------------------- hu.6 dealer's play


def test_hu_6_dealer_stops_on_soft_17() -> None:
    # ann TC 8H (18); dealer 6D draws AS: soft 17 and stops (nothing left to draw anyway).
    rnd = play(HU, "TC 8H 6D AS", decisions=["stand"])
    assert dealer(rnd) == ["6D", "AS"] and all_dealt(rnd)
    assert hand(rnd).result == "win"


def test_hu_6_dealer_bust_pays_every_box_still_in() -> None:
    # box1 TC 5D stands on 15; box2 TH 2D hits TD (22, lost); dealer 6S, TS (16), 8C (24).
    rnd = play(HU, "TC 5D TH 2D 6S TD TS 8C", bets=(100, 100), decisions=["stand", "hit"])
    assert dealer(rnd) == ["6S", "TS", "8C"]
    assert hand(rnd, 0).result == "win" and hand(rnd, 0).returned == 200
    assert hand(rnd, 1).result == "bust" and hand(rnd, 1).returned == 0
    assert rnd.net() == {"ann": 0}


def test_hu_6_equal_totals_stand_off() -> None:
    # ann TC 8D (18); dealer 9S, then 9H (18).
    rnd = play(HU, "TC 8D 9S 9H", decisions=["stand"])
    assert hand(rnd).result == "push" and hand(rnd).returned == 100
    assert rnd.net() == {"ann": 0}


# ---------------------------------------------------------------- hu.7 double


def test_hu_7_double_the_full_bet_only_and_one_card() -> None:
    # ann 6C 4H (10) vs 9D; doubles, draws TS (20); dealer 8D: 17.
    rnd = play(HU, "6C 4H 9D TS 8D")
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "stand", "double")
    assert rnd.question.amount_range is None
    assert not rnd.can_double(50)
    with pytest.raises(IllegalActionError):
        rnd.double(50)
    rnd.double()
    assert rnd.is_over
    h = hand(rnd)
    assert shown(h) == ["6C", "4H", "TS"] and h.bet == 200
    assert h.result == "win" and h.returned == 400


@pytest.mark.parametrize("two", ["9C 8H", "AC 8H", "2C 3H"])
def test_hu_7_double_on_any_first_two_cards(two: str) -> None:
    rnd = play(HU, f"{two} 9D")
    assert rnd.can_double()


# ---------------------------------------------------------------- hu.8 split


def test_hu_8_split_by_value_again_whenever_another_equal_card_comes() -> None:
    # ann KS JD vs 6C; KS draws QH (split again), then TC (split again), then TD (four hands,
    # and a fifth: no limit is stated), then 9S. The others get 9C, 8C, 7C, 6D; dealer TH
    # (16), 9H (25).
    rnd = play(HU, "KS JD 6C QH TC TD 9S 9C 8C 7C 6D TH 9H")
    assert rnd.question is not None and "split" in rnd.question.actions
    rnd.split()
    assert shown(hand(rnd, 0, 0)) == ["KS", "QH"] and rnd.can_split()
    rnd.split()
    assert shown(hand(rnd, 0, 0)) == ["KS", "TC"] and rnd.can_split()
    rnd.split()
    assert len(rnd.boxes[0].hands) == 4
    assert shown(hand(rnd, 0, 0)) == ["KS", "TD"]
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "stand", "double", "split")
    rnd.split()
    assert len(rnd.boxes[0].hands) == 5
    for _ in range(5):
        rnd.stand()
    assert rnd.is_over and all_dealt(rnd)
    box = rnd.boxes[0]
    assert [shown(h) for h in box.hands] == [
        ["KS", "9S"],
        ["TD", "9C"],
        ["TC", "8C"],
        ["QH", "7C"],
        ["JD", "6D"],
    ]
    assert [h.bet for h in box.hands] == [100] * 5
    assert [h.result for h in box.hands] == ["win"] * 5
    assert rnd.net() == {"ann": 500}


def test_hu_8_resplit_aces_and_ace_ten_after_split_is_not_blackjack() -> None:
    # ann AS AD vs 9C; AS draws AH (split), then AC (split), then KD; the others get 9H, 5S, 2C;
    # dealer 8D: 17.
    rnd = play(HU, "AS AD 9C AH AC KD 9H 5S 2C 8D", decisions=["split"])
    assert rnd.question is not None and rnd.question.actions == ("split", "stand")
    rnd.split()
    assert rnd.question is not None and rnd.question.actions == ("split", "stand")
    rnd.split()
    assert rnd.is_over and all_dealt(rnd)  # split aces take one card each
    box = rnd.boxes[0]
    assert [shown(h) for h in box.hands] == [
        ["AS", "KD"],
        ["AC", "9H"],
        ["AH", "5S"],
        ["AD", "2C"],
    ]
    assert not box.hands[0].is_blackjack
    assert box.hands[0].result == "win" and box.hands[0].returned == 200  # 1:1, not 3:2
    assert [h.result for h in box.hands] == ["win", "win", "lose", "lose"]
    assert rnd.net() == {"ann": 0}


# ---------------------------------------------------------------- hu.9 insurance


def test_hu_9_insurance_exactly_half_pays_two_to_one() -> None:
    # ann TC 8D vs AS; insures 50, stands; the dealer's second card KH: blackjack.
    rnd = play(HU, "TC 8D AS KH")
    q = rnd.question
    assert q is not None and q.kind == "insurance"
    assert q.actions == ("insure", "no-insurance") and q.amount_range is None
    assert not rnd.can_insure(25)
    with pytest.raises(IllegalActionError):
        rnd.insure(25)
    assert rnd.insure().amount == 50
    rnd.stand()
    assert [p.amount for p in payments(rnd, "insurance")] == [150]
    assert hand(rnd).result == "lose"
    assert rnd.net() == {"ann": -100 - 50 + 150}


def test_hu_9_insurance_lost_without_dealer_blackjack() -> None:
    # ann TC 8D vs AS; insures, stands; dealer 6H: soft 17.
    rnd = play(HU, "TC 8D AS 6H", decisions=["insure", "stand"])
    assert [p.amount for p in payments(rnd, "insurance")] == [0]
    assert hand(rnd).result == "win"
    assert rnd.net() == {"ann": 100 - 50}


def test_hu_9_insurance_alone_needs_only_the_dealers_second_card() -> None:
    # ann TC 6D vs AS insures, hits 9H (25, lost); the insurance still waits: the dealer draws
    # 5C (soft 16, no blackjack) and nothing more; TD stays in the shoe.
    rnd = play(HU, "TC 6D AS 9H 5C TD", decisions=["insure", "hit"])
    assert rnd.is_over
    assert dealer(rnd) == ["AS", "5C"]
    assert isinstance(rnd.shoe, StackedShoe) and rnd.shoe.remaining == 1
    assert [p.amount for p in payments(rnd, "insurance")] == [0]
    assert rnd.net() == {"ann": -150}


# ---------------------------------------------------------------- hu.10 even money


def test_hu_10_even_money_for_a_blackjack_against_an_ace() -> None:
    # ann AS KD vs AH: takes 1:1; nothing waits on the dealer, who draws no second card.
    rnd = play(HU, "AS KD AH")
    q = rnd.question
    assert q is not None and q.kind == "even-money"
    assert q.actions == ("even-money", "insure", "no-even-money")  # hu.9 insurance instead
    rnd.even_money()
    assert rnd.is_over and all_dealt(rnd)
    assert hand(rnd).result == "even-money" and hand(rnd).returned == 200
    assert rnd.net() == {"ann": 100}


@pytest.mark.parametrize(
    ("second", "result", "insurance_back"), [("KC", "push", 150), ("7C", "blackjack", 0)]
)
def test_hu_9_a_blackjack_may_insure_exactly_half_instead_of_even_money(
    second: str, result: str, insurance_back: int
) -> None:
    # ann AS KD (1.00) vs AH insures 0.50 (hu.9 "the player may insure"): against a dealer
    # blackjack a stand-off plus 2:1 on the insurance; otherwise 3:2 and the insurance lost.
    # Either way +1.00, as even money.
    rnd = play(HU, f"AS KD AH {second}", decisions=["insure"])
    assert rnd.is_over and rnd.decisions == ["insure"] and rnd.boxes[0].insurance == 50
    assert hand(rnd).result == result
    assert [p.amount for p in payments(rnd, "insurance")] == [insurance_back]
    assert rnd.net() == {"ann": 100}


def test_hu_9_insurance_is_exactly_half_so_its_amount_is_the_same_decision() -> None:
    # item 3: where the table fixes the amount, insure:<that amount> is the bare word
    rnd = play(HU, "AS KD AH 7C", [1000], ["insure:500"])
    assert rnd.decisions == ["insure"] and rnd.boxes[0].insurance == 500
    other = play(HU, "AS KD AH 7C", [1000])
    with pytest.raises(IllegalActionError, match="'insure:400' is not allowed"):
        other.apply("insure:400")


def test_hu_10_no_insurance_declines_both_for_a_blackjack() -> None:
    rnd = play(HU, "AS KD AH 7C", decisions=["no-insurance"])
    assert rnd.is_over and rnd.decisions == ["no-even-money"]
    assert hand(rnd).result == "blackjack" and rnd.net() == {"ann": 150}


def test_hu_10_declined_even_money_is_a_push_against_dealer_blackjack() -> None:
    # ann AS KD vs AH declines (both even money and insurance); dealer KC: blackjack.
    rnd = play(HU, "AS KD AH KC", decisions=["no-even-money"])
    assert rnd.is_over and rnd.decisions == ["no-even-money"]
    assert dealer(rnd) == ["AH", "KC"]
    assert hand(rnd).result == "push" and hand(rnd).returned == 100
    assert rnd.net() == {"ann": 0}
