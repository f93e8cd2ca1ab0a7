"""Trainers, the flashcards: a hand and a dealer's up card (and, for index plays, a true count);
the player names the play and it is graded against the rules' basic-strategy chart or an index
list.

Plain, I/O-free code: ``twentyone train strategy`` and the web page show the card and read
the answer. Basic-strategy cards are drawn evenly over the chart's rows (hard 5 to 17, soft 13
to 20, every pair) and the ten up cards, so every decision comes up, not only the common ones;
the answer is what the chart plays with the actions the rules give a first hand (a chart's
``Dh`` is a hit where the rules refuse that double). Index cards draw an entry of the list and a
true count up to three either side of its index.

Index lists are :mod:`twentyone.counting.index_set`'s (``I18``, ``FAB4``, ``I18+FAB4`` or a JSON
file as ``twentyone indices`` writes it). A card is answered with every entry of the list for
its hand and up card: a surrender entry that says surrender (where the rules let the hand
surrender) first, else the play entry's side of its index, else the chart; ``double`` is a
double where the rules allow it, else a hit (``double-stand``: else a stand), and
``no-surrender`` the chart's play without surrendering. Entries no two-card hand makes (hard 4,
20 and 21, soft 12 and 21) are not drawn.

>>> from twentyone.engine.cards import parse_cards
>>> from twentyone.engine.strategy import Strategy
>>> from twentyone.engine.rulesets import load_rules
>>> rules, chart = load_rules("6D S17 DAS"), Strategy.uniform("S")
>>> card = Flashcard(hand=parse_cards("TS 6D"), up=Card.parse("TH"))
>>> answer(card, rules, chart), grade(card, rules, chart, "h").right
('stand', False)
>>> entry = IndexPlay(hand="16", up="T", below="hit", at_or_above="stand", index=0)
>>> answer(Flashcard(hand=card.hand, up=card.up, true_count=-1, entries=(entry,)), rules, chart)
'hit'
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twentyone.counting.index_set import IndexPlay, load_indices, parse_hand
from twentyone.counting.trainer import Mark
from twentyone.engine.cards import SUITS, Card, hand_total
from twentyone.engine.errors import TrainerError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import UPCARDS, Strategy, hand_code, resolve, upcard_key
from twentyone.sim.encode import K_PAIR, K_SOFT

#: The plays a flashcard of a hand is answered with, and the key that types each.
PLAYS = ("hit", "stand", "double", "split", "surrender")
#: The answers to an insurance card.
INSURANCE_PLAYS = ("insure", "no-insurance")
KEYS = {"h": "hit", "s": "stand", "d": "double", "p": "split", "r": "surrender"}
KEYS_INSURANCE = {"y": "insure", "i": "insure", "n": "no-insurance"}
_PLAY_CODE = {"hit": "H", "stand": "S", "double": "Dh", "double-stand": "Ds", "split": "P"}
#: How far either side of an entry's index an index card's true count falls.
SPREAD = 3

_TENS = "TJQK"


def _row(e: IndexPlay) -> tuple[str, int] | None:
    """The two-card row an entry's hand is: ``("hard", 16)``, ``("soft", 18)``, ``("pair",
    value)`` (ace 1), ``("insurance", 0)``; ``None`` for a hand no two cards make."""
    kind, row = parse_hand(e.hand)
    if kind == -1:
        return "insurance", 0
    if kind == K_PAIR:
        return "pair", row
    if kind == K_SOFT:
        return ("soft", row) if 13 <= row <= 20 else None
    return ("hard", row) if 5 <= row <= 19 else None


def load_index_list(spec: str) -> tuple[IndexPlay, ...]:
    """The entries of ``--indices`` (``I18``, ``FAB4``, ``I18+FAB4`` or a JSON file) that a
    two-card flashcard can show; :class:`TrainerError` when none can.

    >>> len(load_index_list("I18")), load_index_list("FAB4")[0].at_or_above
    (18, 'surrender')
    """
    plays = tuple(e for e in load_indices(spec) if _row(e) is not None)
    if not plays:
        raise TrainerError("train-no-indices", source=spec)
    return plays


@dataclass(frozen=True, kw_only=True)
class Flashcard:
    """A hand against an up card; an index card adds the true count and its entry."""

    hand: tuple[Card, ...]
    up: Card
    true_count: int | None = None
    entries: tuple[IndexPlay, ...] = ()

    @property
    def insurance(self) -> bool:
        """Whether the card asks about insurance (not a play of the hand)."""
        return any(e.is_insurance for e in self.entries)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "up": str(self.up),
            "true_count": self.true_count,
            "insurance": self.insurance,
        }


def legal_plays(rules: Rules, hand: Sequence[Card], up: Card) -> tuple[str, ...]:
    """The plays ``rules`` give a first two-card hand against ``up``, in :data:`PLAYS` order
    (surrender whether asked in play or before it, ro.11).

    >>> from twentyone.engine.cards import parse_cards
    >>> from twentyone.engine.rulesets import load_rules
    >>> legal_plays(load_rules("pt-casino"), parse_cards("8S 8D"), Card.parse("AS"))
    ('hit', 'stand', 'split')
    >>> legal_plays(load_rules("pt-casino"), parse_cards("8S 8D"), Card.parse("TS"))
    ('hit', 'stand', 'split', 'surrender')
    """
    total = hand_total(hand)
    out = ["hit"]
    if total.total >= rules.min_stand_total:
        out.append("stand")
    if rules.double_on == "any" or (
        not total.soft and total.total in ((9, 10, 11) if rules.double_on == "9-11" else (10, 11))
    ):
        out.append("double")
    a, b = hand[0], hand[1]
    if rules.may_split and ((a.rank == b.rank) if rules.split_by == "rank" else a.value == b.value):
        out.append("split")
    if rules.offers_surrender and (rules.surrender_against_ace or not up.is_ace):
        out.append("surrender")
    return tuple(out)


def chart_play(
    chart: Strategy, rules: Rules, hand: Sequence[Card], up: Card, *, surrender: bool = True
) -> str:
    """The play of ``chart`` for a first hand with the plays ``rules`` give it (without
    surrendering where ``surrender`` is false)."""
    legal = tuple(p for p in legal_plays(rules, hand, up) if surrender or p != "surrender")
    key = upcard_key(up)
    code = hand_code(chart, list(hand), key, pair_allowed="split" in legal)
    if code in ("P", "Rp") and "split" in legal:
        return "surrender" if code == "Rp" and "surrender" in legal else "split"
    if code in ("P", "Rp"):
        code = hand_code(chart, list(hand), key, pair_allowed=False)
    return resolve(code, legal)


def _index_side(play: str, card: Flashcard, rules: Rules, chart: Strategy) -> str:
    legal = legal_plays(rules, card.hand, card.up)
    if play == "surrender" and "surrender" in legal:
        return "surrender"
    if play in ("surrender", "no-surrender"):
        return chart_play(chart, rules, card.hand, card.up, surrender=False)
    return resolve(_PLAY_CODE[play], legal)


def answer(card: Flashcard, rules: Rules, chart: Strategy) -> str:
    """The right play for ``card``: its index entries' at its true count (a surrender entry
    first, then the play entry), else the chart's play."""
    if not card.entries or card.true_count is None:
        return chart_play(chart, rules, card.hand, card.up)
    tc = card.true_count
    if card.insurance:
        return next(e for e in card.entries if e.is_insurance).play_at(tc)
    surrender = [e for e in card.entries if e.is_surrender]
    plays = [e for e in card.entries if not e.is_surrender]
    legal = legal_plays(rules, card.hand, card.up)
    if surrender and surrender[0].play_at(tc) == "surrender" and "surrender" in legal:
        return "surrender"
    if plays:
        return _index_side(plays[0].play_at(tc), card, rules, chart)
    return chart_play(chart, rules, card.hand, card.up, surrender=False)


