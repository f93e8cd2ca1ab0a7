"""The dealer's final-total probabilities for any shoe composition, exactly.

Every sequence of cards the dealer can draw from an up card ends in a *final multiset* of
values. All orderings of one multiset are equally likely from a given shoe, so

    P(final multiset M) = orderings(M) * prod_v ff(c_v, m_v) / ff(N, |M|)

where ``ff`` is the falling factorial and ``orderings(M)`` counts only the orders the dealer's
rule allows (no stop before the last card). The table of final multisets and their orderings
is built once per up card and soft-17 rule, as a trie that shares the products of common
prefixes; each composition then costs one pass over that trie.

Outcomes are indexed 0-4 = 17..21, 5 = bust, 6 = blackjack (the up card and the first card
drawn make 21). Where a dealer's 22 pushes (``Rules.dealer_22``), a final of exactly 22 is an
outcome apart: :data:`TWENTY_TWO` (7) is appended and the bust (5) is then 23 or more.

>>> from twentyone.analysis.shoe_counts import fresh_counts
>>> d = dealer_distribution(fresh_counts(1) - np.eye(10, dtype=np.int64)[5], 5, 0)
>>> round(float(d.sum()), 12)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from twentyone.analysis.caches import memo
from twentyone.analysis.kept import kept
from twentyone.analysis.shoe_counts import ACE, KEY_DIGITS, TEN, BoolArray, FloatArray, IntArray
from twentyone.engine.jit import njit
from twentyone.engine.predicates import dealer_draws

OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST, BLACKJACK = 5, 6
#: The dealer's final 22 where it pushes (``dealer_22 = "push"``): the eighth outcome.
OUTCOMES_22 = (*OUTCOMES, "22")
TWENTY_TWO = 7


@dataclass(frozen=True)
class DealerTable:
    """The final multisets of one up card as a trie over (value, count) steps, values from ten
    down to ace: node ``t`` multiplies its ``parent``'s product by the falling factorial
    ``ff[fac[t] // 12, fac[t] % 12]``; a node that is a final multiset has ``ways`` orderings
    and ``bucket = size * 7 + outcome`` (-1 for a mere prefix). The nodes come in depth-first
    order (each node's parent is the last node before it one level up); any subset closed
    under parents keeps that order."""

    parent: IntArray
    fac: IntArray
    ways: FloatArray
    bucket: IntArray
    finals: int


MAX_RUN = 12  # falling factorials kept per value (no dealer hand holds 12 of one value)
MAX_SIZE = 16


_WEIGHTS = np.arange(1, 11, dtype=np.int64)  # each value index's blackjack value


def _totals(up: int, counts: IntArray, hole: int = -1) -> tuple[IntArray, BoolArray]:
    """The dealer's best total and softness for rows of value ``counts`` drawn to ``up`` (and
    to a known hole card ``hole`` where it is one: ``-1`` for none)."""
    hard = up + 1 + counts @ _WEIGHTS
    aces = (up == ACE) | (counts[:, ACE] > 0)
    if hole >= 0:
        hard = hard + hole + 1
        aces = aces | (hole == ACE)
    soft = aces & (hard + 10 <= 21)
    return np.where(soft, hard + 10, hard), soft


def _merged(counts: IntArray, ways: FloatArray) -> tuple[IntArray, FloatArray]:
    """The distinct rows of ``counts``, each with the sum of its ``ways`` (whole numbers below
    2**53: summed in any order, exactly)."""
    keys = counts @ KEY_DIGITS
    uniq, first, which = np.unique(keys, return_index=True, return_inverse=True)
    summed = np.bincount(which.ravel(), weights=ways, minlength=uniq.size)
    return counts[first], np.asarray(summed, dtype=np.float64)


def _final_multisets(up: int, h17_from: int, hole: int = -1) -> tuple[IntArray, FloatArray]:
    """Every multiset of values the dealer can end with under ``up`` (one row of counts
    each) and its number of orderings the drawing rule allows (no stop before the last
    card): a breadth-first walk, one card more at each level (``h17_from``: the fewest cards
    with which the dealer hits a soft 17, 0 for never: ``Rules.soft_17_hit_from``; ``hole``:
    the dealer's second card, known, drawn to before the first card counted: a start the dealer
    stands on has no final here, see :func:`start_stands`)."""
    held = 1 if hole < 0 else 2  # the dealer's cards before the first one drawn
    draws = np.array(
        [
            [
                [dealer_draws(t, soft, n, h17_from) for n in range(MAX_SIZE + 2)]
                for soft in (False, True)
            ]
            for t in range(32)
        ]
    )  # the rule itself (predicates.py), tabled for every total and size the walk meets
    step = np.eye(10, dtype=np.int64)
    front, front_ways = np.zeros((1, 10), dtype=np.int64), np.ones(1)
    finals: list[IntArray] = []
    finals_ways: list[FloatArray] = []
    while front.shape[0]:
        grown = (front[:, None, :] + step[None, :, :]).reshape(-1, 10)
        ways = np.repeat(front_ways, 10)
        total, soft = _totals(up, grown, hole)
        more = draws[total, soft.astype(np.int64), held + grown.sum(axis=1)]
        ended, ended_ways = _merged(grown[~more], ways[~more])
        finals.append(ended)
        finals_ways.append(ended_ways)
        front, front_ways = _merged(grown[more], ways[more])
    return np.concatenate(finals), np.concatenate(finals_ways)


@memo(64, table=True)
@kept("dealer_table", DealerTable)
def dealer_table(up: int, h17_from: int) -> DealerTable:
    """The final multisets for up card value index ``up`` (cached).

    A final multiset's path in the trie is its (value, count) steps from ten down to ace,
    each step a node ``value * MAX_RUN + count`` (``fac``); the finals are sorted by path
    (a path before its extensions, steps compared by value then count), which puts the
    nodes in depth-first order: each final adds the steps past what it shares with the
    final before it, and a step it shares is the node that final's path holds.

    >>> t = dealer_table(9, 0)  # a ten up: a blackjack (an ace drawn) is one final
    >>> int(t.bucket[(t.fac == 0 * MAX_RUN + 1) & (t.parent < 0)][0]) == 1 * 7 + BLACKJACK
    True
    """
    return _build_table(up, h17_from, -1)


@memo(64, table=True)
def start_table(up: int, hole: int, h17_from: int) -> DealerTable:
    """:func:`dealer_table` for a dealer whose two cards ``up`` and ``hole`` are both known
    (Double Exposure, ``Rules.hole_card_up``): the finals are the cards drawn to them, never a
    blackjack (a two-card blackjack is known before play and has no table). The dealer must
    draw to the start (:func:`start_stands` is ``-1``).

    >>> t = start_table(9, 5, 0)  # ten and six: every final draws a card at least
    >>> int(t.finals) > 0, bool(((t.bucket[t.bucket >= 0] % 7) != BLACKJACK).all())
    (True, True)
    """
    if start_stands(up, hole, h17_from) >= 0:
        raise AssertionError("the dealer stands on this start")
    return _build_table(up, h17_from, hole)


def start_stands(up: int, hole: int, h17_from: int) -> int:
    """The outcome (0-4 = 17..21) where the dealer stands on the two cards ``up`` and
    ``hole`` (neither a blackjack), else -1 (the dealer draws).

    >>> start_stands(9, 6, 0), start_stands(9, 5, 0), start_stands(0, 5, 1), start_stands(0, 5, 0)
    (0, -1, -1, 0)
    """
    hard = up + hole + 2
    soft = ACE in (up, hole) and hard + 10 <= 21
    total = hard + 10 if soft else hard
    return -1 if dealer_draws(total, soft, 2, h17_from) else total - 17


def _build_table(up: int, h17_from: int, hole: int) -> DealerTable:
    """The trie of :func:`dealer_table` (``hole``: of :func:`start_table`, -1 for none)."""
    counts, ways = _final_multisets(up, h17_from, hole)
    n, size = counts.shape[0], counts.sum(axis=1)
    if counts.max() >= MAX_RUN or size.max() >= MAX_SIZE:
        raise AssertionError("dealer hand too long for the tables")
    # each final's steps, ten down to ace, as codes; -1 past the last (a prefix sorts first)
    codes = np.where(counts > 0, np.arange(10) * MAX_RUN + counts, -1)[:, ::-1]
    steps = np.sort(np.where(codes >= 0, np.arange(10), 10), axis=1)  # where each step is
    path = np.take_along_axis(np.concatenate([codes, np.full((n, 1), -1)], 1), steps, 1)
    order = np.lexsort(path.T[::-1])
    path, counts, ways, size = path[order], counts[order], ways[order], size[order]
    length = (path >= 0).sum(axis=1)
    same = np.cumprod(path[1:] == path[:-1], axis=1).sum(axis=1)  # steps shared with the last
    shared = np.concatenate([[0], np.minimum(same, length[:-1])])
    # node_at[i, j]: the node of final i's first j + 1 steps, made by the first final that
    # has them (node numbers grow with i: the running maximum carries them down)
    col = np.arange(10)
    new = (col[None, :] >= shared[:, None]) & (col[None, :] < length[:, None])
    node_at = np.where(new, np.cumsum(new.ravel()).reshape(n, 10) - 1, -1)
    node_at = np.maximum.accumulate(node_at, axis=0)
    nodes = int(new.sum())
    parent = np.full(nodes, -1, dtype=np.int64)
    at = np.nonzero(new)
    above = np.where(at[1] > 0, node_at[at[0], np.maximum(at[1] - 1, 0)], -1)
    parent[node_at[at]] = above
    fac = np.zeros(nodes, dtype=np.int64)
    fac[node_at[at]] = path[at]
    total, _ = _totals(up, counts, hole)
    outcome = np.where(total > 21, BUST, total - 17)
    if hole < 0:  # with a known hole card no drawn card makes a blackjack
        outcome = np.where((size == 1) & (total == 21), BLACKJACK, outcome)
    ends = node_at[np.arange(n), length - 1]
    node_ways = np.zeros(nodes)
    node_ways[ends] = ways
    bucket = np.full(nodes, -1, dtype=np.int64)
    bucket[ends] = size * 7 + outcome
    return DealerTable(parent, fac, node_ways, bucket, n)


def hard_totals(t: DealerTable, up: int, hole: int = -1) -> IntArray:
    """Each node's hard total: the up card's value and the values along its path (a final's
    total where it busts: a soft ace counts one there).

    >>> t = dealer_table(9, 0)  # a ten up
    >>> sorted(set(hard_totals(t, 9)[t.bucket % 7 == BUST].tolist()))[:3]
    [22, 23, 24]
    """
    value, count = t.fac // MAX_RUN + 1, t.fac % MAX_RUN
    out = np.zeros(t.parent.shape[0], dtype=np.int64)
    for i, (p, add) in enumerate(zip(t.parent.tolist(), (value * count).tolist(), strict=True)):
        start = up + 1 if hole < 0 else up + hole + 2
        out[i] = (start if p < 0 else out[p]) + add  # a parent comes before its children
    return out


@memo(64, table=True)
def standing_table(up: int, h17_from: int, push22: bool = False, hole: int = -1) -> DealerTable:
    """:func:`dealer_table` without the final multisets that bust (their nodes are about half
    the table): :func:`dealer_dists` over it gives every outcome but the bust, whose chance is
    what the others leave (:func:`with_bust`). Still depth first (a subset closed under
    parents). ``push22``: the finals of exactly 22 are kept, in the bust's column (5), so that
    :func:`dealer_dists` gives P(22) there and :func:`with_bust` then P(23 or more).
    ``hole``: of :func:`start_table` (a known hole card), -1 for none."""
    t = dealer_table(up, h17_from) if hole < 0 else start_table(up, hole, h17_from)
    keep = (t.bucket >= 0) & (t.bucket % 7 != BUST)
    if push22:
        keep |= (t.bucket >= 0) & (hard_totals(t, up, hole) == 22)
    for _ in range(MAX_SIZE):  # the kept nodes' parents, a level at a time
        up_one = t.parent[keep & (t.parent >= 0)]
        if keep[up_one].all():
            break
        keep[up_one] = True
    new = np.cumsum(keep) - 1
    parent = np.where(t.parent[keep] >= 0, new[t.parent[keep]], -1)
    bucket = t.bucket[keep]
    return DealerTable(parent, t.fac[keep], t.ways[keep], bucket, int((bucket >= 0).sum()))


def with_bust(dists: FloatArray, valid: BoolArray) -> FloatArray:
    """Rows of :func:`dealer_dists` over a :func:`standing_table` with the bust's chance
    filled in (1 less the other outcomes'; 0 for a row not dealt). It differs from the sum
    over the busting multisets in the last bits only (about 1e-16)."""
    dists[:, BUST] = np.where(valid, 1.0 - dists.sum(axis=1), 0.0)
    return dists


@njit(cache=True)
def dealer_probs(
    comp: IntArray,
    parent: IntArray,
    fac: IntArray,
    ways: FloatArray,
    bucket: IntArray,
    out: FloatArray,
) -> None:  # pragma: no cover - compiled
    """Fill ``out[0:7]`` with the dealer's outcome probabilities drawing from ``comp``."""
    ff = np.zeros(10 * MAX_RUN)
    n = 0
    for v in range(10):
        c = comp[v]
        n += c
        x = 1.0
        ff[v * MAX_RUN] = 1.0
        for k in range(1, MAX_RUN):
            y = c - k + 1
            x = x * y if y > 0 else 0.0
            ff[v * MAX_RUN + k] = x
    acc = np.zeros(MAX_SIZE * 7)
    val = np.zeros(parent.shape[0])
    for t in range(parent.shape[0]):
        p = parent[t]
        x = ff[fac[t]] if p < 0 else val[p] * ff[fac[t]]
        val[t] = x
        b = bucket[t]
        if b >= 0:
            acc[b] += ways[t] * x
    for j in range(7):
        out[j] = 0.0
    inv = 1.0
    for size in range(1, MAX_SIZE):
        y = n - size + 1
        inv = inv / y if y > 0 else 0.0
        for j in range(7):
            out[j] += acc[size * 7 + j] * inv


_NO_CARDS = np.zeros((1, 10), dtype=np.int64)


def dealer_distribution(shoe: IntArray, up: int, h17_from: int, push22: bool = False) -> FloatArray:
    """Outcome probabilities (17..21, bust, blackjack) for up card ``up`` drawing from
    ``shoe`` (the cards left after the up card and any others seen); ``push22``: eight,
    :data:`OUTCOMES_22` (the bust is 23 or more, a final 22 apart).

    >>> from twentyone.analysis.shoe_counts import fresh_counts
    >>> left = fresh_counts(1) - np.eye(10, dtype=np.int64)[9]  # a ten up
    >>> d, d22 = dealer_distribution(left, 9, 0), dealer_distribution(left, 9, 0, True)
    >>> bool(np.allclose(d22[:5], d[:5])), bool(np.isclose(d22[5] + d22[7], d[5]))
    (True, True)
    """
    t = dealer_table(up, h17_from)
    comp = np.ascontiguousarray(shoe, dtype=np.int64)
    # dealer_dists with one row (the same arithmetic as dealer_probs, bit for bit): one
    # kernel fewer for a first run to compile and a new process to load
    out: FloatArray = dealer_dists(comp, _NO_CARDS, t.parent, t.fac, t.ways, t.bucket)[0][0]
    if not push22:
        return out
    s = standing_table(up, h17_from, True)
    p22 = float(dealer_dists(comp, _NO_CARDS, s.parent, s.fac, s.ways, s.bucket)[0][0][BUST])
    wide: FloatArray = np.append(out, p22)
    wide[BUST] -= p22
    return wide


def start_distribution(
    shoe: IntArray, up: int, hole: int, h17_from: int, push22: bool = False
) -> FloatArray:
    """:func:`dealer_distribution` for a dealer whose two cards ``up`` and ``hole`` are known
    (``shoe``: the cards left after both and any others seen): a two-card blackjack is the
    blackjack outcome, a start the dealer stands on its own total.

    >>> from twentyone.analysis.shoe_counts import fresh_counts
    >>> left = fresh_counts(1) - np.eye(10, dtype=np.int64)[9] - np.eye(10, dtype=np.int64)[5]
    >>> d = start_distribution(left, 9, 5, 0)  # ten and six: draws once at least
    >>> round(float(d.sum()), 12), float(d[BLACKJACK]), float(start_distribution(left, 9, 6, 0)[0])
    (1.0, 0.0, 1.0)
    """
    out = np.zeros(8 if push22 else 7)
    if blackjack_card(up) == hole:
        out[BLACKJACK] = 1.0
        return out
    stands = start_stands(up, hole, h17_from)
    if stands >= 0:
        out[stands] = 1.0
        return out
    t = start_table(up, hole, h17_from)
    comp = np.ascontiguousarray(shoe, dtype=np.int64)
    out[:7] = dealer_dists(comp, _NO_CARDS, t.parent, t.fac, t.ways, t.bucket)[0][0]
    if push22:
        s = standing_table(up, h17_from, True, hole)
        p22 = float(dealer_dists(comp, _NO_CARDS, s.parent, s.fac, s.ways, s.bucket)[0][0][BUST])
        out[TWENTY_TWO] = p22
        out[BUST] -= p22
    return out


def blackjack_card(up: int) -> int:
    """The value index that gives the dealer a blackjack under ``up``, or -1."""
    return TEN if up == ACE else ACE if up == TEN else -1


#: Rows of :func:`dealer_dists` taken through the trie together, at most (the inner loops run
#: over them and compile to vector instructions; each row's arithmetic is unchanged).
BLOCK = 64


@njit(cache=True)
def dealer_dists(
    comp: IntArray,
    removed: IntArray,
    parent: IntArray,
    fac: IntArray,
    ways: FloatArray,
    bucket: IntArray,
) -> tuple[FloatArray, BoolArray]:  # pragma: no cover - compiled
    """Outcome probabilities drawing from ``comp - removed[i]`` for every row ``i`` (rows
    that take more cards than ``comp`` holds are marked invalid): :func:`dealer_probs` for
    up to :data:`BLOCK` rows at a time, the same operations in the same order for each row.
    The trie must come in depth-first order, as :func:`dealer_table` makes it.

    The loops over a block's rows index with unsigned integers (numba then adds no
    negative-index test) and run to a width not known at compile time (LLVM then does not
    unroll them into scalar code): they compile to vector instructions. One function, no
    helpers (inlining them cost compile time), one thread: a parallel version cost 2.5 s of
    CPU more at the first compile and lost time waiting on a busy core."""
    # each node's depth in the trie, and the most cards of each value a node takes
    depth = np.zeros(parent.shape[0], dtype=np.int64)
    most = np.zeros(10, dtype=np.int64)
    for t in range(parent.shape[0]):
        if parent[t] >= 0:
            depth[t] = depth[parent[t]] + 1
        v, k = fac[t] // MAX_RUN, fac[t] % MAX_RUN
        if k > most[v]:
            most[v] = k
    n = removed.shape[0]
    out = np.zeros((n, 7))
    valid = np.zeros(n, dtype=np.bool_)
    w = BLOCK if n >= BLOCK else 8 if n == 0 else (n + 7) // 8 * 8
    width = np.uint64(w)
    ff = np.zeros(10 * MAX_RUN * w)  # ff[(v * MAX_RUN + k) * w + r]
    path = np.zeros((MAX_SIZE + 1) * w)  # the products along the current path, by depth
    for r in range(w):
        path[r] = 1.0  # above the root
        for v in range(10):
            ff[v * MAX_RUN * w + r] = 1.0  # no card of v: k = 0
    acc = np.zeros(MAX_SIZE * 7 * w)  # acc[(size * 7 + outcome) * w + r]
    left = np.zeros(w)
    cards = np.zeros(w, dtype=np.int64)
    ok_rows = np.zeros(w, dtype=np.bool_)
    for start in range(0, n, w):
        # which rows are dealt from comp (a row past the end or taking more than comp
        # holds is not: its counts read 0), the cards left, the falling factorials
        for r in range(w):
            i = start + r
            ok = i < n
            if ok:
                for v in range(10):
                    if comp[v] - removed[i, v] < 0:
                        ok = False
            ok_rows[r] = ok
            cards[r] = 0
        for v in range(10):
            for r in range(w):
                c = comp[v] - removed[start + r, v] if ok_rows[r] else 0
                left[r] = c
                cards[r] += c
            row = np.uint64(v * MAX_RUN) * width
            for k in range(1, most[v] + 1):
                below = k - 1.0
                for r in range(width):
                    y = left[r] - below
                    ff[row + width + r] = ff[row + r] * y if y > 0 else 0.0
                row += width
        # one pass over the trie: each node's product, each final multiset's orderings
        # times it summed by size and outcome
        for j in range(MAX_SIZE * 7 * w):
            acc[j] = 0.0
        for t in range(parent.shape[0]):
            q = np.uint64(depth[t]) * width
            o = q + width
            f = np.uint64(fac[t]) * width
            for r in range(width):
                path[o + r] = path[q + r] * ff[f + r]
            if bucket[t] >= 0:
                x = ways[t]
                a = np.uint64(bucket[t]) * width
                for r in range(width):
                    acc[a + r] += x * path[o + r]
        for r in range(w):
            if not ok_rows[r]:
                continue
            i = start + r
            valid[i] = True
            inv = 1.0
            for size_ in range(1, MAX_SIZE):
                y = cards[r] - size_ + 1
                inv = inv / y if y > 0 else 0.0
                for j in range(7):
                    out[i, j] += acc[(size_ * 7 + j) * w + r] * inv
    return out, valid
