"""Returns of a whole first hand against one up card: every action, the split included.

``split_value`` plays the split hands by fixed decisions (CDZ-: those the composition-dependent
optimum takes for the same cards before the split; or a chart), evaluated exactly over the
shoe with the pair cards out (see :mod:`twentyone.analysis.split`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from twentyone.analysis.caches import memo
from twentyone.analysis.context import (
    TABLE_HANDS,
    Base,
    Context,
    Solved,
    arrays_key,
    arrays_of,
    base_table,
    run_solve,
    shoe_after,
)
from twentyone.analysis.player import CHART, DOUBLE, FIXED, HIT, STAND
from twentyone.analysis.shoe_counts import (
    ACE,
    TEN,
    BoolArray,
    IntArray,
    player_nodes,
    two_card_probability,
)
from twentyone.analysis.split import split_weights
from twentyone.analysis.standing import stand_needed


@dataclass
class SplitPlay:
    """How split hands are played: ``mode`` FIXED with ``dec`` (CDZ-) or CHART with ``chart``."""

    mode: int
    dec: tuple[IntArray, IntArray] | None = None
    chart: tuple[IntArray, IntArray] | None = None


@dataclass(frozen=True)
class SplitTable:
    """A split hand's table with ``k`` pair cards out of the shoe (the up card out too): the
    stand values (``base``), every reached hand's values as ``play`` plays them (``solved``),
    and which hands it reaches (``reach``)."""

    base: Base
    solved: Solved
    reach: BoolArray


def split_table(ctx: Context, up: int, pair: int, play: SplitPlay, k: int) -> SplitTable:
    """The split table of ``pair`` against ``up`` with ``k`` pair cards out, played by
    ``play``, kept a while (the split value, its second moment and the exact distribution
    read the same tables; so do a chart and the optimum where they play the split hands
    alike: :func:`play_key`)."""
    key = play_key(ctx, pair, play)
    if key is None:
        return _make_split_table(ctx, up, pair, play, k)
    return _split_table(ctx, up, pair, key, k)


def split_decisions(
    ctx: Context, up: int, pair: int, play: SplitPlay
) -> tuple[IntArray, IntArray, Base]:
    """How the split hands of ``pair`` are played, hand by hand (CDZ- or the chart: where the
    6-7-8 / 7-7-7 bonus cannot pay, and where it can), and the stand values they read (a pair
    card out): the split value's table with two pair cards out (kept: its hands are solved
    for those a split hand reaches, the only ones whose decisions a split's atoms read)."""
    table = split_table(ctx, up, pair, play, 2)
    return table.solved.dec, table.solved.decs, table.base


def play_key(ctx: Context, pair: int, play: SplitPlay) -> bytes | None:
    """The decisions ``play`` takes on the hands a split of ``pair`` reaches (0 on the others),
    as a key (None for a play neither fixed nor a chart's). Two plays of one key make the
    same split tables to the bit: the hands a table solves are those reached (the same, as
    the walk that finds them reads only their decisions), its values are computed alike in
    either mode, and a chart's decisions on them are those :func:`_chart_decisions` reads off
    (``_pick`` of the same row code, the same can-hit, can-stand and can-double). So the
    chart's table is the optimum's where the two play a split alike (about 40% of them)."""
    if play.mode == FIXED and play.dec is not None:
        return _play_key(ctx, pair, FIXED, arrays_key(play.dec))
    if play.mode == CHART and play.chart is not None and play.dec is None:
        return _play_key(ctx, pair, CHART, arrays_key(play.chart))
    return None


@memo(64)
def _play_key(ctx: Context, pair: int, mode: int, key: bytes) -> bytes:
    reach = _split_hands(ctx, pair, mode, key)[1]
    dec, decs = arrays_of(key) if mode == FIXED else _chart_decisions(ctx, key)
    return arrays_key((np.where(reach, dec, 0), np.where(reach, decs, 0)))


@memo(64)
def _split_table(
    ctx: Context, up: int, pair: int, key: bytes, k: int, free: bool = False
) -> SplitTable:
    """The table of the fixed decisions of :func:`play_key`'s ``key``."""
    play = SplitPlay(mode=FIXED, dec=arrays_of(key))
    hands = _split_hands(ctx, pair, FIXED, key)
    return _make_split_table(ctx, up, pair, play, k, hands, free)


