"""The exact mean and second moment of a split round's net, resplits included, from any shoe.

A round that reaches three hands or more cannot be listed from a big shoe
(:mod:`twentyone.analysis.resplit_exact`): its hands' cards make too many sets. Its mean and
second moment need much less, because every order of the same cards has the same chance.

The second moment of ``X = Y_1 + ... + Y_m`` (``Y_i`` the net of split hand ``i``, ``m`` the
number of hands) is the sum of ``E[Y_i^2]`` and of ``E[Y_i Y_j]`` over ordered pairs ``i != j``:
it reads one or two hands at a time, with the dealer. Each hand's play looks only at its own
cards, so the cards of the round can be dealt in any order without changing any chance
(:mod:`twentyone.analysis.split_joint`): first the one or two hands read, then the dealer,
then everything else. What else the round holds is then a *pattern*: the pair cards that made
more hands (``k`` of them) and the other hands, each either a hand whose second card may not
be a pair card (made while another hand was still allowed: ``np``) or one whose second card
may be any card (``any``). A hand's later cards add nothing once its second card is drawn (its
play ends, whatever it draws: a chance of 1), an ``any`` hand not even that, so the rest's
chance from the cards left (``P`` pair cards of ``N``) is

    ff(P, k) * ff(N - P, n) / ff(N, k + n)        (``n`` the other ``np`` hands)

which reads only how many cards and how many pair cards the hands read and the dealer took.
Summed over the patterns the engine's order allows with the number of hands or pairs of hands
of each kind they hold, these chances are five tables (:mod:`twentyone.analysis.split_patterns`);
the dealer's outcomes are then read weighted by them (:func:`weighted_rows`), by the cards the
dealer takes and the pair cards among them, and
every set of cards a hand takes and every pair of them (the hands' atoms:
:func:`~twentyone.analysis.resplit_exact.hand_weights`) adds its terms (:func:`singles_kernel`,
:func:`pairs_kernel`). Nothing is taken independent: the figures are exact for any number
of hands, ``max_hands = "unlimited"`` included (every pair card of the shoe making a hand).

A round's whole distribution would need every hand jointly, which this does not give; it
fixes the mean and second moment that :mod:`twentyone.analysis.outcomes` matches the
approximated rounds of three hands or more to.

"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from twentyone.analysis.caches import memo
from twentyone.analysis.dealer import BUST, MAX_RUN, MAX_SIZE, standing_table
from twentyone.analysis.resplit_exact import hand_weights
from twentyone.analysis.shoe_counts import FloatArray, IntArray, Nodes
from twentyone.analysis.split_joint import (
    DIGITS,
    FREE,
    falling_tables,
    key_rows_kernel,
    pair_rows_kernel,
)
from twentyone.analysis.split_patterns import ONE_ANY, ONE_NP, TWO_ANY, TWO_NP, rest_weights
from twentyone.engine.jit import njit

if TYPE_CHECKING:
    from twentyone.analysis.context import Context

#: Sets of cards :func:`weighted_rows` takes through the trie together, at most (as
#: :func:`~twentyone.analysis.dealer.dealer_dists`: the inner loops compile to vector
#: instructions).
BLOCK = 64


@njit(cache=True)
def weighted_rows(
    shoe: IntArray,
    removed: IntArray,
    pair: int,
    parent: IntArray,
    fac: IntArray,
    ways: FloatArray,
    bucket: IntArray,
    weights: FloatArray,
) -> FloatArray:  # pragma: no cover - compiled
    """``rows[i, t, d]``: the chance of the dealer's outcome ``d`` drawing from ``shoe -
    removed[i]`` times the weight ``weights[t]`` of the cards left after the dealer (by the
    pair cards and cards out, the dealer's counted with ``removed[i]``'s). The trie is a
    :func:`~twentyone.analysis.dealer.standing_table`, taken through by blocks of rows as
    :func:`~twentyone.analysis.dealer.dealer_dists` does, each final hand's chance summed by
    its *cell* (its pair cards, size and outcome: they fix its weight). The bust's entry is
    what the others leave of ``weights[t]`` before the dealer draws (every way the dealer can
    end, weighted so, sums to it: the cards are exchangeable)."""
    nodes = parent.shape[0]
    tables, top_q, top_l = weights.shape
    # weights[u, q, l] at (q * wide + l) * tables + u, zeros past the tables (no cards left
    # for the rest): a row's index plus a cell's, without a test
    high, wide = top_q + MAX_RUN, top_l + MAX_SIZE
    flat = np.zeros(high * wide * tables)
    for u in range(tables):
        for qi in range(top_q):
            for ell in range(top_l):
                flat[(qi * wide + ell) * tables + u] = weights[u, qi, ell]
    depth = np.zeros(nodes, dtype=np.int64)
    pairs = np.zeros(nodes, dtype=np.int64)  # pair cards on the node's path
    most = np.zeros(10, dtype=np.int64)
    for t in range(nodes):
        v, k = fac[t] // MAX_RUN, fac[t] % MAX_RUN
        if parent[t] >= 0:
            depth[t] = depth[parent[t]] + 1
            pairs[t] = pairs[parent[t]]
        if v == pair:
            pairs[t] = k
        if k > most[v]:
            most[v] = k
    code = np.full((MAX_RUN + 1) * MAX_SIZE * 7, -1, dtype=np.int64)
    cell = np.full(nodes, -1, dtype=np.int64)
    count = 0
    for t in range(nodes):
        if bucket[t] >= 0:
            c = pairs[t] * MAX_SIZE * 7 + bucket[t]
            if code[c] < 0:
                code[c] = count
                count += 1
            cell[t] = code[c]
    cn = np.zeros(count, dtype=np.int64)  # each cell's size, outcome, place in the weights
    cd = np.zeros(count, dtype=np.int64)
    co = np.zeros(count, dtype=np.int64)
    for c in range(code.shape[0]):
        if code[c] >= 0:
            cn[code[c]] = (c % (MAX_SIZE * 7)) // 7
            cd[code[c]] = c % 7
            co[code[c]] = ((c // (MAX_SIZE * 7)) * wide + cn[code[c]]) * tables
    n = removed.shape[0]
    out = np.zeros((n, tables, 7))
    w = BLOCK if n >= BLOCK else 8 if n == 0 else (n + 7) // 8 * 8
    width = np.uint64(w)
    ff = np.zeros(10 * MAX_RUN * w)  # ff[(v * MAX_RUN + k) * w + r]
    path = np.zeros((MAX_SIZE + 1) * w)
    for r in range(w):
        path[r] = 1.0
        for v in range(10):
            ff[v * MAX_RUN * w + r] = 1.0
    acc = np.zeros(max(count, 1) * w)  # acc[cell * w + r]
    left = np.zeros(w)
    cards = np.zeros(w, dtype=np.int64)
    ok_rows = np.zeros(w, dtype=np.bool_)
    inv = np.zeros(MAX_SIZE * w)  # inv[size * w + r]: 1 / ff(cards left, size)
    base = np.zeros(w, dtype=np.int64)  # each row's place in the weights
    res = np.zeros(tables * 7 * w)  # res[(u * 7 + d) * w + r]
    for start in range(0, n, w):
        for r in range(w):
            i = start + r
            ok = i < n
            if ok:
                for v in range(10):
                    if shoe[v] - removed[i, v] < 0:
                        ok = False
            ok_rows[r] = ok
            cards[r] = 0
        for v in range(10):
            for r in range(w):
                c = shoe[v] - removed[start + r, v] if ok_rows[r] else 0
                left[r] = c
                cards[r] += c
            row = np.uint64(v * MAX_RUN) * width
            for k in range(1, most[v] + 1):
                below = k - 1.0
                for r in range(width):
                    y = left[r] - below
                    ff[row + width + r] = ff[row + r] * y if y > 0 else 0.0
                row += width
        for j in range(count * w):
            acc[j] = 0.0
        for t in range(nodes):
            q = np.uint64(depth[t]) * width
            o = q + width
            f = np.uint64(fac[t]) * width
            for r in range(width):
                path[o + r] = path[q + r] * ff[f + r]
            if cell[t] >= 0:
                x = ways[t]
                a = np.uint64(cell[t]) * width
                for r in range(width):
                    acc[a + r] += x * path[o + r]
        for r in range(w):
            i = start + r
            x = 1.0
            for size in range(1, MAX_SIZE):
                y = cards[r] - size + 1
                x = x / y if y > 0 else 0.0
                inv[size * w + r] = x
            base[r] = top_q * wide * tables  # past the tables: zeros for every cell
            if ok_rows[r]:
                taken = 0
                for v in range(10):
                    taken += removed[i, v]
                if removed[i, pair] < top_q and taken < top_l:
                    base[r] = (removed[i, pair] * wide + taken) * tables
        for j in range(tables * 7 * w):
            res[j] = 0.0
        for c in range(count):
            a = np.uint64(c) * width
            b = np.uint64(cn[c]) * width
            for u in range(tables):
                o = np.uint64((u * 7 + cd[c]) * w)
                at = co[c] + u
                for r in range(width):
                    res[o + r] += acc[a + r] * inv[b + r] * flat[base[r] + at]
        for r in range(w):
            if not ok_rows[r]:
                continue
            i = start + r
            for u in range(tables):
                s = 0.0
                for d in range(7):
                    x = res[(u * 7 + d) * w + r]
                    out[i, u, d] = x
                    if d != BUST:
                        s += x
                out[i, u, BUST] = flat[base[r] + u] - s
    return out


@njit(cache=True)
def chances_kernel(
    shoe: IntArray, drawn: IntArray, row: npt.NDArray[np.int32], pairs: bool
) -> FloatArray:  # pragma: no cover - compiled
    """Each set's chance of being drawn from ``shoe`` or, with ``pairs``, each pair ``a <=
    b`` of sets' (their cards together), in the order of ``row``: computed once per row (it
    depends on the cards only)."""
    t = drawn.shape[0]
    size = np.zeros(t, dtype=np.int64)
    most = 0
    for a in range(t):
        for v in range(10):
            size[a] += drawn[a, v]
        most = max(most, size[a])
    ff, inv = falling_tables(shoe, 2 * most + 1)
    most_row = 0
    for j in range(row.shape[0]):
        most_row = max(most_row, row[j])
    known = np.full(most_row + 1, -1.0)  # a chance is never negative
    out = np.zeros(row.shape[0])
    j = 0
    for a in range(t):
        for b in range(a, t if pairs else a + 1):
            r = row[j]
            if known[r] < 0.0:
                f = inv[size[a] + size[b]] if pairs else inv[size[a]]
                for v in range(10):
                    f *= ff[v, drawn[a, v] + drawn[b, v]] if pairs else ff[v, drawn[a, v]]
                known[r] = f
            out[j] = known[r]
            j += 1
    return out


@njit(cache=True)
def singles_kernel(
    chance: FloatArray,
    row: npt.NDArray[np.int32],
    rows: FloatArray,
    nets: FloatArray,
    outcomes: int,
) -> tuple[float, float]:  # pragma: no cover - compiled
    """The sums of a hand's net and of its square (half bets) over every set of cards a hand
    reads alone (``nets[a, j, d]``: the set's signed weights times the net, ``j`` = 0, and its
    square, ``j`` = 1, against the dealer's outcome ``d``; ``j + 2``: the same for an ``any``
    hand), against the dealer's first ``outcomes`` outcomes."""
    m1 = 0.0
    m2 = 0.0
    for a in range(chance.shape[0]):
        f = chance[a]
        if f == 0.0:
            continue
        r = row[a]
        for d in range(outcomes):
            m1 += f * (rows[r, 0, d] * nets[a, 0, d] + rows[r, 1, d] * nets[a, 2, d])
            m2 += f * (rows[r, 0, d] * nets[a, 1, d] + rows[r, 1, d] * nets[a, 3, d])
    return m1, m2


