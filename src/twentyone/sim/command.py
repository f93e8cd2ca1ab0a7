"""``twentyone simulate``: the command's work and its output (the CLI's I/O lives here).

>>> print(format_pct(-0.0046123))
-0.4612%
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from collections.abc import Callable
from typing import Any, cast

from twentyone.engine.errors import TwentyOneError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy
from twentyone.sim.encode import encode_rules
from twentyone.sim.runner import (
    Interrupted,
    ResultT,
    SimResult,
    check_arguments,
    compile_aside,
    simulate,
)

#: Seconds a run goes before its progress bar shows (a short run prints only its result).
BAR_AFTER = 2.0


def format_pct(x: float) -> str:
    return f"{100 * x:+.4f}%".replace("+", "") if x < 0 else f"{100 * x:.4f}%"


def load_strategy_file(path: str) -> Strategy:
    """A chart from a JSON file in the shape ``twentyone strategy --format json`` prints."""
    from twentyone.sim.encode import strategy_from_dict

    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise TwentyOneError("strategy-unreadable", path=path, reason=exc.strerror) from exc
    except json.JSONDecodeError as exc:
        raise TwentyOneError("strategy-json", path=path, reason=str(exc)) from exc
    if not isinstance(data, dict):
        raise TwentyOneError("strategy-not-object", path=path)
    try:
        return strategy_from_dict(data)
    except TwentyOneError as exc:
        raise TwentyOneError("strategy-invalid", path=path, reason=exc) from exc


def exact_ev(
    rules: Rules, boxes: int, compute: bool = False, strategy: Strategy | None = None
) -> float | None:
    """The exact return of basic strategy to compare with: the one ``twentyone edge`` kept
    (:mod:`twentyone.analysis.result_cache`; no analysis run), else, with ``compute``,
    ``analyze(rules).ev_basic`` where the exact analysis is installed and can do it; else
    None. For a ``strategy`` by the dealer's two-card total (a face-up hole card), the exact
    return of the analysis's chart by dealer total
    (:func:`twentyone.analysis.exposed_chart.dealer_total_chart`, which
    :func:`~twentyone.sim.textbook.chart_for` has computed already). At a switch table it is
    the return per hand of a pair (:func:`twentyone.analysis.switch.switch_report`), which
    ``edge`` keeps for one box too: each hand is priced alone, so its boxes count only where a
    split needs one box (pl.7)."""
    try:
        from twentyone.analysis import result_cache
    except ImportError:
        return None
    if strategy is not None and strategy.by_dealer_total:
        from twentyone.analysis.exposed_chart import dealer_total_chart

        return dealer_total_chart(rules, boxes).ev
    asked = [boxes]
    if rules.switch and not rules.split_only_one_box and boxes != 1:
        asked.append(1)  # `edge switch` (one box): the same return per hand
    for n in asked:
        kept = result_cache.load(result_cache.edge_key(rules, n, None, None))
        if kept is not None and isinstance(kept.get("ev_basic"), float):
            return float(kept["ev_basic"])
    if not compute:
        return None
    try:
        from twentyone.analysis import analyze

        return float(analyze(rules, boxes=boxes, outcomes=False).ev_basic)  # no distributions
    except (TwentyOneError, NotImplementedError, ImportError):
        return None


def run(
    rules: Rules,
    *,
    rounds: int,
    boxes: int = 1,
    seed: int | None = None,
    workers: int | None = None,
    address: str | None = None,
    strategy_file: str | None = None,
    as_json: bool = False,
    exact: bool = False,
) -> int:
    """Simulate and print the report (text, or JSON with ``as_json``). The exact return is
    compared with where ``edge`` kept it, or computed with ``exact`` (a first run then
    compiles the exact analysis too).

    A run that goes past :data:`BAR_AFTER` seconds shows a progress bar on standard error
    when that is a terminal. Ctrl-C stops it: the report of the rounds played by then is
    printed, marked interrupted, and the exit code is 130."""
    from twentyone.sim.textbook import chart_for

    check_arguments(rules, rounds, boxes, workers)
    encode_rules(rules)  # what the simulator cannot play (SIM_REFUSES), before any chart
    # a first run compiles the kernel on another core while the chart and the exact return
    # are computed (and compiled) here
    helper = compile_aside() if address is None else None
    if seed is None:
        seed = secrets.randbits(63)
    note = None
    if strategy_file is not None:
        strategy = load_strategy_file(strategy_file)
    else:
        strategy, note = chart_for(rules, boxes)
    if note:
        print(f"twentyone: note: {note}", file=sys.stderr)
    # the exact return of the chart played: basic strategy's, or the chart by dealer total's
    value = (
        exact_ev(rules, boxes, exact, strategy) if strategy_file is None and note is None else None
    )
    if helper is not None:
        helper.join()
    bar = ProgressBar(rounds) if sys.stderr.isatty() else None
    result = interruptible(
        lambda: simulate(
            rules,
            rounds,
            boxes=boxes,
            seed=seed,
            workers=workers,
            strategy=strategy,
            address=address,
            progress=bar,
        ),
        bar,
    )
    if result is None:
        return 130
    if as_json:
        print(json.dumps(result.to_dict(value)))
    else:
        text = report_text(rules, result, strategy, value, asked=exact or strategy_file is not None)
        print(text)
    return exit_code(result.interrupted, result.rounds, rounds)


def interruptible(run: Callable[[], ResultT], bar: ProgressBar | None) -> ResultT | None:
    """``run()``, a simulation showing its progress on ``bar``; after Ctrl-C
    (:class:`~twentyone.sim.runner.Interrupted`) the result of the chunks finished by then,
    marked interrupted, or ``None`` (said on standard error) when none had. The bar is closed
    either way, before anything is said. Both simulating commands run through it."""
    try:
        return run()
    except Interrupted as stop:
        if bar is not None:
            bar.close()
        if stop.result is None:
            print("twentyone: interrupted before a chunk of rounds finished", file=sys.stderr)
        return cast("ResultT | None", stop.result)
    finally:
        if bar is not None:
            bar.close()


def exit_code(interrupted: bool, played: int, asked: int) -> int:
    """A simulating command's exit code: 0, or 130 for a run Ctrl-C stopped, which standard
    error then tells with the rounds played.

    >>> exit_code(False, 10, 10)
    0
    """
    if not interrupted:
        return 0
    print(f"twentyone: interrupted: {played:,} of {asked:,} rounds played", file=sys.stderr)
    return 130


class ProgressBar:
    """``simulate``'s progress callback: a bar on standard error (rounds done, the rate since
    the start, time left) that shows once the run has gone :data:`BAR_AFTER` seconds, so
    that a short run prints nothing but its result. ``console`` and ``clock`` are for
    tests."""

    def __init__(
        self,
        rounds: int,
        console: Any | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rounds = rounds
        self.console = console
        self.clock = clock
        self.start = clock()
        self.done = 0
        self.bar: Any | None = None
        self.task: Any = None

    def __call__(self, rounds: int) -> None:
        self.done += rounds
        if self.bar is None and self.clock() - self.start >= BAR_AFTER:
            self._show()
        if self.bar is not None:
            seconds = self.clock() - self.start
            rate = f"{self.done / seconds / 1e6:.2f} M rounds/s" if seconds > 0 else ""
            self.bar.update(self.task, completed=self.done, rate=rate)

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(
            TextColumn("simulating"),
            BarColumn(bar_width=16),  # the whole line in 80 columns
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}", style="progress.data.speed"),
            TimeRemainingColumn(),
            console=self.console if self.console is not None else Console(stderr=True),
            transient=True,
            get_time=self.clock,
        )
        self.bar.start()
        self.task = self.bar.add_task("rounds", total=self.rounds, rate="")

    def close(self) -> None:
        """Take the bar away (it is transient: the result is printed where it was)."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def report_text(
    rules: Rules,
    result: SimResult,
    strategy: Strategy,
    exact: float | None,
    asked: bool = True,
) -> str:
    """The human-readable report (``asked``: whether the exact return was asked for, so
    that its absence is "not available" rather than "not computed")."""
    lo, hi = result.ci95
    box_word = "box" if result.boxes == 1 else "boxes"
    per = "per initial bet"
    if rules.switch:  # the boxes switch in pairs; the return is per hand, as published
        pairs = result.boxes // 2
        box_word += f" ({pairs} switch pair{'s' if pairs != 1 else ''})"
        per = "per hand (initial bet) of a switch pair"
    stopped = " (interrupted: the rounds played until Ctrl-C)" if result.interrupted else ""
    lines = [
        f"rules        {rules.name}",
        f"strategy     {strategy.name}",
        f"rounds       {result.rounds:,} x {result.boxes} {box_word}, seed {result.seed}" + stopped,
        f"return       {format_pct(result.ev)} {per} (standard error {100 * result.stderr:.4f}%)",
        f"95% interval {format_pct(lo)} to {format_pct(hi)}",
        f"sd           {result.sd:.4f} per round (in initial bets)",
    ]
    z = result.z(exact)
    if exact is not None and z is not None:
        lines.append(f"exact        {format_pct(exact)} (result lies {z:+.2f} standard errors off)")
    elif asked:
        lines.append("exact        not available")
    else:
        lines.append("exact        not computed (--exact computes it; `edge` keeps it)")
    lines.append(
        f"speed        {result.rounds_per_second / 1e6:.2f} million rounds/s "
        f"({result.workers} worker{'s' if result.workers != 1 else ''})"
    )
    return "\n".join(lines)
