"""Trainers, the count drill: cards dealt through a shoe, the running count and the true count
of a counting system, answers graded and tallied (accuracy and time per answer).

Plain, I/O-free code: the terminal (``twentyone train count``) and the web page deal, show and
time the cards; this module says what the answer is. A drill deals through one shoe of the
rules' decks down to their cut card (a continuous shuffler's table: three quarters of the shoe,
where a cut card would sit), then starts a new shoe and a new count. The counting systems
are :mod:`twentyone.counting`'s: tags as TOML data, an unbalanced count's initial running count,
and the true count as a player takes it (its deck estimation and rounding).

>>> from twentyone.engine.rulesets import load_rules
>>> drill = CountDrill(load_rules("6D S17"), count_system("hilo"), seed=1)
>>> cards = drill.deal(10)
>>> len(cards), drill.cards_left, drill.running_count == sum(tag(c) for c in cards)
(10, 302, True)
>>> mark = drill.check(drill.running_count)
>>> mark.right, mark.expected == count_text(drill.running_count)
(True, True)

Basic-strategy and index flashcards are :mod:`twentyone.counting.trainer_cards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from twentyone.counting.counts import SYSTEMS, CountSystem, load_count
from twentyone.engine.cards import Card, parse_cards
from twentyone.engine.errors import TrainerError
from twentyone.engine.rules import Rules
from twentyone.engine.shoe import Shoe

#: Where a drill's shoe is cut when the rules shuffle continuously (no cut card to follow).
DRILL_PENETRATION = Fraction(3, 4)
#: Most cards one question of a drill deals.
MAX_CARDS = 52
#: How a drill may round the true count: ``floor`` rounds down (-1.5 is -2; every built-in
#: system's own rule), ``truncate`` toward zero (-1.5 is -1). Both agree on positive counts.
TRUE_COUNT_ROUNDINGS = ("floor", "truncate")


def count_system(name: str, rounding: str | None = None) -> CountSystem:
    """The counting system ``name``: a built-in one (``hilo``, ``ko``, ``zen``...: see
    :data:`twentyone.counting.counts.SYSTEMS`) or a TOML file; ``rounding`` (one of
    :data:`TRUE_COUNT_ROUNDINGS`) replaces the system's own rounding of the true count.

    >>> count_system("Hi-Lo").name, count_system("halves").tag_of("5", "H")
    ('Hi-Lo', Fraction(3, 2))
    >>> count_system("hilo").true_count.rounding, count_system("hilo", "truncate").true_count.of(
    ...     Fraction(-3), 104)
    ('floor', -1)
    """
    system = load_count(name)
    if rounding is None or rounding == system.true_count.rounding:
        return system
    if rounding not in TRUE_COUNT_ROUNDINGS:
        raise TrainerError(
            "train-rounding", rounding=rounding, choices=", ".join(TRUE_COUNT_ROUNDINGS)
        )
    return replace(system, true_count=replace(system.true_count, rounding=rounding))


def count_names() -> tuple[str, ...]:
    """The keys of the built-in counting systems."""
    return SYSTEMS


def tag(card: Card, system: CountSystem | None = None) -> Fraction:
    """A card's tag in ``system`` (default Hi-Lo).

    >>> tag(Card.parse("5H")), tag(Card.parse("KS")), tag(Card.parse("8D"))
    (Fraction(1, 1), Fraction(-1, 1), Fraction(0, 1))
    """
    return (system or count_system("hilo")).tag_of(card.rank, card.suit)


def count_text(value: Fraction | int) -> str:
    """A count as a player writes it: ``+3``, ``0``, ``-2``, ``+3/2``.

    >>> count_text(Fraction(3)), count_text(0), count_text(Fraction(-5, 2))
    ('+3', '0', '-5/2')
    """
    v = Fraction(value)
    return f"+{v}" if v > 0 else str(v)


def parse_count(text: str) -> Fraction:
    """A count typed by a player: ``3``, ``+3``, ``-2``, ``1.5``, ``-3/2`` (a comma for the
    decimal point is read too); :class:`TrainerError` for anything else.

    >>> parse_count("+3"), parse_count("-1,5"), parse_count(" 7/2 ")
    (Fraction(3, 1), Fraction(-3, 2), Fraction(7, 2))
    >>> parse_count("ten")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.TrainerError: 'ten' is not a count: type a number such as 3, -2 or +1
    """
    value = text.strip().replace(",", ".").replace("\u2212", "-")
    try:
        if not value or value.count("/") > 1 or any(c not in "+-0123456789./" for c in value):
            raise ValueError(value)
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise TrainerError("train-not-a-count", text=text) from None


@dataclass(frozen=True, kw_only=True)
class Mark:
    """One graded answer: what was given, what was expected, whether it was right and how
    long it took (seconds)."""

    question: str
    given: str
    expected: str
    right: bool
    seconds: float


@dataclass
class Tally:
    """Answers so far: accuracy and time per answer.

    >>> t = Tally()
    >>> _ = t.add(Mark(question="rc", given="+1", expected="+1", right=True, seconds=2.0))
    >>> _ = t.add(Mark(question="rc", given="0", expected="+2", right=False, seconds=4.0))
    >>> t.answered, t.right, t.accuracy, t.mean_seconds
    (2, 1, Fraction(1, 2), 3.0)
    """

    marks: list[Mark] = field(default_factory=list)

    def add(self, mark: Mark) -> Mark:
        """Record ``mark``; returns it."""
        self.marks.append(mark)
        return mark

    @property
    def answered(self) -> int:
        return len(self.marks)

    @property
    def right(self) -> int:
        return sum(m.right for m in self.marks)

    @property
    def accuracy(self) -> Fraction:
        """Right answers over answers (0 before the first)."""
        return Fraction(self.right, self.answered) if self.marks else Fraction(0)

    @property
    def mean_seconds(self) -> float:
        """Mean seconds per answer (0 before the first)."""
        return sum(m.seconds for m in self.marks) / len(self.marks) if self.marks else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "answered": self.answered,
            "right": self.right,
            "accuracy": float(self.accuracy),
            "mean_seconds": self.mean_seconds,
        }


class CountDrill:
    """Deals a shoe of ``rules``' decks in batches and knows its count in ``system``.

    ``seed`` gives the same shoes every run; ``None`` shuffles with the operating system's
    cryptographic RNG. :attr:`tally` keeps the graded answers.
    """

    def __init__(
        self,
        rules: Rules,
        system: CountSystem,
        *,
        seed: int | None = None,
        shoe: Shoe | None = None,
    ) -> None:
        self.rules = rules
        self.system = system
        pen = rules.penetration if rules.shuffle == "cut-card" else DRILL_PENETRATION
        self.shoe = shoe or Shoe(
            decks=rules.decks, shuffle="cut-card", penetration=pen, seed=seed, deck=rules.deck
        )
        self.running_count = system.initial_running_count(rules.decks)
        self.new_shoe = True
        self.tally = Tally()

    @property
    def cards_left(self) -> int:
        """Cards still in the shoe."""
        return self.shoe.remaining

    @property
    def decks_left(self) -> Fraction:
        """The decks the system divides by now."""
        return self.system.true_count.decks_left(self.cards_left)

    @property
    def true_count(self) -> int:
        """The true count now, as the system computes it."""
        return self.system.true_count.of(self.running_count, self.cards_left)

    def deal(self, n: int) -> tuple[Card, ...]:
        """The next ``n`` cards (1 to :data:`MAX_CARDS`; fewer if the shoe ends first). Past
        the cut card the shoe is shuffled first and the count starts again
        (:attr:`new_shoe` says so)."""
        if not 1 <= n <= MAX_CARDS:
            raise TrainerError("train-cards", cards=n, most=MAX_CARDS)
        self.new_shoe = False
        if self.shoe.cut_card_out:
            self.shoe.begin_round()
            self.running_count = self.system.initial_running_count(self.rules.decks)
            self.new_shoe = True
        cards = tuple(self.shoe.draw_many(min(n, self.shoe.remaining)))
        self.running_count += sum((tag(c, self.system) for c in cards), Fraction(0))
        return cards

    def check(self, running: Fraction | int, seconds: float = 0.0) -> Mark:
        """Grade a running count; the mark is added to :attr:`tally`."""
        return self.tally.add(
            Mark(
                question="running",
                given=count_text(running),
                expected=count_text(self.running_count),
                right=Fraction(running) == self.running_count,
                seconds=seconds,
            )
        )

    def check_true(self, true: Fraction | int, seconds: float = 0.0) -> Mark:
        """Grade a true count; the mark is added to :attr:`tally`."""
        return self.tally.add(
            Mark(
                question="true",
                given=count_text(true),
                expected=count_text(self.true_count),
                right=Fraction(true) == self.true_count,
                seconds=seconds,
            )
        )


@dataclass(frozen=True, kw_only=True)
class CountAnswer:
    """The counts after a batch of cards dealt from the top of a new shoe."""

    running: Fraction
    true: int
    cards_left: int
    decks_left: Fraction


def count_of(rules: Rules, system: CountSystem, cards: Sequence[Card] | str) -> CountAnswer:
    """The running and true count after ``cards``, dealt from the top of a new shoe of
    ``rules``' decks (the web drill's answer, which the server grades from the cards the page
    was shown).

    >>> from twentyone.engine.rulesets import load_rules
    >>> a = count_of(load_rules("2D S17"), count_system("hilo"), "5H 6D 2C KS 3S 4H")
    >>> a.running, a.true, a.cards_left
    (Fraction(4, 1), 2, 98)
    """
    got = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    size = rules.shoe_size
    if len(got) > size:
        raise TrainerError("train-too-many", cards=len(got), size=size)
    for card in set(got):
        if got.count(card) > rules.decks:
            raise TrainerError("train-card-repeated", card=str(card), decks=rules.decks)
    running = system.initial_running_count(rules.decks) + sum(
        (tag(c, system) for c in got), Fraction(0)
    )
    left = size - len(got)
    tc = system.true_count
    return CountAnswer(
        running=running, true=tc.of(running, left), cards_left=left, decks_left=tc.decks_left(left)
    )


__all__ = [
    "TRUE_COUNT_ROUNDINGS",
    "CountAnswer",
    "CountDrill",
    "Mark",
    "Tally",
    "count_names",
    "count_of",
    "count_system",
    "count_text",
    "parse_count",
    "tag",
]
