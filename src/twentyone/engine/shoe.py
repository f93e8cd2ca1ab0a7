"""Shoes: where cards come from.

Three sources, one interface (:class:`Shoe`): a shuffled shoe of N decks using a cryptographic
RNG (real play) or a seeded one (reproducible simulations), and a :class:`StackedShoe` that
deals a given list in order (tests and replays).

A shuffled shoe follows the rules' shuffle: ``continuous`` puts every card back before each
round (ro.1, a continuous shuffling machine); ``cut-card`` deals until the cut card at the
given penetration has come out, then makes a new shoe at the start of the next round (ru.1).

>>> from fractions import Fraction
>>> shoe = Shoe(decks=1, shuffle="cut-card", penetration=Fraction(1, 2), seed=7)
>>> shoe.begin_round(); len(shoe.draw_many(26)), shoe.cut_card_out
(26, True)
>>> shoe.begin_round(); shoe.remaining
52
>>> stacked = StackedShoe("AS KD")
>>> stacked.draw(), stacked.draw()
(Card('AS'), Card('KD'))
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from twentyone.engine.cards import DECK_KINDS, Card, deck_cards, deck_size, parse_cards
from twentyone.engine.errors import CardError, RulesError, ShoeExhaustedError

if TYPE_CHECKING:
    from twentyone.engine.rules import Rules


class CardSource(Protocol):
    """What a round needs from a shoe."""

    def begin_round(self) -> None:
        """Called before a round's first card: reshuffle if the shuffle rule says so."""

    def draw(self) -> Card:
        """The next card."""
        ...


class Shoe:
    """A shuffled shoe of ``decks`` decks.

    ``seed=None`` uses the operating system's cryptographic RNG (``secrets.SystemRandom``);
    an integer seed gives the same order on every run.

    With the cryptographic RNG the shuffle is done as the cards are dealt: each draw takes a
    card uniformly at random from those not dealt yet (the steps of a Fisher-Yates shuffle,
    taken one at a time), which is the same distribution as shuffling the whole shoe first
    but asks the operating system for a random number per card dealt, not per card in the
    shoe (a continuous shuffler reshuffles 312 cards to deal a dozen). Seeded shoes shuffle
    in full, so a seed keeps giving the same order.
    """

    def __init__(
        self,
        *,
        decks: int,
        shuffle: str = "cut-card",
        penetration: Fraction = Fraction(3, 4),
        seed: int | None = None,
        deck: str = "standard",
    ) -> None:
        if decks < 1:
            raise RulesError("at-least", field="decks", value=decks, least=1)
        if shuffle not in ("continuous", "cut-card"):
            raise RulesError(
                "not-one-of", field="shuffle", value=shuffle, choices="'continuous', 'cut-card'"
            )
        if not 0 < penetration < 1:
            raise RulesError("not-a-fraction", field="penetration", value=penetration)
        if deck not in DECK_KINDS:
            choices = ", ".join(repr(d) for d in DECK_KINDS)
            raise RulesError("not-one-of", field="deck", value=deck, choices=choices)
        self.decks = decks
        self.deck = deck
        self.shuffle_mode = shuffle
        self.size = deck_size(deck) * decks
        self.cut_position = int(self.size * penetration)
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
        self._lazy = seed is None
        self._cards: list[Card] = []
        self._next = 0
        self._round_start = 0  # where the round in play began
        self.shuffles = 0
        self._shuffle()

    @classmethod
    def for_rules(cls, rules: Rules, seed: int | None = None) -> Shoe:
        """A shoe with the decks (their number and kind) and the shuffle of a
        :class:`~twentyone.engine.rules.Rules`.

        >>> from twentyone.engine.rules import Rules
        >>> shoe = Shoe.for_rules(Rules(decks=6, deck="spanish"), seed=1)
        >>> shoe.size, any(c.rank == "T" for c in shoe.draw_many(shoe.size))
        (288, False)
        """
        return cls(
            decks=rules.decks,
            shuffle=rules.shuffle,
            penetration=rules.penetration,
            seed=seed,
            deck=rules.deck,
        )

    def _shuffle(self) -> None:
        self._cards = list(deck_cards(self.deck)) * self.decks
        if not self._lazy:
            self._rng.shuffle(self._cards)
        self._next = self._round_start = 0
        self.shuffles += 1

    @property
    def remaining(self) -> int:
        return self.size - self._next

    def dealt(self) -> tuple[Card, ...]:
        """The cards dealt since the last shuffle, in order (a cut-card shoe: what a player at
        the table has seen, the dealer's hole card included)."""
        return tuple(self._cards[: self._next])

    @property
    def cut_card_out(self) -> bool:
        """True once the cut card has been reached: the next round starts a new shoe."""
        return self._next >= self.cut_position

    def begin_round(self) -> None:
        if self.shuffle_mode == "continuous" or self.cut_card_out:
            self._shuffle()
        self._round_start = self._next

    def _shuffle_discards(self) -> None:
        """A round that passes the cut card deep enough to empty the shoe: the discards are
        shuffled into a new shoe, as a real dealer does, and the round's cards stay on the
        table (so no round holds more copies of a card than the decks do, and its replay
        stacks no more). They stand first in the new order, as dealt."""
        on_table = self._cards[self._round_start : self._next]
        rest = Counter(deck_cards(self.deck) * self.decks)
        rest.subtract(on_table)
        discards = list(rest.elements())
        if not discards:  # a round that holds every card (no round of a real table does)
            self._shuffle()
            return
        if not self._lazy:
            self._rng.shuffle(discards)
        self._cards = on_table + discards
        self._round_start, self._next = 0, len(on_table)
        self.shuffles += 1

    def draw(self) -> Card:
        if self._next >= self.size:
            self._shuffle_discards()
        cards, i = self._cards, self._next
        if self._lazy:  # this draw's Fisher-Yates step: any card not dealt yet, uniformly
            j = i + self._rng.randrange(self.size - i)
            cards[i], cards[j] = cards[j], cards[i]
        self._next = i + 1
        return cards[i]

    def draw_many(self, n: int) -> list[Card]:
        return [self.draw() for _ in range(n)]


