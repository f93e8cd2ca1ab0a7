"""Blackjack Switch's switch chart (``Rules.switch``): the return of each two-card hand against
each up card, by which a pair decides to switch its second cards or keep them.

The returns are :func:`twentyone.analysis.switch.hand_returns` played by the rules' basic chart
(``optimal=False``: what the simulator's switch table holds and ``ev_basic`` prices), per unit
bet, given no dealer blackjack where the dealer peeks under the up card. A pair switches when
the two hands a switch makes return more together than the two dealt (a tie keeps), as
:func:`twentyone.analysis.switch.switches` decides; the chart lays the returns out as
``twentyone strategy`` prints charts (hard, soft and pairs rows, a column per up card), the
hands made by a switch apart only where they differ (an ace and a ten: a blackjack dealt, a
plain 21 made).

>>> from twentyone import load_rules
>>> chart = SwitchChart.of(load_rules("switch"))
>>> row = chart.hard["T,6"]  # 16 of a ten and a six: worse against a ten than against a six
>>> row[UPCARDS.index("T")] < row[UPCARDS.index("6")]
True
>>> chart.switched["A,T"][0] < chart.soft["A,T"][0]  # a 21 made is worth less than a blackjack
True
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, replace

from twentyone.analysis.caches import memo
from twentyone.analysis.context import UPS, up_key
from twentyone.analysis.switch import (
    HandReturns,
    hand_returns,
    pair_returns,
    switch_context,
)
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import UPCARDS, Strategy
from twentyone.i18n import Words

#: ``returns[up][(a, b)]``: a first hand's return (card values ``a <= b``, ace 1) against the up
#: card ``up`` (an :data:`UPCARDS` key), as dealt and as made by a switch.
SwitchReturns = Mapping[str, Mapping[tuple[int, int], tuple[float, float]]]


@memo(8)
def switch_returns(rules: Rules, boxes: int = 1) -> SwitchReturns:
    """Each two-card hand's returns at the switch table ``rules`` (:data:`SwitchReturns`),
    played by the basic chart (:func:`twentyone.analysis.switch.hand_returns`); an up card the
    shoe lacks has no column."""
    ctx = switch_context(rules, boxes)
    fresh = ctx.fresh()
    out: dict[str, dict[tuple[int, int], tuple[float, float]]] = {}
    for u in UPS:
        if fresh[u] == 0:
            continue
        r = hand_returns(ctx, u, False)
        out[up_key(u)] = {(a + 1, b + 1): (r.dealt[(a, b)], r.switched[(a, b)]) for a, b in r.dealt}
    return out


def with_switch(strategy: Strategy, rules: Rules, boxes: int = 1) -> Strategy:
    """``strategy`` with the switch table's returns, so that
    :func:`twentyone.engine.strategy.decide` answers a pair's switch question by them; a chart
    of a table without the switch is returned as it is."""
    if not rules.switch:
        return strategy
    return replace(strategy, switch_returns=switch_returns(rules, boxes))


def _hand(a: int, b: int) -> str:
    """A hand's row label, the higher card first (an ace first): ``T,6``, ``A,7``, ``8,8``."""
    lo, hi = min(a, b), max(a, b)  # a card value less one is its value index (ace 0)
    first, second = (lo, hi) if lo == 1 else (hi, lo)
    return f"{up_key(first - 1)},{up_key(second - 1)}"


#: The rows: hard hands by total (19 down to 5, the higher card first), soft hands, pairs.
HARD_HANDS = tuple(
    (b, a) for t in range(19, 4, -1) for b in range(10, 1, -1) for a in range(2, b) if a + b == t
)
SOFT_HANDS = tuple((1, v) for v in range(10, 1, -1))
PAIR_HANDS = tuple((v, v) for v in (1, *range(10, 1, -1)))


