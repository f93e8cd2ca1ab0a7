"""The rule card: a table's rules in plain words, as a casino posts them beside the table.

Every sentence is generated from the fields of a :class:`~twentyone.rules.Rules`, so any rule
set (a preset, a house's own TOML file, shorthand) gets its card; nothing is written per preset.

>>> from twentyone.rulesets import load_rules
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

from twentyone.rules import Rules

WIDTH = 78


def money(units: int) -> str:
    """Minor units as money with two decimals and thousands separators.

    >>> money(100), money(500_000), money(50), money(123_456_789)
    ('1.00', '5,000.00', '0.50', '1,234,567.89')
    """
    return f"{units // 100:,}.{units % 100:02d}"


def ratio(value: Fraction) -> str:
    """A payout ratio in words: ``3 to 2``; a whole number pays ``to 1``.

    >>> ratio(Fraction(3, 2)), ratio(Fraction(2500)), ratio(Fraction(6, 5))
    ('3 to 2', '2,500 to 1', '6 to 5')
    """
    return f"{value.numerator:,} to {value.denominator:,}"


def _times(value: Fraction) -> str:
    """``3 times``; ``5/2 times`` where the multiple is not whole."""
    if value.denominator == 1:
        return f"{value.numerator} times"
    return f"{value.numerator}/{value.denominator} times"


def _plural(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def _upcards(upcards: tuple[str, ...]) -> str:
    names = {"A": "an ace", "T": "a ten-value card"}
    return " or ".join(names[u] for u in ("A", "T") if u in upcards)


# ---------------------------------------------------------------------------- sections
def _game(r: Rules) -> list[str]:
    decks = _plural(r.decks, "deck")
    if r.shuffle == "continuous":
        shoe = (
            f"{decks} of 52 cards in a continuous shuffling machine: the cards of every round "
            "go back into the machine, so each round is dealt from a full shoe."
        )
    else:
        p = r.penetration
        shoe = (
            f"{decks} of 52 cards dealt from a shoe, with a cut card at "
            f"{p.numerator}/{p.denominator} of the shoe: when it comes out, the round is "
            "finished and the cards are shuffled before the next round."
        )
    boxes = f"The table has {_plural(r.table_boxes, 'box', 'boxes')}; "
    if r.boxes_per_player == 1:
        boxes += "a player may bet on one box only."
    elif r.boxes_per_player == r.table_boxes:
        boxes += "a player may bet on one box or on several, up to all of them."
    else:
        boxes += f"a player may bet on up to {r.boxes_per_player} boxes."
    if r.deal_order == "box-by-box":
        deal = "Each box with a bet is dealt its two cards, face up, in turn; then the dealer "
        deal += "takes one card."
    else:
        deal = (
            "Cards are dealt face up, one to each box in turn from the dealer's left, then one "
            "to the dealer, then a second card to each box"
        )
        deal += ", then the dealer's second card face down." if r.hole_card else "."
    return [
        shoe,
        f"Limits: {money(r.table_min)} - {money(r.table_max)} per box.",
        boxes,
        deal,
    ]


def _dealer(r: Rules) -> list[str]:
    if r.dealer_hits_soft_17:
        draw = "The dealer draws to 16 and hits soft 17; stands on hard 17 and on 18 or more."
    else:
        draw = "The dealer draws to 16 and stands on all 17s, soft 17 included."
    if r.dealer_blackjack_takes == "all":
        takes = "a dealer blackjack takes all bets, doubled and split bets included"
    else:
        takes = (
            "a dealer blackjack takes the original bets only; money added to double or split "
            "is returned"
        )
    if not r.hole_card:
        hole = "The dealer's second card is dealt after the players have played; " + takes + "."
    elif r.peek:
        hole = (
            "When the dealer's first card is an ace or a ten-value card, the dealer checks the "
            "face-down card for blackjack before play starts (after insurance). With blackjack "
            "the card is shown and the round ends at once."
        )
    else:
        hole = (
            "The dealer does not look at the face-down card until the players have played; "
            + takes
            + "."
        )
    return [draw, hole, "When no bet is left to play for, the dealer draws no further cards."]


def _blackjack(r: Rules) -> list[str]:
    lines = [
        f"Blackjack pays {ratio(r.blackjack_pays)}: an ace and a ten-value card as a box's first "
        "two cards, beating any other 21."
    ]
    if not r.blackjack_paid_at_once:
        lines.append("Blackjacks are paid when the round is settled.")
    elif r.peek:
        lines.append(
            "A blackjack is paid at once when the dealer's first card is 2 to 9, or as soon as "
            "the dealer has checked for blackjack under an ace or a ten-value card."
        )
    else:
        lines.append(
            "A blackjack is paid at once when the dealer's first card is 2 to 9; facing an ace or "
            "a ten-value card it waits for the dealer's hand."
        )
    lines.append("A blackjack against a dealer blackjack is a stand-off.")
    return lines


def _insurance(r: Rules) -> list[str]:
    lines = []
    if not r.insurance_upcards:
        lines.append("No insurance.")
    else:
        if r.insurance_stake == "half":
            stake = "it costs exactly half the box's bet"
        elif r.insurance_minimum > 1:
            stake = (
                f"it may be any amount from {money(r.insurance_minimum)} up to half the box's bet"
            )
        else:
            stake = "it may be any amount up to half the box's bet"
        lines.append(
            f"Insurance is offered on each box when the dealer's first card is "
            f"{_upcards(r.insurance_upcards)}, before play starts; {stake}. Insurance pays 2 to 1 "
            "if the dealer has blackjack; otherwise it is lost."
        )
    if r.even_money:
        lines.append(
            "Even money: a box with blackjack facing a dealer ace may take 1 to 1 at once, "
            "instead of insurance."
        )
    elif "A" in r.insurance_upcards:
        lines.append("No even money: a blackjack facing an ace may be insured like any other box.")
    else:
        lines.append("No even money.")
    return lines


def _surrender(r: Rules) -> list[str]:
    if r.surrender == "none":
        return ["No surrender."]
    if r.surrender == "early":
        what = (
            "Early surrender: a box may give up its first two cards and take back half its bet; "
            "the half is kept even if the dealer then has blackjack."
        )
    elif r.peek:
        what = (
            "Late surrender: once the dealer has checked for blackjack, a box may give up its "
            "first two cards and take back half its bet."
        )
    else:
        what = (
            "Late surrender: a box may give up its first two cards and take back half its bet; "
            "against a dealer blackjack the whole bet is lost."
        )
    lines = [what]
    if not r.surrender_against_ace:
        lines.append("Surrender is not offered when the dealer's first card is an ace.")
    if r.surrender_before_play:
        lines.append(
            "Surrender is decided box by box before play starts; once the first box plays it is "
            "no longer offered."
        )
    else:
        lines.append("Surrender must be a hand's first decision; it is not offered after a split.")
    return lines


def _doubling(r: Rules) -> list[str]:
    on = {
        "any": "on any first two cards",
        "9-11": "only when the first two cards make a hard 9, 10 or 11 (a soft total does not "
        "count)",
        "10-11": "only when the first two cards make a hard 10 or 11 (a soft total does not count)",
    }[r.double_on]
    lines = [f"A hand may double {on}, and then takes exactly one more card."]
    if r.double_for_less:
        lines.append(
            "Double for less: the added bet may be any amount up to the hand's bet, but not "
            f"less than the table minimum ({money(r.table_min)})."
        )
    else:
        lines.append("The added bet equals the hand's bet.")
    if r.max_hands > 1:
        lines.append(
            "Doubling after a split is allowed."
            if r.double_after_split
            else "No doubling after a split."
        )
    return lines


def _splitting(r: Rules) -> list[str]:
    if r.max_hands == 1:
        return ["No splitting."]
    if r.split_by == "rank":
        pair = "two first cards of the same rank (a king and a queen are not a pair)"
    else:
        pair = "two first cards of the same value (a king and a queen are a pair)"
    lines = [
        f"A box may split {pair} into two hands; the new hand takes a bet equal to the original."
    ]
    if r.max_hands == 2:
        lines.append("One split only: a box plays at most 2 hands.")
    else:
        lines.append(f"A pair may be split again, up to {r.max_hands} hands from one box.")
    if r.split_only_one_box:
        lines.append("Splitting is allowed only to a player who bets on one box in the round.")
    if r.split_second_card == "at-once":
        lines.append(
            "After a split both hands get their second card at once; then they are played one "
            "after the other."
        )
    else:
        lines.append("After a split each hand gets its second card when play reaches it.")
    aces = (
        "Split aces are played like any other hand."
        if r.hit_split_aces
        else "Split aces get one card each."
    )
    if r.max_hands > 2:
        aces += " Aces may be split again." if r.resplit_aces else " Aces may not be split again."
    lines.append(aces)
    lines.append("An ace and a ten-value card after a split count 21, not blackjack.")
    return lines


def _playing(r: Rules) -> list[str]:
    lines = [
        "Each box plays in turn from the dealer's left: hit, stand, double or split. A hand over "
        "21 loses at once; a hand of 21 takes no more cards."
    ]
    if r.min_stand_total > 0:
        lines.append(
            f"The lowest total a player may stand on is {r.min_stand_total}: below it the hand "
            "must draw or double (a doubled hand still takes just its one card)."
        )
    lines.append(
        "A hand closer to 21 than the dealer's wins 1 to 1; if the dealer goes over 21 every "
        "hand still standing wins; equal totals are a stand-off."
    )
    return lines


def _bonuses(r: Rules) -> list[str]:
    lines = []
    if r.bonus_678_777:
        lines.append(
            "Bonus: 6-7-8 of one suit, or 7-7-7 of any suits, as a hand's first three cards "
            f"(split hands included) pays {_times(r.bonus_678_777)} the box's bet at once; the "
            "bonus is kept whatever the hand then does."
        )
    if r.jackpot_paytable:
        pays = "; ".join(
            f"first {n} cards aces, {ratio(p)}"
            for n, p in sorted(r.jackpot_paytable, key=lambda x: x[0])
        )
        lines.append(
            "Aces jackpot: an optional side bet beside a main bet, paid when the box's first "
            f"cards are aces: {pays}. It is paid whatever the main hand does."
        )
    return lines


def rule_card(rules: Rules) -> str:
    """The rule card of ``rules`` as plain text: a title, then sections of short sentences.

    >>> from twentyone.rules import Rules
    >>> card = rule_card(Rules(name="home game", decks=1, dealer_hits_soft_17=True,
    ...                        surrender="late", max_hands=1, table_min=500))
    >>> words = " ".join(card.split())
    >>> "1 deck of 52 cards" in words, "hits soft 17" in words, "No splitting." in words
    (True, True, True)
    >>> "Late surrender: once the dealer has checked for blackjack" in words
    True
    >>> print(card.split("Limits")[1].splitlines()[0])
    : 5.00 - 5,000.00 per box.
    """
    sections = [
        ("The game", _game(rules)),
        ("The dealer", _dealer(rules)),
        ("Blackjack", _blackjack(rules)),
        ("Insurance and even money", _insurance(rules)),
        ("Surrender", _surrender(rules)),
        ("Doubling", _doubling(rules)),
        ("Splitting", _splitting(rules)),
        ("Playing a hand", _playing(rules)),
        ("Bonuses", _bonuses(rules)),
    ]
    out = [rules.name, "=" * len(rules.name)]
    for title, lines in sections:
        if not lines:
            continue
        out.append("")
        out.append(title)
        for line in lines:
            out.append(textwrap.fill(line, WIDTH, initial_indent="  - ", subsequent_indent="    "))
    return "\n".join(out)
