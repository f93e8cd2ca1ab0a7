"""The PAR sheet of a variant whose round distribution the exact analysis does not compute
(``twentyone par free-bet``, ``par switch``, ``par double-exposure``).

The exact outcome kernels (:mod:`twentyone.analysis.outcomes`) refuse free stakes, ties the
dealer takes, a dealer's 22 that pushes, the hole card face up and the switch; the returns
do not. So such a sheet takes each figure from where it is known, and says which:

- **exact**: the return to player and house edge of the strategy played, the optimum's
  return, the side bets and insurance (:func:`twentyone.analysis.analyze` without
  distributions). Free Bet (``free_doubles``, ``free_splits``, ``dealer_22="push"``):
  ``ev_basic``, the analysis's chart. Double Exposure (``hole_card_up``): the exact return of
  the chart by the dealer's two-card total (:func:`~twentyone.analysis.exposed_chart.
  dealer_total_chart`, the chart a player can hold and the simulator plays); the return of a
  chart per dealer two-card start (``ev_basic``) beside it.
- **analysis** (Blackjack Switch): ``ev_basic`` per hand of a pair
  (:mod:`twentyone.analysis.switch`), exact but for its one approximation (each hand priced
  with its own cards out of the shoe, not the other box's): labelled so, not "exact".
- **simulated**: the distribution of a round's net, the hit, push and loss frequencies, the
  standard deviation and the volatility index, and the largest win and loss seen: a seeded
  simulation of the same play (:func:`twentyone.sim.histogram.net_histogram`), every round
  dealt from a full shoe as the exact figures are (a continuous shuffle), each figure with
  its standard error and the rounds. Its mean is checked against the exact return (``z``).
- **rules' bound**: the largest win and loss a round's rules allow (every hand of
  ``max_hands`` doubled, redoubled where allowed, and won or lost; a free stake wins like the
  player's), derived from the rules, not the play.

At a switch table a round is a pair of boxes and its nets are per initial bet (the pair's
money over its two bets), as its return per hand is. A rule set the simulator refuses (Spanish
21's doubles on three cards or more, redoubles, rescue) is refused by the simulator's own
error naming the field; a rule set whose return the analysis refuses is not a variant sheet.

>>> from twentyone import load_rules
>>> outcomes_simulated(load_rules("free-bet")), outcomes_simulated(load_rules("ro-casino"))
(True, False)
>>> rules_bound(load_rules("free-bet")), rules_bound(load_rules("double-exposure"))
(8.0, 4.0)
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy

#: z for a one-sided 95% / two-sided 90% interval: the volatility index is 1.645 x SD.
Z90 = 1.6448536269514722

#: Rounds simulated for a variant's distribution when none are asked for.
DEFAULT_ROUNDS = 10_000_000

#: Where each of a variant sheet's figures comes from (the keys of its ``sources``).
EXACT = "exact"
ANALYSIS = "analysis, one approximation: see the notes"
SIMULATED = "simulated"
BOUND = "rules' bound"


def outcomes_simulated(rules: Rules) -> bool:
    """Whether the exact analysis refuses the round's distribution for ``rules`` (its
    returns aside): a switch, a face-up hole card, free stakes, ties the dealer takes, a
    dealer's 22 that pushes, or a field it does not price."""
    from twentyone.analysis.context import Context

    try:
        ctx = Context.of(rules)
    except RulesError:
        return True
    return bool(ctx.push22 or ctx.has_free or ctx.has_ties)


def rules_bound(rules: Rules) -> float:
    """The largest net of one round per initial bet the rules allow, in either direction:
    every hand of ``max_hands`` (the simulator's most where unlimited) staked a double,
    redoubled as often as allowed, and won at even money (a 21 bonus's odds where higher, a
    blackjack's where a single hand's payout is more); the largest loss is its negative (a
    free stake is the house's, but a pair of tens splits on the player's money).

    >>> from twentyone import load_rules
    >>> rules_bound(load_rules("6D S17 DAS SPL1 NS"))
    4.0
    """
    from twentyone.sim.encode import MAX_HANDS

    hands = rules.hand_limit or MAX_HANDS
    stake = 2.0 * 2**rules.redoubles
    bonus = [float(odds) for _, odds in (*rules.bonus_21_cards, *rules.bonus_21_678_777)]
    per_hand = max([stake, *bonus])
    return float(max(hands * per_hand, float(rules.blackjack_pays)))


