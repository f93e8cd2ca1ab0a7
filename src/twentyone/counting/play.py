"""A counter's answers to the engine's questions: the chart, overridden by index plays at the
true count (the reference the counting kernel is checked against, round by round).

The order is the kernel's (:func:`twentyone.sim.count_play.index_act`): where the rules let the
hand surrender, its surrender entry (a pair's first, then its total's) decides; then, where it
may split, the pair's entry (or the chart) decides the split; then the total's entry, else the
surrender entry's other side, else the chart, picks the play among the actions left.
Insurance is taken at the insurance entry's index against that up card (ru.5: a ten too), and a
blackjack facing an ace takes even money at the same index.

>>> from twentyone.counting.index_set import load_indices
>>> book = IndexBook(load_indices("I18+FAB4"))
>>> book.entry("16", "T", surrender=False).index, book.entry("15", "T", surrender=True).index
(0, 0)
"""

from __future__ import annotations

from typing import Any

from twentyone.counting.index_set import IndexPlay, parse_hand
from twentyone.engine.cards import Card, hand_total
from twentyone.engine.strategy import Strategy, decide, hand_code, resolve, upcard_key

CODE = {"hit": "H", "stand": "S", "double": "Dh", "double-stand": "Ds", "split": "P"}


class IndexBook:
    """Index plays looked up by hand, up card and kind (surrender or play)."""

    def __init__(self, plays: tuple[IndexPlay, ...] | list[IndexPlay]) -> None:
        self._by: dict[tuple[tuple[int, int], str, bool], IndexPlay] = {}
        for p in plays:
            self._by[(parse_hand(p.hand), p.up, p.is_surrender)] = p

    def entry(self, hand: str, up: str, *, surrender: bool) -> IndexPlay | None:
        """The entry for ``hand`` (spelled as in the files) against ``up``."""
        return self._by.get((parse_hand(hand), up, surrender))

    def insurance_index(self, up: str) -> int | None:
        e = self._by.get(((-1, 0), up, False))
        return None if e is None else e.index

    def for_cards(self, cards: list[Card], up: str) -> tuple[IndexPlay | None, ...]:
        """``(pair surrender, pair play, total surrender, total play)`` entries of a hand."""
        pair = None
        if len(cards) == 2 and cards[0].value == cards[1].value:
            r = "A" if cards[0].value == 1 else "T" if cards[0].value == 10 else str(cards[0].value)
            pair = f"{r},{r}"
        t = hand_total(cards)
        total = f"soft {t.total}" if t.soft else str(t.total)
        return (
            self.entry(pair, up, surrender=True) if pair else None,
            self.entry(pair, up, surrender=False) if pair else None,
            self.entry(total, up, surrender=True),
            self.entry(total, up, surrender=False),
        )


def decide_counting(strategy: Strategy, book: IndexBook, rnd: Any, tc: int) -> str:
    """The counter's answer to ``rnd.question`` at true count ``tc`` (replay spelling)."""
    q = rnd.question
    up = upcard_key(rnd.upcard)
    if q.kind in ("insurance", "even-money"):
        at = book.insurance_index(up)
        take = at is not None and tc >= at
        if q.kind == "even-money":
            return "even-money" if take else "no-even-money"
        return "insure" if take and "insure" in q.actions else "no-insurance"
    flat = decide(strategy, rnd)
    cards = rnd.boxes[q.box].hands[q.hand].cards
    e_ps, e_pp, e_ts, e_tp = book.for_cards(cards, up)
    if q.kind == "surrender":
        es = e_ps or e_ts
        if es is None:
            return flat
        return "surrender" if es.play_at(tc) == "surrender" else "no-surrender"
    if e_ps is None and e_pp is None and e_ts is None and e_tp is None:
        return flat
    actions = q.actions
    rest = tuple(a for a in actions if a != "surrender")
    fallback = None
    if "surrender" in actions:
        es = e_ps or e_ts
        if es is not None:
            play = es.play_at(tc)
            if play == "surrender":
                return "surrender"
            fallback = None if play == "no-surrender" else play
        elif flat == "surrender":
            return "surrender"
    if "split" in rest:
        if e_pp is not None:
            play = e_pp.play_at(tc)
            return "split" if play == "split" else resolve(CODE[play], rest)
        if strategy.pair_code(cards[0].value, up) in ("P", "Rp"):
            return "split"
    if e_tp is not None:
        code = CODE[e_tp.play_at(tc)]
    elif fallback is not None:
        code = CODE[fallback]
    else:
        code = hand_code(strategy, cards, up, pair_allowed=False)
    return resolve(code, rest)
