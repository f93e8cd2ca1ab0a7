"""The kernel's random numbers and shoe: xoshiro256** and a lazily shuffled array of cards.

The shoe is an array of 52-card indices shuffled by a partial Fisher-Yates as it is dealt:
:func:`draw` swaps a uniformly chosen card of the undealt part into the next position and
deals it, so only the cards used are shuffled and "a new shoe" is just ``position = 0`` (every
order of the array is a shuffled shoe's). Random numbers: xoshiro256** (Blackman and Vigna),
bounded by Lemire's multiply-shift with rejection (exactly uniform). Everything here is
compiled with :func:`fast` and called from the kernel.

>>> import numpy as np
>>> shoe = np.arange(52, dtype=np.uint8)
>>> st = np.zeros(1, dtype=np.int64)
>>> s = np.array([1, 2, 3, 4], dtype=np.uint64)
>>> cards = [int(draw(shoe, st, s)) for _ in range(52)]
>>> sorted(cards) == list(range(52)), int(st[0])
(True, 52)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from twentyone.engine.jit import materialize, njit

materialize()  # the kernels here call the predicates' and the analysis's as numba's own

Arr = npt.NDArray[Any]
F = TypeVar("F", bound=Callable[..., Any])
Int = int | np.integer[Any]  # numba passes int64 scalars


def fast(**options: Any) -> Callable[[F], F]:
    """``njit`` for the round's code: cached, and compiled without numba's reference counting
    (``_nrt=False``, as numba's own string internals are). These functions never allocate;
    every array they touch is made by the entry points. With reference counting on, every
    call that passes arrays does atomic increments and decrements, which cost the kernel more
    than half its speed.

    Numba's on-disk cache checks only each function's own file; the cache files of a module
    whose imports changed (the kernel links in :mod:`twentyone.sim.hands`' functions, reads
    :mod:`twentyone.engine.compiled`'s constants) are removed before numba loads them
    (:func:`twentyone.engine.kernel_cache.forget_stale`)."""
    jit_options: dict[str, Any] = {"cache": True, "_nrt": False, **options}
    decorate: Callable[[F], F] = njit(**jit_options)
    return decorate


_U = np.uint64
_MASK32 = np.uint64(0xFFFFFFFF)


@fast()
def _rotl(x: np.uint64, k: np.uint64) -> np.uint64:
    return (x << k) | (x >> (_U(64) - k))


@fast()
def _next64(s: Arr) -> np.uint64:
    """xoshiro256** (Blackman and Vigna, https://prng.di.unimi.it/xoshiro256starstar.c)."""
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    result = _rotl(s1 * _U(5), _U(7)) * _U(9)
    t = s1 << _U(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _U(45))
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3
    return np.uint64(result)


@fast()
def _below(s: Arr, n: Int) -> Int:
    """A uniform integer in ``[0, n)`` (Lemire, "Fast random integer generation in an
    interval", 2019: multiply-shift with rejection, so exactly uniform)."""
    un = _U(n)
    m = (_next64(s) >> _U(32)) * un
    low = m & _MASK32
    if low < un:
        threshold = (_U(1 << 32) - un) % un
        while low < threshold:
            m = (_next64(s) >> _U(32)) * un
            low = m & _MASK32
    return np.int64(m >> _U(32))


@fast()
def draw(shoe: Arr, st: Arr, s: Arr) -> Int:
    """The next card: a partial Fisher-Yates step from ``st[0]`` (an emptied shoe starts over,
    as :class:`twentyone.engine.shoe.Shoe` reshuffles the whole shoe)."""
    size = shoe.shape[0]
    pos = st[0]
    if pos >= size:
        pos = 0
    j = pos + _below(s, size - pos)
    c = shoe[j]
    shoe[j] = shoe[pos]
    shoe[pos] = c
    st[0] = pos + 1
    return np.int64(c)