def _played(rules: Rules) -> tuple[Strategy, str, str, float, int]:
    """The strategy the sheet prices and simulates, how the sheet names it, its chart as
    text, its exact return and the boxes of a round (a switch table's pair: 2)."""
    from twentyone.analysis import basic_strategy
    from twentyone.analysis.chart import render

    if rules.hole_card_up:
        from twentyone.analysis.exposed_chart import dealer_total_chart

        chart = dealer_total_chart(rules)
        name = (
            "the chart by the dealer's two-card total derived from the exact analysis (both "
            "dealer cards seen; each cell the code of the dealer starts of that total)"
        )
        return chart.strategy(), name, chart.text(), chart.ev, 1
    boxes = 2 if rules.switch else 1
    strategy = basic_strategy(rules, boxes=boxes)
    name = "basic strategy: the total-dependent chart derived from the exact analysis"
    if rules.switch:
        name += (
            " played on each hand once the pair has kept or switched; the pair switches where "
            "the switched hands return more by that chart"
        )
    text = render(strategy, "text", title=f"Basic strategy: {rules.name}")
    assert isinstance(text, str)  # the text format (png alone is bytes)
    return strategy, name, text, float("nan"), boxes


def variant_sheet(rules: Rules, *, rounds: int = 0, seed: int = 1) -> dict[str, Any]:
    """The PAR sheet's figures of a variant (:func:`outcomes_simulated`) as a JSON-ready
    dict, each figure's source in ``sources`` and the simulated ones' standard errors in
    ``stderr`` (``rounds``: the simulation's rounds, 0: :data:`DEFAULT_ROUNDS`)."""
    from twentyone.analysis import analyze
    from twentyone.sim.encode import encode_rules
    from twentyone.sim.histogram import net_histogram

    encode_rules(rules)  # what the simulator refuses, by name (Spanish 21's doubles)
    rounds = rounds if rounds > 0 else DEFAULT_ROUNDS
    strategy, strategy_name, chart_text, chart_ev, boxes = _played(rules)
    report = analyze(rules, boxes=boxes, outcomes=False)
    ev = report.ev_basic if math.isnan(chart_ev) else chart_ev
    hist = net_histogram(
        replace(rules, shuffle="continuous"), rounds, boxes=boxes, seed=seed, strategy=strategy
    )
    sim = hist.result
    dist = hist.dist()
    sd = sim.sd
    hit = sum(p for net, p in dist.items() if net > 0)
    push = dist.get(0.0, 0.0)
    loss = sum(p for net, p in dist.items() if net < 0)
    returns = ANALYSIS if rules.switch else EXACT
    bound = rules_bound(rules)
    sheet: dict[str, Any] = {
        "rules": rules.name,
        "rule_fields": rules.to_dict(),
        "strategy": strategy_name,
        "chart": chart_text,
        "outcomes": [
            {
                "net": net,
                "probability": p,
                "contribution": net * p,
                "stderr": hist.share_stderr(p),
            }
            for net, p in dist.items()
        ],
        "return_to_player": 1.0 + ev,
        "house_edge": -ev,
        "return_optimal": 1.0 + report.ev_optimal,
        "hit_frequency": hit,
        "push_frequency": push,
        "loss_frequency": loss,
        "sd": sd,
        "volatility_index_90": Z90 * sd,
        "max_win": bound,
        "max_loss": -bound,
        "max_win_seen": max(dist),
        "max_loss_seen": min(dist),
        "side_bets": report.side_bets,
        "insurance": report.side_bets.get("insurance"),
        # the analysis's word on its sd (not priced here) gives way to the simulated one
        "notes": [n for n in report.notes if not n.startswith("sd:")],
        "simulation": {
            "shoe": f"{rules.decks} decks, a full shoe each round (as the exact figures)",
            "rounds": rounds,
            "seed": seed,
            "boxes": boxes,
            "ev": sim.ev,
            "stderr": sim.stderr,
            "sd": sd,
            "z": sim.z(ev),
        },
        "sources": {
            "return_to_player": returns,
            "house_edge": returns,
            "return_optimal": returns,
            "side_bets": EXACT,
            "outcomes": SIMULATED,
            "hit_frequency": SIMULATED,
            "push_frequency": SIMULATED,
            "loss_frequency": SIMULATED,
            "sd": SIMULATED,
            "volatility_index_90": SIMULATED,
            "max_win": BOUND,
            "max_loss": BOUND,
            "max_win_seen": SIMULATED,
            "max_loss_seen": SIMULATED,
        },
        "stderr": {
            "hit_frequency": hist.share_stderr(hit),
            "push_frequency": hist.share_stderr(push),
            "loss_frequency": hist.share_stderr(loss),
            "sd": hist.sd_stderr(),
            "volatility_index_90": Z90 * hist.sd_stderr(),
        },
    }
    if rules.hole_card_up:
        sheet["return_per_start_chart"] = 1.0 + report.ev_basic
        sheet["sources"]["return_per_start_chart"] = EXACT
        sheet["notes"].append(
            "return to player: the exact return of the chart by the dealer's two-card total, "
            "the chart simulated; beside it the return of a chart per dealer start (ev_basic)"
        )
    if rules.switch:
        sheet["notes"].append(
            "a round is a pair of boxes: its nets are per initial bet (the pair's money over "
            "its two bets), the return per hand"
        )
    sheet["notes"].append(
        f"the distribution, frequencies, sd and volatility index: simulated ({rounds:,} rounds, "
        f"seed {seed}, a full shoe each round); the exact analysis does not compute this "
        "variant's distribution; max win and loss: the rules' bound, and the largest seen"
    )
    return sheet


