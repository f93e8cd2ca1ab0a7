"""Cards, their blackjack values, and hand totals.

A card prints and parses as two characters, rank then suit: ``AS KH TD 9C``.
Ranks are ``2``-``9 T J Q K A``; suits ``C D H S``.

>>> parse_cards("AS kh 10d")
(Card('AS'), Card('KH'), Card('TD'))
>>> hand_total(parse_cards("AS 6D"))
HandTotal(total=17, soft=True)
>>> hand_total(parse_cards("AS 6D TC"))
HandTotal(total=17, soft=False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from twentyone.engine.errors import CardError, RulesError

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_VALUES = {r: min(i + 2, 10) for i, r in enumerate(RANKS[:-1])} | {"A": 1}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card.

    >>> Card.parse("QH").value, Card.parse("AS").value, Card.parse("7C").value
    (10, 1, 7)
    >>> Card.parse("7C").pretty
    '7♣'
    """

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise CardError("bad-rank", rank=self.rank, ranks=" ".join(RANKS))
        if self.suit not in SUITS:
            raise CardError("bad-suit", suit=self.suit, suits=" ".join(SUITS))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``'AS'``, ``'th'`` or ``'10D'`` into a card."""
        t = text.strip().upper()
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2:
            raise CardError("bad-card", text=text)
        return cls(t[0], t[1])

    @property
    def value(self) -> int:
        """Blackjack value with an ace as 1 (the hand decides whether it counts 11)."""
        return _VALUES[self.rank]

    @property
    def is_ace(self) -> bool:
        return self.rank == "A"

    @property
    def is_ten(self) -> bool:
        """True for every ten-value card: T, J, Q, K."""
        return self.value == 10

    @property
    def pretty(self) -> str:
        """Rank with a suit symbol, for terminals: ``T♥`` prints as ``10♥``."""
        rank = "10" if self.rank == "T" else self.rank
        return rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


class HandTotal(NamedTuple):
    """A hand's best total and whether an ace is counted as 11 in it."""

    total: int
    soft: bool

    def __str__(self) -> str:
        return f"soft {self.total}" if self.soft else str(self.total)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse a space- or comma-separated card list (or an iterable of card strings)."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(p) for p in parts)


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of :func:`parse_cards`.

    >>> format_cards(parse_cards("as td"))
    'AS TD'
    """
    return " ".join(str(c) for c in cards)


def hand_total(cards: Iterable[Card]) -> HandTotal:
    """Best total of the cards: one ace counts 11 when that does not pass 21 (ro.4, pl.9)."""
    total = 0
    has_ace = False
    for c in cards:
        total += c.value
        has_ace = has_ace or c.is_ace
    if has_ace and total + 10 <= 21:
        return HandTotal(total + 10, True)
    return HandTotal(total, False)


def full_deck() -> tuple[Card, ...]:
    """One 52-card deck in a fixed order (suits, then ranks)."""
    return tuple(Card(r, s) for s in SUITS for r in RANKS)


#: The kinds of deck a shoe is made of (``Rules.deck``): ``standard`` 52 cards; ``spanish``
#: 48, the four ten-spots removed, the jacks, queens and kings kept (Spanish 21).
DECK_KINDS = ("standard", "spanish")


def deck_cards(deck: str = "standard") -> tuple[Card, ...]:
    """One deck of the kind ``deck`` in :func:`full_deck`'s order.

    >>> len(deck_cards()), len(deck_cards("spanish"))
    (52, 48)
    >>> spanish = deck_cards("spanish")
    >>> any(c.rank == "T" for c in spanish), sum(c.is_ten for c in spanish)
    (False, 12)
    """
    if deck not in DECK_KINDS:
        choices = ", ".join(repr(d) for d in DECK_KINDS)
        raise RulesError("not-one-of", field="deck", value=deck, choices=choices)
    if deck == "spanish":
        return tuple(c for c in full_deck() if c.rank != "T")
    return full_deck()


def deck_size(deck: str = "standard") -> int:
    """Cards in one deck of the kind ``deck`` (52, or 48 for a Spanish deck)."""
    return 48 if deck == "spanish" else 52
