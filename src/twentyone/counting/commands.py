"""The ``twentyone indices`` and ``twentyone audit`` commands (their options and what they
print), kept here so the main command file only registers them."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import Any


def _cmd_indices(args: argparse.Namespace) -> int:
    from twentyone.counting.indices import SET_NAMES, index_list, render_md
    from twentyone.engine.errors import RulesError
    from twentyone.engine.rulesets import load_rules

    rules = load_rules(args.rules)
    key = args.set.upper()
    if key not in SET_NAMES:
        raise RulesError("not-one-of", field="--set", value=args.set, choices=", ".join(SET_NAMES))
    dl = Fraction(args.decks_left).limit_denominator(4) if args.decks_left else None

    def tell(up: str) -> None:
        print(f"  up card {up}...", file=sys.stderr, flush=True)

    shipped = dl is None
    lst = index_list(rules, args.count, args.method, decks_left=dl, shipped=shipped, progress=tell)
    entries = lst.subset(key)
    if args.json:
        print(json.dumps([e.to_json() for e in entries]))
        return 0
    if args.format == "md":
        print(render_md(lst), end="")
        return 0
    print(f"{lst.count} indices, {lst.rules} ({key}; {lst.method}; {lst.decks_left} decks left)")
    print(f"  {'up':3} {'hand':9} {'below':12} {'at or above':12} {'index':>5} {'crossover':>9}")
    for e in entries:
        print(
            f"  {e.up:3} {e.hand:9} {e.below:12} {e.at_or_above:12} {e.index:+5d} "
            f"{e.crossover:+9.2f}"
        )
    return 0


def _cmd_audit(args: argparse.Namespace) -> int:
    from twentyone.counting.audit import audit, render
    from twentyone.engine.rulesets import load_rules

    if args.rounds < 0:
        from twentyone.engine.errors import CountError

        raise CountError("audit-rounds", rounds=args.rounds)
    report = audit(
        load_rules(args.rules),
        bankroll=args.bankroll,
        ror=args.ror,
        rounds=args.rounds,
        seed=args.seed,
    )
    out: Any = render(report, args.format)
    print(out, end="")
    return 0


def add_parsers(sub: Any) -> None:
    """Register ``indices`` and ``audit`` on the main command's subparsers."""
    i = sub.add_parser("indices", help="index plays of a count, from the exact analysis")
    i.add_argument("rules", help="preset, TOML file or shorthand")
    i.add_argument("--count", default="hilo", help="a balanced count: hilo, hi-opt-i, zen, ...")
    i.add_argument(
        "--method",
        choices=("ev", "risk-averse"),
        default="ev",
        help="ev: where the returns are equal; risk-averse: where a full-Kelly bettor's "
        "certainty equivalents are",
    )
    i.add_argument("--set", default="FULL", help="FULL, I18 or FAB4")
    i.add_argument(
        "--decks-left",
        default=None,
        help="decks left in the shoes the indices are computed on (default: the middle of "
        "the dealt part of the shoe)",
    )
    i.add_argument("--json", action="store_true", help="print the entries as JSON")
    i.add_argument("--format", choices=("text", "md"), default="text")
    i.set_defaults(func=_cmd_indices)

    a = sub.add_parser("audit", help="countability audit: what counting is worth at a table")
    a.add_argument("rules", help="preset, TOML file or shorthand")
    a.add_argument("--format", choices=("md", "html", "json"), default="md")
    a.add_argument(
        "--bankroll", type=int, default=2000, help="bankroll in betting units (risk of ruin)"
    )
    a.add_argument("--ror", type=float, default=0.05, help="the risk of ruin a spread may take")
    a.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="cross-check the headline spreads with the counting simulation, this many "
        "rounds each (default 0: no simulation)",
    )
    a.add_argument("--seed", type=int, default=1, help="the simulation's seed (default 1)")
    a.set_defaults(func=_cmd_audit)
