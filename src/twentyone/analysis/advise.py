"""One hand, any shoe: the exact return of every legal action, the best marked
(``twentyone advise``).

>>> from twentyone import load_rules
>>> a = advise(load_rules("6D S17 DAS SPL1 NS"), "T 6", "T")
>>> a.best, sorted(a.returns)
('hit', ['double', 'hit', 'stand'])
>>> a.given_no_blackjack  # the dealer peeked under the ten
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twentyone.analysis.actions import action_evs
from twentyone.analysis.context import Context
from twentyone.analysis.dealer import blackjack_card
from twentyone.analysis.shoe_counts import ACE, TEN, hand_counts, value_index
from twentyone.engine.cards import Card, hand_total
from twentyone.engine.errors import CardError
from twentyone.engine.rules import Rules

_SUITS = "SHDC"


def parse_hand(text: str | Sequence[str]) -> list[Card]:
    """Cards written with or without suits (``"T 6"``, ``"TS 6D"``, ``"10 K"``); cards without
    a suit take spades, hearts, diamonds, clubs in turn (so no two are suited by accident).

    >>> [str(c) for c in parse_hand("T 6")]
    ['TS', '6H']
    >>> parse_hand("T")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.CardError: hand 'T': expected two cards or more, such as 'T 6' or \
'TS 6D'
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    if len(tokens) < 2:  # a hand is dealt two cards
        raise CardError("bad-hand", text=text if isinstance(text, str) else " ".join(tokens))
    return [_card(t, _SUITS[i % 4]) for i, t in enumerate(tokens)]


def parse_up(text: str) -> Card:
    """The dealer's up card, with or without a suit (``"T"``, ``"6H"``; clubs by default)."""
    return _card(text, "C")


def _card(token: str, suit: str) -> Card:
    key = token.strip().upper()
    key = "T" + key[2:] if key.startswith("10") else key
    return Card.parse(key if len(key) == 2 else key + suit)


@dataclass(frozen=True)
class HandAdvice:
    """Returns per unit of the hand's bet of each legal action (``returns``), the ``best`` of
    them, and the return per unit of insurance where it is offered (``insurance``). With
    ``given_no_blackjack`` the dealer has peeked: the returns are given no dealer blackjack."""

    rules: str
    hand: tuple[str, ...]
    up: str
    shoe: tuple[int, ...]
    returns: dict[str, float]
    best: str
    insurance: float | None
    given_no_blackjack: bool
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The ``advise --json`` shape."""
        return {
            "rules": self.rules,
            "hand": list(self.hand),
            "up": self.up,
            "shoe": list(self.shoe),
            "returns": self.returns,
            "best": self.best,
            "insurance": self.insurance,
            "given_no_blackjack": self.given_no_blackjack,
            "seconds": self.seconds,
        }


def advise(
    rules: Rules,
    hand: str | Sequence[str] | Sequence[Card],
    up: str | Card,
    *,
    shoe: Sequence[int] | None = None,
    split_hands: int = 1,
    boxes: int = 1,
) -> HandAdvice:
    """Every legal action's exact return on ``hand`` against ``up``, dealt from ``shoe`` (the
    counts of A, 2..9, ten-value before the hand and the up card came out; default the rules'
    full shoe). Continuations are played by the composition-dependent optimum, split hands by
    the pre-split decisions (CDZ-)."""
    start = time.perf_counter()
    cards = [c for c in hand if isinstance(c, Card)]
    if len(cards) != len(hand) or isinstance(hand, str) or len(cards) < 2:
        cards = parse_hand(hand if isinstance(hand, str) else [str(c) for c in hand])
    upcard = up if isinstance(up, Card) else _card(up, "C")
    ctx = Context.of(rules, boxes, shoe)
    u = value_index(upcard)
    left = [a - b for a, b in zip(ctx.shoe, hand_counts([*cards, upcard]), strict=True)]
    if min(left) < 0:
        raise CardError(
            "shoe-lacks-hand",
            shoe=list(ctx.shoe),
            cards=" ".join(str(c) for c in (*cards, upcard)),
        )
    bj = blackjack_card(u)
    n = float(sum(left))
    p_bj = left[bj] / n if bj >= 0 else 0.0
    peeked = ctx.peek and u in (ACE, TEN)
    natural = len(cards) == 2 and split_hands == 1 and hand_total(cards).total == 21
    if natural:
        # asked before the peek: paid unless the dealer has one too
        returns = {"stand": ctx.bj_pays * (1.0 - p_bj)}
        if upcard.value == 1 and rules.even_money:
            returns["even-money"] = 1.0
    else:
        returns = action_evs(
            rules, cards, upcard, boxes=boxes, split_hands=split_hands, context=ctx
        )
    insurance = None
    key = "A" if u == ACE else "T" if u == TEN else ""
    if key in rules.insurance_upcards and len(cards) == 2 and split_hands == 1:
        insurance = 3.0 * p_bj - 1.0
    return HandAdvice(
        rules=rules.name,
        hand=tuple(str(c) for c in cards),
        up=str(upcard),
        shoe=ctx.shoe,
        returns=returns,
        best=max(returns, key=lambda k: returns[k]),
        insurance=insurance,
        given_no_blackjack=peeked and not natural,
        seconds=time.perf_counter() - start,
    )