def _make_split_table(
    ctx: Context,
    up: int,
    pair: int,
    play: SplitPlay,
    k: int,
    hands: tuple[BoolArray, BoolArray] | None = None,
    free: bool = False,
) -> SplitTable:
    """A split table (``hands``: :func:`split_hands` of ``play`` where known; ``free``: the
    hands' own stakes are the house's, as a free split makes them)."""
    need, reach = split_hands(ctx, up, pair, play) if hands is None else hands
    base = base_table(ctx, up, pair, k - 1, need)
    solved = run_solve(
        ctx,
        up,
        base,
        play.mode,
        split=True,
        force_stand2=pair == ACE and not ctx.hsa,
        chart=play.chart,
        dec=play.dec,
        reach=reach,
        free=free,
    )
    return SplitTable(base, solved, reach)


def _split_tables(
    ctx: Context, up: int, pair: int, play: SplitPlay | bytes, k: int, free: bool = False
) -> tuple[float, float, float]:
    """With ``k`` pair cards out of the shoe (the up card out too), played by ``play`` (or
    by the decisions of its :func:`play_key`: then kept, three numbers a table): a split
    hand's value when its second card is any card (``EV[X]``), when it is a pair card played
    as a total (``EV[P]``), and the cards left."""
    if isinstance(play, bytes):
        return _kept_values(ctx, up, pair, play, k, free)
    return _table_values(ctx, pair, _make_split_table(ctx, up, pair, play, k, free=free))


#: A split value: ``EV[X]``, ``EV[P]`` and the cards left (see :func:`_split_tables`).
Values = tuple[float, float, float]


def _kept_values(
    ctx: Context, up: int, pair: int, key: bytes, k: int, free: bool = False
) -> Values:
    """A split value by (up card, pair, play key, pair cards out, free), kept with its
    context."""
    kept = _kept_by_context(ctx)
    got = kept.get((up, pair, key, k, free))
    if got is None:
        table = _split_table(ctx, up, pair, key, k, free)
        got = kept[up, pair, key, k, free] = _table_values(ctx, pair, table)
    return got


@memo(8)
def _kept_by_context(ctx: Context) -> dict[tuple[int, int, bytes, int, bool], Values]:
    """The split values of the last eight contexts (shoes): kept per context rather than in
    one least-recently-used list of entries, as a play key is some 50 KB, one object per play
    and context; a list of 4,096 entries filled by depleted shoes held 4,000 of them (185 MiB),
    while per context they are the few dozen plays of that shoe, dropped with it."""
    return {}


def _table_values(ctx: Context, pair: int, table: SplitTable) -> tuple[float, float, float]:
    nodes = ctx.nodes
    one = nodes.index[tuple(1 if v == pair else 0 for v in range(10))]
    b = table.solved.played
    left = table.base.comp.copy()
    left[pair] -= 1
    nk = float(left.sum())
    # Python floats: numpy's arithmetic, without its overhead
    played = [float(b[h]) for h in nodes.child[one].tolist()]
    ev_x = sum(x / nk * played[c] for c, x in enumerate(left.tolist()) if x > 0)
    return float(ev_x), played[pair], nk


@memo(256)
def _chart_decisions(ctx: Context, chart: bytes) -> tuple[IntArray, IntArray]:
    """A chart's decisions on split hands: they depend on no value, so :func:`run_solve`
    reads them off a table of zeros, once per chart."""
    n = ctx.nodes.size
    zeros = np.zeros(n)
    every = np.ones(n, dtype=np.bool_)
    blank = Base(ctx.fresh(), zeros, zeros, every, every, zeros)
    solved = run_solve(ctx, ACE, blank, CHART, split=True, chart=arrays_of(chart))
    return solved.dec, solved.decs


def split_needs(ctx: Context, up: int, pair: int, play: SplitPlay) -> BoolArray:
    """The hands a split of ``pair`` played by ``play`` can stand on (or end a double on)."""
    return split_hands(ctx, up, pair, play)[0]


def split_hands(ctx: Context, up: int, pair: int, play: SplitPlay) -> tuple[BoolArray, BoolArray]:
    """The hands a split of ``pair`` played by ``play`` can stand on (or end a double on), and
    those it can reach (see :func:`~twentyone.analysis.standing.stand_needed`); the same for
    every up card and every number of pair cards out (kept: a split's value reads them for
    each of up to 15 tables)."""
    if play.dec is not None:
        return _split_hands(ctx, pair, FIXED, arrays_key(play.dec))
    assert play.chart is not None
    return _split_hands(ctx, pair, CHART, arrays_key(play.chart))


