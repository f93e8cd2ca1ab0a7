"""Index plays from the exact analysis of the shoe a counter sees at each true count.

For a balanced count with tags ``t`` (per rank A, 2..9, T) and a shoe with ``D`` decks left,
the shoe at true count ``tc`` is the *expected* composition of the unseen cards given the
running count ``tc * D``: each rank's share moves in proportion to its tag times its share,

    n_r(tc) = n_r(0) * (1 - t_r * tc / S),   S = sum over a deck's 52 cards of t^2

(for Hi-Lo S = 40: at +1 every low card is 2.5 % scarcer and every ten and ace 2.5 % more
plentiful). This is the conditional mean of a multivariate (hyper)geometric sample given a
linear statistic, and it is the "remove cards in proportion to their tags" shoe of the
literature. The analysis deals from whole cards, so the shoes are evaluated where that line
crosses whole compositions (every ``tc_step`` true counts, :class:`CountLine`) and each
decision's difference of returns is interpolated between them (a cubic through the four
nearest samples) to find where it changes sign.

>>> line = count_line("hilo", decks_left=Fraction(15, 4))
>>> line.step, round(line.tc_step, 4)
((1, -1, -1, -1, -1, -1, 0, 0, 0, 4), 2.6667)
>>> line.shoe(0), line.shoe(1)[:3]
((15, 15, 15, 15, 15, 15, 15, 15, 15, 60), (16, 14, 14))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from twentyone.analysis.action_moments import action_second_moments
from twentyone.analysis.actions import action_evs
from twentyone.counting.count_line import (
    MARGIN,
    RANK_CHARS,
    TC_RANGE,
    UP_ORDER,
    CountLine,
    count_line,
    default_decks_left,
)
from twentyone.counting.index_hands import ANY, M2, multi_card_sums
from twentyone.engine.cards import Card
from twentyone.engine.rules import Rules

# -- the decisions ------------------------------------------------------------------------


def _card(v: int, suit: str) -> Card:
    return Card.parse(RANK_CHARS[v] + suit)


def hand_name(a: int, b: int) -> str:
    """How an index names a two-card hand: pairs ``"8,8"``, soft totals ``"soft 18"``, hard
    totals ``"16"`` (the names of :mod:`twentyone.counting.index_set`).

    >>> hand_name(7, 7), hand_name(0, 6), hand_name(9, 5)
    ('8,8', 'soft 18', '16')
    """
    if a == b:
        return f"{RANK_CHARS[a]},{RANK_CHARS[b]}"
    if a == 0 or b == 0:
        return f"soft {a + b + 12}"
    return str(a + b + 2)


Returns = dict[str, dict[str, float]]  # decision key -> play -> return


def shoe_returns(
    rules: Rules,
    shoe: Sequence[int],
    up: int,
    hands: frozenset[str] | None = None,
    moments: bool = False,
) -> tuple[Returns, dict[str, float]]:
    """Per hand name (two-card hands of one total averaged, weighted by their chance from
    ``shoe`` less the up card), the exact return of each legal action against ``up``; also
    ``"insurance"`` where the rules offer it (a blackjack's even money is taken at the
    insurance index: it is the same bet on the same ten or ace). A total's stand and hit
    returns over every hand that reaches it are added as ``"any:stand"`` and ``"any:hit"``
    (:mod:`twentyone.counting.index_hands`). With ``moments``, each play's second moment
    ``E[X^2]`` as ``"m2:<play>"`` beside its return (``"any:m2:<play>"``).
    Second: each hand name's chance of being dealt, given the up card (``"any:<name>"``:
    of being reached). ``hands``: only these hand names (default all; the insurance bet's
    second moment then takes the average hand of those only)."""
    upcard = _card(up, "C")
    left = list(shoe)
    left[up] -= 1
    n = float(sum(left))
    sums: dict[str, dict[str, float]] = {}
    weights: dict[str, float] = {}
    split: set[int] = set()
    for a in range(10):
        for b in range(a, 10):
            if left[a] < 1 + (a == b) or left[b] < 1:
                continue
            w = (left[a] * (left[b] - (a == b))) / (n * (n - 1)) * (1 if a == b else 2)
            name = hand_name(a, b)
            if name == "soft 21":
                continue
            cards = [_card(a, "S"), _card(b, "H")]
            if a == b and hands is not None and not _grows_into(a, hands):
                continue
            evs = action_evs(rules, cards, upcard, shoe=shoe)
            if "split" in evs and evs["split"] >= max(evs.values()):
                split.add(a)
            if hands is not None and name not in hands:
                continue
            acc = sums.setdefault(name, {})
            for k, v in evs.items():
                acc[k] = acc.get(k, 0.0) + w * v
            if moments:
                for k, v in action_second_moments(rules, cards, upcard, shoe=shoe).items():
                    acc[M2 + k] = acc.get(M2 + k, 0.0) + w * v
            weights[name] = weights.get(name, 0.0) + w
    out = {h: {k: v / weights[h] for k, v in acc.items()} for h, acc in sums.items()}
    more, reach = multi_card_sums(rules, shoe, upcard, frozenset(split), moments)
    for h, extra in more.items():
        if (hands is not None and h not in hands) or h not in out:
            continue
        acc, w2 = sums[h], weights[h]
        total = w2 + reach[h]
        for play in ("stand", "hit"):
            for k in (play, M2 + play):
                if k in acc and ANY + k in extra:
                    out[h][ANY + k] = (acc[k] + extra[ANY + k]) / total
        weights[ANY + h] = total
    key = "A" if up == 0 else "T" if up == 9 else ""
    if key in rules.insurance_upcards:
        want = 9 if up == 0 else 0
        p = left[want] / n
        out["insurance"] = {"no-insurance": 0.0, "insure": 3.0 * p - 1.0}
        if moments:
            out["insurance"].update(insurance_moments(p, out, weights))
    return out, weights


def _grows_into(pair: int, hands: frozenset[str]) -> bool:
    """Whether a pair's own name, or any total, is wanted (an unsplit pair is hit into
    totals, so whether it is split matters to them)."""
    return hand_name(pair, pair) in hands or any("," not in h for h in hands)


def insurance_moments(p: float, out: Returns, weights: dict[str, float]) -> dict[str, float]:
    """The insurance bet's change of the round's second moment, per unit of insurance bet
    (``"m2:insure"``; ``"m2:no-insurance"`` 0). The bet ``I`` is half the stake: +1 with the
    chance ``p`` of the dealer's blackjack, -1/2 else. With the hand's result ``M`` (-1 on a
    dealer blackjack; else ``m``, the average hand's best return, from ``out``),
    ``E[(M + I)^2] - E[M^2] = E[I^2] + 2 E[M I] = 1/4 (1 - p) - p - (1 - p) m``: insurance
    lowers the round's second moment (it pays when the hand loses).

    >>> round(insurance_moments(1 / 3, {"16": {"stand": -0.5}}, {"16": 1.0})["m2:insure"], 4)
    0.3333
    """
    total = sum(weights.get(h, 0.0) for h in out)
    best = [
        max(v for k, v in r.items() if ":" not in k) * weights[h]
        for h, r in out.items()
        if h in weights
    ]
    m = sum(best) / total if total > 0 else 0.0
    delta = 0.25 * (1.0 - p) - p - (1.0 - p) * m
    return {M2 + "no-insurance": 0.0, M2 + "insure": delta / 0.5}


@dataclass(frozen=True)
class Decision:
    """One yes/no choice an index can change: ``play`` against the best of ``others``, their
    returns read under ``prefix`` (``"any:"``: a total's stand-or-hit over every hand that
    reaches it)."""

    hand: str
    play: str
    others: tuple[str, ...]
    prefix: str = ""

    def delta(self, returns: dict[str, float], aversion: float = 0.0) -> tuple[float, str] | None:
        """``play``'s value less the best other's, and that other (None: not both legal).
        The value is the return, less ``aversion`` times the second moment where
        ``aversion`` is not 0 (:mod:`twentyone.counting.risk_averse`)."""

        def value(p: str) -> float | None:
            got = returns.get(self.prefix + p)
            if got is None or aversion == 0.0:
                return got
            m2 = returns.get(self.prefix + M2 + p)
            return None if m2 is None else got - aversion * m2

        mine = value(self.play)
        if mine is None:
            return None
        rest = [(v, o) for o in self.others if (v := value(o)) is not None]
        if not rest:
            return None
        best = max(rest)
        return mine - best[0], best[1]


def decisions(returns: Returns) -> list[Decision]:
    """The decisions of one up card: stand against hit (every total where both are legal,
    over every hand reaching the total where that is known), double against hit or stand,
    split against the best other play, surrender against the best other play (pairs too),
    insurance."""
    out: list[Decision] = []
    for hand, ret in returns.items():
        if hand == "insurance":
            out.append(Decision(hand, "insure", ("no-insurance",)))
        elif "split" in ret:
            out.append(Decision(hand, "split", ("stand", "hit", "double")))
            out.append(Decision(hand, "surrender", ("split", "hit", "stand", "double")))
        else:
            prefix = ANY if ANY + "stand" in ret and ANY + "hit" in ret else ""
            out.append(Decision(hand, "stand", ("hit",), prefix))
            out.append(Decision(hand, "double", ("hit", "stand")))
            out.append(Decision(hand, "surrender", ("hit", "stand", "double")))
    return out


# -- finding the index --------------------------------------------------------------------


def _cubic(xs: Sequence[float], ys: Sequence[float], x: float) -> float:
    total = 0.0
    for i, (xi, yi) in enumerate(zip(xs, ys, strict=True)):
        term = yi
        for j, xj in enumerate(xs):
            if j != i:
                term *= (x - xj) / (xi - xj)
        total += term
    return total


def crossings(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    """Where the samples ``ys`` at ``xs`` change sign, each found on the cubic through the
    four nearest samples (a straight line where only two exist).

    >>> [round(x, 6) for x in crossings([-2.0, -1.0, 0.0, 1.0, 2.0], [-3.0, -2.0, -1.0, 0.0, 1.0])]
    [1.0]
    """
    out = []
    for i in range(len(xs) - 1):
        y0, y1 = ys[i], ys[i + 1]
        if y0 == 0.0 and i > 0:
            continue
        if (y0 < 0.0) == (y1 < 0.0) and y0 != 0.0:
            continue
        lo_i, hi_i = max(0, i - 1), min(len(xs), i + 3)
        px, py = list(xs[lo_i:hi_i]), list(ys[lo_i:hi_i])

        def f(x: float, px: list[float] = px, py: list[float] = py) -> float:
            return _cubic(px, py, x)

        a, b = xs[i], xs[i + 1]
        fa = y0
        for _ in range(60):
            mid = 0.5 * (a + b)
            fm = f(mid)
            if (fm < 0.0) == (fa < 0.0):
                a, fa = mid, fm
            else:
                b = mid
        out.append(0.5 * (a + b))
    return out


@dataclass(frozen=True)
class GeneratedIndex:
    """One index play: at a true count of ``index`` or more play ``at_or_above``, below it
    ``below``. ``crossover`` is the true count where the two returns are equal; ``index`` is
    the whole number nearest it (half up): with the true count floored to a whole number, the
    count ``n`` stands for ``n`` to ``n + 1``, where ``at_or_above`` is the better play on
    average from ``n = index`` on."""

    hand: str
    up: str
    below: str
    at_or_above: str
    index: int
    crossover: float

    def to_json(self) -> dict[str, Any]:
        """The index's JSON entry (``crossover`` left out: the list's own shape)."""
        return {
            "hand": self.hand,
            "up": self.up,
            "below": self.below,
            "at_or_above": self.at_or_above,
            "index": self.index,
        }


def index_of(
    decision: Decision,
    up: str,
    samples: Sequence[tuple[float, dict[str, float]]],
    lo: int = -TC_RANGE,
    hi: int = TC_RANGE,
    aversion: Callable[[float], float] | None = None,
) -> GeneratedIndex | None:
    """The index of one decision from its returns sampled at true counts (the crossing
    nearest 0 within ``lo``..``hi``; None when the best play never changes there);
    ``aversion``: the risk-averse criterion's weight of the second moment at a true count
    (default none: the returns alone)."""
    pts = [(tc, decision.delta(r, aversion(tc) if aversion else 0.0)) for tc, r in samples]
    got = [(tc, d) for tc, d in pts if d is not None]
    if len(got) < 2:
        return None
    xs = [tc for tc, _ in got]
    ys = [d[0] for _, d in got]
    roots = [x for x in crossings(xs, ys) if lo - 1 < x <= hi]
    if not roots:
        return None
    root = min(roots, key=abs)
    index = math.floor(root + 0.5)
    if not lo <= index <= hi:
        return None
    i = max([j for j in range(len(xs) - 1) if xs[j] <= root] or [0])
    left, right = got[i][1], got[i + 1][1]
    assert left is not None and right is not None
    if left[0] < 0.0:  # the other play is best below the crossing
        below, above = left[1], decision.play
    else:
        below, above = decision.play, right[1]
    if decision.play == "surrender":  # the other side: the hand's own play entry or chart
        below, above = (b if b == "surrender" else "no-surrender" for b in (below, above))
    elif decision.play == "double" and "stand" in (below, above):
        below, above = (b if b == "stand" else "double-stand" for b in (below, above))
    return GeneratedIndex(decision.hand, up, below, above, index, root)


Samples = list[tuple[float, Returns]]


@lru_cache(maxsize=8)
def sample_returns_weighted(
    rules: Rules,
    line: CountLine,
    progress: Callable[[str], None] | None = None,
    wanted: frozenset[tuple[str, str]] | None = None,
    moments: bool = False,
) -> dict[str, list[tuple[float, Returns, dict[str, float]]]]:
    """For each up card (``"2"``..``"A"``), :func:`shoe_returns` on every shoe of ``line``
    from -12 to +12 (cached: the audit reuses what the indices computed). ``wanted``: only
    these (up card, hand) pairs; ``moments``: with the second moments."""
    ks = line.steps(-TC_RANGE - MARGIN, TC_RANGE + MARGIN)
    out = {}
    for up in UP_ORDER:
        key = RANK_CHARS[up]
        hands = None if wanted is None else frozenset(h for u, h in wanted if u == key)
        if hands is not None and not hands:
            continue
        if progress is not None:
            progress(key)
        rows = []
        for k in ks:
            ret, w = shoe_returns(rules, line.shoe(k), up, hands, moments)
            rows.append((k * line.tc_step, ret, w))
        out[key] = rows
    return out


def sample_returns(
    rules: Rules,
    line: CountLine,
    progress: Callable[[str], None] | None = None,
    wanted: frozenset[tuple[str, str]] | None = None,
    moments: bool = False,
) -> dict[str, Samples]:
    """:func:`sample_returns_weighted` without the weights."""
    got = sample_returns_weighted(rules, line, progress, wanted, moments)
    return {up: [(tc, r) for tc, r, _ in rows] for up, rows in got.items()}


def generate(
    rules: Rules,
    count: str = "hilo",
    *,
    decks_left: Fraction | None = None,
    progress: Callable[[str], None] | None = None,
    wanted: frozenset[tuple[str, str]] | None = None,
    method: str = "ev",
    moments: bool = False,
) -> tuple[CountLine, list[GeneratedIndex]]:
    """Every index of ``rules`` for ``count`` in -10..+10 (see the module's text); with
    ``wanted``, only those of these (up card, hand) pairs. ``method``: ``"ev"`` (where the
    returns are equal) or ``"risk-averse"`` (where a Kelly bettor's growth is,
    :mod:`twentyone.counting.risk_averse`); ``moments``: sample the second moments even for
    ``"ev"`` (to share the samples with a risk-averse list)."""
    from twentyone.counting.risk_averse import aversion_curve

    line = count_line(count, decks_left if decks_left is not None else default_decks_left(rules))
    averse = method == "risk-averse"
    aversion = aversion_curve(rules, line) if averse else None
    out: list[GeneratedIndex] = []
    got = sample_returns(rules, line, progress, wanted, moments or averse)
    for up, samples in got.items():
        hands = sorted({h for _, r in samples for h in r})
        for hand in hands:
            sub = [(tc, r[hand]) for tc, r in samples if hand in r]
            for d in decisions({hand: sub[0][1]}):
                found = index_of(d, up, sub, aversion=aversion)
                if found is not None:
                    out.append(found)
    return line, one_of_a_kind(out)


def one_of_a_kind(entries: list[GeneratedIndex]) -> list[GeneratedIndex]:
    """At most one play entry and one surrender entry per hand and up card (what an index
    list can say): where two plays change on one hand, the change nearest a true count of 0
    is kept (the one met most often).

    >>> a = GeneratedIndex("soft 18", "A", "hit", "stand", 1, 0.7)
    >>> b = GeneratedIndex("soft 18", "A", "stand", "double-stand", 9, 8.6)
    >>> one_of_a_kind([a, b]) == [a]
    True
    """

    def kind(e: GeneratedIndex) -> tuple[str, str, bool]:
        return (e.hand, e.up, "surrender" in (e.below, e.at_or_above))

    best: dict[tuple[str, str, bool], GeneratedIndex] = {}
    for e in entries:
        if kind(e) not in best or abs(e.crossover) < abs(best[kind(e)].crossover):
            best[kind(e)] = e
    return [e for e in entries if best[kind(e)] is e]
