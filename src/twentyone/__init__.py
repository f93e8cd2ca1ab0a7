"""twentyone: blackjack exactly as real houses play it.

>>> from twentyone import Round, BoxBet, StackedShoe, load_rules
>>> rnd = Round(load_rules("hu-casino"), StackedShoe("8S 8D 9H"), [BoxBet("ann", 100)])
>>> rnd.question.actions
('hit', 'stand', 'double', 'split')

The public names are imported when first asked for (PEP 562): ``import twentyone.engine.rulesets``
and an analysis do not import the engine (the round, its bets, replay and settlement: about
50 ms of a new process), while ``from twentyone import Round`` works as before.

>>> import twentyone
>>> sorted(twentyone.__all__) == sorted(set(dir(twentyone)) & set(twentyone.__all__))
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from twentyone.engine.bets import verify_bets
    from twentyone.engine.cards import Card, HandTotal, format_cards, hand_total, parse_cards
    from twentyone.engine.errors import (
        BetError,
        CardError,
        IllegalActionError,
        ReplayError,
        RulesError,
        ShoeExhaustedError,
        TwentyOneError,
    )
    from twentyone.engine.hands import BoxBet
    from twentyone.engine.records import Action, Deal, Decision, Payment, Peek, Question, Reveal
    from twentyone.engine.replay import replay, round_result, round_to_replay
    from twentyone.engine.round import Round
    from twentyone.engine.rules import Rules
    from twentyone.engine.rulesets import PRESETS, load_rules
    from twentyone.engine.shoe import Shoe, StackedShoe

#: Each public name and the module it comes from (imported on first use: :func:`__getattr__`).
_WHERE = {
    "verify_bets": "engine.bets",
    **dict.fromkeys(
        ("Card", "HandTotal", "format_cards", "hand_total", "parse_cards"), "engine.cards"
    ),
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
        "engine.errors",
    ),
    "BoxBet": "engine.hands",
    **dict.fromkeys(
        ("Action", "Deal", "Decision", "Payment", "Peek", "Question", "Reveal"), "engine.records"
    ),
    **dict.fromkeys(("replay", "round_result", "round_to_replay"), "engine.replay"),
    "Round": "engine.round",
    "Rules": "engine.rules",
    **dict.fromkeys(("PRESETS", "load_rules"), "engine.rulesets"),
    **dict.fromkeys(("Shoe", "StackedShoe"), "engine.shoe"),
}

__all__ = [
    "PRESETS",
    "Action",
    "BetError",
    "BoxBet",
    "Card",
    "CardError",
    "Deal",
    "Decision",
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
