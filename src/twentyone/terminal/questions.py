"""The terminal game's questions: each question of a round asked of the player (a pair's
switch, insurance and even money, a box group's one insurance answer, the surrender, a hand's
play with its keys, amounts and hints), or its safe default once input has ended. A mixin of
:class:`~twentyone.terminal.game.Game` (and so of the shared table's game).
"""

from __future__ import annotations

from rich.text import Text

from twentyone.analysis.hints import Advisor
from twentyone.engine.hands import Box, Hand
from twentyone.engine.records import Question
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.terminal.input import EndOfInput
from twentyone.terminal.seat import PlayerSeat
from twentyone.terminal.show import TableView
from twentyone.terminal.text import (
    ACTION_KEYS,
    _,
    action_name,
    cards_text,
    even_money_hint,
    hint_text,
    insurance_hint,
    latin_key,
    money,
    percent,
    total_text,
)


class GameQuestions(TableView):
    """What :class:`~twentyone.terminal.game.Game` asks; its state is the game's."""

    table: PlayerSeat
    rules: Rules
    advisor: Advisor | None
    ended: bool
    insurance_answers: dict[str, bool]  # this round's, by player

    def seat(self, box: int) -> int:
        """The box number (from 1) a player sees for the round's box index."""
        return self.table.seat(box)

    def label(self, rnd: Round, box: int, hand: int) -> str:
        n = len(rnd.boxes[box].hands)
        if n == 1:
            return _("Box {seat}", seat=self.seat(box))
        return _("Box {seat} hand {i} of {n}", seat=self.seat(box), i=hand + 1, n=n)

    def decide(self, rnd: Round, q: Question) -> str:
        """Ask the player (or, once input has ended, take the safe default) for ``q``."""
        if not self.ended:
            answered = self.insurance_answered(rnd, q)
            if answered is not None:
                return answered
            try:
                if self.advisor is not None and q.kind in ("insurance", "even-money"):
                    self.say(self.insurance_hint(rnd, q), style="dim")
                if self.advisor is None or q.kind not in ("play", "surrender"):
                    return self.ask(rnd, q)
                self.say(hint_text(self.advisor.move(rnd), self.advisor.returns(rnd)), style="dim")
                choice = self.ask(rnd, q)
                self.tell_cost(rnd, choice)
                return choice
            except EndOfInput:
                self.ended = True
        if q.kind == "play":
            choice = "stand" if "stand" in q.actions else "hit"
        elif q.kind == "switch":
            choice = "keep"
        else:
            choice = next(a for a in q.actions if a.startswith("no-"))
        shown = action_name(choice) if choice in ("stand", "hit", "keep") else _("no")
        self.say(f"  ({self.label(rnd, q.box, q.hand)}: {shown})")
        return choice

    def insurance_answered(self, rnd: Round, q: Question) -> str | None:
        """The decision for a box whose player has answered the insurance question for all
        their boxes (see :meth:`ask_insurance`); None when the player is still to be asked.
        Each box is still its own decision (the replay log's shape): insured for its own
        half bet, or for an amount asked box by box where the table takes any amount."""
        if q.kind != "insurance":
            return None
        box = rnd.boxes[q.box]
        yes = self.insurance_answers.get(box.player)
        if yes is None:
            return None
        if not yes:
            return "no-insurance"
        try:
            return self.insurance_stake(rnd, q, box, several=True)
        except EndOfInput:
            self.ended = True
            return "no-insurance"

    def insurance_group(self, rnd: Round, box: Box) -> list[Box]:
        """The boxes of ``box``'s player the insurance question covers: ``box`` and those
        still waiting for theirs (a blackjack is asked even money on its own)."""
        later = [
            b
            for b in rnd.boxes
            if b.player == box.player and b.pending == "insurance" and b.index != box.index
        ]
        return [box, *later]

    def boxes_label(self, rnd: Round, boxes: list[Box]) -> str:
        """Several boxes in one question (``Box 1, Box 2``)."""
        return ", ".join(_("Box {seat}", seat=self.seat(b.index)) for b in boxes)

    def insurance_hint(self, rnd: Round, q: Question) -> str:
        """The hint before an insurance or even-money question, from the cards left."""
        assert self.advisor is not None
        chance = self.advisor.blackjack_chance(rnd)
        if q.kind == "even-money":
            return even_money_hint(self.advisor.blackjack_return(rnd), chance)
        return insurance_hint(self.advisor.insurance_return(rnd), chance)

    def tell_cost(self, rnd: Round, choice: str) -> None:
        """After a choice that leaves the chart, say what it costs (``--hints``)."""
        assert self.advisor is not None and rnd.question is not None
        cost = self.advisor.cost(rnd, choice)
        if cost is not None and cost > 1e-9:
            bet = rnd.boxes[rnd.question.box].hands[rnd.question.hand].bet
            self.say(
                "  "
                + _(
                    "The chart says {move}: {choice} costs {cost} of the bet (about "
                    "{amount}) on average.",
                    move=action_name(self.advisor.move(rnd)),
                    choice=action_name(choice),
                    cost=percent(cost),
                    amount=money(round(cost * bet)),
                ),
                style="yellow",
            )

    def ask(self, rnd: Round, q: Question) -> str:
        box = rnd.boxes[q.box]
        hand = box.hands[q.hand]
        up = Text.assemble(" " + _("against") + " ", cards_text(rnd.dealer_visible[:1]))
        if q.kind == "even-money":
            yes = self.ask_yes_no(
                Text.assemble(
                    _("{box} has blackjack", box=self.label(rnd, q.box, 0)),
                    up,
                    _(": take even money ({amount} now)?", amount=money(2 * box.bet)),
                )
            )
            if yes:
                return "even-money"
            if any(a.startswith("insure") for a in q.actions):  # ro.9, pt.10, hu.9
                return self.ask_insurance(rnd, q, box, up, declined="no-even-money")
            return "no-even-money"
        if q.kind == "insurance":
            return self.ask_insurance(rnd, q, box, up)
        if q.kind == "switch":
            return self.ask_switch(rnd, q, up)
        if q.kind == "surrender":
            yes = self.ask_yes_no(
                Text.assemble(
                    f"{self.label(rnd, q.box, 0)}",
                    up,
                    _(": surrender and get {amount} back?", amount=money(box.bet // 2)),
                )
            )
            return "surrender" if yes else "no-surrender"
        return self.ask_play(rnd, q, box, hand)

    def ask_switch(self, rnd: Round, q: Question, up: Text) -> str:
        """A switch pair's question (``Rules.switch``): switch the two hands' second cards, or
        keep them; the prompt shows both hands as they would be after the switch."""
        assert q.partner is not None
        a, b = rnd.boxes[q.box].hands[0].cards, rnd.boxes[q.partner].hands[0].cards
        yes = self.ask_yes_no(
            Text.assemble(
                _("Switch.") + " ",
                self.boxes_label(rnd, [rnd.boxes[q.box], rnd.boxes[q.partner]]),
                up,
                _(": switch the second cards, to make "),
                cards_text([a[0], b[1]]),
                _(" and "),
                cards_text([b[0], a[1]]),
                "?",
            )
        )
        return "switch" if yes else "keep"

    def ask_insurance(
        self, rnd: Round, q: Question, box: Box, up: Text, declined: str = "no-insurance"
    ) -> str:
        """One insurance question for all the player's boxes offered it (the answer is kept
        for the others: :meth:`insurance_answered`); a blackjack that declined even money is
        asked on its own (``declined="no-even-money"``)."""
        alone = declined != "no-insurance"
        group = [box] if alone else self.insurance_group(rnd, box)
        name = self.label(rnd, q.box, 0) if len(group) == 1 else self.boxes_label(rnd, group)
        if q.amount_range is None:
            stakes = " + ".join(money(b.bet // 2) for b in group)
            offer = _(": insure for {amount} (pays 2:1 on a dealer blackjack)?", amount=stakes)
        else:
            tops = [q.amount_range[1], *(b.bet // 2 for b in group[1:])]
            offer = _(
                ": insure for up to {amount} (pays 2:1 on a dealer blackjack)?",
                amount=" + ".join(money(top) for top in tops),
            )
        yes = self.ask_yes_no(Text.assemble(_("Insurance.") + " ", name, up, offer))
        if not alone:
            self.insurance_answers[box.player] = yes
        if not yes:
            return declined
        return self.insurance_stake(rnd, q, box, several=len(group) > 1)

    def insurance_stake(self, rnd: Round, q: Question, box: Box, several: bool) -> str:
        """A box's insurance once the player said yes: half its bet, or the amount asked for
        this box where the table takes any (its label in the prompt when ``several``)."""
        if q.amount_range is None:
            return "insure"
        lo, hi = q.amount_range
        what = _("Insurance amount")
        if several:
            what = f"{self.label(rnd, q.box, 0)}: {what}"
        amount = self.ask_amount("  " + what, lo, hi, hi, lambda a: rnd.verify(f"insure:{a}"))
        half = box.bet // 2
        return "insure" if amount == half and "insure" in q.actions else f"insure:{amount}"

    def ask_play(self, rnd: Round, q: Question, box: Box, hand: Hand) -> str:
        names = [a.split(":")[0] for a in q.actions]
        offered = list(dict.fromkeys(n for n in names if n in ACTION_KEYS))
        keys = {ACTION_KEYS[n]: n for n in offered}
        menu = " · ".join(f"{ACTION_KEYS[n]} {action_name(n)}" for n in offered)
        prompt = Text.assemble(
            ("▶ " + self.label(rnd, q.box, q.hand), "bold cyan"),
            ": ",
            cards_text(hand.cards),
            f" ({total_text(hand.cards)}) " + _("vs") + " ",
            cards_text(rnd.dealer_visible[:1]),
            f" — {menu} ›",
        )
        while True:
            line = latin_key(self.read_key(prompt).lower())
            name = keys.get(line) or (line if line in offered else None)
            if name is None:
                choices = ", ".join(f"{ACTION_KEYS[n]} ({action_name(n)})" for n in offered)
                known = {v: k for k, v in ACTION_KEYS.items()}
                if line in ("q", "quit"):
                    self.refuse(
                        _(
                            "'q': finish the round first ({choices}); q quits at the next bet",
                            choices=choices,
                        )
                    )
                elif line in known:
                    self.refuse(
                        _(
                            "{line!r} ({action}) is not allowed for this hand: {choices}",
                            line=line,
                            action=action_name(known[line]),
                            choices=choices,
                        )
                    )
                else:
                    self.refuse(
                        _(
                            "{line!r} is not one of the choices: {choices}",
                            line=line,
                            choices=choices,
                        )
                    )
                continue
            if name != "double" or q.amount_range is None:
                return name
            lo, hi = q.amount_range
            amount = self.ask_amount(
                "  " + _("Double for"), lo, hi, hi, lambda a: rnd.verify(f"double:{a}")
            )
            return "double" if amount == hand.bet and "double" in q.actions else f"double:{amount}"
