"""The countability audit as Markdown, HTML or JSON (``twentyone audit --format``)."""

from __future__ import annotations

import html
import json
from typing import Any

from twentyone.counting.audit_model import SHOWN, Audit, CounterResult

Table = tuple[list[str], list[list[str]]]


def _pct(x: float) -> str:
    return f"{100.0 * x:+.3f}%"


def _counter_row(name: str, res: CounterResult, bankroll: float) -> list[str]:
    n0 = res.n0
    return [
        name,
        f"`{res.ramp.text()}`",
        f"{res.avg_bet:.2f}",
        f"{res.win_per_100:+.2f}",
        f"{res.sd:.2f}",
        f"{res.di:.2f}",
        f"{res.score:.1f}",
        "never" if n0 is None else f"{n0:,.0f}",
        f"{res.ror(bankroll):.1%}",
    ]


def headline(report: Audit) -> list[str]:
    """One preset's row of the table that compares the presets."""
    s8, s16 = report.spreads[8], report.spreads[16]
    best = report.best
    return [
        report.rules.name,
        report.dealt,
        _pct(report.base_ev),
        f"{s8.win_per_100:+.2f}",
        f"{s8.score:.1f}",
        f"{s16.win_per_100:+.2f}",
        f"{s16.score:.1f}",
        "none" if best is None else f"1-{max(best.ramp.units.values())}",
        "-" if best is None else f"{best.win_per_100:+.2f}",
        *(f"{100 * c.ev:+.2f} ± {100 * c.stderr:.2f}" for c in report.simulated),
    ]


HEADLINE_HEAD = [
    "table",
    "dealt",
    "return, basic strategy",
    "1-8: win/100",
    "1-8: SCORE",
    "1-16: win/100",
    "1-16: SCORE",
    "best spread at 5% RoR",
    "its win/100",
]
#: The headline's columns of a report with the simulated cross-check.
SIMULATED_HEAD = ["1-8: simulated win/100 ± SE", "1-16: simulated win/100 ± SE"]


def tables(report: Audit) -> list[tuple[str, str, Table]]:
    """The report's sections: (title, text before, table)."""
    b = report.bankroll
    counters = [_counter_row(f"1-{m}", res, b) for m, res in report.spreads.items()]
    if report.best is not None:
        top = max(report.best.ramp.units.values())
        counters.append(_counter_row(f"best at RoR {report.ror:.0%}: 1-{top}", report.best, b))
    head_c = ["spread", "ramp (tc:units)", "avg bet", "win/100", "SD", "DI", "SCORE", "N0"]
    head_c.append(f"RoR ({b:g} units)")
    by_tc = [
        [
            f"{tc:+d}",
            f"{report.freq[tc]:.2%}",
            _pct(report.rows[tc].ev_basic),
            _pct(report.rows[tc].ev_i18),
            f"{report.rows[tc].sd:.3f}",
        ]
        for tc in SHOWN
    ]
    shuffles = [
        [name, f"`{res.ramp.text()}`", f"{res.win_per_100:+.2f}", f"{res.score:.1f}"]
        for name, _, res in report.shuffles
    ]
    out = [
        (
            "A counter's results",
            f"Hi-Lo with the Illustrious 18, {report.dealt}, the DI-best ramp for each spread "
            f"(units of the table minimum; win and SD per round in units, win per 100 rounds).",
            (head_c, counters),
        ),
        (
            "Advantage by true count",
            "The round's exact return at the expected shoe of each true count (floored: +2 "
            "means 2 to 3), with the full shoe's basic strategy and with the I18, and how "
            "often each count comes at this table"
            + (
                " (a continuous shuffler: always 0)."
                if report.rules.shuffle == "continuous"
                else "."
            ),
            (["true count", "frequency", "return, basic", "return, I18", "SD"], by_tc),
        ),
        (
            "Shuffle and penetration",
            "The 1-8 counter at the same rules dealt by a continuous shuffler or from a cut "
            "card at each depth.",
            (["dealt", "ramp", "win/100", "SCORE"], shuffles),
        ),
    ]
    if report.simulated:
        sims = [
            [
                c.spread,
                f"`{c.ramp}`",
                f"{c.rounds:,}",
                f"{100 * c.ev:+.2f} ± {100 * c.stderr:.2f}",
                f"{100 * c.model_ev:+.2f}",
                f"{c.z:+.1f}",
                f"{c.sd:.2f} ({c.model_sd:.2f})",
                f"{c.avg_bet:.2f} ({c.model_avg_bet:.2f})",
            ]
            for c in report.simulated
        ]
        head = ["spread", "ramp", "rounds", "simulated win/100 ± SE", "model win/100", "z"]
        head += ["SD: simulated (model)", "avg bet: simulated (model)"]
        seed = report.simulated[0].seed
        out.append(
            (
                "Simulated cross-check",
                "The counting simulation (twentyone.counting.sim_runner) with each spread's ramp "
                f"and this table's generated I18, real shoes dealt as the table deals them, "
                f"the true count exact and floored (seed {seed}); z: the simulated win less "
                "the model's, in standard errors.",
                (head, sims),
            )
        )
    return out


