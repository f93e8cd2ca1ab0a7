"""Where rule sets come from: the shipped presets, TOML files, and the analysts' shorthand.

Anywhere a rule set is taken, :func:`load_rules` accepts a preset name, a path to a TOML file
or a shorthand string.

>>> load_rules("ru-online").insurance_upcards
('A', 'T')
>>> r = load_rules("6D H17 D10 NDAS SPL1 LS BJ6:5")
>>> (r.decks, r.dealer_hits_soft_17, r.double_on, r.double_after_split, r.max_hands,
...  r.surrender, r.blackjack_pays)
(6, True, '10-11', False, 2, 'late', Fraction(6, 5))
>>> load_rules("6D XYZ")
Traceback (most recent call last):
...
twentyone.engine.errors.RulesError: unknown shorthand token 'XYZ' in '6D XYZ': expected <n>D, \
S17|H17|H17C<n>, DOA|D9|D10, DAS|NDAS, SPL0-3|SPLU, RSA, HSA, NS|LS|ES, ENHC|OBO, BJ<a>:<b>, \
CSM|PEN<p>, DFL, P22
>>> load_rules("6D H17 P22").dealer_22
'push'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from twentyone.engine.errors import RulesError
from twentyone.engine.rules import MOST_HANDS, Rules, rules_from_fields, to_fraction

if TYPE_CHECKING:
    from twentyone.engine.house import House

PRESETS = ("ro-casino", "pl-online", "pt-casino", "hu-casino", "ru-online")
#: The commercial variants shipped as rule files beside the five rulebooks' presets (each cites
#: the published rule sheet of the standard game): loaded by name as the presets are.
VARIANTS = ("free-bet", "double-exposure", "switch", "spanish-21")
#: Every rule set loaded by name.
SHIPPED = PRESETS + VARIANTS

_TOKENS_HELP = (
    "<n>D, S17|H17|H17C<n>, DOA|D9|D10, DAS|NDAS, SPL0-3|SPLU, RSA, HSA, NS|LS|ES, ENHC|OBO, "
    "BJ<a>:<b>, CSM|PEN<p>, DFL, P22"
)


def preset_text(name: str) -> str:
    """The TOML source of a shipped preset, comments and all."""
    if name not in SHIPPED:
        raise RulesError("unknown-preset", name=name, presets=", ".join(SHIPPED))
    # a plain file beside this module (as the catalogs are: twentyone.i18n.LOCALE_DIR), not
    # importlib.resources, whose import a new process would pay for this one read
    return (Path(__file__).parent / "presets" / f"{name}.toml").read_text("utf-8")


def rules_from_toml(text: str, source: str = "<toml>", name: str | None = None) -> Rules:
    """Build rules from TOML text; unknown keys and bad values are errors naming them.
    ``name`` names rules whose text has no ``name`` of its own (default ``custom``)."""
    import tomllib  # here: shorthand rules need no TOML parser (about 5 ms to import)

    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError("bad-toml", source=source, reason=str(exc)) from exc
    from twentyone.engine.house import split_house

    data = split_house(data)[0]  # the house is not a rule (twentyone.engine.house)
    if name is not None:
        data.setdefault("name", name)
    return rules_from_fields(data, source)


def parse_shorthand(text: str) -> Rules:
    """Rules from the analysts' shorthand, e.g. ``"6D S17 DAS SPL3 RSA LS"``.

    ``SPL<k>``: up to k splits (k + 1 hands, k from 0 to 3), ``SPLU``: no limit.
    Tokens left out take the common defaults (S17, DOA, DAS, SPL3, one card to split aces, NS,
    a peeking hole-card dealer, BJ3:2, PEN0.75, insurance on an ace and even money, a dealer's
    22 busts). ``P22``: a dealer's 22 pushes every hand still standing.
    """
    values: dict[str, Any] = {"name": " ".join(text.split())}
    said: dict[str, str] = {}  # field -> the token that set it
    for token in text.upper().split():
        got: dict[str, Any] = {}
        if m := re.fullmatch(r"(\d+)D", token):
            got["decks"] = int(m[1])
        elif token in ("S17", "H17"):
            got["dealer_hits_soft_17"] = token == "H17"
        elif m := re.fullmatch(r"H17C(\d+)", token):  # hits a soft 17 of <n> cards or more
            got["dealer_hits_soft_17"] = True
            got["dealer_hits_soft_17_min_cards"] = int(m[1])
        elif token in ("DOA", "D9", "D10"):
            got["double_on"] = {"DOA": "any", "D9": "9-11", "D10": "10-11"}[token]
        elif token in ("DAS", "NDAS"):
            got["double_after_split"] = token == "DAS"
        elif m := re.fullmatch(r"SPL(\d+|U)", token):  # k splits: k + 1 hands; U: no limit
            if m[1] != "U" and not 0 <= int(m[1]) < MOST_HANDS:
                raise RulesError("bad-split-token", token=token)
            got["max_hands"] = "unlimited" if m[1] == "U" else int(m[1]) + 1
        elif token == "RSA":
            got["resplit_aces"] = True
        elif token == "HSA":
            got["hit_split_aces"] = True
        elif token in ("NS", "LS", "ES"):
            got["surrender"] = {"NS": "none", "LS": "late", "ES": "early"}[token]
        elif token in ("ENHC", "OBO"):
            got.update(
                hole_card=False,
                peek=False,
                dealer_blackjack_takes="all" if token == "ENHC" else "original",
            )
        elif m := re.fullmatch(r"BJ(\d+):(\d+)", token):
            got["blackjack_pays"] = to_fraction(f"{m[1]}:{m[2]}", "blackjack_pays")
        elif token == "CSM":
            got["shuffle"] = "continuous"
        elif m := re.fullmatch(r"PEN(0?\.\d+|\d+/\d+)", token):
            got["shuffle"] = "cut-card"
            got["penetration"] = to_fraction(m[1], "penetration")
        elif token == "P22":
            got["dealer_22"] = "push"
        elif token == "DFL":
            got["double_for_less"] = True
        else:
            raise RulesError("unknown-token", token=token, text=text, expected=_TOKENS_HELP)
        for field in got:
            if said.get(field, token) != token:  # "6D S17 H17": two answers to one question
                raise RulesError("contradictory-tokens", text=text, first=said[field], second=token)
            said[field] = token
        values.update(got)
    if "decks" not in values:
        raise RulesError("no-deck-count", text=text)
    return Rules(**values)


def load_rules(spec: str | Path | Rules) -> Rules:
    """A preset name, a TOML file path, or shorthand; a :class:`Rules` passes through.

    A rule file is named by its own ``name``, else by its file name without ``.toml``; a file
    that keeps a preset's name but changes its rules (a copied preset) is named by its file
    name too, so that no report calls a house's rules the preset's.
    """
    if isinstance(spec, Rules):
        return spec
    text = str(spec).strip()
    if text in SHIPPED:
        return rules_from_toml(preset_text(text), text)
    path = Path(text)
    if text.endswith(".toml") or (path.suffix and path.exists()):
        try:
            content = path.read_text("utf-8")
        except OSError as exc:
            raise RulesError("unreadable-rules-file", path=text, reason=exc.strerror) from exc
        return _own_name(rules_from_toml(content, text, name=path.stem), path)
    if not text:
        raise RulesError("empty-rules")
    if " " in text or re.fullmatch(r"\d+D", text.upper()):
        return parse_shorthand(text)
    raise RulesError("bad-rules-spec", text=text, presets=", ".join(SHIPPED))


def _own_name(rules: Rules, path: Path) -> Rules:
    """Rules read from ``path`` renamed after the file when they carry a preset's name but
    are not that preset's rules (a preset copied and changed)."""
    if rules.name not in PRESETS or rules == load_rules(rules.name):
        return rules
    return rules.replace(name=path.name if path.stem in PRESETS else path.stem)


def load_house(spec: str | Path) -> House | None:
    """The house of a preset or a rules TOML file (None for shorthand or a file without one)."""
    from twentyone.engine.house import house_from_toml

    text = str(spec).strip()
    if text in SHIPPED:
        return house_from_toml(preset_text(text))
    path = Path(text)
    if text.endswith(".toml") and path.is_file():
        try:
            return house_from_toml(path.read_text("utf-8"))
        except OSError:
            return None
    return None
