"""The frozen records a round appends to its log: the hand history.

Three kinds: :class:`Deal` (a card leaves the shoe, in order), :class:`Action` (a player's
:class:`Decision`, a typed value whose ``str()`` is the replay files' spelling) and
:class:`Payment` (money moving between a box and the house). :class:`Peek` is the dealer
checking the hole card for blackjack (pl.3, pl.4, ru.5) and :class:`Reveal` marks the hole card
being turned.

>>> from twentyone.engine.cards import Card
>>> Deal(card=Card.parse("AS"), box=0, hand=0)
Deal(card=Card('AS'), box=0, hand=0, face_down=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, get_args

from twentyone.engine.cards import Card

QuestionKind = Literal["even-money", "insurance", "switch", "surrender", "play"]
DecisionName = Literal[
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "no-surrender",
    "rescue",
    "insure",
    "no-insurance",
    "even-money",
    "no-even-money",
    "switch",
    "keep",
]
#: Every decision a round may ask for, in replay spelling (without an amount).
DECISION_NAMES: tuple[DecisionName, ...] = get_args(DecisionName)
PaymentKind = Literal["stake", "return", "insurance", "side-bet", "even-money"]
Result = Literal[
    "blackjack", "win", "bonus-21", "push", "lose", "bust", "surrender", "rescue", "even-money"
]


@dataclass(frozen=True, slots=True)
class Question:
    """What the round is waiting for: who must decide, and which decisions are legal.

    ``actions`` are replay spellings; ``double:N`` / ``insure:N`` carry an allowed range. A
    ``switch`` question is asked of a switch pair (``Rules.switch``) on its first ``box``;
    ``partner`` is the pair's other box.
    """

    kind: QuestionKind
    box: int
    hand: int
    actions: tuple[str, ...]
    amount_range: tuple[int, int] | None = None
    partner: int | None = None

    def describe(self) -> str:
        """``'box 1 hand 1: hit, stand, double:N (N from 100 to 500)'`` (boxes count from 1)."""
        where = f"box {self.box + 1}" + (f" hand {self.hand + 1}" if self.kind == "play" else "")
        if self.partner is not None:
            where = f"boxes {self.box + 1} and {self.partner + 1}"
        acts = []
        for a in self.actions:
            if a.endswith(":N") and self.amount_range:
                lo, hi = self.amount_range
                acts.append(f"{a} (N from {lo} to {hi})")
            else:
                acts.append(a)
        return f"{where} ({self.kind}): {', '.join(acts)}"


@dataclass(frozen=True, slots=True)
class Decision:
    """A player's decision as a value: its ``name`` and the ``amount`` the player chose
    (``double:50`` doubles for 50; ``None``: the bare word, which stakes the usual amount).
    ``str()`` is the replay spelling, which the JSON formats keep.

    >>> d = Decision.parse("double:50")
    >>> d, str(d), str(Decision("stand"))
    (Decision(name='double', amount=50), 'double:50', 'stand')
    >>> Decision.parse("fold")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: decision 'fold': expected one of hit, stand, double, ... (double and insure may ...
    """

    name: DecisionName
    amount: int | None = None

    def __post_init__(self) -> None:
        if self.name not in DECISION_NAMES:
            raise ValueError(f"decision {self.name!r}: expected one of {', '.join(DECISION_NAMES)}")
        if self.amount is not None and (self.name not in ("double", "insure") or self.amount < 0):
            raise ValueError(
                f"decision {self.name}:{self.amount}: only double and insure take an amount"
                " (a whole number of minor units)"
            )

    def __str__(self) -> str:
        return self.name if self.amount is None else f"{self.name}:{self.amount}"

    @classmethod
    def parse(cls, text: str) -> Decision:
        """A decision from its replay spelling (``hit``, ``double:50``, ``no-insurance``)."""
        name, colon, amount = text.strip().partition(":")
        if name not in DECISION_NAMES or (colon and not (amount.isascii() and amount.isdigit())):
            raise ValueError(
                f"decision {text!r}: expected one of {', '.join(DECISION_NAMES)}"
                " (double and insure may take :N)"
            )
        return cls(name, int(amount) if colon else None)


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
    """A player's decision. ``decision`` is the typed :class:`Decision` (``str()`` of it is the
    replay spelling: ``double:50``, ``insure``…); ``amount`` is the money it staked; ``cards``
    the cards it drew."""

    kind: QuestionKind
    box: int
    hand: int
    decision: Decision
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