@memo(64)
def _split_hands(ctx: Context, pair: int, mode: int, key: bytes) -> tuple[BoolArray, BoolArray]:
    nodes = ctx.nodes
    if ctx.spanish_doubles:  # a redouble reaches past the hands stand_needed follows
        every = np.ones(nodes.size, dtype=np.bool_)
        return every, every
    aces = pair == ACE and not ctx.hsa
    if mode == FIXED:
        dec, decs = arrays_of(key)
    else:
        dec, decs = _chart_decisions(ctx, key)
    one = nodes.index[tuple(1 if v == pair else 0 for v in range(10))]
    return stand_needed(one, nodes.child, nodes.ncards, nodes.total, dec, decs, aces)


def farmer_split_value(
    ctx: Context, up: int, shoe: IntArray, pair: int, play: SplitPlay, max_hands: int
) -> float:
    """Return of splitting ``pair`` (in the values' space) to at most four hands, ``shoe`` =
    cards left after the up card (the two pair cards still in it): Eric Farmer's exact CDZ-
    method (blackjack_split.pdf, as in his blackjack.cpp 5.5): each hand's value conditions on
    exactly how many pair and non-pair second cards the other hands took.
    :func:`twentyone.analysis.splits.split_value` takes any number of hands."""
    return _farmer_total(ctx, up, shoe, pair, play, max_hands, free=False)


class _FarmerSums:
    """The sums of Farmer's method for one split: ``ev_x(p, a, b)`` adds ``p`` times
    ``EV[X; a, b]`` (a split hand's value, ``a`` more pair cards and ``b`` other cards out),
    ``ev_n`` the same for a hand whose second card is not a pair card; the tables of each
    ``a`` are made once."""

    def __init__(
        self, ctx: Context, up: int, shoe: IntArray, pair: int, play: SplitPlay, free: bool = False
    ):
        self.ctx, self.up, self.shoe, self.pair, self.play = ctx, up, shoe, pair, play
        self.free = free
        self.q0 = ctx.pair_cards_left(shoe, pair, up)
        self.n0 = float(shoe.sum() - 2)
        self.total = 0.0
        self._tables: dict[int, tuple[float, float]] = {}
        self._play: SplitPlay | bytes = play_key(ctx, pair, play) or play

    def tables(self, a: int) -> tuple[float, float]:
        """``EV[X]`` and ``EV[P]`` with ``a`` more pair cards out (0, 0 where none can be)."""
        if a not in self._tables:
            ok = self.shoe[self.pair] >= a + 2 and self.q0 - a >= 0
            got = (
                _split_tables(self.ctx, self.up, self.pair, self._play, a + 2, self.free)
                if ok
                else None
            )
            self._tables[a] = got[:2] if got is not None else (0.0, 0.0)
        return self._tables[a]

    def ev_x(self, p: float, a: int, b: int) -> None:
        """Add ``p`` x EV[X; a, b]."""
        if p == 0.0:
            return
        if b == 0:
            self.total += p * self.tables(a)[0]
            return
        v = max(self.q0 - a, 0.0) / (self.n0 + 1 - a - b)
        self.ev_x(p / (1.0 - v), a, b - 1)
        self.ev_x(p * v / (v - 1.0), a + 1, b - 1)

    def ev_n(self, p: float, a: int, b: int) -> None:
        """Add ``p`` x EV[N; a, b] (the second card not a pair card)."""
        if p == 0.0:
            return
        v = max(self.q0 - a, 0.0) / (self.n0 - a - b)
        if b == 0:
            x, pp = self.tables(a)
            self.total += p / (1.0 - v) * (x - v * pp)
            return
        self.ev_n(p / (1.0 - v), a, b - 1)
        self.ev_n(p * v / (v - 1.0), a + 1, b - 1)


