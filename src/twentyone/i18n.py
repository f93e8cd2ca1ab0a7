"""The players' languages: gettext catalogs, the choice of language, money for the locale.

Six languages: English and the languages of the five rulebooks. The messages live in gettext
catalogs (domain ``twentyone``) under ``twentyone/locale/<lang>/LC_MESSAGES``, managed with
Babel (see ``docs/i18n.md``). English is the source language: its catalog is empty, so every
message reads as written in the code.

>>> translator("ru").gettext("Round net {net}")
'Итог раунда {net}'
>>> choose_language(None, {"LANG": "pl_PL.UTF-8"}), choose_language("HU"), choose_language(None, {})
('pl', 'hu', 'en')
>>> format_money(123_450, "ru") == "1\\u00a0234,50" == format_money(123_450, "pt")
True
>>> format_money(123_450, "ro"), number_locale("pt"), number_locale("ru")
('1.234,50', 'pt_PT', 'ru')
>>> format_money(123_450, "en"), format_money(-5, "ro"), format_money(2500, "en", sign=True)
('1,234.50', '-0,05', '+25.00')
>>> parse_amount("1.234,5", "pt"), parse_amount("10,50", "ru"), parse_amount("10.50", "ro")
(123450, 1050, 1050)
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from decimal import Decimal
from functools import cache
from pathlib import Path

from babel.numbers import format_decimal, get_decimal_symbol

from twentyone.engine.errors import N_, TwentyOneError
from twentyone.engine.money import parse_money

#: The languages with a catalog, English first (the source language).
LANGUAGES = ("en", "ro", "pl", "pt", "hu", "ru")
#: Each language's name in itself, for menus and error messages.
LANGUAGE_NAMES = {
    "en": "English",
    "ro": "Română",
    "pl": "Polski",
    "pt": "Português",
    "hu": "Magyar",
    "ru": "Русский",
}
#: The language of each preset's rulebook (a web table of the preset speaks it by default).
RULEBOOK_LANGUAGES = {
    "ro-casino": "ro",
    "pl-online": "pl",
    "pt-casino": "pt",
    "hu-casino": "hu",
    "ru-online": "ru",
}
#: The gettext domain of every catalog.
DOMAIN = "twentyone"
#: Where the catalogs are installed (package data).
LOCALE_DIR = Path(__file__).parent / "locale"
#: The CLDR locale whose number data a language uses where it is not the language itself:
#: Portuguese here is European (the pt-casino rulebook), and Babel's plain ``pt`` is Brazil's
#: (``5.000,00``); pt_PT groups with U+00A0 NO-BREAK SPACE (``5 000,00``).
NUMBER_LOCALES = {"pt": "pt_PT"}
#: The environment variables read for the language, in gettext's order of precedence.
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class LanguageError(TwentyOneError):
    """A language that has no catalog was asked for."""


def _code(value: str) -> str:
    """``pt_BR.UTF-8`` -> ``pt``; ``ru-RU`` -> ``ru``."""
    return value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()


def check_language(lang: str) -> str:
    """``lang`` as one of :data:`LANGUAGES` (a region is dropped: ``pt_PT`` -> ``pt``).

    >>> check_language("de")
    Traceback (most recent call last):
    ...
    twentyone.i18n.LanguageError: --lang de: no such language; choose one of en (English), \
ro (Română), pl (Polski), pt (Português), hu (Magyar), ru (Русский)
    """
    code = _code(lang)
    if code not in LANGUAGES:
        names = ", ".join(f"{c} ({LANGUAGE_NAMES[c]})" for c in LANGUAGES)
        raise LanguageError("no-such-language", lang=lang, names=names)
    return code


def choose_language(lang: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``lang`` if given (checked), else the first of ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set and names one of :data:`LANGUAGES`
    (``LANGUAGE`` may list several, ``ru:en``), else English. A set variable naming another
    language (``C.UTF-8``, ``de_DE``) is passed over, as gettext does; only ``--lang`` is strict.
    """
    if lang:
        return check_language(lang)
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        for part in env.get(var, "").split(":"):
            code = _code(part)
            if code in LANGUAGES:
                return code
    return "en"


@cache
def translator(lang: str) -> gettext.NullTranslations:
    """The gettext translations of ``lang`` (``gettext``, ``ngettext``, ``pgettext``...).

    English, the source language, gets the messages as written.
    """
    code = check_language(lang)
    if code == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [code])


