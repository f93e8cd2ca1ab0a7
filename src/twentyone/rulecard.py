"""The rule card: a table's rules in plain words, as a casino posts them beside the table.

Every sentence is generated from the fields of a :class:`~twentyone.engine.rules.Rules`, so any rule
set (a preset, a house's own TOML file, shorthand) gets its card; nothing is written per preset.
The card speaks any of the six languages of :mod:`twentyone.i18n`: each sentence is one
translatable message with named placeholders (plural forms where a number is counted), so a new
rule set needs no new strings.

>>> from twentyone.engine.rulesets import load_rules
>>> card = rule_card(load_rules("ru-online"))
>>> print("\\n".join(card.splitlines()[:6]))
ru-online
=========
<BLANKLINE>
The game
  - 6 decks of 52 cards dealt from a shoe, with a cut card at 2/3 of the shoe:
    when it comes out, the round is finished and the cards are shuffled before
>>> words = " ".join(card.split())  # the card's sentences, line breaks undone
>>> "Blackjack pays 3 to 2" in words, "No surrender." in words
(True, True)
>>> "Insurance is offered on each box when the dealer's first card is an ace or a ten" in words
True
"""

from __future__ import annotations

import textwrap
from fractions import Fraction

from twentyone.engine.rules import PAIR_VALUES, Rules
from twentyone.i18n import Words

WIDTH = 78
_EN = Words("en")


def money(units: int, w: Words = _EN) -> str:
    """Minor units as money with two decimals and the locale's thousands separators.

    >>> money(100), money(500_000), money(50), money(123_456_789)
    ('1.00', '5,000.00', '0.50', '1,234,567.89')
    >>> money(500_000, Words("pt")), money(500_000, Words("ro"))
    ('5\xa0000,00', '5.000,00')
    """
    return w.money(units)


def ratio(value: Fraction, w: Words = _EN) -> str:
    """A payout ratio in words: ``3 to 2``; a whole number pays ``to 1``.

    >>> ratio(Fraction(3, 2)), ratio(Fraction(2500)), ratio(Fraction(6, 5))
    ('3 to 2', '2,500 to 1', '6 to 5')
    """
    return w._("{a} to {b}", a=w.number(value.numerator), b=w.number(value.denominator))


def _times(value: Fraction, w: Words) -> str:
    """``3 times``; ``5/2 times`` where the multiple is not whole."""
    if value.denominator == 1:
        return w._n("{n} time", "{n} times", value.numerator)
    return w._("{fraction} times", fraction=f"{value.numerator}/{value.denominator}")


def _upcards(upcards: tuple[str, ...], w: Words) -> str:
    if "A" in upcards and "T" in upcards:
        return w._("an ace or a ten-value card")
    return w._("an ace") if "A" in upcards else w._("a ten-value card")


