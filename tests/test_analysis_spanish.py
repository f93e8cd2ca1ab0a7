"""The exact analysis of Spanish 21's rules (:mod:`twentyone.analysis.spanish`): a 21 that
always wins, the 21 bonuses, doubling on any number of cards, redoubling and the rescue.

Each value is derived by hand from a shoe that leaves one play to the dealer (its cards all of
one rank), or by an independent enumeration of a small shoe (:func:`_doubled`, written from
the rule sheet, not from the analysis's code), or from published figures."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

import pytest

from twentyone import load_rules, parse_cards
from twentyone.analysis import action_evs, analyze
from twentyone.analysis.context import Context
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules

#: One deck's rules with the Spanish 21 doubles and 21s (the shoes below are given whole).
SP = Rules(
    decks=1,
    dealer_hits_soft_17=True,
    double_after_hit=True,
    redoubles=2,
    rescue=True,
    player_21_wins=True,
    bonus_21_cards={5: "3:2", 6: "2", 7: "3"},  # type: ignore[arg-type]
    bonus_21_678_777={"mixed": "3:2", "suited": "2", "spades": "3"},  # type: ignore[arg-type]
)


def _shoe(**ranks: int) -> list[int]:
    """Counts of A, 2..9, ten-value from keyword counts (``r2=3``: three twos, ``t``: tens)."""
    names = ["a", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "t"]
    return [ranks.get(n, 0) for n in names]


def _evs(rules: Rules, cards: str, up: str, shoe: list[int]) -> dict[str, float]:
    return action_evs(rules, list(parse_cards(cards)), parse_cards(up)[0], shoe=shoe)


def test_a_redouble_doubles_the_win_again() -> None:
    # 2-3 against a 9, the rest sevens: the dealer's 9-7-7 busts. Doubled, 5 + 7 = 12 wins 2;
    # redoubled, 12 + 7 = 19 wins 4 (a third double would bust: 26)
    shoe = _shoe(r2=1, r3=1, r9=1, r7=6)
    assert _evs(SP, "2S 3D", "9C", shoe)["double"] == pytest.approx(4.0, abs=1e-12)
    assert _evs(SP.replace(redoubles=0), "2S 3D", "9C", shoe)["double"] == pytest.approx(2.0)


def test_a_rescue_loses_only_the_original_bet() -> None:
    # 5-6 against a 9, the rest twos: the dealer makes 9-2-2-2-2 = 17. Doubled, 11 + 2 = 13
    # loses 2 standing, 1 rescued; redoubled twice to 17 (8 on it) it pushes: worth 0
    shoe = _shoe(r5=1, r6=1, r9=1, r2=9)
    no_redouble = SP.replace(redoubles=0)
    assert _evs(SP, "5S 6D", "9C", shoe)["double"] == pytest.approx(0.0, abs=1e-12)
    assert _evs(no_redouble, "5S 6D", "9C", shoe)["double"] == pytest.approx(-1.0)
    assert _evs(no_redouble.replace(rescue=False), "5S 6D", "9C", shoe)["double"] == pytest.approx(
        -2.0
    )


def test_a_doubled_21_of_five_cards_is_paid_even_money() -> None:
    # 2-3-4-5 (14) against a 9, the rest sevens: the dealer busts (9-7-7). Standing wins 1;
    # a hit makes a five-card 21 paid 3:2; a double the same 21, paid 1:1 on 2 units
    shoe = _shoe(r2=1, r3=1, r4=1, r5=1, r9=1, r7=5)
    evs = _evs(SP, "2S 3D 4H 5C", "9C", shoe)
    assert evs["stand"] == pytest.approx(1.0)
    assert evs["hit"] == pytest.approx(1.5)
    assert evs["double"] == pytest.approx(2.0)  # on four cards: double_after_hit
    assert "double" not in _evs(
        SP.replace(double_after_hit=False, redoubles=0), "2S 3D 4H 5C", "9C", shoe
    )


def test_a_player_21_beats_the_dealers_21() -> None:
    # 4-8-9 against a 7, the rest sevens: the dealer makes 7-7-7 = 21
    shoe = _shoe(r4=1, r8=1, r9=1, r7=5)
    assert _evs(SP, "4S 8D 9H", "7C", shoe)["stand"] == pytest.approx(1.0)
    plain = SP.replace(player_21_wins=False)
    assert _evs(plain, "4S 8D 9H", "7C", shoe)["stand"] == pytest.approx(0.0, abs=1e-12)


S21 = load_rules("spanish-21")


def test_a_21_of_five_cards_pays_three_to_two() -> None:
    # against a 9 no dealer blackjack can come, and a 21 always wins
    assert action_evs(S21, list(parse_cards("2S 3D 4H 5C 7S")), parse_cards("9C")[0])[
        "stand"
    ] == pytest.approx(1.5)


def test_a_six_seven_eight_pays_by_its_suits_averaged() -> None:
    # three ranks: one suit 1/16 (spades 1/64): 3:2 mixed, 2:1 suited, 3:1 spades
    mean = Fraction(3, 2) * Fraction(15, 16) + 2 * Fraction(3, 64) + 3 * Fraction(1, 64)
    got = action_evs(S21, list(parse_cards("6S 7D 8H")), parse_cards("9C")[0])["stand"]
    assert got == pytest.approx(float(mean))


def test_three_sevens_pay_by_their_suits_drawn_from_six_decks() -> None:
    # 24 sevens, 6 a suit: three of one suit 4 * 6*5*4 / (24*23*22)
    suited = Fraction(4 * 6 * 5 * 4, 24 * 23 * 22)
    mean = Fraction(3, 2) * (1 - suited) + 2 * suited * Fraction(3, 4) + 3 * suited / 4
    got = action_evs(S21, list(parse_cards("7S 7D 7H")), parse_cards("9C")[0])["stand"]
    assert got == pytest.approx(float(mean))


# ----------------------------------------------------- an independent enumeration
def _total(cards: Sequence[int]) -> tuple[int, bool]:
    """Best total and softness of card values (1 an ace)."""
    t = sum(cards)
    if 1 in cards and t + 10 <= 21:
        return t + 10, True
    return t, False


@cache
def _dealer(shoe: tuple[int, ...], cards: tuple[int, ...], h17: bool) -> dict[int, float]:
    """The dealer's final totals (22: bust) drawing from ``shoe`` (counts of values 1..10)."""
    t, soft = _total(cards)
    if t > 21:
        return {22: 1.0}
    if t > 17 or (t == 17 and not (soft and h17)):
        return {t: 1.0}
    n = sum(shoe)
    out: dict[int, float] = {}
    for v in range(1, 11):
        if shoe[v - 1]:
            rest = list(shoe)
            rest[v - 1] -= 1
            for k, p in _dealer(tuple(rest), (*cards, v), h17).items():
                out[k] = out.get(k, 0.0) + p * shoe[v - 1] / n
    return out


