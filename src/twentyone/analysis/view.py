"""A readable rich rendering of an :class:`~twentyone.analysis.report.EdgeReport` (built here,
printed by the CLI).

>>> from twentyone.analysis.report import EdgeReport
>>> r = EdgeReport(rules="x", ev_basic=-0.005, ev_optimal=-0.004, by_upcard={},
...                dealer_totals={}, sd=None, side_bets={"insurance": {"A": -0.07}},
...                split_method="CDZ-", seconds=0.1)
>>> type(edge_table(r)).__name__
'Group'
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table

from twentyone.analysis.report import EdgeReport


def _pct(x: float) -> str:
    return f"{100.0 * x:+.4f}%"


#: The report's keys as a player reads them (``edge`` shows no raw keys).
NAMES = {
    "insurance": "insurance",
    "even_money": "even money",
    "blackjack_vs_ace": "a blackjack against an ace",
    "decline": "decline",
    "insure_half": "insure for half the bet",
    "insurance_per_unit": "insurance, per unit insured",
}


def side_bet_name(key: str, kind: str | None = None) -> str:
    """A side-bet row's name: the report key's words, or the table side bet's title.

    >>> side_bet_name("even_money"), side_bet_name("bonus_678_777", "678-777")
    ('even money', '6-7-8 / 7-7-7 bonus')
    >>> side_bet_name("my_bet")
    'my bet'
    """
    from twentyone.engine.sidebets import KINDS

    if kind in KINDS:
        return KINDS[kind].title
    return NAMES.get(key, key.replace("_", " "))


def _line_name(kind: str, line: str) -> str:
    """A side bet's paytable line in words (``first 3 cards aces``)."""
    from twentyone.engine.sidebets import KINDS

    titles = KINDS[kind].line_titles if kind in KINDS else {}
    return titles[line].format(n=line) if line in titles else line


def edge_table(report: EdgeReport) -> Group:
    """Summary, returns by up card, dealer final totals and side bets."""
    head = Table(title=f"Exact analysis: {report.rules}", show_header=False)
    head.add_column("", style="bold")
    head.add_column("", justify="right")
    head.add_row("house edge, basic strategy", f"{-100.0 * report.ev_basic:.4f}%")
    head.add_row("house edge, optimal (by composition)", f"{-100.0 * report.ev_optimal:.4f}%")
    head.add_row("return, basic strategy", _pct(report.ev_basic))
    head.add_row("return, optimal", _pct(report.ev_optimal))
    if report.sd_basic is not None and report.sd_optimal is not None:
        head.add_row("standard deviation per round, basic", f"{report.sd_basic:.6f}")
        head.add_row("standard deviation per round, optimal", f"{report.sd_optimal:.6f}")
    elif report.sd is not None:
        head.add_row("standard deviation per round", f"{report.sd:.4f}")
    head.add_row("boxes", str(report.boxes))
    if report.shoe:
        head.add_row("shoe (A 2 3 4 5 6 7 8 9 T)", " ".join(str(c) for c in report.shoe))
    head.add_row("split hands", report.split_method)
    head.add_row("seconds", f"{report.seconds:.3f}")

    ups = Table(title="By dealer up card")
    for col in ("up", "probability", "basic", "optimal"):
        ups.add_column(col, justify="right")
    for up, row in report.by_upcard.items():
        ups.add_row(up, f"{row['probability']:.4f}", _pct(row["ev_basic"]), _pct(row["ev_optimal"]))

    dealer = Table(title="Dealer final totals (fresh shoe less the up card)")
    dealer.add_column("up", justify="right")
    outcomes = list(next(iter(report.dealer_totals.values()), {}))  # 17..21, bust, blackjack
    for k in outcomes:
        dealer.add_column(k, justify="right")
    for up, dist in report.dealer_totals.items():
        dealer.add_row(up, *(f"{dist[k]:.4f}" for k in outcomes))

    side = Table(title="Side bets (return per unit staked on the bet)")
    side.add_column("bet")
    side.add_column("return", justify="right")
    for name, value in report.side_bets.items():
        if isinstance(value, dict) and "kind" in value:
            ret = value["return"]
            side.add_row(
                side_bet_name(name, str(value["kind"])),
                _pct(float(ret)) if ret is not None else str(value.get("note", "")),
            )
            for line, p in value.get("lines", {}).items():
                said = _line_name(str(value["kind"]), line)
                side.add_row(f"  {said} pays {value['paytable'][line]}", f"p={float(p):.6f}")
        elif isinstance(value, dict):
            for key, x in value.items():
                where = f"up {key}" if key in ("A", "T") else side_bet_name(key)
                side.add_row(f"{side_bet_name(name)} ({where})", _pct(float(x)))
        elif isinstance(value, float):
            side.add_row(side_bet_name(name), _pct(value))
        else:
            side.add_row(side_bet_name(name), str(value))
    parts: list[Table] = [head, ups, dealer, side]
    return Group(*parts)
