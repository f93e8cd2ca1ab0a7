"""``twentyone simulate RULES --count SYSTEM ...``: a counter's simulation, its options and its
report (text, or JSON with ``--json``; the figures are described in
:mod:`twentyone.counting.sim_runner`).

>>> print(ramp_note("I18", "hilo"))
None
>>> print(ramp_note("I18", "zen"))
I18 holds Hi-Lo's published indices for six decks, S17; with Zen's tags they are only a guide
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import Any

from twentyone.counting.counts import load_count
from twentyone.counting.index_set import PUBLISHED, IndexPlay, indices_from_data, load_indices
from twentyone.counting.ramp import load_ramp
from twentyone.counting.sim_runner import (
    CountResult,
    CountSetup,
    check_count_day,
    simulate_counting,
)
from twentyone.engine.errors import CountError
from twentyone.engine.rules import Rules
from twentyone.sim.encode import encode_rules, refuse_spanish_doubles, refuse_switch


def ramp_note(indices: str | None, count: str) -> str | None:
    """A note when the published Hi-Lo sets are played with another count's tags."""
    if indices is None or count.lower().replace("-", "") == "hilo":
        return None
    if all(n.strip().upper() in PUBLISHED for n in indices.split("+")):
        name = load_count(count).name
        return (
            f"{indices} holds Hi-Lo's published indices for six decks, S17; with {name}'s tags "
            "they are only a guide"
        )
    return None


def counting_options_without_count(args: Any) -> str | None:
    """The first counting option given without ``--count`` (an error), or ``None``."""
    for option in ("ramp", "indices", "wong_in", "wong_out", "players", "bankroll"):
        if getattr(args, option, None) is not None:
            return "--" + option.replace("_", "-")
    return None


def setup_from_options(
    *,
    rules: Rules | None = None,
    count: str,
    ramp: str | None,
    indices: str | None,
    wong_in: int | None,
    wong_out: int | None,
    players: int | None,
    boxes: int,
    bankroll: float | None,
) -> CountSetup:
    """The counter the options describe (a flat one-unit bet without ``--ramp``)."""
    return CountSetup(
        system=load_count(count),
        ramp=load_ramp(ramp if ramp is not None else "0:1"),
        indices=_indices(indices, rules, count) if indices else (),
        indices_name=indices or "",
        wong_in=wong_in,
        wong_out=wong_out,
        players=players if players is not None else 1,
        boxes=boxes,
        bankroll=bankroll,
    )


def run_counting(
    rules: Rules,
    setup: CountSetup,
    *,
    rounds: int,
    seed: int | None,
    workers: int | None,
    as_json: bool,
) -> int:
    """Simulate the counter and print the report."""
    from twentyone.sim.textbook import chart_for

    if rounds < 1:
        from twentyone.engine.errors import TwentyOneError

        raise TwentyOneError("sim-rounds", rounds=rounds)
    setup.check(rules)
    encode_rules(rules)  # what the simulator cannot play (SIM_REFUSES), before any chart
    refuse_switch(rules, "the counting simulator")  # the counter's boxes play alone
    refuse_spanish_doubles(rules, "the counting simulator")  # its indexes double two cards
    check_count_day(rounds, setup, workers)
    if seed is None:
        seed = secrets.randbits(63)
    strategy, note = chart_for(rules, setup.boxes, by_dealer_total=False)
    for line in (note, ramp_note(setup.indices_name or None, setup.system.key or "hilo")):
        if line:
            print(f"twentyone: note: {line}", file=sys.stderr)
    from twentyone.sim.command import ProgressBar, exit_code, interruptible

    bar = ProgressBar(rounds) if sys.stderr.isatty() else None
    result = interruptible(
        lambda: simulate_counting(
            rules, rounds, setup, seed=seed, workers=workers, strategy=strategy, progress=bar
        ),
        bar,
    )
    if result is None:
        return 130
    if as_json:
        print(json.dumps(result.to_dict()))
    else:
        print(report_text(rules, result))
    return exit_code(result.interrupted, result.rounds, rounds)


def report_text(rules: Rules, result: CountResult) -> str:
    """The human-readable report."""
    d = result.to_dict()
    s = result.setup

    def num(x: float | None, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    lines = [
        f"rules        {rules.name}",
        f"count        {s.system.name}, ramp {s.ramp.text}"
        + (f", indices {s.indices_name}" if s.indices_name else ""),
        f"rounds       {result.rounds:,} ({d['rounds_played']:,} played), seed {result.seed}"
        + (", interrupted" if result.interrupted else ""),
        f"avg bet      {d['avg_bet']:.3f} units",
        f"win          {d['ev_per_round']:+.5f} units a round (standard error "
        f"{d['stderr']:.5f}), {d['win_per_100']:+.3f} per 100 rounds",
        f"sd           {d['sd_per_round']:.4f} units a round",
        f"DI {num(d['di'], '.2f')}   SCORE {num(d['score'], '.2f')}   N0 {num(d['n0'], ',.0f')}",
    ]
    if d["ror"] is not None:
        r = d["ror"]
        sim = "-" if r["simulated"] is None else f"{100 * r['simulated']:.2f}%"
        lines.append(
            f"ruin         {100 * r['formula']:.2f}% by the formula, {sim} simulated "
            f"({r['trips']} trips) with {r['bankroll']:g} units; CE {d['ce']:+.3f} per 100"
        )
    lines.append("true count   share     ev/bet      sd")
    for row in d["by_true_count"]:
        if row["frequency"] < 0.001:
            continue
        lines.append(
            f"  {row['tc']:+4d}      {100 * row['frequency']:5.2f}%  "
            f"{num(row['ev'] and 100 * row['ev'], '+7.3f')}%  {num(row['sd'], '.3f')}"
        )
    lines.append(f"speed        {result.rounds_per_second / 1e6:.2f} million rounds/s")
    return "\n".join(lines)


def check_count_options(args: Any) -> None:
    """``--ramp`` and the other counting options need ``--count``."""
    option = counting_options_without_count(args)
    if getattr(args, "count", None) is None and option is not None:
        raise CountError("count-needs", option=option)


def _indices(spec: str, rules: Rules | None, count: str) -> tuple[IndexPlay, ...]:
    """``--indices``: ``FULL`` is every index generated for the rules and the count from the
    exact analysis (:func:`twentyone.counting.indices.named_indices`; shipped for the presets,
    computed for other rules, a minute or two); anything else goes to :func:`load_indices`."""
    if spec.strip().upper() != "FULL":
        return load_indices(spec, known="I18, FAB4, I18+FAB4, FULL")
    if rules is None:
        raise ValueError("--indices FULL needs the rules the indices are generated for")
    from twentyone.counting.indices import named_indices

    return indices_from_data(named_indices(rules, count, "FULL"), "FULL")