@njit(cache=True)
def pairs_kernel(
    chance: FloatArray,
    row: npt.NDArray[np.int32],
    rows: FloatArray,
    nets: FloatArray,
    outcomes: int,
) -> float:  # pragma: no cover - compiled
    """The sum of two hands' nets' product (half bets, squared) over every ordered pair of
    hands' sets of cards (each pair ``a <= b`` once, ``nets`` as :func:`singles_kernel` reads it),
    the hands ``np`` or ``any`` in every way, against the dealer's first ``outcomes``
    outcomes."""
    t = nets.shape[0]
    m2 = 0.0
    j = 0
    for a in range(t):
        for b in range(a, t):
            f = chance[j]
            r = row[j]
            j += 1
            if f == 0.0:
                continue
            two = 2.0 if a != b else 1.0  # both orders
            for d in range(outcomes):
                na, nb = nets[a, 0, d], nets[b, 0, d]
                aa, ab = nets[a, 2, d], nets[b, 2, d]
                cross = na * ab + (aa * nb if a != b else 0.0)
                m2 += f * (
                    two * (rows[r, 0, d] * na * nb + rows[r, 2, d] * aa * ab)
                    + rows[r, 1, d] * cross
                )
    return m2


class SplitMoments(NamedTuple):
    """The sums of a split round's net and of the net's square over its rounds (those the
    dealer's blackjack did not end, with a peek), in initial bets (``second`` None where only
    the mean was asked)."""

    first: float
    second: float | None


