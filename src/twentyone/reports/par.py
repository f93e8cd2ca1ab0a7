"""A PAR sheet (probability and accounting report) of a rule set: what a test lab or an
operator files for a table game (``twentyone par``).

The figures are exact (:func:`twentyone.analysis.analyze`) for one box played by basic
strategy: every outcome of a round with its probability and its part of the return, the
return to player, hit frequency, standard deviation, a 90% volatility index, the largest win,
the side bets and insurance; a seeded simulation of the same play checks them (its z-score
against the exact return).

A variant whose round distribution the exact analysis does not compute (Free Bet, Blackjack
Switch, Double Exposure) gets :func:`~twentyone.reports.par_variants.variant_sheet`: its
returns exact (Switch's per hand, with the analysis's one approximation), its distribution,
frequencies, standard deviation and volatility index simulated with standard errors, every
figure labelled with its source (see :mod:`twentyone.reports.par_variants`).

>>> from twentyone import load_rules
>>> sheet = par_sheet(load_rules("6D S17 DAS SPL0 NS"), rounds=0)
>>> round(sheet["return_to_player"] - 1 + sheet["house_edge"], 12) == 0, sheet["max_win"]
(True, 2.0)
"""

from __future__ import annotations

import html
import json
import math
from typing import Any

from twentyone.analysis.report import EdgeReport
from twentyone.engine.rules import Rules
from twentyone.reports.par_variants import Z90 as Z90  # re-exported: par.Z90 as before


def par_sheet(rules: Rules, *, rounds: int = 0, seed: int = 1) -> dict[str, Any]:
    """The PAR sheet's figures as a JSON-ready dict (``rounds`` simulated; 0: none; a
    variant's sheet: :func:`~twentyone.reports.par_variants.variant_sheet`)."""
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.analysis.chart import render
    from twentyone.reports.par_variants import outcomes_simulated, variant_sheet

    if outcomes_simulated(rules):
        return variant_sheet(rules, rounds=rounds, seed=seed)

    report: EdgeReport = analyze(rules)
    dist = report.outcomes_basic or {}
    sd = report.sd_basic or 0.0
    sheet: dict[str, Any] = {
        "rules": rules.name,
        "rule_fields": rules.to_dict(),
        "strategy": "basic strategy: the total-dependent chart derived from the exact analysis",
        "chart": render(basic_strategy(rules), "text", title=f"Basic strategy: {rules.name}"),
        "outcomes": [
            {"net": net, "probability": p, "contribution": net * p}
            for net, p in dist.items()
            if p > 0
        ],
        "return_to_player": 1.0 + report.ev_basic,
        "house_edge": -report.ev_basic,
        "return_optimal": 1.0 + report.ev_optimal,
        "hit_frequency": sum(p for net, p in dist.items() if net > 0),
        "push_frequency": dist.get(0.0, 0.0),
        "loss_frequency": sum(p for net, p in dist.items() if net < 0),
        "sd": sd,
        "volatility_index_90": Z90 * sd,
        "max_win": max((net for net, p in dist.items() if p > 0), default=0.0),
        "max_loss": min((net for net, p in dist.items() if p > 0), default=0.0),
        "side_bets": report.side_bets,
        "insurance": report.side_bets.get("insurance"),
        "notes": list(report.notes),
        "simulation": None,
    }
    gap = sum(net * p for net, p in dist.items()) - report.ev_basic
    if abs(gap) > 1e-12:
        sheet["notes"].append(
            f"the outcomes' contributions sum to {gap:+.2e} off the exact return (rounds that "
            "reach three hands not matched to their exact moments: see the outcomes note)"
        )
    if rounds > 0:
        from twentyone.sim.runner import simulate

        sim = simulate(rules, rounds, seed=seed, workers=1)
        sheet["simulation"] = {
            "shoe": f"{rules.decks} decks, {rules.shuffle} (the exact figure: a fresh shoe)",
            "rounds": rounds,
            "seed": seed,
            "ev": sim.ev,
            "stderr": sim.stderr,
            "sd": sim.sd,
            "z": sim.z(report.ev_basic),
        }
    return sheet


def _pct(x: float) -> str:
    return f"{100.0 * x:.4f}%"


def _rows(sheet: dict[str, Any]) -> list[tuple[str, str]]:
    from twentyone.reports.par_variants import variant_rows

    variant = "sources" in sheet  # each figure labelled with its source
    exact = " (exact)" if variant else ""
    rows = variant_rows(sheet) if variant else _classic_rows(sheet)
    for name, value in (sheet["insurance"] or {}).items():
        rows.append((f"Insurance against {name}: return per unit", _pct(value) + exact))
    for name, value in sheet["side_bets"].items():
        if name == "insurance":
            continue
        if isinstance(value, dict) and "return" in value:
            ret = value["return"]
            text = f"{value.get('kind', '')}: " + (
                _pct(ret) + " per unit staked" if ret is not None else str(value.get("note", ""))
            )
            text += f" (paytable {json.dumps(value.get('paytable', {}), default=str)})"
        else:
            text = _pct(value) if isinstance(value, float) else json.dumps(value, default=str)
        rows.append((f"Side bet: {name}", text + exact))
    sim = sheet["simulation"]
    if sim is not None:
        rows.append(
            (
                f"Simulation: {sim['rounds']:,} rounds, seed {sim['seed']}, {sim['shoe']}",
                f"return {_pct(sim['ev'])} +/- {_pct(sim['stderr'])}, z = {sim['z']:+.2f}",
            )
        )
    return rows


