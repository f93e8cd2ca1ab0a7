"""The rule card's sections on playing a hand: doubling, splitting, the hand's play and the
bonuses (:func:`twentyone.rulecard.rule_card_sections` puts them in order)."""

from __future__ import annotations

from twentyone.engine.rules import PAIR_VALUES, Rules
from twentyone.i18n import Words
from twentyone.rulecard.phrases import money, ratio, times


def doubling(r: Rules, w: Words) -> list[str]:
    """The doubling sentences: the totals, after a split, for less, free doubles, Spanish 21's.

    >>> from twentyone.engine.rules import Rules
    >>> from twentyone.i18n import Words
    >>> doubling(Rules(decks=6), Words("en"))[0]
    'A hand may double on any first two cards, and then takes exactly one more card.'
    """
    if r.double_on == "any":
        first = w._(
            "A hand may double on any first two cards, and then takes exactly one more card."
        )
    elif r.double_on == "9-11":
        first = w._(
            "A hand may double only when the first two cards make a hard 9, 10 or 11 (a soft "
            "total does not count), and then takes exactly one more card."
        )
    else:
        first = w._(
            "A hand may double only when the first two cards make a hard 10 or 11 (a soft total "
            "does not count), and then takes exactly one more card."
        )
    lines = [first]
    if r.double_for_less:
        lines.append(
            w._(
                "Double for less: the added bet may be any amount up to the hand's bet, but not "
                "less than the table minimum ({minimum}).",
                minimum=money(r.table_min, w),
            )
        )
    else:
        lines.append(w._("The added bet equals the hand's bet."))
    if r.free_doubles:
        lines.append(
            w._(
                "Doubling a hard {totals} is free: the house puts up the added bet. It is paid "
                "like a real bet when the hand wins and simply taken back when the hand loses "
                "or pushes.",
                totals=", ".join(str(t) for t in sorted(r.free_doubles)),
            )
        )
    lines.extend(_doubling_more(r, w))
    if r.may_split:
        lines.append(
            w._("Doubling after a split is allowed.")
            if r.double_after_split
            else w._("No doubling after a split.")
        )
    return lines


def _doubling_more(r: Rules, w: Words) -> list[str]:
    """Spanish 21's doubles: after hits, again after a double, and the rescue."""
    lines = []
    if r.double_after_hit:
        lines.append(
            w._("A hand may also double after hitting, on any number of cards, on the same totals.")
        )
    if r.redoubles == 1:
        lines.append(
            w._(
                "After its card a doubled hand may double once more (a redouble): it adds a bet "
                "equal to everything already on the hand and takes one more card."
            )
        )
    elif r.redoubles:  # 2 or 3: one plural form in every language of the catalogs
        lines.append(
            w._(
                "After each card a doubled hand may double again, up to {n} more times "
                "(redoubles): each adds a bet equal to everything already on the hand and takes "
                "one more card.",
                n=r.redoubles,
            )
        )
    if r.rescue:
        lines.append(
            w._(
                "Double-down rescue: instead of standing, a doubled hand may be given up; the "
                "original bet is lost and every added bet comes back."
            )
        )
    if r.free_doubles and (r.double_after_hit or r.redoubles):
        lines.append(w._("A double after hitting or a redouble is never free."))
    return lines


def splitting(r: Rules, w: Words) -> list[str]:
    """The splitting sentences: the pairs, resplits, split aces and free splits."""
    if not r.may_split:
        return [w._("No splitting.")]
    if r.split_by == "rank":
        first = w._(
            "A box may split two first cards of the same rank (a king and a queen are not a "
            "pair) into two hands; the new hand takes a bet equal to the original."
        )
    else:
        first = w._(
            "A box may split two first cards of the same value (a king and a queen are a pair) "
            "into two hands; the new hand takes a bet equal to the original."
        )
    lines = [first]
    if r.hand_limit is None:
        lines.append(
            w._("A pair may be split again whenever another equal card comes, with no limit.")
        )
    elif r.hand_limit == 2:
        lines.append(w._("One split only: a box plays at most 2 hands."))
    else:
        lines.append(
            w._n(
                "A pair may be split again, up to {n} hand from one box.",
                "A pair may be split again, up to {n} hands from one box.",
                r.hand_limit,
            )
        )
    if r.split_only_one_box:
        lines.append(w._("Splitting is allowed only to a player who bets on one box in the round."))
    if r.split_second_card == "at-once":
        lines.append(
            w._(
                "After a split both hands get their second card at once; then they are played "
                "one after the other."
            )
        )
    else:
        lines.append(w._("After a split each hand gets its second card when play reaches it."))
    aces = [
        w._("Split aces are played like any other hand.")
        if r.hit_split_aces
        else w._("Split aces get one card each.")
    ]
    if r.may_resplit:
        aces.append(
            w._("Aces may be split again.")
            if r.resplit_aces
            else w._("Aces may not be split again.")
        )
    lines.append(" ".join(aces))
    if r.free_splits:
        lines.append(
            w._(
                "Splitting a pair of {pairs} is free, again after a split: the house puts up the "
                "new hand's bet. It is paid like a real bet when the hand wins and simply taken "
                "back when the hand loses or pushes.",
                pairs=", ".join(sorted(r.free_splits, key=PAIR_VALUES.index)),
            )
        )
    lines.append(w._("An ace and a ten-value card after a split count 21, not blackjack."))
    return lines


