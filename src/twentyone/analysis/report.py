"""The result of an exact analysis.

>>> r = EdgeReport(rules="x", ev_basic=-0.005, ev_optimal=-0.004, by_upcard={},
...                dealer_totals={}, sd=None, side_bets={}, split_method="CDZ-", seconds=0.1)
>>> sorted(r.to_json())[:5]
['boxes', 'by_upcard', 'dealer_totals', 'ev_basic', 'ev_optimal']
>>> r.house_edge_percent
0.5
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class EdgeReport:
    """Returns per initial bet (``-0.0046`` is a house edge of 0.46%).

    - ``ev_basic``: the total-dependent basic strategy (the chart of
      :func:`twentyone.analysis.basic_strategy`), ``ev_optimal``: composition-dependent play.
    - ``by_upcard[up]``: ``probability``, ``ev_basic``, ``ev_optimal`` (up in 2..9, T, A).
    - ``dealer_totals[up]``: the dealer's final ``17``..``21``, ``bust``, ``blackjack``
      probabilities from the fresh shoe less the up card (where a dealer's 22 pushes, a ``22``
      as well, and ``bust`` is 23 or more).
    - ``sd``: standard deviation of one round's result under basic strategy: ``sd_basic``
      where the distributions are computed (exact), else exact for rounds without a split and
      a split's hands taken independent given the dealer's outcome; ``None`` where it is not
      computed.
    - ``side_bets``: ``insurance`` and ``even_money`` (return per unit insured, per up card
      offered), ``blackjack_vs_ace`` (per unit of a blackjack's bet facing an ace: even money,
      declining, insuring half, and the return per unit of its insurance), and each of the
      table's side bets by its id: ``kind``, ``paytable``, ``return`` per unit staked and
      ``lines`` (each paytable line's probability of being the one paid); the 6-7-8 / 7-7-7
      bonus has ``return`` ``None``: it is inside the main return.
    - ``shoe``: the counts of A, 2..9, ten-value the round is dealt from.
    - ``outcomes_optimal`` / ``outcomes_basic``: ``{net: probability}`` of one round's net in
      initial bets (blackjack 1.5, surrender -0.5, doubled splits up to -8 .. +8), and
      ``sd_optimal`` / ``sd_basic`` from them (see :mod:`twentyone.analysis.outcomes`).
    """

    rules: str
    ev_basic: float
    ev_optimal: float
    by_upcard: dict[str, dict[str, float]]
    dealer_totals: dict[str, dict[str, float]]
    sd: float | None
    side_bets: dict[str, Any]
    split_method: str
    seconds: float
    boxes: int = 1
    notes: tuple[str, ...] = field(default=())
    shoe: tuple[int, ...] = ()
    outcomes_optimal: dict[float, float] | None = None
    outcomes_basic: dict[float, float] | None = None

    @property
    def sd_optimal(self) -> float | None:
        """Standard deviation of one round's net under the optimum, from its distribution."""
        return None if self.outcomes_optimal is None else dist_sd(self.outcomes_optimal)

    @property
    def sd_basic(self) -> float | None:
        """Standard deviation of one round's net under basic strategy, from its distribution."""
        return None if self.outcomes_basic is None else dist_sd(self.outcomes_basic)

    @property
    def house_edge_percent(self) -> float:
        """The basic strategy's house edge in percent."""
        return round(-100.0 * self.ev_basic, 10)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` shape: rules, ev_basic, ev_optimal, by_upcard, side_bets, seconds and
        the extra keys dealer_totals, sd, split_method, boxes, notes, shoe (the counts of A,
        2..9, ten-value dealt from), outcomes_optimal / outcomes_basic (``[net, probability]``
        lists) and sd_optimal / sd_basic."""
        return {
            "rules": self.rules,
            "ev_basic": self.ev_basic,
            "ev_optimal": self.ev_optimal,
            "by_upcard": self.by_upcard,
            "side_bets": self.side_bets,
            "seconds": self.seconds,
            "dealer_totals": self.dealer_totals,
            "sd": self.sd,
            "split_method": self.split_method,
            "boxes": self.boxes,
            "notes": list(self.notes),
            "shoe": list(self.shoe),
            "outcomes_optimal": _pairs(self.outcomes_optimal),
            "outcomes_basic": _pairs(self.outcomes_basic),
            "sd_optimal": self.sd_optimal,
            "sd_basic": self.sd_basic,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EdgeReport:
        """The report whose :meth:`to_json` is ``data`` (the ``--json`` shape read back).

        >>> r = EdgeReport(rules="x", ev_basic=-0.005, ev_optimal=-0.004, by_upcard={},
        ...                dealer_totals={}, sd=1.1, side_bets={}, split_method="CDZ-",
        ...                seconds=0.1, notes=("a",), shoe=(4,) * 9 + (16,),
        ...                outcomes_basic={-1.0: 0.5, 1.0: 0.5})
        >>> EdgeReport.from_json(r.to_json()) == r
        True
        """
        return cls(
            rules=data["rules"],
            ev_basic=data["ev_basic"],
            ev_optimal=data["ev_optimal"],
            by_upcard=data["by_upcard"],
            dealer_totals=data["dealer_totals"],
            sd=data["sd"],
            side_bets=data["side_bets"],
            split_method=data["split_method"],
            seconds=data["seconds"],
            boxes=data["boxes"],
            notes=tuple(data["notes"]),
            shoe=tuple(data["shoe"]),
            outcomes_optimal=_dist(data["outcomes_optimal"]),
            outcomes_basic=_dist(data["outcomes_basic"]),
        )


def _dist(pairs: list[list[float]] | None) -> dict[float, float] | None:
    return None if pairs is None else {float(net): p for net, p in pairs}


def _pairs(dist: dict[float, float] | None) -> list[list[float]] | None:
    return None if dist is None else [[net, p] for net, p in dist.items()]


def dist_sd(dist: dict[float, float]) -> float:
    """The standard deviation of a ``{net: probability}`` distribution."""
    mean = sum(x * p for x, p in dist.items())
    return math.sqrt(max(sum(x * x * p for x, p in dist.items()) - mean * mean, 0.0))