def entries_for(
    indices: Sequence[IndexPlay], hand: Sequence[Card], up: Card, *, insurance: bool = False
) -> tuple[IndexPlay, ...]:
    """The entries of ``indices`` that answer a first hand against ``up`` (or, with
    ``insurance``, the insurance entry of ``up``).

    >>> from twentyone.engine.cards import parse_cards
    >>> i18 = load_index_list("I18")
    >>> [e.at_or_above for e in entries_for(i18, parse_cards("TS 5D"), Card.parse("KH"))]
    ['stand']
    """
    key = upcard_key(up)
    if insurance:
        return tuple(e for e in indices if e.is_insurance and e.up == key)
    total = hand_total(hand)
    a, b = hand[0], hand[1]
    rows = {("soft", total.total) if total.soft else ("hard", total.total)}
    if a.value == b.value:
        rows.add(("pair", a.value))
    found = [e for e in indices if e.up == key and not e.is_insurance and _row(e) in rows]
    return tuple(sorted(found, key=lambda e: _row(e) != ("pair", a.value)))  # a split first


def parse_play(text: str, *, insurance: bool = False) -> str:
    """A play as typed: its name or its key (``h s d p r``; for insurance ``y``/``n``).

    >>> parse_play("D"), parse_play("surrender"), parse_play("n", insurance=True)
    ('double', 'surrender', 'no-insurance')
    >>> parse_play("x")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.TrainerError: 'x' is not a play: expected one of hit (h), stand (s), \
double (d), split (p), surrender (r)
    """
    word = text.strip().lower()
    keys, plays = (KEYS_INSURANCE, INSURANCE_PLAYS) if insurance else (KEYS, PLAYS)
    if word in plays:
        return word
    if word in keys:
        return keys[word]
    names = {v: k for k, v in reversed(keys.items())}
    shown = ", ".join(f"{p} ({names[p]})" for p in plays)
    raise TrainerError("train-not-a-play", text=text, plays=shown)


