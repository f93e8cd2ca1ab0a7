"""The trainers at the terminal: ``twentyone train count`` and ``twentyone train strategy``.

Line-based like the game (:mod:`twentyone.terminal.input`): every answer is a line, so a drill
runs the same in a terminal and with piped input. The count drill shows its cards one at a
time, ``speed`` seconds each, over the same spot of a terminal (piped, or at speed 0, they
print on one line); the time of an answer runs from the prompt to the answer. ``q`` quits;
the end of input stops the drill; either way the tally is printed.

:func:`count_drill` and :func:`strategy_drill` take the streams, a sleep and a clock, so the
tests drive whole drills in-process.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO, TypeVar

from babel.numbers import format_decimal
from rich.console import Console
from rich.text import Text

from twentyone import i18n
from twentyone.counting.index_set import IndexPlay
from twentyone.counting.trainer import (
    MAX_CARDS,
    CountDrill,
    Mark,
    Tally,
    count_system,
    count_text,
    parse_count,
)
from twentyone.counting.trainer_cards import (
    Flashcard,
    FlashcardDeck,
    answer,
    legal_plays,
    load_index_list,
)
from twentyone.engine.cards import Card, hand_total
from twentyone.engine.errors import N_, TrainerError, TwentyOneError
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules
from twentyone.engine.strategy import Strategy
from twentyone.terminal.input import EndOfInput, Prompter
from twentyone.terminal.text import (
    _,
    action_name,
    card_text,
    cards_text,
    language,
    percent,
    reason,
    use_language,
    yes_no_keys,
)

T = TypeVar("T")

#: Plays of an index list that are not the game's actions, as the drill names them.
PLAY_NAMES = {
    "insure": N_("insure"),
    "no-insurance": N_("no insurance"),
    "double-stand": N_("double, else stand"),
}
_KEY_OF = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r"}


def play_name(play: str) -> str:
    """A flashcard's play (or an index list's) in the drill's language."""
    if play in PLAY_NAMES:
        return _(PLAY_NAMES[play])
    return action_name(play)


def translated(message: str) -> str:
    """``message`` in the drill's language, its placeholders left for :func:`fill`."""
    return i18n.translator(language()).gettext(message)


def fill(template: str, **parts: str | Text) -> Text:
    """A translated message whose ``{named}`` placeholders are filled with styled text.

    >>> fill("{a} against {b}", a=Text("10", style="bold"), b="A").plain
    '10 against A'
    """
    out = Text()
    rest = template
    while "{" in rest:
        head, _sep, tail = rest.partition("{")
        name, _sep, rest = tail.partition("}")
        out.append(head)
        value = parts[name]
        out.append(value) if isinstance(value, Text) else out.append(str(value))
    out.append(rest)
    return out


def _decimal(value: float, pattern: str = "#,##0.##") -> str:
    return format_decimal(value, pattern, locale=i18n.number_locale(language()))


