"""The kernel's table of hands: one row of integers per hand (total, cards, stake, flags) and
the rules' tests on it (split, double, the play question's actions, what a new card does, the
chart's code) and a split, each the engine's own in :mod:`twentyone.engine.round` restated for
integers, shared by the simulator's kernel and the RL environment's. The few helpers marked
``inline="always"`` are inlined at numba's level at their one or two call sites in each kernel
(as calls, which LLVM did not inline, they cost the flat kernel a fifth of its speed); the
others are compiled calls.

>>> import numpy as np
>>> from twentyone.sim.encode import card_index
>>> from twentyone.engine.cards import Card
>>> hands = np.zeros((1, H_FIELDS), dtype=np.int64)
>>> for c in ("AS", "6D"):
...     add(hands, 0, card_index(Card.parse(c)))
>>> int(best_total(hands[0, H_SUM], hands[0, H_ACE])), int(hands[0, H_N])
(17, 2)
"""

from __future__ import annotations

import numpy as np

from twentyone.engine.compiled import (
    cards_pair_jit,
    double_is_free_jit,
    may_stand_jit,
    split_is_free_jit,
    total_may_double_jit,
)
from twentyone.sim.encode import (
    A_DOUBLE,
    A_HIT,
    A_SPLIT,
    A_STAND,
    A_SURRENDER,
    C_P,
    C_RP,
    CARD_RANK,
    CARD_SUIT,
    CARD_VALUE,
    F_BONUS,
    P_BONUS,
    P_DAS,
    P_DOUBLE_AFTER_HIT,
    P_DOUBLE_ON,
    P_FREE_DOUBLES,
    P_FREE_SPLITS,
    P_HSA,
    P_MAX_HANDS,
    P_MIN_STAND,
    P_ONE_BOX_SPLIT,
    P_REDOUBLES,
    P_RESCUE,
    P_RSA,
    P_SPLIT_RANK,
    P_SURR_BEFORE,
    P_SURR_VS_ACE,
    P_SURRENDER,
)
from twentyone.sim.rng import Arr, Int, fast

# per-hand integer fields (rows of the hand table)
H_SUM = 0  # total with aces as 1
H_ACE = 1  # 1 when the hand holds an ace
H_N = 2  # cards in the hand
H_C0 = 3  # first three cards (52-card indices): pairs and the 6-7-8 / 7-7-7 bonus
H_C1 = 4
H_C2 = 5
H_BET = 6  # the player's stake in units (2 after a double; 0 on a hand a free split made)
H_FLAGS = 7
H_FREE = 8  # the house's stake in units: free doubles and splits (Free Bet)
H_FIELDS = 9

# hand flags
FL_SPLIT = 1
FL_SPLIT_ACES = 2
FL_DOUBLED = 4
FL_ACTED = 8
FL_DONE = 16
FL_BUST = 32
FL_SURRENDERED = 64
FL_SETTLED = 128  # settled before the dealer plays: even money (the simulator's counter, the RL
# environment), and in the RL environment a blackjack paid at once or a settled surrender
FL_SWITCHED = 256  # its second card came from its switch partner: a two-card 21 is no blackjack
FL_RESCUED = 512  # a doubled hand surrendered (Rules.rescue; the RL environment's: a chart never
# rescues): the original bet lost, unless a dealer blackjack takes it as any other hand


@fast()
def keep(cards: Arr, r: Int, nrec: Int, c: Int) -> Int:
    """Record a card (a round longer than the table counts its cards without writing)."""
    if nrec < cards.shape[1]:
        cards[r, nrec] = c
    return nrec + 1


@fast()
def best_total(hsum: Int, ace: Int) -> Int:
    if ace and hsum <= 11:
        return hsum + 10
    return hsum


@fast()
def add(hands: Arr, h: Int, c: Int) -> None:
    v = CARD_VALUE[c]
    hands[h, H_SUM] += v
    if v == 1:
        hands[h, H_ACE] = 1
    n = hands[h, H_N]
    if n < 3:
        hands[h, H_C0 + n] = c
    hands[h, H_N] = n + 1


@fast(inline="always")
def is_natural(hands: Arr, h: Int) -> bool:
    """A blackjack: two cards making 21, not from a split nor a switch."""
    return bool(
        not hands[h, H_FLAGS] & (FL_SPLIT | FL_SWITCHED)
        and hands[h, H_N] == 2
        and best_total(hands[h, H_SUM], hands[h, H_ACE]) == 21
    )


@fast()
def split_allowed(
    p: Arr,
    hands: Arr,
    h: Int,
    nh: Int,
    boxes: Int,
) -> bool:
    fl = hands[h, H_FLAGS]
    if hands[h, H_N] != 2 or fl & FL_DOUBLED or nh >= p[P_MAX_HANDS]:
        return False
    a, b = hands[h, H_C0], hands[h, H_C1]
    if not cards_pair_jit(
        CARD_RANK[a] == CARD_RANK[b], CARD_VALUE[a] == CARD_VALUE[b], p[P_SPLIT_RANK] != 0
    ):
        return False
    if fl & FL_SPLIT_ACES and not p[P_RSA]:
        return False
    return not (p[P_ONE_BOX_SPLIT] and boxes > 1)