def grade(card: Flashcard, rules: Rules, chart: Strategy, given: str, seconds: float = 0.0) -> Mark:
    """Grade a typed play (a name or a key) for ``card``."""
    play = parse_play(given, insurance=card.insurance)
    right = answer(card, rules, chart)
    question = "index" if card.entries else "strategy"
    return Mark(question=question, given=play, expected=right, right=play == right, seconds=seconds)


class FlashcardDeck:
    """Draws flashcards: basic-strategy cards, or index cards from ``indices``. ``seed`` gives
    the same cards every run; ``None`` draws with the operating system's cryptographic RNG.

    >>> deck = FlashcardDeck(seed=3)
    >>> card = deck.draw()
    >>> len(card.hand), hand_total(card.hand).total <= 20, card.true_count
    (2, True, None)
    """

    def __init__(self, indices: Sequence[IndexPlay] = (), *, seed: int | None = None) -> None:
        self.indices = tuple(indices)
        self.rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)

    def _card(self, value: int, avoid: Sequence[Card] = ()) -> Card:
        """A card of ``value`` (ace 1, a ten: any of T J Q K) not among ``avoid``."""
        ranks = _TENS if value == 10 else ("A" if value == 1 else str(value))
        while True:
            card = Card(self.rng.choice(ranks), self.rng.choice(SUITS))
            if card not in avoid:
                return card

    def _up(self, key: str) -> Card:
        return self._card(1 if key == "A" else 10 if key == "T" else int(key))

    def hand(self, kind: str, row: int) -> tuple[Card, Card]:
        """Two cards making a chart row: ``("hard", 16)``, ``("soft", 18)``, ``("pair", 8)``."""
        if kind == "pair":
            first = self._card(row)
            rank = first.rank
            suit = self.rng.choice([s for s in SUITS if s != first.suit])
            return first, Card(rank, suit)
        if kind == "soft":
            return self._card(1), self._card(row - 11)
        lows = [a for a in range(2, 11) if 2 <= row - a <= 10 and a != row - a]
        a = self.rng.choice(lows)
        return self._card(a), self._card(row - a)

    def draw(self) -> Flashcard:
        """The next card."""
        if self.indices:
            return self._index_card(self.rng.choice(self.indices))
        rows = [("hard", t) for t in range(5, 18)]
        rows += [("soft", t) for t in range(13, 21)]
        rows += [("pair", v) for v in range(1, 11)]
        kind, row = self.rng.choice(rows)
        return Flashcard(hand=self.hand(kind, row), up=self._up(self.rng.choice(UPCARDS)))

    def _index_card(self, e: IndexPlay) -> Flashcard:
        tc = e.index + self.rng.randint(-SPREAD, SPREAD)
        row = _row(e)
        assert row is not None
        up = self._up(e.up)
        if row[0] == "insurance":
            hand = self.hand("hard", self.rng.randint(5, 17))
            return Flashcard(hand=hand, up=up, true_count=tc, entries=(e,))
        hand = self.hand(*row)
        entries = entries_for(self.indices, hand, up)
        if row[0] != "pair":  # a pair's play entries are for the split; its total's apart
            entries = tuple(x for x in entries if _row(x) == row)
        return Flashcard(hand=hand, up=up, true_count=tc, entries=entries)


__all__ = [
    "INSURANCE_PLAYS",
    "PLAYS",
    "Flashcard",
    "FlashcardDeck",
    "answer",
    "chart_play",
    "entries_for",
    "grade",
    "legal_plays",
    "load_index_list",
    "parse_play",
]
