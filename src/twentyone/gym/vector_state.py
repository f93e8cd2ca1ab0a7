"""The vectorized environment's state layout and its shoes: the per-environment integers
(``D_*``), the side questions' parameters (``Q_*``), and one lazily shuffled shoe per
environment, each row dealt by the simulator's own :func:`twentyone.sim.rng.draw`
(xoshiro256**, Lemire's bounded integers) on views of the two-dimensional state, so the kernel
(:mod:`twentyone.gym.vector_kernel`) allocates nothing per step.

Numba's on-disk cache checks only each function's own file (its content: touching a file does
nothing): after editing this module, delete the numba files (``*.nbi``, ``*.nbc``) in
``gym/__pycache__`` so the kernel, which inlines these, is compiled again.

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

from typing import NamedTuple

from twentyone.sim.rng import Arr, Int, fast
from twentyone.sim.rng import draw as deal_card


class Tables(NamedTuple):
    """The kernel's read-only inputs: the compiled rules (``p`` integers, ``f`` floats:
    :func:`twentyone.engine.compiled.encode_rules`) and the side questions' parameters
    (``q``, the ``Q_*`` columns)."""

    p: Arr
    f: Arr
    q: Arr


class EnvArrays(NamedTuple):
    """Every environment's state, a row each: its shoe and position in it, its random
    stream, its integers (``D_*``), the money of its round, its hands and their cards, its
    number of hands, the cards dealt this round (``rec``) and those of the round just done."""

    shoe: Arr
    pos: Arr
    rng: Arr
    d: Arr
    money: Arr
    hands: Arr
    hc: Arr
    nh: Arr
    rec: Arr
    done: Arr


class StepOut(NamedTuple):
    """What a step (or a reset) writes for every environment: the legal actions, the
    observation, the reward, whether the episode ended, whether the action was refused."""

    mask: Arr
    obs: Arr
    reward: Arr
    term: Arr
    illegal: Arr


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

OBS = 19  # phase, total, soft, pair, counts (10), up, split, box, insured, doubles

#: the play question's rescue (``Rules.rescue``), a bit beyond the simulator's ``A_*``
#: (:mod:`twentyone.sim.encode`: a chart never rescues)
A_RESCUE = 32


@fast(inline="always")
def draw(shoe: Arr, pos: Arr, rng: Arr, d: Arr, rec: Arr, i: Int) -> Int:
    """The next card of environment ``i``, dealt by the simulator's
    :func:`twentyone.sim.rng.draw` from row ``i`` of the shoes and the random states,
    recorded in ``rec``."""
    c = deal_card(shoe[i], pos[i : i + 1], rng[i])
    n = d[i, D_NREC]
    if n < rec.shape[1]:
        rec[i, n] = c
    d[i, D_NREC] = n + 1
    return c
