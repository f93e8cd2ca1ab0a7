"""The rule card's sections on the table and the dealer: the game (shoe, limits...), the
dealer's play, blackjack, insurance and even money, surrender
(:func:`twentyone.rulecard.rule_card_sections` puts them in order)."""

from __future__ import annotations

from twentyone.engine.rules import Rules
from twentyone.i18n import Words
from twentyone.rulecard.phrases import money, ratio, upcards


def game(r: Rules, w: Words) -> list[str]:
    """The game's sentences: the shoe and its shuffle, the deal, the boxes and the limits.

    >>> from twentyone.engine.rules import Rules
    >>> from twentyone.i18n import Words
    >>> game(Rules(decks=1), Words("en"))[0].startswith("1 deck of 52 cards")
    True
    """
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


def dealer(r: Rules, w: Words) -> list[str]:
    """The dealer's sentences: the hole card, the peek, soft 17, what a dealer blackjack takes."""
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


def blackjack(r: Rules, w: Words) -> list[str]:
    """The blackjack sentences: what a blackjack pays and when, and its ties."""
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


def insurance(r: Rules, w: Words) -> list[str]:
    """The insurance and even-money sentences (none where neither is offered)."""
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
                upcards=upcards(r.insurance_upcards, w),
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


def surrender(r: Rules, w: Words) -> list[str]:
    """The surrender sentences: which surrender and when it is asked, or none."""
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
