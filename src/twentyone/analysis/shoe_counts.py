"""Shoe compositions and the table of every player hand, as value counts.

Cards are counted by blackjack value: index ``i`` holds value ``i + 1`` (index 0 = ace,
index 9 = every ten-value card). A player hand is a multiset of values (its order never
matters to its total or to the cards left in the shoe), with a hard sum of 21 or less.

>>> fresh_counts(1).tolist()
[4, 4, 4, 4, 4, 4, 4, 4, 4, 16]
>>> nodes = player_nodes(1)
>>> i = nodes.index[(0, 0, 0, 0, 0, 1, 1, 0, 0, 0)]  # 6-7
>>> int(nodes.total[i]), bool(nodes.soft[i]), int(nodes.ncards[i])
(13, False, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from twentyone.analysis.caches import memo
from twentyone.analysis.kept import kept
from twentyone.engine.cards import Card

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

ACE, TEN = 0, 9


def fresh_counts(decks: int, deck: str = "standard") -> IntArray:
    """Cards of each value in a fresh shoe of ``decks`` decks (``deck="spanish"``: twelve
    ten-values a deck, the ten-spots removed).

    >>> fresh_counts(2, "spanish").tolist()
    [8, 8, 8, 8, 8, 8, 8, 8, 8, 24]
    """
    c = np.full(10, 4 * decks, dtype=np.int64)
    c[TEN] = (12 if deck == "spanish" else 16) * decks
    return c


def value_index(card: Card) -> int:
    """The count index of a card: ace 0, two 1, ..., ten-value 9."""
    return card.value - 1


def hand_counts(cards: list[Card] | tuple[Card, ...]) -> IntArray:
    """Value counts of some cards.

    >>> hand_counts(list(Card.parse(c) for c in ("AS", "KD", "QH"))).tolist()
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    """
    out = np.zeros(10, dtype=np.int64)
    for c in cards:
        out[value_index(c)] += 1
    return out


def best_total(hard: int, aces: int) -> tuple[int, bool]:
    """Best total and softness from the hard sum and whether an ace is present."""
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


class HandTable(NamedTuple):
    """The arrays of :class:`Nodes` the kernels read, as one argument (a numba named tuple:
    the same arrays, no copy)."""

    counts: IntArray
    total: IntArray
    soft: BoolArray
    ncards: IntArray
    child: IntArray
    order: IntArray
    bounds: IntArray


@dataclass(frozen=True)
class Nodes:
    """Every player hand (1 card or more, hard sum <= 21) of a shoe, and how they connect.

    ``child[i, v]`` is the hand ``i`` plus a card of value index ``v`` (-1 when that busts).
    ``order`` lists the hands so that every hand comes after all its children; ``group`` is
    the chart row of each hand (hard 21..12, soft 21..11, hard 11..2) and ``bounds`` the
    slice of ``order`` that holds each group.
    """

    counts: IntArray
    hard: IntArray
    total: IntArray
    soft: BoolArray
    ncards: IntArray
    child: IntArray
    order: IntArray
    group: IntArray
    bounds: IntArray
    index: dict[tuple[int, ...], int]

    @property
    def size(self) -> int:
        return int(self.counts.shape[0])

    @cached_property
    def table(self) -> HandTable:
        """The arrays the kernels read (:class:`HandTable`; made once: a kernel call would
        otherwise pay for a new tuple)."""
        return HandTable(
            self.counts, self.total, self.soft, self.ncards, self.child, self.order, self.bounds
        )


GROUPS: tuple[tuple[bool, int], ...] = (
    tuple((False, t) for t in range(21, 11, -1))
    + tuple((True, t) for t in range(21, 10, -1))
    + tuple((False, t) for t in range(11, 1, -1))
)
GROUP_OF = {key: i for i, key in enumerate(GROUPS)}


def _node_index(kept: dict[str, Any]) -> dict[str, Any]:
    """A kept :class:`Nodes`'s ``index``, rebuilt from its ``counts``."""
    return {"index": {tuple(row): i for i, row in enumerate(kept["counts"].tolist())}}


#: A multiset of values' counts as one integer key, ``counts @ KEY_DIGITS`` (each count a
#: digit in base 64, the ace's lowest; no count reaches 64): a player's hand, a set of cards
#: out, a dealer's hand while its table is built.
KEY_DIGITS = 64 ** np.arange(10, dtype=np.int64)
#: Every chart row's group, by softness and total (-1: no such row).
_GROUP_TABLE = np.full((2, 32), -1, dtype=np.int64)
for _g, (_soft, _total) in enumerate(GROUPS):
    _GROUP_TABLE[int(_soft), _total] = _g


def _rows_of(keys: IntArray, by_key: IntArray, wanted: IntArray) -> IntArray:
    """The row of ``keys`` holding each of ``wanted`` (any shape), -1 where none does
    (``by_key``: the order that sorts ``keys``)."""
    at = np.minimum(np.searchsorted(keys, wanted, sorter=by_key), keys.shape[0] - 1)
    return np.where(keys[by_key[at]] == wanted, by_key[at], -1).astype(np.int64)