def free_split_value(
    ctx: Context,
    up: int,
    shoe: IntArray,
    pair: int,
    play: SplitPlay,
    max_hands: int,
    *,
    stakes: tuple[bool, bool] = (False, True),
) -> float:
    """Return of a free split of ``pair`` (Free Bet: the house stakes every hand the split
    makes; the player's bet stays on the first hand) to at most four hands, each hand's
    second card dealt in turn; as :func:`farmer_split_value`.

    Every hand's value is its own stake's plus its double's, each the player's or the house's
    (a house's stake wins and never loses); the decisions are the same either way. So the
    split's return is Farmer's sum over the hands with every own stake the house's, plus, for
    the first hand alone, the difference its real stake makes. The first hand keeps the first
    pair card; dealt in turn, it takes its second card at once, is split again while that is a
    pair card and resplitting is allowed, and is played out before any other hand takes a
    card: its second card is the first card that is not a pair card after ``k`` pair cards
    went to new hands (``EV[N; k, 0]``), or any card once the last allowed hand is made
    (``EV[X; max_hands - 2, 0]``).

    ``stakes``: whose the first hand's stake is and whose the new hands' are (``True``: the
    house's): ``(False, True)`` a free split of the player's hand, ``(True, True)`` a free
    split of a hand a free split made (every hand the house's), ``(True, False)`` a paid split
    of such a hand."""
    first_free, others_free = stakes
    every = _farmer_total(ctx, up, shoe, pair, play, max_hands, free=others_free)
    if first_free == others_free:
        return every
    first = _FarmerSums(ctx, up, shoe, pair, play, free=first_free)
    others = _FarmerSums(ctx, up, shoe, pair, play, free=others_free)
    n0, q0 = first.n0, first.q0
    for sums in (first, others):
        for k in range(max_hands - 2):
            sums.ev_n(_arrangement(n0, q0, k, 1, 1.0), k, 0)
        sums.ev_x(_arrangement(n0, q0, max_hands - 2, 0, 1.0), max_hands - 2, 0)
    return float(every + first.total - others.total)


def _farmer_total(
    ctx: Context,
    up: int,
    shoe: IntArray,
    pair: int,
    play: SplitPlay,
    max_hands: int,
    *,
    free: bool,
) -> float:
    """Farmer's sum over the split's hands (:func:`farmer_split_value`), every hand's own
    stake the house's where ``free``."""
    sums = _FarmerSums(ctx, up, shoe, pair, play, free)
    n0, q0 = sums.n0, sums.q0
    # stopping early: exactly h < max_hands hands (h - 1 orders of the draws for h <= 3)
    for h in range(2, max_hands):
        sums.ev_n(_arrangement(n0, q0, h - 2, h, h - 1.0) * h, h - 2, h - 1)
    # the last allowed hand made after k hands were completed with a non-pair card
    for k in range(max_hands - 1):
        r = _arrangement(n0, q0, max_hands - 2, k, 2.0 if max_hands == 4 and k > 0 else 1.0)
        if k > 0:
            sums.ev_n(r * k, max_hands - 2, k - 1)
        sums.ev_x(r * (max_hands - k), max_hands - 2, k)
    return float(sums.total)


def _arrangement(n0: float, q0: float, pairs: int, others: int, ways: float) -> float:
    """``ways`` x the probability that the next cards are ``pairs`` pair cards, then
    ``others`` other cards (``q0`` pair cards among ``n0``)."""
    n, p, np_ = n0, q0, n0 - q0
    out = ways
    for _ in range(pairs):
        out *= max(p, 0.0) / n
        p -= 1
        n -= 1
    for _ in range(others):
        out *= np_ / n
        np_ -= 1
        n -= 1
    return out


def split_value_weighted(
    ctx: Context, up: int, shoe: IntArray, pair: int, play: SplitPlay, max_hands: int
) -> float:
    max_hands = min(max_hands, TABLE_HANDS)  # as far as the split tables' layers go
    q0 = ctx.pair_cards_left(shoe, pair, up)
    n0 = float(shoe.sum() - 2)
    w_np, w_any = split_weights(max_hands, q0, n0)
    ks = set(w_np) | ({max_hands} if w_any > 0 else set())
    total = 0.0
    key = play_key(ctx, pair, play) or play
    for k in sorted(ks):
        if shoe[pair] < k:
            continue
        v_any, v_pair, nk = _split_tables(ctx, up, pair, key, k)
        total += w_any * v_any if k == max_hands else 0.0
        if k in w_np and w_np[k] > 0:
            p_pair = max(q0 - (k - 2), 0.0) / nk
            v_np = (v_any - p_pair * v_pair) / (1.0 - p_pair) if p_pair < 1 else 0.0
            total += w_np[k] * v_np
    return float(total)


