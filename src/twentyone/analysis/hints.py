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

from dataclasses import dataclass
from typing import Any

from twentyone.engine.cards import Card
from twentyone.engine.errors import CardError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import decide


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


@dataclass(frozen=True, slots=True)
class HandQuestion:
    """What the exact answer to a round's question depends on, taken out of the round (so
    that it can be worked out elsewhere, e.g. in a worker thread, while the round goes on):
    the question's ``kind`` and ``actions``, the hand (``cards``; for an insurance or even-money
    question the box's first hand), the dealer's ``upcard``, how many hands the box has
    (``split_hands``) and the shoe as the player knows it before the hand and the up card
    (:func:`known_shoe`; ``None``: the rules' full shoe)."""

    kind: str
    actions: tuple[str, ...]
    cards: tuple[Card, ...]
    upcard: Card
    split_hands: int
    shoe: tuple[int, ...] | None
    free: bool = False  # the hand's stake is the house's (a free split made it)

    @property
    def key(self) -> tuple[Any, ...]:
        """What the answer depends on, suits left out (a cache key)."""
        return (
            self.kind,
            self.actions,
            tuple(c.value for c in self.cards),
            self.upcard.value,
            self.split_hands,
            self.shoe,
            self.free,
        )


def hand_question(rules: Rules, rnd: Any, dealt: tuple[Card, ...] | None) -> HandQuestion | None:
    """The round's question as a :class:`HandQuestion` (``dealt`` as in :func:`seen_cards`),
    or ``None`` when nothing is asked.

    >>> from twentyone import BoxBet, Round, StackedShoe, load_rules
    >>> rules = load_rules("6D S17 DAS SPL3 NS")
    >>> rnd = Round(rules, StackedShoe("TS TH 6D 7C"), [BoxBet("ann", 1000)])
    >>> hq = hand_question(rules, rnd, None)
    >>> hq.kind, [str(c) for c in hq.cards], str(hq.upcard), sum(hq.shoe)
    ('play', ['TS', '6D'], 'TH', 312)
    """
    from twentyone.analysis.context import MIN_CARDS

    q = rnd.question
    if q is None:
        return None
    box = rnd.boxes[q.box]
    shoe: tuple[int, ...] | None = known_shoe(rules, rnd, dealt)
    if shoe is not None and sum(shoe) < MIN_CARDS:
        shoe = None  # too few cards known left to deal from: the full shoe instead
    return HandQuestion(
        kind=q.kind,
        actions=tuple(q.actions),
        cards=tuple(box.hands[q.hand].cards),
        upcard=rnd.upcard,
        split_hands=len(box.hands),
        shoe=shoe,
        free=box.hands[q.hand].bet == 0 and box.hands[q.hand].free > 0,
    )


def question_returns(rules: Rules, hq: HandQuestion, *, boxes: int = 1) -> dict[str, float]:
    """Exact return of each action open to a play or surrender question, per unit of the
    hand's bet (``{}`` for other questions)."""
    from twentyone.analysis import action_evs

    if hq.kind not in ("play", "surrender"):
        return {}
    try:
        evs = action_evs(
            rules,
            hq.cards,
            hq.upcard,
            boxes=boxes,
            split_hands=hq.split_hands,
            shoe=hq.shoe,
            free=hq.free,
        )
    except CardError:  # a reshuffle in the round: the cards seen no longer add up
        evs = action_evs(
            rules, hq.cards, hq.upcard, boxes=boxes, split_hands=hq.split_hands, free=hq.free
        )
    if hq.kind == "surrender":
        keep = max((v for k, v in evs.items() if k != "surrender"), default=0.0)
        return {"surrender": evs.get("surrender", -0.5), "no-surrender": keep}
    return {k: v for k, v in evs.items() if k in {a.split(":")[0] for a in hq.actions}}