@fast()
def doubles_made(hands: Arr, h: Int) -> Int:
    """How many times hand ``h`` doubled: each double stakes the whole stake again, so a hand
    of the player's stakes alone (Spanish 21's doubles refuse free stakes) holds ``2**k``."""
    k = 0
    b = hands[h, H_BET]
    while b > 1:
        b >>= 1
        k += 1
    return k


@fast()
def double_allowed(p: Arr, hands: Arr, h: Int) -> bool:
    """Round._double_range: on two cards, on more with ``P_DOUBLE_AFTER_HIT``, again after a
    double while it has doubled at most ``P_REDOUBLES`` times (Spanish 21)."""
    fl = hands[h, H_FLAGS]
    if fl & FL_DOUBLED:
        if doubles_made(hands, h) > p[P_REDOUBLES]:
            return False
    elif hands[h, H_N] != 2 and not p[P_DOUBLE_AFTER_HIT]:
        return False
    if fl & FL_SPLIT and not p[P_DAS]:
        return False
    if fl & FL_SPLIT_ACES and not p[P_HSA]:
        return False
    hsum = hands[h, H_SUM]
    best = best_total(hsum, hands[h, H_ACE])
    return total_may_double_jit(best, best != hsum, p[P_DOUBLE_ON])


@fast(inline="always")
def surrender_in_play(p: Arr, upv: Int) -> bool:
    """Surrender is asked with the play question against an up card of value ``upv``."""
    return bool(p[P_SURRENDER] != 0 and not p[P_SURR_BEFORE] and (upv != 1 or p[P_SURR_VS_ACE]))


@fast(inline="always")
def play_acts(p: Arr, hands: Arr, h: Int, nh: Int, boxes: Int, surr_in_play: bool) -> Int:
    """The play question's actions on hand row ``h`` (``A_*`` bits; 0: the hand is done), of a
    box with ``nh`` hands whose player plays ``boxes`` boxes (``Round._play_question``);
    ``surr_in_play``: :func:`surrender_in_play` against this up card."""
    fl = hands[h, H_FLAGS]
    can_split = split_allowed(p, hands, h, nh, boxes)
    if fl & FL_SPLIT_ACES and not p[P_HSA]:
        return A_SPLIT | A_STAND if can_split else 0
    best = best_total(hands[h, H_SUM], hands[h, H_ACE])
    acts = 0
    if fl & FL_DOUBLED:  # its card came (Spanish 21): stand or redouble (a chart never rescues)
        acts |= A_STAND
    else:
        if best < 21:
            acts |= A_HIT
        if may_stand_jit(best, p[P_MIN_STAND]):
            acts |= A_STAND
    if double_allowed(p, hands, h):
        acts |= A_DOUBLE
    if can_split:
        acts |= A_SPLIT
    if surr_in_play and nh == 1 and hands[h, H_N] == 2 and not fl & FL_ACTED:
        acts |= A_SURRENDER
    return acts


@fast()
def after_card(
    p: Arr,
    f: Arr,
    hands: Arr,
    h: Int,
    nh: Int,
    boxes: Int,
) -> float:
    """Round.after_card: the 6-7-8 / 7-7-7 bonus (returned), bust, 21, a doubled hand (asked
    again where it may redouble or be rescued: ``P_REDOUBLES``, ``P_RESCUE``), one card to
    split aces."""
    bonus = 0.0
    n = hands[h, H_N]
    if n == 3 and p[P_BONUS]:
        r0, r1, r2 = CARD_RANK[hands[h, H_C0]], CARD_RANK[hands[h, H_C1]], CARD_RANK[hands[h, H_C2]]
        if r0 == 5 and r1 == 5 and r2 == 5:
            bonus = f[F_BONUS]
        elif r0 + r1 + r2 == 15 and r0 * r1 * r2 == 120:  # ranks 6, 7, 8 (indices 4, 5, 6)
            s0 = CARD_SUIT[hands[h, H_C0]]
            if s0 == CARD_SUIT[hands[h, H_C1]] and s0 == CARD_SUIT[hands[h, H_C2]]:
                bonus = f[F_BONUS]
    hsum = hands[h, H_SUM]
    fl = hands[h, H_FLAGS]
    if hsum > 21:
        hands[h, H_FLAGS] = fl | FL_DONE | FL_BUST
    elif (
        best_total(hsum, hands[h, H_ACE]) == 21
        or (fl & FL_DOUBLED and not (p[P_RESCUE] or p[P_REDOUBLES]))
        or (
            fl & FL_SPLIT_ACES
            and not p[P_HSA]
            and n == 2
            and not split_allowed(p, hands, h, nh, boxes)
        )
    ):
        hands[h, H_FLAGS] = fl | FL_DONE
    return bonus


