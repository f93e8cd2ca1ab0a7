"""The analysis commands of ``twentyone``: ``edge``, ``advise``, ``eor`` and ``par``.

Each loads the analysis's kernels first (from their saved machine code, or from
numba's cache), or says that they are about to compile (:func:`_compile_notice`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from twentyone.analysis.report import EdgeReport


def _compile_notice(
    rules: object,
    boxes: int = 1,
    shoe: tuple[int, ...] | None = None,
    distributions: bool = True,
) -> bool:
    """Say so on standard error when the analysis's kernels are about to compile (returns
    True), else load them (see :func:`twentyone.analysis.warmup.prepare`)."""
    from twentyone.analysis.context import Context
    from twentyone.analysis.warmup import prepare
    from twentyone.engine.rules import Rules

    assert isinstance(rules, Rules)
    resplits = Context.of(rules, boxes, shoe).max_hands > 2
    return prepare(resplits=resplits, distributions=distributions)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's garbage collector off for an analysis command: its passes over numba's
    hundreds of thousands of objects cost about 0.1 s of a new process, and the analysis
    leaves no garbage cycles worth collecting (the peak memory is the same)."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _shoe_arg(rules: object, args: argparse.Namespace) -> tuple[int, ...] | None:
    """The shoe of ``--shoe`` / ``--remove`` (None: the rules' full shoe)."""
    from twentyone.analysis.shoe import shoe_of
    from twentyone.engine.rules import Rules

    if args.shoe is None and args.remove is None:
        return None
    assert isinstance(rules, Rules)
    return shoe_of(rules, shoe=args.shoe, remove=args.remove)


def add_shoe_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--shoe",
        default=None,
        help='counts of A, 2..9, T to deal from: "24 24 24 24 20 22 24 24 24 96"',
    )
    p.add_argument(
        "--remove", default=None, help='cards out of the full shoe (T: a ten-value card): "5 5 6 T"'
    )


def cmd_edge(args: argparse.Namespace) -> int:
    import time

    from twentyone.analysis import result_cache
    from twentyone.analysis.report import EdgeReport
    from twentyone.engine.rulesets import load_rules

    start = time.perf_counter()
    rules = load_rules(args.rules)
    key = result_cache.edge_key(rules, args.boxes, args.shoe, args.remove)
    data = result_cache.load(key)
    if data is not None:  # asked before, by this code: no numba start-up
        data["seconds"] = time.perf_counter() - start
    else:
        data = _edge_report(rules, args).to_json()
        if EdgeReport.from_json(json.loads(json.dumps(data))).to_json() == data:
            result_cache.store(key, data)
    if args.json:
        print(json.dumps(data))
    else:
        from rich.console import Console

        from twentyone.analysis.view import edge_table

        Console().print(edge_table(EdgeReport.from_json(data)))
    return 0


def _edge_report(rules: object, args: argparse.Namespace) -> EdgeReport:
    """The exact analysis ``edge`` asks for (the kernels loaded, or compiled with a notice)."""
    from twentyone.analysis import analyze
    from twentyone.analysis.context import Context
    from twentyone.analysis.forked import analyze_forked
    from twentyone.analysis.warmup import compile_first_run
    from twentyone.engine.rules import Rules

    assert isinstance(rules, Rules)
    shoe = _shoe_arg(rules, args)
    if rules.hole_card_up or rules.switch:  # the returns alone (analysis.exposed, .switch)
        return analyze(rules, boxes=args.boxes, shoe=shoe, outcomes=False)
    ctx = Context.of(rules, args.boxes, shoe)
    if ctx.push22 or ctx.has_free or ctx.has_ties or ctx.has_spanish:  # the returns alone
        return analyze(rules, boxes=args.boxes, shoe=shoe, outcomes=False)  # (no distribution)
    if _compile_notice(rules, args.boxes, shoe):  # a first run: compiled on two cores first
        compile_first_run(ctx.max_hands > 2)
    # half of it on a second core; this one, when done first, imports the table's printing
    return analyze_forked(rules, args.boxes, shoe, meanwhile=None if args.json else _table_imports)


def _table_imports() -> None:
    """Import what printing ``edge``'s table needs (rich: about 0.06 s)."""
    import rich.console  # noqa: F401

    import twentyone.analysis.view  # noqa: F401


def cmd_advise(args: argparse.Namespace) -> int:
    from twentyone.analysis.advise import advise, parse_hand, parse_up
    from twentyone.engine.rulesets import load_rules

    rules = load_rules(args.rules)
    # what was typed is checked before the kernels load (or compile)
    hand, up, shoe = parse_hand(args.hand), parse_up(args.up), _shoe_arg(rules, args)
    _compile_notice(rules, args.boxes, distributions=False)
    got = advise(rules, hand, up, shoe=shoe, boxes=args.boxes)
    if args.json:
        print(json.dumps(got.to_json()))
        return 0
    given = " (given no dealer blackjack)" if got.given_no_blackjack else ""
    print(f"{rules.name}: {' '.join(got.hand)} against {got.up}{given}, per unit bet")
    for action, value in sorted(got.returns.items(), key=lambda kv: -kv[1]):
        print(f"  {action:12} {value:+.6f}{'  <- best' if action == got.best else ''}")
    if got.insurance is not None:
        word = "take" if got.insurance > 0 else "decline"
        print(f"  {'insurance':12} {got.insurance:+.6f}  per unit insured ({word})")
    return 0


def cmd_eor(args: argparse.Namespace) -> int:
    from twentyone.counting.eor import effects_of_removal
    from twentyone.engine.rulesets import load_rules

    rules = load_rules(args.rules)
    # the returns' kernels only: effects of removal never call the distribution's
    _compile_notice(rules, args.boxes, distributions=False)
    got = effects_of_removal(rules, boxes=args.boxes)
    if args.json:
        print(json.dumps(got.to_json()))
        return 0
    print(f"Effects of removal, {got.rules} (per card out of the full shoe, % of the bet)")
    print(f"  {'rank':5} {'basic':>9} {'optimal':>9}")
    for rank, value in got.eor_basic.items():
        print(f"  {rank:5} {100 * value:+9.4f} {100 * got.eor_optimal[rank]:+9.4f}")
    print("Betting correlations (tags against the basic strategy's effects)")
    for name, bc in got.betting_correlation.items():
        print(f"  {name:12} {bc:.3f}")
    return 0


def cmd_par(args: argparse.Namespace) -> int:
    from twentyone.engine.rulesets import load_rules
    from twentyone.reports.par import par_sheet, render
    from twentyone.reports.par_variants import outcomes_simulated

    rules = load_rules(args.rules)
    if outcomes_simulated(rules):  # the returns exact, the distribution simulated
        import sys

        from twentyone.sim.runner import compile_notice

        compile_notice(sys.stderr, exact=True)
    else:
        _compile_notice(rules)
    sheet = par_sheet(rules, rounds=args.rounds, seed=args.seed)
    print(render(sheet, args.format), end="")
    return 0


#: The commands that run an analysis (the process ends without Python's teardown after one).
ANALYSIS_COMMANDS = (cmd_edge, cmd_advise, cmd_eor, cmd_par)
