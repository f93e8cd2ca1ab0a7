"""Blackjack Switch's switch chart (:mod:`twentyone.analysis.switch_chart`), as
``twentyone strategy`` prints it: the decision read from the printed table is the analysis's
(:func:`twentyone.analysis.switch.switches`), the simulator's (its kernel's ``switch_pair`` over
:func:`twentyone.sim.switch.switch_table`) and the engine's default play's
(:func:`twentyone.engine.strategy.decide` with the chart's returns), pair by pair; and one
decision is worked out by hand from the printed numbers."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from twentyone import BoxBet, StackedShoe, load_rules
from twentyone.analysis import basic_strategy
from twentyone.analysis.context import UPS, up_key
from twentyone.analysis.switch import hand_returns, switch_context, switches
from twentyone.analysis.switch_chart import with_switch
from twentyone.cli import main
from twentyone.engine.round import Round
from twentyone.engine.strategy import UPCARDS, decide
from twentyone.sim.encode import CARD_VALUE
from twentyone.sim.hands import H_C0, H_C1, H_FIELDS, switch_pair
from twentyone.sim.switch import switch_table

SWITCH = load_rules("switch")
LABEL = {1: "A", 10: "T", **{v: str(v) for v in range(2, 10)}}
SUIT = "SHDC"
# (first box, second box, up card): card values in the order dealt, ace 1
PAIRS = [
    ((10, 6), (5, 10), 10),  # T-6 and 5-T against a ten: T-T and 5-6 (11) switched
    ((10, 10), (5, 6), 7),  # T-T and 5-6 kept: a switch makes two stiffs
    ((10, 5), (6, 10), 7),  # T-5 and 6-T against a 7: T-T and 6-5
    ((1, 5), (10, 10), 6),  # A-5 and T-T: a switch makes A-T (a plain 21) and T-5
    ((1, 10), (9, 7), 9),  # a blackjack and 16: switched gives A-7 and 9-T
    ((8, 8), (3, 8), 10),  # 8-8 and 3-8 against a ten: 8-8 again and 3-8
    ((9, 2), (7, 9), 5),  # 9-2 (11) and 7-9 (16): 9-9 and 7-2
    ((2, 3), (4, 5), 2),  # small cards: 2-5 and 4-3
]


def cli_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    assert main(["strategy", "switch", "--format", "json", *extra]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def row_of(table: dict[str, Any], a: int, b: int, made: bool) -> float:
    """A hand's return against the up card column read from the printed JSON, found by its
    label (the higher card first, an ace first); a switched ace-ten from its own row."""
    lo, hi = min(a, b), max(a, b)
    label = f"{LABEL[lo]},{LABEL[hi]}" if lo == 1 else f"{LABEL[hi]},{LABEL[lo]}"
    if made and label in table["switched"]:
        return table["switched"][label]  # type: ignore[no-any-return]
    for part in ("hard", "soft", "pairs"):
        if label in table[part]:
            return table[part][label]  # type: ignore[no-any-return]
    raise AssertionError(label)


def printed_decision(
    table: dict[str, Any], first: tuple[int, int], second: tuple[int, int], up: int
) -> bool:
    col = table["upcards"].index(LABEL[up])
    (a, b), (c, d) = first, second
    keep = row_of(table, a, b, False)[col] + row_of(table, c, d, False)[col]  # type: ignore[index]
    swap = row_of(table, a, d, True)[col] + row_of(table, c, b, True)[col]  # type: ignore[index]
    return bool(swap > keep)


def card(value: int, k: int) -> str:
    return f"{LABEL[value]}{SUIT[k % 4]}"


def kernel_decision(first: tuple[int, int], second: tuple[int, int], up: int) -> bool:
    """The simulator kernel's ``switch_pair`` on two rows holding the hands' cards."""
    index = {int(v): i for i, v in reversed(list(enumerate(CARD_VALUE)))}
    hands = np.zeros((2, H_FIELDS), dtype=np.int64)
    for row, (x, y) in enumerate((first, second)):
        hands[row, H_C0], hands[row, H_C1] = index[x], index[y]
    return bool(switch_pair(hands, 0, 1, switch_table(SWITCH, 2), up))


def engine_decision(first: tuple[int, int], second: tuple[int, int], up: int) -> bool:
    """The engine's default play (the basic chart with the switch's returns) at a stacked
    round: round-robin deal, the hole card a 5 (no dealer blackjack)."""
    (a, b), (c, d) = first, second
    deal = [card(a, 0), card(c, 1), card(up, 2), card(b, 3), card(d, 0), "5D"]
    rnd = Round(SWITCH, StackedShoe(" ".join(deal)), [BoxBet("p", 100), BoxBet("p", 100)])
    q = rnd.question
    assert q is not None and q.kind == "switch", q
    chart = with_switch(basic_strategy(SWITCH), SWITCH)
    return decide(chart, rnd) == "switch"


def test_switch_chart_decision_matches_analysis_simulator_and_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = cli_json(capsys)["switch"]
    ctx = switch_context(SWITCH)
    returns = {u: hand_returns(ctx, u, False) for u in UPS}
    answers = set()
    for first, second, up in PAIRS:
        u = UPS[UP_INDEX[LABEL[up]]]
        printed = printed_decision(table, first, second, up)
        analysed = switches(
            returns[u], (first[0] - 1, first[1] - 1), (second[0] - 1, second[1] - 1)
        )
        assert printed == analysed, (first, second, up)
        assert printed == kernel_decision(first, second, up), (first, second, up)
        assert printed == engine_decision(first, second, up), (first, second, up)
        answers.add(printed)
    assert answers == {True, False}  # both answers among the cases


UP_INDEX = {k: i for i, k in enumerate(up_key(u) for u in UPS)}


def test_switch_chart_decision_by_hand_from_the_printed_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-6 and 5-T against a ten, from the text's four-decimal numbers: keep is T,6 + T,5,
    a switch T,T + 6,5; the switch's two hands return more (T,T alone more than both kept),
    and the text's numbers are the JSON's rounded."""
    assert main(["strategy", "switch"]) == 0
    text = capsys.readouterr().out
    rows = {}
    for line in text.split("Switch or keep")[1].splitlines():
        parts = line.split()
        if len(parts) == 11 and parts[1][0] in "+-":
            rows[parts[0]] = [float(x) for x in parts[1:]]
    t = UPCARDS.index("T")
    keep = rows["T,6"][t] + rows["T,5"][t]
    swap = rows["T,T"][t] + rows["6,5"][t]
    assert keep < 0 < rows["T,T"][t] and swap > keep  # two stiffs against a pair's 20 and 11
    table = cli_json(capsys)["switch"]
    for label in ("T,6", "T,5", "T,T", "6,5"):
        part = next(p for p in ("hard", "pairs") if label in table[p])
        assert rows[label][t] == pytest.approx(table[part][label][t], abs=5e-5)
    assert printed_decision(table, (10, 6), (5, 10), 10)


def test_switch_chart_speaks_the_commands_language(capsys: pytest.CaptureFixture[str]) -> None:
    english = cli_json(capsys)["switch"]["rule"]
    for lang in ("ro", "pl", "pt", "hu", "ru"):
        rule = cli_json(capsys, "--lang", lang)["switch"]["rule"]
        assert rule and rule != english, lang
    assert main(["strategy", "switch", "--lang", "ru"]) == 0
    assert english not in capsys.readouterr().out


def test_chart_without_switch_returns_keeps() -> None:
    """A chart that carries no switch returns (one loaded from a file) keeps every pair."""
    rnd = Round(SWITCH, StackedShoe("TS 5D TH 6C TC 5S"), [BoxBet("p", 100), BoxBet("p", 100)])
    assert decide(basic_strategy(SWITCH), rnd) == "keep"
    assert decide(with_switch(basic_strategy(SWITCH), SWITCH), rnd) == "switch"
