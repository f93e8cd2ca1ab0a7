"""A balanced count's line of expected shoes: the shoe a counter sees at each true count,
the range of true counts an index is searched in, and the decks left the search assumes.

The index generator (:mod:`~twentyone.counting.index_gen`) and its risk-averse variant
(:mod:`~twentyone.counting.risk_averse`) both stand on it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from twentyone.counting.eor import TAGS
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules

PER_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
RANK_CHARS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)  # 2..9, T, A
#: True counts searched for an index (an index outside means "always" or "never" here).
TC_RANGE = 10
#: The lattice reaches a little beyond the range so the cubic has samples on both sides.
MARGIN = 2.0


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def balanced_systems() -> list[str]:
    """The built-in balanced counts (the ones with a true count).

    >>> balanced_systems()[:2]
    ['Hi-Lo', 'Hi-Opt I']
    """
    return [n for n, t in TAGS.items() if sum(c * x for c, x in zip(PER_DECK, t, strict=True)) == 0]


def count_tags(count: str) -> tuple[str, tuple[Fraction, ...]]:
    """The name and tags (A, 2..9, T) of a balanced count written ``hilo``, ``Hi-Lo``, ...

    >>> count_tags("hilo")[0], [int(t) for t in count_tags("HI-LO")[1]][:3]
    ('Hi-Lo', [-1, 1, 1])
    """
    names = balanced_systems()
    for name in names:
        if _key(name) == _key(count):
            return name, tuple(Fraction(x).limit_denominator(8) for x in TAGS[name])
    raise RulesError("not-one-of", field="count", value=count, choices=", ".join(names))


@dataclass(frozen=True)
class CountLine:
    """The whole-card shoes on the line of expected compositions: ``shoe(k)`` is the shoe at
    true count ``k * tc_step`` (``base``: the neutral shoe of ``decks_left`` decks; ``step``:
    the cards of each rank it gains per step)."""

    system: str
    tags: tuple[Fraction, ...]
    decks_left: Fraction
    base: tuple[int, ...]
    step: tuple[int, ...]
    tc_step: float
    spread: Fraction  # S: the sum of the squared tags over a deck

    def shoe(self, k: int) -> tuple[int, ...]:
        """The shoe ``k`` steps from neutral."""
        return tuple(b + k * s for b, s in zip(self.base, self.step, strict=True))

    def composition(self, tc: float) -> tuple[float, ...]:
        """The expected composition at any true count (cards need not be whole).

        >>> round(count_line("hilo", decks_left=Fraction(15, 4)).composition(1.0)[1], 3)
        14.625
        """
        return tuple(
            b * (1.0 - float(t) * tc / float(self.spread))
            for b, t in zip(self.base, self.tags, strict=True)
        )

    def steps(self, lo: float, hi: float, least: int = 6) -> list[int]:
        """The steps whose true counts cover ``lo``..``hi`` (one step beyond each end), each
        shoe holding at least ``least`` cards of every rank it has."""
        a = math.floor(lo / self.tc_step) - 1
        b = math.ceil(hi / self.tc_step) + 1
        out = []
        for k in range(a, b + 1):
            s = self.shoe(k)
            if all(x >= least or (b0 == 0) for x, b0 in zip(s, self.base, strict=True)):
                out.append(k)
        return out


def count_line(count: str, decks_left: Fraction) -> CountLine:
    """The :class:`CountLine` of a balanced count for a shoe with ``decks_left`` decks
    (rounded to quarter decks: 13 cards)."""
    name, tags = count_tags(count)
    m = max(1, round(decks_left * 4))
    base = tuple(c * m // 4 for c in PER_DECK)
    ct = [c * t for c, t in zip(PER_DECK, tags, strict=True)]
    scale = math.lcm(*(x.denominator for x in ct))
    ints = [int(x * scale) for x in ct]
    g = math.gcd(*ints)
    step = tuple(-x // g for x in ints)
    spread = sum((c * t * t for c, t in zip(PER_DECK, tags, strict=True)), Fraction(0))
    tc_step = float(Fraction(scale, g) * 4 * spread / m)
    return CountLine(name, tags, Fraction(m, 4), base, step, tc_step, spread)


def default_decks_left(rules: Rules) -> Fraction:
    """Decks left at the middle of the dealt part of the shoe: ``decks * (1 - pen / 2)``
    (the rules' cut card; a continuous shuffler's shoe taken as cut at 3/4).

    >>> from twentyone import load_rules
    >>> default_decks_left(load_rules("ru-online")), default_decks_left(load_rules("ro-casino"))
    (Fraction(4, 1), Fraction(15, 4))
    """
    pen = rules.penetration if rules.shuffle == "cut-card" else Fraction(3, 4)
    return rules.decks * (1 - pen / 2)
