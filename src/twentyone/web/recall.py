"""A round's recall as one player may see it: their own bankroll, nobody else's.

A replay names each player's bankroll because what a player could stake decided which
questions the round asked (an insurance a player cannot cover is not offered). Another
player's wallet is private, so it is replaced by the least amount, doubling from what that
player staked in the round, with which the replay still plays to the same result: at most
"at least what they staked", never their balance.

>>> data = {"rules": "ru-online", "shoe": "TS 9D 7H 8C 5S 6S TD",
...         "boxes": [{"player": "ann", "bet": 1000}, {"player": "bob", "bet": 500}],
...         "decisions": ["stand", "stand"], "bankrolls": {"ann": 90000, "bob": 123456}}
>>> private_replay(data, "ann")["bankrolls"]
{'ann': 90000, 'bob': 500}
"""

from __future__ import annotations

from typing import Any

from twentyone.engine.errors import TwentyOneError
from twentyone.engine.replay import replay, replay_boxes, rules_from_spec
from twentyone.engine.round import Round
from twentyone.engine.shoe import StackedShoe


def _result(data: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return replay(data)
    except TwentyOneError:
        return None


def private_replay(data: dict[str, Any], player: str) -> dict[str, Any]:
    """``data`` with every other player's bankroll hidden as described above."""
    bankrolls = data.get("bankrolls")
    if not isinstance(bankrolls, dict) or set(bankrolls) <= {player}:
        return data
    want = _result(data)
    if want is None:  # nothing to compare with: show only the player's own
        return {**data, "bankrolls": {k: v for k, v in bankrolls.items() if k == player}}
    staked: dict[str, int] = {}
    for box in want["boxes"]:
        spent = sum(h["bet"] for h in box["hands"]) + box.get("insurance", 0)
        spent += sum(box.get("side_bets", {}).values()) + box.get("jackpot", 0)
        staked[box["player"]] = staked.get(box["player"], 0) + spent
    shown = dict(bankrolls)
    for other, actual in bankrolls.items():
        if other == player:
            continue
        amount = max(staked.get(other, 0), 1)
        while amount < actual:
            if _result({**data, "bankrolls": {**shown, other: amount}}) == want:
                break
            amount *= 2
        shown[other] = min(amount, actual)
    return {**data, "bankrolls": shown}


def decision_steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each decision of a round's replay with where it was taken, for recall to show: the
    question's ``kind`` (play, insurance, even-money, surrender), the ``player``, the
    ``box`` and ``hand`` (from 0, in the round's order of boxes), the hand's ``cards`` and
    the dealer's shown cards when it was asked, and the ``decision``. Empty for a replay
    that does not play (an old or damaged record).

    >>> data = {"rules": "ru-online", "shoe": "TS 9D 7H 8C 5S 6S TD",
    ...         "boxes": [{"player": "ann", "bet": 1000}, {"player": "bob", "bet": 500}],
    ...         "decisions": ["stand", "stand"]}
    >>> steps = decision_steps(data)
    >>> [(s["player"], s["box"], s["hand"], s["cards"], s["decision"]) for s in steps]
    [('ann', 0, 0, ['TS', '8C'], 'stand'), ('bob', 1, 0, ['9D', '5S'], 'stand')]
    """
    try:
        rules = rules_from_spec(data["rules"])
        rnd = Round(
            rules, StackedShoe(data["shoe"]), replay_boxes(data["boxes"]), data.get("bankrolls")
        )
        steps = []
        for decision in data["decisions"]:
            q = rnd.question
            if q is None:
                return []
            box = rnd.boxes[q.box]
            hand = box.hands[q.hand] if q.hand < len(box.hands) else None
            steps.append(
                {
                    "kind": q.kind,
                    "player": box.player,
                    "box": q.box,
                    "hand": q.hand,
                    "cards": [str(c) for c in hand.cards] if hand else [],
                    "dealer": [str(c) for c in rnd.dealer_visible],
                    "decision": decision,
                }
            )
            rnd.apply(decision)
        return steps
    except (TwentyOneError, KeyError, TypeError, ValueError):
        return []
