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

At a table whose dealer shows both cards (Double Exposure, ``Rules.hole_card_up``) a chart may
instead have a column per dealer two-card total (:data:`DEALER_TOTALS`: hard 4 to 20, soft
``A,A`` to ``A,9``; a dealer blackjack ends the round before play); :func:`decide` then reads
the column of the dealer's two cards.

At a switch table (``Rules.switch``) a chart may carry ``switch_returns``, each two-card
hand's return against each up card (as dealt and as made by a switch): :func:`decide` then
answers a pair's switch question by them (:func:`switch_decision`); a chart without them keeps.

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
#: The columns of a chart by the dealer's two-card total (both dealer cards face up): hard 4 to
#: 20, then soft 12 to 20 as ``A,A`` to ``A,9`` (the columns of
#: :mod:`twentyone.analysis.exposed_chart`).
DEALER_TOTALS = (
    *(str(t) for t in range(4, 21)),
    *(f"A,{'A' if v == 1 else v}" for v in range(1, 10)),
)


def upcard_key(card: Card) -> str:
    """``'2'``-``'9'``, ``'T'`` for any ten-value card, ``'A'``."""
    return "A" if card.is_ace else "T" if card.is_ten else card.rank


def dealer_total_key(first: Card, second: Card) -> str:
    """The :data:`DEALER_TOTALS` column of the dealer's two cards (not a blackjack).

    >>> dealer_total_key(Card.parse("TS"), Card.parse("6H"))
    '16'
    >>> dealer_total_key(Card.parse("7D"), Card.parse("AC"))
    'A,7'
    """
    if first.is_ace or second.is_ace:
        other = second if first.is_ace else first
        return f"A,{'A' if other.is_ace else other.value}"
    return str(first.value + second.value)


@dataclass(frozen=True, kw_only=True)
class Strategy:
    """A chart: ``hard[total]``, ``soft[total]``, ``pairs[value]`` each a tuple of codes, one
    per column of ``columns``: the up cards (:data:`UPCARDS`), or the dealer's two-card totals
    (:data:`DEALER_TOTALS`, a table whose dealer shows both cards)."""

    name: str = "chart"
    hard: Mapping[int, tuple[str, ...]]
    soft: Mapping[int, tuple[str, ...]]
    pairs: Mapping[int, tuple[str, ...]]
    notes: tuple[str, ...] = field(default=())
    columns: tuple[str, ...] = UPCARDS
    #: At a switch table: ``switch_returns[up][(a, b)]``, the return of the first hand of card
    #: values ``a <= b`` (ace 1) against the up card ``up`` (an :data:`UPCARDS` key), as dealt
    #: and as made by a switch (a two-card 21 a switch makes is a plain 21), per unit bet.
    switch_returns: Mapping[str, Mapping[tuple[int, int], tuple[float, float]]] | None = field(
        default=None, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        if self.columns not in (UPCARDS, DEALER_TOTALS):
            raise TwentyOneError(
                "strategy-upcards",
                upcards=list(self.columns),
                expected=f"{list(UPCARDS)} / {list(DEALER_TOTALS)}",
            )
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
                if len(row) != len(self.columns) or any(c not in CODES for c in row):
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

    @property
    def by_dealer_total(self) -> bool:
        """Whether the columns are the dealer's two-card totals (:data:`DEALER_TOTALS`)."""
        return self.columns == DEALER_TOTALS

    def code(self, *, total: int, soft: bool, up: str) -> str:
        """The chart's code for a total against an up card (a :data:`DEALER_TOTALS` key for a
        chart by dealer total)."""
        col = self.columns.index(up)
        if soft:
            return self.soft[max(total, 12)][col]
        return self.hard[max(total, 4)][col]

    def pair_code(self, value: int, up: str) -> str:
        return self.pairs[value][self.columns.index(up)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"name", "upcards", "hard": {"16": [...]}, "soft", "pairs"}`` (a chart
        by dealer total has ``"columns"``, its :data:`DEALER_TOTALS`, for ``"upcards"``)."""
        head = "columns" if self.by_dealer_total else "upcards"
        return {
            "name": self.name,
            head: list(self.columns),
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
    if q.kind == "switch":
        return switch_decision(strategy, rnd)
    box = rnd.boxes[q.box]
    hand = box.hands[q.hand]
    up = column_key(strategy, rnd)
    code = hand_code(strategy, hand.cards, up, pair_allowed=True)
    if q.kind == "surrender":
        return "surrender" if code.startswith("R") else "no-surrender"
    actions = q.actions
    if "split" in actions and code in ("P", "Rp"):
        return "surrender" if code == "Rp" and "surrender" in actions else "split"
    if code in ("P", "Rp"):
        code = hand_code(strategy, hand.cards, up, pair_allowed=False)
    return resolve(code, actions)


def switch_decision(strategy: Strategy, rnd: Any) -> str:
    """A switch pair's answer (``rnd.question`` of kind ``switch``): ``switch`` where the two
    hands a switch makes return more together than the two dealt, by the chart's
    ``switch_returns`` (a tie keeps); ``keep`` for a chart without them.

    >>> from dataclasses import replace
    >>> from twentyone import BoxBet, StackedShoe, load_rules
    >>> from twentyone.engine.round import Round
    >>> rnd = Round(load_rules("switch"), StackedShoe("TS 5D TH 6C TC 9H"),
    ...             [BoxBet("a", 100), BoxBet("a", 100)])  # T-6 and 5-T against a ten
    >>> returns = {(10, 10): (0.5, 0.5), (5, 6): (0.2, 0.2), (6, 10): (-0.5, -0.5),
    ...            (5, 10): (-0.5, -0.5)}
    >>> chart = Strategy.uniform("H")
    >>> switch_decision(chart, rnd), switch_decision(replace(chart,
    ...     switch_returns={"T": returns}), rnd)
    ('keep', 'switch')
    """
    q = rnd.question
    table = strategy.switch_returns
    if table is None or q.partner is None:
        return "keep"
    column = table[upcard_key(rnd.upcard)]
    a, b = (c.value for c in rnd.boxes[q.box].hands[0].cards[:2])
    c, d = (c.value for c in rnd.boxes[q.partner].hands[0].cards[:2])

    def value(x: int, y: int, made: int) -> float:
        return column[(min(x, y), max(x, y))][made]

    keep = value(a, b, 0) + value(c, d, 0)
    return "switch" if value(a, d, 1) + value(c, b, 1) > keep else "keep"


def column_key(strategy: Strategy, rnd: Any) -> str:
    """The chart column a round's questions read: the up card's, or for a chart by dealer
    total the dealer's two face-up cards' total (refused where the hole card is not seen)."""
    if not strategy.by_dealer_total:
        return upcard_key(rnd.upcard)
    if not (rnd.hole_revealed and len(rnd.dealer) >= 2):
        raise TwentyOneError("strategy-dealer-total", table=rnd.rules.name)
    return dealer_total_key(rnd.dealer[0], rnd.dealer[1])


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
