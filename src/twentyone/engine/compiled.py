"""One compiled form of :class:`~twentyone.engine.rules.Rules` for the fast paths, and the rules'
predicates compiled for them.

:func:`encode_rules` turns the rules into an ``int64`` vector (indices ``P_*``) and a
``float64`` vector (``F_*``). The simulator's kernel reads them as they are; the exact
analysis builds its :class:`~twentyone.analysis.context.Context` from them. The predicates of
:mod:`twentyone.engine.predicates` (what the engine calls) are compiled here by numba from the same
functions (``*_jit``), for the kernels.

>>> from twentyone import load_rules
>>> p, f = encode_rules(load_rules("6D H17 LS"))
>>> int(p[P_DECKS]), int(p[P_H17]), int(p[P_SURRENDER]), float(f[F_BJ])
(6, 2, 1, 1.5)
>>> bool(dealer_draws_jit(17, True, 2, 2)), bool(total_may_double_jit(11, False, 2))
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from twentyone.engine.jit import njit
from twentyone.engine.predicates import (
    DOUBLE_ON,
    SURRENDER,
    cards_pair,
    dealer_draws,
    double_is_free,
    may_stand,
    split_is_free,
    total_may_double,
)
from twentyone.engine.rules import Rules

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

# the int64 parameter vector
P_DECKS = 0  # decks in the shoe
P_CONTINUOUS = 1  # 1: a full shoe every round; 0: a cut card
P_CUT = 2  # cards dealt before the cut card is out: int(shoe size * penetration)
P_H17 = 3  # the fewest cards with which the dealer hits a soft 17 (0: never; 2: H17)
P_HOLE = 4  # the dealer takes a hole card in the initial deal
P_PEEK = 5  # the dealer peeks under an ace or a ten
P_OBO = 6  # without a peek a dealer blackjack takes only the original bets
P_SURRENDER = 7  # 0 none, 1 late, 2 early
P_SURR_VS_ACE = 8  # surrender allowed against an ace
P_SURR_BEFORE = 9  # surrender decided box by box before play (ro.11)
P_DOUBLE_ON = 10  # 0 any two cards, 1 hard 9-11, 2 hard 10-11
P_DAS = 11  # double after split
P_SPLIT_RANK = 12  # 1: split only same rank; 0: same value
P_MAX_HANDS = 13  # hands from one box (1: no split; MAX_HANDS: "unlimited")
P_ONE_BOX_SPLIT = 14  # split only when the player has one box (pl.7)
P_RSA = 15  # resplit aces
P_HSA = 16  # hit split aces
P_AT_ONCE = 17  # split hands get their second cards at once (pl.7)
P_MIN_STAND = 18  # lowest total the player may stand on
P_BONUS = 19  # 1 when the 6-7-8 suited / 7-7-7 bonus is paid
P_BOX_BY_BOX = 20  # deal order: 1 box by box (hu.4), 0 round robin
P_DEALER_22 = 21  # 1: a dealer's final 22 pushes every hand standing; 0: it busts
P_FREE_DOUBLES = 22  # bit t: the house stakes the double of a hard two-card t (Free Bet)
P_FREE_SPLITS = 23  # bit v: the house stakes the split of a pair of value v (1 ace, 10 ten)
P_TIES = 24  # 1: the dealer takes a tie of totals (Double Exposure); 0: it pushes
P_BJ_TIES = 25  # a blackjack against a dealer blackjack: 0 push, 1 the player's, 2 the dealer's
P_SPANISH = 26  # 1: Spanish decks (48 cards, no ten-spots); 0: standard decks
P_P21_WINS = 27  # 1: a player's 21 (not a blackjack) wins whatever the dealer makes
P_HOLE_UP = 28  # 1: the hole card is dealt face up (Double Exposure)
P_SWITCH = 29  # 1: Blackjack Switch: each pair of boxes may swap its hands' second cards
P_DOUBLE_AFTER_HIT = 30  # 1: a hand may double on any number of cards (Spanish 21)
P_REDOUBLES = 31  # how many more times a doubled hand may double (0-3)
P_RESCUE = 32  # 1: a doubled hand may be surrendered, losing its original bet (rescue)
P_SIZE = 33  # length of the vector

# the float64 parameter vector
F_BJ = 0  # blackjack pays (3:2 = 1.5)
F_BONUS = 1  # 6-7-8 / 7-7-7 bonus, times the box's bet
F_B21_MIXED = 2  # a three-card 21 of 6-7-8 or 7-7-7 of mixed suits: its odds (0: none)
F_B21_SUITED = 3  # ... of one suit
F_B21_SPADES = 4  # ... of spades
F_B21_CARDS = 5  # F_B21_CARDS + n: the odds of a 21 of n cards, n 0..21 (0: none)
F_SIZE = F_B21_CARDS + 22

#: The bound on hands from one box that stands for "unlimited" (ro.16, hu.8): every ten-value
#: card of 8 decks, which no shoe reaches (a box cannot make more hands than its pair's cards).
MAX_HANDS = 128

SURRENDER_NAMES = tuple(SURRENDER)
#: ``Rules.blackjack_ties`` as the integer the fast paths carry.
BLACKJACK_TIES = {"push": 0, "player": 1, "dealer": 2}


def encode_rules(rules: Rules) -> tuple[IntArray, FloatArray]:
    """The fast paths' parameter vectors for ``rules`` (a hand limit above
    :data:`MAX_HANDS` is read as unlimited). Insurance, even money and priced side bets are
    never taken by a kernel, so they are not encoded (the analysis prices them apart)."""
    p = np.zeros(P_SIZE, dtype=np.int64)
    p[P_DECKS] = rules.decks
    p[P_CONTINUOUS] = rules.shuffle == "continuous"
    p[P_CUT] = int(rules.shoe_size * rules.penetration)
    p[P_H17] = rules.soft_17_hit_from
    p[P_HOLE] = rules.hole_card
    p[P_PEEK] = rules.peek
    p[P_OBO] = rules.dealer_blackjack_takes == "original"
    p[P_SURRENDER] = SURRENDER[rules.surrender]
    p[P_SURR_VS_ACE] = rules.surrender_against_ace
    p[P_SURR_BEFORE] = rules.surrender_before_play
    p[P_DOUBLE_ON] = DOUBLE_ON[rules.double_on]
    p[P_DAS] = rules.double_after_split
    p[P_SPLIT_RANK] = rules.split_by == "rank"
    limit = rules.hand_limit
    p[P_MAX_HANDS] = MAX_HANDS if limit is None else min(limit, MAX_HANDS)
    p[P_ONE_BOX_SPLIT] = rules.split_only_one_box
    p[P_RSA] = rules.resplit_aces
    p[P_HSA] = rules.hit_split_aces
    p[P_AT_ONCE] = rules.split_second_card == "at-once"
    p[P_MIN_STAND] = rules.min_stand_total
    p[P_BONUS] = rules.bonus_678_777 > 0
    p[P_BOX_BY_BOX] = rules.deal_order == "box-by-box"
    p[P_DEALER_22] = rules.dealer_22 == "push"
    p[P_FREE_DOUBLES] = rules.free_doubles_mask
    p[P_FREE_SPLITS] = rules.free_splits_mask
    p[P_TIES] = rules.ties == "dealer"
    p[P_BJ_TIES] = BLACKJACK_TIES[rules.blackjack_ties]
    p[P_SPANISH] = rules.deck == "spanish"
    p[P_HOLE_UP] = rules.hole_card_up
    p[P_SWITCH] = rules.switch
    p[P_DOUBLE_AFTER_HIT] = rules.double_after_hit
    p[P_REDOUBLES] = rules.redoubles
    p[P_RESCUE] = rules.rescue
    f = np.zeros(F_SIZE, dtype=np.float64)
    f[F_BJ] = float(rules.blackjack_pays)
    f[F_BONUS] = float(rules.bonus_678_777)
    p[P_P21_WINS] = rules.player_21_wins
    for line, odds in rules.bonus_21_678_777:
        f[{"mixed": F_B21_MIXED, "suited": F_B21_SUITED, "spades": F_B21_SPADES}[line]] = odds
    for least, odds in rules.bonus_21_cards:  # fewest first: "that many or more"
        f[F_B21_CARDS + least : F_B21_CARDS + 22] = float(odds)
    return p, f


# the predicates, compiled from the engine's own functions (kernels pass numpy integers)
dealer_draws_jit: Callable[..., bool] = njit(cache=True)(dealer_draws)
total_may_double_jit: Callable[..., bool] = njit(cache=True)(total_may_double)
may_stand_jit: Callable[..., bool] = njit(cache=True)(may_stand)
cards_pair_jit: Callable[..., bool] = njit(cache=True)(cards_pair)
double_is_free_jit: Callable[..., bool] = njit(cache=True)(double_is_free)
split_is_free_jit: Callable[..., bool] = njit(cache=True)(split_is_free)
