"""The player's expected values for every hand, exactly, by composition (numba kernels).

Values are kept *in the no-blackjack space* when the dealer peeks: a hand's value is then
E[payoff x 1{dealer has no blackjack}], so decisions compare correctly (the factor
P(no blackjack | hand) is the same for every action) and a bust costs the stake only when the
dealer has no blackjack. Without a peek a dealer blackjack takes each hand's stake (``f1``,
``f2``: the part of a standing or doubled stake that a dealer blackjack takes).

Modes of :func:`solve`:

- 0: composition-dependent optimum (each hand its own best play);
- 1: total-dependent hit/stand: one decision per chart row, weighted by the probability of
  each hand in it (the first step of deriving basic strategy);
- 2: play a chart (``chart_hard``/``chart_soft`` codes for this up card);
- 3: play fixed per-hand decisions (``dec_in``/``decs_in``): CDZ- split hands.

Chart codes as integers: see :data:`CODE_INDEX`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from twentyone.analysis.shoe_counts import BoolArray, FloatArray, HandTable, IntArray
from twentyone.analysis.spanish import doubled_values
from twentyone.analysis.standing import DOUBLE as DOUBLE
from twentyone.analysis.standing import HIT as HIT
from twentyone.analysis.standing import STAND as STAND
from twentyone.analysis.standing import bust_kept
from twentyone.engine.compiled import double_is_free_jit, may_stand_jit, total_may_double_jit
from twentyone.engine.jit import njit
from twentyone.engine.strategy import PREFERENCES

#: Modes of :func:`solve`: how the hands are played.
OPTIMUM, BY_TOTAL, CHART, FIXED = 0, 1, 2, 3

CODE_INDEX = {"H": 0, "S": 1, "Dh": 2, "Ds": 3, "P": 4, "Rh": 5, "Rs": 6, "Rp": 7}
NEG = -1e9


class StandValues(NamedTuple):
    """Each hand's standing against one up card: ``nb`` the value of standing when the dealer
    has no blackjack, ``pbj`` the chance of a dealer blackjack (see the module's text),
    ``push`` the chance of a push (:class:`~twentyone.analysis.context.Base`'s arrays)."""

    nb: FloatArray
    pbj: FloatArray
    push: FloatArray


class PlayRules(NamedTuple):
    """What :func:`solve` reads of the rules (from the compiled rules, through
    :class:`~twentyone.analysis.context.Context`) for one up card: ``bj`` the value index
    that makes the dealer's blackjack (-1: none), ``peek``, ``f1``/``f2`` the parts of a
    standing / doubled stake a dealer blackjack takes, ``min_stand``, ``dbl_split`` (a split
    hand may double), ``double_rule`` (:data:`~twentyone.engine.predicates.DOUBLE_ON`),
    ``force_stand2`` (two-card hands stand: split aces), ``bonus`` (the 6-7-8 / 7-7-7
    bonus, 0 for none), ``free_doubles`` (the hard two-card totals whose double the house
    stakes, as bits: :attr:`~twentyone.engine.rules.Rules.free_doubles_mask`) and
    ``free_base`` (the hand's own stake is the house's: a hand a free split made, which wins
    its stake and loses nothing); Spanish 21 (:mod:`~twentyone.analysis.spanish`):
    ``dbl_more`` (a hand of three cards or more may double), ``doubles`` (the most doubles of
    one hand: 1 + ``Rules.redoubles``), ``rescue``, ``split`` (the hands are split hands: a
    double needs ``dbl_split``) and ``extra`` (what an undoubled stand adds: the 21 bonuses;
    empty for none)."""

    bj: int
    peek: bool
    f1: float
    f2: float
    min_stand: int
    dbl_split: bool
    double_rule: int
    force_stand2: bool
    bonus: float
    free_doubles: int = 0
    free_base: bool = False
    dbl_more: bool = False
    doubles: int = 1
    rescue: bool = False
    split: bool = False
    extra: FloatArray = np.zeros(0)


class PlayMode(NamedTuple):
    """How :func:`solve` plays the hands: ``mode`` (:data:`OPTIMUM`, :data:`BY_TOTAL`,
    :data:`CHART`, :data:`FIXED`), the chart's codes by total (``hard``, ``soft``) and the
    fixed decisions (``dec``, ``decs`` for the suited share)."""

    mode: int
    hard: IntArray
    soft: IntArray
    dec: IntArray
    decs: IntArray


@njit(cache=True)
def bonus_need(c: IntArray) -> tuple[int, float]:  # pragma: no cover - compiled
    """For a two-card hand: the value index completing 6-7-8 or 7-7-7, and the share of such
    hands for which it pays (1/4 of 6-7/6-8/7-8 hands are suited; 7-7 always)."""
    if c[6] == 2:
        return 6, 1.0
    if c[5] == 1 and c[6] == 1:
        return 7, 0.25
    if c[5] == 1 and c[7] == 1:
        return 6, 0.25
    if c[6] == 1 and c[7] == 1:
        return 5, 0.25
    return -1, 0.0


@njit(cache=True)
def _pick(code: int, can_hit: bool, can_stand: bool, can_dbl: bool) -> int:  # pragma: no cover
    """Resolve a chart code into STAND/HIT/DOUBLE as :func:`twentyone.engine.strategy.resolve`."""
    if (code == 2 or code == 3) and can_dbl:
        return DOUBLE
    if code == 1 or code == 3 or code == 6:
        if can_stand:
            return STAND
        return HIT if can_hit else STAND
    if can_hit:
        return HIT
    return STAND


@njit(cache=True, inline="always")
def cards_left(
    comp_base: IntArray, counts: IntArray, i: int, comp: IntArray
) -> int:  # pragma: no cover - compiled
    """The shoe after hand ``i``'s cards (``comp_base`` less row ``i`` of the hand table's
    ``counts``) into ``comp``; returns how many cards it holds. Each kernel that walks the hand
    table (the play here, the moments, the distributions, the resplits) starts a hand with it."""
    nn = 0
    for v in range(10):
        comp[v] = comp_base[v] - counts[i, v]
        nn += comp[v]
    return nn


@njit(cache=True, inline="always")
def _draw_values(
    i: int,
    comp: IntArray,
    nn: int,
    child: IntArray,
    nb: FloatArray,
    pbj: FloatArray,
    played: FloatArray,
    rules: PlayRules,
) -> tuple[float, float]:  # pragma: no cover - compiled
    """Hand ``i``'s hit value (each next card, then the hand as played) and double value (each
    next card, then stand on a doubled stake), drawing from ``comp`` (``nn`` cards; ``nb``,
    ``pbj``: :class:`StandValues`' arrays, taken out of the tuple once by the caller)."""
    bj = rules.bj
    h = 0.0
    d = 0.0
    for v in range(10):
        if comp[v] == 0:
            continue
        p = comp[v] / nn
        c = child[i, v]
        if c < 0:
            keep = bust_kept(comp, nn, v, bj, rules.peek)
            h -= p * keep
            d -= 2.0 * p * keep
        else:
            h += p * played[c]
            d += p * (2.0 * nb[c] - rules.f2 * pbj[c])
    return h, d


@njit(cache=True, inline="always")
def _stake_value(
    c: int, stand: tuple[FloatArray, FloatArray, FloatArray], free: bool, f: float
) -> float:  # pragma: no cover
    """One unit staked on hand ``c`` standing: the player's (``nb - f * pbj``: ``f`` the part a
    dealer blackjack takes) or the house's (``free``: its win only, ``win``)."""
    nb, pbj, win = stand
    if free:
        return float(win[c])
    return float(nb[c] - f * pbj[c])


@njit(cache=True, inline="always")
def _draw_values_free(
    i: int,
    comp: IntArray,
    nn: int,
    child: IntArray,
    stand: tuple[FloatArray, FloatArray, FloatArray],
    played: FloatArray,
    rules: PlayRules,
    dbl_free: bool,
) -> tuple[float, float]:  # pragma: no cover - compiled
    """:func:`_draw_values` where a stake is the house's (``rules.free_base``: the hand's own;
    ``dbl_free``: the double's): a house's stake wins and never loses, so a bust costs only
    the player's stakes, and standing pays it ``win``, the chance of a win."""
    bj = rules.bj
    base_free = rules.free_base
    lost = (0.0 if base_free else 1.0) + (0.0 if dbl_free else 1.0)
    h = 0.0
    d = 0.0
    for v in range(10):
        if comp[v] == 0:
            continue
        p = comp[v] / nn
        c = child[i, v]
        if c < 0:
            keep = bust_kept(comp, nn, v, bj, rules.peek)
            if not base_free:
                h -= p * keep
            d -= lost * p * keep
        else:
            h += p * played[c]
            d += p * (
                _stake_value(c, stand, base_free, rules.f1)
                + _stake_value(c, stand, dbl_free, rules.f2 - rules.f1)
            )
    return h, d


@njit(cache=True, inline="always")
def _bonus_value(
    hand: IntArray, comp: IntArray, nn: int, bj: int, peek: bool, bonus: float
) -> tuple[float, float]:  # pragma: no cover - compiled
    """A two-card hand's 6-7-8 / 7-7-7 bonus: the value of the third card completing it, and
    the share of such hands it pays (0, 0 when it cannot)."""
    need, share = bonus_need(hand)
    if need < 0:
        return 0.0, 0.0
    keep = 1.0
    if peek and bj >= 0:
        keep = 1.0 - comp[bj] / (nn - 1.0)
    per = 0.25 if share < 1.0 else 1.0
    return bonus * comp[need] / nn * per * keep, share


@njit(cache=True, inline="always")
def _deal_factors(
    comp_base: IntArray, lead: FloatArray, per: FloatArray
) -> None:  # pragma: no cover
    """The factors of :func:`_deal_weight`, each divided once: ``lead[n]`` the product of
    ``(k + 1) / (N - k)`` for ``k < n`` (``N`` cards in ``comp_base``), ``per[v * 22 + k]``
    = ``(comp_base[v] - k) / (k + 1)``."""
    nbase = 0
    for v in range(10):
        nbase += comp_base[v]
        for k in range(22):
            per[v * 22 + k] = (comp_base[v] - k) / (k + 1.0)
    x = 1.0
    lead[0] = x
    for k in range(21):
        x *= (k + 1.0) / (nbase - k)
        lead[k + 1] = x


@njit(cache=True, inline="always")
def _deal_weight(
    hand: IntArray, ncards: int, lead: FloatArray, per: FloatArray
) -> float:  # pragma: no cover - compiled
    """The probability that the first ``ncards`` cards drawn from the shoe are ``hand`` (a
    chart row's weight for the hand in mode ``BY_TOTAL``): the same products, in the same
    order, of the factors of :func:`_deal_factors`."""
    x: float = lead[ncards]
    for v in range(10):
        for k in range(hand[v]):
            x *= per[v * 22 + k]
    return x


@njit(cache=True, inline="always")
def _row_hits(
    lo: int,
    hi: int,
    hands: HandTable,
    use: BoolArray,
    values: tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray],
    min_stand: int,
) -> int:  # pragma: no cover - compiled
    """A chart row's decision in mode ``BY_TOTAL`` (its hands ``order[lo:hi]``; ``values``:
    the deal weights, stand, hit, bonus and bonus share of every hand): HIT when its hands'
    weighted hit value beats their weighted stand value (or it may not stand)."""
    order, total, ncards = hands.order, hands.total, hands.ncards
    weight, stand, hit, bonus, share = values
    ws = 0.0
    wh = 0.0
    t = -1
    for j in range(lo, hi):
        i = order[j]
        if not use[i] or ncards[i] < 2:
            continue
        t = total[i]
        ws += weight[i] * stand[i]
        wh += weight[i] * (hit[i] + share[i] * bonus[i])
    if 0 <= t < 21 and (t < min_stand or wh > ws):
        return HIT
    return STAND


@njit(cache=True, inline="always")
def _best_first_action(
    s: float, h: float, d: float, b: float, can_stand: bool, can_hit: bool, can_dbl: bool
) -> tuple[int, int]:  # pragma: no cover - compiled
    """The optimum's action on a two-card hand whose stand, hit and double values are ``s``,
    ``h``, ``d``: where no bonus can pay, and where a third card's bonus ``b`` can."""
    bu = NEG
    du = STAND
    bs = NEG
    ds = STAND
    for a in range(3):
        if a == STAND:
            if not can_stand:
                continue
            x = s
            y = s
        elif a == HIT:
            if not can_hit:
                continue
            x = h
            y = h + b
        else:
            if not can_dbl:
                continue
            x = d
            y = d + b
        if x > bu:
            bu = x
            du = a
        if y > bs:
            bs = y
            ds = a
    return du, ds


@njit(cache=True, inline="always")
def _later_action(
    mode: int,
    code: int,
    fixed: int,
    row_hit: int,
    s: float,
    h: float,
    can_hit: bool,
    can_stand: bool,
) -> int:  # pragma: no cover - compiled
    """The action (HIT or STAND) on a hand of three cards or more in ``mode`` (``code``: the
    chart's code for its row, ``fixed``: the fixed decision, ``row_hit``: the row's decision)."""
    if mode == OPTIMUM:
        return HIT if (can_hit and (not can_stand or h > s)) else STAND
    if mode == BY_TOTAL:
        return row_hit if can_hit else STAND
    if mode == CHART:
        return _pick(code, can_hit, can_stand, False)
    return fixed


@njit(cache=True, inline="always")
def _later_double(
    mode: int,
    a: int,
    code: int,
    s: float,
    h: float,
    d: float,
    can_stand: bool,
) -> int:  # pragma: no cover - compiled
    """The action on a hand of three cards or more that may double (``Rules.double_after_hit``;
    the caller checks that its total may double): the optimum's best, a chart's code
    (``BY_TOTAL`` keeps its row's hit or stand; ``FIXED`` its decision ``a``)."""
    if mode == OPTIMUM:
        return DOUBLE if d > (h if a == HIT else s) else a
    if mode == CHART:
        return _pick(code, True, can_stand, True)
    return a


@njit(cache=True, inline="always")
def _value_of(a: int, s: float, h: float, d: float) -> float:  # pragma: no cover - compiled
    return s if a == STAND else h if a == HIT else d


@njit(cache=True, inline="always")
def _split_hand_value(
    dec: int, decs: int, s: float, h: float, d: float, b: float, share: float
) -> float:  # pragma: no cover - compiled
    """A two-card hand's value as played: ``dec`` where no bonus pays, ``decs`` (with the
    third card's bonus ``b`` when it draws) on the ``share`` where it can."""
    vu = _value_of(dec, s, h, d)
    vs = _value_of(decs, s, h, d)
    return (1.0 - share) * vu + share * (vs + (b if decs != STAND else 0.0))


@njit(cache=True)
def solve(
    comp_base: IntArray,
    hands: HandTable,
    use: BoolArray,
    stand: StandValues,
    rules: PlayRules,
    play: PlayMode,
) -> tuple[
    FloatArray,
    FloatArray,
    FloatArray,
    FloatArray,
    FloatArray,
    FloatArray,
    IntArray,
    IntArray,
    IntArray,
]:  # pragma: no cover - compiled
    """Values of every hand in ``use``, chart row by chart row from the highest totals down
    (a hand's children come before it): ``S`` stand, ``H`` hit (the play after as ``mode``
    plays it, no bonus), ``D`` double (no bonus), ``B`` the hand's value as played (for
    two-card hands: as a split hand, bonus included), ``b`` the bonus value of a third card
    for a paying two-card hand and ``sf`` the share of such hands it pays; ``dec``/``decs``
    the decisions taken (``decs`` for the suited share), and ``gdec`` each chart row's hit
    (1) / stand (0) in mode ``BY_TOTAL``. A hand outside ``use`` reads 0 (hit and double
    ``NEG``), and so do the values that only it would feed."""
    n = hands.counts.shape[0]
    mode = play.mode
    H = np.zeros(n)
    D = np.zeros(n)
    for i in range(n):
        H[i] = NEG
        D[i] = NEG
    # every array out of its tuple once: an extraction inside the rows' loops costs a
    # reference count each time (about 5% of a solve when the rows were a helper of their own)
    S = np.zeros(n)
    B = np.zeros(n)
    bb = np.zeros(n)
    sf = np.zeros(n)
    w = np.zeros(n)
    lead = np.zeros(22)
    per = np.zeros(220)
    comp = np.zeros(10, dtype=np.int64)
    dec = np.zeros(n, dtype=np.int64)
    decs = np.zeros(n, dtype=np.int64)
    weigh = mode == BY_TOTAL
    if weigh:
        _deal_factors(comp_base, lead, per)
    counts, total, soft, ncards = hands.counts, hands.total, hands.soft, hands.ncards
    child, order, bounds = hands.child, hands.order, hands.bounds
    nb, pbj = stand.nb, stand.pbj
    # free stakes (Free Bet): a stake of the house's is worth its chance of a win, standing
    free_doubles, base_free = rules.free_doubles, rules.free_base
    any_free = free_doubles != 0 or base_free
    win = (nb + 1.0 - pbj - stand.push) / 2.0 if any_free else nb
    three = (nb, pbj, win)
    chart_hard, chart_soft, dec_in, decs_in = play.hard, play.soft, play.dec, play.decs
    bj, peek, f1, bonus = rules.bj, rules.peek, rules.f1, rules.bonus
    min_stand, force_stand2 = rules.min_stand, rules.force_stand2
    dbl_split, double_rule = rules.dbl_split, rules.double_rule
    # Spanish 21: doubles on any number of cards, redoubles, rescue (analysis.spanish)
    extra = rules.extra
    has_extra = extra.shape[0] > 0
    spanish = rules.dbl_more or rules.doubles > 1 or rules.rescue
    dbl_ok = dbl_split or not rules.split  # a split hand doubles only with DAS
    V = np.zeros((rules.doubles + 1, n if spanish else 0))
    ngroups = bounds.shape[0] - 1
    gdec = np.zeros(ngroups, dtype=np.int64)
    for g in range(ngroups):
        # the row's stand, hit and double values, the bonus and (BY_TOTAL) the deal weights;
        # its hands' children's played values B are known
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not use[i]:
                continue
            nn = cards_left(comp_base, counts, i, comp)
            if any_free:
                S[i] = win[i] if base_free else nb[i] - f1 * pbj[i]
                if total[i] < 21:
                    dbl_free = ncards[i] == 2 and double_is_free_jit(
                        total[i], soft[i], free_doubles
                    )
                    H[i], d = _draw_values_free(i, comp, nn, child, three, B, rules, dbl_free)
                    if ncards[i] == 2:
                        D[i] = d
            else:
                S[i] = nb[i] - f1 * pbj[i]
                if has_extra:
                    S[i] += extra[i]
                if total[i] < 21:
                    H[i], d = _draw_values(i, comp, nn, child, nb, pbj, B, rules)
                    if ncards[i] == 2:
                        D[i] = d
            if spanish:
                more = (
                    total[i] < 21
                    and dbl_ok
                    and total_may_double_jit(total[i], soft[i], double_rule)
                )
                code = chart_soft[total[i]] if soft[i] else chart_hard[total[i]]
                choose = 1 if mode <= BY_TOTAL else 0
                if (mode == CHART and (code == 2 or code == 3)) or (
                    mode == FIXED and dec_in[i] == DOUBLE
                ):
                    choose = 2
                under = rules.rescue and total[i] < 21 and mode == OPTIMUM  # no chart rescues
                spec = (bj, peek, rules.f1, rules.f2, rules.doubles, under, more, choose)
                d = doubled_values(i, comp, nn, child, nb, pbj, V, spec)
                if total[i] < 21 and (ncards[i] == 2 or rules.dbl_more):
                    D[i] = d
            if ncards[i] == 2 and bonus > 0.0:
                bb[i], sf[i] = _bonus_value(counts[i], comp, nn, bj, peek, bonus)
            if weigh and ncards[i] >= 2:
                w[i] = _deal_weight(counts[i], ncards[i], lead, per)
        if weigh:
            gdec[g] = _row_hits(bounds[g], bounds[g + 1], hands, use, (w, S, H, bb, sf), min_stand)
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not use[i] or ncards[i] < 2:
                continue
            t = total[i]
            can_hit = t < 21
            can_stand = may_stand_jit(t, min_stand)
            code = chart_soft[t] if soft[i] else chart_hard[t]
            if ncards[i] >= 3:
                a = _later_action(mode, code, dec_in[i], gdec[g], S[i], H[i], can_hit, can_stand)
                if (
                    spanish
                    and rules.dbl_more
                    and dbl_ok
                    and can_hit
                    and total_may_double_jit(t, soft[i], double_rule)
                ):
                    a = _later_double(mode, a, code, S[i], H[i], D[i], can_stand)
                dec[i] = a
                B[i] = _value_of(a, S[i], H[i], D[i])
            elif force_stand2:
                B[i] = S[i]
            else:
                can_dbl = dbl_split and total_may_double_jit(t, soft[i], double_rule)
                # the decisions on a two-card (split) hand: where no bonus can pay, and
                # where it can
                if mode == OPTIMUM:
                    dec[i], decs[i] = _best_first_action(
                        S[i], H[i], D[i], bb[i], can_stand, can_hit, can_dbl
                    )
                elif mode == BY_TOTAL:
                    dec[i] = decs[i] = gdec[g]
                elif mode == CHART:
                    dec[i] = decs[i] = _pick(code, can_hit, can_stand, can_dbl)
                else:
                    dec[i], decs[i] = dec_in[i], decs_in[i]
                B[i] = _split_hand_value(dec[i], decs[i], S[i], H[i], D[i], bb[i], sf[i])
    return S, H, D, B, bb, sf, dec, decs, gdec


def action_of(code: str, opts: dict[str, float]) -> str:
    """The action a chart code takes on a first hand whose legal actions are ``opts``."""
    for a in PREFERENCES[code]:
        if a in opts:
            return a
    raise AssertionError(code)
