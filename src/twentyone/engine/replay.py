"""Hand histories: a round's log as replay JSON, and replaying such JSON to its result.

A replay names the rules, the cards in the order they left the shoe, the boxes and the
decisions in the order the round asks for them::

    {"rules": "ru-online", "shoe": "TS 9D 7H 5C", "boxes": [{"player": "ann", "bet": 1000}],
     "decisions": ["stand"]}

>>> out = replay({"rules": "ru-online", "shoe": "TS 9D 7H 5C 8H",
...               "boxes": [{"player": "ann", "bet": 1000}], "decisions": ["stand"]})
>>> out["dealer"], out["net"]
({'cards': ['9D', '5C', '8H'], 'total': 22, 'blackjack': False}, {'ann': 1000})
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from twentyone.engine.cards import format_cards, hand_total
from twentyone.engine.errors import ReplayError, RulesError, ShoeExhaustedError, TwentyOneError
from twentyone.engine.hands import BoxBet
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules, rules_from_fields
from twentyone.engine.rulesets import SHIPPED, load_rules
from twentyone.engine.shoe import StackedShoe


def rules_from_spec(spec: Any) -> Rules:
    """A replay's ``rules``: a preset name, TOML path, shorthand, or an inline table of fields."""
    if isinstance(spec, Mapping):
        try:
            return rules_from_fields(dict(spec), "table")
        except RulesError as exc:  # told as the replay's: "rules: table: unknown key 'x'..."
            raise ReplayError("replay-rules", reason=exc) from exc
    if not isinstance(spec, str):
        raise ReplayError("replay-rules-type", value=spec)
    return load_rules(spec)


def rules_spec(rules: Rules) -> str | dict[str, Any]:
    """How a replay names these rules: the preset or shorthand name when it loads back to the
    same rules, otherwise every field inline."""
    return rules.name if _named_by(rules) else rules.to_dict()


@lru_cache(maxsize=64)
def _named_by(rules: Rules) -> bool:
    """Whether ``rules.name`` (a preset or shorthand) loads back to exactly these rules."""
    try:
        return (rules.name in SHIPPED or " " in rules.name) and load_rules(rules.name) == rules
    except TwentyOneError:
        return False


def round_to_replay(rnd: Round) -> dict[str, Any]:
    """The replay JSON of a round (finished or not): it replays to the same state."""
    boxes = []
    for b in rnd.boxes:
        entry: dict[str, Any] = {"player": b.player, "bet": b.bet}
        if b.side_bets:
            entry["side_bets"] = dict(b.side_bets)
        boxes.append(entry)
    out: dict[str, Any] = {
        "rules": rules_spec(rnd.rules),
        "shoe": format_cards(rnd.cards_dealt),
        "boxes": boxes,
        "decisions": rnd.decisions,
    }
    if rnd.bankrolls is not None:
        # what each player could stake decides which actions were offered
        out["bankrolls"] = dict(rnd.bankrolls)
    return out


def round_result(rnd: Round) -> dict[str, Any]:
    """The outcome of a round as JSON-ready data (the dealer's cards as shown so far)."""
    dealer = rnd.dealer_visible
    out_boxes = []
    for b in rnd.boxes:
        hands = []
        for h in b.hands:
            hd: dict[str, Any] = {
                "cards": [str(c) for c in h.cards],
                "bet": h.bet,
                "total": h.total.total,
                "result": h.result,
            }
            if h.switched:
                hd["switched"] = True  # its second card came from its switch partner
            if h.bonus:
                hd["bonus"] = h.bonus
            if h.doubles > 1:
                hd["doubles"] = h.doubles  # redoubled (Rules.redoubles)
            if h.free:
                # the house's stake: won when the hand wins, else simply taken back
                hd["free"] = h.free
                hd["net"] = h.returned + h.bonus - h.bet
            elif h.rescued:
                hd["net"] = h.returned - h.bet  # the original bet lost, the doubles back
            hands.append(hd)
        box: dict[str, Any] = {
            "player": b.player,
            "bet": b.bet,
            "hands": hands,
            "insurance": b.insurance,
        }
        if b.side_bets:
            box["side_bets"] = dict(b.side_bets)
            box["side_paid"] = {k: b.side_paid.get(k, 0) for k in b.side_bets}
        box["net"] = b.net
        out_boxes.append(box)
    return {
        "dealer": {
            "cards": [str(c) for c in dealer],
            "total": hand_total(dealer).total,
            "blackjack": bool(rnd.dealer_blackjack) and rnd.is_over,
        },
        "boxes": out_boxes,
        "net": rnd.net(),
    }