@fast()
def switch_pair(hands: Arr, h: Int, g: Int, sw: Arr, upv: Int) -> bool:
    """Blackjack Switch: the hands at rows ``h`` and ``g`` (a pair of boxes' first hands, two
    cards each) swap their second cards when the hands that makes return more against the up
    card's value ``upv`` than those dealt, by the returns ``sw[upv, a, b, k]``
    (:func:`twentyone.sim.switch.switch_table`; a tie keeps); returns whether they switched.
    A switched hand is marked (its 21 is no blackjack) and plays on unless it is 21
    (``Round._switch`` and the switch phase's end)."""
    a, b = CARD_VALUE[hands[h, H_C0]], CARD_VALUE[hands[h, H_C1]]
    c, d = CARD_VALUE[hands[g, H_C0]], CARD_VALUE[hands[g, H_C1]]
    if not sw[upv, a, d, 1] + sw[upv, c, b, 1] > sw[upv, a, b, 0] + sw[upv, c, d, 0]:
        return False
    second = hands[h, H_C1]
    hands[h, H_C1] = hands[g, H_C1]
    hands[g, H_C1] = second
    for k in (h, g):
        v0, v1 = CARD_VALUE[hands[k, H_C0]], CARD_VALUE[hands[k, H_C1]]
        hands[k, H_SUM] = v0 + v1
        hands[k, H_ACE] = 1 if v0 == 1 or v1 == 1 else 0
        done = FL_DONE if best_total(v0 + v1, hands[k, H_ACE]) == 21 else 0
        hands[k, H_FLAGS] = FL_SWITCHED | done
    return True


@fast()
def chart_code(
    hard: Arr,
    soft: Arr,
    pairs: Arr,
    hands: Arr,
    h: Int,
    col: Int,
    pair_allowed: bool,
) -> Int:
    """strategy.hand_code: the pair row (when it says split) or the total's row."""
    if pair_allowed and hands[h, H_N] == 2:
        v = CARD_VALUE[hands[h, H_C0]]
        if v == CARD_VALUE[hands[h, H_C1]]:
            pc = np.int64(pairs[v, col])
            if pc in (C_P, C_RP):
                return pc
    hsum = hands[h, H_SUM]
    best = best_total(hsum, hands[h, H_ACE])
    if best != hsum:
        return np.int64(soft[best, col])
    return np.int64(hard[best, col])


@fast()
def insert_hand(hands: Arr, base: Int, j: Int, nh: Int) -> None:
    """Make room for a new hand at ``base + j + 1`` (hands after it move up one)."""
    for k in range(base + nh, base + j + 1, -1):
        for fld in range(H_FIELDS):
            hands[k, fld] = hands[k - 1, fld]


@fast()
def split_hand(p: Arr, hands: Arr, base: Int, j: Int, nh: Int) -> None:
    """Split hand ``base + j`` of a box with ``nh`` hands (``Round.split``): the hands after it
    move up one, and each half holds one card of the pair and the split flags (split aces
    marked); the new half stakes one unit, the house's where the split is free
    (``P_FREE_SPLITS``)."""
    insert_hand(hands, base, j, nh)
    h = base + j
    c0, c1 = hands[h, H_C0], hands[h, H_C1]
    aces = FL_SPLIT_ACES if CARD_VALUE[c0] == 1 else 0
    for k in (h, h + 1):
        ck = c0 if k == h else c1
        vk = CARD_VALUE[ck]
        hands[k, H_SUM] = vk
        hands[k, H_ACE] = 1 if vk == 1 else 0
        hands[k, H_N] = 1
        hands[k, H_C0] = ck
        hands[k, H_FLAGS] = FL_SPLIT | aces
    # the kept half keeps its stake; the new one has the box's bet, the house's where free
    free = split_is_free_jit(CARD_VALUE[c0], p[P_FREE_SPLITS])
    hands[h + 1, H_BET] = 0 if free else 1
    hands[h + 1, H_FREE] = 1 if free else 0


@fast()
def double_stake(p: Arr, hands: Arr, h: Int) -> None:
    """Round.apply's double: the hand's whole stake again on hand ``h`` (one unit on a first
    double, the player's or a free split's house's; everything on it on a redouble), the
    house's where the double is free (``P_FREE_DOUBLES``: a hard two-card total, a first
    double), else the player's."""
    hsum = hands[h, H_SUM]
    best = best_total(hsum, hands[h, H_ACE])
    stake = hands[h, H_BET] + hands[h, H_FREE]
    first = not hands[h, H_FLAGS] & FL_DOUBLED
    if first and hands[h, H_N] == 2 and double_is_free_jit(best, best != hsum, p[P_FREE_DOUBLES]):
        hands[h, H_FREE] += stake
    else:
        hands[h, H_BET] += stake
