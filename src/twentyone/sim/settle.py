"""What the dealer's turn needs to know of a box, and what a box's hands win or lose
(``Round._settle`` restated for the table of hands of :mod:`twentyone.sim.hands`): the
simulator's kernel (:mod:`twentyone.sim.kernel`) and the RL environment's
(:mod:`twentyone.gym.vector_kernel`) both settle with these. Each is inlined at numba's level
(``inline="always"``) at its one call site in each kernel: as compiled calls, which LLVM did
not inline, they cost the simulator's flat kernel a fifth of its speed and the counting kernel
a third.

>>> import numpy as np
>>> from twentyone import load_rules
>>> from twentyone.engine.cards import Card
>>> from twentyone.sim.encode import card_index, encode_rules
>>> from twentyone.sim.hands import H_BET, H_FIELDS, add
>>> p, f = encode_rules(load_rules("6D S17"))
>>> hands = np.zeros((2, H_FIELDS), dtype=np.int64)
>>> for h, cards in ((0, ("TS", "9D")), (1, ("AS", "KD"))):
...     hands[h, H_BET] = 1
...     for c in cards:
...         add(hands, h, card_index(Card.parse(c)))
>>> [bool(x) for x in dealer_needed(hands, 0, 2, False)]  # the 19 needs the dealer's hand
[True, True]
>>> float(box_money(p, f, hands, 0, 2, 0, 20))  # 19 loses to 20, the blackjack pays 3:2
0.5
"""

from __future__ import annotations

import numpy as np

from twentyone.sim.encode import (
    CARD_RANK,
    CARD_SUIT,
    F_B21_CARDS,
    F_B21_MIXED,
    F_B21_SPADES,
    F_B21_SUITED,
    F_BJ,
    P_BJ_TIES,
    P_DEALER_22,
    P_OBO,
    P_P21_WINS,
    P_SURRENDER,
    P_TIES,
)
from twentyone.sim.hands import (
    FL_BUST,
    FL_DOUBLED,
    FL_RESCUED,
    FL_SETTLED,
    FL_SURRENDERED,
    H_ACE,
    H_BET,
    H_C0,
    H_C1,
    H_C2,
    H_FLAGS,
    H_FREE,
    H_N,
    H_SUM,
    best_total,
    is_natural,
)
from twentyone.sim.rng import Arr, Int, fast


@fast(inline="always")
def dealer_needed(hands: Arr, base: Int, nh: Int, early: bool) -> tuple[bool, bool]:
    """For a box's ``nh`` hands from row ``base``: ``(live, waiting)``: a hand needs the
    dealer's final total (not bust, not surrendered, not a blackjack), a bet waits for the
    dealer's blackjack (any open hand, a late surrender's too; ``early``: surrender is early,
    its half bet lost whatever the dealer holds; a rescued hand waits, ``FL_RESCUED``). Hands
    settled before are left out."""
    live = False
    waiting = False
    for j in range(nh):
        fl = hands[base + j, H_FLAGS]
        if fl & (FL_BUST | FL_SETTLED):
            continue
        if fl & (FL_SURRENDERED | FL_RESCUED):
            if not early or fl & FL_RESCUED:
                waiting = True
            continue
        waiting = True
        if not is_natural(hands, base + j):
            live = True
    return live, waiting


@fast(inline="always")
def bonus_21_odds(f: Arr, hands: Arr, h: Int) -> float:
    """:meth:`Rules.bonus_21 <twentyone.engine.rules.Rules.bonus_21>` on hand ``h`` of 21:
    the odds paid instead of 1:1 (0: none), never on a doubled hand."""
    if hands[h, H_FLAGS] & FL_DOUBLED:
        return 0.0
    n = hands[h, H_N]
    odds = f[F_B21_CARDS + min(n, 21)]
    if n == 3:
        c0, c1, c2 = hands[h, H_C0], hands[h, H_C1], hands[h, H_C2]
        r0, r1, r2 = CARD_RANK[c0], CARD_RANK[c1], CARD_RANK[c2]
        # ranks 7-7-7 (index 5) or 6, 7, 8 (indices 4, 5, 6)
        if (r0 == 5 and r1 == 5 and r2 == 5) or (r0 + r1 + r2 == 15 and r0 * r1 * r2 == 120):
            s0 = CARD_SUIT[c0]
            if s0 == CARD_SUIT[c1] and s0 == CARD_SUIT[c2]:
                by_suit = f[F_B21_SPADES] if s0 == 3 else f[F_B21_SUITED]
            else:
                by_suit = f[F_B21_MIXED]
            odds = max(odds, by_suit)
    return float(odds)


@fast(inline="always")
def box_money(p: Arr, f: Arr, hands: Arr, base: Int, nh: Int, dbj: Int, dealer: Int) -> float:
    """What a box's ``nh`` hands from row ``base`` win (in its initial bets) against a dealer
    with blackjack (``dbj`` 1) or the total ``dealer``: a bust loses, a blackjack pays
    ``F_BJ`` unless the dealer has one, a surrender loses half (all of a late one to a dealer
    blackjack), a rescued hand its original bet (``FL_RESCUED``: a dealer blackjack takes it as
    any other hand), a dealer blackjack takes every stake or, ``P_OBO``, only the original bet;
    a dealer's 22 pushes, ``P_DEALER_22``; else the totals compare, a win paying the house's
    free stake too (``H_FREE``), a tie pushing or, ``P_TIES``, lost; a blackjack against the
    dealer's pushes, wins or loses by ``P_BJ_TIES``; a player's 21 wins whatever the dealer
    makes (``P_P21_WINS``), a winning 21 paid its bonus odds (:func:`bonus_21_odds`) on both
    stakes. Hands settled before are left out."""
    money = 0.0
    early = p[P_SURRENDER] == 2
    original_lost = False
    for j in range(nh):
        if hands[base + j, H_FLAGS] & FL_BUST:
            original_lost = True
    for j in range(nh):
        h = base + j
        fl = hands[h, H_FLAGS]
        if fl & FL_SETTLED:
            continue
        bet = np.float64(hands[h, H_BET])
        free = np.float64(hands[h, H_FREE])  # the house's stake: won on a win, else taken back
        if fl & FL_BUST:
            money -= bet
        elif is_natural(hands, h):
            if dbj != 1 or p[P_BJ_TIES] == 1:
                money += f[F_BJ]
            elif p[P_BJ_TIES] == 2:
                money -= 1.0
        elif fl & FL_SURRENDERED:
            money -= 1.0 if (dbj == 1 and not early) else 0.5
        elif fl & FL_RESCUED and dbj != 1:
            money -= 1.0  # the doubles' stakes come back
        elif dbj == 1:
            if p[P_OBO]:
                if not original_lost:
                    money -= 1.0
                original_lost = True
            else:
                money -= bet
        else:
            total = best_total(hands[h, H_SUM], hands[h, H_ACE])
            wins_21 = total == 21 and p[P_P21_WINS]
            if dealer == 22 and p[P_DEALER_22] and not wins_21:
                pass  # a dealer's 22 pushes every hand standing
            elif dealer > 21 or total > dealer or wins_21:
                odds = bonus_21_odds(f, hands, h) if total == 21 else 0.0
                money += (bet + free) * (odds if odds > 0 else 1.0)
            elif total < dealer or p[P_TIES]:  # P_TIES: the dealer takes a tie
                money -= bet
    return money
