"""Strategy hints for a player: the chart's move and what a deviation from it costs.

The chart is the rules' basic strategy and the costs are exact composition-dependent returns
(:mod:`twentyone.analysis`), per unit of the hand's bet, over the shoe as the player knows it:
with a cut-card shoe, the full shoe less every card seen since the shuffle (the dealer's hole
card excepted); otherwise (a continuous shuffler, a stacked shoe) the full shoe less the cards
in sight this round.

>>> from twentyone import BoxBet, Round, StackedShoe, load_rules
>>> rules = load_rules("6D S17 DAS SPL3 NS")
>>> rnd = Round(rules, StackedShoe("TS TH 6D 7C"), [BoxBet("ann", 1000)])
>>> advisor = Advisor(rules)
>>> advisor.move(rnd)
'hit'
>>> advisor.cost(rnd, "stand") > 0
True
"""

from __future__ import annotations

from typing import Any

from twentyone.cards import Card
from twentyone.errors import CardError
from twentyone.rules import Rules
from twentyone.strategy import decide


def seen_cards(rnd: Any, dealt: tuple[Card, ...] | None) -> list[Card]:
    """The cards a player has seen: ``dealt`` (every card drawn since the shuffle) less the
    dealer's hole card while it is hidden, or (``None``) the cards in sight this round."""
    if dealt is None:
        out = [c for box in rnd.boxes for hand in box.hands for c in hand.cards]
        return out + list(rnd.dealer_visible)
    out = list(dealt)
    for c in rnd.dealer[len(rnd.dealer_visible) :]:  # the hole card, while hidden
        if c in out:  # (a reshuffle in the round leaves earlier cards out of the list)
            out.remove(c)
    return out


def known_shoe(rules: Rules, rnd: Any, dealt: tuple[Card, ...] | None) -> tuple[int, ...]:
    """The shoe the hand in play and the up card were dealt from, as the player knows it
    (counts of A, 2..9, ten-value): the rules' full shoe less every other card seen
    (:func:`seen_cards`; ``dealt`` as there)."""
    from twentyone.analysis.context import full_shoe

    q = rnd.question
    hand = rnd.boxes[q.box].hands[q.hand].cards
    counts = list(full_shoe(rules))
    seen = seen_cards(rnd, dealt)
    for c in (*hand, rnd.upcard):
        if c in seen:  # (not after a reshuffle in the round)
            seen.remove(c)
    for c in seen:
        counts[c.value - 1] = max(counts[c.value - 1] - 1, 0)
    return tuple(counts)


class Advisor:
    """Hints for one rule set (the chart is derived once, on first use). ``shoe``: the
    table's shoe; where it tells the cards dealt since the shuffle (a cut-card
    :class:`~twentyone.shoe.Shoe`), the returns are over the cards really left."""

    def __init__(self, rules: Rules, *, boxes: int = 1, shoe: Any = None) -> None:
        from twentyone.analysis import basic_strategy

        self.rules = rules
        self.boxes = boxes
        self.chart = basic_strategy(rules, boxes=boxes)
        self.shoe = shoe if rules.shuffle == "cut-card" and hasattr(shoe, "dealt") else None

    def shoe_counts(self, rnd: Any) -> tuple[int, ...]:
        """The shoe the hand in play and the up card were dealt from, as the player knows it
        (see :func:`known_shoe`)."""
        return known_shoe(self.rules, rnd, self.shoe.dealt() if self.shoe is not None else None)

    def move(self, rnd: Any) -> str:
        """The chart's answer to the round's current question, in replay spelling."""
        return decide(self.chart, rnd)

    def returns(self, rnd: Any) -> dict[str, float]:
        """Exact return of each action open to the hand in play, per unit of its bet."""
        from twentyone.analysis import action_evs

        q = rnd.question
        if q is None or q.kind not in ("play", "surrender"):
            return {}
        box = rnd.boxes[q.box]
        hand = box.hands[q.hand]
        from twentyone.analysis.context import MIN_CARDS

        shoe: tuple[int, ...] | None = self.shoe_counts(rnd)
        if shoe is not None and sum(shoe) < MIN_CARDS:
            shoe = None  # too few cards known left to deal from: the full shoe instead
        try:
            evs = action_evs(
                self.rules,
                hand.cards,
                rnd.upcard,
                boxes=self.boxes,
                split_hands=len(box.hands),
                shoe=shoe,
            )
        except CardError:  # a reshuffle in the round: the cards seen no longer add up
            evs = action_evs(
                self.rules, hand.cards, rnd.upcard, boxes=self.boxes, split_hands=len(box.hands)
            )
        if q.kind == "surrender":
            keep = max((v for k, v in evs.items() if k != "surrender"), default=0.0)
            return {"surrender": evs.get("surrender", -0.5), "no-surrender": keep}
        return {k: v for k, v in evs.items() if k in {a.split(":")[0] for a in q.actions}}

    def cost(self, rnd: Any, choice: str) -> float | None:
        """How much ``choice`` gives up against the chart's move, per unit of the hand's bet
        (``None`` when either return is unknown, e.g. an insurance question)."""
        evs = self.returns(rnd)
        best, mine = evs.get(self.move(rnd)), evs.get(choice.split(":")[0])
        if best is None or mine is None:
            return None
        return best - mine

    def blackjack_chance(self, rnd: Any) -> float:
        """The chance that the dealer's hidden card (or next card) makes a blackjack under
        the up card, over the cards left as the player knows them (an insurance or even-money
        question: the box's first hand, the up card and every other card seen are out)."""
        counts = list(self.shoe_counts(rnd))
        q = rnd.question
        for c in (*rnd.boxes[q.box].hands[q.hand].cards, rnd.upcard):
            counts[c.value - 1] = max(counts[c.value - 1] - 1, 0)
        need = 9 if rnd.upcard.value == 1 else 0  # under an ace a ten, under a ten an ace
        return counts[need] / sum(counts) if sum(counts) else 0.0

    def insurance_return(self, rnd: Any) -> float:
        """The return of each unit insured (2:1 on a dealer blackjack), per unit insured."""
        return 3.0 * self.blackjack_chance(rnd) - 1.0

    def blackjack_return(self, rnd: Any) -> float:
        """What a blackjack facing the up card returns per unit of its bet when it declines
        even money: the blackjack payout unless the dealer has one too."""
        return float(self.rules.blackjack_pays) * (1.0 - self.blackjack_chance(rnd))

    def hint(self, rnd: Any) -> str:
        """A line for the player: the chart's move and the return of each action."""
        move = self.move(rnd)
        evs = self.returns(rnd)
        if not evs:
            return f"Hint: {move}"
        parts = ", ".join(f"{k} {v:+.3f}" for k, v in sorted(evs.items(), key=lambda kv: -kv[1]))
        return f"Hint: the chart says {move} (returns per unit bet: {parts})"
