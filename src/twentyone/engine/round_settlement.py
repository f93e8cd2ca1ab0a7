"""A round's settlement: the dealer's hand played as far as settlement needs (ru.11), then
every hand and insurance settled exactly once, every amount from :meth:`RoundSettlement.payout`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from twentyone.engine.cards import Card, hand_total
from twentyone.engine.hands import Box
from twentyone.engine.predicates import dealer_draws
from twentyone.engine.records import PaymentKind, Result, Reveal
from twentyone.engine.round_state import RoundState
from twentyone.engine.rules import Rules

#: What a hand's result returns, as a multiple of the hand's bet (the blackjack payout is the
#: table's: see :meth:`Round.payout`).
_RETURNS: dict[str, Fraction] = {
    "even-money": Fraction(2),
    "win": Fraction(2),
    "push": Fraction(1),
    "surrender": Fraction(1, 2),
    "lose": Fraction(0),
    "bust": Fraction(0),
}


def dealer_must_draw(dealer: Sequence[Card], rules: Rules) -> bool:
    """The dealer's drawing rule (ro.6, pt.7, hu.6, ru.11) on the dealer's cards.

    >>> from twentyone.engine.cards import parse_cards
    >>> h17 = Rules(decks=1, dealer_hits_soft_17=True)
    >>> dealer_must_draw(parse_cards("TS 6H"), Rules(decks=1)), dealer_must_draw(
    ...     parse_cards("AS 6H"), Rules(decks=1))
    (True, False)
    >>> dealer_must_draw(parse_cards("AS 6H"), h17)
    True
    """
    total = hand_total(dealer)
    return dealer_draws(total.total, total.soft, len(dealer), rules.soft_17_hit_from)


class RoundSettlement(RoundState):
    """Settling a round: the dealer's drawing, the payouts, each hand's and box's result."""

    def payout(self, result: Result, bet: int) -> Fraction:
        """What a hand's ``result`` returns on ``bet`` (stake included), exactly.

        >>> from twentyone import BoxBet, Round, StackedShoe, load_rules
        >>> rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 8C"), [BoxBet("a", 100)])
        >>> rnd.payout("blackjack", 1000), rnd.payout("surrender", 25), rnd.payout("bust", 9)
        (Fraction(2500, 1), Fraction(25, 2), Fraction(0, 1))
        """
        if result == "blackjack":
            return bet * (1 + self.rules.blackjack_pays)
        return bet * _RETURNS[result]

    def _settle(self) -> None:
        """Play the dealer's hand as far as needed and settle everything still open."""
        rules = self.rules
        open_hands = [h for b in self.boxes for h in b.hands if not h.settled]
        live = [h for h in open_hands if not h.surrendered and not h.is_blackjack]
        waits_on_blackjack = bool(open_hands) or any(
            b.insurance and not b.insurance_settled for b in self.boxes
        )
        if rules.hole_card:
            if not self.hole_revealed:
                self.hole_revealed = True
                self.log.append(Reveal(self.dealer[1]))
        elif len(self.dealer) == 1 and (
            live or (waits_on_blackjack and self.dealer_blackjack is None)
        ):
            self._draw(None, 0)
        if len(self.dealer) >= 2:
            self.dealer_blackjack = hand_total(self.dealer[:2]).total == 21
        if live and not self.dealer_blackjack:
            while dealer_must_draw(self.dealer, rules):
                self._draw(None, 0)
        dealer_total = hand_total(self.dealer).total
        for box in self.boxes:
            self._settle_box(box, dealer_total)
        self.phase = "done"

    def _settle_insurance(self, box: Box) -> None:
        """Insurance pays 2:1 on a dealer blackjack (returned three times), else is lost."""
        box.insurance_settled = True
        self._pay(box, None, "insurance", 3 * box.insurance if self.dealer_blackjack else 0)

    def _settle_box(self, box: Box, dealer_total: int) -> None:
        dealer_bj = bool(self.dealer_blackjack)
        if box.insurance and not box.insurance_settled:
            self._settle_insurance(box)
        original_lost = any(h.result == "bust" for h in box.hands)
        for i, hand in enumerate(box.hands):
            if hand.settled:
                continue
            if hand.is_blackjack:
                self._settle_hand(box, i, "push" if dealer_bj else "blackjack")
            elif hand.surrendered:
                self._settle_hand(box, i, "lose" if dealer_bj else "surrender")
            elif dealer_bj:
                if self.rules.dealer_blackjack_takes == "original":
                    # OBO: the box loses its original bet once; every other stake comes back.
                    kept = hand.bet if original_lost else hand.bet - box.bet
                    original_lost = True
                    result: Result = "lose" if kept < hand.bet else "push"
                    self._settle_hand(box, i, result, int(self.payout("push", kept)))
                else:
                    self._settle_hand(box, i, "lose")
            else:
                total = hand.total.total
                if dealer_total > 21 or total > dealer_total:
                    self._settle_hand(box, i, "win")
                else:
                    self._settle_hand(box, i, "push" if total == dealer_total else "lose")
        self._settle_side_bets(box, None, ("box-cards",))

    def _settle_hand(self, box: Box, i: int, result: Result, returned: int | None = None) -> None:
        """Close a hand with its result; ``returned`` defaults to :meth:`payout`."""
        hand = box.hands[i]
        remainder = Fraction(0)
        if returned is None:
            exact = self.payout(result, hand.bet)
            returned = int(exact)
            remainder = exact - returned
        hand.result = result
        hand.settled = True
        hand.done = True
        hand.returned = returned
        hand.remainder = remainder
        kind: PaymentKind = "even-money" if result == "even-money" else "return"
        self._pay(box, i, kind, returned, remainder)
