"""The rule card's phrases: money, a payout ratio, a multiple, the up cards, in the card's
language (:class:`~twentyone.i18n.Words`)."""

from __future__ import annotations

from fractions import Fraction

from twentyone.i18n import Words

_EN = Words("en")


def money(units: int, w: Words = _EN) -> str:
    """Minor units as money with two decimals and the locale's thousands separators.

    >>> money(100), money(500_000), money(50), money(123_456_789)
    ('1.00', '5,000.00', '0.50', '1,234,567.89')
    >>> money(500_000, Words("pt")), money(500_000, Words("ro"))
    ('5\xa0000,00', '5.000,00')
    """
    return w.money(units)


def ratio(value: Fraction, w: Words = _EN) -> str:
    """A payout ratio in words: ``3 to 2``; a whole number pays ``to 1``.

    >>> ratio(Fraction(3, 2)), ratio(Fraction(2500)), ratio(Fraction(6, 5))
    ('3 to 2', '2,500 to 1', '6 to 5')
    """
    return w._("{a} to {b}", a=w.number(value.numerator), b=w.number(value.denominator))


def times(value: Fraction, w: Words) -> str:
    """``3 times``; ``5/2 times`` where the multiple is not whole."""
    if value.denominator == 1:
        return w._n("{n} time", "{n} times", value.numerator)
    return w._("{fraction} times", fraction=f"{value.numerator}/{value.denominator}")


def upcards(cards: tuple[str, ...], w: Words) -> str:
    """The up cards that offer insurance (``Rules.insurance_upcards``) in words.

    >>> upcards(("A", "T"), _EN), upcards(("A",), _EN)
    ('an ace or a ten-value card', 'an ace')
    """
    if "A" in cards and "T" in cards:
        return w._("an ace or a ten-value card")
    return w._("an ace") if "A" in cards else w._("a ten-value card")
