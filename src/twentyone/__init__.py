"""twentyone: blackjack exactly as real houses play it.

>>> from twentyone import Round, BoxBet, StackedShoe, load_rules
>>> rnd = Round(load_rules("hu-casino"), StackedShoe("8S 8D 9H"), [BoxBet("ann", 100)])
>>> rnd.question.actions
('hit', 'stand', 'double', 'split')

The public names are imported when first asked for (PEP 562): ``import twentyone.rulesets``
and an analysis do not import the engine (the round, its bets, replay and settlement: about
50 ms of a new process), while ``from twentyone import Round`` works as before.

>>> import twentyone
>>> sorted(twentyone.__all__) == sorted(set(dir(twentyone)) & set(twentyone.__all__))
True
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from twentyone.bets import verify_bets
    from twentyone.cards import Card, HandTotal, format_cards, hand_total, parse_cards
    from twentyone.errors import (
        BetError,
        CardError,
        IllegalActionError,
        ReplayError,
        RulesError,
        ShoeExhaustedError,
        TwentyOneError,
    )
    from twentyone.hands import BoxBet
    from twentyone.records import Action, Deal, Payment, Peek, Question, Reveal
    from twentyone.replay import replay, round_result, round_to_replay
    from twentyone.round import Round
    from twentyone.rules import Rules
    from twentyone.rulesets import PRESETS, load_rules
    from twentyone.shoe import Shoe, StackedShoe

#: Each public name and the module it comes from (imported on first use: :func:`__getattr__`).
_WHERE = {
    "verify_bets": "bets",
    **dict.fromkeys(("Card", "HandTotal", "format_cards", "hand_total", "parse_cards"), "cards"),
    **dict.fromkeys(
        (
            "BetError",
            "CardError",
            "IllegalActionError",
            "ReplayError",
            "RulesError",
            "ShoeExhaustedError",
            "TwentyOneError",
        ),
        "errors",
    ),
    "BoxBet": "hands",
    **dict.fromkeys(("Action", "Deal", "Payment", "Peek", "Question", "Reveal"), "records"),
    **dict.fromkeys(("replay", "round_result", "round_to_replay"), "replay"),
    "Round": "round",
    "Rules": "rules",
    **dict.fromkeys(("PRESETS", "load_rules"), "rulesets"),
    **dict.fromkeys(("Shoe", "StackedShoe"), "shoe"),
}

__all__ = [
    "PRESETS",
    "Action",
    "BetError",
    "BoxBet",
    "Card",
    "CardError",
    "Deal",
    "HandTotal",
    "IllegalActionError",
    "Payment",
    "Peek",
    "Question",
    "ReplayError",
    "Reveal",
    "Round",
    "Rules",
    "RulesError",
    "Shoe",
    "ShoeExhaustedError",
    "StackedShoe",
    "TwentyOneError",
    "format_cards",
    "hand_total",
    "load_rules",
    "parse_cards",
    "replay",
    "round_result",
    "round_to_replay",
    "verify_bets",
]


class _Package(ModuleType):
    """This package's module: where a submodule shares its name with a public name
    (``twentyone.replay`` and its function ``replay``), the import system's binding of the
    submodule on the package keeps the public name, as when the names were imported here."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and _WHERE.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (then kept in this module)."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'twentyone' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"twentyone.{where}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
