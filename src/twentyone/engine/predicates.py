"""The rules' predicates, written once: which totals may double, when a hand may stand, when the
dealer draws. Plain functions on integers, so the engine calls them as they are and the fast
paths (the exact analysis, the simulator) call the same functions compiled by numba
(:mod:`twentyone.engine.compiled`): the two cannot drift apart.

>>> dealer_draws(16, False, 2, 0), dealer_draws(17, True, 2, 0), dealer_draws(17, True, 2, 2)
(True, False, True)
>>> dealer_draws(17, True, 2, 3), dealer_draws(17, True, 3, 3)  # soft 17 with 3 cards or more
(False, True)
>>> total_may_double(9, False, DOUBLE_ON["9-11"]), total_may_double(9, False, DOUBLE_ON["10-11"])
(True, False)
>>> cards_pair(False, True, by_rank=False), cards_pair(False, True, by_rank=True)
(True, False)
>>> double_is_free(10, False, 1 << 10), double_is_free(10, True, 1 << 10), split_is_free(8, 1 << 8)
(True, False, True)
"""

from __future__ import annotations

#: ``Rules.double_on`` as the integer the fast paths carry (ro.15, pt.9).
DOUBLE_ON = {"any": 0, "9-11": 1, "10-11": 2}
#: ``Rules.surrender`` as an integer.
SURRENDER = {"none": 0, "late": 1, "early": 2}


def dealer_draws(total: int, soft: bool, cards: int, hit_soft_17_from: int) -> bool:
    """The dealer's drawing rule (ro.6, pt.7, hu.6, ru.11): below 17, and on a soft 17 of
    ``cards`` cards where the dealer hits one of that many (``hit_soft_17_from``:
    :attr:`Rules.soft_17_hit_from <twentyone.engine.rules.Rules.soft_17_hit_from>`, the fewest
    cards with which the dealer hits a soft 17; 0: never)."""
    return total < 17 or (
        total == 17 and soft and hit_soft_17_from != 0 and cards >= hit_soft_17_from
    )


def total_may_double(total: int, soft: bool, double_on: int) -> bool:
    """Whether a two-card total may be doubled under ``double_on`` (:data:`DOUBLE_ON`: any two
    cards, or hard 9-11 / 10-11 only); never on 21."""
    if total >= 21:
        return False
    if double_on == 0:
        return True
    if soft:
        return False
    if double_on == 1:
        return 9 <= total <= 11
    return 10 <= total <= 11


def cards_pair(same_rank: bool, same_value: bool, by_rank: bool) -> bool:
    """Whether two cards are a pair that may split: the same rank where the rules split by
    rank (ro.16), else the same value (a king and a queen are a pair)."""
    return same_rank if by_rank else same_value


def may_stand(total: int, min_stand: int) -> bool:
    """Whether a hand may stand: at ``min_stand`` or more (``Rules.min_stand_total``), and
    always on 21."""
    return total >= min_stand or total == 21


def double_is_free(total: int, soft: bool, free_doubles: int) -> bool:
    """Whether the house stakes the double of a two-card hand (Free Bet): a hard ``total``
    whose bit is set in ``free_doubles`` (:attr:`Rules.free_doubles_mask
    <twentyone.engine.rules.Rules.free_doubles_mask>`)."""
    return not soft and (free_doubles >> total) & 1 == 1


def split_is_free(value: int, free_splits: int) -> bool:
    """Whether the house stakes the split of a pair of card ``value`` (1 for aces, 10 for
    ten-values) whose bit is set in ``free_splits`` (:attr:`Rules.free_splits_mask
    <twentyone.engine.rules.Rules.free_splits_mask>`)."""
    return (free_splits >> value) & 1 == 1
