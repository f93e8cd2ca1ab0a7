"""The vectorized environment's state layout and its shoes: the per-environment integers
(``D_*``), the side questions' parameters (``Q_*``), and one lazily shuffled shoe per
environment dealt exactly as :func:`twentyone.sim.rng.draw` deals (xoshiro256**, Lemire's
bounded integers), restated for a row of a two-dimensional state so the kernel
(:mod:`twentyone.gym.vector_kernel`) slices and allocates nothing per step.

Numba's on-disk cache checks only each function's own file: after editing this module, touch
``vector_kernel.py`` (or delete ``gym/__pycache__``) so the kernel, which inlines these, is
compiled again.

>>> import numpy as np
>>> shoe = np.arange(52, dtype=np.uint8)[None, :].copy()
>>> pos = np.zeros(1, dtype=np.int64)
>>> rng = np.array([[1, 2, 3, 4]], dtype=np.uint64)
>>> d = np.zeros((1, D_SIZE), dtype=np.int64)
>>> rec = np.zeros((1, 52), dtype=np.uint8)
>>> cards = [int(draw(shoe, pos, rng, d, rec, 0)) for _ in range(52)]
>>> sorted(cards) == list(range(52)), int(d[0, D_NREC])
(True, 52)
"""

from __future__ import annotations

import numpy as np

from twentyone.sim.rng import Arr, Int, fast

FL_SETTLED = 128  # settled before the dealer plays (even money, blackjack at once, surrender)

# the extra rule parameters (the simulator's vector has no side questions)
Q_INS_ACE = 0  # insurance offered on an ace
Q_INS_TEN = 1  # ... on a ten
Q_EVEN_MONEY = 2  # a blackjack facing an ace is asked even money
Q_BJ_AT_ONCE = 3  # a blackjack is paid once the dealer cannot have one
Q_SIZE = 4

# per-environment integers
D_UP = 0  # the dealer's up card (52-card index)
D_SUM = 1  # dealer total, aces as 1
D_ACE = 2
D_N = 3  # dealer cards
D_BJ = 4  # dealer blackjack: -1 unknown, 0 no, 1 yes
D_PHASE = 5  # twentyone.gym.core phase
D_CUR = 6  # the hand asked about
D_ACTS = 7  # the play question's A_* bits
D_INS = 8  # insurance: 0 none, 1 taken and open, 2 settled
D_LEVEL = 9  # the bet level (multiple of the initial bet)
D_NREC = 10  # cards dealt this round
D_DONE_N = 11  # cards of the last finished round
D_SIZE = 12

OBS = 18  # phase, total, soft, pair, counts (10), up, split, box, insured

_U = np.uint64
_MASK32 = np.uint64(0xFFFFFFFF)


@fast(inline="always")
def _rotl(x: np.uint64, k: np.uint64) -> np.uint64:
    return (x << k) | (x >> (_U(64) - k))


@fast(inline="always")
def _next64(s: Arr, i: Int) -> np.uint64:
    """xoshiro256** on row ``i`` (as :func:`twentyone.sim.rng._next64`)."""
    s0, s1, s2, s3 = s[i, 0], s[i, 1], s[i, 2], s[i, 3]
    result = _rotl(s1 * _U(5), _U(7)) * _U(9)
    t = s1 << _U(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _U(45))
    s[i, 0], s[i, 1], s[i, 2], s[i, 3] = s0, s1, s2, s3
    return np.uint64(result)


@fast(inline="always")
def _below(s: Arr, i: Int, n: Int) -> Int:
    """A uniform integer in ``[0, n)`` (Lemire's multiply-shift with rejection)."""
    un = _U(n)
    m = (_next64(s, i) >> _U(32)) * un
    low = m & _MASK32
    if low < un:
        threshold = (_U(1 << 32) - un) % un
        while low < threshold:
            m = (_next64(s, i) >> _U(32)) * un
            low = m & _MASK32
    return np.int64(m >> _U(32))


@fast(inline="always")
def draw(shoe: Arr, pos: Arr, rng: Arr, d: Arr, rec: Arr, i: Int) -> Int:
    """The next card of environment ``i`` (a partial Fisher-Yates step; an emptied shoe
    starts over), recorded in ``rec``."""
    size = shoe.shape[1]
    k = pos[i]
    if k >= size:
        k = 0
    j = k + _below(rng, i, size - k)
    c = shoe[i, j]
    shoe[i, j] = shoe[i, k]
    shoe[i, k] = c
    pos[i] = k + 1
    n = d[i, D_NREC]
    if n < rec.shape[1]:
        rec[i, n] = c
    d[i, D_NREC] = n + 1
    return np.int64(c)
