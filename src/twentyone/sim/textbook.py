"""A published basic-strategy chart, used by the simulator until the exact analysis supplies
one for the rules at hand (:func:`chart_for`).

:func:`textbook_6d_s17_das` is the Wizard of Odds chart for 4 to 8 decks, dealer stands on
soft 17, double after split allowed, no surrender (https://wizardofodds.com/games/blackjack/
strategy/4-decks/). Pairs that are not split carry their total's code.

>>> chart = textbook_6d_s17_das()
>>> chart.code(total=16, soft=False, up="T"), chart.code(total=18, soft=True, up="9")
('H', 'H')
>>> chart.pair_code(8, "A"), chart.pair_code(9, "7")
('P', 'S')
"""

from __future__ import annotations

import json
from pathlib import Path

from twentyone.engine.errors import TwentyOneError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy

#          2     3     4     5     6     7    8    9    T    A
_HARD = {
    8: "H    H    H    H    H    H    H    H    H    H",
    9: "H    Dh   Dh   Dh   Dh   H    H    H    H    H",
    10: "Dh   Dh   Dh   Dh   Dh   Dh   Dh   Dh   H    H",
    11: "Dh   Dh   Dh   Dh   Dh   Dh   Dh   Dh   Dh   H",
    12: "H    H    S    S    S    H    H    H    H    H",
    13: "S    S    S    S    S    H    H    H    H    H",
    14: "S    S    S    S    S    H    H    H    H    H",
    15: "S    S    S    S    S    H    H    H    H    H",
    16: "S    S    S    S    S    H    H    H    H    H",
    17: "S    S    S    S    S    S    S    S    S    S",
}
_SOFT = {
    12: "H    H    H    H    H    H    H    H    H    H",
    13: "H    H    H    Dh   Dh   H    H    H    H    H",
    14: "H    H    H    Dh   Dh   H    H    H    H    H",
    15: "H    H    Dh   Dh   Dh   H    H    H    H    H",
    16: "H    H    Dh   Dh   Dh   H    H    H    H    H",
    17: "H    Dh   Dh   Dh   Dh   H    H    H    H    H",
    18: "S    Ds   Ds   Ds   Ds   S    S    H    H    H",
    19: "S    S    S    S    S    S    S    S    S    S",
}
_PAIRS = {
    1: "P    P    P    P    P    P    P    P    P    P",
    2: "P    P    P    P    P    P    H    H    H    H",
    3: "P    P    P    P    P    P    H    H    H    H",
    4: "H    H    H    P    P    H    H    H    H    H",
    5: "Dh   Dh   Dh   Dh   Dh   Dh   Dh   Dh   H    H",
    6: "P    P    P    P    P    H    H    H    H    H",
    7: "P    P    P    P    P    P    H    H    H    H",
    8: "P    P    P    P    P    P    P    P    P    P",
    9: "P    P    P    P    P    S    P    P    S    S",
    10: "S    S    S    S    S    S    S    S    S    S",
}


def _row(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def textbook_6d_s17_das() -> Strategy:
    """Basic strategy for 4-8 decks, S17, DAS, no surrender (Wizard of Odds)."""
    hard = {t: _row(_HARD[min(max(t, 8), 17)]) for t in range(4, 22)}
    soft = {t: _row(_SOFT[min(t, 19)]) for t in range(12, 22)}
    pairs = {v: _row(r) for v, r in _PAIRS.items()}
    return Strategy(
        name="4-8 decks S17 DAS NS (wizardofodds.com)",
        hard=hard,
        soft=soft,
        pairs=pairs,
        notes=("https://wizardofodds.com/games/blackjack/strategy/4-decks/",),
    )


#: The basic-strategy charts shipped for the rule sets loaded by name (tools/ship_charts.py).
CHARTS_DIR = Path(__file__).parent / "charts"


def shipped_chart(rules: Rules, boxes: int = 1) -> Strategy | None:
    """The shipped basic strategy of a rule set loaded by name and unchanged, for one box
    (``None`` otherwise: another rule set, or more boxes, which pl.7's one-box split can
    change). It is what the exact analysis derives (tests/test_shipped_charts.py), read
    without loading the analysis."""
    from twentyone.engine.rulesets import SHIPPED, load_rules
    from twentyone.sim.encode import strategy_from_dict

    path = CHARTS_DIR / f"{rules.name}.json"
    if boxes != 1 or rules.name not in SHIPPED or not path.is_file():
        return None
    if load_rules(rules.name) != rules:
        return None
    return strategy_from_dict(json.loads(path.read_text("utf-8")))


def chart_for(
    rules: Rules, boxes: int = 1, by_dealer_total: bool = True
) -> tuple[Strategy, str | None]:
    """The basic strategy for ``rules`` (``None`` note): the shipped chart of a named rule set
    (:func:`shipped_chart`), else from the exact analysis, or, where the analysis is not
    installed or cannot derive it, the textbook chart and a note saying so. Where the hole
    card is dealt face up (``hole_card_up``) and ``by_dealer_total``, the exact analysis's
    chart by the dealer's two-card total
    (:func:`twentyone.analysis.exposed_chart.dealer_total_chart`)."""
    if rules.hole_card_up and by_dealer_total:
        try:
            from twentyone.analysis.exposed_chart import dealer_total_chart
        except ImportError:
            return textbook_6d_s17_das(), (
                "exact analysis not available: playing the textbook 4-8 deck S17 DAS chart"
            )
        return dealer_total_chart(rules, boxes).strategy(), None
    shipped = shipped_chart(rules, boxes)
    if shipped is not None:
        return shipped, None
    try:
        from twentyone.analysis import basic_strategy
    except ImportError:
        return textbook_6d_s17_das(), (
            "exact analysis not available: playing the textbook 4-8 deck S17 DAS chart"
        )
    try:
        chart: Strategy = basic_strategy(rules, boxes=boxes)
    except (TwentyOneError, NotImplementedError) as exc:
        return textbook_6d_s17_das(), (
            f"no basic strategy for these rules ({exc}): playing the textbook 4-8 deck S17 DAS "
            "chart"
        )
    return chart, None