@dataclass
class HandOptions:
    """Values (in the values' space) of each legal action on a first hand, for the share
    ``1 - sf`` where the 6-7-8 bonus cannot pay (``plain``) and the share ``sf`` where it can
    (``bonus``)."""

    plain: dict[str, float]
    bonus: dict[str, float]
    sf: float

    def best(self) -> float:
        return (1.0 - self.sf) * max(self.plain.values()) + self.sf * max(self.bonus.values())


def hand_options(
    ctx: Context,
    up: int,
    node: int,
    solved: Solved,
    base: Base,
    *,
    split: float | None,
    surrender: bool,
) -> HandOptions:
    """The legal actions on a first two-card (non-blackjack) hand."""
    nodes = ctx.nodes
    s, h, d, bb, sf = solved.stand, solved.hit, solved.double, solved.bonus, solved.bonus_share
    t, soft = int(nodes.total[node]), bool(nodes.soft[node])
    plain: dict[str, float] = {}
    bonus: dict[str, float] = {}
    if t >= ctx.min_stand or t == 21:
        plain["stand"] = bonus["stand"] = float(s[node])
    if t < 21:
        plain["hit"] = float(h[node])
        bonus["hit"] = float(h[node] + bb[node])
    if ctx.can_double(t, soft):
        plain["double"] = float(d[node])
        bonus["double"] = float(d[node] + bb[node])
    if split is not None:
        plain["split"] = bonus["split"] = split
    if surrender:
        plain["surrender"] = bonus["surrender"] = ctx.surrender_value(float(base.pbj[node]))
    return HandOptions(plain, bonus, float(sf[node]))


def top_offset(ctx: Context, up: int, pbj: float) -> float:
    """What the values' space leaves out of a non-blackjack first hand: with a peek, the
    dealer's blackjack takes the original bet before play."""
    return -pbj if ctx.peek and up in (ACE, TEN) else 0.0


def blackjack_value(ctx: Context, pbj: float) -> float:
    """A player blackjack: paid unless the dealer has one too (then a push, or by
    ``Rules.blackjack_ties`` paid or lost: ``ctx.bj_tie``)."""
    if ctx.bj_tie != 0.0:
        return ctx.bj_pays * (1.0 - pbj) + ctx.bj_tie * pbj
    return ctx.bj_pays * (1.0 - pbj)


ACTION_CODE = {STAND: "stand", HIT: "hit", DOUBLE: "double"}


def two_card_nodes(ctx: Context) -> tuple[tuple[int, int, int], ...]:
    """``(a, b, node)`` for every two-card hand ``a <= b``."""
    return _two_card_nodes(ctx.decks)


@memo(16, table=True)
def _two_card_nodes(decks: int) -> tuple[tuple[int, int, int], ...]:
    index = player_nodes(decks).index
    out = []
    for a in range(10):
        for b in range(a, 10):
            key = tuple((v == a) + (v == b) for v in range(10))
            out.append((a, b, index[key]))
    return tuple(out)


def two_card_deals(ctx: Context, up: int) -> tuple[tuple[int, int, int, float], ...]:
    """``(a, b, node, p)`` for every two-card hand ``a <= b``: ``p`` its chance from the shoe
    less the up card ``up`` (cached: every table of an up card reads them)."""
    return _two_card_deals(ctx, up)


@memo(64)
def _two_card_deals(ctx: Context, up: int) -> tuple[tuple[int, int, int, float], ...]:
    shoe = shoe_after(ctx, up)
    nodes = two_card_nodes(ctx)
    return tuple((a, b, node, two_card_probability(shoe, a, b)) for a, b, node in nodes)


def is_blackjack(a: int, b: int) -> bool:
    return a == ACE and b == TEN


def mix_rank_pairs(ctx: Context, a: int, b: int, with_split: float, without: float) -> float:
    """Ten-value pairs split by rank: only the share of one rank may split."""
    if a == b == TEN and ctx.split_rank:
        p = ctx.same_rank_share()
        return p * with_split + (1.0 - p) * without
    return with_split


def ev_array(values: list[float]) -> float:
    return float(np.sum(values))