def replay_boxes(data: Any) -> list[BoxBet]:
    if not isinstance(data, list) or not data:
        raise ReplayError("replay-boxes")
    out = []
    for i, b in enumerate(data):
        if not isinstance(b, Mapping) or not isinstance(b.get("player"), str):
            raise ReplayError("replay-box", index=i, value=b)
        bet, sides = b.get("bet"), b.get("side_bets", {})
        if "jackpot" in b:  # the form before side bets were data: the pt-casino jackpot
            sides = {"jackpot": b["jackpot"], **sides} if isinstance(sides, Mapping) else sides
        if not isinstance(bet, int) or not (
            isinstance(sides, Mapping)
            and all(isinstance(k, str) and isinstance(v, int) for k, v in sides.items())
        ):
            raise ReplayError("replay-box-amounts", index=i, bet=bet, sides=sides)
        out.append(BoxBet(b["player"], bet, {k: v for k, v in sides.items() if v}))
    return out


def replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a round from its JSON and return its result (see :func:`round_result`).

    Raises :class:`ReplayError` as :func:`replay_round` does.
    """
    return round_result(replay_round(data))


def replay_round(data: Mapping[str, Any]) -> Round:
    """Replay a round from its JSON and return the finished :class:`Round` (its log tells
    every card and decision).

    Raises :class:`ReplayError` with the index of the decision at fault for an illegal,
    missing or left-over decision or a shoe that runs out.
    """
    if not isinstance(data, Mapping):
        raise ReplayError("replay-not-object")
    for key in ("rules", "shoe", "boxes", "decisions"):
        if key not in data:
            raise ReplayError("replay-missing", key=key)
    decisions = data["decisions"]
    if not isinstance(decisions, list) or not all(isinstance(d, str) for d in decisions):
        raise ReplayError("replay-decisions")
    rules = rules_from_spec(data["rules"])
    bankrolls = data.get("bankrolls")
    if bankrolls is not None and (
        not isinstance(bankrolls, Mapping)
        or not all(isinstance(v, int) and v >= 0 for v in bankrolls.values())
    ):
        raise ReplayError("replay-bankrolls", value=bankrolls)
    index = 0
    rnd: Round | None = None
    try:
        shoe = StackedShoe(data["shoe"], decks=rules.decks, deck=rules.deck)  # as the decks hold
        rnd = Round(rules, shoe, replay_boxes(data["boxes"]), bankrolls)
        for index, decision in enumerate(decisions):
            if rnd.is_over:
                raise ReplayError("left-over-decision", decision=index, text=decision, count=index)
            rnd.apply(decision)
        index = len(decisions)
        if rnd.question is not None:
            raise ReplayError("missing-decision", decision=index, asked=rnd.question.describe())
    except ReplayError:
        raise
    except ShoeExhaustedError as exc:
        if rnd is None:
            raise ReplayError("shoe-too-short-dealing", decision=index, reason=exc) from exc
        text = decisions[index]
        raise ReplayError(
            "shoe-too-short", decision=index, reason=exc, index=index, text=text
        ) from exc
    except TwentyOneError as exc:
        raise ReplayError("replay-refused", decision=index, reason=exc) from exc
    return rnd


def replay_text(text: str) -> dict[str, Any]:
    """Replay from JSON text."""
    return round_result(replay_text_round(text))


def replay_text_round(text: str) -> Round:
    """Replay from JSON text, to the finished :class:`Round`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError("replay-json", reason=str(exc)) from exc
    return replay_round(data)
