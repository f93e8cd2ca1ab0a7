"""A basic-strategy chart and how it answers a round's questions.

A chart has three tables, each a row of codes per dealer up card ``2 3 4 5 6 7 8 9 T A``:
``hard`` totals (4-21), ``soft`` totals (12-21) and ``pairs`` (by card value, ace = 1).
Codes are those casinos print:

========  ====================================================
``H``     hit
``S``     stand
``Dh``    double if allowed, otherwise hit
``Ds``    double if allowed, otherwise stand
``P``     split
``Rh``    surrender if allowed, otherwise hit
``Rs``    surrender if allowed, otherwise stand
``Rp``    surrender if allowed, otherwise split
========  ====================================================

A pair whose code is not a split (``P``/``Rp``) is played by its total. Basic strategy never
takes insurance or even money.

>>> chart = Strategy.uniform("H")
>>> chart.code(total=16, soft=False, up="T")
'H'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from twentyone.engine.cards import Card
from twentyone.engine.errors import TwentyOneError

UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
CODES = ("H", "S", "Dh", "Ds", "P", "Rh", "Rs", "Rp")
HARD_TOTALS = tuple(range(4, 22))
SOFT_TOTALS = tuple(range(12, 22))
PAIR_VALUES = tuple(range(1, 11))


def upcard_key(card: Card) -> str:
    """``'2'``-``'9'``, ``'T'`` for any ten-value card, ``'A'``."""
    return "A" if card.is_ace else "T" if card.is_ten else card.rank


@dataclass(frozen=True, kw_only=True)
class Strategy:
    """A chart: ``hard[total]``, ``soft[total]``, ``pairs[value]`` each a tuple of 10 codes
    (one per up card in :data:`UPCARDS`)."""

    name: str = "chart"
    hard: Mapping[int, tuple[str, ...]]
    soft: Mapping[int, tuple[str, ...]]
    pairs: Mapping[int, tuple[str, ...]]
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        for table, keys in (
            ("hard", HARD_TOTALS),
            ("soft", SOFT_TOTALS),
            ("pairs", PAIR_VALUES),
        ):
            rows = getattr(self, table)
            missing = [k for k in keys if k not in rows]
            if missing:
                raise TwentyOneError("strategy-rows-missing", table=table, rows=missing)
            for k, row in rows.items():
                if len(row) != len(UPCARDS) or any(c not in CODES for c in row):
                    raise TwentyOneError(
                        "strategy-bad-row", table=table, row=k, codes=row, known=", ".join(CODES)
                    )

    @classmethod
    def uniform(cls, code: str, pair_code: str = "H") -> Strategy:
        """A chart with one code everywhere (pairs played by total unless ``pair_code``)."""
        row, prow = (code,) * 10, (pair_code,) * 10
        return cls(
            name=f"uniform {code}",
            hard=dict.fromkeys(HARD_TOTALS, row),
            soft=dict.fromkeys(SOFT_TOTALS, row),
            pairs=dict.fromkeys(PAIR_VALUES, prow),
        )

    def code(self, *, total: int, soft: bool, up: str) -> str:
        """The chart's code for a total against an up card."""
        col = UPCARDS.index(up)
        if soft:
            return self.soft[max(total, 12)][col]
        return self.hard[max(total, 4)][col]

    def pair_code(self, value: int, up: str) -> str:
        return self.pairs[value][UPCARDS.index(up)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"name", "upcards", "hard": {"16": [...]}, "soft", "pairs"}``."""
        return {
            "name": self.name,
            "upcards": list(UPCARDS),
            "hard": {str(k): list(v) for k, v in sorted(self.hard.items())},
            "soft": {str(k): list(v) for k, v in sorted(self.soft.items())},
            "pairs": {("A" if k == 1 else str(k)): list(v) for k, v in sorted(self.pairs.items())},
            "notes": list(self.notes),
        }


#: What each code prefers, in order, among the actions a hand has.
PREFERENCES: dict[str, tuple[str, ...]] = {
    "H": ("hit", "stand"),
    "S": ("stand", "hit"),
    "Dh": ("double", "hit", "stand"),
    "Ds": ("double", "stand", "hit"),
    "P": ("split", "hit", "stand"),
    "Rh": ("surrender", "hit", "stand"),
    "Rs": ("surrender", "stand", "hit"),
    "Rp": ("surrender", "split", "hit", "stand"),
}


def resolve(code: str, actions: tuple[str, ...]) -> str:
    """Turn a chart code into one of the legal ``actions``.

    >>> resolve("Dh", ("hit", "stand")), resolve("Ds", ("hit", "stand", "double"))
    ('hit', 'double')
    >>> resolve("Rs", ("hit", "stand")), resolve("S", ("hit", "double"))
    ('stand', 'hit')
    """
    for w in PREFERENCES[code]:
        if w in actions:
            return w
    return actions[0]


def decide(strategy: Strategy, rnd: Any) -> str:
    """The chart's answer to ``rnd.question`` (a :class:`~twentyone.engine.round.Round`), in replay
    spelling. Insurance and even money are declined; a surrender asked before play (ro.11)
    is taken where the chart says ``R``."""
    q = rnd.question
    if q is None:
        raise TwentyOneError("nothing-asked")
    if q.kind == "insurance":
        return "no-insurance"
    if q.kind == "even-money":
        return "no-even-money"
    box = rnd.boxes[q.box]
    hand = box.hands[q.hand]
    up = upcard_key(rnd.upcard)
    code = hand_code(strategy, hand.cards, up, pair_allowed=True)
    if q.kind == "surrender":
        return "surrender" if code.startswith("R") else "no-surrender"
    actions = q.actions
    if "split" in actions and code in ("P", "Rp"):
        return "surrender" if code == "Rp" and "surrender" in actions else "split"
    if code in ("P", "Rp"):
        code = hand_code(strategy, hand.cards, up, pair_allowed=False)
    return resolve(code, actions)


def hand_code(strategy: Strategy, cards: list[Card], up: str, *, pair_allowed: bool) -> str:
    """The chart code for a hand: the pair row for two equal-value cards (when a split is
    still possible), otherwise the soft or hard row of its total."""
    from twentyone.engine.cards import hand_total

    if pair_allowed and len(cards) == 2 and cards[0].value == cards[1].value:
        code = strategy.pair_code(cards[0].value, up)
        if code in ("P", "Rp"):
            return code
    t = hand_total(cards)
    return strategy.code(total=t.total, soft=t.soft, up=up)
