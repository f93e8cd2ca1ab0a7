"""Index lists: generated (:mod:`twentyone.counting.index_gen`), shipped for each preset
(``counting/indices/<preset>-hilo.json``), and the named subsets Illustrious 18 and Fab 4.

>>> from twentyone import load_rules
>>> i18 = named_indices(load_rules("ru-online"), "hilo", "I18")
>>> [e for e in i18 if e["hand"] == "16" and e["up"] == "T"]
[{'hand': '16', 'up': 'T', 'below': 'hit', 'at_or_above': 'stand', 'index': 0}]
>>> [d.hand for d in named_decisions("FAB4")]
['14', '15', '15', '15']
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any

from twentyone.counting.count_line import count_line, count_tags, default_decks_left
from twentyone.counting.index_gen import GeneratedIndex, generate
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import PRESETS

SET_NAMES = ("I18", "FAB4", "FULL")
METHODS = ("ev", "risk-averse")
METHOD_NOTE = (
    "ev: each index is where the two plays' exact returns are equal on the expected shoe at "
    "that true count; risk-averse: where their certainty equivalents for a full-Kelly bettor "
    "are (E[X] - f/2 E[X^2], f the Kelly bet at that count)"
)


@dataclass(frozen=True)
class NamedDecision:
    """A decision of a named set: ``hand`` against ``up``, turning on ``play``, with the
    index ``published`` for Hi-Lo, 6 decks, S17, DAS, late surrender (Schlesinger)."""

    name: str
    hand: str
    up: str
    play: str
    published: int

    def matches(self, entry: GeneratedIndex) -> bool:
        """Whether a generated index is this decision."""
        return (
            entry.hand == self.hand
            and entry.up == self.up
            and self.play in (entry.below, entry.at_or_above)
        )


@lru_cache(maxsize=1)
def _sets() -> dict[str, Any]:
    text = resources.files("twentyone.counting").joinpath("named_sets.toml").read_text("utf-8")
    return tomllib.loads(text)


def named_decisions(name: str) -> list[NamedDecision]:
    """The decisions of the set ``"I18"`` or ``"FAB4"``."""
    key = name.upper()
    if key not in ("I18", "FAB4"):
        raise RulesError("not-one-of", field="set", value=name, choices="I18, FAB4")
    return [NamedDecision(key, **row) for row in _sets()[key]]


@dataclass(frozen=True)
class IndexList:
    """Every index of one rule set and count (see :func:`index_list`)."""

    rules: str
    count: str
    method: str
    decks_left: Fraction
    tc_step: float
    entries: tuple[GeneratedIndex, ...]

    def subset(self, name: str) -> list[GeneratedIndex]:
        """The entries of ``"FULL"`` (all), ``"I18"`` or ``"FAB4"`` (in the set's order;
        a decision whose best play never changes within -10..+10 has none)."""
        key = name.upper()
        if key == "FULL":
            return list(self.entries)
        out: list[GeneratedIndex] = []
        for d in named_decisions(key):
            out.extend(e for e in self.entries if d.matches(e))
        return out

    def to_json(self) -> dict[str, Any]:
        """The shipped file's shape: ``indices`` in the index lists' entry shape, and each
        entry's crossover (the true count where its two plays are equal) beside it."""
        return {
            "rules": self.rules,
            "count": self.count,
            "method": self.method,
            "decks_left": str(self.decks_left),
            "tc_step": self.tc_step,
            "indices": [e.to_json() for e in self.entries],
            "crossovers": [round(e.crossover, 3) for e in self.entries],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> IndexList:
        """Read :meth:`to_json`'s shape back."""
        entries = tuple(
            GeneratedIndex(crossover=float(x), **e)
            for e, x in zip(data["indices"], data["crossovers"], strict=True)
        )
        return cls(
            data["rules"],
            data["count"],
            data["method"],
            Fraction(data["decks_left"]),
            float(data["tc_step"]),
            entries,
        )


def shipped_path(preset: str, count: str = "hilo", method: str = "ev") -> str:
    """The package-data name of a preset's shipped list.

    >>> shipped_path("ro-casino"), shipped_path("ro-casino", method="risk-averse")
    ('ro-casino-hilo.json', 'ro-casino-hilo-risk-averse.json')
    """
    return f"{preset}-{count}.json" if method == "ev" else f"{preset}-{count}-{method}.json"


def _shipped(rules: Rules, system: str, decks_left: Fraction, method: str) -> IndexList | None:
    if rules.name not in PRESETS or system != "Hi-Lo":
        return None
    try:
        name = shipped_path(rules.name, method=method)
        got = resources.files("twentyone.counting") / "indices" / name
        data = json.loads(got.read_text("utf-8"))
    except (FileNotFoundError, OSError):
        return None
    lst = IndexList.from_json(data)
    return lst if lst.decks_left == decks_left else None


def index_list(
    rules: Rules,
    count: str = "hilo",
    method: str = "ev",
    *,
    decks_left: Fraction | None = None,
    shipped: bool = True,
    progress: Callable[[str], None] | None = None,
) -> IndexList:
    """The index list of ``rules``: the shipped one for a preset with Hi-Lo (``shipped``),
    otherwise generated (about a minute). ``method``: ``"ev"`` or ``"risk-averse"``
    (:mod:`twentyone.counting.risk_averse`)."""
    if method not in METHODS:
        raise RulesError("not-one-of", field="method", value=method, choices=", ".join(METHODS))
    system, _ = count_tags(count)
    dl = decks_left if decks_left is not None else default_decks_left(rules)
    dl = count_line(count, dl).decks_left
    if shipped:
        got = _shipped(rules, system, dl, method)
        if got is not None:
            return got
    return generated_indices(rules, count, dl, progress, method)


@lru_cache(maxsize=8)
def generated_indices(
    rules: Rules,
    count: str,
    dl: Fraction,
    progress: Callable[[str], None] | None,
    method: str = "ev",
    moments: bool = False,
) -> IndexList:
    line, entries = generate(
        rules, count, decks_left=dl, progress=progress, method=method, moments=moments
    )
    return IndexList(rules.name, line.system, method, dl, line.tc_step, tuple(entries))


def named_indices(rules: Rules, count: str, name: str) -> list[dict[str, Any]]:
    """The entries of the set ``name`` (``"I18"``, ``"FAB4"``, ``"FULL"``) for ``rules`` and
    ``count``, as JSON entries ``{"hand", "up", "below", "at_or_above", "index"}``."""
    if name.upper() not in SET_NAMES:
        raise RulesError("not-one-of", field="set", value=name, choices=", ".join(SET_NAMES))
    return [e.to_json() for e in index_list(rules, count).subset(name)]


def render_md(lst: IndexList, title: str | None = None) -> str:
    """A readable page of one index list: the I18 and Fab 4 beside the published figures,
    then every index by up card."""
    averse = lst.method == "risk-averse"
    kind = " (risk-averse)" if averse else ""
    lines = [f"# {title or f'{lst.count} indices{kind}: {lst.rules}'}", ""]
    opt = " --method risk-averse" if averse else ""
    equal = (
        "the two plays' certainty equivalents for a full-Kelly bettor are equal"
        if averse
        else "the two returns are equal"
    )
    lines.append(
        f"Generated by `twentyone indices {lst.rules} --count hilo{opt}` from the exact "
        f"analysis of the expected shoe at each true count, {lst.decks_left} decks left "
        f"(see [the method](README.md)). At a true count of *index* or more play *at or "
        f"above*, below it *below*; *crossover* is where {equal}."
    )
    for name, label in (("I18", "Illustrious 18"), ("FAB4", "Fab 4 (surrender)")):
        lines += ["", f"## {label}", ""]
        lines.append("| hand | up | below | at or above | index | crossover | published |")
        lines.append("|---|---|---|---|---:|---:|---:|")
        for d in named_decisions(name):
            got = [e for e in lst.entries if d.matches(e)]
            pub = f"{d.published:+d}"
            if not got:
                none = "none: not offered, or no change in -10..+10"
                lines.append(f"| {d.hand} | {d.up} | | {d.play} | {none} | | {pub} |")
            for e in got:
                lines.append(
                    f"| {e.hand} | {e.up} | {e.below} | {e.at_or_above} | {e.index:+d} | "
                    f"{e.crossover:+.2f} | {pub} |"
                )
    lines += ["", "Published: Hi-Lo, 6 decks, S17, DAS, late surrender (Schlesinger, "]
    if averse:
        lines[-1] = "Published (the ev indices): Hi-Lo, 6 decks, S17, DAS, late surrender ("
        lines[-1] += "Schlesinger, "
    lines[-1] += "*Blackjack Attack*); other rules move some of them."
    lines += ["", "## Every index", ""]
    lines.append("| up | hand | below | at or above | index | crossover |")
    lines.append("|---|---|---|---|---:|---:|")
    for e in lst.entries:
        lines.append(
            f"| {e.up} | {e.hand} | {e.below} | {e.at_or_above} | {e.index:+d} | "
            f"{e.crossover:+.2f} |"
        )
    return "\n".join(lines) + "\n"
