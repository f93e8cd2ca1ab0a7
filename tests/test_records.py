"""The round's records: a player's decision is a typed :class:`Decision` in the log, and the
replay JSON keeps its strings."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twentyone import BoxBet, Decision, Round, StackedShoe, load_rules, round_to_replay
from twentyone.engine.records import DECISION_NAMES, Action
from twentyone.engine.replay import replay_round


def _doubled_round() -> Round:
    # ro-casino: 6♠ + 5♥ against a 9 up: double for 600 of a 1000 bet (ro.15: for less), then
    # the cards run out into the dealer's hand.
    shoe = StackedShoe("6S 9D 5H TC 8C 7D 7S")
    rnd = Round(load_rules("ro-casino"), shoe, [BoxBet("ann", 1000)])
    while rnd.question is not None and rnd.question.kind != "play":
        rnd.apply(rnd.question.actions[-1])
    rnd.apply("double:600")
    return rnd


def test_a_decision_in_the_log_is_a_typed_value_with_its_amount() -> None:
    rnd = _doubled_round()
    act = next(r for r in rnd.log if isinstance(r, Action) and r.kind == "play")
    assert act.decision == Decision("double", 600)
    assert (act.decision.name, act.decision.amount, act.amount) == ("double", 600, 600)


def test_the_replay_json_keeps_the_decisions_spelling() -> None:
    rnd = _doubled_round()
    data = json.loads(json.dumps(round_to_replay(rnd)))
    assert "double:600" in data["decisions"]
    assert all(isinstance(d, str) for d in data["decisions"])
    again = replay_round(data)
    assert again.net() == rnd.net() and again.log == rnd.log


def test_a_round_takes_a_decision_value_as_its_spelling() -> None:
    by_text = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 8C"), [BoxBet("ann", 1000)])
    by_value = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 8C"), [BoxBet("ann", 1000)])
    assert by_text.apply("stand") == by_value.apply(Decision("stand"))


@given(st.sampled_from(DECISION_NAMES), st.none() | st.integers(0, 10**9))
def test_a_decision_reads_back_from_its_spelling(name: str, amount: int | None) -> None:
    if amount is not None and name not in ("double", "insure"):
        with pytest.raises(ValueError, match="only double and insure take an amount"):
            Decision(name, amount)  # type: ignore[arg-type]
        return
    decision = Decision(name, amount)  # type: ignore[arg-type]
    assert Decision.parse(str(decision)) == decision


@pytest.mark.parametrize("text", ["fold", "double:", "double:x", "insure:-5", ""])
def test_a_bad_decision_names_what_was_typed_and_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError) as err:
        Decision.parse(text)
    assert repr(text) in str(err.value) and "expected one of hit, stand" in str(err.value)
