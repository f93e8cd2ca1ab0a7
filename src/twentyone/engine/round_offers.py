"""What a round offers: the questions of a hand in play and the decisions each allows
(double, a double for less, split, surrender, a doubled hand's stand, redouble or rescue), and
the insurance a box is offered (a mixin of :class:`~twentyone.engine.round.Round`, which asks
them in the round's order).

>>> from twentyone import BoxBet, Round, StackedShoe, load_rules
>>> rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 8C"), [BoxBet("ann", 1000)])
>>> rnd.question.actions  # a hard 17 against a 9: no split, no surrender at ru-online
('hit', 'stand', 'double')
"""

from __future__ import annotations

from twentyone.engine.hands import Box, Hand
from twentyone.engine.predicates import DOUBLE_ON, cards_pair, may_stand, total_may_double
from twentyone.engine.records import Question
from twentyone.engine.round_state import RoundState


class RoundOffers(RoundState):
    """The round's offers, read from its state (:class:`RoundState`): the rules, the up card,
    the boxes and what each player can afford."""

    def _upcard_kind(self) -> str | None:
        """The up card as the rules name it for insurance: ``"A"``, ``"T"`` or ``None``."""
        up = self.upcard
        return "A" if up.is_ace else "T" if up.is_ten else None

    def _insurance_offer(self, box: Box) -> tuple[tuple[str, ...], tuple[int, int] | None]:
        """The insurance decisions open to ``box`` (none where the up card offers none or the
        player cannot cover the smallest), and the range of ``insure:N``."""
        if self._upcard_kind() not in self.rules.insurance_upcards:
            return (), None
        half = box.bet // 2
        if self.rules.insurance_stake == "half":
            return (("insure",) if half >= 1 and self._affords(box.player, half) else ()), None
        lo = min(self.rules.insurance_minimum, half)
        hi = self._afford_max(box.player, half)
        if lo < 1 or hi < lo:
            return (), None
        return (("insure", "insure:N") if hi == half else ("insure:N",)), (lo, hi)

    @property
    def _doubled_asked(self) -> bool:
        """Whether a doubled hand is asked again after its card (a redouble or a rescue may
        follow: ``Rules.redoubles``, ``Rules.rescue``)."""
        return self.rules.rescue or self.rules.redoubles > 0

    def _double_free(self, hand: Hand) -> bool:
        """Whether the house stakes this double (``free_doubles``: a first double of two
        cards only; a double after hits or a redouble is the player's)."""
        total = hand.total
        return (
            len(hand.cards) == 2
            and not hand.doubled
            and self.rules.double_is_free(total.total, total.soft)
        )

    def _double_range(self, box: Box, hand: Hand) -> tuple[bool, tuple[int, int] | None]:
        """Whether a full double is allowed, and the range of a double for less. A double
        stakes the hand's whole stake again: a redouble too (``Rules.redoubles``)."""
        rules = self.rules
        if hand.doubled:
            if hand.doubles > rules.redoubles:
                return False, None
        elif len(hand.cards) != 2 and not rules.double_after_hit:
            return False, None
        if hand.split and not rules.double_after_split:
            return False, None
        if hand.split_aces and not rules.hit_split_aces:
            return False, None
        total = hand.total
        if not total_may_double(total.total, total.soft, DOUBLE_ON[rules.double_on]):
            return False, None
        if self._double_free(hand):
            return True, None  # the house stakes it: nothing to afford, no double for less
        full = self._affords(box.player, hand.stake)
        span = None
        if rules.double_for_less:
            lo = min(rules.table_min, hand.stake)
            hi = self._afford_max(box.player, hand.stake)
            span = (lo, hi) if hi >= lo else None
        return full, span

    def _split_allowed(self, box: Box, hand: Hand) -> bool:
        rules = self.rules
        limit = rules.hand_limit
        if len(hand.cards) != 2 or hand.doubled or (limit is not None and len(box.hands) >= limit):
            return False
        a, b = hand.cards
        if not cards_pair(a.rank == b.rank, a.value == b.value, rules.split_by == "rank"):
            return False
        if hand.split_aces and not rules.resplit_aces:
            return False
        if rules.split_only_one_box and sum(x.player == box.player for x in self.boxes) > 1:
            return False
        return rules.split_is_free(a.value) or self._affords(box.player, box.bet)

    def _surrender_allowed(self, box: Box, hand: Hand) -> bool:
        rules = self.rules
        return (
            rules.offers_surrender
            and not rules.surrender_before_play
            and len(box.hands) == 1
            and len(hand.cards) == 2
            and not hand.acted
            and (rules.surrender_against_ace or not self.upcard.is_ace)
        )

    def _play_question(self, box: Box, i: int) -> Question | None:
        hand = box.hands[i]
        rules = self.rules
        acts: list[str] = []
        span = None
        if hand.split_aces and not rules.hit_split_aces:
            if self._split_allowed(box, hand):
                return Question("play", box.index, i, ("split", "stand"))
            return None
        total = hand.total.total
        if hand.doubled:  # its one card came: stand, redouble or rescue (Spanish 21)
            acts.append("stand")
        else:
            if total < 21:
                acts.append("hit")
            if may_stand(total, rules.min_stand_total):
                acts.append("stand")
        full, span = self._double_range(box, hand)
        if full:
            acts.append("double")
        if span:
            acts.append("double:N")
        if hand.doubled:
            if rules.rescue:
                acts.append("rescue")
            return Question("play", box.index, i, tuple(acts), span) if len(acts) > 1 else None
        if self._split_allowed(box, hand):
            acts.append("split")
        if self._surrender_allowed(box, hand):
            acts.append("surrender")
        return Question("play", box.index, i, tuple(acts), span) if acts else None
