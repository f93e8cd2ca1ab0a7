"""twentyone: blackjack exactly as real houses play it.

>>> from twentyone import Round, BoxBet, StackedShoe, load_rules
>>> rnd = Round(load_rules("hu-casino"), StackedShoe("8S 8D 9H"), [BoxBet("ann", 100)])
>>> rnd.question.actions
('hit', 'stand', 'double', 'split')
"""

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