class WeightedRows:
    """The dealer's outcomes weighted by the rest's chances (:func:`weighted_rows`) for one up
    card and pair, by set of cards the hands read take (found in a hash table, each set's row
    computed once: a split's strategies share most of them)."""

    def __init__(
        self, shoe: IntArray, up: int, pair: int, h17_from: int, weights: FloatArray
    ) -> None:
        self.shoe = np.ascontiguousarray(shoe, dtype=np.int64)
        self.pair = pair
        self.table = standing_table(up, h17_from)
        self.weights = np.ascontiguousarray(weights)
        self.slots = np.full(2 << 12, FREE, dtype=np.int64)
        self.cards = np.zeros(10 << 11, dtype=np.int64)
        self.count = 0
        self.store = np.zeros((1 << 11, weights.shape[0], 7))
        self.known = 0

    @property
    def rows(self) -> FloatArray:
        """The weighted rows of every set met so far, by row."""
        return self.store[: self.known]

    def single_rows(self, drawn: IntArray) -> npt.NDArray[np.int32]:
        """The row of each atom's set of cards."""
        row, self.slots, self.cards, self.count = key_rows_kernel(
            np.ascontiguousarray(drawn @ DIGITS), self.slots, self.cards, self.count
        )
        self._fill()
        return row

    def pair_rows(self, drawn: IntArray) -> npt.NDArray[np.int32]:
        """The row of each pair of atoms ``a <= b`` (their cards together)."""
        row, self.slots, self.cards, self.count = pair_rows_kernel(
            drawn, np.zeros(10, dtype=np.int64), self.slots, self.cards, self.count
        )
        self._fill()
        return row

    def _fill(self) -> None:
        known, count = self.known, self.count
        if count > known:
            removed = self.cards[: 10 * (count - known)].reshape(count - known, 10)
            t = self.table
            new = weighted_rows(
                self.shoe, removed, self.pair, t.parent, t.fac, t.ways, t.bucket, self.weights
            )
            if count > self.store.shape[0]:
                grown = np.zeros((max(count, 2 * self.store.shape[0]), *self.store.shape[1:]))
                grown[:known] = self.store[:known]
                self.store = grown
            self.store[known:count] = new
            self.known = count