def describe(err: TwentyOneError, lang: str) -> str:
    """An error's message in ``lang``: its code's template from the catalog, filled with its
    parameters, money formatted for the locale (an error among the parameters is described
    too).

    >>> from twentyone.engine.errors import BetError
    >>> err = BetError("outside-limits", box=1, bet=50, min=100, max=500_000)
    >>> describe(err, "en")
    'box 1: bet 0.50 is outside the table limits 1.00 to 5,000.00'
    >>> describe(err, "ru") == "бокс 1: ставка 0,50 вне лимитов стола от 1,00 до 5\u00a0000,00"
    True
    """
    template = err.template
    values: dict[str, object] = {}
    for name, value in err.params.items():
        if isinstance(value, TwentyOneError):
            value = describe(value, lang)
        elif name in template.money and isinstance(value, int) and not isinstance(value, bool):
            value = format_money(value, lang)
        values[name] = value
    if template.plural is not None:
        count = err.params.get(template.count)
        text = translator(lang).ngettext(
            template.text, template.plural, count if isinstance(count, int) else 2
        )
        return text.format(**values)
    return translator(lang).gettext(template.text).format(**values)


def number_locale(lang: str) -> str:
    """The Babel locale for ``lang``'s numbers and money (:data:`NUMBER_LOCALES`)."""
    code = check_language(lang)
    return NUMBER_LOCALES.get(code, code)


def format_number(value: int, lang: str) -> str:
    """A whole number with the locale's grouping (``12 345`` in ru, ``12,345`` in en)."""
    return format_decimal(value, format="#,##0", locale=number_locale(lang))


def format_money(units: int, lang: str, *, sign: bool = False) -> str:
    """Minor units as money for the locale: two decimals, the locale's decimal and group
    separators (Babel's CLDR data, :func:`number_locale`: ru, pl, hu and pt, as pt_PT, group
    with U+00A0 NO-BREAK SPACE). ``sign`` adds ``+`` to a positive amount.
    """
    text = format_decimal(Decimal(abs(units)) / 100, format="#,##0.00", locale=number_locale(lang))
    if units < 0:
        return "-" + text
    return ("+" + text) if sign and units > 0 else text


def parse_amount(text: str, lang: str) -> int:
    """An amount as a player of ``lang`` types it, in minor units.

    Where the locale's decimal separator is a comma, ``10,50`` is ten and a half and dots and
    spaces group thousands (``1.234,50``, ``1 234,50``); ``10.50`` without a comma is read as
    everywhere else. Raises :class:`ValueError` for what is not an amount.
    """
    value = text.strip()
    if get_decimal_symbol(number_locale(lang)) == "," and "," in value:
        whole, _, frac = value.rpartition(",")
        for group in (".", " ", "\u00a0", "\u202f"):
            whole = whole.replace(group, "")
        value = f"{whole}.{frac}"
    elif lang != "en":
        for group in (" ", "\u00a0", "\u202f"):
            value = value.replace(group, "")
    else:
        value = value.replace(",", "")
    return parse_money(value)


class Words:
    """A language's messages and numbers in one object, for code that speaks several languages
    side by side (the rule card): ``w._("Limits: {lo} - {hi} per box.", lo=..., hi=...)``.

    >>> w = Words("pl")
    >>> w._n("{n} deck", "{n} decks", 5), w.money(500_000) == "5\u00a0000,00"
    ('5 talii', True)
    """

    def __init__(self, lang: str) -> None:
        self.lang = check_language(lang)
        self.tr = translator(self.lang)

    def _(self, message: str, **values: object) -> str:
        """``message`` translated, its ``{named}`` placeholders filled from ``values``."""
        text = self.tr.gettext(message)
        return text.format(**values) if values else text

    def _n(self, singular: str, plural: str, n: int, **values: object) -> str:
        """The plural form for ``n`` of a message (``{n}`` is filled with ``n`` as written)."""
        return self.tr.ngettext(singular, plural, n).format(n=n, **values)

    def _p(self, context: str, message: str, **values: object) -> str:
        """``message`` translated in ``context``: one English word that a language says two
        ways (``_p("rule card heading", "Surrender")`` is a noun; the button's is a verb).

        >>> Words("ru")._p("rule card heading", "Surrender"), Words("ru")._("Surrender")
        ('Капитуляция', 'Сдаться')
        """
        text = self.tr.pgettext(context, message)
        return text.format(**values) if values else text

    def describe(self, err: TwentyOneError) -> str:
        """An error's message in the language (:func:`describe`)."""
        return describe(err, self.lang)

    def money(self, units: int) -> str:
        """Minor units as money for the locale (:func:`format_money`)."""
        return format_money(units, self.lang)

    def number(self, value: int) -> str:
        """A whole number for the locale (:func:`format_number`)."""
        return format_number(value, self.lang)


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "RULEBOOK_LANGUAGES",
    "LanguageError",
    "Words",
    "check_language",
    "choose_language",
    "describe",
    "format_money",
    "format_number",
    "number_locale",
    "parse_amount",
    "translator",
]