class StackedShoe:
    """Deals exactly the given cards, in order; running out is an error.

    With ``decks`` (the rules' decks, as a replay gives them) a stack holding more copies of a
    card than that many decks hold is refused (:class:`CardError` naming the card); with
    ``deck="spanish"`` a ten-spot too (those decks hold none).

    >>> StackedShoe([]).draw()
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.ShoeExhaustedError: the stacked shoe is empty after 0 cards
    >>> StackedShoe("9H 5C 9H", decks=1)
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.CardError: shoe: 9H is stacked 2 times, but 1 deck holds 1
    >>> StackedShoe("9H TC", decks=6, deck="spanish")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.CardError: shoe: TC is stacked 1 times, but 6 decks hold 0
    """

    def __init__(
        self,
        cards: str | Iterable[Card | str],
        *,
        decks: int | None = None,
        deck: str = "standard",
    ) -> None:
        if isinstance(cards, str):
            self._cards = list(parse_cards(cards))
        else:
            self._cards = [c if isinstance(c, Card) else Card.parse(c) for c in cards]
        self._next = 0
        if decks is not None:
            _check_copies(self._cards, decks, deck)

    def begin_round(self) -> None:
        """A stacked shoe never reshuffles."""

    def draw(self) -> Card:
        if self._next >= len(self._cards):
            raise ShoeExhaustedError("shoe-empty", count=self._next)
        card = self._cards[self._next]
        self._next += 1
        return card

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._next


def _check_copies(cards: list[Card], decks: int, deck: str = "standard") -> None:
    """Refuse a stack with more copies of a card than ``decks`` decks of the kind ``deck``
    hold (one each a deck, none of a card the kind lacks): the card that passes the count
    first, with how many times it is stacked."""
    copies = Counter(cards)
    held = set(deck_cards(deck))
    for card in cards:
        most = decks if card in held else 0
        if copies[card] > most:
            raise CardError(
                "stack-too-many", card=str(card), count=copies[card], decks=decks, most=most
            )
