"""Trainers, the flashcards: a hand and a dealer's up card (and, for index plays, a true count);
the player names the play and it is graded against the rules' basic-strategy chart or an index
list.

Plain, I/O-free code: ``twentyone train strategy`` and the web page show the card and read
the answer. Basic-strategy cards are drawn evenly over the chart's rows (hard 5 to 17, soft 13
to 20, every pair) and the ten up cards, so every decision comes up, not only the common ones;
the answer is what the chart plays with the actions the rules give a first hand (a chart's
``Dh`` is a hit where the rules refuse that double). Index cards draw an entry of the list and a
true count up to three either side of its index.

An index list is JSON in the shape ``twentyone indices`` writes: a list of entries
``{"hand": "16", "up": "T", "below": "hit", "at_or_above": "stand", "index": 0}`` or an object
with the list under ``"indices"``. Hands: a hard total ``"16"``, ``"soft 18"``, a pair ``"T,T"``
or ``"insurance"``; plays: ``hit``, ``stand``, ``double`` (else hit), ``double-stand`` (else
stand), ``split``, ``surrender``, ``no-surrender`` (the chart's play without surrendering), and
``insure`` / ``no-insurance``.

>>> from twentyone.cards import parse_cards
>>> from twentyone.strategy import Strategy
>>> from twentyone.rulesets import load_rules
>>> rules, chart = load_rules("6D S17 DAS"), Strategy.uniform("S")
>>> card = Flashcard(hand=parse_cards("TS 6D"), up=Card.parse("TH"))
>>> answer(card, rules, chart), grade(card, rules, chart, "h").right
('stand', False)
>>> entry = IndexPlay(hand="16", up="T", below="hit", at_or_above="stand", index=0)
>>> answer(Flashcard(hand=card.hand, up=card.up, true_count=-1, entry=entry), rules, chart)
'hit'
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twentyone.cards import SUITS, Card, hand_total
from twentyone.errors import TrainerError
from twentyone.rules import Rules
from twentyone.strategy import UPCARDS, Strategy, hand_code, resolve, upcard_key
from twentyone.trainer import Mark

#: The plays a flashcard of a hand is answered with, and the key that types each.
PLAYS = ("hit", "stand", "double", "split", "surrender")
#: The answers to an insurance card.
INSURANCE_PLAYS = ("insure", "no-insurance")
KEYS = {"h": "hit", "s": "stand", "d": "double", "p": "split", "r": "surrender"}
KEYS_INSURANCE = {"y": "insure", "i": "insure", "n": "no-insurance"}
#: The plays an index entry may name.
INDEX_PLAYS = ("hit", "stand", "double", "double-stand", "split", "surrender", "no-surrender")
_PLAY_CODE = {"hit": "H", "stand": "S", "double": "Dh", "double-stand": "Ds", "split": "P"}
#: How far either side of an entry's index an index card's true count falls.
SPREAD = 3

_TENS = "TJQK"


@dataclass(frozen=True, kw_only=True)
class IndexPlay:
    """One index: against ``up``, ``hand`` plays ``below`` under a true count of ``index``
    and ``at_or_above`` from it up."""

    hand: str
    up: str
    below: str
    at_or_above: str
    index: int

    def __post_init__(self) -> None:
        problem = _entry_problem(self)
        if problem:
            raise TrainerError("train-index-entry", source="<entry>", n=0, reason=problem)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "up": self.up,
            "below": self.below,
            "at_or_above": self.at_or_above,
            "index": self.index,
        }


def _entry_problem(e: IndexPlay) -> str:
    """What is wrong with an entry, or ``""``."""
    if e.up not in UPCARDS:
        return f"up {e.up!r}: expected one of {' '.join(UPCARDS)}"
    plays = INSURANCE_PLAYS if e.hand == "insurance" else INDEX_PLAYS
    for side in ("below", "at_or_above"):
        if getattr(e, side) not in plays:
            return f"{side}={getattr(e, side)!r}: expected one of {', '.join(plays)}"
    if isinstance(e.index, bool) or not isinstance(e.index, int):
        return f"index={e.index!r}: expected a whole number"
    if e.hand == "insurance":
        return ""
    try:
        _hand_of(e.hand)
    except ValueError:
        return (
            f'hand {e.hand!r}: expected a hard total ("16"), a soft total ("soft 18"), '
            'a pair ("T,T") or "insurance"'
        )
    return ""


def _hand_of(text: str) -> tuple[str, int]:
    """``("hard", 16)``, ``("soft", 18)`` or ``("pair", value)`` (ace 1); ``ValueError``."""
    t = text.strip()
    if t.startswith("soft "):
        total = int(t[5:])
        if 13 <= total <= 20:
            return "soft", total
    elif "," in t:
        a, _, b = t.partition(",")
        if a == b and a in ("A", *UPCARDS):
            return "pair", 1 if a == "A" else 10 if a == "T" else int(a)
    elif t.isdigit() and 5 <= int(t) <= 19:
        return "hard", int(t)
    raise ValueError(text)


def load_index_list(source: str, text: str | None = None) -> tuple[IndexPlay, ...]:
    """The entries of an index list: the JSON ``text`` if given, else the file ``source``.

    >>> plays = load_index_list("x.json", '[{"hand": "16", "up": "T", "below": "hit", '
    ...     '"at_or_above": "stand", "index": 0}]')
    >>> plays[0].at_or_above
    'stand'
    >>> load_index_list("x.json", '[{"hand": "A,7", "up": "6", "below": "hit", '
    ...     '"at_or_above": "double", "index": 1}]')
    Traceback (most recent call last):
    ...
    twentyone.errors.TrainerError: --indices 'x.json', entry 0: hand 'A,7': expected a hard \
