"""The shared terminal table: ``twentyone play --players ann,bob``.

Several players take turns at one terminal: each has their own bankroll (an account of a
:class:`~twentyone.engine.ledger.MemoryLedger`) and their own boxes, bets are asked player by
player, and every question names the player whose turn it is. The table is the engine's
:class:`~twentyone.engine.session.TableSession`, the same one the web's live tables run: it checks
the bets (what it refuses is shown as it says it) and deals once every player has bet. The
round's cards, questions and prompts are the single-player game's
(:class:`~twentyone.terminal.game.Game`); only the labels carry the player's name.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from twentyone.analysis.hints import Advisor
from twentyone.engine.errors import BetError, IllegalActionError
from twentyone.engine.hands import Box
from twentyone.engine.ledger import MemoryLedger
from twentyone.engine.records import Payment
from twentyone.engine.replay import round_to_replay
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules
from twentyone.engine.session import SessionError, TableSession, is_multi_player
from twentyone.engine.session_parts import stakes_by_box
from twentyone.engine.shoe import CardSource, Shoe
from twentyone.engine.sidebets import SideBet
from twentyone.engine.stats import Stats
from twentyone.terminal.game import Game, initial_records
from twentyone.terminal.input import EndOfInput, Prompter
from twentyone.terminal.text import (
    RESULT_WORDS,
    _,
    _n,
    check_options,
    default_boxes,
    hand_paid,
    latin_key,
    money,
    parse_amount,
    side_outcome,
    stakes_text,
    stats_lines,
    table_facts,
    use_language,
)

# the parameters of a table's refusals that are money (in minor units) or a box (from 0)
_MONEY_PARAMS = ("amount", "bet", "held", "max", "min", "total", "balance")
_BOX_PARAMS = ("box", "last", "turn")


def table_text(
    message: str, params: Mapping[str, Any], plural: str | None = None, counted: str | None = None
) -> str:
    """A message of the table (a refusal, a notice) in the game's language: money
    formatted, boxes counted from 1; a counted message (``plural``: its plural) in the form
    its parameter ``counted`` asks for.

    >>> use_language("ru")
    'ru'
    >>> table_text("box {box}: bet {bet} is outside the table limits {min} to {max}",
    ...            {"box": 0, "bet": 50, "min": 100, "max": 900})  # the engine's refusal
    'бокс 1: ставка 0,50 вне лимитов стола от 1,00 до 9,00'
    >>> use_language("en")
    'en'
    """
    shown: dict[str, Any] = dict(params)
    for key, value in params.items():
        if isinstance(value, int) and not isinstance(value, bool):
            if key in _MONEY_PARAMS:
                shown[key] = money(value)
            elif key in _BOX_PARAMS:
                shown[key] = value + 1
    if plural is not None and counted is not None:
        return _n(message, plural, int(params[counted]), **shown)
    return _(message, **shown)


def refusal_text(exc: SessionError) -> str:
    """A table's refusal in the game's language (see :func:`table_text`)."""
    return table_text(exc.message, exc.params, exc.plural, exc.counted)


def check_players(rules: Rules, names: list[str], boxes: int) -> None:
    """Raise :class:`BetError` (told in the game's language by its code, see
    :func:`~twentyone.terminal.text.reason`) unless these players can share this table."""
    shown = ",".join(names)
    if len(names) < 2 or not all(names):
        raise BetError("option-players", players=shown)
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise BetError("option-players-twice", name=twice)
    if not is_multi_player(rules):
        raise BetError("option-players-single", table=rules.name)
    need = len(names) * boxes
    if need > rules.table_boxes:
        raise BetError(
            "option-players-boxes",
            n=len(names),
            boxes=boxes,
            need=need,
            table=rules.name,
            most=rules.table_boxes,
        )


class SharedGame(Game):
    """Several players at one :class:`~twentyone.engine.session.TableSession`, taking turns.

    It plays rounds with :class:`~twentyone.terminal.game.Game`'s display and questions; the
    session and its ledger hold the bets and the money, as under the one-player game's
    :class:`~twentyone.terminal.seat.PlayerSeat`.
    """

    def __init__(
        self,
        session: TableSession,
        ledger: MemoryLedger,
        names: list[str],
        boxes: int,
        stdin: TextIO,
        console: Console,
        log_path: str | None = None,
        advisor: Advisor | None = None,
        side_bets: bool = False,
    ) -> None:
        Prompter.__init__(self, stdin, console)
        self.side_bets_on = side_bets
        self.session = session
        self.ledger = ledger
        self.rules = session.rules
        self.names = names
        self.boxes = {name: [i * boxes + b for b in range(boxes)] for i, name in enumerate(names)}
        self.accounts = {name: session.seats[name].account for name in names}
        self.start = {name: ledger.balance(self.accounts[name]) for name in names}
        self.stats = {name: Stats() for name in names}
        self.last: dict[tuple[str, int], tuple[int, dict[str, int]]] = {}
        self.log_path = log_path
        self.advisor = advisor
        self.ended = False
        self.rounds = 0
        self.box_map: list[int] = []
        self.insurance_answers: dict[str, bool] = {}

    def balance(self, name: str) -> int:
        return self.ledger.balance(self.accounts[name])

    # ------------------------------------------------------------------ the session
    def run(self) -> int:
        """Play rounds until someone quits, input ends or no bankroll covers the minimum."""
        self.header()
        while True:
            if all(self.balance(n) < self.rules.table_min for n in self.names):
                self.say(
                    Text(
                        _(
                            "No bankroll covers the table minimum {minimum}: the game is over.",
                            minimum=money(self.rules.table_min),
                        ),
                        style="bold red",
                    )
                )
                break
            try:
                if not self.ask_all_bets():
                    break
            except EndOfInput:
                self.say(_("Interrupted.") if self.interrupted else _("End of input."))
                break
            played = self.session.played
            if played is None:  # the round could not start: the session says why
                for notice in self.session.take_notices():
                    self.refuse(table_text(notice.message, notice.params))
                continue
            self.session.take_notices()
            self.play_shared_round(played.rnd, played.box_map)
            if self.ended:
                why = _("Interrupted") if self.interrupted else _("End of input")
                self.say(_("{why}: the round was finished standing; the game stops.", why=why))
                break
        self.summary()
        return 130 if self.interrupted else 0

    def header(self) -> None:
        r = self.rules
        self.console.rule(Text(f"twentyone · {r.name}", style="bold"))
        parts = table_facts(r)
        self.say(Text(_("Players"), style="bold"), "".join(" · " + part for part in parts))
        for name in self.names:
            seats = ", ".join(_("Box {seat}", seat=b + 1) for b in self.boxes[name])
            self.say(
                "  "
                + _(
                    "{player}: {boxes}, bankroll {amount}",
                    player=name,
                    boxes=seats,
                    amount=money(self.balance(name)),
                )
            )
        self.say(
            _(
                "Bets, player by player: type an amount (10 or {example}) and Enter; Enter "
                "alone takes the amount in brackets, 0 sits the box out, q quits.",
                example=money(1050),
            )
        )
        self.say_side_bets()
        if self.single_keys:
            self.say(_("Actions and yes/no answers: one key, no Enter."))

    def ask_all_bets(self) -> bool:
        """Every player's bets, one after the other, then the deal; False: quit."""
        self.rounds += 1
        self.console.rule(Text(_("Round {n}", n=self.rounds)), style="dim")
        while True:
            for name in self.names:
                if not self.ask_player_bets(name):
                    return False
            self.session.close_betting()  # a no-op once everyone is ready (dealt already)
            if self.session.played is not None or self.session.notices:
                return True
            self.refuse(_("no bets: put a bet on at least one box (q quits)"))

    def ask_player_bets(self, name: str) -> bool:
        """One player's bets on their boxes (the session checks each); False: quit."""
        balance = self.balance(name)
        if balance < self.rules.table_min:
            self.say(
                "  "
                + _(
                    "{player}: bankroll {amount} is below the table minimum; {player} sits out.",
                    player=name,
                    amount=money(balance),
                )
            )
            return True
        self.say(Text(_("{player}: bankroll {amount}", player=name, amount=money(balance))))
        if self.last_stakes(name):
            said = stakes_text(self.rules, self.last_stakes(name))
            offer = _("r repeats {player}'s last bets", player=name) + f" ({said})"
            self.say(Text("  " + offer, "dim"))
        while True:
            outcome = self.ask_boxes(name)
            if outcome is None:
                return False
            if not self.session.pending(name):
                return True
            try:
                self.session.ready(name)
            except SessionError as exc:
                self.refuse(_("{problem}; r rebets, q quits", problem=refusal_text(exc)))
                self.session.clear(name)
                continue
            return True

    def last_stakes(self, name: str) -> list[tuple[int, dict[str, int]]]:
        """The player's last round's bets box by box with their side bets: what ``r`` puts
        on the table again (the session's record of them)."""
        by_box = stakes_by_box(list(self.session.seats[name].last_bets or ()))
        return [(sides.get("main", 0), sides) for _box, sides in sorted(by_box.items())]

    def ask_boxes(self, name: str) -> bool | None:
        """Ask the player's bet on each of their boxes; None: quit."""
        r = self.rules
        entered = 0  # the bet just put on the player's previous box: the next box's default
        for box in self.boxes[name]:
            while True:
                left = self.balance(name) - self.session.pending(name)
                if left < r.table_min:
                    self.say("  " + _("{left} left: box {seat} and after sit this round out.",
                                      left=money(left), seat=box + 1))  # fmt: skip
                    return True
                hi = min(r.table_max, left)
                last = entered or self.last.get((name, box), (r.table_min, {}))[0]
                default = min(last, hi)
                line = self.read(
                    _(
                        "{player}, bet on box {seat} ({lo} to {hi}, 0 = sit out) [{default}] ›",
                        player=name,
                        seat=box + 1,
                        lo=money(r.table_min),
                        hi=money(hi),
                        default=money(default),
                    )
                )
                key = latin_key(line.lower())
                if key in ("q", "quit"):
                    return None
                if key == "b" and r.staked_side_bets:
                    self.side_bets_on = not self.side_bets_on
                    self.say_side_bets()
                    continue
                if key in ("r", "rebet"):
                    try:
                        self.session.rebet(name)  # the last round's bets replace these
                    except SessionError as exc:
                        self.refuse(refusal_text(exc))
                        continue
                    stakes = sorted(self.session.stakes(name).items())
                    bets = stakes_text(r, [(sides.get("main", 0), sides) for _b, sides in stakes])
                    self.say("  " + _("Rebet: {bets}", bets=bets))
                    return True
                try:
                    amount = default if not line else parse_amount(line)
                    if amount:
                        self.session.bet(name, box, amount)
                except SessionError as exc:
                    self.refuse(_("{problem}; r rebets, q quits", problem=refusal_text(exc)))
                    continue
                except ValueError as exc:
                    self.refuse(_("{problem}; r rebets, q quits", problem=exc))
                    continue
                for side_bet in r.staked_side_bets if amount and self.side_bets_on else ():
                    self.ask_side(name, box, side_bet)
                entered = amount or entered
                break
        return True

    def ask_side(self, name: str, box: int, side_bet: SideBet) -> None:
        """A side bet the table offers, beside a box's main bet."""
        while True:
            default = self.last.get((name, box), (0, {}))[1].get(side_bet.id, 0)
            default = min(default, self.balance(name) - self.session.pending(name))
            line = self.read(
                "  "
                + _(
                    "{player}, {bet} bet on box {seat} (0 for none) [{default}] ›",
                    player=name,
                    bet=_(side_bet.spec.title),
                    seat=box + 1,
                    default=money(default),
                )
            )
            try:
                amount = default if not line else parse_amount(line)
                if amount:
                    self.session.bet(name, box, amount, side_bet.id)
            except SessionError as exc:
                self.refuse(refusal_text(exc))
                continue
            except ValueError as exc:
                self.refuse(str(exc))
                continue
            return

    # ------------------------------------------------------------------ a round
    def seat(self, box: int) -> int:
        """The table box (from 1) of the round's box index."""
        return self.box_map[box] + 1 if box < len(self.box_map) else box + 1

    def label(self, rnd: Round, box: int, hand: int) -> str:
        """The box or hand label, with the name of the player it belongs to."""
        return f"{rnd.boxes[box].player} · {super().label(rnd, box, hand)}"

    def boxes_label(self, rnd: Round, boxes: list[Box]) -> str:
        """A player's boxes in one question (``ann · Box 1, Box 2``)."""
        return f"{boxes[0].player} · {super().boxes_label(rnd, boxes)}"

    def play_shared_round(self, rnd: Round, box_map: list[int]) -> None:
        """Play the round in the session, each question asked of the player it names."""
        self.box_map = box_map
        self.insurance_answers = {}
        before = {n: self.balance(n) for n in self.names}  # less what the deal has moved
        for pay in rnd.log:
            if isinstance(pay, Payment):
                before[rnd.boxes[pay.box].player] -= pay.amount
        self.show_table(rnd)
        seen = initial_records(rnd)
        while True:
            seen = self.narrate(rnd, seen)
            turn = self.session.turn
            if rnd.question is None or turn is None:
                break
            choice = self.decide(rnd, rnd.question)
            try:
                self.session.decide(turn.player, choice)
            except SessionError as exc:  # only legal actions are offered: the engine failed
                if not isinstance(exc.__cause__, IllegalActionError):
                    raise exc.__cause__ or exc from None  # e.g. a stacked shoe ran out
                self.refuse(refusal_text(exc))
        for (name, box), stake in _stakes(rnd, box_map).items():
            self.last[(name, box)] = stake
        in_round = rnd.net()
        nets = {n: self.stats[n].count(rnd, n) for n in self.names if n in in_round}
        self.show_results(rnd, nets)
        self.write_log(rnd, before)

    def show_results(self, rnd: Round, nets: dict[str, int]) -> None:
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
            name = f"{box.player} · " + _("Box {seat}", seat=self.seat(box.index))
            for pay in rnd.log:
                if not isinstance(pay, Payment) or pay.box != box.index:
                    continue
                if pay.kind == "insurance" and box.insurance:
                    outcome = side_outcome(pay.amount, box.insurance)
                    self.say("  " + _("{box} insurance {stake}: {outcome}", box=name,
                                      stake=money(box.insurance), outcome=outcome))  # fmt: skip
                elif pay.kind == "side-bet" and pay.hand is None and pay.side_bet:
                    stake = box.side_bets.get(pay.side_bet, 0)
                    title = self.rules.side_bet(pay.side_bet, staked=False).spec.title
                    self.say("  " + _("{box} {bet} {stake}: {outcome}", box=name, bet=_(title),
                                      stake=money(stake),
                                      outcome=side_outcome(pay.amount, stake)))  # fmt: skip
        for name, net in nets.items():
            style = "bold green" if net > 0 else "bold red" if net < 0 else "bold"
            self.say(
                Text(f"{name}: " + _("Round net {net}", net=money(net, sign=True)), style=style),
                " · " + _("bankroll {amount}", amount=money(self.balance(name))),
            )

    def write_log(self, rnd: Round, before: dict[str, int]) -> None:
        """Append the round's replay JSON (with each player's bankroll) to ``--log``."""
        if self.log_path is None:
            return
        record = round_to_replay(rnd)
        record["bankrolls"] = {n: before[n] for n in rnd.net()}
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

    def summary(self) -> None:
        self.console.rule(Text(_("Session summary"), style="bold"))
        for name in self.names:
            self.say(Text(name, style="bold"))
            for line in stats_lines(self.stats[name], self.start[name], self.balance(name)):
                self.say("  ", line)