# ---------------------------------------------------------------------------- sections
def _game(r: Rules, w: Words) -> list[str]:
    p = r.penetration
    if r.deck == "spanish" and r.shuffle == "continuous":
        shoe = w._n(
            "{n} Spanish deck of 48 cards (the four tens taken out, the jacks, queens and kings "
            "kept) in a continuous shuffling machine: the cards of every round go back into the "
            "machine, so each round is dealt from a full shoe.",
            "{n} Spanish decks of 48 cards (each deck's four tens taken out, the jacks, queens "
            "and kings kept) in a continuous shuffling machine: the cards of every round go back "
            "into the machine, so each round is dealt from a full shoe.",
            r.decks,
        )
    elif r.deck == "spanish":
        shoe = w._n(
            "{n} Spanish deck of 48 cards (the four tens taken out, the jacks, queens and kings "
            "kept) dealt from a shoe, with a cut card at {cut} of the shoe: when it comes out, "
            "the round is finished and the cards are shuffled before the next round.",
            "{n} Spanish decks of 48 cards (each deck's four tens taken out, the jacks, queens "
            "and kings kept) dealt from a shoe, with a cut card at {cut} of the shoe: when it "
            "comes out, the round is finished and the cards are shuffled before the next round.",
            r.decks,
            cut=f"{p.numerator}/{p.denominator}",
        )
    elif r.shuffle == "continuous":
        shoe = w._n(
            "{n} deck of 52 cards in a continuous shuffling machine: the cards of every round go "
            "back into the machine, so each round is dealt from a full shoe.",
            "{n} decks of 52 cards in a continuous shuffling machine: the cards of every round "
            "go back into the machine, so each round is dealt from a full shoe.",
            r.decks,
        )
    else:
        shoe = w._n(
            "{n} deck of 52 cards dealt from a shoe, with a cut card at {cut} of the shoe: when "
            "it comes out, the round is finished and the cards are shuffled before the next "
            "round.",
            "{n} decks of 52 cards dealt from a shoe, with a cut card at {cut} of the shoe: when "
            "it comes out, the round is finished and the cards are shuffled before the next "
            "round.",
            r.decks,
            cut=f"{p.numerator}/{p.denominator}",
        )
    table = w._n("The table has {n} box", "The table has {n} boxes", r.table_boxes)
    if r.boxes_per_player == 1:
        player = w._("a player may bet on one box only.")
    elif r.boxes_per_player == r.table_boxes:
        player = w._("a player may bet on one box or on several, up to all of them.")
    else:
        player = w._n(
            "a player may bet on up to {n} box.",
            "a player may bet on up to {n} boxes.",
            r.boxes_per_player,
        )
    if r.deal_order == "box-by-box":
        deal = w._(
            "Each box with a bet is dealt its two cards, face up, in turn; then the dealer takes "
            "one card."
        )
    elif r.hole_card_up:
        deal = w._(
            "Cards are dealt face up, one to each box in turn from the dealer's left, then one "
            "to the dealer, then a second card to each box, then the dealer's second card, face "
            "up too."
        )
    elif r.hole_card:
        deal = w._(
            "Cards are dealt face up, one to each box in turn from the dealer's left, then one "
            "to the dealer, then a second card to each box, then the dealer's second card face "
            "down."
        )
    else:
        deal = w._(
            "Cards are dealt face up, one to each box in turn from the dealer's left, then one "
            "to the dealer, then a second card to each box."
        )
    limits = w._("Limits: {lo} - {hi} per box.", lo=money(r.table_min, w), hi=money(r.table_max, w))
    lines = [shoe, limits, w._("{table}; {player}", table=table, player=player), deal]
    if r.switch:  # Blackjack Switch
        lines += [
            w._(
                "A player's boxes play in pairs with equal bets: the first with the second, the "
                "third with the fourth, and so on."
            ),
            w._(
                "After the deal, the insurance and the dealer's check for blackjack, the player "
                "may switch the second cards of a pair's two hands, once, before either hand is "
                "played; a 21 made by switching is a plain 21, not a blackjack."
            ),
        ]
    return lines


def _dealer(r: Rules, w: Words) -> list[str]:
    if r.soft_17_hit_from > 2:
        draw = w._(
            "The dealer draws to 16 and hits a soft 17 only with {n} or more cards; stands on "
            "any other 17 and on 18 or more.",
            n=r.soft_17_hit_from,
        )
    elif r.dealer_hits_soft_17:
        draw = w._("The dealer draws to 16 and hits soft 17; stands on hard 17 and on 18 or more.")
    else:
        draw = w._("The dealer draws to 16 and stands on all 17s, soft 17 included.")
    if r.dealer_blackjack_takes == "all":
        takes = w._("a dealer blackjack takes all bets, doubled and split bets included")
    else:
        takes = w._(
            "a dealer blackjack takes the original bets only; money added to double or split "
            "is returned"
        )
    if not r.hole_card:
        hole = w._(
            "The dealer's second card is dealt after the players have played; {takes}.",
            takes=takes,
        )
    elif r.hole_card_up:
        hole = w._(
            "Double exposure: the dealer's second card is dealt face up, so both of the "
            "dealer's cards are seen before anyone plays. A dealer blackjack ends the round at "
            "once."
        )
    elif r.peek:
        hole = w._(
            "When the dealer's first card is an ace or a ten-value card, the dealer checks the "
            "face-down card for blackjack before play starts (after insurance). With blackjack "
            "the card is shown and the round ends at once."
        )
    else:
        hole = w._(
            "The dealer does not look at the face-down card until the players have played; "
            "{takes}.",
            takes=takes,
        )
    last = w._("When no bet is left to play for, the dealer draws no further cards.")
    if r.ties == "dealer":
        last += " " + w._(
            "The dealer wins every tie of totals: a hand equal to the dealer's loses."
        )
    if r.dealer_22 == "push":
        twenty_two = w._(
            "A dealer's total of exactly 22 does not bust: every hand still standing pushes, a "
            "blackjack is still paid and a busted hand still loses."
        )
        return [draw, twenty_two, hole, last]
    return [draw, hole, last]


