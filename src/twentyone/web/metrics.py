"""What an operator watches, in Prometheus' text format (``prometheus-client``): rounds,
actions and their latency, sockets, database commit time, leases and refunds.

Off by default: ``twentyone serve --metrics-port PORT`` serves them on a separate address
(``--metrics-host``, default 127.0.0.1), never on the players' port. Each app has its own
registry (:attr:`Metrics.registry`), so several apps in one process (the tests) count apart.

>>> m = Metrics()
>>> m.action("bet", 0.002); m.rounds.labels("started").inc()
>>> text = m.exposition()
>>> "twentyone_actions_total" in text and 'twentyone_rounds_total{event="started"} 1.0' in text
True
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

#: Action latency buckets (seconds): the load benchmark's p99 target is 0.1 s.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The server's counters, gauges and histograms, in their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.rounds = Counter(
            "twentyone_rounds", "Rounds by what happened to them", ["event"], registry=r
        )
        self.actions = Counter(
            "twentyone_actions", "Players' intentions handled, by type", ["type"], registry=r
        )
        self.action_seconds = Histogram(
            "twentyone_action_seconds",
            "Time to apply one intention (read to reply), seconds",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.commit_seconds = Histogram(
            "twentyone_db_commit_seconds",
            "Time of one round transaction of the ledger (statements and commit), seconds",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.refunds = Counter("twentyone_refunds", "Rounds refunded (voided)", registry=r)
        self.sockets = Gauge("twentyone_sockets", "Table WebSockets open", registry=r)
        self.leases = Gauge("twentyone_leases", "Table leases this node holds", registry=r)
        self.tables = Gauge("twentyone_tables", "Tables dealt by this process", registry=r)
        self.draining = Gauge("twentyone_draining", "1 while the node drains", registry=r)

    def action(self, kind: str, seconds: float) -> None:
        """Count one handled intention and its time."""
        self.actions.labels(kind if kind in _KNOWN else "other").inc()
        self.action_seconds.observe(seconds)

    def watch(
        self,
        *,
        sockets: Callable[[], float],
        tables: Callable[[], float],
        leases: Callable[[], float] | None = None,
        draining: Callable[[], float] | None = None,
    ) -> None:
        """Read the gauges from the server's state when scraped."""
        self.sockets.set_function(sockets)
        self.tables.set_function(tables)
        if leases is not None:
            self.leases.set_function(leases)
        if draining is not None:
            self.draining.set_function(draining)

    def exposition(self) -> str:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry).decode()


#: intention types counted by name (anything else a client sends counts as "other")
_KNOWN = frozenset(
    [
        "sit",
        "leave",
        "bet",
        "undo",
        "clear",
        "rebet",
        "double-rebet",
        "ready",
        "deal",
        "decide",
        "seed",
        "hints",
        "view",
    ]
)
