"""The exact joint outcome of a split into two hands: both hands' final states and the
dealer's outcome, without taking anything independent.

Each split hand is played by decisions that look only at its own cards (CDZ-: the
decisions the same cards get before a split, or a chart), so the first hand's play does not
depend on the second's cards and the round is a sequence: the first hand draws until it
stands, doubles or busts, then the second, then the dealer. A hand's *terminal* is what it
ended with: the cards it drew after its pair card (``r``), its stake and its final state,
reached by ``ways`` orders of drawing (one order for most hands; ``8 2 3`` and ``8 3 2``
both hit to 13). Every order of the same cards has the same chance from a shoe ``S`` of
``N`` cards, so two terminals happen together with probability

    ways1 * ways2 * prod_v ff(S_v, r1_v + r2_v) / ff(N, |r1| + |r2|)

(``ff`` the falling factorial), and the dealer then draws from ``S - r1 - r2``. Summing over
every pair of terminals gives the joint distribution exactly; the dealer's outcomes are
computed once per distinct set of cards the two hands took. This is the definition of Eric
Farmer's exact distribution of a round (his ``blackjack_pdf``, which allows one split).

>>> import numpy as np
>>> from twentyone.analysis.player import STAND
>>> from twentyone.analysis.shoe_counts import player_nodes
>>> nodes = player_nodes(1)
>>> dec = np.full(nodes.size, STAND, dtype=np.int64)  # stand on every two-card hand
>>> t = split_terminals(nodes, dec, 7, False)
>>> len(t.ways), float(t.ways.sum())  # 8 plus one card: ten terminals, one order each
(10, 10.0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from twentyone.analysis.dealer import DealerTable, dealer_dists
from twentyone.analysis.player import DOUBLE, STAND
from twentyone.analysis.shoe_counts import FloatArray, IntArray, Nodes
from twentyone.analysis.variance import hand_state

#: Final states of a hand, as in :mod:`twentyone.analysis.variance`: ``part * 7 + state``
#: (part 1 for a doubled hand; state 0 = 16 or less, 1-5 = 17..21, 6 = bust).
STATES = 14
BUST_STATE = 6


class Terminals(NamedTuple):
    """Every way a split hand can end: ``drawn[k]`` the cards drawn after its pair card,
    ``state[k]`` its final state (``part * 7 + state``), ``ways[k]`` the orders of drawing
    that reach it."""

    drawn: IntArray
    state: IntArray
    ways: FloatArray


@njit(cache=True)
def _terminals(
    one: int,
    pair: int,
    counts: IntArray,
    total: IntArray,
    ncards: IntArray,
    child: IntArray,
    dec: IntArray,
    aces: bool,
) -> tuple[IntArray, IntArray, FloatArray]:  # pragma: no cover - compiled
    n = counts.shape[0]
    ways = np.zeros(n)
    ways[one] = 1.0
    cap = 64
    drawn = np.zeros((cap, 10), dtype=np.int64)
    state = np.zeros(cap, dtype=np.int64)
    tw = np.zeros(cap)
    k = 0
    # hands in order of their number of cards: every parent before its children
    most = 0
    for i in range(n):
        most = max(most, ncards[i])
    for size in range(1, most + 1):
        for i in range(n):
            if ncards[i] != size or ways[i] == 0.0:
                continue
            w = ways[i]
            stands = size >= 2 and (total[i] == 21 or (size == 2 and aces) or dec[i] == STAND)
            part = 1 if (size == 2 and dec[i] == DOUBLE and not stands) else 0
            for v in range(10):
                if stands and v > 0:
                    break
                c = child[i, v]
                if not stands and c >= 0 and part == 0:
                    ways[c] += w  # a hit: the hand plays on
                    continue
                if k == cap:
                    cap *= 2
                    d2 = np.zeros((cap, 10), dtype=np.int64)
                    d2[:k] = drawn[:k]
                    s2 = np.zeros(cap, dtype=np.int64)
                    s2[:k] = state[:k]
                    w2 = np.zeros(cap)
                    w2[:k] = tw[:k]
                    drawn, state, tw = d2, s2, w2
                end = i if (stands or c < 0) else c
                for u in range(10):
                    drawn[k, u] = counts[end, u]
                drawn[k, pair] -= 1
                if stands:
                    state[k] = hand_state(total[i])
                elif c < 0:
                    drawn[k, v] += 1
                    state[k] = part * 7 + BUST_STATE
                else:
                    state[k] = 7 + hand_state(total[c])
                tw[k] = w
                k += 1
    return drawn[:k], state[:k], tw[:k]


def split_terminals(nodes: Nodes, dec: IntArray, pair: int, aces: bool) -> Terminals:
    """The terminals of a hand starting from one ``pair`` card, played by ``dec`` (``aces``:
    split aces take one card each)."""
    one = nodes.index[tuple(int(v == pair) for v in range(10))]
    drawn, state, ways = _terminals(
        one, pair, nodes.counts, nodes.total, nodes.ncards, nodes.child, dec, aces
    )
    return Terminals(drawn, state, ways)


KEY_BASE = 32  # a set of cards as one integer: each count a digit in base 32


@njit(cache=True)
def _slot(slot_key: IntArray, key: int) -> int:  # pragma: no cover - compiled
    """Where ``key`` is (or goes) in the table: linear probing from its hash."""
    mask = slot_key.shape[0] - 1
    h: int = ((key * 0x2545F4914F6CDD1D) >> 24) & mask
    while slot_key[h] != key and slot_key[h] != -1:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def _pair_unions(
    keys: IntArray,
) -> tuple[IntArray, npt.NDArray[np.int32]]:  # pragma: no cover - compiled
    """The distinct sets of cards two terminals take together (``a <= b``), and for each pair
    in that order the index of its set (an open-addressing hash table, kept under half
    full)."""
    t = keys.shape[0]
    pairs = t * (t + 1) // 2
    slot_key = np.full(1 << 12, -1, dtype=np.int64)
    slot_id = np.zeros(1 << 12, dtype=np.int64)
    unions = np.empty(pairs, dtype=np.int64)
    row = np.empty(pairs, dtype=np.int32)
    found = 0
    j = 0
    for a in range(t):
        for b in range(a, t):
            key = keys[a] + keys[b]
            h = _slot(slot_key, key)
            if slot_key[h] == -1:
                slot_key[h] = key
                slot_id[h] = found
                unions[found] = key
                found += 1
                if 2 * found > slot_key.shape[0]:
                    slot_key = np.full(2 * slot_key.shape[0], -1, dtype=np.int64)
                    slot_id = np.zeros(slot_key.shape[0], dtype=np.int64)
                    for u in range(found):
                        g = _slot(slot_key, unions[u])
                        slot_key[g] = unions[u]
                        slot_id[g] = u
                    h = _slot(slot_key, key)
            row[j] = slot_id[h]
            j += 1
    return unions[:found], row


@njit(cache=True)
def _accumulate(
    shoe: IntArray,
    drawn: IntArray,
    state: IntArray,
    ways: FloatArray,
    row_of_pair: npt.NDArray[np.int32],
    rows: FloatArray,
) -> FloatArray:  # pragma: no cover - compiled
    t = drawn.shape[0]
    n0 = 0
    for v in range(10):
        n0 += shoe[v]
    size = np.zeros(t, dtype=np.int64)
    for k in range(t):
        for v in range(10):
            size[k] += drawn[k, v]
    top = 2 * (size.max() if t else 0) + 1
    ff = np.zeros((10, top))
    for v in range(10):
        x = 1.0
        for j in range(top):
            ff[v, j] = x
            x *= max(shoe[v] - j, 0)
    inv = np.zeros(top)
    x = 1.0
    for j in range(top):
        inv[j] = 1.0 / x if x > 0 else 0.0
        x *= max(n0 - j, 0)
    joint = np.zeros((STATES, STATES, 7))
    j = 0
    for a in range(t):
        for b in range(a, t):
            w = ways[a] * ways[b] * inv[size[a] + size[b]]
            for v in range(10):
                w *= ff[v, drawn[a, v] + drawn[b, v]]
            if b != a:
                w *= 2.0
            if w != 0.0:
                r = row_of_pair[j]
                for d in range(7):
                    joint[state[a], state[b], d] += w * rows[r, d]
            j += 1
    return joint


def pair_joint(shoe: IntArray, t: Terminals, table: DealerTable) -> FloatArray:
    """``joint[s1, s2, d]``: the probability that the two hands end in states ``s1``, ``s2``
    (each pair of terminals counted once, in their order) and the dealer in outcome ``d``,
    the hands drawing from ``shoe`` (the cards left after the up card and the two pair
    cards) and the dealer after them."""
    keys = t.drawn @ (KEY_BASE ** np.arange(9, -1, -1, dtype=np.int64))
    unions, row_of_pair = _pair_unions(keys)
    removed = (unions[:, None] // KEY_BASE ** np.arange(9, -1, -1, dtype=np.int64)) % KEY_BASE
    rows, _ = dealer_dists(shoe, removed, table.parent, table.fac, table.ways, table.bucket)
    return _accumulate(shoe, t.drawn, t.state, t.ways, row_of_pair, rows)
