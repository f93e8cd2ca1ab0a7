"""The distribution of one round's net result (in initial bets), for the optimum and for basic
strategy, and the standard deviation it gives.

A first hand that is not split is followed exactly: every hand the strategy can reach, each
ending stood, doubled or bust, against the dealer's outcomes drawn from the cards left after
it (:func:`hand_distributions`). Blackjacks, surrenders and the 6-7-8 / 7-7-7 bonus are
exact too. A split that ends with two hands is exact: every pair of the hands' endings with
the dealer drawing after both (:mod:`twentyone.analysis.split_joint`, Eric Farmer's
definition). A round that reaches three hands or more (a resplit) is exact where the shoe is
small: every hand's ending in the engine's order, the dealer drawing after them all
(:mod:`twentyone.analysis.resplit_exact`). From a bigger shoe those rounds take more sets of
cards than can be listed (millions from one deck, a power of the number of hands), and they
are the one part taken approximately: their hands independent given the dealer's outcome,
each ending as a split hand does with the pair cards out, in a number of hands drawn card by
card (:func:`hands_distribution`), then matched to those rounds' exact mean and second moment
(:mod:`twentyone.analysis.split_moments`): the distribution's mean and standard deviation are
exact, and :attr:`RoundOutcomes.resplit_mass`, the probability of such a round, bounds what
the approximation can move in the probabilities of single nets.

Nets sit on a grid of half bets (index ``off + 2 * net``); the blackjack's payout is kept apart.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from twentyone.analysis.caches import memo
from twentyone.analysis.context import (
    UPS,
    Base,
    Context,
    Solved,
    chart_solved,
    shoe_after,
    up_base,
)
from twentyone.analysis.dealer import blackjack_card
from twentyone.analysis.grid import STEP, Grid, hand_nets
from twentyone.analysis.hands import (
    SplitPlay,
    hand_options,
    is_blackjack,
    split_decisions,
    two_card_nodes,
)
from twentyone.analysis.player import (
    CHART,
    DOUBLE,
    FIXED,
    HIT,
    StandValues,
    bonus_need,
    cards_left,
)
from twentyone.analysis.resplit import hands_distribution, more_hands
from twentyone.analysis.resplit_exact import hand_atoms, listable, more_hands_exact
from twentyone.analysis.shoe_counts import ACE, TEN, BoolArray, FloatArray, HandTable, IntArray
from twentyone.analysis.shoe_counts import two_card_probability as two_card_p
from twentyone.analysis.split_joint import DealerRows, pair_joint, split_atoms
from twentyone.analysis.split_moments import split_moments_of, tilted
from twentyone.analysis.standing import bust_kept
from twentyone.engine.jit import njit

__all__ = [
    "RoundOutcomes",
    "UpOutcomes",
    "hand_distributions",
    "hands_distribution",
    "outcomes_note",
    "round_outcomes",
    "up_outcomes",
]


def outcomes_note(resplit_mass: float, resplits: bool = False, unmatched: float = 0.0) -> str:
    """The analysis's note on how exact the distributions are (``resplits``: the rules let a
    split make three hands or more; ``resplit_mass``: the probability of such rounds taken
    approximately; ``unmatched``: the part of it not matched to the exact mean and second
    moment).

    >>> outcomes_note(0.0)[:40]
    'outcomes, sd_optimal, sd_basic: exact, s'
    >>> outcomes_note(0.0, True)[39:67]
    'splits and resplits included'
    """
    if resplits and resplit_mass == 0.0:
        return (
            "outcomes, sd_optimal, sd_basic: exact, splits and resplits included (every "
            "hand's ending in the engine's order, the dealer drawing after them all)"
        )
    text = (
        "outcomes, sd_optimal, sd_basic: exact, splits into two hands included (every pair of "
        "the hands' endings, the dealer drawing after both)"
    )
    if resplit_mass > 0.0:
        text += (
            f"; rounds that reach three hands or more (probability {resplit_mass:.3g}): "
            "their hands taken independent given the dealer's outcome (listed exactly only "
            "from a small shoe)"
        )
        if unmatched == 0.0:
            text += (
                ", matched to those rounds' exact mean and second moment: the mean and sd are "
                "exact, resplits included"
            )
        else:
            text += f" (probability {unmatched:.3g} of them not matched to their exact moments)"
    return text


class RoundOutcomes(NamedTuple):
    """``dist``: ``{net: probability}`` of one round; ``resplit_mass``: the probability of the
    rounds that reach three hands or more and are approximated (from a shoe too big to list
    them: :mod:`twentyone.analysis.resplit_exact`), 0 where ``dist`` is exact; ``unmatched``:
    the part of it whose mean and second moment are not matched to the exact ones (0: the
    distribution's mean and standard deviation are exact)."""

    dist: dict[float, float]
    resplit_mass: float
    unmatched: float = 0.0


class DistRules(NamedTuple):
    """What :func:`hand_distributions` reads of the rules for one up card: ``bj`` (the
    dealer's blackjack card, -1: none), ``peek``, ``f1``/``f2`` (the parts of a standing /
    doubled stake a dealer blackjack takes) and ``force_stand2`` (two-card hands stand)."""

    bj: int
    peek: bool
    f1: float
    f2: float
    force_stand2: bool


@njit(cache=True)
def hand_distributions(
    comp_base: IntArray,
    hands: HandTable,
    use: BoolArray,
    stand_values: StandValues,
    rules: DistRules,
    dec: IntArray,
    size: int,
    off: int,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, IntArray]:  # pragma: no cover
    """Per hand, the distribution of its net on the grid as played by ``dec`` (``played``),
    and per two-card hand (row ``two[i]`` of hand ``i``; -1 for the others) when it stands,
    hits (then plays by ``dec``) and doubles: the other hands' rows are worked in a scratch
    row (the last), four times less memory to fill for a new process. With a peek, masses
    are joint with "the dealer has no blackjack" (they sum to its probability), as the
    values are."""
    counts, total, ncards = hands.counts, hands.total, hands.ncards
    child, order, bounds = hands.child, hands.order, hands.bounds
    nb, pbj, push = stand_values.nb, stand_values.pbj, stand_values.push
    bj, peek, f1, f2 = rules.bj, rules.peek, rules.f1, rules.f2
    force_stand2 = rules.force_stand2
    n = counts.shape[0]
    two = np.zeros(n, dtype=np.int64)
    m = 0
    for i in range(n):
        two[i] = m if ncards[i] == 2 else -1
        m += 1 if ncards[i] == 2 else 0
    stand = np.zeros((m + 1, size))
    hit = np.zeros((m + 1, size))
    dbl = np.zeros((m + 1, size))
    played = np.zeros((n, size))
    comp = np.zeros(10, dtype=np.int64)
    l1 = int(2.0 * f1 + 0.5)
    l2 = int(2.0 * f2 + 0.5)
    for g in range(bounds.shape[0] - 1):
        for j in range(bounds[g], bounds[g + 1]):
            i = order[j]
            if not use[i]:
                continue
            r = two[i]
            if r < 0:  # the scratch row, zeroed
                r = m
                for k in range(size):
                    stand[r, k] = 0.0
                    hit[r, k] = 0.0
                    dbl[r, k] = 0.0
            nn = cards_left(comp_base, counts, i, comp)
            t = total[i]
            rest = 1.0 - push[i] - pbj[i]
            stand[r, off + 2] += (rest + nb[i]) / 2.0
            stand[r, off - 2] += (rest - nb[i]) / 2.0
            stand[r, off] += push[i]
            if not peek:
                stand[r, off - l1] += pbj[i]
            if t < 21:
                for v in range(10):
                    if comp[v] == 0:
                        continue
                    p = comp[v] / nn
                    c = child[i, v]
                    if c < 0:
                        keep = bust_kept(comp, nn, v, bj, peek)
                        hit[r, off - 2] += p * keep
                        dbl[r, off - 4] += p * keep
                    else:
                        for k in range(size):
                            hit[r, k] += p * played[c, k]
                        rc = 1.0 - push[c] - pbj[c]
                        dbl[r, off + 4] += p * (rc + nb[c]) / 2.0
                        dbl[r, off - 4] += p * (rc - nb[c]) / 2.0
                        dbl[r, off] += p * push[c]
                        if not peek:
                            dbl[r, off - l2] += p * pbj[c]
            a = dec[i]
            plays = t < 21 and not (ncards[i] == 2 and force_stand2)
            src = (
                hit
                if plays and a == HIT
                else dbl
                if plays and a == DOUBLE and ncards[i] == 2
                else stand
            )
            for k in range(size):
                played[i, k] = src[r, k]
    return stand, hit, dbl, played, two


def _surrender(ctx: Context, grid: Grid, pbj: float) -> FloatArray:
    if ctx.peek:
        return grid.point(-0.5, 1.0 - pbj)
    if ctx.surrender == "early":
        return grid.point(-0.5, 1.0)
    return grid.point(-0.5, 1.0 - pbj) + grid.point(-1.0, pbj)


class SplitDist(NamedTuple):
    """A split round's net on the grid (values' space), the probability that it reaches
    three hands or more where ``dist`` approximates those rounds (0 where it is exact), and
    the part of that probability whose mean and second moment are not matched to the exact
    ones either (:mod:`~twentyone.analysis.split_moments`; 0 where they are)."""

    dist: FloatArray
    resplit_mass: float
    unmatched: float = 0.0


@memo(16)
def _dealer_rows(ctx: Context, up: int) -> DealerRows:
    """The dealer's outcomes after sets of cards, shared by the splits against ``up``."""
    return DealerRows(shoe_after(ctx, up), up, ctx.h17_from)


def _two_hands(
    ctx: Context,
    grid: Grid,
    up: int,
    pair: int,
    dec: IntArray,
    *,
    resplits: bool,
    decs: IntArray | None = None,
) -> FloatArray:
    """The rounds whose split ends with two hands, exactly (with ``resplits``, those whose
    hands' second cards are not pair cards; ``decs``: the plays where the bonus can pay)."""
    shoe = shoe_after(ctx, up)
    shoe[pair] -= 2
    aces = pair == ACE and not ctx.hsa
    atoms = split_atoms(
        ctx.nodes, dec, pair, aces=aces, two_hands=resplits, decs=decs, bonus=ctx.bonus > 0
    )
    out_cards = np.zeros(10, dtype=np.int64)
    out_cards[pair] = 2
    key = (up, pair, atoms.drawn.tobytes(), atoms.weight.tobytes())
    joints = _joints(ctx)
    if key not in joints:  # the optimum and the chart often play the split hands alike
        joints[key] = pair_joint(shoe, atoms, _dealer_rows(ctx, up), out_cards)
    index = _net_index(ctx, grid.off)
    keep = slice(0, 6) if ctx.peek else slice(0, 7)
    weights = joints[key][:, :, keep].ravel()
    return np.bincount(index[:, :, keep].ravel(), weights, minlength=grid.size).astype(float)


@memo(16)
def _joints(ctx: Context) -> dict[tuple[int, int, bytes, bytes], FloatArray]:
    """The two-hand joints computed for ``ctx``, by up card, pair and atoms."""
    return {}


@lru_cache(maxsize=16)
def _net_index(ctx: Context, off: int) -> IntArray:
    """The grid index of two split hands' net, by their final states and the dealer's: the
    sum of each hand's net in half bets (:func:`~twentyone.analysis.grid.hand_nets`)."""
    nets = hand_nets(ctx)
    out: IntArray = off + nets[:, None, :] + nets[None, :, :]
    return out


def _more_hands(
    ctx: Context, grid: Grid, up: int, pair: int, dec: IntArray, base: Base
) -> FloatArray:
    """:func:`~twentyone.analysis.resplit.more_hands`, kept: the optimum and the chart often
    play the split hands alike (about half the calls), and it reads no more than ``dec`` and
    the stand table's shoe and hands (``comp``, ``mask``, ``valid``)."""
    key = (up, pair, dec.tobytes(), base.comp.tobytes(), base.mask.tobytes(), base.valid.tobytes())
    kept = _mores(ctx)
    if key not in kept:
        kept[key] = more_hands(ctx, grid, up, pair, dec, base)
    return kept[key]


@memo(16)
def _mores(ctx: Context) -> dict[tuple[int, int, bytes, bytes, bytes, bytes], FloatArray]:
    """The rounds of three hands or more computed for ``ctx`` (:func:`_more_hands`)."""
    return {}


def _more_exact(
    ctx: Context, grid: Grid, up: int, pair: int, dec: IntArray, decs: IntArray | None = None
) -> FloatArray | None:
    """The rounds that reach three hands, exactly where the shoe is small enough to list
    them (:mod:`twentyone.analysis.resplit_exact`), else None."""
    if pair == TEN and ctx.split_rank:
        return None  # tens resplit by rank: the shoe's counts do not tell the ranks apart
    shoe = shoe_after(ctx, up)
    if not listable(shoe):
        return None
    aces = pair == ACE and not ctx.hsa
    atoms = tuple(
        hand_atoms(ctx.nodes, dec, pair, aces=aces, np_=np_, decs=decs, bonus=ctx.bonus > 0)
        for np_ in (True, False)
    )
    return more_hands_exact(
        shoe, pair, ctx.split_max(pair), (atoms[0], atoms[1]), _dealer_rows(ctx, up),
        hand_nets(ctx), (grid.off, grid.size), 6 if ctx.peek else 7,
    )  # fmt: skip


def _matched(
    ctx: Context,
    grid: Grid,
    up: int,
    pair: int,
    decs: tuple[IntArray, IntArray],
    two: FloatArray,
    more: FloatArray,
) -> FloatArray | None:
    """The approximated rounds of three hands or more (``more``) tilted to their exact mean
    and second moment (the split's, less the two-hand rounds'), or None where those are not
    known or out of reach."""
    moments = split_moments_of(ctx, up, pair, decs[0], ctx.split_max(pair), decs=decs[1])
    if moments is None or moments.second is None:
        return None
    x = (np.arange(grid.size, dtype=np.float64) - grid.off) * STEP
    return tilted(more, x, moments.first - float(two @ x), moments.second - float(two @ x**2))


def _split(ctx: Context, grid: Grid, up: int, pair: int, play: SplitPlay) -> SplitDist:
    """A split round's net (values' space): two hands exactly; three or more exactly where
    the shoe is small (:mod:`~twentyone.analysis.resplit_exact`), else approximately
    (:func:`~twentyone.analysis.resplit.more_hands`) and matched to their exact mean and
    second moment (:mod:`~twentyone.analysis.split_moments`)."""
    dec, decs, base = split_decisions(ctx, up, pair, play)
    resplits = ctx.split_max(pair) > 2
    two = _two_hands(ctx, grid, up, pair, dec, resplits=resplits, decs=decs)
    if not resplits:
        return SplitDist(two, 0.0)
    exact = _more_exact(ctx, grid, up, pair, dec, decs)
    if exact is not None:
        return SplitDist(two + exact, 0.0)
    shoe = shoe_after(ctx, up)
    shoe[pair] -= 2
    bj = blackjack_card(up)
    played = 1.0 - (shoe[bj] / shoe.sum() if ctx.peek and bj >= 0 else 0.0)
    mass = played - float(two.sum())  # exactly: what the two-hand rounds leave
    more = _more_hands(ctx, grid, up, pair, dec, base)
    if float(more.sum()) <= 0.0:  # no pair card left: what is missing ran out of cards
        return SplitDist(two, 0.0)
    more = more * (mass / float(more.sum()))
    matched = _matched(ctx, grid, up, pair, (dec, decs), two, more)
    if matched is None:
        return SplitDist(two + more, mass, mass)
    return SplitDist(two + matched, mass)


class _UpTables(NamedTuple):
    """What every first hand against one up card reads: the up card's chance, the shoe after
    it, the stand values, the strategy's decisions, the chart's column (basic strategy) and
    each hand's net distribution as it plays on, and each two-card hand's (row ``two[node]``)
    when it stands, hits or doubles."""

    pu: float
    shoe: IntArray
    base: Base
    solved: Solved
    col: object
    stand: FloatArray
    hit: FloatArray
    dbl: FloatArray
    played: FloatArray
    two: IntArray
    hand: Grid  # the grid of stand, hit, dbl and played: one hand's nets


def _up_tables(ctx: Context, up: int, optimal: bool) -> _UpTables:
    from twentyone.analysis.basic import basic_column
    from twentyone.analysis.optimal import optimal_solved

    nodes = ctx.nodes
    full = ctx.fresh()
    base = up_base(ctx, up)
    col = None if optimal else basic_column(ctx, up)
    if col is None:
        solved = optimal_solved(ctx, up)
    else:
        assert col.chart is not None
        solved = chart_solved(ctx, up, col.chart)
    hand = Grid(ctx, hands=1)  # a split's hands do not widen one hand's tables
    rules = DistRules(blackjack_card(up), ctx.peek, ctx.f1, ctx.f2, False)
    use = base.mask & base.valid
    stand, hit, dbl, played, two = hand_distributions(
        base.comp, nodes.table, use, base.stand, rules, solved.dec, hand.size, hand.off
    )
    pu = float(full[up] / full.sum())
    return _UpTables(pu, shoe_after(ctx, up), base, solved, col, stand, hit, dbl, played, two, hand)


def _action_dists(
    ctx: Context, grid: Grid, up: int, t: _UpTables, node: int, pbj: float
) -> tuple[dict[str, FloatArray], dict[str, FloatArray]]:
    """Each action's net on a first hand, where the 6-7-8 / 7-7-7 bonus cannot pay and
    where it can."""
    nodes = ctx.nodes
    row = int(t.two[node])
    stand, hit, dbl = (grid.embed(x[row], t.hand) for x in (t.stand, t.hit, t.dbl))
    hit_b, dbl_b = hit, dbl
    need, share = bonus_need(nodes.counts[node])
    comp = t.shoe - nodes.counts[node]
    if ctx.bonus and need >= 0 and comp[need] > 0 and int(nodes.total[node]) < 21:
        c = int(nodes.child[node, need])
        q = comp[need] / float(comp.sum()) * (0.25 if share < 1.0 else 1.0)
        played = grid.embed(t.played[c], t.hand)
        hit_b = hit_b + q * (grid.shift(played, ctx.bonus) - played)
        two = grid.stake_stand(ctx, t.base, c, 2)
        dbl_b = dbl_b + q * (grid.shift(two, ctx.bonus) - two)
    plain = {"stand": stand, "hit": hit, "double": dbl}
    paid = {"stand": stand, "hit": hit_b, "double": dbl_b}
    if ctx.surrender_offered(up):
        plain["surrender"] = paid["surrender"] = _surrender(ctx, grid, pbj)
    return plain, paid


def _optimal_hand(
    ctx: Context, grid: Grid, up: int, t: _UpTables, pair: tuple[int, int, int]
) -> SplitDist:
    """A first hand played by the optimum (a ten-value pair split by rank: only the share
    of one rank may split)."""
    from twentyone.analysis.optimal import optimal_split

    a, b, node = pair
    pbj = float(t.base.pbj[node])
    plain, paid = _action_dists(ctx, grid, up, t, node, pbj)
    sf = float(t.solved.bonus_share[node])
    ten_share = ctx.same_rank_share() if a == b == TEN and ctx.split_rank else 1.0
    choices: list[tuple[float, float | None]] = [(1.0, None)]
    if a == b and ctx.can_split:
        choices = [
            (ten_share, optimal_split(ctx, up, a, ctx.split_max(a))),
            (1.0 - ten_share, None),
        ]
    dist = np.zeros(grid.size)
    resplit = unmatched = 0.0
    for weight, split_ev in choices:
        if weight == 0.0:
            continue
        opts = hand_options(
            ctx, up, node, t.solved, t.base, split=split_ev, surrender=ctx.surrender_offered(up)
        )
        for w2, values, dists in ((1.0 - sf, opts.plain, plain), (sf, opts.bonus, paid)):
            if w2 == 0.0:
                continue
            act = max(values, key=lambda k: values[k])
            if act == "split":
                play = SplitPlay(mode=FIXED, dec=(t.solved.dec, t.solved.decs))
                got = _split(ctx, grid, up, a, play)
                dist += weight * w2 * got.dist
                resplit += weight * w2 * got.resplit_mass
                unmatched += weight * w2 * got.unmatched
            else:
                dist += weight * w2 * dists[act]
    return SplitDist(dist, resplit, unmatched)


def _basic_hand(
    ctx: Context, grid: Grid, up: int, t: _UpTables, pair: tuple[int, int, int]
) -> SplitDist:
    """A first hand played by the chart."""
    a, b, node = pair
    plain, paid = _action_dists(ctx, grid, up, t, node, float(t.base.pbj[node]))
    sf = float(t.solved.bonus_share[node])
    avg = {k: (1.0 - sf) * plain[k] + sf * paid[k] for k in plain}
    with_split, by_total = t.col.actions[(a, b)]  # type: ignore[attr-defined]
    dist: FloatArray = avg[by_total]
    ten_share = ctx.same_rank_share() if a == b == TEN and ctx.split_rank else 1.0
    if with_split == "split":
        play = SplitPlay(mode=CHART, chart=t.col.chart)  # type: ignore[attr-defined]
        got = _split(ctx, grid, up, a, play)
        return SplitDist(
            ten_share * got.dist + (1.0 - ten_share) * dist,
            ten_share * got.resplit_mass,
            ten_share * got.unmatched,
        )
    if with_split != by_total:
        dist = ten_share * avg[with_split] + (1.0 - ten_share) * dist
    return SplitDist(dist, 0.0)


class UpOutcomes(NamedTuple):
    """Every first hand against one up card: the non-blackjack nets on the grid (``main``),
    the probability of reaching three hands (``resplit``), and the blackjacks' masses
    (``blackjacks``: ``(net, mass)`` in the order :func:`round_outcomes` adds them), and the
    part of ``resplit`` whose mean and second moment are not the exact ones (``unmatched``)."""

    main: FloatArray
    resplit: float
    blackjacks: tuple[tuple[float, float], ...]
    unmatched: float = 0.0


def up_outcomes(ctx: Context, up: int, optimal: bool) -> UpOutcomes:
    """Every first hand against ``up`` (one up card's part of :func:`round_outcomes`)."""
    ctx.refuse_push22("outcomes")
    ctx.refuse_free("outcomes")
    ctx.refuse_ties("outcomes")
    ctx.refuse_spanish("outcomes")
    grid = Grid(ctx)
    t = _up_tables(ctx, up, optimal)
    main = np.zeros(grid.size)
    resplit = unmatched = 0.0
    blackjacks: list[tuple[float, float]] = []
    for a, b, node in two_card_nodes(ctx):
        p = two_card_p(t.shoe, a, b) * t.pu
        if p == 0.0:
            continue
        pbj = float(t.base.pbj[node])
        if is_blackjack(a, b):
            blackjacks += [(ctx.bj_pays, p * (1.0 - pbj)), (0.0, p * pbj)]
            continue
        play = _optimal_hand if optimal else _basic_hand
        dist, mass, off = play(ctx, grid, up, t, (a, b, node))
        resplit += p * mass
        unmatched += p * off
        if ctx.peek and up in (ACE, TEN):
            dist = dist + grid.point(-1.0, pbj)
        main += p * dist
    return UpOutcomes(main, resplit, tuple(blackjacks), unmatched)


def round_outcomes(
    ctx: Context, optimal: bool, parts: dict[int, UpOutcomes] | None = None
) -> RoundOutcomes:
    """The distribution of one round dealt from ``ctx``'s shoe, played by the optimum (CDZ-)
    or by the full shoe's basic strategy (see the module's docstring); ``parts``: up cards'
    :func:`up_outcomes` computed already (elsewhere: the same figures, added in the same
    order)."""
    ctx.refuse_push22("outcomes")
    ctx.refuse_free("outcomes")
    ctx.refuse_ties("outcomes")
    ctx.refuse_spanish("outcomes")
    grid = Grid(ctx)
    full = ctx.fresh()
    out: dict[float, float] = {}
    main = np.zeros(grid.size)
    resplit = unmatched = 0.0
    for up in UPS:
        if full[up] > 0:
            part = parts[up] if parts and up in parts else up_outcomes(ctx, up, optimal)
            for net, mass in part.blackjacks:
                out[net] = out.get(net, 0.0) + mass
            main += part.main
            resplit += part.resplit
            unmatched += part.unmatched
    for k in np.nonzero(main)[0]:
        net = (int(k) - grid.off) * STEP
        out[net] = out.get(net, 0.0) + float(main[k])
    return RoundOutcomes(dict(sorted(out.items())), resplit, unmatched)