class Trainer(Prompter):
    """A drill's screen: cards, questions, verdicts and the tally."""

    def __init__(
        self,
        stdin: TextIO,
        console: Console,
        rounds: int,
        sleep: Callable[[float], object] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(stdin, console)
        self.rounds = rounds
        self.sleep = sleep
        self.clock = clock
        self.tally = Tally()

    def ask(self, prompt: str, parse: Callable[[str], T]) -> tuple[T, float] | None:
        """Read an answer ``parse`` accepts (refusing others, asked again); ``None``: quit.
        The seconds count from the first prompt."""
        start = self.clock()
        while True:
            line = self.read(prompt + " ›")
            if line.lower() in ("q", "quit"):
                return None
            try:
                return parse(line), self.clock() - start
            except TwentyOneError as exc:
                self.refuse(reason(exc))

    def verdict(self, mark: Mark, right_text: str, wrong_text: str) -> None:
        seconds = _decimal(mark.seconds, "#,##0.0")
        if mark.right:
            self.say(Text("  " + _("Right: {answer}", answer=right_text), style="bold green"),
                     Text("  " + _("{seconds} s", seconds=seconds), style="dim"))  # fmt: skip
        else:
            self.say(Text("  " + wrong_text, style="bold red"),
                     Text("  " + _("{seconds} s", seconds=seconds), style="dim"))  # fmt: skip
        self.tally.add(mark)

    def summary(self) -> None:
        t = self.tally
        self.console.rule(Text(_("Your answers"), style="bold"))
        if not t.answered:
            self.say(_("No answers."))
            return
        self.say(
            _(
                "{right} of {answered} right ({accuracy}), {seconds} s an answer on average",
                right=t.right,
                answered=t.answered,
                accuracy=percent(float(t.accuracy)),
                seconds=_decimal(t.mean_seconds, "#,##0.0"),
            )
        )


def rounding_text(rounding: str) -> str:
    """The drill's rule for the true count, in the player's language."""
    if rounding == "truncate":
        return _(
            "The true count is the running count divided by the decks left, rounded toward "
            "zero: -1.5 is -1, +1.5 is +1."
        )
    return _(
        "The true count is the running count divided by the decks left, rounded down: -1.5 "
        "is -2, +1.5 is +1."
    )


class CountTrainer(Trainer):
    """``twentyone train count``."""

    def __init__(
        self,
        drill: CountDrill,
        stdin: TextIO,
        console: Console,
        *,
        rounds: int,
        cards: int,
        speed: float,
        true_count: bool,
        sleep: Callable[[float], object] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(stdin, console, rounds, sleep, clock)
        self.drill = drill
        self.cards = cards
        self.speed = speed
        self.ask_true = true_count

    def run(self) -> int:
        d = self.drill
        self.console.rule(Text(f"twentyone · {d.rules.name}", style="bold"))
        self.say(
            _(
                "Count drill: {count}, {decks} decks, {cards} cards a round; type the running "
                "count after each round (q quits).",
                count=d.system.name,
                decks=d.rules.decks,
                cards=self.cards,
            )
        )
        if self.ask_true:
            self.say(rounding_text(d.system.true_count.rounding))
        try:
            for n in range(1, self.rounds + 1):
                if not self.round(n):
                    break
        except EndOfInput:
            self.say(_("Interrupted.") if self.interrupted else _("End of input."))
        self.summary()
        return 130 if self.interrupted else 0

    @property
    def flashes(self) -> bool:
        """Whether cards are shown one at a time (a terminal, a speed above 0)."""
        return self.speed > 0 and self.console.is_terminal

    def show(self, cards: Sequence[Card]) -> None:
        """The cards: one at a time over the same spot of a terminal, else on one line."""
        if not self.flashes:
            self.say("  ", cards_text(cards))
            return
        for card in cards:
            self.console.file.write("\r  ")
            self.console.print(card_text(card), end="   ")
            self.console.file.flush()
            self.sleep(self.speed)
        self.console.file.write("\r" + " " * 12 + "\r")
        self.console.file.flush()

    def round(self, n: int) -> bool:
        """One round of the drill; False: the player quit."""
        d = self.drill
        cards = d.deal(self.cards)
        if d.new_shoe:
            start = count_text(d.system.initial_running_count(d.rules.decks))
            self.say(Text(_("A new shoe: the count starts at {count}.", count=start), style="bold"))
        self.console.rule(Text(_("Round {n}", n=n)), style="dim")
        self.show(cards)
        got = self.ask(_("Running count"), parse_count)
        if got is None:
            return False
        given, seconds = got
        rc = count_text(d.running_count)
        mark = d.check(given, seconds)
        self.verdict(mark, rc, _("Wrong: the running count is {right} (you said {given})",
                                 right=rc, given=mark.given))  # fmt: skip
        if self.flashes:  # the cards again, now that they are counted
            self.say("  ", cards_text(cards), style="dim")
        if self.ask_true:
            decks = _decimal(round(float(d.decks_left), 2))
            got = self.ask(
                _(
                    "True count ({cards} cards left, {decks} decks)",
                    cards=d.cards_left,
                    decks=decks,
                ),
                parse_count,
            )
            if got is None:
                return False
            given, seconds = got
            tc = count_text(d.true_count)
            mark = d.check_true(given, seconds)
            self.verdict(mark, tc, _("Wrong: the true count is {right} (you said {given})",
                                     right=tc, given=mark.given))  # fmt: skip
        return True


class StrategyTrainer(Trainer):
    """``twentyone train strategy``."""

    def __init__(
        self,
        rules: Rules,
        chart: Strategy,
        deck: FlashcardDeck,
        stdin: TextIO,
        console: Console,
        *,
        rounds: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(stdin, console, rounds, clock=clock)
        self.rules = rules
        self.chart = chart
        self.deck = deck

    def run(self) -> int:
        self.console.rule(Text(f"twentyone · {self.rules.name}", style="bold"))
        if self.deck.indices:
            intro = _("Index flashcards: name the play at the true count shown (q quits).")
        else:
            intro = _("Basic-strategy flashcards: name the chart's play (q quits).")
        self.say(intro)
        try:
            for n in range(1, self.rounds + 1):
                if not self.card(n, self.deck.draw()):
                    break
        except EndOfInput:
            self.say(_("Interrupted.") if self.interrupted else _("End of input."))
        self.summary()
        return 130 if self.interrupted else 0

    def card(self, n: int, card: Flashcard) -> bool:
        """One flashcard; False: the player quit."""
        total = hand_total(card.hand)
        shown = _("soft {total}", total=total.total) if total.soft else str(total.total)
        line = fill(
            translated(N_("Card {n}: {hand} ({total}) against {up}")),
            n=str(n),
            hand=cards_text(card.hand),
            total=shown,
            up=card_text(card.up),
        )
        if card.true_count is not None:
            line.append("  ")
            line.append(_("true count {tc}", tc=count_text(card.true_count)), style="bold cyan")
        self.console.rule(style="dim")
        self.say(line)
        if card.insurance:
            y, no = yes_no_keys()
            keys = {y: "insure", "y": "insure", no: "no-insurance", "n": "no-insurance"}
            plays: Sequence[str] = ("insure", "no-insurance")
            prompt = _("Insurance? ({y} insure, {n} no insurance)", y=y, n=no)
        else:
            plays = legal_plays(self.rules, card.hand, card.up)
            keys = {_KEY_OF[p]: p for p in plays}
            shown = ", ".join(f"{_KEY_OF[p]} {play_name(p)}" for p in plays)
            prompt = _("Play ({keys})", keys=shown)
        named = {play_name(p).lower(): p for p in plays} | {p: p for p in plays}

        def parse(text: str) -> str:
            word = text.strip().lower()
            play = keys.get(word) or named.get(word)
            if play is None:
                first = {p: k for k, p in reversed(keys.items())}
                choices = ", ".join(f"{play_name(p)} ({first[p]})" for p in plays)
                raise TrainerError("train-not-a-play", text=text, plays=choices)
            return play

        got = self.ask(prompt, parse)
        if got is None:
            return False
        given, seconds = got
        right = answer(card, self.rules, self.chart)
        mark = Mark(
            question="index" if card.entries else "strategy",
            given=str(given),
            expected=right,
            right=given == right,
            seconds=seconds,
        )
        if not card.entries:
            wrong = _("Wrong: the chart says {right} (you said {given})",
                      right=play_name(right), given=play_name(str(given)))  # fmt: skip
        else:
            wrong = _("Wrong: {right} (you said {given}); {rule}",
                      right=play_name(right), given=play_name(str(given)),
                      rule="; ".join(index_rule(e) for e in card.entries))  # fmt: skip
        self.verdict(mark, play_name(right), wrong)
        return True


def index_rule(e: IndexPlay) -> str:
    """An index entry in words: ``16 against T: stand at +0 or more, else hit``."""
    return _(
        "{hand} against {up}: {above} at {index} or more, else {below}",
        hand=_("insurance") if e.hand == "insurance" else e.hand,
        up=e.up,
        above=play_name(e.at_or_above),
        below=play_name(e.below),
        index=count_text(e.index),
    )


def _console(stdout: TextIO | None, color: bool | None) -> Console:
    out = stdout if stdout is not None else sys.stdout
    return Console(
        file=out,
        force_terminal=color,
        no_color=color is False,
        highlight=False,
        soft_wrap=True,
    )


def _check_rounds(rounds: int) -> None:
    if rounds < 1:
        raise TrainerError("train-rounds", rounds=rounds)


def count_drill(
    rules: str | Rules,
    *,
    count: str = "hilo",
    speed: float = 1.0,
    true_count: bool = False,
    rounding: str | None = None,
    rounds: int = 10,
    cards: int = 8,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    color: bool | None = None,
    lang: str | None = None,
    sleep: Callable[[float], object] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """The count drill on the given streams; returns the exit code. Bad options raise
    :class:`~twentyone.engine.errors.TwentyOneError`."""
    use_language(lang)
    table_rules = rules if isinstance(rules, Rules) else load_rules(rules)
    _check_rounds(rounds)
    if not 0 <= speed <= 10:
        raise TrainerError("train-speed", speed=speed)
    if not 1 <= cards <= MAX_CARDS:
        raise TrainerError("train-cards", cards=cards, most=MAX_CARDS)
    drill = CountDrill(table_rules, count_system(count, rounding), seed=seed)
    trainer = CountTrainer(
        drill,
        stdin if stdin is not None else sys.stdin,
        _console(stdout, color),
        rounds=rounds,
        cards=cards,
        speed=speed,
        true_count=true_count,
        sleep=sleep,
        clock=clock,
    )
    return trainer.run()


def strategy_drill(
    rules: str | Rules,
    *,
    indices: str | None = None,
    rounds: int = 20,
    seed: int | None = None,
    chart: Strategy | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    color: bool | None = None,
    lang: str | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Basic-strategy (or, with ``indices``, a file of index plays) flashcards on the given
    streams; ``chart`` replaces the rules' basic strategy (default: computed exactly).
    Returns the exit code."""
    use_language(lang)
    table_rules = rules if isinstance(rules, Rules) else load_rules(rules)
    _check_rounds(rounds)
    plays = load_index_list(indices) if indices is not None else ()
    if chart is None:
        from twentyone.analysis import basic_strategy
        from twentyone.analysis.warmup import notice

        notice()
        chart = basic_strategy(table_rules)
    trainer = StrategyTrainer(
        table_rules,
        chart,
        FlashcardDeck(plays, seed=seed),
        stdin if stdin is not None else sys.stdin,
        _console(stdout, color),
        rounds=rounds,
        clock=clock,
    )
    return trainer.run()


__all__ = ["count_drill", "index_rule", "play_name", "strategy_drill"]