def _pct(x: float) -> str:
    return f"{100.0 * x:.4f}%"


def variant_rows(sheet: dict[str, Any]) -> list[tuple[str, str]]:
    """The figure rows of a variant sheet, each value labelled with its source (and a
    simulated one with its standard error)."""
    src, se = sheet["sources"], sheet["stderr"]
    sim = sheet["simulation"]
    tag = f"simulated, {sim['rounds']:,} rounds"

    def pct(key: str) -> str:
        if key in se:
            return f"{_pct(sheet[key])} +/- {_pct(se[key])} ({tag})"
        return f"{_pct(sheet[key])} ({src[key]})"

    def num(key: str) -> str:
        return f"{sheet[key]:.6f} +/- {se[key]:.6f} ({tag})"

    rows = [
        ("Return to player (the strategy played)", pct("return_to_player")),
        ("House edge", pct("house_edge")),
        ("Return to player (composition-dependent optimum)", pct("return_optimal")),
    ]
    if "return_per_start_chart" in sheet:
        rows.append(("Return to player (a chart per dealer start)", pct("return_per_start_chart")))
    rows += [
        ("Hit frequency (round won)", pct("hit_frequency")),
        ("Push frequency", pct("push_frequency")),
        ("Loss frequency", pct("loss_frequency")),
        ("Standard deviation per round", num("sd")),
        ("Volatility index (90%, 1.645 x SD)", num("volatility_index_90")),
        ("Maximum win per round (initial bets)", f"{sheet['max_win']:g} ({BOUND})"),
        ("Maximum loss per round (initial bets)", f"{sheet['max_loss']:g} ({BOUND})"),
    ]  # fmt: skip
    seen = f"{sheet['max_win_seen']:+g} / {sheet['max_loss_seen']:+g}"
    rows.append(("Largest win / loss seen", f"{seen} ({tag})"))
    return rows
