"""The terminal game: ``twentyone play``.

Amounts are typed lines; an action or a yes/no answer is one key, without Enter, at a terminal
(lines with piped input, so scripts play the same: :mod:`twentyone.terminal.input`). Output goes
through ``rich``: coloured cards in a terminal, plain text when standard output is not one.
:func:`play` takes the input and output streams (and optionally a shoe) so tests drive a whole
session in-process; :func:`run_game` is what ``twentyone play`` calls.

The dealer's cards are always drawn from :attr:`Round.dealer_visible`, so the hole card stays
hidden until the dealer shows it. Only the legal actions of each question are offered; anything
else is refused with a message naming what was typed and what is expected, and asked again.
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

from rich.console import Console
from rich.text import Text

from twentyone.analysis.hints import Advisor
from twentyone.engine.bets import check_left
from twentyone.engine.errors import TwentyOneError
from twentyone.engine.records import Payment
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules
from twentyone.engine.shoe import CardSource
from twentyone.engine.sidebets import SideBet
from twentyone.terminal.input import EndOfInput
from twentyone.terminal.questions import GameQuestions
from twentyone.terminal.seat import PlayerSeat
from twentyone.terminal.text import (
    RESULT_WORDS,
    _,
    _n,
    card_text,
    cards_text,
    check_options,
    default_boxes,
    hand_paid,
    latin_key,
    money,
    parse_amount,
    reason,
    side_outcome,
    stakes_text,
    stats_lines,
    table_facts,
    total_text,
    use_language,
)


class Game(GameQuestions):
    """One terminal session over a :class:`~twentyone.terminal.seat.PlayerSeat` (a player
    alone at a :class:`~twentyone.engine.session.TableSession`)."""

    def __init__(
        self,
        table: PlayerSeat,
        stdin: TextIO,
        console: Console,
        log_path: str | None = None,
        advisor: Advisor | None = None,
        side_bets: bool = False,
    ) -> None:
        super().__init__(stdin, console)
        self.table = table
        self.rules = table.rules
        self.log_path = log_path
        self.ended = False
        self.advisor = advisor
        self.side_bets_on = side_bets
        self.insurance_answers: dict[str, bool] = {}  # this round's, by player

    # ------------------------------------------------------------------ the session
    def run(self) -> int:
        """Play rounds until the player quits, input ends or the bankroll runs out."""
        self.header()
        while True:
            if not self.table.can_play:
                self.say(
                    Text(
                        _(
                            "Your bankroll {bankroll} is below the table minimum {minimum}: the "
                            "game is over.",
                            bankroll=money(self.table.bankroll),
                            minimum=money(self.rules.table_min),
                        ),
                        style="bold red",
                    )
                )
                break
            try:
                bets = self.ask_bets()
            except EndOfInput:
                self.say(_("Interrupted.") if self.interrupted else _("End of input."))
                break
            if bets is None:
                break
            try:
                rnd = self.table.deal(*bets)
            except TwentyOneError as exc:
                self.refuse(reason(exc))
                continue
            self.play_round(rnd)
            if self.ended:
                why = _("Interrupted") if self.interrupted else _("End of input")
                self.say(_("{why}: the round was finished standing; the game stops.", why=why))
                break
        self.summary()
        return 130 if self.interrupted else 0

    def header(self) -> None:
        r, t = self.rules, self.table
        self.console.rule(Text(f"twentyone · {r.name}", style="bold"))
        parts = [_n("{n} box", "{n} boxes", t.boxes), *table_facts(r)]
        bankroll = Text(_("Bankroll {amount}", amount=money(t.bankroll)), style="bold")
        self.say(bankroll, "".join(" · " + part for part in parts))
        self.say(
            _(
                "Bets: type an amount (10 or {example}) and Enter; Enter alone takes the amount "
                "in brackets, q quits.",
                example=money(1050),
            )
        )
        self.say_side_bets()
        if self.single_keys:
            self.say(_("Actions and yes/no answers: one key, no Enter."))

    def say_side_bets(self) -> None:
        """Tell whether the table's side bets are asked, and the key that switches them."""
        titles = ", ".join(_(b.spec.title) for b in self.rules.staked_side_bets)
        if not titles:
            return
        if self.side_bets_on:
            self.say(_("Side bets ({bets}) are asked with each bet; b stops asking.", bets=titles))
        else:
            self.say(_("Side bets ({bets}) are off; b at a bet asks them.", bets=titles))

    def ask_bets(self) -> tuple[list[int], list[dict[str, int]]] | None:
        """One bet per box (and a stake for each side bet the table offers); ``None``: quit."""
        t, r = self.table, self.rules
        self.console.rule(Text(_("Round {n}", n=t.stats.rounds + 1)), style="dim")
        self.say(Text(_("Bankroll {amount}", amount=money(t.bankroll)), style="bold"))
        if t.last_bets is not None:  # "r" is offered once there is a round to repeat
            said = stakes_text(r, zip(t.last_bets, self.rebet_sides(), strict=True))
            self.say(Text("  " + _("r repeats the last round's bets ({bets})", bets=said), "dim"))
        while True:
            bets: list[int] = []
            sides: list[dict[str, int]] = []
            available = t.bankroll
            restart = False
            while len(bets) < t.boxes and not restart:
                seat = len(bets) + 1
                if not t.can_bet(available):
                    self.say(
                        "  "
                        + _(
                            "{left} left: box {seat} and after sit this round out.",
                            left=money(available),
                            seat=seat,
                        )
                    )
                    bets += [0] * (t.boxes - len(bets))
                    sides += [{} for _ in range(t.boxes - len(sides))]
                    break
                if r.switch and seat % 2 == 0:  # a switch pair's second box: the same bet
                    bet = bets[-1]
                    if bet:
                        self.say("  " + _("Box {seat} takes the same bet: the pair's.", seat=seat))
                    available -= bet
                    bets.append(bet)
                    sides.append({})
                    continue
                hi = min(r.table_max, available)
                last = t.last_bets[seat - 1] if t.last_bets else r.table_min
                entered = [b for b in bets if b]  # this round's: the next box follows them
                default = min(entered[-1] if entered else last, hi)
                skip = _(", 0 = sit out") if t.boxes > 1 else ""
                line = self.read(
                    _(
                        "Bet on box {seat} ({lo} to {hi}{skip}) [{default}] ›",
                        seat=seat,
                        lo=money(r.table_min),
                        hi=money(hi),
                        skip=skip,
                        default=money(default),
                    )
                )
                key = latin_key(line.lower())
                if key in ("q", "quit"):
                    return None
                if key in ("r", "rebet"):
                    rebet = self.rebet()
                    if rebet is not None:
                        return rebet
                    continue
                if key == "b" and r.staked_side_bets:
                    self.side_bets_on = not self.side_bets_on
                    self.say_side_bets()
                    continue
                try:
                    bet = default if not line else parse_amount(line)
                    if bet == 0 and t.boxes == 1:
                        # the prompt's own refusal: with one box, 0 is no answer (not a bet)
                        zero = money(0)
                        raise ValueError(_("{zero}: with one box the box needs a bet", zero=zero))
                    t.check_bet(bet, available, box=seat)
                    if r.switch:  # the pair's two bets together
                        check_left(seat, 2 * bet, available)
                except ValueError as exc:
                    if t.last_bets is None:
                        self.refuse(_("{problem}; q quits", problem=reason(exc)))
                    else:
                        self.refuse(_("{problem}; r rebets, q quits", problem=reason(exc)))
                    continue
                available -= bet
                side: dict[str, int] = {}
                for side_bet in r.staked_side_bets if bet and self.side_bets_on else ():
                    side[side_bet.id] = self.ask_side_bet(seat, side_bet, available)
                    available -= side[side_bet.id]
                bets.append(bet)
                sides.append(side)
            if any(bets):
                return bets, sides
            self.refuse(_("no bets: put a bet on at least one box (q quits)"))

    def rebet(self) -> tuple[list[int], list[dict[str, int]]] | None:
        t = self.table
        if t.last_bets is None or t.last_side_bets is None:
            self.refuse(_("'r': there are no bets from a previous round to repeat"))
            return None
        need = sum(t.last_bets) + sum(sum(s.values()) for s in t.last_side_bets)
        if need > t.bankroll:
            self.refuse(
                _(
                    "'r': the last bets need {need} but the bankroll is {bankroll}",
                    need=money(need),
                    bankroll=money(t.bankroll),
                )
            )
            return None
        sides = self.rebet_sides()
        said = stakes_text(self.rules, zip(t.last_bets, sides, strict=True))
        self.say("  " + _("Rebet: {bets}", bets=said))
        return list(t.last_bets), sides

    def rebet_sides(self) -> list[dict[str, int]]:
        """The side bets ``r`` places again with the last round's bets: the last round's while
        side bets are asked, none while they are off."""
        t = self.table
        last = t.last_side_bets or [{} for _ in t.last_bets or ()]
        return [dict(s) if self.side_bets_on else {} for s in last]

    def ask_side_bet(self, seat: int, side_bet: SideBet, available: int) -> int:
        t = self.table
        last = t.last_side_bets[seat - 1].get(side_bet.id, 0) if t.last_side_bets else 0
        default = min(last, available)
        while True:
            line = self.read(
                "  "
                + _(
                    "{bet} bet on box {seat} (0 for none) [{default}] ›",
                    bet=_(side_bet.spec.title),
                    seat=seat,
                    default=money(default),
                )
            )
            try:
                amount = default if not line else parse_amount(line)
                t.check_bet(amount, available, side=side_bet.id, box=seat)
            except ValueError as exc:
                self.refuse(reason(exc))
                continue
            return amount

    # ------------------------------------------------------------------ a round
    def play_round(self, rnd: Round) -> None:
        self.insurance_answers = {}
        self.show_table(rnd)
        seen = initial_records(rnd)
        while True:
            seen = self.narrate(rnd, seen)
            if rnd.question is None:
                break
            try:
                self.table.decide(self.decide(rnd, rnd.question))
            except TwentyOneError as exc:  # not expected: only legal actions are offered
                self.refuse(reason(exc))
        net = self.table.settle(rnd)
        self.show_result(rnd, net)
        if self.log_path is not None:
            record = self.table.replay_record(rnd)
            try:
                with open(self.log_path, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(record) + "\n")
            except OSError as exc:
                self.refuse(
                    _(
                        "could not write the round to {path!r}: {why}",
                        path=self.log_path,
                        why=exc.strerror,
                    )
                )

    # ------------------------------------------------------------------ results
    def show_result(self, rnd: Round, net: int) -> None:
        self.say(Text(_("Result"), style="bold"))
        self.say(self.dealer_line(rnd))
        for box in rnd.boxes:
            for i, hand in enumerate(box.hands):
                word, style = RESULT_WORDS.get(hand.result or "lose", ("?", ""))
                self.say(
                    self.hand_line(rnd, box, i),
                    "   ",
                    Text(_(word), style=style),
                    "   " + hand_paid(hand),
                )
            name = _("Box {seat}", seat=self.seat(box.index))
            for pay in rnd.log:
                if not isinstance(pay, Payment) or pay.box != box.index:
                    continue
                if pay.kind == "insurance" and box.insurance:
                    outcome = side_outcome(pay.amount, box.insurance)
                    self.say(
                        "  "
                        + _(
                            "{box} insurance {stake}: {outcome}",
                            box=name,
                            stake=money(box.insurance),
                            outcome=outcome,
                        )
                    )
                elif pay.kind == "side-bet" and pay.hand is None and pay.side_bet:
                    stake = box.side_bets.get(pay.side_bet, 0)
                    title = self.rules.side_bet(pay.side_bet, staked=False).spec.title
                    self.say(
                        "  "
                        + _(
                            "{box} {bet} {stake}: {outcome}",
                            box=name,
                            bet=_(title),
                            stake=money(stake),
                            outcome=side_outcome(pay.amount, stake),
                        )
                    )
        style = "bold green" if net > 0 else "bold red" if net < 0 else "bold"
        self.say(
            Text(_("Round net {net}", net=money(net, sign=True)), style=style),
            " · " + _("bankroll {amount}", amount=money(self.table.bankroll)),
        )

    def summary(self) -> None:
        self.console.rule(Text(_("Session summary"), style="bold"))
        t = self.table
        for line in stats_lines(t.stats, t.start_bankroll, t.bankroll):
            self.say(line)