total ("16"), a soft total ("soft 18"), a pair ("T,T") or "insurance"
    """
    if text is None:
        try:
            text = Path(source).read_text("utf-8")
        except OSError as exc:
            raise TrainerError(
                "train-indices-file", source=source, reason=exc.strerror or str(exc)
            ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TrainerError("train-indices-file", source=source, reason=f"not JSON: {exc}") from None
    if isinstance(data, dict):
        data = data.get("indices")
    if not isinstance(data, list):
        reason = 'expected a list of entries, or an object with the list under "indices"'
        raise TrainerError("train-indices-file", source=source, reason=reason)
    keys = {"hand", "up", "below", "at_or_above", "index"}
    out = []
    for n, item in enumerate(data):
        if not isinstance(item, dict) or set(item) != keys:
            got = sorted(item) if isinstance(item, dict) else type(item).__name__
            reason = f"expected the keys hand, up, below, at_or_above, index; got {got}"
            raise TrainerError("train-index-entry", source=source, n=n, reason=reason)
        try:
            out.append(IndexPlay(**{k: item[k] for k in keys}))
        except TrainerError as exc:
            reason = str(exc.params["reason"])
            raise TrainerError("train-index-entry", source=source, n=n, reason=reason) from None
    if not out:
        raise TrainerError("train-no-indices", source=source)
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class Flashcard:
    """A hand against an up card; an index card adds the true count and its entry."""

    hand: tuple[Card, ...]
    up: Card
    true_count: int | None = None
    entry: IndexPlay | None = None

    @property
    def insurance(self) -> bool:
        """Whether the card asks about insurance (not a play of the hand)."""
        return self.entry is not None and self.entry.hand == "insurance"

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

    >>> from twentyone.cards import parse_cards
    >>> from twentyone.rulesets import load_rules
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
    if play in INSURANCE_PLAYS:
        return play
    legal = legal_plays(rules, card.hand, card.up)
    if play == "surrender" and "surrender" in legal:
        return "surrender"
    if play in ("surrender", "no-surrender"):
        return chart_play(chart, rules, card.hand, card.up, surrender=False)
    return resolve(_PLAY_CODE[play], legal)


def answer(card: Flashcard, rules: Rules, chart: Strategy) -> str:
    """The right play for ``card``: its index entry's side of the index at its true count,
    else the chart's play."""
    if card.entry is None or card.true_count is None:
        return chart_play(chart, rules, card.hand, card.up)
    e = card.entry
    return _index_side(e.at_or_above if card.true_count >= e.index else e.below, card, rules, chart)


def parse_play(text: str, *, insurance: bool = False) -> str:
    """A play as typed: its name or its key (``h s d p r``; for insurance ``y``/``n``).

    >>> parse_play("D"), parse_play("surrender"), parse_play("n", insurance=True)
    ('double', 'surrender', 'no-insurance')
    >>> parse_play("x")
    Traceback (most recent call last):
    ...
    twentyone.errors.TrainerError: 'x' is not a play: expected one of hit (h), stand (s), \
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
    question = "index" if card.entry is not None else "strategy"
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
        if e.hand == "insurance":
            kind, row = self.rng.choice([("hard", t) for t in range(5, 18)])
        else:
            kind, row = _hand_of(e.hand)
        return Flashcard(hand=self.hand(kind, row), up=self._up(e.up), true_count=tc, entry=e)


__all__ = [
    "INSURANCE_PLAYS",
    "PLAYS",
    "Flashcard",
    "FlashcardDeck",
    "IndexPlay",
    "answer",
    "chart_play",
    "grade",
    "legal_plays",
    "load_index_list",
    "parse_play",
]
