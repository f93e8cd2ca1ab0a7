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

from twentyone.round import Round
from twentyone.rules import Rules
from twentyone.session import DefaultAction

log = logging.getLogger(__name__)


def exact_chooser(rules: Rules, chart: Any) -> Callable[[Round], str]:
    """A default action that plays each hand its best way over the shoe the players know (a
    cut-card shoe: the full shoe less every card seen since the shuffle; see
    :class:`~twentyone.hints.Advisor`), the chart where no return is known (insurance, even
    money). About 25 ms per new shoe composition on one core, in the caller's thread."""
    hints: Any = importlib.import_module("twentyone.hints")
    strategy: Any = importlib.import_module("twentyone.strategy")
    advisor = hints.Advisor(rules, shoe=None)
    advisor.chart = chart

    def choose(rnd: Round) -> str:
        q = rnd.question
        if q is None or q.kind not in ("play", "surrender"):
            return str(strategy.decide(chart, rnd))
        if rules.shuffle == "cut-card" and hasattr(rnd.shoe, "dealt"):
            advisor.shoe = rnd.shoe
        else:
            advisor.shoe = None
        evs: dict[str, float] = advisor.returns(rnd)
        if not evs:
            return str(strategy.decide(chart, rnd))
        best = max(evs, key=lambda k: evs[k])
        return next((a for a in q.actions if a.split(":")[0] == best), best)

    return choose


class Advice:
    """House edges and basic-strategy defaults per rule set (``exact``: the default plays each
    hand its best way over the cards really left, see :func:`exact_chooser`)."""

    def __init__(
        self,
        enabled: bool = True,
        on_done: Callable[[], object] | None = None,
        *,
        exact: bool = False,
    ) -> None:
        self.enabled = enabled
        self.exact = exact
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
                if self.exact:
                    action.chooser = exact_chooser(rules, chart)
                    action.name = "exact"
                else:
                    action.chooser = lambda rnd, chart=chart: str(strategy.decide(chart, rnd))
                    action.name = "basic strategy"
                self.edges[rules] = -float(analysis.analyze(rules, outcomes=False).ev_basic)
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
