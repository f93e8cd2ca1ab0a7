"""Bet ramps: how many units a counter bets at each true count.

A ramp is a list of ``tc:units`` pairs with rising true counts, ``"0:1 1:2 2:4 3:8 4:12"``:
at a true count of ``tc`` or more the counter bets that pair's units (the last pair whose
``tc`` is reached); below the first pair, the first pair's units; ``0`` units means sitting
the round out. A TOML file holds the same pairs::

    steps = [[0, 1], [1, 2], [2, 4], [3, 8], [4, 12]]   # or: ramp = "0:1 1:2 2:4 3:8 4:12"

>>> r = parse_ramp("0:1 1:2 2:4 3:8 4:12")
>>> [r.units(tc) for tc in (-3, 0, 1, 3, 9)]
[1, 1, 2, 8, 12]
>>> parse_ramp("-1:0 1:1 3:4").units(-1), parse_ramp("-1:0 1:1 3:4").units(0)
(0, 0)
>>> parse_ramp("1:2 x:4")
Traceback (most recent call last):
...
twentyone.engine.errors.CountError: --ramp '1:2 x:4': 'x:4' is not tc:units in whole numbers, \
units 0 or more (e.g. 2:4)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from twentyone.engine.errors import CountError


@dataclass(frozen=True, kw_only=True)
class Ramp:
    """``steps``: ``(tc, units)`` pairs, true counts rising, units whole and ``>= 0``."""

    steps: tuple[tuple[int, int], ...]
    text: str = ""

    def __post_init__(self) -> None:
        shown = self.text or " ".join(f"{t}:{u}" for t, u in self.steps)
        if not self.steps:
            raise CountError("ramp-empty", text=shown)
        for tc, units in self.steps:
            if (
                isinstance(tc, bool)
                or isinstance(units, bool)
                or not isinstance(tc, int)
                or not isinstance(units, int)
                or units < 0
            ):
                raise CountError("ramp-pair", text=shown, pair=f"{tc}:{units}")
        tcs = [t for t, _ in self.steps]
        if any(b <= a for a, b in pairwise(tcs)):
            raise CountError("ramp-order", text=shown, tcs=" ".join(map(str, tcs)))
        if not self.text:
            object.__setattr__(self, "text", shown)

    def units(self, tc: int) -> int:
        """The units bet at true count ``tc``."""
        units = self.steps[0][1]
        for t, u in self.steps:
            if tc >= t:
                units = u
        return units

    @property
    def spread(self) -> str:
        """The smallest and largest positive bet, e.g. ``1-12``."""
        bets = [u for _, u in self.steps if u > 0]
        return f"{min(bets)}-{max(bets)}" if bets else "0"

    def table(self, lo: int, hi: int) -> list[int]:
        """``units(tc)`` for ``tc`` from ``lo`` to ``hi`` (the kernel's lookup)."""
        return [self.units(t) for t in range(lo, hi + 1)]


def parse_ramp(text: str) -> Ramp:
    """A ramp from ``"tc:units tc:units ..."`` (spaces or commas between pairs)."""
    pairs = text.replace(",", " ").split()
    if not pairs:
        raise CountError("ramp-empty", text=text)
    steps = []
    for pair in pairs:
        tc, sep, units = pair.partition(":")
        try:
            if not sep:
                raise ValueError(pair)
            t, u = int(tc), int(units)
        except ValueError:
            raise CountError("ramp-pair", text=text, pair=pair) from None
        if u < 0:
            raise CountError("ramp-pair", text=text, pair=pair)
        steps.append((t, u))
    return Ramp(steps=tuple(steps), text=text)


def ramp_from_toml(text: str, source: str) -> Ramp:
    """A ramp from TOML text: ``steps = [[tc, units], ...]`` or ``ramp = "tc:units ..."``."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CountError("ramp-file", source=source, reason=str(exc)) from exc
    if "ramp" in data and isinstance(data["ramp"], str):
        return parse_ramp(data["ramp"])
    steps = data.get("steps")
    if not isinstance(steps, list) or not all(isinstance(s, list) and len(s) == 2 for s in steps):
        raise CountError("ramp-empty", text=source)
    return Ramp(steps=tuple((s[0], s[1]) for s in steps), text=source)


def load_ramp(spec: str) -> Ramp:
    """``--ramp``: a TOML file's path (ending ``.toml``) or the pairs themselves."""
    if spec.strip().endswith(".toml"):
        try:
            text = Path(spec).read_text("utf-8")
        except OSError as exc:
            raise CountError("ramp-file", source=spec, reason=exc.strerror or str(exc)) from exc
        return ramp_from_toml(text, spec)
    return parse_ramp(spec)
