"""A round's settlement as functions: the dealer's drawing rule, what a result returns
(:func:`payout`), and each box's closing (:func:`settle_box`: insurance, every open hand, the
side bets that look at the box's cards), each returning the
:class:`~twentyone.engine.records.Payment` records that :class:`~twentyone.engine.round.Round`
books. Every hand and insurance is settled exactly once, every amount from :func:`payout`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from twentyone.engine.cards import Card, hand_total
from twentyone.engine.hands import Box
from twentyone.engine.predicates import dealer_draws
from twentyone.engine.records import Payment, PaymentKind, Result
from twentyone.engine.rules import Rules
from twentyone.engine.sidebets import View, settle_side_bets

#: What a hand's result returns, as a multiple of the hand's bet (the blackjack payout is the
#: table's: see :func:`payout`).
_RETURNS: dict[str, Fraction] = {
    "even-money": Fraction(2),
    "win": Fraction(2),
    "push": Fraction(1),
    "surrender": Fraction(1, 2),
    "lose": Fraction(0),
    "bust": Fraction(0),
}


#: A player blackjack against a dealer blackjack, by ``Rules.blackjack_ties``.
_BLACKJACK_TIES: dict[str, Result] = {"push": "push", "player": "blackjack", "dealer": "lose"}


def dealer_must_draw(dealer: Sequence[Card], rules: Rules) -> bool:
    """The dealer's drawing rule (ro.6, pt.7, hu.6, ru.11) on the dealer's cards.

    >>> from twentyone.engine.cards import parse_cards
    >>> h17 = Rules(decks=1, dealer_hits_soft_17=True)
    >>> dealer_must_draw(parse_cards("TS 6H"), Rules(decks=1)), dealer_must_draw(
    ...     parse_cards("AS 6H"), Rules(decks=1))
    (True, False)
    >>> dealer_must_draw(parse_cards("AS 6H"), h17)
    True
    """
    total = hand_total(dealer)
    return dealer_draws(total.total, total.soft, len(dealer), rules.soft_17_hit_from)


def payout(rules: Rules, result: Result, bet: int, odds: Fraction | None = None) -> Fraction:
    """What a hand's ``result`` returns on ``bet`` (stake included), exactly; a ``bonus-21``
    (a 21 paid a bonus: :meth:`Rules.bonus_21 <twentyone.engine.rules.Rules.bonus_21>`)
    returns the bet and its ``odds``.

    >>> from twentyone.engine.rulesets import load_rules
    >>> ru = load_rules("ru-online")
    >>> payout(ru, "blackjack", 1000), payout(ru, "surrender", 25), payout(ru, "bust", 9)
    (Fraction(2500, 1), Fraction(25, 2), Fraction(0, 1))
    >>> payout(ru, "bonus-21", 100, Fraction(3, 2))
    Fraction(250, 1)
    """
    if result == "blackjack":
        return bet * (1 + rules.blackjack_pays)
    if result == "bonus-21":
        return bet * (1 + (odds if odds is not None else Fraction(1)))
    return bet * _RETURNS[result]


def close_hand(
    rules: Rules,
    box: Box,
    i: int,
    result: Result,
    returned: int | None = None,
    odds: Fraction | None = None,
) -> Payment:
    """Close hand ``i`` of ``box`` with its result (``returned`` defaults to :func:`payout`
    on the player's stake, ``odds`` a 21 bonus's, and the free stake's winnings on a win;
    rounded down with the rest kept as the payment's remainder); returns its payment."""
    hand = box.hands[i]
    remainder = Fraction(0)
    if returned is None:
        exact = payout(rules, result, hand.bet, odds)
        if result == "win":
            exact += hand.free  # the house's free stake wins like a real one
        elif result == "bonus-21":
            exact += hand.free * (odds if odds is not None else 1)
        returned = int(exact)
        remainder = exact - returned
    hand.result = result
    hand.settled = True
    hand.done = True
    hand.returned = returned
    hand.remainder = remainder
    kind: PaymentKind = "even-money" if result == "even-money" else "return"
    return Payment(kind, box.index, i, returned, remainder)


def close_insurance(box: Box, dealer_blackjack: bool) -> Payment:
    """Insurance pays 2:1 on a dealer blackjack (returned three times), else is lost."""
    box.insurance_settled = True
    return Payment("insurance", box.index, None, 3 * box.insurance if dealer_blackjack else 0)


def settle_box(
    rules: Rules, box: Box, dealer_total: int, dealer_blackjack: bool, dealer: Sequence[Card]
) -> list[Payment]:
    """Everything still open on ``box`` once the dealer is done (``dealer``: the dealer's
    cards): its insurance, each open hand against ``dealer_total`` (a 22 pushes them all where
    ``rules.dealer_22`` is ``push``), then the side bets that look at the box's cards or the
    dealer's."""
    out: list[Payment] = []
    if box.insurance and not box.insurance_settled:
        out.append(close_insurance(box, dealer_blackjack))
    original_lost = any(h.result == "bust" for h in box.hands)
    for i, hand in enumerate(box.hands):
        if hand.settled:
            continue
        if hand.is_blackjack:
            both: Result = _BLACKJACK_TIES[rules.blackjack_ties]
            out.append(close_hand(rules, box, i, both if dealer_blackjack else "blackjack"))
        elif hand.surrendered:
            out.append(close_hand(rules, box, i, "lose" if dealer_blackjack else "surrender"))
        elif hand.rescued and not dealer_blackjack:  # a blackjack takes it as any other hand
            out.append(close_hand(rules, box, i, "rescue", hand.doubled_by))
        elif dealer_blackjack:
            if rules.dealer_blackjack_takes == "original":
                # OBO: the box loses its original bet once; every other stake comes back.
                kept = hand.bet if original_lost else hand.bet - box.bet
                original_lost = True
                result: Result = "lose" if kept < hand.bet else "push"
                out.append(close_hand(rules, box, i, result, int(payout(rules, "push", kept))))
            else:
                out.append(close_hand(rules, box, i, "lose"))
        else:
            total = hand.total.total
            wins_21 = total == 21 and rules.player_21_wins  # whatever the dealer makes
            odds = rules.bonus_21(hand.cards, hand.doubled) if total == 21 else None
            if dealer_total == 22 and rules.dealer_22 == "push" and not wins_21:
                out.append(close_hand(rules, box, i, "push"))  # every hand standing pushes
            elif (dealer_total > 21 or total > dealer_total or wins_21) and odds is not None:
                out.append(close_hand(rules, box, i, "bonus-21", odds=odds))
            elif dealer_total > 21 or total > dealer_total or wins_21:
                out.append(close_hand(rules, box, i, "win"))
            else:
                tie: Result = "lose" if rules.ties == "dealer" else "push"
                out.append(close_hand(rules, box, i, tie if total == dealer_total else "lose"))
    views: tuple[View, ...] = ("box-cards", "dealer-final")
    out.extend(settle_side_bets(rules.side_bets, box, None, views, dealer[0], dealer))
    return out