def _blackjack(r: Rules, w: Words) -> list[str]:
    lines = [
        w._(
            "Blackjack pays {ratio}: an ace and a ten-value card as a box's first two cards, "
            "beating any other 21.",
            ratio=ratio(r.blackjack_pays, w),
        )
    ]
    if not r.blackjack_paid_at_once:
        lines.append(w._("Blackjacks are paid when the round is settled."))
    elif r.peek:
        lines.append(
            w._(
                "A blackjack is paid at once when the dealer's first card is 2 to 9, or as soon "
                "as the dealer has checked for blackjack under an ace or a ten-value card."
            )
        )
    else:
        lines.append(
            w._(
                "A blackjack is paid at once when the dealer's first card is 2 to 9; facing an "
                "ace or a ten-value card it waits for the dealer's hand."
            )
        )
    if r.blackjack_ties == "player":
        lines.append(w._("A blackjack against a dealer blackjack wins, paid as a blackjack."))
    elif r.blackjack_ties == "dealer":
        lines.append(w._("A blackjack against a dealer blackjack loses."))
    else:
        lines.append(w._("A blackjack against a dealer blackjack is a stand-off."))
    return lines


def _insurance(r: Rules, w: Words) -> list[str]:
    lines = []
    if not r.insurance_upcards:
        lines.append(w._("No insurance."))
    else:
        if r.insurance_stake == "half":
            stake = w._("it costs exactly half the box's bet")
        elif r.insurance_minimum > 1:
            stake = w._(
                "it may be any amount from {minimum} up to half the box's bet",
                minimum=money(r.insurance_minimum, w),
            )
        else:
            stake = w._("it may be any amount up to half the box's bet")
        lines.append(
            w._(
                "Insurance is offered on each box when the dealer's first card is {upcards}, "
                "before play starts; {stake}. Insurance pays 2 to 1 if the dealer has "
                "blackjack; otherwise it is lost.",
                upcards=_upcards(r.insurance_upcards, w),
                stake=stake,
            )
        )
    if r.even_money and "A" in r.insurance_upcards:
        lines.append(
            w._(
                "Even money: a box with blackjack facing a dealer ace is asked once: take 1 to "
                "1 at once, insure instead, or neither."
            )
        )
    elif r.even_money:
        lines.append(
            w._(
                "Even money: a box with blackjack facing a dealer ace may take 1 to 1 at once, "
                "instead of insurance."
            )
        )
    elif "A" in r.insurance_upcards:
        lines.append(
            w._("No even money: a blackjack facing an ace may be insured like any other box.")
        )
    else:
        lines.append(w._("No even money."))
    return lines


