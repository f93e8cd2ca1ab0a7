"""The Russian online game (ru-online), clause by clause: ru.1 ... ru.13 of RULES.md.

Stacked shoes are read in ru's dealing order (round-robin): one card to each box, the dealer's
up card, a second card to each box, the dealer's hole card; then the cards the boxes draw in
order of play, then the dealer's draws. After a split each hand gets its second card when play
reaches it (ru.9). Every bet is 100 (the table minimum) unless a test says otherwise.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from helpers import dealer, hand, left, payments, play, reveals, shown
from twentyone import (
    BetError,
    BoxBet,
    Deal,
    IllegalActionError,
    Payment,
    Reveal,
    Round,
    Shoe,
    StackedShoe,
    load_rules,
)
from twentyone.engine.cards import full_deck

RU = load_rules("ru-online")


# ---------------------------------------------------------------- ru.1 the shoe


def test_ru_1_six_decks_cut_card_at_two_thirds_new_shoe_only_after_it() -> None:
    assert (RU.decks, RU.shuffle, RU.penetration) == (6, "cut-card", Fraction(2, 3))
    shoe = Shoe.for_rules(RU, seed=4)
    assert shoe.size == 312 and shoe.cut_position == 208
    first = shoe.draw_many(312)
    assert Counter(first) == Counter(full_deck() * 6)  # six 52-card decks
    shoe = Shoe.for_rules(RU, seed=4)
    shoe.draw_many(207)
    assert not shoe.cut_card_out
    shoe.begin_round()  # the played cards stay in the discard
    assert shoe.shuffles == 1 and shoe.remaining == 105
    shoe.draw()  # the 208th card: the cut card comes out
    assert shoe.cut_card_out
    shoe.draw_many(3)  # the round goes on from the same shoe
    assert shoe.shuffles == 1 and shoe.remaining == 101
    shoe.begin_round()  # a new shoe for the next round
    assert shoe.shuffles == 2 and shoe.remaining == 312 and not shoe.cut_card_out


def test_ru_1_a_round_after_the_cut_card_starts_a_new_shoe() -> None:
    shoe = Shoe.for_rules(RU, seed=9)
    shoe.draw_many(208)
    rnd = Round(RU, shoe, [BoxBet("ann", 100)])
    assert shoe.shuffles == 2
    assert shoe.remaining == 312 - len(rnd.cards_dealt)


# ---------------------------------------------------------------- ru.2 card values


def test_ru_2_soft_and_hard_totals_and_court_cards() -> None:
    # box1 AS 7H (soft 18) hits TS: hard 18; box2 JC QD (20); dealer 9D 8C (17).
    rnd = play(RU, "AS JC 9D 7H QD 8C TS", bets=(100, 100))
    assert hand(rnd, 0).total == (18, True)
    assert hand(rnd, 1).total == (20, False)
    rnd.hit()
    assert hand(rnd, 0).total == (18, False)
    rnd.stand()
    rnd.stand()
    assert [hand(rnd, b).result for b in (0, 1)] == ["win", "win"]


# ---------------------------------------------------------------- ru.3 boxes


def test_ru_3_up_to_five_boxes() -> None:
    # Five boxes of TX 9X (19) against the dealer's 9D 8D (17).
    rnd = play(RU, "TC TD TH TS TC 9D 9C 9D 9H 9S 9C 8D", bets=[100] * 5)
    for _ in range(5):
        rnd.stand()
    assert [hand(rnd, b).result for b in range(5)] == ["win"] * 5
    assert rnd.net() == {"ann": 500} and left(rnd) == 0


def test_ru_3_a_sixth_box_is_refused() -> None:
    with pytest.raises(BetError):
        Round(RU, StackedShoe("TC " * 14), [BoxBet("ann", 100)] * 6)
    with pytest.raises(BetError):
        Round(RU, StackedShoe("TC " * 14), [BoxBet("ann", 100)] * 3 + [BoxBet("bob", 100)] * 3)


# ---------------------------------------------------------------- ru.4 the deal


def test_ru_4_two_cards_each_all_open_but_the_dealers_second() -> None:
    # box1 AS QH (blackjack), box2 TC 7S; dealer 6D up, TD down (16), draws 9C later.
    rnd = play(RU, "AS TC 6D QH 7S TD 9C", bets=(100, 100))
    assert shown(hand(rnd, 0)) == ["AS", "QH"] and hand(rnd, 0).is_blackjack
    assert shown(hand(rnd, 1)) == ["TC", "7S"]
    assert dealer(rnd) == ["6D", "TD"] and [str(c) for c in rnd.dealer_visible] == ["6D"]
    deals = [r for r in rnd.log if isinstance(r, Deal)]
    assert [d.box for d in deals] == [0, 1, None, 0, 1, None]
    assert [d.face_down for d in deals] == [False] * 5 + [True]
    assert reveals(rnd) == []
    rnd.stand()
    assert reveals(rnd) == ["TD"] and dealer(rnd) == ["6D", "TD", "9C"]
    assert hand(rnd, 0).result == "blackjack" and hand(rnd, 1).result == "win"


# ---------------------------------------------------------------- ru.5 insurance


def test_ru_5_insurance_on_a_ten_costs_half_and_the_peek_shows_nothing() -> None:
    # ann TC 8H vs KD up, 7S down (17): insures 50; no dealer blackjack.
    rnd = play(RU, "TC KD 8H 7S")
    q = rnd.question
    assert q is not None and q.kind == "insurance"
    assert q.actions == ("insure", "no-insurance")
    assert not rnd.can_insure(30)
    with pytest.raises(IllegalActionError):
        rnd.insure(30)
    assert rnd.insure().amount == 50
    # the dealer checked the hole card: insurance lost at once, the card still hidden
    assert [p.amount for p in payments(rnd, "insurance")] == [0]
    assert reveals(rnd) == [] and [str(c) for c in rnd.dealer_visible] == ["KD"]
    assert rnd.question is not None and rnd.question.kind == "play"
    rnd.stand()
    assert hand(rnd).result == "win"
    assert rnd.net() == {"ann": 100 - 50}


def test_ru_5_insurance_on_an_ace_but_not_on_a_nine() -> None:
    ace = play(RU, "TC AD 8H 7S")
    assert ace.question is not None and ace.question.kind == "insurance"
    nine = play(RU, "TC 9D 8H 7S")
    assert nine.question is not None and nine.question.kind == "play"


# ---------------------------------------------------------------- ru.6 dealer blackjack


def test_ru_6_dealer_blackjack_ends_the_round() -> None:
    # box1 AS KS (blackjack), box2 TD 8D (insured), box3 TH QC; dealer AC up, KH down.
    rnd = play(
        RU,
        "AS TD TH AC KS 8D QC KH",
        bets=(100, 100, 100),
        decisions=["no-insurance", "insure", "no-insurance"],
    )
    assert rnd.is_over and left(rnd) == 0
    assert rnd.dealer_blackjack is True
    assert reveals(rnd) == ["KH"]
    assert rnd.decisions == ["no-insurance", "insure", "no-insurance"]  # no play at all
    assert hand(rnd, 0).result == "push" and hand(rnd, 0).returned == 100
    assert [(p.box, p.amount) for p in payments(rnd, "insurance")] == [(1, 150)]
    assert hand(rnd, 1).result == "lose" and rnd.boxes[1].net == -100 - 50 + 150
    assert hand(rnd, 2).result == "lose" and rnd.boxes[2].net == -100


def test_ru_6_dealer_blackjack_under_a_ten() -> None:
    # ann 9C 9H vs TD up, AS down: after the insurance question the round is over.
    rnd = play(RU, "9C TD 9H AS", decisions=["no-insurance"])
    assert rnd.is_over and reveals(rnd) == ["AS"]
    assert hand(rnd).result == "lose" and rnd.net() == {"ann": -100}


# ---------------------------------------------------------------- ru.7 blackjack at once


def test_ru_7_blackjack_paid_at_once_after_the_peek() -> None:
    # box1 AS KH, box2 TC 9S vs QD up, 8C down (18): insurance asked, then the peek.
    rnd = play(RU, "AS TC QD KH 9S 8C", bets=(100, 100))
    assert rnd.question is not None and rnd.question.kind == "insurance"
    assert hand(rnd, 0).result is None  # not before the peek
    rnd.decline_insurance()
    rnd.decline_insurance()
    # (mypy keeps the question narrowed across the round's methods: the ignores below)
    assert rnd.question is not None and rnd.question.kind == "play" and rnd.question.box == 1  # type: ignore[comparison-overlap]
    assert hand(rnd, 0).result == "blackjack" and hand(rnd, 0).returned == 250
    rnd.stand()
    assert hand(rnd, 1).result == "win"
    assert rnd.net() == {"ann": 150 + 100}


# ---------------------------------------------------------------- ru.8 double


def test_ru_8_double_on_first_two_cards_one_card_then_the_next_hand() -> None:
    # box1 5C 3S doubles, draws 2H (10); box2 9D 2C hits 4S (15), stands; dealer 6H TD, 8D.
    rnd = play(RU, "5C 9D 6H 3S 2C TD 2H 4S 8D", bets=(100, 100))
    assert rnd.question is not None and rnd.question.actions == ("hit", "stand", "double")
    rnd.double()
    assert shown(hand(rnd, 0)) == ["5C", "3S", "2H"] and hand(rnd, 0).bet == 200
    assert rnd.question is not None and rnd.question.box == 1  # one card only, play moves on
    rnd.hit()
    assert rnd.question is not None and rnd.question.actions == ("hit", "stand")  # type: ignore[comparison-overlap]
    assert not rnd.can_double()
    rnd.stand()
    assert dealer(rnd) == ["6H", "TD", "8D"]
    assert [hand(rnd, b).returned for b in (0, 1)] == [400, 200]
    assert rnd.net() == {"ann": 200 + 100}


# ---------------------------------------------------------------- ru.9 split


def test_ru_9_second_card_when_play_reaches_the_hand_and_no_resplit() -> None:
    # ann 8S 8H vs 6D TC; split: 8S gets 3C (11, may double: ru.9's list), hits KD (21, play
    # moves on); only then 8H gets 8D: a pair again, but no resplit; dealer draws 7C (23).
    rnd = play(RU, "8S 6D 8H TC 3C KD 8D 7C")
    assert rnd.split().amount == 100
    assert shown(hand(rnd, 0, 0)) == ["8S", "3C"] and shown(hand(rnd, 0, 1)) == ["8H"]
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "stand", "double")  # no surrender, no resplit
    rnd.hit()
    assert shown(hand(rnd, 0, 1)) == ["8H", "8D"]
    assert rnd.question is not None and rnd.question.hand == 1
    assert "split" not in rnd.question.actions and not rnd.can_split()
    deals = [(str(d.card), d.hand) for d in rnd.log if isinstance(d, Deal) and d.box == 0]
    assert deals[2:] == [("3C", 0), ("KD", 0), ("8D", 1)]
    rnd.stand()
    assert dealer(rnd) == ["6D", "TC", "7C"]
    assert [h.result for h in rnd.boxes[0].hands] == ["win", "win"]


def test_ru_9_split_by_value_queen_and_jack() -> None:
    # ann QS JH vs 6D TC; split: QS 9C (19), JH JD (20: no resplit); dealer draws TH (26).
    rnd = play(RU, "QS 6D JH TC 9C JD TH")
    assert rnd.question is not None and "split" in rnd.question.actions
    rnd.split()
    rnd.stand()
    assert shown(hand(rnd, 0, 1)) == ["JH", "JD"] and not rnd.can_split()
    rnd.stand()
    assert [h.result for h in rnd.boxes[0].hands] == ["win", "win"]
    assert rnd.net() == {"ann": 200}


def test_ru_9_split_aces_one_card_each_and_21_is_not_blackjack() -> None:
    # ann AS AH vs 7D TC (17); split: AS gets KD (21), AH gets AC (no resplit of aces).
    rnd = play(RU, "AS 7D AH TC KD AC", decisions=["split"])
    assert rnd.is_over and left(rnd) == 0
    first, second = rnd.boxes[0].hands
    assert shown(first) == ["AS", "KD"] and not first.is_blackjack
    assert first.result == "win" and first.returned == 200  # 1:1, not 3:2
    assert shown(second) == ["AH", "AC"] and second.result == "lose"
    assert rnd.net() == {"ann": 0}


# ---------------------------------------------------------------- ru.10 hit below 21


def test_ru_10_hit_only_below_21_and_over_21_loses_at_once() -> None:
    # box1 7C 4S hits TH: 21, play passes on; box2 TD 6C hits 9S: 25, lost before the dealer
    # shows the hole card; dealer 8H 9D (17).
    rnd = play(RU, "7C TD 8H 4S 6C 9D TH 9S", bets=(100, 100))
    rnd.hit()
    assert hand(rnd, 0).total.total == 21
    assert rnd.question is not None and rnd.question.box == 1  # no question on 21
    rnd.hit()
    assert hand(rnd, 1).result == "bust"
    bust_paid = next(i for i, r in enumerate(rnd.log) if isinstance(r, Payment) and r.box == 1)
    reveal = next(i for i, r in enumerate(rnd.log) if isinstance(r, Reveal))
    assert bust_paid < reveal
    assert hand(rnd, 0).result == "win" and hand(rnd, 1).returned == 0
    assert rnd.net() == {"ann": 0}


def test_ru_10_stand_fixes_the_hand() -> None:
    # box1 TC 2H stands on 12; box2 9C 9S stands; dealer 6D TS (16) draws 5C: 21.
    rnd = play(RU, "TC 9C 6D 2H 9S TS 5C", bets=(100, 100), decisions=["stand"])
    assert rnd.question is not None and rnd.question.box == 1  # box1 is finished
    assert hand(rnd, 0).done and len(hand(rnd, 0).cards) == 2
    rnd.stand()
    assert shown(hand(rnd, 0)) == ["TC", "2H"] and shown(hand(rnd, 1)) == ["9C", "9S"]
    assert dealer(rnd) == ["6D", "TS", "5C"]
    assert [hand(rnd, b).result for b in (0, 1)] == ["lose", "lose"]


# ---------------------------------------------------------------- ru.11 dealer's draw


def test_ru_11_dealer_only_shows_second_card_when_every_box_busted() -> None:
    # box1 TC 6S hits 8D, box2 TD 5C hits 9C: both bust; dealer 6H TH (16) draws nothing.
    rnd = play(RU, "TC TD 6H 6S 5C TH 8D 9C 2S", bets=(100, 100), decisions=["hit", "hit"])
    assert rnd.is_over
    assert dealer(rnd) == ["6H", "TH"] and reveals(rnd) == ["TH"]
    assert left(rnd) == 1  # the 2S stays in the shoe
    assert rnd.net() == {"ann": -200}


def test_ru_11_dealer_only_shows_second_card_when_no_bet_left() -> None:
    # ann AS KD vs 5C up, 6H down (11): blackjack paid at once, nothing left to play for.
    rnd = play(RU, "AS 5C KD 6H 9S")
    assert rnd.is_over and rnd.decisions == []
    assert dealer(rnd) == ["5C", "6H"] and reveals(rnd) == ["6H"]
    assert left(rnd) == 1
    assert hand(rnd).result == "blackjack" and rnd.net() == {"ann": 150}


def test_ru_11_insured_blackjack_needs_no_dealer_draw() -> None:
    # ann AS KD insures against AH; hole 5C (soft 16): insurance lost, blackjack paid, no draw.
    rnd = play(RU, "AS AH KD 5C 9S", decisions=["insure"])
    assert rnd.is_over
    assert dealer(rnd) == ["AH", "5C"] and left(rnd) == 1
    assert [p.amount for p in payments(rnd, "insurance")] == [0]
    assert hand(rnd).returned == 250
    assert rnd.net() == {"ann": -100 - 50 + 250}


def test_ru_11_dealer_hits_below_17_for_a_live_hand() -> None:
    # ann TC 8H stands; dealer 6D 5S (11) draws 2C (13), 4H (17) and stands; 9S stays.
    rnd = play(RU, "TC 6D 8H 5S 2C 4H 9S", decisions=["stand"])
    assert dealer(rnd) == ["6D", "5S", "2C", "4H"] and left(rnd) == 1
    assert hand(rnd).result == "win"


# ---------------------------------------------------------------- ru.12 comparison


def test_ru_12_higher_wins_equal_pushes_lower_loses() -> None:
    # Boxes 19, 18, 17 against the dealer's 9D 9C (18).
    rnd = play(RU, "TC TD TH 9D 9S 8S 7S 9C", bets=(100, 100, 100))
    for _ in range(3):
        rnd.stand()
    assert [hand(rnd, b).result for b in range(3)] == ["win", "push", "lose"]
    assert [hand(rnd, b).returned for b in range(3)] == [200, 100, 0]


def test_ru_12_dealer_bust_pays_every_remaining_hand() -> None:
    # box1 TC 5D (15), box2 TS 9H (19) stand; box3 TH 6C hits TD (26); dealer 6S TC, 9C (25).
    rnd = play(
        RU,
        "TC TS TH 6S 5D 9H 6C TC TD 9C",
        bets=(100, 100, 100),
        decisions=["stand", "stand", "hit"],
    )
    assert dealer(rnd) == ["6S", "TC", "9C"]
    assert [hand(rnd, b).result for b in range(3)] == ["win", "win", "bust"]
    assert rnd.net() == {"ann": 100}


# ---------------------------------------------------------------- ru.13 contradicted


def test_ru_13_contradicted_rules_follow_ru_1_and_continuous_is_one_setting_away() -> None:
    assert RU.shuffle == "cut-card"  # ru.1 wins: no reshuffle after every round
    cut = Shoe.for_rules(RU, seed=3)
    cut.draw_many(10)
    cut.begin_round()
    assert cut.remaining == 302 and cut.shuffles == 1
    every_round = RU.replace(shuffle="continuous")
    assert every_round.replace(shuffle="cut-card") == RU  # the one setting that differs
    csm = Shoe.for_rules(every_round, seed=3)
    csm.draw_many(10)
    csm.begin_round()
    assert csm.remaining == 312 and csm.shuffles == 2