def _stand(shoe: tuple[int, ...], up: int, total: int, wins_21: bool) -> float:
    """Standing with ``total`` (no blackjack possible: the up card is 2 to 9)."""
    ev = 0.0
    for d, p in _dealer(shoe, (up,), True).items():
        if (total == 21 and wins_21) or d == 22 or total > d:
            ev += p
        elif total < d:
            ev -= p
    return ev


def _doubled(
    shoe: tuple[int, ...], up: int, cards: tuple[int, ...], k: int, most: int, rescue: bool
) -> float:
    """A hand after its ``k``-th double (``2**k`` on it): the best of standing, the rescue
    (losing the original 1) and doubling again (``k < most``), each card drawn from ``shoe``."""
    m = 2.0**k
    t, _ = _total(cards)
    if t > 21:
        return -m
    options = [m * _stand(shoe, up, t, True)]
    if t < 21:
        if rescue:
            options.append(-1.0)
        if k < most:
            options.append(_draw(shoe, up, cards, k + 1, most, rescue))
    return max(options)


def _draw(
    shoe: tuple[int, ...], up: int, cards: tuple[int, ...], k: int, most: int, rescue: bool
) -> float:
    n = sum(shoe)
    ev = 0.0
    for v in range(1, 11):
        if shoe[v - 1]:
            rest = list(shoe)
            rest[v - 1] -= 1
            ev += shoe[v - 1] / n * _doubled(tuple(rest), up, (*cards, v), k, most, rescue)
    return ev


@pytest.mark.parametrize(
    ("cards", "redoubles", "rescue"),
    [("5S 6D", 2, True), ("5S 6D", 1, False), ("2S 3D 4H", 2, True), ("AS 6D", 3, True)],
)
def test_the_double_is_worth_what_an_enumeration_of_the_shoe_says(
    cards: str, redoubles: int, rescue: bool
) -> None:
    full = _shoe(a=1, r2=3, r3=2, r4=2, r5=2, r6=2, r7=1, r8=1, r9=2, t=5)
    rules = SP.replace(redoubles=redoubles, rescue=rescue)
    hand = list(parse_cards(cards))
    values = [c.value for c in hand]
    left = list(full)
    for v in (*values, 9):  # the hand and the dealer's 9 out
        left[v - 1] -= 1
    expected = _draw(tuple(left), 9, tuple(values), 1, redoubles + 1, rescue)
    got = action_evs(rules, hand, parse_cards("9C")[0], shoe=full)["double"]
    assert got == pytest.approx(expected, abs=1e-12)


# ----------------------------------------------------- published figures, refusals
def test_the_house_edge_without_redoubles_is_the_wizard_of_odds_figure() -> None:
    """Wizard of Odds' Spanish 21 table (cited in the rule file: six decks H17 0.78%, S17
    0.37%, with his strategy by the number of cards): the optimum by composition here is a
    little better than any such strategy, and within 0.02% of it."""
    for rules, published in ((S21, 0.0078), (S21.replace(dealer_hits_soft_17=False), 0.0037)):
        got = analyze(rules.replace(redoubles=0), outcomes=False)
        assert published - 0.0002 < -got.ev_optimal <= published + 0.00005
        assert got.ev_basic < got.ev_optimal


def test_the_parts_that_do_not_price_spanish_21_refuse_it_by_name() -> None:
    with pytest.raises(RulesError, match="double_after_hit=True: the exact analysis"):
        analyze(S21.replace(blackjack_ties="push"), outcomes=True)
    with pytest.raises(RulesError, match=r"redoubles=1: .*without double_after_hit"):
        Context.of(Rules(decks=6, redoubles=1))
    with pytest.raises(RulesError, match="free_doubles"):
        Context.of(Rules(decks=6, rescue=True, free_doubles=(10, 11)))