def _surrender(r: Rules, w: Words) -> list[str]:
    if r.surrender == "none":
        return [w._("No surrender.")]
    if r.surrender == "early":
        what = w._(
            "Early surrender: a box may give up its first two cards and take back half its bet; "
            "the half is kept even if the dealer then has blackjack."
        )
    elif r.peek:
        what = w._(
            "Late surrender: once the dealer has checked for blackjack, a box may give up its "
            "first two cards and take back half its bet."
        )
    else:
        what = w._(
            "Late surrender: a box may give up its first two cards and take back half its bet; "
            "against a dealer blackjack the whole bet is lost."
        )
    lines = [what]
    if not r.surrender_against_ace:
        lines.append(w._("Surrender is not offered when the dealer's first card is an ace."))
    if r.surrender_before_play:
        lines.append(
            w._(
                "Surrender is decided box by box before play starts; once the first box plays "
                "it is no longer offered."
            )
        )
    else:
        lines.append(
            w._("Surrender must be a hand's first decision; it is not offered after a split.")
        )
    return lines


def _doubling(r: Rules, w: Words) -> list[str]:
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


def _splitting(r: Rules, w: Words) -> list[str]:
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


def _playing(r: Rules, w: Words) -> list[str]:
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


def _bonuses(r: Rules, w: Words) -> list[str]:
    lines = _bonus_21(r, w)
    for bet in r.side_bets:
        if bet.kind == "678-777":
            lines.append(
                w._(
                    "Bonus: 6-7-8 of one suit, or 7-7-7 of any suits, as a hand's first three "
                    "cards (split hands included) pays {times} the box's bet at once; the bonus "
                    "is kept whatever the hand then does.",
                    times=_times(max(bet.paytable.values()), w),
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


def rule_card_sections(rules: Rules, lang: str = "en") -> list[tuple[str, list[str]]]:
    """The rule card of ``rules`` in ``lang`` as its sections: (title, sentences), empty
    sections left out. The web page draws them as a panel; :func:`rule_card` as text.

    >>> from twentyone.engine.rules import PAIR_VALUES, Rules
    >>> [title for title, _ in rule_card_sections(Rules(decks=1))][:3]
    ['The game', 'The dealer', 'Blackjack']
    """
    w = Words(lang)
    sections = [
        (w._("The game"), _game(rules, w)),
        (w._("The dealer"), _dealer(rules, w)),
        (w._("Blackjack"), _blackjack(rules, w)),
        (w._("Insurance and even money"), _insurance(rules, w)),
        (w._p("rule card heading", "Surrender"), _surrender(rules, w)),
        (w._("Doubling"), _doubling(rules, w)),
        (w._("Splitting"), _splitting(rules, w)),
        (w._("Playing a hand"), _playing(rules, w)),
        (w._("Bonuses"), _bonuses(rules, w)),
    ]
    return [(title, lines) for title, lines in sections if lines]


def rule_card(rules: Rules, lang: str = "en") -> str:
    """The rule card of ``rules`` as plain text in ``lang`` (one of
    :data:`twentyone.i18n.LANGUAGES`): a title, then sections of short sentences.

    >>> from twentyone.engine.rules import PAIR_VALUES, Rules
    >>> card = rule_card(Rules(name="home game", decks=1, dealer_hits_soft_17=True,
    ...                        surrender="late", max_hands=1, table_min=500))
    >>> words = " ".join(card.split())
    >>> "1 deck of 52 cards" in words, "hits soft 17" in words, "No splitting." in words
    (True, True, True)
    >>> "Late surrender: once the dealer has checked for blackjack" in words
    True
    >>> print(card.split("Limits")[1].splitlines()[0])
    : 5.00 - 5,000.00 per box.
    >>> "Fără separare." in " ".join(rule_card(Rules(decks=1, max_hands=1), "ro").split())
    True
    """
    w = Words(lang)
    out = [rules.name, "=" * len(rules.name)]
    for title, lines in rule_card_sections(rules, lang):
        out.append("")
        out.append(title)
        for line in lines:
            out.append(
                textwrap.fill(
                    line,
                    WIDTH,
                    initial_indent="  - ",
                    subsequent_indent="    ",
                    break_on_hyphens=w.lang == "en",  # not "Black-/Jack", "dintr-/un"
                )
            )
    return "\n".join(out)
