"""A round's state and its bookkeeping: the boxes, the dealer's cards, the log, what a player
can still stake, and the three ways the state changes (a payment, a side bet settled, a card
drawn), each appended to the log.

:class:`RoundState` is the base of :class:`~twentyone.engine.round.Round`, which deals, plays
and settles on it (with the functions of :mod:`twentyone.engine.round_settlement`).

>>> from twentyone.engine.hands import BoxBet
>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.shoe import StackedShoe
>>> bets = [BoxBet("ann", 1000)]
>>> state = RoundState(load_rules("ru-online"), StackedShoe("TS"), bets, {"ann": 5000})
>>> state.phase, state.available("ann"), state.net(), state.dealer
('insurance', 5000, {'ann': 0}, [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from twentyone.engine.bets import verify_bets
from twentyone.engine.cards import Card
from twentyone.engine.hands import Box, BoxBet
from twentyone.engine.records import Action, Deal, Payment, PaymentKind, Question, Record
from twentyone.engine.rules import Rules
from twentyone.engine.shoe import CardSource
from twentyone.engine.sidebets import View, settle_side_bets


class RoundState:
    """A round's state, what it reads, and the records that change it (the base of
    :class:`~twentyone.engine.round.Round`)."""

    def __init__(
        self,
        rules: Rules,
        shoe: CardSource,
        bets: Sequence[BoxBet],
        bankrolls: Mapping[str, int] | None = None,
    ) -> None:
        """The state before the stakes are taken: the bets checked (:func:`verify_bets`), the
        boxes made, nothing dealt."""
        verify_bets(rules, bets, bankrolls)
        self.rules = rules
        self.shoe = shoe
        self.bankrolls = dict(bankrolls) if bankrolls is not None else None
        self.log: list[Record] = []
        self.boxes = [
            Box(
                index=i,
                player=b.player,
                bet=b.bet,
                side_bets={k: v for k, v in b.side_bets.items() if v},
            )
            for i, b in enumerate(bets)
        ]
        self.dealer: list[Card] = []
        self.hole_revealed = False
        self.dealer_blackjack: bool | None = None
        self.question: Question | None = None
        self.phase = "insurance"
        #: each switch pair's first box -> its second (``Rules.switch``; empty otherwise)
        self.partners: dict[int, int] = {}

    # ----------------------------------------------------------------- state
    @property
    def is_over(self) -> bool:
        return self.phase == "done"

    @property
    def upcard(self) -> Card:
        return self.dealer[0]

    @property
    def dealer_visible(self) -> list[Card]:
        """The dealer's cards a player may see: the hole card only once it is shown."""
        if self.rules.hole_card and not self.hole_revealed:
            return self.dealer[:1]
        return list(self.dealer)

    def available(self, player: str) -> int | None:
        """What ``player`` can still stake this round (``None``: unlimited)."""
        if self.bankrolls is None:
            return None
        mine = [b for b in self.boxes if b.player == player]
        return self.bankrolls.get(player, 0) + sum(b.net for b in mine)

    def net(self) -> dict[str, int]:
        """Each player's net this round so far (hands, insurance, side bets)."""
        out: dict[str, int] = {}
        for b in self.boxes:
            out[b.player] = out.get(b.player, 0) + b.net
        return out

    @property
    def decisions(self) -> list[str]:
        return [str(r.decision) for r in self.log if isinstance(r, Action)]

    @property
    def cards_dealt(self) -> list[Card]:
        """Every card that left the shoe, in order (a stacked shoe of these replays the round)."""
        return [r.card for r in self.log if isinstance(r, Deal)]

    def _affords(self, player: str, amount: int) -> bool:
        have = self.available(player)
        return have is None or have >= amount

    def _afford_max(self, player: str, cap: int) -> int:
        have = self.available(player)
        return cap if have is None else min(cap, have)

    # ----------------------------------------------------------------- money and cards
    def _pay(
        self,
        box: Box,
        hand: int | None,
        kind: PaymentKind,
        amount: int,
        remainder: Fraction = Fraction(0),
    ) -> None:
        if amount < 0:
            box.staked -= amount
        else:
            box.paid += amount
        self.log.append(Payment(kind, box.index, hand, amount, remainder))

    def _settle_side_bets(self, box: Box, hand: int | None, views: tuple[View, ...]) -> None:
        """Settle the side bets whose kind looks at ``views`` (:func:`settle_side_bets`)."""
        partner = self.partner_of(box.index)
        cards = self.boxes[partner].cards_received if partner is not None else []
        bets = self.rules.side_bets
        for pay in settle_side_bets(bets, box, hand, views, self.dealer[0], partner=cards):
            box.paid += pay.amount
            self.log.append(pay)

    def partner_of(self, box: int) -> int | None:
        """The other box of ``box``'s switch pair (``Rules.switch``), ``None`` elsewhere."""
        for first, second in self.partners.items():
            if box in (first, second):
                return second if box == first else first
        return None

    def _draw(self, box: Box | None, hand: int, face_down: bool = False) -> Card:
        card = self.shoe.draw()
        self.log.append(Deal(card, None if box is None else box.index, hand, face_down))
        if box is None:
            self.dealer.append(card)
        else:
            box.hands[hand].cards.append(card)
            box.cards_received.append(card)
        return card