def blackjack_chance(rules: Rules, hq: HandQuestion) -> float:
    """The chance that the dealer's hidden (or next) card makes a blackjack under the up
    card, over the shoe the player knows less the hand and the up card."""
    from twentyone.analysis.context import full_shoe

    counts = list(hq.shoe if hq.shoe is not None else full_shoe(rules))
    for c in (*hq.cards, hq.upcard):
        counts[c.value - 1] = max(counts[c.value - 1] - 1, 0)
    need = 9 if hq.upcard.value == 1 else 0  # under an ace a ten, under a ten an ace
    return counts[need] / sum(counts) if sum(counts) else 0.0


def best_play(rules: Rules, hq: HandQuestion, *, boxes: int = 1) -> str | None:
    """The exact best answer to the question, spelled as one of its actions: the highest
    return for a play or surrender question; insurance (the whole half bet) or even money
    where it returns more than declining, over the cards known left.
    ``None`` where no such answer is open.

    >>> from twentyone import BoxBet, Round, StackedShoe, load_rules
    >>> rules = load_rules("6D S17 DAS SPL3 NS")
    >>> rnd = Round(rules, StackedShoe("TS TH 6D 7C"), [BoxBet("ann", 1000)])
    >>> best_play(rules, hand_question(rules, rnd, None))
    'hit'
    """
    if hq.kind in ("insurance", "even-money"):
        p = blackjack_chance(rules, hq)
        if hq.kind == "insurance":
            take = 3 * p - 1 > 0  # insurance pays 2:1
        else:  # even money, against the blackjack's payout unless the dealer has one too
            take = float(rules.blackjack_pays) * (1 - p) < 1
        yes = "insure" if hq.kind == "insurance" else "even-money"
        no = "no-insurance" if hq.kind == "insurance" else "no-even-money"
        pick = yes if take else no  # (only an amount to insure open: no answer here)
        return pick if pick in hq.actions else None
    evs = question_returns(rules, hq, boxes=boxes)
    if not evs:
        return None
    best = max(evs, key=lambda k: evs[k])
    return next((a for a in hq.actions if a.split(":")[0] == best), None)


class Advisor:
    """Hints for one rule set (the chart is derived once, on first use). ``shoe``: the
    table's shoe; where it tells the cards dealt since the shuffle (a cut-card
    :class:`~twentyone.engine.shoe.Shoe`), the returns are over the cards really left."""

    def __init__(self, rules: Rules, *, boxes: int = 1, shoe: Any = None) -> None:
        from twentyone.analysis import basic_strategy
        from twentyone.analysis.switch_chart import with_switch

        self.rules = rules
        self.boxes = boxes
        # (at a switch table the chart answers the pair's switch by the hands' returns)
        self.chart = with_switch(basic_strategy(rules, boxes=boxes), rules, boxes)
        self.shoe = shoe if rules.shuffle == "cut-card" and hasattr(shoe, "dealt") else None

    def shoe_counts(self, rnd: Any) -> tuple[int, ...]:
        """The shoe the hand in play and the up card were dealt from, as the player knows it
        (see :func:`known_shoe`)."""
        return known_shoe(self.rules, rnd, self.shoe.dealt() if self.shoe is not None else None)

    def move(self, rnd: Any) -> str:
        """The chart's answer to the round's current question, in replay spelling."""
        return decide(self.chart, rnd)

    def question(self, rnd: Any) -> HandQuestion | None:
        """The round's question with the shoe as the player knows it (:func:`hand_question`)."""
        return hand_question(self.rules, rnd, self.shoe.dealt() if self.shoe is not None else None)

    def returns(self, rnd: Any) -> dict[str, float]:
        """Exact return of each action open to the hand in play, per unit of its bet."""
        q = rnd.question
        if q is None or q.kind not in ("play", "surrender"):
            return {}
        hq = self.question(rnd)
        assert hq is not None
        return question_returns(self.rules, hq, boxes=self.boxes)

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
        hq = self.question(rnd)
        assert hq is not None
        return blackjack_chance(self.rules, hq)

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