def _hands_in_order(limit: IntArray) -> IntArray:
    """Every hand (hard sum <= 21, at most ``limit[v]`` cards of value index ``v``) as value
    counts, in the order of a depth-first walk that adds cards in value order (a hand, then
    the hands it leads to with cards of its highest value or higher, lowest first): hands
    listed by their cards sorted from ace up, a hand before its extensions."""
    most = 21  # cards in a hand: 21 aces at most
    counts = [np.eye(10, dtype=np.int64)]
    cards = [np.full((10, most), -1, dtype=np.int64)]
    cards[0][:, 0] = np.arange(10)
    last, hard = np.arange(10), np.arange(1, 11)
    for k in range(1, most):
        c, seq = counts[-1], cards[-1]
        v = np.arange(10)
        ok = (v[None, :] >= last[:, None]) & (hard[:, None] + v[None, :] + 1 <= 21)
        ok &= c < limit[None, :]
        rows, vals = np.nonzero(ok)
        if rows.size == 0:
            break
        grown = c[rows].copy()
        grown[np.arange(rows.size), vals] += 1
        seq = seq[rows].copy()
        seq[:, k] = vals
        counts.append(grown)
        cards.append(seq)
        last, hard = vals, hard[rows] + vals + 1
    seqs = np.concatenate(cards)
    return np.concatenate(counts)[np.lexsort(seqs.T[::-1])]


@memo(16, table=True)
@kept("player_nodes", Nodes, _node_index, skip=("index",))
def player_nodes(decks: int) -> Nodes:
    """All player hands possible from a ``decks``-deck shoe (cached per deck count)."""
    counts = _hands_in_order(fresh_counts(decks))
    weights = np.arange(1, 11, dtype=np.int64)
    hard = counts @ weights
    soft = (counts[:, ACE] > 0) & (hard + 10 <= 21)
    total = np.where(soft, hard + 10, hard)
    keys = counts @ KEY_DIGITS
    grown = keys[:, None] + KEY_DIGITS[None, :]  # each hand plus one card of each value
    child = _rows_of(keys, np.argsort(keys), grown)
    group = _GROUP_TABLE[soft.astype(np.int64), total]
    order = np.argsort(group, kind="stable").astype(np.int64)
    bounds = np.searchsorted(group[order], np.arange(len(GROUPS) + 1)).astype(np.int64)
    return Nodes(
        counts=counts,
        hard=hard,
        total=total,
        soft=soft,
        ncards=counts.sum(axis=1),
        child=child,
        order=order,
        group=group,
        bounds=bounds,
        index=_node_index({"counts": counts})["index"],
    )


def two_card_probability(shoe: IntArray, a: int, b: int) -> float:
    """Probability that two cards drawn from ``shoe`` are values ``a`` and ``b`` (any order).

    >>> round(two_card_probability(fresh_counts(1), ACE, TEN), 6)  # 2 * 4/52 * 16/51
    0.048265
    """
    n = float(shoe.sum())
    if a == b:
        return float(shoe[a] * (shoe[a] - 1)) / (n * (n - 1))
    return 2.0 * float(shoe[a] * shoe[b]) / (n * (n - 1))


@dataclass(frozen=True)
class Removed:
    """Every set of cards out of the shoe that a stand value needs: each hand, and each hand
    holding a pair card with ``j`` more pair cards out (split hands). ``where[p, j, i]`` is the
    row in ``keys`` of hand ``i`` plus ``j`` cards of value index ``p`` (-1 when hand ``i``
    holds no ``p``)."""

    keys: IntArray
    where: IntArray


@memo(16, table=True)
@kept("removed_sets", Removed)
def removed_sets(decks: int, most_hands: tuple[int, ...]) -> Removed:
    """The sets for a shoe of ``decks`` and splits of pair ``p`` to ``most_hands[p]`` hands
    (cached): the hands first, then each set no hand is, in the order first met going
    through ``p``, then ``j``, then the hands holding ``p``."""
    nodes = player_nodes(decks)
    n = nodes.size
    jmax = max(*most_hands, 2)
    where = np.full((10, jmax, n), -1, dtype=np.int64)
    where[:, 0, :] = np.arange(n)
    keys = nodes.counts @ KEY_DIGITS
    by_key = np.argsort(keys)
    places: list[tuple[int, int, IntArray]] = []
    parts: list[IntArray] = []
    for p in range(10):
        holders = np.nonzero(nodes.counts[:, p] >= 1)[0]
        for j in range(1, most_hands[p]):
            places.append((p, j, holders))
            parts.append(keys[holders] + j * KEY_DIGITS[p])
    if not parts:
        return Removed(nodes.counts.copy(), where)
    wanted = np.concatenate(parts)
    row = _rows_of(keys, by_key, wanted)
    new_keys, first, which = np.unique(wanted[row < 0], return_index=True, return_inverse=True)
    met = np.argsort(first, kind="stable")  # the new sets in the order first met
    rank = np.empty(new_keys.size, dtype=np.int64)
    rank[met] = np.arange(new_keys.size)
    row[row < 0] = n + rank[which.ravel()]
    extra = np.zeros((new_keys.size, 10), dtype=np.int64)
    by_first = new_keys[met]
    for v in range(10):
        extra[:, v] = by_first // KEY_DIGITS[v] % 64
    start = 0
    for p, j, holders in places:
        where[p, j, holders] = row[start : start + holders.size]
        start += holders.size
    return Removed(np.concatenate([nodes.counts, extra]), where)
