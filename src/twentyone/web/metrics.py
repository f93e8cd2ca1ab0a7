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

from bisect import bisect_left
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.registry import Collector

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
        self.action_seconds = LoopHistogram(
            "twentyone_action_seconds",
            "Time to apply one intention (read to reply), seconds",
            LATENCY_BUCKETS,
        )
        r.register(self.action_seconds)
        self._counted = {k: self.actions.labels(k) for k in (*sorted(_KNOWN), "other")}
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
        counted = self._counted
        (counted.get(kind) or counted["other"]).inc()
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


class LoopHistogram(Collector):
    """A histogram observed from the event loop alone, thousands of times a second: plain
    counts per bucket, no lock (``prometheus_client``'s ``Histogram`` takes one per bucket
    and sum); exported as a histogram when scraped (a custom collector, the library's way).

    >>> h = LoopHistogram("t_seconds", "test", (0.1, 1.0))
    >>> h.observe(0.05); h.observe(0.1); h.observe(3.0)
    >>> [(s.labels.get("le"), s.value) for s in next(h.collect()).samples]
    [('0.1', 2.0), ('1.0', 2.0), ('+Inf', 3.0), (None, 3.0), (None, 3.15)]
    """

    def __init__(self, name: str, documentation: str, buckets: tuple[float, ...]) -> None:
        self.name = name
        self.documentation = documentation
        self.bounds = tuple(sorted(buckets))
        self.counts = [0] * (len(self.bounds) + 1)  # the last: above every bound
        self.total = 0.0

    def observe(self, value: float) -> None:
        """Count one observation (``le`` buckets: a value on a bound counts in it)."""
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    def collect(self) -> Iterator[HistogramMetricFamily]:
        """The histogram as Prometheus reads it (cumulative buckets, ``+Inf`` last)."""
        cumulative, running = [], 0
        for bound, n in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += n
            cumulative.append(("+Inf" if bound == float("inf") else str(bound), float(running)))
        yield HistogramMetricFamily(
            self.name, self.documentation, buckets=cumulative, sum_value=self.total
        )