#: What each preset's rulebook leaves open about how the cards are dealt, and what this page
#: assumes instead: (preset, its shuffle, its penetration or None) -> what the rulebook says,
#: what is assumed, and the other reading ("continuous" or a cut card's depth). The pages say
#: so, with what the other reading does to counting (issue 29, item 6).
DEALING_ASSUMED: dict[tuple[str, str, str | None], tuple[str, str]] = {
    ("ro-casino", "continuous", None): (
        "ro.1 says only that a shuffling machine shuffles the six decks, not whether it is a "
        "continuous shuffler or a batch shuffler whose shoe is dealt to a cut card; this page "
        "assumes a continuous shuffler (every round from a full shoe), the preset's setting.",
        "3/4",
    ),
    ("pl-online", "continuous", None): (
        "The pl rulebook says neither how many decks nor how they are shuffled; this page "
        "assumes six decks and an online game's shuffle before every round (a continuous "
        "shuffle), the preset's settings.",
        "3/4",
    ),
    ("pt-casino", "cut-card", "3/4"): (
        "The pt rulebook says neither how many decks nor how deep the shoe is dealt; this page "
        "assumes six decks dealt to a cut card at 3/4, the preset's settings.",
        "continuous",
    ),
    ("hu-casino", "cut-card", "3/4"): (
        'hu.1 says only "several" decks and nothing of the shuffle; this page assumes six '
        "decks dealt to a cut card at 3/4, the preset's settings.",
        "continuous",
    ),
    ("ru-online", "cut-card", "2/3"): (
        "ru.1 deals a six-deck shoe to a cut card at two thirds, but ru.13 has the dealer "
        "shuffle the cards after every round; this page follows ru.1 (a cut card at 2/3), the "
        "preset's setting.",
        "continuous",
    ),
}


def assumptions(report: Audit) -> str | None:
    """What the page assumes where the rulebook leaves the dealing open, and what changes if
    the other reading holds (from the page's own "Shuffle and penetration" figures); None for
    rules that are not a preset as shipped."""
    r = report.rules
    pen = str(r.penetration) if r.shuffle == "cut-card" else None
    known = DEALING_ASSUMED.get((r.name, r.shuffle, pen))
    if known is None:
        return None
    said, other = known
    rows = {name: res for name, _, res in report.shuffles}
    if other == "continuous":
        res = rows["continuous shuffler"]
        what = (
            "If the cards are shuffled before every round instead, every round starts from a "
            "full shoe, the true count is always 0 and counting is worthless: the 1-8 "
            f"counter's win falls to {res.win_per_100:+.2f} per 100 rounds (SCORE "
            f"{res.score:.1f}; the continuous shuffler's row below)."
        )
    else:
        res = rows[f"cut card at {other}"]
        what = (
            f"Counting is worthless under a continuous shuffler (the true count is always 0); "
            f"if the shoe is dealt to a cut card instead, it pays: the 1-8 counter wins "
            f"{res.win_per_100:+.2f} per 100 rounds at {other} (SCORE {res.score:.1f}; the "
            "other depths below)."
        )
    return f"Assumed: {said} {what}"


NOTES = (
    "Method: twentyone.counting.audit (python -m pydoc twentyone.counting.audit): the exact "
    "analysis at the expected shoe of each true count, interpolated between the whole-card "
    "shoes; true counts taken normal, with the spread of a sample drawn without replacement, "
    "over rounds spread evenly to the cut card; risk of ruin from the diffusion formula. "
    "The simulated cross-check (where shown) deals real shoes: twentyone.counting.audit_sim."
)


def render_md(report: Audit) -> str:
    """The audit as Markdown."""
    r = report.rules
    out = [f"# Countability audit: {r.name}", ""]
    out.append(
        f"{r.decks} decks, {report.dealt}; basic strategy's return "
        f"{_pct(report.base_ev)} of the initial bet. Each true count's shoe is analysed "
        f"with {report.decks_left} decks left; the risk of ruin is of a bankroll of "
        f"{report.bankroll:g} units."
    )
    assumed = assumptions(report)
    if assumed is not None:
        out += ["", assumed]
    for title, text, (head, rows) in tables(report):
        out += ["", f"## {title}", "", text, ""]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join("---" for _ in head) + "|")
        out += ["| " + " | ".join(row) + " |" for row in rows]
    out += ["", NOTES, ""]
    return "\n".join(out)


def render_html(report: Audit) -> str:
    """The audit as one self-contained HTML page."""
    e = html.escape
    r = report.rules
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Countability audit: {e(r.name)}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;"
        "padding:.2em .6em;text-align:right}td:first-child{text-align:left}</style>",
        f"</head><body><h1>Countability audit: {e(r.name)}</h1>",
        f"<p>{r.decks} decks, {e(report.dealt)}; basic strategy's return "
        f"{e(_pct(report.base_ev))} of the initial bet.</p>",
    ]
    assumed = assumptions(report)
    if assumed is not None:
        parts.append(f"<p>{e(assumed)}</p>")
    for title, text, (head, rows) in tables(report):
        th = "".join(f"<th>{e(h)}</th>" for h in head)
        body = "".join(
            "<tr>" + "".join(f"<td>{e(c.strip('`'))}</td>" for c in row) + "</tr>" for row in rows
        )
        parts += [f"<h2>{e(title)}</h2>", f"<p>{e(text)}</p>"]
        parts.append(f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>")
    parts += [f"<p>{e(NOTES)}</p>", "</body></html>"]
    return "\n".join(parts) + "\n"


def render_audit(report: Audit, fmt: str) -> str:
    """``md``, ``html`` or ``json``."""
    if fmt == "json":
        data: Any = report.to_json()
        return json.dumps(data) + "\n"
    return render_html(report) if fmt == "html" else render_md(report)
