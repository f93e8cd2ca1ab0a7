"""Money as a person reads and types it: integer minor units to text and back.

Money is integer minor units throughout (cents: ``1050`` is 10.50); the terminal, the
table's notices and the rule cards show and read it with :func:`format_money` and
:func:`parse_money`.
"""

from __future__ import annotations

import re

_MONEY = re.compile(r"(\d+)(?:\.(\d*))?|\.(\d+)")


def format_money(units: int, *, sign: bool = False) -> str:
    """Minor units as money with two decimals; ``sign`` adds ``+`` to positive amounts.

    >>> format_money(1050), format_money(-5)
    ('10.50', '-0.05')
    >>> format_money(2500, sign=True), format_money(0, sign=True)
    ('+25.00', '0.00')
    """
    text = f"{abs(units) // 100}.{abs(units) % 100:02d}"
    if units < 0:
        return "-" + text
    return ("+" + text) if sign and units > 0 else text


def parse_money(text: str) -> int:
    """Money as typed (``10``, ``10.5``, ``10.50``) in minor units.

    >>> parse_money("10"), parse_money("10.5"), parse_money(" 0.05 ")
    (1000, 1050, 5)
    >>> parse_money("ten")
    Traceback (most recent call last):
    ...
    ValueError: 'ten' is not an amount: expected money such as 10 or 10.50
    """
    t = text.strip()
    m = _MONEY.fullmatch(t)
    if m is None:
        raise ValueError(f"{t!r} is not an amount: expected money such as 10 or 10.50")
    whole, cents = (m[1], m[2] or "") if m[1] is not None else ("0", m[3])
    if len(cents) > 2:
        raise ValueError(f"{t!r} has more than two decimals: expected money such as 10.50")
    return int(whole) * 100 + int(cents.ljust(2, "0"))