class SplitRows(NamedTuple):
    """The weighted dealer's rows of one up card and pair: for one hand read (tables
    :data:`ONE_NP`, :data:`ONE_ANY`) and for two (:data:`TWO_NP`, :data:`NP_ANY`,
    :data:`TWO_ANY`), apart: the sets of cards of one hand and of two are different sets."""

    one: WeightedRows
    two: WeightedRows


def split_rows(
    shoe: IntArray, up: int, pair: int, h17_from: int, limit: int, most: int
) -> SplitRows:
    """:class:`SplitRows` for a split to ``limit`` hands from ``shoe`` (the cards left after
    the up card and the two pair cards), hands and dealer taking ``most`` cards at most."""
    pair_cards = int(shoe[pair])
    weights = rest_weights(limit, pair_cards, int(shoe.sum()) - pair_cards, most)
    return SplitRows(
        WeightedRows(shoe, up, pair, h17_from, weights[ONE_NP : ONE_ANY + 1]),
        WeightedRows(shoe, up, pair, h17_from, weights[TWO_NP : TWO_ANY + 1]),
    )


class _Partial(NamedTuple):
    """What :func:`split_moments` found before the pairs of hands (kept for a second call
    that asks for them)."""

    sets: IntArray
    nets: FloatArray
    first: float
    single: float


