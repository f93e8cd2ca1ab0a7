"""The analysis's numbers for the web table, when the analysis is there.

``twentyone.analysis`` (house edge, basic strategy) is imported lazily and computed in a
background thread; until it is done, or when it cannot be imported, the lobby shows no house
edge and the decision clock stands.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from twentyone.rules import Rules
from twentyone.session import DefaultAction

log = logging.getLogger(__name__)


class Advice:
    """House edges and basic-strategy defaults per rule set."""

    def __init__(self, enabled: bool = True, on_done: Callable[[], object] | None = None) -> None:
        self.enabled = enabled
        self.on_done = on_done
        self.edges: dict[Rules, float] = {}
        self.defaults: dict[Rules, DefaultAction] = {}
        self.thread: threading.Thread | None = None

    def default_action(self, rules: Rules) -> DefaultAction:
        """The (shared, updated in place) default action of tables with these rules."""
        if rules not in self.defaults:
            self.defaults[rules] = DefaultAction("stand")
        return self.defaults[rules]

    def house_edge(self, rules: Rules) -> float | None:
        """The house edge of basic strategy (a fraction), once known."""
        return self.edges.get(rules)

    def start(self) -> None:
        """Compute in the background (no-op when disabled or already started)."""
        if not self.enabled or self.thread is not None:
            return
        self.thread = threading.Thread(target=self._compute, name="twentyone-advice", daemon=True)
        self.thread.start()

    def _compute(self) -> None:
        try:
            analysis: Any = importlib.import_module("twentyone.analysis")
            strategy: Any = importlib.import_module("twentyone.strategy")
        except Exception as exc:  # the analysis is optional
            log.info("no analysis (%s): default action stand, no house edge", exc)
            return
        for rules, action in list(self.defaults.items()):
            try:
                chart = analysis.basic_strategy(rules)
                action.chooser = lambda rnd, chart=chart: str(strategy.decide(chart, rnd))
                action.name = "basic strategy"
                self.edges[rules] = -float(analysis.analyze(rules).ev_basic)
            except Exception as exc:
                log.warning("analysis of %s failed: %s", rules.name, exc)
        if self.on_done is not None:
            self.on_done()


def edge_text(edge: float | None) -> str:
    """``0.0052`` -> ``'0.52%'``; unknown -> ``'—'``.

    >>> edge_text(0.0052), edge_text(None), edge_text(-0.0012)
    ('0.52%', '—', '-0.12%')
    """
    return "—" if edge is None else f"{edge * 100:.2f}%"