@dataclass(frozen=True)
class SwitchChart:
    """The switch chart of a switch table: ``hard``, ``soft`` and ``pairs`` map a hand's label
    (``T,6``, ``A,7``, ``8,8``) to its returns as dealt, one per :data:`UPCARDS` column
    (``None`` where the shoe lacks the up card); ``switched`` the rows of hands a switch makes
    that return otherwise (``A,T``: a plain 21). ``peek``: whether the dealer peeks (the
    returns against a ten or an ace are then given no dealer blackjack)."""

    name: str
    hard: dict[str, list[float | None]]
    soft: dict[str, list[float | None]]
    pairs: dict[str, list[float | None]]
    switched: dict[str, list[float | None]]
    peek: bool

    @classmethod
    def of(cls, rules: Rules, boxes: int = 1) -> SwitchChart:
        """The chart of ``rules`` (a switch table's) for ``boxes`` boxes."""
        table = switch_returns(rules, boxes)

        def rows(hands: tuple[tuple[int, int], ...], made: int) -> dict[str, list[float | None]]:
            out: dict[str, list[float | None]] = {}
            for a, b in hands:
                key = (min(a, b), max(a, b))
                out[_hand(a, b)] = [table[u][key][made] if u in table else None for u in UPCARDS]
            return out

        switched = rows(SOFT_HANDS[:1], 1)  # the only hand a switch makes worth otherwise
        return cls(
            name=rules.name,
            hard=rows(HARD_HANDS, 0),
            soft=rows(SOFT_HANDS, 0),
            pairs=rows(PAIR_HANDS, 0),
            switched=switched,
            peek=rules.peek,
        )

    def sentences(self, w: Words) -> list[str]:
        """The chart's rule and how to read it, in ``w``'s language."""
        out = [
            w._(
                "Switch when the two hands you would hold after switching are worth more "
                "together than the two you hold: add the returns of each pair of hands in the "
                "column of the dealer's up card; a tie keeps."
            ),
            w._(
                "Each number is a two-card hand's expected return per unit bet against the "
                "dealer's up card, the hand played by the chart above."
            ),
            w._(
                "{row}: an ace and a ten made by a switch, a plain 21 (not a blackjack).",
                row="A,T*",
            ),
        ]
        if self.peek:
            out.append(
                w._(
                    "Against a ten or an ace the returns are given that the dealer has no "
                    "blackjack: the dealer peeks before the pair is asked."
                )
            )
        return out

    def text(self, lang: str = "en") -> str:
        """The chart as fixed-width text in ``lang`` (returns to four decimals)."""
        w = Words(lang)
        lines = [w._("Switch or keep: {name}", name=self.name), ""]
        for sentence in self.sentences(w):
            lines.extend(textwrap.wrap(sentence, 78, subsequent_indent="  "))
        lines.append("")
        tables = (
            (w._p("switch chart", "Hard"), self.hard),
            (w._p("switch chart", "Soft"), self.soft),
            (w._p("switch chart", "Pairs"), self.pairs),
            (w._p("switch chart", "Switched"), {f"{k}*": v for k, v in self.switched.items()}),
        )
        for name, rows in tables:
            lines.append(f"{name:<9}" + "".join(f"{u:>8}" for u in UPCARDS))
            for label, values in rows.items():
                cells = "".join("       -" if v is None else f"{v:>+8.4f}" for v in values)
                lines.append(f"{label:<9}" + cells)
            lines.append("")
        return "\n".join(lines)

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        """JSON-ready: ``{"name", "rule", "notes", "upcards", "hard", "soft", "pairs",
        "switched"}``, each row a hand's label and its returns by up card (full precision)."""
        w = Words(lang)
        rule, *notes = self.sentences(w)
        return {
            "name": self.name,
            "rule": rule,
            "notes": notes,
            "upcards": list(UPCARDS),
            "hard": self.hard,
            "soft": self.soft,
            "pairs": self.pairs,
            "switched": self.switched,
        }

    def to_json(self, lang: str = "en") -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(lang), indent=1) + "\n"


@memo(32)
def _optimal_returns(rules: Rules, boxes: int, up: int) -> HandReturns:
    return hand_returns(switch_context(rules, boxes), up, True)


def pair_choice(
    rules: Rules, up: int, first: tuple[int, int], second: tuple[int, int], boxes: int = 2
) -> tuple[float, float]:
    """The returns of a switch pair's two answers, ``(keep, switch)``: the sums of its two
    hands' returns (each per unit of its box's bet), as dealt and as a switch makes them,
    against the up card of value ``up``; ``first`` and ``second`` are the boxes' card values
    in the order dealt (ace 1). The returns are the optimum's (CDZ-,
    :func:`twentyone.analysis.switch.hand_returns` with ``optimal=True``) over the rules' full
    shoe less the up card and each hand's own cards, given no dealer blackjack where the
    dealer peeks (the question comes after the peek).

    >>> from twentyone import load_rules
    >>> keep, switch = pair_choice(load_rules("switch"), 10, (10, 6), (5, 10))
    >>> keep < 0 < switch  # T-6 and 5-T against a ten: T-T and 5-6 made
    True
    """
    r = _optimal_returns(rules, boxes, up - 1)  # the analysis's value index: ace 0, ten 9
    (a, b), (c, d) = ((x - 1, y - 1) for x, y in (first, second))
    return pair_returns(r, (a, b), (c, d))
