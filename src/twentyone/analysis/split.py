"""How many split hands a pair makes, and of which kind, approximately (used for a ten-value
pair split by rank beyond four hands, where neither Farmer's exact method of
:func:`twentyone.analysis.hands.split_value` nor :mod:`twentyone.analysis.split_moments`
reaches, and for the number of hands in the quick ``sd`` of
:mod:`twentyone.analysis.variance`).

Split hands are played by a strategy that looks only at each hand's own cards and the up card
(CDZ-: the pre-split composition-dependent strategy, or the chart), so the return of a split
is the sum of its hands' returns. A hand's return depends on how many pair cards left the shoe
(``k``, the number of hands made) and on whether its second card was drawn while a resplit was
still possible (then it is not a pair card: ``np``) or after the last allowed hand was made
(``any`` card). With one split only (two hands) the return is exactly ``2 E[X; any, 2]``
(Farmer's ``2E[X;1]``).

The weights come from drawing the hands' second cards in turn before any hand plays on
(exact for two hands; for resplits the usual approximation that the second cards of the
other hands, known only not to be pair cards, do not inform a hand's own play).

>>> w_np, w_any = split_weights(2, 2.0, 49.0)
>>> w_np, w_any
({}, 2.0)
>>> w_np, w_any = split_weights(4, 22.0, 307.0)
>>> round(sum(w_np.values()) + w_any, 6) > 2.0
True
"""

from __future__ import annotations

from twentyone.analysis.caches import memo


def split_weights(
    max_hands: int, pair_cards: float, cards: float
) -> tuple[dict[int, float], float]:
    """Expected number of split hands of each kind.

    ``pair_cards``: pair cards left in the shoe after the up card and the two pair cards,
    ``cards``: all cards left. Returns ``({k: E[hands with a non-pair second card, k hands
    made]}, E[hands drawing any second card after max_hands were made])``.
    """
    w_np, w_any = _split_weights(max_hands, pair_cards, cards)
    return dict(w_np), w_any


@memo(256)
def _split_weights(
    max_hands: int, pair_cards: float, cards: float
) -> tuple[dict[int, float], float]:
    """:func:`split_weights`, kept (a few shoes' worth: every split of an analysis asks with
    one of them, and 16 hands take about 0.2 ms of Python)."""
    w_np: dict[int, float] = {}
    if max_hands <= 2:
        return w_np, 2.0
    w_any = 0.0
    # state (pending hands, hands made) -> (probability, E[finished non-pair hands; state])
    states: dict[tuple[int, int], tuple[float, float]] = {(2, 2): (1.0, 0.0)}
    while states:
        nxt: dict[tuple[int, int], tuple[float, float]] = {}
        for (pend, k), (mass, npc) in states.items():
            drawn = (k - 2) + (k - pend)
            left = cards - drawn
            p_pair = max(pair_cards - (k - 2), 0.0) / left if left > 0 else 0.0
            # a pair card: one more hand
            if p_pair > 0:
                m2, c2 = mass * p_pair, npc * p_pair
                if k + 1 == max_hands:
                    w_np[k + 1] = w_np.get(k + 1, 0.0) + c2
                    w_any += (pend + 1) * m2
                else:
                    a, b = nxt.get((pend + 1, k + 1), (0.0, 0.0))
                    nxt[(pend + 1, k + 1)] = (a + m2, b + c2)
            # another card: a hand is finished
            q = 1.0 - p_pair
            m3, c3 = mass * q, npc * q + mass * q
            if pend - 1 == 0:
                w_np[k] = w_np.get(k, 0.0) + c3
            else:
                a, b = nxt.get((pend - 1, k), (0.0, 0.0))
                nxt[(pend - 1, k)] = (a + m3, b + c3)
        states = nxt
    return w_np, w_any
