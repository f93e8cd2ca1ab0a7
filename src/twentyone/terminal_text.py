"""How the terminal game draws cards, totals, results and money (rich ``Text``).

>>> from twentyone.cards import parse_cards
>>> total_text(parse_cards("AS 6D")), total_text(parse_cards("TS 9D 5C"))
('soft 17', 'bust 24')
>>> cards_text(parse_cards("TH"), hidden=1).plain
'10♥ ??'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from twentyone.cards import Card, hand_total
from twentyone.table import format_money

#: The single key that answers each play action (``double`` covers ``double:N`` too).
ACTION_KEYS = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r"}

RESULT_WORDS = {
    "blackjack": ("BLACKJACK", "bold green"),
    "win": ("win", "bold green"),
    "even-money": ("even money", "green"),
    "push": ("push", "yellow"),
    "lose": ("lose", "red"),
    "bust": ("bust", "red"),
    "surrender": ("surrendered", "yellow"),
}


def money(units: int, *, sign: bool = False) -> str:
    """Minor units as money (``1050`` -> ``'10.50'``); see :func:`twentyone.table.format_money`."""
    return format_money(units, sign=sign)


def card_text(card: Card) -> Text:
    """A card with its suit symbol, red for hearts and diamonds."""
    return Text(card.pretty, style="bold red" if card.suit in "HD" else "bold")


def cards_text(cards: Iterable[Card], hidden: int = 0) -> Text:
    """Cards side by side; ``hidden`` face-down cards print as ``??``."""
    parts = [card_text(c) for c in cards] + [Text("??", style="dim") for _ in range(hidden)]
    return Text(" ").join(parts)


def total_text(cards: Sequence[Card], *, blackjack: bool = False) -> str:
    """``17``, ``soft 17``, ``bust 25`` or ``blackjack``."""
    if blackjack:
        return "blackjack"
    t = hand_total(cards)
    return f"bust {t.total}" if t.total > 21 else str(t)