def playing(r: Rules, w: Words) -> list[str]:
    """The sentences on playing a hand: hitting, standing and the switch of a pair."""
    lines = [
        w._(
            "Each box plays in turn from the dealer's left: hit, stand, double or split. A hand "
            "over 21 loses at once; a hand of 21 takes no more cards."
        )
    ]
    if r.min_stand_total > 0:
        lines.append(
            w._(
                "The lowest total a player may stand on is {total}: below it the hand must draw "
                "or double (a doubled hand still takes just its one card).",
                total=r.min_stand_total,
            )
        )
    lines.append(
        w._(
            "A hand closer to 21 than the dealer's wins 1 to 1; if the dealer goes over 21 every "
            "hand still standing wins; equal totals are a stand-off."
        )
    )
    return lines


def _bonus_21(r: Rules, w: Words) -> list[str]:
    """The 21 bonuses and a 21 that always wins (Spanish 21)."""
    lines = []
    if r.player_21_wins:
        lines.append(
            w._("A player's 21 that is not a blackjack always wins, even against a dealer's 21.")
        )
    if r.bonus_21_cards:
        most = r.bonus_21_cards[-1][0]
        pays = "; ".join(
            w._n("{n} or more card, {ratio}", "{n} or more cards, {ratio}", n, ratio=ratio(p, w))
            if n == most
            else w._n("{n} card, {ratio}", "{n} cards, {ratio}", n, ratio=ratio(p, w))
            for n, p in r.bonus_21_cards
        )
        lines.append(
            w._(
                "Bonus 21 by its number of cards, paid instead of 1 to 1 when the 21 wins (not "
                "on a doubled hand; split hands included): {pays}.",
                pays=pays,
            )
        )
    if r.bonus_21_678_777:
        order = {"mixed": 0, "suited": 1, "spades": 2}
        pays = "; ".join(
            w._("mixed suits, {ratio}", ratio=ratio(p, w))
            if line == "mixed"
            else w._("one suit, {ratio}", ratio=ratio(p, w))
            if line == "suited"
            else w._("all spades, {ratio}", ratio=ratio(p, w))
            for line, p in sorted(r.bonus_21_678_777, key=lambda x: order[x[0]])
        )
        lines.append(
            w._(
                "Bonus 21 of 6-7-8 or 7-7-7 as a hand's three cards, paid instead of 1 to 1 when "
                "the 21 wins (not on a doubled hand; split hands included): {pays}.",
                pays=pays,
            )
        )
    return lines


def bonuses(r: Rules, w: Words) -> list[str]:
    """The bonus sentences: the 21 bonuses and each side bet's paytable."""
    lines = _bonus_21(r, w)
    for bet in r.side_bets:
        if bet.kind == "678-777":
            lines.append(
                w._(
                    "Bonus: 6-7-8 of one suit, or 7-7-7 of any suits, as a hand's first three "
                    "cards (split hands included) pays {times} the box's bet at once; the bonus "
                    "is kept whatever the hand then does.",
                    times=times(max(bet.paytable.values()), w),
                )
            )
        elif bet.kind == "aces-jackpot":
            pays = "; ".join(
                w._n(
                    "first {n} card ace, {ratio}",
                    "first {n} cards aces, {ratio}",
                    n,
                    ratio=ratio(p, w),
                )
                for n, p in sorted((int(k), v) for k, v in bet.paytable.items())
            )
            lines.append(
                w._(
                    "Aces jackpot: an optional side bet beside a main bet, paid when the box's "
                    "first cards are aces: {pays}. It is paid whatever the main hand does.",
                    pays=pays,
                )
            )
        else:
            spec = bet.spec
            pays = "; ".join(
                f"{w._(spec.line_titles[line])}, {ratio(p, w)}" for line, p in bet.paytable.items()
            )
            lines.append(
                w._(
                    "{name}: an optional side bet beside a main bet, settled after the deal "
                    "whatever the main hand does: {pays}.",
                    name=w._(spec.title),
                    pays=pays,
                )
            )
    return lines
