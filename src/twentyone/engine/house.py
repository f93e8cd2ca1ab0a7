"""The house a table belongs to: its name and country, kept as data beside the rules.

A rules TOML file may carry a ``[house]`` table (the shipped presets do): the name players
see on the table and the house's country as an ISO 3166-1 alpha-2 code (the page draws its
flag and names the country in the player's language). It is not a rule: the same rules
dealt by another house play the same game, so :class:`~twentyone.engine.rules.Rules` never sees it.

>>> house_from_toml('name = "x"\\n[house]\\nname = "Bucharest Casino"\\ncountry = "RO"\\n')
House(name='Bucharest Casino', country='RO')
>>> house_from_toml('name = "x"\\n') is None
True
>>> from twentyone.engine.rulesets import load_house
>>> load_house("hu-casino").name
'Budapest Casino'
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from twentyone.engine.errors import RulesError


@dataclass(frozen=True, slots=True, kw_only=True)
class House:
    """A house: its table's name and its country (two capital letters, ISO 3166-1).

    >>> House(name="Lisbon Casino", country="pt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.RulesError: house.country='pt': expected two capital letters ...
    """

    name: str
    country: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not 1 <= len(self.name.strip()) <= 64:
            raise RulesError(
                "bad-house", field="name", value=self.name, expected="a name of 1 to 64 characters"
            )
        if not isinstance(self.country, str) or not re.fullmatch(r"[A-Z]{2}", self.country):
            raise RulesError(
                "bad-house",
                field="country",
                value=self.country,
                expected="two capital letters (ISO 3166-1), such as 'RO'",
            )


def split_house(data: dict[str, Any]) -> tuple[dict[str, Any], House | None]:
    """A rules file's data without its ``[house]`` table, and that table as a :class:`House`.

    >>> split_house({"decks": 6, "house": {"name": "Home", "country": "GB"}})
    ({'decks': 6}, House(name='Home', country='GB'))
    """
    if "house" not in data:
        return data, None
    rest = dict(data)
    table = rest.pop("house")
    if not isinstance(table, dict) or set(table) != {"name", "country"}:
        raise RulesError(
            "bad-house", field="house", value=table, expected="a table with name and country"
        )
    return rest, House(name=table["name"], country=table["country"])


def house_from_toml(text: str) -> House | None:
    """The ``[house]`` of a rules TOML text (None when it has none or is not TOML)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    return split_house(data)[1]