def _classic_rows(sheet: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        ("Return to player (basic strategy)", _pct(sheet["return_to_player"])),
        ("House edge", _pct(sheet["house_edge"])),
        ("Return to player (composition-dependent optimum)", _pct(sheet["return_optimal"])),
        ("Hit frequency (round won)", _pct(sheet["hit_frequency"])),
        ("Push frequency", _pct(sheet["push_frequency"])),
        ("Loss frequency", _pct(sheet["loss_frequency"])),
        ("Standard deviation per round", f"{sheet['sd']:.6f}"),
        ("Volatility index (90%, 1.645 x SD)", f"{sheet['volatility_index_90']:.6f}"),
        ("Maximum win per round (initial bets)", f"{sheet['max_win']:g}"),
        ("Maximum loss per round (initial bets)", f"{sheet['max_loss']:g}"),
    ]


def _outcomes_head(sheet: dict[str, Any]) -> tuple[str, list[str]]:
    """The outcomes table's heading and columns (a variant's: simulated, with errors)."""
    if "sources" not in sheet:
        return "Outcomes of one round (one box, nets in initial bets)", [
            "net", "probability", "contribution to return"
        ]  # fmt: skip
    sim = sheet["simulation"]
    who = "a pair of boxes, nets per initial bet" if sim["boxes"] == 2 else "one box"
    return (
        f"Outcomes of one round ({who}; simulated: {sim['rounds']:,} rounds, seed {sim['seed']})",
        ["net", "probability", "contribution to return", "standard error"],
    )


def _outcome_cells(o: dict[str, Any]) -> list[str]:
    cells = [f"{o['net']:+g}", f"{o['probability']:.10f}", f"{o['contribution']:+.10f}"]
    return cells + ([f"{o['stderr']:.10f}"] if "stderr" in o else [])


def render_md(sheet: dict[str, Any]) -> str:
    """The sheet as Markdown."""
    out = [f"# PAR sheet: {sheet['rules']}", "", f"Strategy assumed: {sheet['strategy']}.", ""]
    out += ["| figure | value |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in _rows(sheet)]
    head, columns = _outcomes_head(sheet)
    out += ["", f"## {head}", ""]
    out += ["| " + " | ".join(columns) + " |", "|" + "---:|" * len(columns)]
    for o in sheet["outcomes"]:
        out.append("| " + " | ".join(_outcome_cells(o)) + " |")
    total = sum(o["contribution"] for o in sheet["outcomes"])
    out.append(
        f"| total | {sum(o['probability'] for o in sheet['outcomes']):.10f} | {total:+.10f} |"
        + (" |" if len(columns) > 3 else "")
    )
    out += ["", "## Rules", "", "| field | value |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in sheet["rule_fields"].items()]
    out += ["", "## Basic strategy", "", "```", sheet["chart"].rstrip(), "```", ""]
    out += ["Notes:", ""] + [f"- {n}" for n in sheet["notes"]] + [""]
    return "\n".join(out)


def render_html(sheet: dict[str, Any]) -> str:
    """The sheet as one self-contained HTML page."""
    e = html.escape

    def table(head: list[str], rows: list[list[str]]) -> str:
        th = "".join(f"<th>{e(h)}</th>" for h in head)
        body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows)
        return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"

    outcomes = [_outcome_cells(o) for o in sheet["outcomes"]]
    head, columns = _outcomes_head(sheet)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>PAR sheet: {e(sheet['rules'])}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;"
        "padding:.2em .6em;text-align:right}td:first-child{text-align:left}</style>",
        f"</head><body><h1>PAR sheet: {e(sheet['rules'])}</h1>",
        f"<p>Strategy assumed: {e(sheet['strategy'])}.</p>",
        table(["figure", "value"], [list(r) for r in _rows(sheet)]),
        f"<h2>{e(head)}</h2>",
        table(columns, outcomes),
        "<h2>Rules</h2>",
        table(["field", "value"], [[k, str(v)] for k, v in sheet["rule_fields"].items()]),
        f"<h2>Basic strategy</h2><pre>{e(sheet['chart'])}</pre>",
        "<ul>" + "".join(f"<li>{e(n)}</li>" for n in sheet["notes"]) + "</ul>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def render(sheet: dict[str, Any], fmt: str) -> str:
    """``json``, ``md`` or ``html``."""
    if fmt == "json":
        return json.dumps(sheet, indent=1, default=str) + "\n"
    if fmt == "md":
        return render_md(sheet)
    return render_html(sheet)


def volatility_index(sd: float) -> float:
    """The 90% volatility index of a game with standard deviation ``sd`` per round.

    >>> round(volatility_index(1.0), 3)
    1.645
    """
    return Z90 * sd if math.isfinite(sd) else math.nan
