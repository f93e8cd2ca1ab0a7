"""Payout ratios as the rule files write them: ``'3:2'`` read into a ``Fraction`` and back.

Shared by the rules and the side bets (both read ratios), so neither imports the other for it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from twentyone.engine.errors import RulesError


def to_fraction(value: Any, name: str) -> Fraction:
    """Read a ratio: a ``Fraction``, an int, or a string ``'3:2'``, ``'3/2'`` or ``'0.75'``.

    >>> to_fraction("6:5", "blackjack_pays")
    Fraction(6, 5)
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise _not_a_ratio(value, name)
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value.replace(":", "/").strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise _not_a_ratio(value, name)


def _not_a_ratio(value: Any, name: str) -> RulesError:
    """The error for a value that is no ratio; a payout's hint shows payouts (a ratio's
    '2/3' would read as paying 2 to 3)."""
    if name == "blackjack_pays":
        return RulesError("not-a-payout", field=name, value=value)
    return RulesError("not-a-ratio", field=name, value=value)


def fraction_text(value: Fraction) -> str:
    """``Fraction(3, 2)`` as ``'3:2'``; whole numbers as ``'3'``."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}:{value.denominator}"
    )
