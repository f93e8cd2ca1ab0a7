"""hu.8 / ro.16: where the rules set no limit on split hands, the analysis values a split to
every hand the pair's cards can make, as the engine plays it (it had stopped at 16 hands,
which a shoe rich in tens passes often).

The check is a shoe of nines and tens only, tens split by value (hu-casino) against a nine,
every split hand standing: a hand is a ten and a nine (19) or makes one more hand, and the
dealer's nine draws one card (18 or 19), so the round's return is a small recursion over the
cards left, in exact fractions, independent of the analysis. Aces and nines make the same
recursion (hu.8 resplits aces, one card each: a hand of 20 against the dealer's 18 or 20).
The engine itself, dealing every card sequence of a small such shoe, checks the recursion."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules, parse_cards
from twentyone.analysis import action_evs, analyze
from twentyone.engine.cards import Card
from twentyone.engine.errors import ShoeExhaustedError

NINE, TEN = 8, 9


@cache
def _split_return(tens: int, nines: int, waiting: int, hands: int) -> tuple[Fraction, Fraction]:
    """The return of the split and the chance it makes more than 16 hands, from ``tens`` and
    ``nines`` left, ``waiting`` hands still to take their second card, ``hands`` made."""
    if waiting == 0:  # the dealer's nine takes one card: a nine (18) loses to every 19
        return Fraction(hands * nines, tens + nines), Fraction(int(hands > 16))
    left = tens + nines
    ret, more = Fraction(0), Fraction(0)
    if tens:  # a ten makes one more hand; the hand in play waits for another card
        r, m = _split_return(tens - 1, nines, waiting + 1, hands + 1)
        ret, more = ret + Fraction(tens, left) * r, more + Fraction(tens, left) * m
    if nines:
        r, m = _split_return(tens, nines - 1, waiting - 1, hands)
        ret, more = ret + Fraction(nines, left) * r, more + Fraction(nines, left) * m
    return ret, more


def _recursion(shoe: tuple[int, ...]) -> tuple[float, float]:
    """The split's return and the chance of more than 16 hands after T T against a 9."""
    ret, more = _split_return(shoe[TEN] - 2, shoe[NINE] - 1, 2, 2)
    return float(ret), float(more)


def _engine(shoe: tuple[int, ...]) -> float:
    """The same return as the engine settles it: every card sequence after T T and the 9
    (hu.4: the box's two cards, then the dealer's), the box splitting whenever it may."""
    rules = load_rules("hu-casino")
    start = list(parse_cards("TS TH 9C"))

    def play(extra: list[Card]) -> float | None:
        try:
            rnd = Round(rules, StackedShoe([*start, *extra]), [BoxBet("p", 100)])
            while not rnd.is_over:
                q = rnd.question
                assert q is not None
                rnd.apply("split" if "split" in q.actions else "stand")
        except ShoeExhaustedError:
            return None
        return rnd.net()["p"] / 100

    def walk(extra: list[Card], tens: int, nines: int) -> float:
        got = play(extra)
        if got is not None:
            return got
        left = tens + nines
        out = 0.0
        if tens:
            out += tens / left * walk([*extra, Card("T", "SHDC"[len(extra) % 4])], tens - 1, nines)
        if nines:
            out += nines / left * walk([*extra, Card("9", "SHDC"[len(extra) % 4])], tens, nines - 1)
        return out

    return walk([], shoe[TEN] - 2, shoe[NINE] - 1)


def _shoe(nines: int, tens: int) -> tuple[int, ...]:
    return (0, 0, 0, 0, 0, 0, 0, 0, nines, tens)


def test_hu_8_the_recursion_is_the_engines_split() -> None:
    shoe = _shoe(9, 6)
    assert _recursion(shoe)[0] == pytest.approx(_engine(shoe), abs=1e-12)


# nines enough for every hand and the dealer: no round runs out of cards
@pytest.mark.parametrize(("nines", "tens"), [(9, 6), (26, 24), (44, 40)])
@pytest.mark.parametrize("pair", ["T", "A"])
def test_hu_8_an_unlimited_split_is_valued_to_every_pair_card_of_the_shoe(
    nines: int, tens: int, pair: str
) -> None:
    shoe = _shoe(nines, tens)
    want, past_16 = _recursion(shoe)
    if pair == "A":  # the tens' counts as aces'
        shoe = (tens, *shoe[1:TEN], 0)
    cards = list(parse_cards(f"{pair}S {pair}H"))
    got = action_evs(load_rules("hu-casino"), cards, Card("9", "C"), shoe=shoe)
    # splitting beats standing on 20 or 12; T 9 stands (19 against a nine) and A 9 takes one
    # card, so the optimum's split is the recursion's
    assert got["split"] > got["stand"]
    assert got["split"] == pytest.approx(want, abs=1e-12)
    if tens >= 24:
        assert past_16 > 0.01  # the hands past 16 carry weight: a limit of 16 is visibly off


def test_hu_8_the_distribution_of_a_ten_rich_shoe_averages_to_its_return() -> None:
    # past 16 hands the small-shoe walk cannot list the rounds: they are approximated and
    # matched to the split's exact moments, so the mean is still the exact return
    got = analyze("hu-casino", shoe=_shoe(26, 24))
    assert got.outcomes_optimal is not None
    assert sum(n * p for n, p in got.outcomes_optimal.items()) == pytest.approx(
        got.ev_optimal, abs=1e-12
    )
    assert sum(got.outcomes_optimal.values()) == pytest.approx(1.0, abs=1e-12)
    assert max(got.outcomes_optimal) > 16  # a split of more than 16 hands, each won
