"""Bugs that other blackjack projects are known for, each pinned by a test.

Every box is ann's and bets 1000 unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from helpers import play, results
from twentyone import BoxBet, IllegalActionError, Payment

# A plain peeking 6-deck game, used where the bug is not about one rulebook.
PEEK = "6D S17 DAS SPL3 NS"


def test_split_only_on_the_first_two_cards() -> None:
    # ann 4S 4D; dealer 9C up, hole 7H; ann hits a 2 -> 4 4 2: a "pair" plus a card is no pair.
    rnd = play(PEEK, "4S 9C 4D 7H 2C 2H", [1000], decisions=["hit"])
    assert [str(c) for c in rnd.boxes[0].hands[0].cards[:2]] == ["4S", "4D"]
    assert len(rnd.boxes[0].hands[0].cards) == 3
    assert rnd.question is not None
    assert "split" not in rnd.question.actions
    with pytest.raises(IllegalActionError, match="split"):
        rnd.split()


def test_split_hands_are_not_both_dealt_before_the_first_is_played() -> None:
    # ru-online deals a split hand its second card only when play reaches it (ru.9).
    rnd = play("ru-online", "8S 9C 8D 7H 3C", [1000], decisions=["split"])
    first, second = rnd.boxes[0].hands
    assert [str(c) for c in first.cards] == ["8S", "3C"]
    assert [str(c) for c in second.cards] == ["8D"]  # still one card while hand 1 plays
    assert rnd.question is not None
    assert (rnd.question.box, rnd.question.hand) == (0, 0)


def test_split_ace_and_ten_is_21_not_blackjack() -> None:
    # ann AS AD vs 9C (hole 7H, dealer 16 draws 2C -> 18): split aces get KS and 5D.
    rnd = play(PEEK, "AS 9C AD 7H KS 5D 2C", [1000], decisions=["split"])
    ten_hand = rnd.boxes[0].hands[0]
    assert ten_hand.total.total == 21 and not ten_hand.is_blackjack
    assert ten_hand.result == "win"
    assert ten_hand.returned == 2 * 1000  # 1:1, not 3:2
    assert rnd.boxes[0].hands[1].result == "lose"  # soft 16 against 18


@pytest.mark.parametrize(
    ("hole", "insurance_back", "net"),
    [("KH", 1500, 0), ("7H", 0, -500 - 1000)],  # dealer blackjack / no blackjack (ann 17 v 18)
)
def test_insurance_pays_2_to_1_and_is_lost_otherwise(
    hole: str, insurance_back: int, net: int
) -> None:
    rnd = play(
        PEEK, f"TS AC 7D {hole}", [1000], decisions=["insure"] + ([] if hole == "KH" else ["stand"])
    )
    box = rnd.boxes[0]
    assert box.insurance == 500
    paid = [p.amount for p in rnd.log if isinstance(p, Payment) and p.kind == "insurance"]
    assert paid == [insurance_back]
    assert rnd.net() == {"ann": net}


def test_even_money_pays_1_to_1_whatever_the_dealer_has() -> None:
    # hu-casino: no hole card; ann AS KD vs dealer ace takes even money; the dealer then has a ten.
    rnd = play("hu-casino", "AS KD AC", [1000], decisions=["even-money"])
    assert rnd.is_over
    assert results(rnd) == [["even-money"]]
    assert rnd.net() == {"ann": 1000}
    assert len(rnd.dealer) == 1  # nothing waits: the dealer draws no card


def test_player_blackjack_beats_a_dealer_three_card_21() -> None:
    # pt-casino (hole card, no peek): box 1 AS KD, box 2 TS 7D stands, so the dealer plays:
    # TC, hole 5H, draws 6C -> 21 in three cards.
    rnd = play("pt-casino", "AS TS TC KD 7D 5H 6C", [1000, 1000], ["stand"])
    assert [str(c) for c in rnd.dealer] == ["TC", "5H", "6C"]
    assert results(rnd) == [["blackjack"], ["lose"]]
    assert rnd.net() == {"ann": 1500 - 1000}


def test_busted_player_loses_even_if_the_dealer_busts() -> None:
    # box 1 busts (TS 6D + 9H); box 2 stands on 12; dealer TC 6H draws 8C and busts.
    rnd = play(PEEK, "TS 5S TC 6D 2D 6H 9H 8C", [1000, 1000], ["hit", "stand"])
    assert results(rnd) == [["bust"], ["win"]]
    assert rnd.net() == {"ann": 0}


def test_dealer_blackjack_without_hole_card_takes_doubles_and_splits() -> None:
    # ro-casino (ro.14): ann splits 8s and doubles hand 1; the dealer then draws blackjack.
    rnd = play(
        "ro-casino",
        "8S AC 8D 3C 5H TS KD",
        [1000],
        decisions=["no-insurance", "split", "double", "stand"],
    )
    assert [str(c) for c in rnd.dealer] == ["AC", "KD"] and rnd.dealer_blackjack
    assert results(rnd) == [["lose", "lose"]]
    assert rnd.net() == {"ann": -3000}  # 1000 + 1000 doubled + 1000 split


def test_dealer_blackjack_with_original_bets_only_returns_doubles_and_splits() -> None:
    rnd = play(
        "6D OBO",
        "8S AC 8D 3C 5H TS KD",
        [1000],
        decisions=["no-insurance", "split", "double", "stand"],
    )
    assert rnd.dealer_blackjack
    assert rnd.net() == {"ann": -1000}  # only the original bet is lost


def test_no_negative_balance_through_split_or_double() -> None:
    # ann has exactly her bet: she can neither double nor split her 8s.
    rnd = play(PEEK, "8S 9C 8D 7H", [1000], decisions=[], bankrolls={"ann": 1000})
    assert rnd.question is not None
    assert rnd.question.actions == ("hit", "stand")
    with pytest.raises(IllegalActionError, match="double"):
        rnd.double()
    assert rnd.available("ann") == 0


def test_double_for_less_is_capped_by_what_the_player_has() -> None:
    # ro-casino allows double for less; ann can add at most 400 of her 1400.
    rnd = play(
        "ro-casino", "6S 9C 5D 4H 8C", [1000], decisions=["no-surrender"], bankrolls={"ann": 1400}
    )
    assert rnd.question is not None
    assert "double" not in rnd.question.actions
    assert rnd.question.amount_range == (100, 400)
    with pytest.raises(IllegalActionError, match="outside 100 to 400"):
        rnd.double(500)
    rnd.double(400)
    assert rnd.available("ann") == 0  # 1400 - 1000 - 400: all of it, and no more


def test_insurance_not_offered_to_a_player_who_cannot_cover_it() -> None:
    rnd = play(PEEK, "TS AC 7D 7H", [BoxBet("bob", 1000)], bankrolls={"bob": 1000})
    assert rnd.question is not None
    assert rnd.question.kind == "play"  # no insurance question for bob


def test_an_illegal_action_changes_nothing() -> None:
    rnd = play(PEEK, "TS 9C 7D 7H 4C", [1000], decisions=[])
    before = (len(rnd.log), rnd.question)
    with pytest.raises(IllegalActionError, match="split"):
        rnd.apply("split")
    assert (len(rnd.log), rnd.question) == before
