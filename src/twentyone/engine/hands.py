"""The mutable state of boxes and hands inside a round (read it; change it only through
:class:`~twentyone.engine.round.Round`'s actions).

>>> from twentyone.engine.cards import parse_cards
>>> h = Hand(cards=list(parse_cards("AS KD")), bet=100)
>>> h.total, h.is_blackjack, h.is_bust
(HandTotal(total=21, soft=True), True, False)
>>> Hand(cards=list(parse_cards("AS KD")), bet=100, split=True).is_blackjack
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from twentyone.engine.cards import Card, HandTotal, hand_total
from twentyone.engine.records import QuestionKind, Result


@dataclass(frozen=True, slots=True)
class BoxBet:
    """A bet on one box: who plays it, the main stake and the side bets staked beside it
    (side bet id -> stake, the ids of the table's :attr:`~twentyone.engine.rules.Rules.side_bets`).

    >>> BoxBet("ann", 1000, {"21-3": 100})
    BoxBet(player='ann', bet=1000, side_bets={'21-3': 100})
    """

    player: str
    bet: int
    side_bets: Mapping[str, int] = field(default_factory=dict)

    @property
    def staked(self) -> int:
        """The main bet and every side stake."""
        return self.bet + sum(self.side_bets.values())


@dataclass(slots=True)
class Hand:
    """One hand of a box. ``bet`` includes any double; ``split`` marks a hand made by a split
    (its two-card 21 is not a blackjack: ro.16, pl.7, pt.8, hu.8, ru.9). ``free``: the house's
    stake on the hand from free doubles and splits (``Rules.free_doubles``, ``free_splits``),
    paid like a real stake when the hand wins and taken back otherwise; ``bet`` is then the
    player's own stake only (0 on a hand a free split made). ``doubles``: how many times the
    hand doubled (a redouble is the second and on: ``Rules.redoubles``), ``doubled_by``: the
    player's own money those doubles staked (what a rescue gives back: ``Rules.rescue``),
    ``rescued``: the doubled hand was surrendered. ``switched``: the hand's second card came
    from its switch partner (``Rules.switch``): its two-card 21 is not a blackjack."""

    cards: list[Card]
    bet: int
    split: bool = False
    split_aces: bool = False
    doubled: bool = False
    acted: bool = False
    done: bool = False
    surrendered: bool = False
    doubles: int = 0
    doubled_by: int = 0
    rescued: bool = False
    settled: bool = False
    result: Result | None = None
    returned: int = 0
    remainder: Fraction = Fraction(0)
    bonus: int = 0  # what stakeless side bets (the 6-7-8 bonus) paid on this hand
    free: int = 0
    switched: bool = False

    @property
    def stake(self) -> int:
        """Everything staked on the hand, the player's and the house's (what a double
        matches)."""
        return self.bet + self.free

    @property
    def total(self) -> HandTotal:
        return hand_total(self.cards)

    @property
    def is_blackjack(self) -> bool:
        return (
            not self.split and not self.switched and len(self.cards) == 2 and self.total.total == 21
        )

    @property
    def is_bust(self) -> bool:
        return self.total.total > 21


@dataclass(slots=True)
class Box:
    """One box: its bet, hands, side bets (stakes by id; ``side_paid``: what each returned once
    settled) and the money it has staked and been paid."""

    index: int
    player: str
    bet: int
    side_bets: dict[str, int] = field(default_factory=dict)
    side_paid: dict[str, int] = field(default_factory=dict)
    hands: list[Hand] = field(default_factory=list)
    cards_received: list[Card] = field(default_factory=list)
    insurance: int = 0
    insurance_settled: bool = False
    pending: QuestionKind | None = None
    staked: int = 0
    paid: int = 0

    @property
    def net(self) -> int:
        """Everything this box won (positive) or lost this round so far."""
        return self.paid - self.staked
