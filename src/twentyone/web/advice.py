"""The analysis's numbers for the web table, when the analysis is there.

``twentyone.analysis`` (house edge, basic strategy) is imported lazily and computed in a
background thread; until it is done, or when it cannot be imported, the lobby shows no house
edge, the decision clock stands and the page shows no hint. Once it is done the decision
clock plays the basic-strategy chart and the page's hint is the exact best play for the cards
the players know (:mod:`twentyone.web.hint_worker`), the chart's until that is worked out.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from twentyone.analysis.hints import HandQuestion
from twentyone.engine.cards import parse_cards
from twentyone.engine.rules import Rules
from twentyone.engine.session import DefaultAction
from twentyone.web.hint_worker import ExactHints, HintPool

log = logging.getLogger(__name__)


class Advice:
    """House edges and basic-strategy defaults per rule set, and the exact hints
    (:mod:`twentyone.web.hint_worker`) once the analysis is known to work; ``chart_hints``:
    none, the page's hint is the chart's move."""

    def __init__(
        self,
        enabled: bool = True,
        on_done: Callable[[], object] | None = None,
        *,
        chart_hints: bool = False,
        pool: HintPool | None = None,
    ) -> None:
        self.enabled = enabled
        self.chart_hints = chart_hints
        self.on_done = on_done
        self.edges: dict[Rules, float] = {}
        self.defaults: dict[Rules, DefaultAction] = {}
        self.hints: dict[Rules, ExactHints] = {}
        self.pool = pool or HintPool()
        self.thread: threading.Thread | None = None

    def default_action(self, rules: Rules) -> DefaultAction:
        """The (shared, updated in place) default action of tables with these rules: the
        basic-strategy chart once known (the decision clock plays it), else stand."""
        if rules not in self.defaults:
            self.defaults[rules] = DefaultAction("stand")
        return self.defaults[rules]

    def exact_hints(self, rules: Rules) -> ExactHints | None:
        """The exact hints of tables with these rules (ready once the analysis has run),
        ``None`` with ``chart_hints`` or without the analysis."""
        if self.chart_hints or not self.enabled:
            return None
        if rules not in self.hints:
            self.hints[rules] = ExactHints(rules, self.pool)
        return self.hints[rules]

    def house_edge(self, rules: Rules) -> float | None:
        """The house edge of basic strategy (a fraction), once known."""
        return self.edges.get(rules)

    def start(self) -> None:
        """Compute in the background (no-op when disabled or already started)."""
        if not self.enabled or self.thread is not None:
            return
        self.thread = threading.Thread(target=self._compute, name="twentyone-advice", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Stop the hints' worker (the app's shutdown)."""
        self.pool.shutdown()

    def _compute(self) -> None:
        try:
            analysis: Any = importlib.import_module("twentyone.analysis")
            strategy: Any = importlib.import_module("twentyone.engine.strategy")
        except Exception as exc:  # the analysis is optional
            log.info("no analysis (%s): default action stand, no house edge", exc)
            return
        for rules, action in list(self.defaults.items()):
            try:
                chart = analysis.basic_strategy(rules)
                # a switch pair's question answered by the hands' returns (analysis.switch)
                switch_chart = importlib.import_module("twentyone.analysis.switch_chart")
                chart = switch_chart.with_switch(chart, rules)
                action.chooser = lambda rnd, chart=chart: str(strategy.decide(chart, rnd))
                action.name = "basic strategy"
                self.edges[rules] = -float(analysis.analyze(rules, outcomes=False).ev_basic)
                exact = self.hints.get(rules)
                if exact is not None:
                    _warm_up(exact)
                    exact.ready = True
            except Exception as exc:
                log.warning("analysis of %s failed: %s", rules.name, exc)
        if self.on_done is not None:
            self.on_done()


def _warm_up(exact: ExactHints) -> None:
    """One exact hint worked out here, so that the worker's first one loads nothing."""
    ten, six = parse_cards("TS 6D")
    exact.compute(HandQuestion("play", ("hit", "stand"), (ten, six), ten, 1, None))


def edge_text(edge: float | None) -> str:
    """``0.0052`` -> ``'0.52%'``; unknown -> ``'—'``.

    >>> edge_text(0.0052), edge_text(None), edge_text(-0.0012)
    ('0.52%', '—', '-0.12%')
    """
    return "—" if edge is None else f"{edge * 100:.2f}%"
