"""Rounds whose split reaches three hands or more (resplits), exactly: every way the round's
cards can fall, in the engine's order, summed over the sets of cards the hands take.

The engine plays a split hand by hand: the first hand takes its second card; a pair card
there splits again while the rules allow another hand (the new hand waits its turn), any
other card starts the hand's play, which goes on to its end before the next hand takes its
second card. Once the last allowed hand is made, a pair card is a card like any other. The
dealer then draws from what is left. Each hand's play looks only at its own cards, so a hand
is its *atoms* (:mod:`twentyone.analysis.split_joint`): the sets of cards it takes after its
pair card, with signed weights on its final states, listed twice: when its second card may
not be a pair card and when it may be any card.

The round is followed as a walk over states ``(cards out, finished hands' states, hands
made)``: the hand in play either takes a pair card (one more hand, while allowed) or ends as
one of its atoms, with the chance of drawing that set from the cards left. States reached
two ways are one (their probabilities add), and the walk keeps only what reaches a third
hand: the rounds that end with two hands are :func:`~twentyone.analysis.split_joint.pair_joint`'s.
When every hand has ended, the dealer's outcomes are read for the cards left
(:class:`~twentyone.analysis.split_joint.DealerRows`) and each outcome gives the round's net.

The states are as many as the sets of cards three or more hands can take with their hands'
states, which grows with the shoe as a power of the number of hands: thousands from a shoe
of twenty cards, 20 million for twos split against a four from one deck (90 s), billions
from six decks (three hands of twos against a seven take a million sets of cards, and each
fourth hand one of a thousand atoms). So the walk runs where the shoe is small
(:func:`listable`: the compositions of the cards out are few) and a bound on its work holds;
elsewhere :func:`~twentyone.analysis.resplit.more_hands` approximates those rounds.

>>> import numpy as np
>>> listable(np.array([3, 0, 0, 0, 2, 0, 0, 4, 0, 8])), listable(np.full(10, 4))
(True, False)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from twentyone.analysis.shoe_counts import BoolArray, FloatArray, IntArray, Nodes
from twentyone.analysis.split_joint import (
    BONUS_STATE,
    BUST_STATE,
    KEY_BASE,
    STATES,
    DealerRows,
    atom_weights,
)
from twentyone.engine.jit import njit

#: The most compositions of the cards out (``prod(count + 1)`` over the shoe) the walk takes on.
LISTABLE = 20_000
#: The most steps (a state and one atom or pair card) the walk takes before it gives up
#: (about a third of a second).
WORK = 2_000_000
#: The largest table of states one step of the walk may take (its tables then hold 100 MB).
TABLE = 1 << 20
STATE_BASE = 17  # finished hands by state as one integer: each count a digit (16 hands at most)
DONE, FULL, LONG, WIDE = 0, 1, 2, 3  # how a walk ended (see :func:`_walk`)


class HandAtoms(NamedTuple):
    """A split hand's atoms: ``drawn[t]`` the cards taken after the pair card; the first
    ``ends[t]`` of ``state[t]`` and ``weight[t]`` its final states and their signed weights."""

    drawn: IntArray
    state: IntArray
    weight: FloatArray
    ends: IntArray


def hand_weights(
    nodes: Nodes,
    dec: IntArray,
    pair: int,
    *,
    aces: bool,
    np_: bool,
    decs: IntArray | None = None,
    bonus: bool = False,
) -> tuple[IntArray, FloatArray]:
    """The sets of cards of a split hand's atoms (see :func:`hand_atoms`) and their signed
    weights on every final state (one row each)."""
    one = nodes.index[tuple(int(v == pair) for v in range(10))]
    w = atom_weights(nodes, dec, pair, aces=aces, two_hands=np_, decs=decs, bonus=bonus)
    w[one, BUST_STATE] = 0.0
    for c in nodes.child[one]:
        if c >= 0:
            w[c, BUST_STATE] += 1.0
    keep = np.nonzero(np.any(w != 0.0, axis=1))[0]
    drawn = nodes.counts[keep].copy()
    drawn[:, pair] -= 1
    return drawn, w[keep]


def hand_atoms(
    nodes: Nodes,
    dec: IntArray,
    pair: int,
    *,
    aces: bool,
    np_: bool,
    decs: IntArray | None = None,
    bonus: bool = False,
) -> HandAtoms:
    """The atoms of a split hand played by ``dec`` (``aces``: split aces take one card;
    ``np_``: its second card is not a pair card; ``bonus``: the 6-7-8 / 7-7-7 bonus pays,
    its share played by ``decs``). The lone pair card's bust, which its next card never
    brings, is left out (in :func:`~twentyone.analysis.split_joint.split_atoms` it cancels
    against its children's)."""
    drawn, w = hand_weights(nodes, dec, pair, aces=aces, np_=np_, decs=decs, bonus=bonus)
    on = w != 0.0
    state = np.argsort(~on, axis=1, kind="stable")  # each atom's states with a weight first
    weight = np.take_along_axis(w, state, axis=1)
    count = on.sum(axis=1)
    past = np.arange(STATES)[None, :] >= count[:, None]
    state[past] = 0
    weight[past] = 0.0
    return HandAtoms(drawn, state.astype(np.int64), weight, count.astype(np.int64))


def listable(shoe: IntArray) -> bool:
    """Whether the walk takes on a split from ``shoe`` (the cards left after the up card):
    the compositions of the cards out are few."""
    return bool(np.prod(shoe + 1.0) <= LISTABLE)


@njit(cache=True)
def _slot(keys: IntArray, used: BoolArray, a: int, b: int, c: int) -> int:  # pragma: no cover
    """Where the state ``(a, b, c)`` is (or goes): linear probing from its hash."""
    mask = keys.shape[0] - 1
    h = (a * 0x2545F4914F6CDD1D) ^ (b * 0x1E3779B97F4A7C15) ^ (c * 0x632BE59BD9B4E019)
    h = (h >> 20) & mask
    while used[h] and not (keys[h, 0] == a and keys[h, 1] == b and keys[h, 2] == c):
        h = (h + 1) & mask
    return int(h)


@njit(cache=True)
def _walk(
    shoe: IntArray,
    pair: int,
    limit: int,
    atoms: HandAtoms,
    np_count: int,
    size: int,
    work: int,
) -> tuple[IntArray, IntArray, FloatArray, int]:  # pragma: no cover - compiled
    """Every round of a split of ``pair`` (its two cards out of ``shoe``, the cards left
    after the up card) that reaches three hands, to the end of its last hand: the cards out
    (a key of :data:`DIGITS`), the finished hands by state (a key of ``STATE_BASE``) and the
    probability (signed: see :func:`hand_atoms`). ``atoms``: the first ``np_count`` those of
    a hand whose second card is not a pair card, the others those of any second card. The
    states of one step sit in a table of ``size`` (a power of two) kept under half full.
    Status: :data:`DONE`, or :data:`FULL` (a bigger table is needed), :data:`LONG` (more than
    ``work`` steps), :data:`WIDE` (a count of cards out would not fit its digit)."""
    drawn, state, weight, ends = atoms
    n0 = 0
    for v in range(10):
        n0 += shoe[v]
    digit = np.empty(10, dtype=np.int64)
    for v in range(10):
        digit[v] = KEY_BASE ** (9 - v)
    state_digit = np.empty(STATES, dtype=np.int64)
    for s in range(STATES):
        state_digit[s] = STATE_BASE**s
    keys = np.zeros((size, 3), dtype=np.int64)
    mass = np.zeros(size)
    used = np.zeros(size, dtype=np.bool_)
    h = _slot(keys, used, 2 * digit[pair], 0, 2)  # two hands, none finished
    used[h] = True
    keys[h, 0], keys[h, 2], mass[h] = 2 * digit[pair], 2, 1.0
    ended = np.zeros((size, 3), dtype=np.int64)  # the rounds over
    ended_mass = np.zeros(size)
    found = 0
    x = np.zeros(10, dtype=np.int64)
    level = 2  # hands made + hands finished
    steps = 0
    alive = 1
    while alive > 0:
        nkeys = np.zeros((size, 3), dtype=np.int64)
        nmass = np.zeros(size)
        nused = np.zeros(size, dtype=np.bool_)
        alive = 0
        for slot in range(size):
            if not used[slot]:
                continue
            key, m, k = keys[slot, 0], keys[slot, 1], keys[slot, 2]
            finished = level - k
            if k == finished:  # every hand ended
                if k >= 3:
                    if found == size:
                        return ended[:0, 0], ended[:0, 1], ended_mass[:0], FULL
                    ended[found, 0], ended[found, 1] = key, m
                    ended_mass[found] = mass[slot]
                    found += 1
                continue
            left = n0
            rest = key
            for v in range(9, -1, -1):
                x[v] = rest % KEY_BASE
                rest //= KEY_BASE
                left -= x[v]
            more = k < limit  # the hand in play may split again
            lo, hi = (-1, np_count) if more else (np_count, drawn.shape[0])
            if more and k == 2 and finished == 1:
                hi = 0  # the second of two hands ending: not listed here
            for a in range(lo, hi):  # -1: a pair card, one more hand
                p = 1.0
                cards = 0
                key2 = key
                for v in range(10):
                    r = int(v == pair) if a < 0 else drawn[a, v]
                    if x[v] + r >= KEY_BASE:
                        return ended[:0, 0], ended[:0, 1], ended_mass[:0], WIDE
                    for i in range(r):
                        p *= shoe[v] - x[v] - i
                    cards += r
                    key2 += r * digit[v]
                if p <= 0.0:
                    continue  # more cards of a value than are left
                for i in range(cards):
                    p /= left - i
                for j in range(1 if a < 0 else ends[a]):
                    if a < 0:
                        m2, k2, q = m, k + 1, p
                    else:
                        m2, k2, q = m + state_digit[state[a, j]], k, p * weight[a, j]
                    steps += 1
                    g = _slot(nkeys, nused, key2, m2, k2)
                    if not nused[g]:
                        if 2 * (alive + 1) > size:
                            return ended[:0, 0], ended[:0, 1], ended_mass[:0], FULL
                        nused[g] = True
                        nkeys[g, 0], nkeys[g, 1], nkeys[g, 2] = key2, m2, k2
                        alive += 1
                    nmass[g] += mass[slot] * q
            if steps > work:
                return ended[:0, 0], ended[:0, 1], ended_mass[:0], LONG
        keys, mass, used = nkeys, nmass, nused
        level += 1
    return ended[:found, 0], ended[:found, 1], ended_mass[:found], DONE


@njit(cache=True)
def _spread(
    hands: IntArray,
    mass: FloatArray,
    row: npt.NDArray[np.int32],
    rows: FloatArray,
    net: IntArray,
    outcomes: int,
    off: int,
    size: int,
) -> FloatArray:  # pragma: no cover - compiled
    """The rounds' nets on the grid: each round (its finished hands by state, its mass and
    the dealer's row of the cards left) against each of the dealer's first ``outcomes``
    outcomes (``net[s, d]``: a hand's net in half bets)."""
    out = np.zeros(size)
    count = np.zeros(STATES, dtype=np.int64)
    for i in range(hands.shape[0]):
        rest = hands[i]
        for s in range(STATES):
            count[s] = rest % STATE_BASE
            rest //= STATE_BASE
        for d in range(outcomes):
            g = off
            for s in range(STATES):
                g += count[s] * net[s, d]
            out[g] += mass[i] * rows[row[i], d]
    return out


def more_hands_exact(
    shoe: IntArray,
    pair: int,
    limit: int,
    atoms: tuple[HandAtoms, HandAtoms],
    dealer: DealerRows,
    net: IntArray,
    grid: tuple[int, int],
    outcomes: int,
) -> FloatArray | None:
    """The rounds of a split of ``pair`` from ``shoe`` (the cards left after the up card)
    that reach three hands, exactly, on the grid (``(off, size)``), or None where the walk
    would be too long or the split may make more than 16 hands. ``atoms``: a hand whose
    second card is not a pair card, and one whose is any card; ``net[s, d]``: a hand's net
    in half bets by its state and the dealer's outcome, of which the first ``outcomes``
    count (six with a peek: the dealer's blackjack ended the round before the split)."""
    if not listable(shoe) or limit >= STATE_BASE:
        return None  # more hands than the finished hands' digits hold: 16 of one state
    np_atoms, any_atoms = atoms
    if limit > 3 and int(any_atoms.state.max(initial=0)) >= BONUS_STATE:
        return None  # the finished hands' key past 64 bits: four bonus hands are 17 ** 15 * 4
    both = HandAtoms(*(np.concatenate(pair_) for pair_ in zip(np_atoms, any_atoms, strict=True)))
    size, status = 1 << 12, FULL
    while status == FULL and size <= TABLE:
        xs, hands, mass, status = _walk(shoe, pair, limit, both, len(np_atoms.drawn), size, WORK)
        size *= 4
    if status != DONE:
        return None
    row = dealer.rows_of(xs)
    off, size = grid
    return _spread(hands, mass, row, dealer.rows, net, outcomes, off, size)
