"""The frozen records a round appends to its log: the hand history.

Three kinds: :class:`Deal` (a card leaves the shoe, in order), :class:`Action` (a player's
decision, spelled as in replay files) and :class:`Payment` (money moving between a box and
the house). :class:`Peek` is the dealer checking the hole card for blackjack (pl.3, pl.4, ru.5)
and :class:`Reveal` marks the hole card being turned.

>>> from twentyone.engine.cards import Card
>>> Deal(card=Card.parse("AS"), box=0, hand=0)
Deal(card=Card('AS'), box=0, hand=0, face_down=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from twentyone.engine.cards import Card

QuestionKind = Literal["even-money", "insurance", "surrender", "play"]
PaymentKind = Literal["stake", "return", "insurance", "side-bet", "even-money"]
Result = Literal["blackjack", "win", "push", "lose", "bust", "surrender", "even-money"]


@dataclass(frozen=True, slots=True)
class Question:
    """What the round is waiting for: who must decide, and which decisions are legal.

    ``actions`` are replay spellings; ``double:N`` / ``insure:N`` carry an allowed range.
    """

    kind: QuestionKind
    box: int
    hand: int
    actions: tuple[str, ...]
    amount_range: tuple[int, int] | None = None

    def describe(self) -> str:
        """``'box 1 hand 1: hit, stand, double:N (N from 100 to 500)'`` (boxes count from 1)."""
        where = f"box {self.box + 1}" + (f" hand {self.hand + 1}" if self.kind == "play" else "")
        acts = []
        for a in self.actions:
            if a.endswith(":N") and self.amount_range:
                lo, hi = self.amount_range
                acts.append(f"{a} (N from {lo} to {hi})")
            else:
                acts.append(a)
        return f"{where} ({self.kind}): {', '.join(acts)}"


@dataclass(frozen=True, slots=True)
class Deal:
    """A card leaves the shoe. ``box`` is ``None`` for the dealer's cards."""

    card: Card
    box: int | None
    hand: int
    face_down: bool = False


@dataclass(frozen=True, slots=True)
class Peek:
    """The dealer checks the hole card under an ace or a ten without showing it; ``blackjack``
    is what the check found (true: the :class:`Reveal` follows and the round ends)."""

    blackjack: bool


@dataclass(frozen=True, slots=True)
class Reveal:
    """The dealer's hole card is turned face up."""

    card: Card


@dataclass(frozen=True, slots=True)
class Action:
    """A player's decision. ``decision`` is the replay spelling (``double:50``, ``insure``…);
    ``amount`` is the money it staked; ``cards`` the cards it drew."""

    kind: QuestionKind
    box: int
    hand: int
    decision: str
    amount: int = 0
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Payment:
    """Money between a box and the house: ``amount`` > 0 goes to the player.

    ``stake`` entries are negative (the player puts money down); every other kind pays out.
    ``remainder`` is the fraction of a unit rounded down away from the player. ``side_bet`` is
    the id of the side bet a ``stake`` or ``side-bet`` entry is for (``line``: the paytable
    line it won on, ``None`` when it lost).
    """

    kind: PaymentKind
    box: int
    hand: int | None
    amount: int
    remainder: Fraction = Fraction(0)
    side_bet: str | None = None
    line: str | None = None


Record = Deal | Peek | Reveal | Action | Payment
