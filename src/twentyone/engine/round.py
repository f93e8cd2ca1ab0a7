"""One round of blackjack: the state machine that plays a :class:`~twentyone.engine.rules.Rules`.

A round is made with its bets, takes the stakes and deals; then it asks its questions in the
order of the round (:attr:`Round.question`): insurance box by box (a blackjack facing an ace is
asked once: even money, insurance, or neither: ro.9, pt.10, hu.9), at a switch table each
pair of boxes once (``switch`` or ``keep``: ``Rules.switch``), a surrender phase box by box
where the rules decide surrender before play (ro.11), then each hand's actions. Every action
comes in three: ``verify_x`` raises
:class:`IllegalActionError` with the reason, ``can_x`` answers, ``x`` acts and returns the
:class:`~twentyone.engine.records.Action` appended to :attr:`Round.log`.

When no question is left the dealer draws only what settlement still needs (ru.11): nothing
more when no hand or insurance waits (in a hole-card game the hole card is only shown); only the
second card when just blackjacks, insurance or late surrenders wait on a possible dealer
blackjack; otherwise up to 17 (S17 or H17). Then every hand and insurance is settled exactly
once, every amount from :meth:`Round.payout` (the settlement's functions:
:mod:`twentyone.engine.round_settlement`).

>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.shoe import StackedShoe
>>> rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 8C"), [BoxBet("ann", 1000)])
>>> rnd.question.actions
('hit', 'stand', 'double')
>>> rnd.stand().decision
Decision(name='stand', amount=None)
>>> rnd.is_over, rnd.boxes[0].hands[0].result, rnd.net()
(True, 'push', {'ann': 0})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import cast

from twentyone.engine.bets import switch_pairs
from twentyone.engine.cards import Card, hand_total
from twentyone.engine.errors import IllegalActionError
from twentyone.engine.hands import Box, BoxBet, Hand
from twentyone.engine.records import (
    Action,
    Decision,
    DecisionName,
    Payment,
    Peek,
    Question,
    Result,
    Reveal,
)
from twentyone.engine.round_decisions import RoundDecisions, spell
from twentyone.engine.round_offers import RoundOffers
from twentyone.engine.round_settlement import (
    close_hand,
    close_insurance,
    dealer_must_draw,
    payout,
    settle_box,
)
from twentyone.engine.rules import Rules
from twentyone.engine.shoe import CardSource

__all__ = ["Round", "dealer_must_draw", "spell"]

#: An amount in a decision has at most this many digits (a bet is far smaller).
_AMOUNT_DIGITS = 12


class Round(RoundDecisions, RoundOffers):
    """One round at a table. ``bankrolls`` (per player, minor units) limits what a player may
    stake; ``None`` means unlimited (replays of logs that never needed more).

    Its state and bookkeeping are :class:`~twentyone.engine.round_state.RoundState`'s, what a
    question offers :class:`~twentyone.engine.round_offers.RoundOffers`'s; this class takes
    the stakes, deals, asks the questions, acts on the decisions and books the
    payments the settlement's functions (:mod:`twentyone.engine.round_settlement`) return."""

    def __init__(
        self,
        rules: Rules,
        shoe: CardSource,
        bets: Sequence[BoxBet],
        bankrolls: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(rules, shoe, bets, bankrolls)
        if rules.switch:
            self.partners = dict(switch_pairs([b.player for b in bets]))
        shoe.begin_round()
        for box in self.boxes:
            self._pay(box, None, "stake", -box.bet)
            for bet_id, stake in box.side_bets.items():
                self.log.append(Payment("stake", box.index, None, -stake, side_bet=bet_id))
                box.staked += stake
            box.hands.append(Hand(cards=[], bet=box.bet))
        self._deal_initial()
        for box in self.boxes:
            self._settle_side_bets(box, None, ("first-two", "first-two-and-up", "pair-four"))
        self._advance()

    def _deal_initial(self) -> None:
        if self.rules.deal_order == "box-by-box":
            for box in self.boxes:
                self._draw(box, 0)
                self._draw(box, 0)
            self._draw(None, 0)
        else:
            for box in self.boxes:
                self._draw(box, 0)
            self._draw(None, 0)
            for box in self.boxes:
                self._draw(box, 0)
        if self.rules.hole_card:
            # Double Exposure deals it face up: the players see it from the start
            self._draw(None, 0, face_down=not self.rules.hole_card_up)
            self.hole_revealed = self.rules.hole_card_up
        up = self.upcard
        kind = self._upcard_kind()
        for box in self.boxes:
            hand = box.hands[0]
            hand.done = hand.is_blackjack
            if hand.is_blackjack and up.is_ace and self.rules.even_money:
                box.pending = "even-money"
            elif kind in self.rules.insurance_upcards:
                box.pending = "insurance"
        if kind is None:
            self.dealer_blackjack = False

    # ----------------------------------------------------------------- the flow
    def _advance(self) -> None:
        while self.phase != "done":
            if self.phase in ("insurance", "switch", "surrender"):
                q = self._next_box_question()
                if q is not None:
                    self.question = q
                    return
                if self.phase == "insurance":
                    self._close_insurance()
                    if self.phase == "insurance":
                        self.phase = "surrender"
                elif self.phase == "switch":
                    for box in self.boxes:  # a switched hand plays on unless it is 21
                        hand = box.hands[0]
                        if hand.switched:
                            hand.done = hand.total.total == 21
                    self._before_play()
                    self.phase = "surrender"
                else:
                    self.phase = "play"
            else:
                q = self._next_play_question()
                if q is not None:
                    self.question = q
                    return
                self._settle()
        self.question = None

    def _next_box_question(self) -> Question | None:
        for box in self.boxes:
            if box.pending is None:
                continue
            if box.pending == "surrender":
                return Question("surrender", box.index, 0, ("surrender", "no-surrender"))
            if box.pending == "switch":
                partner = self.partners[box.index]
                return Question("switch", box.index, 0, ("switch", "keep"), partner=partner)
            insure, span = self._insurance_offer(box)
            if box.pending == "even-money":
                # ro.9, pt.10, hu.9: even money, insurance instead, or neither
                acts = ("even-money", *insure, "no-even-money")
                return Question("even-money", box.index, 0, acts, span)
            if insure:
                return Question("insurance", box.index, 0, (*insure, "no-insurance"), span)
            box.pending = None  # cannot cover even the smallest insurance: not asked
        return None

    def _close_insurance(self) -> None:
        up = self.upcard
        special = up.is_ace or up.is_ten
        if self.rules.peek and special:
            self.dealer_blackjack = hand_total(self.dealer[:2]).total == 21
            self.log.append(Peek(self.dealer_blackjack))
            if self.dealer_blackjack:
                self._settle()
                return
            for box in self.boxes:
                if box.insurance and not box.insurance_settled:
                    self._book(box, [close_insurance(box, bool(self.dealer_blackjack))])
        if self.partners:
            # Blackjack Switch: each pair decides before a blackjack is known to stay one
            for first in self.partners:
                self.boxes[first].pending = "switch"
            self.phase = "switch"
            return
        self._before_play()

    def _before_play(self) -> None:
        """Pay the blackjacks paid at once and ask the surrender before play (ro.11), once the
        insurance (and any switch) is done."""
        up = self.upcard
        if self.rules.blackjack_paid_at_once and self.dealer_blackjack is False:
            for box in self.boxes:
                hand = box.hands[0]
                if hand.is_blackjack and not hand.settled:
                    self._settle_hand(box, 0, "blackjack")
        if self.rules.surrender_before_play and self.rules.offers_surrender:
            if up.is_ace and not self.rules.surrender_against_ace:
                return
            for box in self.boxes:
                if not box.hands[0].done:
                    box.pending = "surrender"

    def _next_play_question(self) -> Question | None:
        for box in self.boxes:
            i = 0
            while i < len(box.hands):
                hand = box.hands[i]
                if not hand.done and len(hand.cards) == 1:
                    self._draw(box, i)
                    self._after_card(box, i)
                if not hand.done:
                    q = self._play_question(box, i)
                    if q is not None:
                        return q
                    hand.done = True
                i += 1
        return None

    def _after_card(self, box: Box, i: int) -> None:
        hand = box.hands[i]
        rules = self.rules
        cards = hand.cards
        if len(cards) == 3:
            self._settle_side_bets(box, i, ("hand-three",))
        if hand.is_bust:
            hand.done = True
            self._settle_hand(box, i, "bust")
        elif hand.total.total == 21 or (hand.doubled and not self._doubled_asked):
            hand.done = True  # else a doubled hand is asked again: stand, redouble, rescue
        elif hand.split_aces and not rules.hit_split_aces and len(cards) == 2:
            hand.done = not self._split_allowed(box, hand)

    # ----------------------------------------------------------------- settlement
    def payout(self, result: Result, bet: int) -> Fraction:
        """What a hand's ``result`` returns on ``bet`` (stake included), exactly.

        >>> from twentyone import BoxBet, Round, StackedShoe, load_rules
        >>> rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 8C"), [BoxBet("a", 100)])
        >>> rnd.payout("blackjack", 1000), rnd.payout("surrender", 25), rnd.payout("bust", 9)
        (Fraction(2500, 1), Fraction(25, 2), Fraction(0, 1))
        """
        return payout(self.rules, result, bet)

    def _book(self, box: Box, payments: list[Payment]) -> None:
        """Book the settlement's payments to ``box`` (each pays out: none is a stake)."""
        for pay in payments:
            box.paid += pay.amount
            self.log.append(pay)

    def _settle_hand(self, box: Box, i: int, result: Result) -> None:
        self._book(box, [close_hand(self.rules, box, i, result)])

    def _settle(self) -> None:
        """Play the dealer's hand as far as needed and settle everything still open."""
        rules = self.rules
        open_hands = [h for b in self.boxes for h in b.hands if not h.settled]
        live = [h for h in open_hands if not (h.surrendered or h.rescued or h.is_blackjack)]
        waits_on_blackjack = bool(open_hands) or any(
            b.insurance and not b.insurance_settled for b in self.boxes
        )
        draw_out = bool(live) or self._dealer_bets_staked()  # Push 22 waits on the dealer too
        if rules.hole_card:
            if not self.hole_revealed:
                self.hole_revealed = True
                self.log.append(Reveal(self.dealer[1]))
        elif len(self.dealer) == 1 and (
            draw_out or (waits_on_blackjack and self.dealer_blackjack is None)
        ):
            self._draw(None, 0)
        if len(self.dealer) >= 2:
            self.dealer_blackjack = hand_total(self.dealer[:2]).total == 21
        if draw_out and not self.dealer_blackjack:
            while dealer_must_draw(self.dealer, rules):
                self._draw(None, 0)
        dealer_total = hand_total(self.dealer).total
        blackjack = bool(self.dealer_blackjack)
        for box in self.boxes:
            self._book(box, settle_box(rules, box, dealer_total, blackjack, self.dealer))
        self.phase = "done"

    def _dealer_bets_staked(self) -> bool:
        """Whether a side bet on the dealer's final cards (Push 22) is staked: the dealer then
        draws out even with no hand left to play for."""
        return any(
            b.side_bets.get(bet.id)
            for bet in self.rules.side_bets
            if bet.spec.view == "dealer-final"
            for b in self.boxes
        )

    # ----------------------------------------------------------------- verify / can / act
    def verify(self, decision: str | Decision) -> tuple[str, int | None]:
        """Check a decision in replay spelling against the current question.

        Returns the action name and its amount (``None`` for the bare word: an amount equal
        to the one the bare word stakes, such as ``insure:500`` where insurance is exactly
        half of 1000, is the same decision). Raises :class:`IllegalActionError` naming what
        was asked and what is allowed.

        >>> from twentyone import BoxBet, StackedShoe, load_rules
        >>> rnd = Round(load_rules("hu-casino"), StackedShoe("TS TD 9H"), [BoxBet("ann", 1000)])
        >>> rnd.verify("double:1000"), rnd.verify("stand")
        (('double', None), ('stand', None))
        """
        decision = str(decision)
        q = self.question
        if q is None:
            raise IllegalActionError("round-over", decision=decision)
        name, colon, amount_text = decision.strip().partition(":")
        amount: int | None = None
        if colon:
            if (
                not (amount_text.isascii() and amount_text.isdigit())
                or len(amount_text) > _AMOUNT_DIGITS
            ):
                raise IllegalActionError(
                    "amount-not-whole", decision=decision, digits=_AMOUNT_DIGITS, asked=q.describe()
                )
            amount = int(amount_text)
        if q.kind == "even-money" and name == "no-insurance":
            name = "no-even-money"  # declining both, in the insurance spelling
        if amount is not None and name in q.actions and amount == self._bare_amount(q, name):
            amount = None
        key = f"{name}:N" if amount is not None else name
        if key not in q.actions:
            raise self._refusal(q, name, decision)
        if amount is not None and q.amount_range is not None:
            lo, hi = q.amount_range
            if not lo <= amount <= hi:
                raise IllegalActionError(
                    "amount-outside",
                    decision=decision,
                    amount=amount,
                    min=lo,
                    max=hi,
                    asked=q.describe(),
                )
        return name, amount

    def _refusal(self, q: Question, name: str, decision: str) -> IllegalActionError:
        """The error for a decision ``q`` does not offer: why a redouble or a rescue is refused
        where the rules know them, else ``not-allowed``."""
        asked = q.describe()
        if q.kind == "play":
            hand = self.boxes[q.box].hands[q.hand]
            if name == "double" and hand.doubled and hand.doubles > self.rules.redoubles:
                if self.rules.redoubles:
                    return IllegalActionError("no-more-doubles", decision=decision, asked=asked)
                return IllegalActionError("no-redouble", decision=decision, asked=asked)
            if name == "rescue" and self.rules.rescue and not hand.doubled:
                return IllegalActionError("rescue-needs-double", decision=decision, asked=asked)
        if name == "rescue" and not self.rules.rescue:
            return IllegalActionError("no-rescue", decision=decision, asked=asked)
        return IllegalActionError("not-allowed", decision=decision, asked=asked)

    def _bare_amount(self, q: Question, name: str) -> int | None:
        """What the bare word stakes (the full double, half the bet insured), if anything."""
        box = self.boxes[q.box]
        if name == "double":
            return box.hands[q.hand].stake
        if name == "insure":
            return box.bet // 2
        return None

    def can(self, decision: str | Decision) -> bool:
        try:
            self.verify(decision)
        except IllegalActionError:
            return False
        return True

    def apply(self, decision: str | Decision) -> Action:
        """Act on a decision in replay spelling (``hit``, ``double:50``, ``no-insurance``…) or
        as a :class:`~twentyone.engine.records.Decision`."""
        name, amount = self.verify(decision)
        q = self.question
        assert q is not None
        box = self.boxes[q.box]
        hand = box.hands[q.hand]
        drawn: list[Card] = []
        staked = 0
        if name in ("even-money", "no-even-money"):
            box.pending = None
            if name == "even-money":
                self._settle_hand(box, 0, "even-money")
        elif q.kind in ("insurance", "even-money"):
            box.pending = None
            if name == "insure":
                staked = amount if amount is not None else box.bet // 2
                box.insurance = staked
                self._pay(box, None, "stake", -staked)
        elif q.kind == "switch":
            box.pending = None
            if name == "switch":
                self._switch(box)
        elif q.kind == "surrender" or name == "surrender":
            box.pending = None
            if name == "surrender":
                self._surrender(box, q.hand)
        else:
            hand.acted = True
            if name == "hit":
                drawn.append(self._draw(box, q.hand))
                self._after_card(box, q.hand)
            elif name == "stand":
                hand.done = True
            elif name == "double":
                if self._double_free(hand):
                    hand.free += hand.stake  # the house's stake: nothing is paid in
                else:
                    staked = amount if amount is not None else hand.stake
                    self._pay(box, q.hand, "stake", -staked)
                    hand.bet += staked
                    hand.doubled_by += staked
                hand.doubled = True
                hand.doubles += 1
                drawn.append(self._draw(box, q.hand))
                self._after_card(box, q.hand)
            elif name == "split":
                staked = 0 if self.rules.split_is_free(hand.cards[0].value) else box.bet
                drawn.extend(self._split(box, q.hand, staked))
            elif name == "rescue":
                self._rescue(box, q.hand)
        record = Action(
            q.kind, q.box, q.hand, Decision(cast(DecisionName, name), amount), staked, tuple(drawn)
        )
        self.log.append(record)
        self._advance()
        return record

    def _switch(self, box: Box) -> None:
        """Swap the second cards of ``box``'s hand and its switch partner's (each box's
        ``cards_received`` stays the cards it was dealt, as its side bets saw them)."""
        other = self.boxes[self.partners[box.index]]
        a, b = box.hands[0], other.hands[0]
        a.cards[1], b.cards[1] = b.cards[1], a.cards[1]
        a.switched = b.switched = True

    def _surrender(self, box: Box, i: int) -> None:
        hand = box.hands[i]
        hand.surrendered = True
        hand.done = True
        if self.rules.surrender == "early" or self.dealer_blackjack is False:
            self._settle_hand(box, i, "surrender")

    def _rescue(self, box: Box, i: int) -> None:
        """Surrender doubled hand ``i`` (``Rules.rescue``): the original bet is lost, what the
        doubles staked comes back (a free double's stake goes back to the house). Settled at
        once unless a dealer blackjack is still possible, which then takes the hand as it
        takes any other."""
        hand = box.hands[i]
        hand.rescued = True
        hand.done = True
        if self.dealer_blackjack is False:
            self._book(box, [close_hand(self.rules, box, i, "rescue", hand.doubled_by)])

    def _split(self, box: Box, i: int, staked: int) -> list[Card]:
        """Split hand ``i``: the new hand has ``staked`` of the player's (0: a free split, the
        house stakes the box's bet on it)."""
        hand = box.hands[i]
        aces = hand.cards[0].is_ace
        if staked:
            self._pay(box, i + 1, "stake", -staked)
        second = Hand(
            cards=[hand.cards.pop()],
            bet=staked,
            free=box.bet - staked,
            split=True,
            split_aces=aces,
        )
        hand.split = True
        hand.split_aces = aces
        hand.acted = False
        box.hands.insert(i + 1, second)
        drawn = [self._draw(box, i)]
        self._after_card(box, i)
        if self.rules.split_second_card == "at-once":
            drawn.append(self._draw(box, i + 1))
            self._after_card(box, i + 1)
        return drawn
