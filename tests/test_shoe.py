"""The shoe: what it deals and how randomly (the cryptographic shoe deals as it shuffles)."""

from __future__ import annotations

from collections import Counter

from twentyone.engine.cards import full_deck
from twentyone.engine.shoe import Shoe


def test_an_unseeded_shoe_deals_every_card_of_its_decks_exactly_once() -> None:
    shoe = Shoe(decks=2, shuffle="cut-card")
    dealt = [shoe.draw() for _ in range(104)]
    assert Counter(dealt) == Counter(list(full_deck()) * 2)
    # past the last card the discards are reshuffled: a full shoe again
    again = [shoe.draw() for _ in range(104)]
    assert Counter(again) == Counter(list(full_deck()) * 2)


def test_an_unseeded_continuous_shoe_is_whole_again_every_round() -> None:
    shoe = Shoe(decks=1, shuffle="continuous")
    for _ in range(3):
        shoe.begin_round()
        assert shoe.remaining == 52
        hand = [shoe.draw() for _ in range(52)]
        assert sorted(hand, key=str) == sorted(full_deck(), key=str)


def test_an_unseeded_shoe_puts_a_card_at_every_place_equally_often() -> None:
    # where the ace of spades falls in a one-deck shoe, 5,200 shoes: 100 expected per place;
    # chi-square with 51 degrees of freedom passes 120 with probability about 1e-7
    target = next(c for c in full_deck() if str(c) == "AS")
    places: Counter[int] = Counter()
    for _ in range(5200):
        shoe = Shoe(decks=1, shuffle="continuous")
        shoe.begin_round()
        places[[shoe.draw() for _ in range(52)].index(target)] += 1
    chi2 = sum((places[i] - 100) ** 2 / 100 for i in range(52))
    assert chi2 < 120, (chi2, places)


def test_a_seeded_shoe_deals_the_same_order_every_time() -> None:
    a, b = Shoe(decks=6, seed=7), Shoe(decks=6, seed=7)
    assert [a.draw() for _ in range(300)] == [b.draw() for _ in range(300)]


def test_a_round_that_empties_the_shoe_keeps_its_cards_on_the_table() -> None:
    # one deck, the cut card at 39: a round begun at card 38 takes 20 cards; the discards are
    # shuffled, not the cards of the round, so it never holds a card twice (nor its replay)
    for seed in (None, 5):
        shoe = Shoe(decks=1, shuffle="cut-card", seed=seed)
        shoe.draw_many(38)
        shoe.begin_round()
        dealt = shoe.draw_many(20)
        assert max(Counter(dealt).values()) == 1
        assert shoe.shuffles == 2 and shoe.remaining == 32
