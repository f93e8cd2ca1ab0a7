"""Strategy hints for a player: the chart's move and what a deviation from it costs.

The chart is the rules' basic strategy and the costs are exact composition-dependent returns
(:mod:`twentyone.analysis`), per unit of the hand's bet, over the fresh shoe less the cards in
sight (the player's hand and the dealer's up card).

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

from twentyone.rules import Rules
from twentyone.strategy import decide


class Advisor:
    """Hints for one rule set (the chart is derived once, on first use)."""

    def __init__(self, rules: Rules, *, boxes: int = 1) -> None:
        from twentyone.analysis import basic_strategy

        self.rules = rules
        self.boxes = boxes
        self.chart = basic_strategy(rules, boxes=boxes)

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

    def hint(self, rnd: Any) -> str:
        """A line for the player: the chart's move and the return of each action."""
        move = self.move(rnd)
        evs = self.returns(rnd)
        if not evs:
            return f"Hint: {move}"
        parts = ", ".join(f"{k} {v:+.3f}" for k, v in sorted(evs.items(), key=lambda kv: -kv[1]))
        return f"Hint: the chart says {move} (returns per unit bet: {parts})"
