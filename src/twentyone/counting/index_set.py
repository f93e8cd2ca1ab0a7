"""Index plays: where the best play changes with the true count, and the simulator's encoding
of a list of them.

An entry is the JSON object ``{"hand": "16", "up": "T", "below": "hit", "at_or_above":
"stand", "index": 0}``: against the up card ``up``, play ``below`` at a true count under
``index`` and ``at_or_above`` at ``index`` or more. Hands are spelled:

- hard totals as the number, ``"16"`` (4 to 21);
- soft totals as ``"soft 18"`` (12 to 21): the total, whatever cards make it (a soft 18 of
  three cards uses the same index), which ``"A,7"`` could not say;
- pairs as ``"T,T"``, ``"8,8"``, ``"A,A"`` (the pair's split decision);
- ``"insurance"`` with ``up`` ``"A"``, or ``"T"`` for ru.5's insurance against a ten:
  ``below`` is ``"no-insurance"``, ``at_or_above`` is ``"insure"``. A blackjack facing an
  ace takes even money where the rules offer it (else insures) at the same index.

Plays of a hand: ``hit``, ``stand``, ``double`` (double, else hit), ``double-stand``
(double, else stand), ``split`` (pairs only), ``surrender``, ``no-surrender``. An entry with
``surrender`` on one side is a surrender entry: it answers the surrender question wherever the
rules ask it, in play (late or early surrender) or box by box before play (ro.11, ro's
surrender before play: ``{"hand": "16", "up": "T", "below": "no-surrender", "at_or_above":
"surrender", "index": 0}``); when it says not to surrender, its other side is played (or, for
``no-surrender``, the chart or the hand's play entry). A hand may have one play entry and one
surrender entry against an up card (Fab 4's ``15`` against ``T`` and I18's), never two of a
kind.

A file is a JSON list of entries, or an object with ``"indices"`` (the list) and any of
``name``, ``count``, ``rules``, ``source``. ``I18`` and ``FAB4`` name the published Hi-Lo sets
for six decks, S17 (:data:`PUBLISHED`, in ``counting/published/``).

>>> plays = load_indices("I18")
>>> len(plays), plays[1]
(18, IndexPlay(hand='16', up='T', below='hit', at_or_above='stand', index=0))
>>> IndexPlay(hand="A,7", up="6", below="hit", at_or_above="double", index=1)
Traceback (most recent call last):
...
twentyone.engine.errors.CountError: --indices '<entry>', entry 0: hand 'A,7': expected a hard \
total ("16"), a soft total ("soft 18"), a pair ("T,T") or "insurance"
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from twentyone.engine.errors import CountError
from twentyone.sim.encode import K_HARD, K_PAIR, K_SOFT, K_SURRENDER, X_CHART, X_SURRENDER

UPS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
PAIR_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
HAND_PLAYS = ("hit", "stand", "double", "double-stand", "split", "surrender", "no-surrender")
INSURANCE_PLAYS = ("insure", "no-insurance")
#: ``--indices`` names of the shipped sets (files in ``counting/published/``).
PUBLISHED = {"I18": "hilo-i18-6d-s17.json", "FAB4": "hilo-fab4-6d-s17.json"}

# the kernel's codes (chart codes in twentyone.engine.strategy.CODES order, X_SURRENDER,
# X_CHART) and table kinds (K_*) are the simulator's: twentyone.sim.encode
PLAY_CODE = {"hit": 0, "stand": 1, "double": 2, "double-stand": 3, "split": 4}


def parse_hand(hand: str) -> tuple[int, int]:
    """``(kind, row)``: ``K_HARD`` and the total, ``K_SOFT`` and the total, ``K_PAIR`` and the
    pair's value (ace 1, ten-value 10); ``(-1, 0)`` for insurance; ``ValueError`` otherwise.

    >>> parse_hand("16"), parse_hand("soft 18"), parse_hand("T,T"), parse_hand("A,A")
    ((0, 16), (1, 18), (2, 10), (2, 1))
    """
    text = hand.strip()
    if text == "insurance":
        return -1, 0
    if text.startswith("soft "):
        total = int(text[5:])
        if 12 <= total <= 21:
            return K_SOFT, total
        raise ValueError(hand)
    if "," in text:
        a, _, b = text.partition(",")
        a, b = a.strip().upper(), b.strip().upper()
        if a == b and a in PAIR_RANKS:
            return K_PAIR, PAIR_RANKS.index(a) + 1
        raise ValueError(hand)
    total = int(text)
    if 4 <= total <= 21 and text.isdigit():
        return K_HARD, total
    raise ValueError(hand)


@dataclass(frozen=True, kw_only=True)
class IndexPlay:
    """One index play (see the module's text); validates itself."""

    hand: str
    up: str
    below: str
    at_or_above: str
    index: int
    source: str = field(default="<entry>", compare=False, repr=False)  # for errors
    n: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        where = {"source": self.source, "n": self.n}
        try:
            kind, _ = parse_hand(str(self.hand))
        except ValueError:
            raise CountError("index-hand", hand=self.hand, **where) from None
        if self.up not in UPS or (kind == -1 and self.up not in ("A", "T")):
            raise CountError("index-up", up=self.up, **where)
        plays = INSURANCE_PLAYS if kind == -1 else HAND_PLAYS
        for name in ("below", "at_or_above"):
            play = getattr(self, name)
            if play not in plays or (play == "split" and kind != K_PAIR):
                raise CountError(
                    "index-play", field=name, play=play, plays=", ".join(plays), **where
                )
        if kind == -1 and self.below != "no-insurance":
            raise CountError(
                "index-play", field="below", play=self.below, plays="no-insurance", **where
            )
        if kind == -1 and self.at_or_above != "insure":
            raise CountError(
                "index-play", field="at_or_above", play=self.at_or_above, plays="insure", **where
            )
        if (
            kind != -1
            and "no-surrender" in (self.below, self.at_or_above)
            and not self.is_surrender
        ):
            raise CountError(
                "index-play", field="below", play=self.below, plays=", ".join(plays), **where
            )
        if isinstance(self.index, bool) or not isinstance(self.index, int):
            raise CountError("index-number", index=self.index, **where)

    def __repr__(self) -> str:
        return (
            f"IndexPlay(hand={self.hand!r}, up={self.up!r}, below={self.below!r}, "
            f"at_or_above={self.at_or_above!r}, index={self.index})"
        )

    @property
    def is_surrender(self) -> bool:
        """Whether the entry answers the surrender question."""
        return "surrender" in (self.below, self.at_or_above)

    @property
    def is_insurance(self) -> bool:
        return self.hand.strip() == "insurance"

    def play_at(self, tc: int) -> str:
        """The entry's play at true count ``tc``."""
        return self.at_or_above if tc >= self.index else self.below

    def to_dict(self) -> dict[str, Any]:
        """The JSON entry."""
        return {
            "hand": self.hand,
            "up": self.up,
            "below": self.below,
            "at_or_above": self.at_or_above,
            "index": self.index,
        }


def indices_from_data(data: Any, source: str) -> tuple[IndexPlay, ...]:
    """Entries from parsed JSON (a list, or an object with ``indices``), checked: every
    field, and no two entries of a kind for one hand and up card."""
    entries = data.get("indices") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise CountError("index-file", source=source, reason="expected a list of entries")
    keys = {"hand", "up", "below", "at_or_above", "index"}
    out = []
    seen: set[tuple[Any, ...]] = set()
    for n, e in enumerate(entries):
        if not isinstance(e, dict) or set(e) != keys:
            got = sorted(e) if isinstance(e, dict) else type(e).__name__
            raise CountError("index-keys", source=source, n=n, keys=got)
        play = IndexPlay(
            hand=str(e["hand"]).strip(),
            up=str(e["up"]).strip().upper(),
            below=e["below"],
            at_or_above=e["at_or_above"],
            index=e["index"],
            source=source,
            n=n,
        )
        key = (parse_hand(play.hand), play.up, play.is_surrender)
        if key in seen:
            raise CountError("index-twice", source=source, hand=play.hand, up=play.up)
        seen.add(key)
        out.append(play)
    return tuple(out)


def published_text(name: str) -> str:
    """The JSON text of a shipped set (``I18`` or ``FAB4``)."""
    path = PUBLISHED[name.upper()]
    return resources.files("twentyone.counting").joinpath(f"published/{path}").read_text("utf-8")


def load_indices(spec: str, known: str = "I18, FAB4, I18+FAB4") -> tuple[IndexPlay, ...]:
    """``--indices``: ``I18``, ``FAB4``, ``I18+FAB4`` (the shipped published sets, together) or
    a JSON file's path; ``known`` lists the sets the option takes, for the error naming
    neither a set nor a file."""
    names = [s.strip().upper() for s in spec.split("+")]
    if all(n in PUBLISHED for n in names):
        plays: list[IndexPlay] = []
        for n in names:
            plays += indices_from_data(json.loads(published_text(n)), n)
        return tuple(plays)
    try:
        text = Path(spec).read_text("utf-8")
    except FileNotFoundError as exc:
        raise CountError("index-unknown", source=spec, names=known) from exc
    except OSError as exc:
        raise CountError("index-file", source=spec, reason=exc.strerror or str(exc)) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CountError("index-file", source=spec, reason=str(exc)) from exc
    return indices_from_data(data, spec)


IntArray = npt.NDArray[np.int64]

#: Insurance never taken: an index no true count reaches.
NEVER = 1 << 40


def encode_indices(
    plays: tuple[IndexPlay, ...] | list[IndexPlay],
) -> tuple[IntArray, IntArray, IntArray]:
    """The kernel's encoding: ``table[6, 22, 10]`` (kinds hard, soft, pair play entries, then
    the same three for surrender entries; rows the total or the pair's value; columns the up
    cards ``2 .. 9 T A``) holding an entry number or ``-1``; ``entries[n, 3]`` = index, code
    below, code at or above (chart codes ``H S Dh Ds P`` as 0-4, :data:`X_SURRENDER`,
    :data:`X_CHART`); ``insurance[2]``: the index to insure at against an ace and a ten
    (:data:`NEVER` without an entry).

    >>> table, entries, ins = encode_indices(load_indices("I18"))
    >>> int(entries[table[K_HARD, 16, 8], 0]), int(ins[0]), int(ins[1]) == NEVER
    (0, 3, True)
    """
    table = np.full((6, 22, 10), -1, dtype=np.int64)
    entries = np.zeros((max(1, len(plays)), 3), dtype=np.int64)
    insurance = np.array([NEVER, NEVER], dtype=np.int64)

    def code(play: str) -> int:
        if play == "surrender":
            return X_SURRENDER
        if play == "no-surrender":
            return X_CHART
        return PLAY_CODE[play]

    for n, p in enumerate(plays):
        kind, row = parse_hand(p.hand)
        if kind == -1:
            insurance[0 if p.up == "A" else 1] = p.index
            continue
        col = UPS.index(p.up)
        table[kind + (K_SURRENDER if p.is_surrender else 0), row, col] = n
        entries[n] = (p.index, code(p.below), code(p.at_or_above))
    return table, entries, insurance
