"""The stand values' kernels: which hands a stand-value table holds (:func:`stand_rows`), their
values from the dealer's outcome rows (:func:`gather_stand`), and the hands a split hand played
by fixed decisions needs (:func:`stand_needed`); the share of a bust's loss that counts after a
peek (:func:`bust_kept`), and the decisions' codes (:data:`STAND`, :data:`HIT`,
:data:`DOUBLE`, which :mod:`twentyone.analysis.player` re-exports). Split out of
:mod:`twentyone.analysis.player`, which plays the hands from these values.

>>> import numpy as np
>>> comp = np.array([4, 4, 4, 4, 4, 4, 4, 4, 4, 16])  # one deck; a ten's blackjack card: ace
>>> round(bust_kept.py_func(comp, 52, 9, 0, True), 6), bust_kept.py_func(comp, 52, 9, 0, False)
(0.921569, 1.0)
"""

from __future__ import annotations

import numpy as np

from twentyone.analysis.shoe_counts import BoolArray, FloatArray, IntArray
from twentyone.engine.jit import njit

#: A hand's decisions as the kernels code them.
STAND, HIT, DOUBLE = 0, 1, 2


@njit(cache=True, inline="always")
def bust_kept(comp: IntArray, nn: int, v: int, bj: int, peek: bool) -> float:  # pragma: no cover
    """The share of a bust on card value ``v`` (drawn from ``comp``, ``nn`` cards) that counts:
    after a peek, the chance that the dealer's hole card, one of the other ``nn - 1`` cards,
    is not the blackjack card ``bj`` (the busted stake is lost only in a round that was not
    over at the peek); 1 without a peek."""
    if peek and bj >= 0:
        return float(1.0 - (comp[bj] - (1 if v == bj else 0)) / (nn - 1.0))
    return 1.0


@njit(cache=True)
def stand_rows(
    comp: IntArray,
    counts: IntArray,
    pair: int,
    needed: BoolArray,
    rows: IntArray,
    done: BoolArray,
) -> tuple[BoolArray, BoolArray, BoolArray, IntArray]:  # pragma: no cover - compiled
    """Which hands a stand-value table over ``comp`` holds: ``mask`` (every hand, or those
    holding a ``pair`` card when ``pair >= 0``), ``feasible`` (in ``mask`` and dealt from
    ``comp``), ``want`` (feasible and ``needed``), and the dealer rows ``rows[i]`` of the
    wanted hands not ``done`` yet (each once: no two hands share a row)."""
    n = counts.shape[0]
    mask = np.zeros(n, dtype=np.bool_)
    feasible = np.zeros(n, dtype=np.bool_)
    want = np.zeros(n, dtype=np.bool_)
    todo = np.zeros(n, dtype=np.int64)
    top = 0
    for i in range(n):
        if pair >= 0 and counts[i, pair] < 1:
            continue
        mask[i] = True
        ok = True
        for v in range(10):
            if counts[i, v] > comp[v]:
                ok = False
                break
        feasible[i] = ok
        if not ok or not needed[i]:
            continue
        want[i] = True
        r = rows[i]
        if r >= 0 and not done[r]:
            todo[top] = r
            top += 1
    return mask, feasible, want, todo[:top]


@njit(cache=True)
def gather_stand(
    dists: FloatArray,
    ok: BoolArray,
    rows: IntArray,
    total: IntArray,
    mask: BoolArray,
    ties_lose: bool = False,
) -> tuple[FloatArray, FloatArray, FloatArray]:  # pragma: no cover - compiled
    """Stand values of the hands in ``mask`` from the dealer outcome rows ``dists[rows[i]]``:
    ``nb`` = P(win) - P(lose) over the dealer's non-blackjack outcomes, P(dealer blackjack)
    and P(push); rows eight wide (push22) add P(dealer 22), column 7, to the push;
    ``ties_lose`` (``Rules.ties`` = ``dealer``): a tie of totals is a loss, not a push."""
    n = rows.shape[0]
    nb = np.zeros(n)
    pbj = np.zeros(n)
    push = np.zeros(n)
    for i in range(n):
        r = rows[i]
        if not mask[i] or r < 0 or not ok[r]:
            continue
        t = total[i]
        x = dists[r, 5]
        for j in range(5):
            d = 17 + j
            if t > d:
                x += dists[r, j]
            elif t < d or ties_lose:
                x -= dists[r, j]
            else:
                push[i] = dists[r, j]
        if dists.shape[1] == 8:  # push22: a dealer's 22 pushes a standing hand
            push[i] += dists[r, 7]
        nb[i] = x
        pbj[i] = dists[r, 6]
    return nb, pbj, push


@njit(cache=True)
def stand_needed(
    one: int,
    child: IntArray,
    ncards: IntArray,
    total: IntArray,
    dec: IntArray,
    decs: IntArray,
    force_stand2: bool,
) -> tuple[BoolArray, BoolArray]:  # pragma: no cover - compiled
    """The hands whose stand values a split hand starting from the one-card hand ``one``
    needs when played by the fixed decisions ``dec``/``decs`` (those it stands on and those
    a double ends on), and the hands it reaches (its two-card hands and every hand a hit
    makes: the only ones whose values it needs)."""
    n = child.shape[0]
    need = np.zeros(n, dtype=np.bool_)
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.zeros(n, dtype=np.int64)
    top = 0
    for v in range(10):
        k = child[one, v]
        if k >= 0 and not seen[k]:
            seen[k] = True
            stack[top] = k
            top += 1
    while top > 0:
        top -= 1
        i = stack[top]
        if total[i] == 21 or (ncards[i] == 2 and force_stand2):
            need[i] = True
            continue
        hit = False
        for a in (dec[i], decs[i]) if ncards[i] == 2 else (dec[i], dec[i]):
            if a == STAND:
                need[i] = True
            elif a == DOUBLE:
                for v in range(10):
                    c = child[i, v]
                    if c >= 0:
                        need[c] = True
            else:
                hit = True
        if hit:
            for v in range(10):
                c = child[i, v]
                if c >= 0 and not seen[c]:
                    seen[c] = True
                    stack[top] = c
                    top += 1
    return need, seen
