"""Clause tests for the Polish online rulebook (pl.1 ... pl.10 of shared/RULES.md).

Every round is played on the ``pl-online`` preset with a stacked shoe worked out by hand from
the dealing order: one card to each box, the dealer's up card, a second card to each box, then
the dealer's face-down hole card; the dealer peeks under a ten or an ace. After a split both
hands get their second card at once, in order. Bets are 100 unless a test says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from helpers import dealer_text as dealer
from helpers import index_of, left, payments, play, results, returned
from twentyone import (
    Action,
    BetError,
    BoxBet,
    Deal,
    Payment,
    Reveal,
    Round,
    StackedShoe,
    format_cards,
    load_rules,
    verify_bets,
)

PL = load_rules("pl-online")


def pl(shoe: str, bets: Sequence[int | tuple[str, int]], decisions: Sequence[str] = ()) -> Round:
    """A round on the pl-online preset."""
    return play(PL, shoe, bets, decisions)


def insurance_paid(rnd: Round) -> list[int]:
    """The amounts the insurance bets returned (0 for a lost one)."""
    return [p.amount for p in payments(rnd, "insurance")]


# pl.1 ---------------------------------------------------------------------------------------


def test_pl_1_one_player_three_hands_each_with_its_own_stake() -> None:
    # TS QS = 20, TC 7C = 17, TD 9D = 19 against 9H + 8H = 17
    rnd, asked = play(
        "pl-online",
        "TS TC TD 9H QS 7C 9D 8H",
        [100, 200, 300],
        ["stand", "stand", "stand"],
        asked=True,
    )
    assert [q.box for q in asked] == [0, 1, 2]
    assert results(rnd) == [["win"], ["push"], ["win"]]
    assert [b.net for b in rnd.boxes] == [100, 0, 300]
    assert rnd.net() == {"ann": 400}


def test_pl_1_no_fourth_hand() -> None:
    assert verify_bets(PL, [BoxBet("ann", 100)] * 3) is None  # type: ignore[func-returns-value]
    with pytest.raises(BetError, match="3"):
        verify_bets(PL, [BoxBet("ann", 100)] * 4)


@pytest.mark.parametrize(
    ("bet", "ok"), [(99, False), (100, True), (500_000, True), (500_001, False)]
)
def test_pl_1_stake_within_the_per_hand_minimum_and_maximum(bet: int, ok: bool) -> None:
    bets = [BoxBet("ann", 100), BoxBet("ann", bet)]
    if ok:
        assert verify_bets(PL, bets) is None  # type: ignore[func-returns-value]
    else:
        with pytest.raises(BetError, match=rf"box 2: bet {bet} is outside"):
            verify_bets(PL, bets)


# pl.2 ---------------------------------------------------------------------------------------


def test_pl_2_two_cards_each_and_the_dealer_hole_card_face_down() -> None:
    rnd = Round(PL, StackedShoe("TS 9H QS 8H"), [BoxBet("ann", 100)])
    deals = [(str(d.card), d.box, d.face_down) for d in rnd.log if isinstance(d, Deal)]
    assert deals == [("TS", 0, False), ("9H", None, False), ("QS", 0, False), ("8H", None, True)]
    assert format_cards(rnd.dealer_visible) == "9H"
    assert not any(isinstance(r, Reveal) for r in rnd.log)
    rnd.apply("stand")
    assert format_cards(rnd.dealer_visible) == "9H 8H"
    assert [r.card for r in rnd.log if isinstance(r, Reveal)] == [rnd.dealer[1]]
    assert results(rnd) == [["win"]]


# pl.3 ---------------------------------------------------------------------------------------


def test_pl_3_peek_on_a_ten_dealer_blackjack_ends_the_round() -> None:
    # box1 TS 9D, box2 AS KD against KH + hole AC
    rnd = pl("TS AS KH 9D KD AC 5C", [("ann", 100), ("bob", 100)])
    assert rnd.is_over and rnd.decisions == []
    assert any(isinstance(r, Reveal) and str(r.card) == "AC" for r in rnd.log)
    assert dealer(rnd) == "KH AC" and left(rnd) == 1
    assert results(rnd) == [["lose"], ["push"]]
    assert rnd.net() == {"ann": -100, "bob": 0}


def test_pl_3_peek_on_a_ten_without_blackjack_play_goes_on() -> None:
    rnd, asked = play("pl-online", "8S TH 8D 7C", [100], ["stand"], asked=True)
    assert asked[0].kind == "play"  # no insurance on a ten
    assert rnd.dealer_blackjack is False
    assert index_of(rnd, Action) < index_of(rnd, Reveal)  # hole card shown only after play
    assert results(rnd) == [["lose"]]  # 16 against 17


# pl.4 ---------------------------------------------------------------------------------------


def test_pl_4_insurance_exactly_half_each_hand_then_dealer_blackjack_ends_the_round() -> None:
    rnd = Round(PL, StackedShoe("TS 9C AH QD 9D KC"), [BoxBet("ann", 200), BoxBet("bob", 100)])
    q = rnd.question
    assert q is not None and (q.kind, q.box) == ("insurance", 0)
    assert q.actions == ("insure", "no-insurance") and q.amount_range is None
    # exactly half: another amount is refused; the half itself spelled out is the bare word
    assert not rnd.can("insure:50") and rnd.can("insure:100")
    assert rnd.verify("insure:100") == ("insure", None)
    assert rnd.insure().amount == 100  # half of 200
    q = rnd.question
    assert q is not None and (q.kind, q.box) == ("insurance", 1)
    rnd.decline_insurance()
    assert rnd.is_over
    assert dealer(rnd) == "AH KC"
    assert results(rnd) == [["lose"], ["lose"]]
    assert insurance_paid(rnd) == [300]  # 100 back and 2:1
    assert rnd.net() == {"ann": -200 - 100 + 300, "bob": -100}


def test_pl_4_insurance_lost_at_the_peek_and_play_goes_on() -> None:
    rnd = Round(PL, StackedShoe("TS AH QD 6C"), [BoxBet("ann", 100)])
    rnd.apply("insure")
    assert insurance_paid(rnd) == [0]  # collected at the peek, before play
    q = rnd.question
    assert q is not None and q.kind == "play"
    assert format_cards(rnd.dealer_visible) == "AH"
    rnd.apply("stand")
    assert dealer(rnd) == "AH 6C"  # soft 17 stands
    assert results(rnd) == [["win"]]
    assert rnd.net() == {"ann": 100 - 50}


@pytest.mark.parametrize(
    ("hole", "result", "back", "insured"),
    [("9C", "blackjack", 250, 0), ("KC", "push", 100, 150)],
)
def test_pl_4_a_blackjack_may_insure_no_even_money(
    hole: str, result: str, back: int, insured: int
) -> None:
    rnd, asked = play("pl-online", f"AS AH KD {hole} 5S", [100], ["insure"], asked=True)
    assert asked[0].kind == "insurance"
    assert "even-money" not in asked[0].actions
    assert rnd.is_over
    assert dealer(rnd) == f"AH {hole}" and left(rnd) == 1
    assert results(rnd) == [[result]]
    assert returned(rnd) == [[back]]
    assert insurance_paid(rnd) == [insured]
    assert rnd.net() == {"ann": 100}  # either way: blackjack 3:2 less insurance, or 2:1 on 50


# pl.5 ---------------------------------------------------------------------------------------


def test_pl_5_hands_in_order_bust_moves_play_on() -> None:
    rnd = Round(PL, StackedShoe("TS 9S 7H 6D 9D TD 9C"), [BoxBet("ann", 100), BoxBet("bob", 100)])
    rnd.hit()
    bust = rnd.boxes[0].hands[0]
    assert (bust.result, bust.settled) == ("bust", True)
    assert rnd.question is not None and rnd.question.box == 1
    rnd.stand()
    assert rnd.is_over
    assert results(rnd) == [["bust"], ["win"]]
    assert rnd.net() == {"ann": -100, "bob": 100}


def test_pl_5_every_hand_busted_dealer_only_shows_the_hole_card() -> None:
    rnd = pl("TS 6H 6D 5C 9C 4S", [100], ["hit"])
    assert any(isinstance(r, Reveal) for r in rnd.log)
    assert dealer(rnd) == "6H 5C" and left(rnd) == 1  # 11, but nothing waits
    assert rnd.net() == {"ann": -100}


# pl.6 ---------------------------------------------------------------------------------------


def test_pl_6_double_before_the_first_extra_card_one_card_then_the_next_hand() -> None:
    # box1 6S 5D doubles, gets 2H: 13 and done; box2 TC 3D hits 2C, then may not double
    rnd, asked = play(
        "pl-online", "6S TC 9H 5D 3D 8C 2H 2C", [100, 100], ["double", "hit", "stand"], asked=True
    )
    assert "double" in asked[0].actions and "double:N" not in asked[0].actions
    assert (asked[1].box, "double" in asked[1].actions) == (1, True)
    assert (asked[2].box, set(asked[2].actions)) == (1, {"hit", "stand"})
    hand = rnd.boxes[0].hands[0]
    assert format_cards(hand.cards) == "6S 5D 2H" and hand.bet == 200
    assert results(rnd) == [["lose"], ["lose"]]  # 13 and 15 against 17
    assert rnd.net() == {"ann": -300}


# pl.7 ---------------------------------------------------------------------------------------


def test_pl_7_split_only_with_one_box() -> None:
    rnd, asked = play("pl-online", "8S 9C 9H 8D 9D 8C", [100, 100], ["stand", "stand"], asked=True)
    assert "split" not in asked[0].actions  # 8-8 on one of two boxes
    assert "split" not in asked[1].actions  # 9-9 likewise
    assert results(rnd) == [["lose"], ["win"]]
    one = Round(PL, StackedShoe("8S 9H 8D 7C"), [BoxBet("ann", 100)])
    assert one.can("split")


def test_pl_7_both_split_hands_get_their_second_card_at_once_no_resplit() -> None:
    rnd = Round(PL, StackedShoe("8S 9H 8D 7C 8H TD 3C KS"), [BoxBet("ann", 100)])
    action = rnd.split()
    assert format_cards(action.cards) == "8H TD" and action.amount == 100
    hands = rnd.boxes[0].hands
    assert [format_cards(h.cards) for h in hands] == ["8S 8H", "8D TD"]
    deals = [(str(d.card), d.hand) for d in rnd.log if isinstance(d, Deal)][-2:]
    assert deals == [("8H", 0), ("TD", 1)]
    q = rnd.question
    assert q is not None and q.hand == 0
    assert "split" not in q.actions and not rnd.can("split")  # 8-8 again: no second split
    rnd.double()  # 8S 8H + 3C = 19, the same way as any hand
    rnd.stand()  # 8D TD = 18
    assert dealer(rnd) == "9H 7C KS"  # 16 draws to 26
    assert [h.bet for h in hands] == [200, 100]
    assert returned(rnd) == [[400, 200]]
    assert rnd.net() == {"ann": 300}


def test_pl_7_split_by_value_and_a_two_card_21_is_not_blackjack() -> None:
    # K + Q split; KS AH = 21 in two cards after the split: not asked, 1:1 at most
    rnd, asked = play("pl-online", "KS 6H QD TC AH 9C 5S", [100], ["split", "stand"], asked=True)
    assert "split" in asked[0].actions
    assert (asked[1].hand, format_cards(rnd.boxes[0].hands[1].cards)) == (1, "QD 9C")
    assert not rnd.boxes[0].hands[0].is_blackjack
    assert dealer(rnd) == "6H TC 5S"  # a three-card 21: it would lose to a real blackjack
    assert results(rnd) == [["push", "lose"]]
    assert rnd.net() == {"ann": -100}


def test_pl_7_split_aces_one_card_each_and_play_moves_on() -> None:
    rnd, asked = play("pl-online", "AS 7H AD TC AH KD", [100], ["split"], asked=True)
    assert "split" in asked[0].actions
    assert rnd.is_over  # no resplit of AS AH, no hit: nothing more is asked
    hands = rnd.boxes[0].hands
    assert [format_cards(h.cards) for h in hands] == ["AS AH", "AD KD"]
    assert results(rnd) == [["lose", "win"]]  # soft 12 and 21 against 17
    assert returned(rnd) == [[0, 200]]  # the 21 pays 1:1


# pl.8 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("draws", "drawn"),
    [("AC", "2H 4C AC"), ("5D 6S", "2H 4C 5D 6S")],
)
def test_pl_8_dealer_turns_the_hole_card_and_draws_to_at_least_17(draws: str, drawn: str) -> None:
    # 2 + 4 = 6: an ace makes soft 17 (stands); 5 then 6 make hard 17 (stands)
    rnd = pl(f"TS 2H 9D 4C {draws} 5S", [100], ["stand"])
    assert dealer(rnd) == drawn and left(rnd) == 1
    reveal = index_of(rnd, Reveal)
    assert reveal < index_of(rnd, Deal, card=rnd.dealer[2])
    assert results(rnd) == [["win"]]


# pl.9 ---------------------------------------------------------------------------------------


def test_pl_9_aces_at_their_most_favourable_value() -> None:
    rnd = pl("AS 9H 6D 8S AC", [100], ["hit", "stand"])
    assert rnd.boxes[0].hands[0].total == (18, True)  # A + 6 + A: one ace 11, one 1
    assert results(rnd) == [["win"]]


def test_pl_9_blackjack_beats_a_21_of_more_cards() -> None:
    rnd = pl("AS TC 6H KD QC 5C TD", [("ann", 100), ("bob", 100)], ["stand"])
    assert dealer(rnd) == "6H 5C TD"
    assert results(rnd) == [["blackjack"], ["lose"]]
    assert rnd.net() == {"ann": 150, "bob": -100}


# pl.10 --------------------------------------------------------------------------------------


def test_pl_10_blackjack_paid_3_to_2_at_the_end() -> None:
    rnd = Round(PL, StackedShoe("AS TC 5H KD 6D TH 9S"), [BoxBet("ann", 100), BoxBet("bob", 100)])
    bj = rnd.boxes[0].hands[0]
    assert (bj.result, bj.returned, bj.settled) == (None, 0, False)  # waits for the end
    rnd.stand()
    assert index_of(rnd, Reveal) < index_of(rnd, Payment, box=0, kind="return")
    assert dealer(rnd) == "5H TH 9S"
    assert results(rnd) == [["blackjack"], ["win"]]
    assert returned(rnd) == [[250], [200]]


def test_pl_10_bust_loses_whatever_the_dealer_has() -> None:
    rnd = pl("TS 9S 7H 6D 9D 5C 9C TC", [("ann", 100), ("bob", 100)], ["hit", "stand"])
    assert dealer(rnd) == "7H 5C TC"  # the dealer busts too
    assert results(rnd) == [["bust"], ["win"]]
    assert rnd.net() == {"ann": -100, "bob": 100}


def test_pl_10_equal_totals_push() -> None:
    rnd = pl("TS 9H 9D QS", [100], ["stand"])
    assert results(rnd) == [["push"]] and returned(rnd) == [[100]]
    assert rnd.net() == {"ann": 0}