def initial_records(rnd: Round) -> int:
    """How many log records the stakes and the initial deal take (nothing to narrate there)."""
    stakes = len(rnd.boxes) + sum(len(b.side_bets) for b in rnd.boxes)
    return stakes + 2 * len(rnd.boxes) + 1 + (1 if rnd.rules.hole_card else 0)


def play(
    rules: str | Rules = "ro-casino",
    *,
    boxes: int | None = None,
    bankroll: int = 100_000,
    seed: int | None = None,
    log_path: str | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    shoe: CardSource | None = None,
    color: bool | None = None,
    hints: bool = False,
    lang: str | None = None,
    side_bets: bool = False,
) -> int:
    """Play a session reading answers from ``stdin`` and writing to ``stdout``.

    ``shoe`` replaces the shuffled shoe (tests stack one); ``color`` forces colour on or off
    (default: colour only when ``stdout`` is a terminal); ``lang``: the language (default: the
    environment's, see :func:`twentyone.i18n.choose_language`); ``side_bets``: ask the table's
    side bets with each bet from the start (``b`` at a bet switches them). Returns the exit
    code. A bad ``boxes``, ``bankroll`` or log path raises
    :class:`~twentyone.engine.errors.TwentyOneError`.
    """
    use_language(lang)
    table_rules = load_rules(rules)
    boxes = default_boxes(table_rules, boxes)
    check_options(table_rules, boxes, bankroll, log_path)
    table = PlayerSeat(table_rules, bankroll=bankroll, boxes=boxes, seed=seed, shoe=shoe)
    out = stdout if stdout is not None else sys.stdout
    console = Console(
        file=out,
        force_terminal=color,
        no_color=None if color is None else not color,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    )
    advisor = Advisor(table_rules, boxes=boxes, shoe=table.shoe) if hints else None
    source = stdin if stdin is not None else sys.stdin
    game = Game(table, source, console, log_path, advisor, side_bets=side_bets)
    return game.run()


def run_game(
    rules: str,
    boxes: int | None,
    bankroll: int,
    seed: int | None,
    log_path: str | None,
    hints: bool = False,
    lang: str | None = None,
    side_bets: bool = False,
) -> int:
    """``twentyone play``: the game on standard input and output; returns the exit code."""
    return play(
        rules, boxes=boxes, bankroll=bankroll, seed=seed, log_path=log_path, hints=hints,
        lang=lang, side_bets=side_bets,
    )  # fmt: skip


__all__ = ["Game", "card_text", "cards_text", "money", "play", "run_game", "total_text"]
