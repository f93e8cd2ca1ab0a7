"""How the terminal game draws a round: the dealer's line, a line per hand with the box's label,
and what happened since the last question (cards dealt, money paid at once, the dealer's peek).

:class:`TableView` is the part of :class:`~twentyone.terminal.game.Game` (and of the shared table's
:class:`~twentyone.terminal.table.SharedGame`) that only prints; a game says how its boxes are
numbered and labelled (:meth:`TableView.seat`, :meth:`TableView.label`).
"""

from __future__ import annotations

from rich.text import Text

from twentyone.engine.hands import Box
from twentyone.engine.records import Action, Deal, Payment, Peek, Record
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.terminal.input import Prompter
from twentyone.terminal.text import _, cards_text, money, total_text


class TableView(Prompter):
    """Prints a round's table and its news (the game supplies ``rules`` and the labels)."""

    rules: Rules

    def seat(self, box: int) -> int:
        """The box number (from 1) a player sees for the round's box index."""
        raise NotImplementedError

    def label(self, rnd: Round, box: int, hand: int) -> str:
        """A box's (or a split hand's) label."""
        raise NotImplementedError

    def dealer_line(self, rnd: Round) -> Text:
        shown = rnd.dealer_visible
        hidden = 1 if self.rules.hole_card and len(shown) == 1 else 0
        bj = bool(rnd.dealer_blackjack) and len(shown) == 2
        push22 = self.rules.dealer_22 == "push"
        total = f"   {total_text(shown, blackjack=bj, push22=push22)}" if len(shown) > 1 else ""
        return Text.assemble(
            (_("Dealer").ljust(self.label_width(rnd) + 2), "bold"), cards_text(shown, hidden), total
        )

    def label_width(self, rnd: Round) -> int:
        """The width of the widest box / hand label this round (columns line up)."""
        labels = [self.label(rnd, b.index, i) for b in rnd.boxes for i in range(len(b.hands))]
        return max(10, len(_("Dealer")), *map(len, labels))

    def hand_line(self, rnd: Round, box: Box, i: int) -> Text:
        hand = box.hands[i]
        name = self.label(rnd, box.index, i)
        return Text.assemble(
            (name.ljust(self.label_width(rnd) + 2), "bold"),
            cards_text(hand.cards),
            f"   {total_text(hand.cards, blackjack=hand.is_blackjack)}",
            "   " + _("bet {amount}", amount=money(hand.bet)),
            # the house's stake from free doubles and splits (Free Bet)
            ("   " + _("free bet {amount}", amount=money(hand.free))) if hand.free else "",
            # Blackjack Switch: its second card came from the pair's other hand
            ("   " + _("switched")) if hand.switched else "",
        )

    def show_table(self, rnd: Round) -> None:
        self.say(self.dealer_line(rnd))
        for box in rnd.boxes:
            for i in range(len(box.hands)):
                self.say(self.hand_line(rnd, box, i))

    def narrate(self, rnd: Round, seen: int) -> int:
        """Tell what happened since log record ``seen``: cards dealt to hands, money paid at
        once, the dealer's peek. Returns the new position in the log."""
        new: list[Record] = rnd.log[seen:]
        changed: list[tuple[int, int]] = []
        for rec in new:
            if isinstance(rec, Deal) and rec.box is not None:
                changed.append((rec.box, rec.hand))
            elif isinstance(rec, Action) and rec.decision.name == "split":
                changed += [(rec.box, rec.hand), (rec.box, rec.hand + 1)]
            elif isinstance(rec, Action) and rec.decision.name == "switch":
                partner = rnd.partners[rec.box]  # both hands show their new second cards
                self.say("  " + _("The second cards are switched."))
                changed += [(rec.box, 0), (partner, 0)]
        changed = sorted(dict.fromkeys(changed))
        q = rnd.question
        for b, i in changed:
            box = rnd.boxes[b]
            if q is not None and q.kind == "play" and (q.box, q.hand) == (b, i):
                continue  # the question's prompt shows this hand
            if i < len(box.hands):
                self.say(self.hand_line(rnd, box, i))
        if any(isinstance(rec, Peek) and not rec.blackjack for rec in new):
            self.say("  " + _("The dealer checks the hole card: no blackjack."))
        if not rnd.is_over:
            for rec in new:
                if isinstance(rec, Payment):
                    self.tell_payment(rnd, rec)
        return len(rnd.log)

    def tell_payment(self, rnd: Round, pay: Payment) -> None:
        name = _("Box {seat}", seat=self.seat(pay.box))
        box = rnd.boxes[pay.box]
        paid = money(pay.amount)
        if pay.kind == "insurance" and box.insurance:
            lost = _("insurance {amount} lost.", amount=money(box.insurance))
            self.say(f"  {name}: {lost}")
        elif pay.kind == "side-bet" and pay.side_bet and pay.amount:
            spec = self.rules.side_bet(pay.side_bet, staked=False).spec
            line = _(spec.line_titles[pay.line], n=pay.line) if pay.line else ""
            won = _("{bet} pays {amount}!", bet=_(spec.title), amount=paid)
            self.say(Text(f"  {name}: {won} ({line})", "green"))
        elif pay.kind in ("return", "even-money") and pay.hand is not None:
            hand = box.hands[pay.hand]
            words = {
                "blackjack": _("blackjack pays {amount} now", amount=paid),
                "bonus-21": _("21 bonus: {amount} paid", amount=paid),
                "even-money": _("even money: {amount} paid now", amount=paid),
                "surrender": _("surrendered: {amount} back", amount=paid),
                "rescue": _("rescued: {amount} back", amount=paid),
                "bust": _("bust, loses {amount}", amount=money(hand.bet)),
            }
            if hand.result in words:
                name = self.label(rnd, pay.box, pay.hand)
                style = "red" if hand.result == "bust" else "green"
                self.say(Text(f"  {name}: {words[hand.result]}", style))