def _stakes(rnd: Round, box_map: list[int]) -> dict[tuple[str, int], tuple[int, dict[str, int]]]:
    """Each player's main bet and side bets per table box this round (Enter repeats them)."""
    return {(b.player, box_map[b.index]): (b.bet, dict(b.side_bets)) for b in rnd.boxes}


def play_shared(
    rules: str | Rules,
    players: list[str],
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
    """Play a shared table: ``players`` (two or more names) each with ``boxes`` boxes and
    ``bankroll``, reading answers from ``stdin``; returns the exit code. Bad options raise
    :class:`~twentyone.engine.errors.TwentyOneError` (translated)."""
    use_language(lang)
    table_rules = load_rules(rules)
    boxes = default_boxes(table_rules, boxes)
    check_options(table_rules, boxes, bankroll, log_path)
    check_players(table_rules, players, boxes)
    ledger = MemoryLedger()
    session = TableSession(
        table_rules,
        ledger=ledger,
        clock=lambda: 0.0,  # no clock runs at the terminal: everyone is asked in turn
        shoe=shoe if shoe is not None else Shoe.for_rules(table_rules, seed),
        table_id=table_rules.name,
    )
    for name in players:
        session.sit(name, ledger.open_account(name, bankroll))
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
    advisor = Advisor(table_rules, boxes=boxes) if hints else None
    source = stdin if stdin is not None else sys.stdin
    game = SharedGame(
        session, ledger, players, boxes, source, console, log_path, advisor, side_bets=side_bets
    )
    return game.run()


def run_shared(
    rules: str,
    players: str,
    boxes: int | None,
    bankroll: int,
    seed: int | None,
    log_path: str | None,
    hints: bool = False,
    lang: str | None = None,
    side_bets: bool = False,
) -> int:
    """``twentyone play --players ann,bob``: the shared table on standard input and output."""
    names = [n.strip() for n in players.split(",")]
    return play_shared(
        rules, names, boxes=boxes, bankroll=bankroll, seed=seed, log_path=log_path, hints=hints,
        lang=lang, side_bets=side_bets,
    )  # fmt: skip


__all__ = [
    "SharedGame",
    "check_players",
    "play_shared",
    "refusal_text",
    "run_shared",
    "table_text",
]