def split_moments(
    nodes: Nodes,
    dec: IntArray,
    rows: SplitRows,
    pair: int,
    *,
    aces: bool,
    net: IntArray,
    outcomes: int,
    second: bool = True,
    partial: _Partial | None = None,
    decs: IntArray | None = None,
    bonus: bool = False,
) -> tuple[SplitMoments, _Partial]:
    """The exact :class:`SplitMoments` of a split of ``pair`` played by ``dec`` hand by hand,
    from ``rows``' shoe (the cards left after the up card and the two pair cards) to its
    hands at most (``aces``: split aces take one card each); ``net[s, d]``: a hand's net in
    half bets by its state and the dealer's outcome, of which the first ``outcomes`` count
    (six with a peek); ``second``: the second moment too (its pairs of hands are most of the
    work), else only the mean; ``partial``: what an earlier call for the mean found;
    ``bonus``: the 6-7-8 / 7-7-7 bonus pays on split hands, its share played by ``decs``."""
    if partial is None:
        sets, nets = _hand_sets(nodes, (dec, dec if decs is None else decs), pair, aces, net, bonus)
        one = rows.one.single_rows(sets)
        chance = chances_kernel(rows.one.shoe, sets, one, False)
        m1, m2 = singles_kernel(chance, one, rows.one.rows, nets, outcomes)
        partial = _Partial(sets, nets, m1, m2)
    if not second:
        return SplitMoments(partial.first / 2.0, None), partial
    two = rows.two.pair_rows(partial.sets)
    chance = chances_kernel(rows.two.shoe, partial.sets, two, True)
    m2 = partial.single + pairs_kernel(chance, two, rows.two.rows, partial.nets, outcomes)
    return SplitMoments(partial.first / 2.0, m2 / 4.0), partial


def _hand_sets(
    nodes: Nodes,
    decs: tuple[IntArray, IntArray],
    pair: int,
    aces: bool,
    net: IntArray,
    bonus: bool,
) -> tuple[IntArray, FloatArray]:
    """The sets of cards a split hand can take after its pair card (its atoms, ``np`` and
    ``any`` together) and, for each, its signed weights times the net and times the net's
    square against each dealer's outcome, as an ``np`` hand and as an ``any`` hand (zeros
    where it is not one)."""
    found = [
        hand_weights(nodes, decs[0], pair, aces=aces, np_=np_, decs=decs[1], bonus=bonus)
        for np_ in (True, False)
    ]
    keys = [drawn @ DIGITS for drawn, _ in found]
    uniq, first = np.unique(np.concatenate(keys), return_index=True)
    sets = np.concatenate([drawn for drawn, _ in found])[first]
    nets = np.zeros((uniq.size, 4, 7))
    powers = np.stack([net, net * net]).astype(np.float64)  # (2, states, 7)
    for j, (_, dense) in enumerate(found):
        at = np.searchsorted(uniq, keys[j])
        nets[at, 2 * j : 2 * j + 2] = np.einsum("as,psd->apd", dense, powers)
    return np.ascontiguousarray(sets), nets


