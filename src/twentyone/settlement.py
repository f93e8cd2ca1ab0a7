"""The end of a round: the dealer draws only what settlement still needs, then every open
hand, insurance and jackpot bet is settled exactly once.

What the dealer draws (ru.11): nothing more when no hand or insurance waits (in a hole-card
game the hole card is only shown); only the second card when just blackjacks, insurance or
late surrenders wait on a possible dealer blackjack; otherwise up to 17 (S17 or H17).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from twentyone.cards import hand_total
from twentyone.records import Reveal

if TYPE_CHECKING:
    from twentyone.hands import Box
    from twentyone.round import Round


def dealer_must_draw(total: int, soft: bool, hits_soft_17: bool) -> bool:
    """The dealer's drawing rule (ro.6, pt.7, hu.6, ru.11).

    >>> dealer_must_draw(16, False, False), dealer_must_draw(17, True, False)
    (True, False)
    >>> dealer_must_draw(17, True, True)
    True
    """
    return total < 17 or (total == 17 and soft and hits_soft_17)


def settle_round(rnd: Round) -> None:
    """Play the dealer's hand as far as needed and settle everything still open."""
    rules = rnd.rules
    open_hands = [(b, i, h) for b in rnd.boxes for i, h in enumerate(b.hands) if not h.settled]
    live = [h for _, _, h in open_hands if not h.surrendered and not h.is_blackjack]
    waits_on_blackjack = bool(open_hands) or any(
        b.insurance and not b.insurance_settled for b in rnd.boxes
    )
    if rules.hole_card:
        if not rnd.hole_revealed:
            rnd.hole_revealed = True
            rnd.log.append(Reveal(rnd.dealer[1]))
    elif len(rnd.dealer) == 1 and (live or (waits_on_blackjack and rnd.dealer_blackjack is None)):
        rnd._draw(None, 0)
    if len(rnd.dealer) >= 2:
        rnd.dealer_blackjack = hand_total(rnd.dealer[:2]).total == 21
    if live and not rnd.dealer_blackjack:
        while dealer_must_draw(*hand_total(rnd.dealer), rules.dealer_hits_soft_17):
            rnd._draw(None, 0)
    dealer_total = hand_total(rnd.dealer).total
    for box in rnd.boxes:
        _settle_box(rnd, box, dealer_total)


def _settle_box(rnd: Round, box: Box, dealer_total: int) -> None:
    dealer_bj = bool(rnd.dealer_blackjack)
    if box.insurance and not box.insurance_settled:
        box.insurance_settled = True
        rnd._pay(box, None, "insurance", 3 * box.insurance if dealer_bj else 0)
    original_lost = any(h.result == "bust" for h in box.hands)
    for i, hand in enumerate(box.hands):
        if hand.settled:
            continue
        if hand.is_blackjack:
            rnd._settle_hand(box, i, "push" if dealer_bj else "blackjack")
        elif hand.surrendered:
            rnd._settle_hand(box, i, "lose" if dealer_bj else "surrender")
        elif dealer_bj:
            if rnd.rules.dealer_blackjack_takes == "original":
                # OBO: the box loses its original bet once; every other stake comes back.
                refund = hand.bet if original_lost else hand.bet - box.bet
                original_lost = True
                rnd._settle_hand(box, i, "lose" if refund < hand.bet else "push", refund)
            else:
                rnd._settle_hand(box, i, "lose")
        else:
            total = hand.total.total
            if dealer_total > 21 or total > dealer_total:
                rnd._settle_hand(box, i, "win")
            else:
                rnd._settle_hand(box, i, "push" if total == dealer_total else "lose")
    if box.jackpot:
        aces = 0
        for card in box.cards_received:
            if not card.is_ace:
                break
            aces += 1
        pays = Fraction(0)
        for k, p in rnd.rules.jackpot_paytable:
            if aces >= k:
                pays = p
        exact = box.jackpot * (1 + pays) if pays else Fraction(0)
        rnd._pay(box, None, "jackpot", int(exact), exact - int(exact))
