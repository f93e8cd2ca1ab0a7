"""The exact joint outcome of a split into two hands: both hands' final states and the
dealer's outcome, without taking anything independent.

Each split hand is played by decisions that look only at its own cards (CDZ-: the
decisions the same cards get before a split, or a chart), so the first hand's play does not
depend on the second's cards and the round is a sequence: the first hand draws until it
stands, doubles or busts, then the second, then the dealer. Every order of the same cards has
the same chance from a shoe ``S`` of ``N`` cards, so a hand that drew the cards ``r1`` (after
its pair card, in ``w1`` orders) and one that drew ``r2`` (``w2`` orders) happen together with
probability

    w1 * w2 * prod_v ff(S_v, r1_v + r2_v) / ff(N, |r1| + |r2|)

(``ff`` the falling factorial), and the dealer then draws from ``S - r1 - r2``. This is the
definition of Eric Farmer's exact distribution of a round (his ``blackjack_pdf``, which
allows one split).

Busts are not listed card by card. A hand that hits at cards ``r`` busts with the chance of
reaching ``r`` less the chances of its children that do not bust, and the dealer's outcome
after an unseen card is the one before it (the cards are exchangeable), so each hand is a
short list of *atoms* (:func:`split_atoms`): sets of cards with signed weights on the final
states, the bust of a hand that hits further cancelling out. Only hands that stand, double or
start the split remain: about a third of the hand's endings, and the pairs of them nine times
fewer. The dealer's outcomes are computed once per distinct set of cards out of the shoe after
the up card, shared by every pair split against it and both strategies
(:class:`DealerRows`), over the dealer's final hands that do not bust (the bust's chance is
what the others leave).

>>> import numpy as np
>>> from twentyone.analysis.player import STAND
>>> from twentyone.analysis.shoe_counts import player_nodes
>>> nodes = player_nodes(1)
>>> dec = np.full(nodes.size, STAND, dtype=np.int64)  # stand on every two-card hand
>>> a = split_atoms(nodes, dec, 7, aces=False)
>>> len(a.drawn), float(a.weight.sum())  # the start and ten two-card hands; weights sum to 1
(11, 1.0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from twentyone.analysis.dealer import BUST, dealer_dists, standing_table
from twentyone.analysis.player import DOUBLE, STAND, bonus_need
from twentyone.analysis.shoe_counts import FloatArray, HandTable, IntArray, Nodes
from twentyone.analysis.variance import hand_state
from twentyone.engine.jit import njit

#: Final states of a hand, as in :mod:`twentyone.analysis.variance`: ``part * 7 + state``
#: (part 1 for a doubled hand; state 0 = 16 or less, 1-5 = 17..21, 6 = bust), and two more:
#: a 21 of 6-7-8 or 7-7-7 that was paid the bonus (:data:`BONUS_STATE`, doubled the next).
STATES = 16
BUST_STATE = 6
BONUS_STATE = 14
KEY_BASE = 32  # a set of cards as one integer: each count a digit in base 32
DIGITS = KEY_BASE ** np.arange(9, -1, -1, dtype=np.int64)


class Atoms(NamedTuple):
    """A split hand as sets of cards: ``drawn[k]`` the cards drawn after the pair card and
    ``weight[k, s]`` the orders of drawing (signed) that end in state ``s`` there."""

    drawn: IntArray
    weight: FloatArray


@njit(cache=True)
def atom_weights_kernel(
    one: int,
    pair: int,
    hands: HandTable,
    dec: IntArray,
    decs: IntArray,
    aces: bool,
    two_hands: bool,
    bonus: bool,
) -> FloatArray:  # pragma: no cover - compiled
    """Per hand, its signed weight on each final state (see the module's docstring): the
    hands reached a card at a time, each level's hands after the level before. With
    ``bonus`` (the 6-7-8 / 7-7-7 bonus pays on split hands) a two-card hand that a third card
    can make one is played by ``decs`` on the share of such hands the bonus can pay (a suited
    6-7, 6-8 or 7-8: a quarter; 7-7: all, the share and the third card's suit a quarter each
    as the returns take them: :func:`~twentyone.analysis.player._bonus_value`), and the third
    card that pays ends in :data:`BONUS_STATE`. Every weight is a whole number of sixteenths,
    so the order of the sums cannot move a bit."""
    counts, total, child = hands.counts, hands.total, hands.child
    n = counts.shape[0]
    ways = np.zeros(n)
    ways[one] = 1.0
    w = np.zeros((n, STATES))
    level = np.zeros(n, dtype=np.int64)  # this level's hands, then the next level's
    after = np.zeros(n, dtype=np.int64)  # (a hand joins it when its count of orders starts)
    level[0] = one
    now, size = 1, 1
    act = np.zeros(2, dtype=np.int64)  # a hand's plays: without the bonus, and with it
    mass = np.zeros(2)
    while now > 0:
        nxt = 0
        for k in range(now):
            i = level[k]
            need, share = -1, 0.0
            if bonus and size == 2 and not aces:
                need, share = bonus_need(counts[i])
            plays = 1
            act[0], mass[0] = dec[i], ways[i]
            if need >= 0:
                plays = 2
                mass[0] = ways[i] * (1.0 - share)
                act[1], mass[1] = decs[i], ways[i] * share
            for b in range(plays):
                a, wi = act[b], mass[b]
                if wi == 0.0:
                    continue
                if size >= 2 and (total[i] == 21 or (size == 2 and aces) or a == STAND):
                    w[i, hand_state(total[i])] += wi
                    continue
                part = 1 if (size == 2 and a == DOUBLE) else 0
                per = 0.0
                if b == 1:
                    per = 1.0 if share >= 1.0 else 0.25  # the third card's suit
                w[i, part * 7 + BUST_STATE] += wi  # every next card ...
                for v in range(10):
                    c = child[i, v]
                    if c < 0:
                        continue
                    w[c, part * 7 + BUST_STATE] -= wi  # ... less those that do not bust
                    paid = wi * per if v == need else 0.0
                    if paid != 0.0:
                        w[c, BONUS_STATE + part] += paid
                    if part == 1:
                        w[c, 7 + hand_state(total[c])] += wi - paid
                    elif not (size == 1 and two_hands and v == pair) and wi - paid != 0.0:
                        if ways[c] == 0.0:
                            after[nxt] = c
                            nxt += 1
                        ways[c] += wi - paid
        level, after = after, level
        now = nxt
        size += 1
    return w


def atom_weights(
    nodes: Nodes,
    dec: IntArray,
    pair: int,
    *,
    aces: bool,
    two_hands: bool = False,
    decs: IntArray | None = None,
    bonus: bool = False,
) -> FloatArray:
    """Every hand's signed weight on each final state for a hand starting from one ``pair``
    card, played by ``dec`` (``aces``: split aces take one card each; ``two_hands``: only the
    hands whose second card is not a pair card, those of a split that ends with two hands;
    ``bonus``: the 6-7-8 / 7-7-7 bonus pays on split hands, its share played by ``decs``)."""
    one = nodes.index[tuple(int(v == pair) for v in range(10))]
    return atom_weights_kernel(
        one, pair, nodes.table, dec, dec if decs is None else decs, aces, two_hands, bonus
    )


def split_atoms(
    nodes: Nodes,
    dec: IntArray,
    pair: int,
    *,
    aces: bool,
    two_hands: bool = False,
    decs: IntArray | None = None,
    bonus: bool = False,
) -> Atoms:
    """The atoms of a hand starting from one ``pair`` card, played by ``dec`` (see
    :func:`atom_weights`): the hands with a weight."""
    w = atom_weights(nodes, dec, pair, aces=aces, two_hands=two_hands, decs=decs, bonus=bonus)
    keep = np.nonzero(np.any(w != 0.0, axis=1))[0]
    drawn = nodes.counts[keep].copy()
    drawn[:, pair] -= 1
    return Atoms(drawn, w[keep])


#: A set of cards' row in :class:`DealerRows`'s table of sets: open addressing (linear
#: probing), slot ``h`` holding the set's key at ``2h`` (-1: free) and its row at ``2h + 1``,
#: kept at most half full.
FREE = -1


@njit(cache=True)
def _slot(table: IntArray, key: int) -> int:  # pragma: no cover - compiled
    """Where ``key`` is (or goes) in ``table``: linear probing from its hash (the high bits
    of the key times an odd constant, folded: every digit of the key moves them, where the
    product's middle bits alone left out the aces and twos and made long runs of probes)."""
    mask = (table.shape[0] >> 1) - 1
    x = key * 0x2545F4914F6CDD1D
    h: int = ((x >> 40) ^ (x >> 20)) & mask
    while table[2 * h] != key and table[2 * h] != FREE:
        h = (h + 1) & mask
    return h


@njit(cache=True, inline="always")
def _grown(
    table: IntArray, cards: IntArray, count: int, new: int
) -> tuple[IntArray, IntArray]:  # pragma: no cover - compiled
    """For ``count`` sets, ``new`` of them met in this call, the table of sets four times
    bigger when half full and the new sets' counts four times more room when full (loops: a
    slice copy compiles numba's shape-mismatch message, 2 s of a first run; ``np.full``, one
    more overload)."""
    if 4 * count > table.shape[0]:
        old = table
        table = np.empty(4 * old.shape[0], dtype=np.int64)
        for u in range(table.shape[0]):
            table[u] = FREE
        for u in range(0, old.shape[0], 2):
            if old[u] != FREE:
                g = _slot(table, old[u])
                table[2 * g] = old[u]
                table[2 * g + 1] = old[u + 1]
    if 10 * new >= cards.shape[0]:  # one array (a second dimension: one more overload)
        more = np.empty(4 * cards.shape[0], dtype=np.int64)
        for u in range(10 * new):
            more[u] = cards[u]
        cards = more
    return table, cards


@njit(cache=True)
def pair_rows_kernel(
    drawn: IntArray, extra: IntArray, table: IntArray, cards: IntArray, count: int
) -> tuple[npt.NDArray[np.int32], IntArray, IntArray, int]:  # pragma: no cover - compiled
    """For every pair of atoms ``a <= b`` in that order, the row of the set of cards the two
    drew with ``extra``: a set not seen before gets row ``count``, the next, and its counts
    in ``cards[10 * (count - first):][:10]`` (``first``: ``count`` on the way in; the counts
    are wanted only until the dealer's outcomes are computed)."""
    first = count
    t = drawn.shape[0]
    keys = np.zeros(t, dtype=np.int64)
    for a in range(t):
        for v in range(10):
            keys[a] = keys[a] * KEY_BASE + drawn[a, v]
    extra_key = 0
    for v in range(10):
        extra_key = extra_key * KEY_BASE + extra[v]
    row = np.empty(t * (t + 1) // 2, dtype=np.int32)
    j = 0
    for a in range(t):
        ka = keys[a] + extra_key
        for b in range(a, t):
            key = ka + keys[b]
            h = _slot(table, key)
            if table[2 * h] == FREE:
                table[2 * h] = key
                table[2 * h + 1] = count
                row[j] = count
                for v in range(10):
                    cards[10 * (count - first) + v] = drawn[a, v] + drawn[b, v] + extra[v]
                count += 1
                if 4 * count > table.shape[0] or 10 * (count - first) >= cards.shape[0]:
                    table, cards = _grown(table, cards, count, count - first)
            else:
                row[j] = table[2 * h + 1]
            j += 1
    return row, table, cards, count


@njit(cache=True)
def key_rows_kernel(
    keys: IntArray, table: IntArray, cards: IntArray, count: int
) -> tuple[npt.NDArray[np.int32], IntArray, IntArray, int]:  # pragma: no cover - compiled
    """The row of each set of cards ``keys[i]`` (the counts as digits, :data:`DIGITS`), as
    :func:`pair_rows_kernel` gives them."""
    first = count
    row = np.empty(keys.shape[0], dtype=np.int32)
    for j in range(keys.shape[0]):
        key = keys[j]
        h = _slot(table, key)
        if table[2 * h] == FREE:
            table[2 * h] = key
            table[2 * h + 1] = count
            rest = key
            for v in range(9, -1, -1):
                cards[10 * (count - first) + v] = rest % KEY_BASE
                rest //= KEY_BASE
            row[j] = count
            count += 1
            if 4 * count > table.shape[0] or 10 * (count - first) >= cards.shape[0]:
                table, cards = _grown(table, cards, count, count - first)
        else:
            row[j] = table[2 * h + 1]
    return row, table, cards, count


#: The counts of the sets met by the last call and not yet given their dealer's rows: scratch
#: shared by every :class:`DealerRows` (each call's are used before the next call; one
#: buffer is fewer fresh pages for a new process than one for each up card).
_NEW_CARDS = [np.zeros(10 << 11, dtype=np.int64)]


class DealerRows:
    """The dealer's outcomes (17..21, bust, blackjack) for one up card drawing from ``shoe``
    (the cards left after the up card) less each set of cards met so far, by row."""

    def __init__(self, shoe: IntArray, up: int, h17_from: int) -> None:
        self.shoe = shoe
        self.table = standing_table(up, h17_from)
        self.slots = np.full(2 << 12, FREE, dtype=np.int64)
        self.count = 0
        self.store = np.zeros((1 << 11, 7))
        self.known = 0

    @property
    def rows(self) -> FloatArray:
        """The dealer's outcomes of every set met so far, by row."""
        return self.store[: self.known]

    def pair_rows(self, atoms: Atoms, out: IntArray) -> npt.NDArray[np.int32]:
        """The row of each pair of ``atoms`` (in order ``a <= b``), the cards ``out`` taken
        as well; the dealer's outcomes of new sets are computed here."""
        row, self.slots, _NEW_CARDS[0], self.count = pair_rows_kernel(
            atoms.drawn, out, self.slots, _NEW_CARDS[0], self.count
        )
        self._fill()
        return row

    def rows_of(self, keys: IntArray) -> npt.NDArray[np.int32]:
        """The row of each set of cards out of the shoe (``keys``: the counts as digits,
        :data:`DIGITS`); the dealer's outcomes of new sets are computed here."""
        row, self.slots, _NEW_CARDS[0], self.count = key_rows_kernel(
            keys, self.slots, _NEW_CARDS[0], self.count
        )
        self._fill()
        return row

    def _fill(self) -> None:
        """The dealer's outcomes of the sets met since the last call."""
        known, count = self.known, self.count
        if count > known:
            t = self.table
            removed = _NEW_CARDS[0][: 10 * (count - known)].reshape(count - known, 10)
            new, valid = dealer_dists(self.shoe, removed, t.parent, t.fac, t.ways, t.bucket)
            new[:, BUST] = np.where(valid, 1.0 - new.sum(axis=1), 0.0)
            if count > self.store.shape[0]:
                grown = np.zeros((max(count, 2 * self.store.shape[0]), 7))
                grown[:known] = self.store[:known]
                self.store = grown
            self.store[known:count] = new
            self.known = count


@njit(cache=True)
def falling_tables(shoe: IntArray, top: int) -> tuple[FloatArray, FloatArray]:  # pragma: no cover
    """``ff[v, j]``: the falling factorial of ``shoe[v]`` to ``j`` cards, and ``inv[j]``: 1 over
    that of the shoe's size (0 past the shoe), for ``j`` below ``top``: a set of cards' chance
    of being drawn is ``inv[|set|]`` times its values' ``ff``."""
    n0 = 0
    for v in range(10):
        n0 += shoe[v]
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
    return ff, inv


@njit(cache=True)
def accumulate_kernel(
    shoe: IntArray,
    drawn: IntArray,
    weight: FloatArray,
    row_of_pair: npt.NDArray[np.int32],
    rows: FloatArray,
) -> FloatArray:  # pragma: no cover - compiled
    """``joint`` of :func:`pair_joint`. A pair's chance is ``inv[|a| + |b|]`` times the
    falling factorials of ``a + b``, doubled where ``a != b``: it depends on the pair only
    through its row (the set ``a + b`` with the pair cards), so it is computed once per row
    (``chance``) and doubled after, which gives the same bits (doubling is exact). Where no
    row has the dealer's blackjack (an up card 2 to 9) its terms are left out: each is a
    zero, and zeros added to zero leave it zero."""
    t = drawn.shape[0]
    size = np.zeros(t, dtype=np.int64)
    nst = np.zeros(t, dtype=np.int64)
    st = np.zeros((t, STATES), dtype=np.int64)
    sw = np.zeros((t, STATES))
    for k in range(t):
        for v in range(10):
            size[k] += drawn[k, v]
        for s in range(STATES):
            if weight[k, s] != 0.0:
                st[k, nst[k]] = s
                sw[k, nst[k]] = weight[k, s]
                nst[k] += 1
    most = 0  # a loop, not size.max(): its overload compiles for 0.5 s on a first run
    for k in range(t):
        most = max(most, size[k])
    ff, inv = falling_tables(shoe, 2 * most + 1)
    chance = np.empty(rows.shape[0])  # -1: not computed yet (a chance is never negative)
    for u in range(rows.shape[0]):
        chance[u] = -1.0
    outcomes = 6  # the dealer's blackjack (the last) only where a row has it
    for u in range(rows.shape[0]):
        if rows[u, 6] != 0.0:
            outcomes = 7
            break
    joint = np.zeros((STATES, STATES, 7))
    j = 0
    for a in range(t):
        for b in range(a, t):
            r = row_of_pair[j]
            j += 1
            if chance[r] < 0.0:
                f = inv[size[a] + size[b]]
                for v in range(10):
                    f *= ff[v, drawn[a, v] + drawn[b, v]]
                chance[r] = f
            f = chance[r] * 2.0 if b != a else chance[r]
            if f != 0.0:  # the row read once (the stores to joint would reload it)
                d0, d1, d2, d3 = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3]
                d4, d5, d6 = rows[r, 4], rows[r, 5], rows[r, 6]
                for x1 in range(nst[a]):
                    fa = f * sw[a, x1]  # g = f * sw[a, x1] * sw[b, x2], in that order
                    s1 = st[a, x1]
                    for x2 in range(nst[b]):
                        g = fa * sw[b, x2]
                        s2 = st[b, x2]
                        joint[s1, s2, 0] += g * d0
                        joint[s1, s2, 1] += g * d1
                        joint[s1, s2, 2] += g * d2
                        joint[s1, s2, 3] += g * d3
                        joint[s1, s2, 4] += g * d4
                        joint[s1, s2, 5] += g * d5
                        if outcomes == 7:
                            joint[s1, s2, 6] += g * d6
    return joint


def pair_joint(shoe: IntArray, atoms: Atoms, dealer: DealerRows, out: IntArray) -> FloatArray:
    """``joint[s1, s2, d]``: the probability that the two hands end in states ``s1``, ``s2``
    (each pair of atoms counted once, in their order) and the dealer in outcome ``d``, the
    hands drawing from ``shoe`` (the cards left after the up card and the two pair cards,
    ``out`` of ``dealer``'s shoe) and the dealer after them."""
    row = dealer.pair_rows(atoms, out)
    return accumulate_kernel(shoe, atoms.drawn, atoms.weight, row, dealer.rows)