def split_moments_of(
    ctx: Context,
    up: int,
    pair: int,
    dec: IntArray,
    limit: int,
    *,
    second: bool = True,
    decs: IntArray | None = None,
) -> SplitMoments | None:
    """:func:`split_moments` of a split of ``pair`` against ``up`` from ``ctx``'s shoe, hands
    played by ``dec``, ``limit`` hands at most, kept (the optimum and the chart often play the
    split hands alike; the split's return and its distribution read the same); None for a
    ten-value pair split by rank (the shoe's counts do not tell how many of its rank are
    left)."""
    from twentyone.analysis.grid import hand_nets
    from twentyone.analysis.shoe_counts import ACE, TEN

    ctx.refuse_push22("split moments")
    ctx.refuse_spanish("split moments")
    ctx.refuse_free("split moments")
    ctx.refuse_ties("split moments")
    if pair == TEN and ctx.split_rank:
        return None
    kept = _kept(ctx)
    decs = dec if decs is None else decs
    digest = hashlib.blake2b(dec.tobytes() + decs.tobytes(), digest_size=16).digest()
    key = (up, pair, limit, digest)  # the plays' digest: a key of 50 KB per split otherwise
    if key in kept and (kept[key][0].second is not None or not second):
        return kept[key][0]
    got, partial = split_moments(
        ctx.nodes, dec, _rows(ctx, up, pair, limit), pair, aces=pair == ACE and not ctx.hsa,
        net=hand_nets(ctx), outcomes=6 if ctx.peek else 7, second=second,
        partial=kept[key][1] if key in kept else None, decs=decs, bonus=ctx.bonus > 0,
    )  # fmt: skip
    kept[key] = (got, None if second else partial)  # the partial work only until it is done
    return got


@memo(4)
def _kept(
    ctx: Context,
) -> dict[tuple[int, int, int, bytes], tuple[SplitMoments, _Partial | None]]:
    """The splits' moments computed for ``ctx`` (:func:`split_moments_of`), for the last four
    shoes (a server's hints ask one shoe after another)."""
    return {}


@memo(20)
def _rows(ctx: Context, up: int, pair: int, limit: int) -> SplitRows:
    """The weighted dealer's rows of one up card and pair from ``ctx``'s shoe (kept for about
    two up cards' splits: the optimum's and the chart's share them; the pairs of sets of twos
    or threes take ten MB and more, so no more are kept)."""
    from twentyone.analysis.context import shoe_after

    shoe = shoe_after(ctx, up)
    shoe[pair] -= 2
    most = 2 * int(ctx.nodes.ncards.max()) + MAX_SIZE
    return split_rows(shoe, up, pair, ctx.h17_from, limit, most)


def tilted(dist: FloatArray, values: FloatArray, first: float, second: float) -> FloatArray | None:
    """``dist`` (nets' masses at ``values``) reweighted by ``exp(a * x + b * x**2)`` to the
    same mass and the sums ``first`` of ``x`` and ``second`` of ``x**2`` (the least change of
    its shape, in the sense of relative entropy, that reaches them), or None where they are
    out of its reach (Newton's method on ``a``, ``b``).

    >>> x = np.array([-1.0, 0.0, 1.0, 2.0])
    >>> got = tilted(np.array([0.25, 0.25, 0.25, 0.25]), x, 0.6, 1.5)
    >>> [round(float(v), 12) for v in (got.sum(), got @ x, got @ x**2)]
    [1.0, 0.6, 1.5]
    """
    mass = float(dist.sum())
    on = dist > 0.0
    x, q = values[on], dist[on] / mass
    want = np.array([first, second]) / mass
    theta = np.zeros(2)
    for _ in range(60):
        z = theta[0] * x + theta[1] * x * x
        e = q * np.exp(z - z.max())
        e /= e.sum()
        m = np.array([e @ x, e @ x**2])
        miss = m - want
        if np.all(np.abs(miss) <= 1e-13 * (1.0 + np.abs(want))):
            out = np.zeros_like(dist)
            out[on] = e * mass
            return out
        cov = np.array(
            [[e @ x**2 - m[0] ** 2, e @ x**3 - m[0] * m[1]],
             [e @ x**3 - m[0] * m[1], e @ x**4 - m[1] ** 2]]
        )  # fmt: skip
        if abs(np.linalg.det(cov)) <= 1e-300:
            return None
        theta -= np.linalg.solve(cov, miss)
    return None
