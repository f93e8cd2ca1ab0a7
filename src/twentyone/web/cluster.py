"""Tables leased through PostgreSQL: several server processes ("nodes"), each dealing the
tables it holds a lease on, and none dealing a table it does not (docs/scaling.md).

A lease is a row of ``table_leases``: the table, the node holding it, the holder's
``owner`` token (new each time a process starts), an ``epoch`` that grows with every change
of holder, and ``expires_at`` on the database's clock. The holder renews its leases every
``renew_seconds``; a lease not renewed for ``lease_seconds`` may be taken by another node.

No two nodes ever deal the same table, for two reasons that do not depend on each other:

* **Locally**, a node counts its leases valid until the moment it *sent* its last successful
  renewal plus 80% of the lease (its own monotonic clock, which runs on while the process is
  paused). Every intention and every clock tick at a table first asks :meth:`Leases.valid`;
  a node whose leases lapsed (paused, cut off from the database) stops those tables at once,
  before it reads another message.
* **In the database**, every transaction that moves a round's money (start, payments,
  settlement) first locks the table's lease row ``FOR SHARE`` and checks that this process
  holds it (:meth:`Leases.fence`); a node taking the lease over must update that row, so it
  waits for such a transaction to end, and the transactions after it fail. A round is only
  dealt once its stakes are posted, so a node without the lease cannot deal a round.

Which node deals which table: rendezvous hashing over the live nodes (heartbeat within one
lease). A node takes the tables it is preferred for once their leases are free or expired,
and gives back (between rounds, with nobody seated) those another live node is preferred for.
When a node dies its heartbeat and its leases lapse together, the survivors become preferred
for its tables and take them, refunding the rounds it left open exactly once, as a restart
does.

>>> NodeConfig(node_id="n1", advertise_url="http://10.0.0.5:8001").route
'/n/n1'
>>> preferred("ro-casino", ["a", "b", "c"]) in ("a", "b", "c")
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Connection, Engine, text

from twentyone.engine.ledger import LedgerUnavailableError

__all__ = ["LeaseLostError", "Leases", "NodeConfig", "TableOwner", "preferred"]

_NODE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")

MOVED = 4302  # close code: the table is dealt by another node; the reason is its socket path
MOVING = 4503  # close code: the table is changing node; reconnect (through the proxy) soon


class LeaseLostError(LedgerUnavailableError):
    """This node does not hold the lease of the table a round's money belongs to."""


@dataclass(frozen=True, kw_only=True, slots=True)
class NodeConfig:
    """One node of a cluster: its id (``[a-z0-9_-]``, at most 63 characters), the URL
    the proxy reaches it at, and the lease timings in seconds."""

    node_id: str
    advertise_url: str
    lease_seconds: float = 5.0
    renew_seconds: float = 1.0

    def __post_init__(self) -> None:
        if not _NODE_ID.fullmatch(self.node_id):
            raise ValueError(
                f"node id {self.node_id!r}: expected 1 to 63 of a-z, 0-9, '-' and '_', "
                "starting with a letter or digit"
            )
        parts = urlsplit(self.advertise_url)
        if (
            parts.scheme not in ("http", "https")
            or not parts.hostname
            or parts.path not in ("", "/")
        ):
            raise ValueError(
                f"advertise URL {self.advertise_url!r}: expected http://HOST:PORT "
                "(where the proxy reaches this node)"
            )
        if not 0 < self.renew_seconds <= self.lease_seconds / 2:
            raise ValueError(
                f"renew every {self.renew_seconds} s with leases of {self.lease_seconds} s: "
                "expected a renewal at most every half lease"
            )

    @property
    def route(self) -> str:
        """The path prefix the proxy sends to this node (``/n/ID``)."""
        return route(self.node_id)


def route(node_id: str) -> str:
    """The proxy's path prefix for a node."""
    return f"/n/{node_id}"


def preferred(table_id: str, nodes: Iterable[str]) -> str | None:
    """The node a table belongs on (rendezvous hashing: the highest hash of table and node;
    a node joining or leaving moves only the tables it wins or held)."""

    def score(node: str) -> bytes:
        return hashlib.sha256(f"{table_id}\x00{node}".encode()).digest()

    return max(nodes, key=score, default=None)


@dataclass(frozen=True, slots=True)
class TableOwner:
    """A table's lease as the lobby sees it."""

    node_id: str
    live: bool  # not expired
    summary: dict[str, Any] | None


_REGISTER = text(
    """
    INSERT INTO nodes (node_id, advertise_url, incarnation, started_at, heartbeat_at)
    VALUES (:node, :url, :me, clock_timestamp(), clock_timestamp())
    ON CONFLICT (node_id) DO UPDATE SET advertise_url = EXCLUDED.advertise_url,
        incarnation = EXCLUDED.incarnation, started_at = EXCLUDED.started_at,
        heartbeat_at = EXCLUDED.heartbeat_at
    """
)
_HEARTBEAT = text("UPDATE nodes SET heartbeat_at = clock_timestamp() WHERE node_id = :node")
_LIVE_NODES = text(
    "SELECT node_id FROM nodes "
    "WHERE heartbeat_at > clock_timestamp() - make_interval(secs => :ttl) ORDER BY node_id"
)
_RENEW = text(  # a lease that ran out while this node was cut off is still its own if no
    # node took it meanwhile (taking it changes the owner): renewed, the table goes on. Only
    # the leases the node still counts as held: one it dropped (lapsed on its own clock) is
    # left to run out, for the node it belongs on to take, never kept alive unused
    "UPDATE table_leases SET expires_at = clock_timestamp() + make_interval(secs => :ttl) "
    "WHERE owner = :me AND table_id = ANY(:held) RETURNING table_id"
)
_ACQUIRE = text(
    """
    INSERT INTO table_leases (table_id, node_id, owner, epoch, expires_at, summary)
    VALUES (:table, :node, :me, 1, clock_timestamp() + make_interval(secs => :ttl), NULL)
    ON CONFLICT (table_id) DO UPDATE SET node_id = EXCLUDED.node_id, owner = EXCLUDED.owner,
        epoch = table_leases.epoch + 1, expires_at = EXCLUDED.expires_at, summary = NULL
    WHERE table_leases.expires_at <= clock_timestamp() OR table_leases.owner = EXCLUDED.owner
    RETURNING epoch
    """
)
_RELEASE = text(
    "UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 second' "
    "WHERE table_id = :table AND owner = :me"
)
_SUMMARY = text(
    "UPDATE table_leases SET summary = CAST(:summary AS json) "
    "WHERE table_id = :table AND owner = :me"
)
_OWNERS = text(  # live: the lease holds and its node's heartbeat is current
    "SELECT l.table_id, l.node_id, l.expires_at > clock_timestamp() AND coalesce(n.heartbeat_at "
    "> clock_timestamp() - make_interval(secs => :ttl), false) AS live, l.summary "
    "FROM table_leases l LEFT JOIN nodes n ON n.node_id = l.node_id"
)
_GONE = text(
    "UPDATE nodes SET heartbeat_at = clock_timestamp() - interval '1 day' "
    "WHERE node_id = :node AND incarnation = :me"
)
_ANY_FREE = text(
    "SELECT 1 FROM table_leases WHERE expires_at <= clock_timestamp() "
    "AND table_id = ANY(:tables) LIMIT 1"
)
_NODES = text("SELECT node_id, advertise_url FROM nodes ORDER BY node_id")
_PRUNE = text(
    "DELETE FROM nodes WHERE heartbeat_at < clock_timestamp() - make_interval(secs => :age) "
    "RETURNING node_id"
)
_FENCE_TABLE = text(
    "SELECT 1 FROM table_leases WHERE table_id = :table AND owner = :me "
    "AND expires_at > clock_timestamp() FOR SHARE"
)
_FENCE_ROUND = text(
    "SELECT 1 FROM table_leases l JOIN rounds r ON r.table_id = l.table_id "
    "WHERE r.id = :round AND l.owner = :me AND l.expires_at > clock_timestamp() "
    "FOR SHARE OF l"
)


class Leases:
    """One node's leases (PostgreSQL only): register, renew, take, give back, and the fence
    every round transaction passes.

    ``monotonic`` is the local clock the leases' validity is counted on (a test may move it).
    """

    def __init__(
        self,
        engine: Engine,
        config: NodeConfig,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError(
                f"a cluster node needs PostgreSQL (got a {engine.dialect.name} database): "
                "SQLite has one writer, so it serves one process"
            )
        self.engine = engine
        self.config = config
        self.owner = secrets.token_hex(8)
        self.monotonic = monotonic
        self.held: dict[str, int] = {}  # table -> epoch
        self._valid_until: dict[str, float] = {}
        self.renewed_at: float | None = None  # monotonic time of the last heartbeat sent

    @property
    def _safe(self) -> float:
        """How long after sending a renewal its leases count as held here (80%)."""
        return 0.8 * self.config.lease_seconds

    def register(self) -> None:
        """Enter this node (a new incarnation) in ``nodes``."""
        with self.engine.begin() as c:
            c.execute(
                _REGISTER,
                {"node": self.config.node_id, "url": self.config.advertise_url, "me": self.owner},
            )

    def heartbeat_current(self) -> bool:
        """Whether this node's last heartbeat went out within the lease time (a node that
        has not heartbeated yet is current for its first lease time)."""
        if self.renewed_at is None:
            return True
        return self.monotonic() - self.renewed_at < self.config.lease_seconds

    def valid(self, table_id: str) -> bool:
        """Whether this node may deal the table now (held, and renewed recently enough)."""
        return self.monotonic() < self._valid_until.get(table_id, float("-inf"))

    def renew(self) -> tuple[list[str], set[str]]:
        """Heartbeat and renew every lease held: returns the live nodes and the tables whose
        lease was lost (no longer this node's, or expired before the renewal)."""
        sent = self.monotonic()
        ttl = self.config.lease_seconds
        with self.engine.begin() as c:
            if c.execute(_HEARTBEAT, {"node": self.config.node_id}).rowcount == 0:
                # pruned while away (paused, or the database was): enter the node again
                c.execute(
                    _REGISTER,
                    {"node": self.config.node_id, "url": self.config.advertise_url,
                     "me": self.owner},
                )  # fmt: skip
            held = list(self.held)
            renewed = {
                row[0] for row in c.execute(_RENEW, {"me": self.owner, "ttl": ttl, "held": held})
            }
            nodes = [row[0] for row in c.execute(_LIVE_NODES, {"ttl": ttl})]
        self.renewed_at = sent
        lost = set(self.held) - renewed
        for table_id in renewed & set(self.held):
            self._valid_until[table_id] = sent + self._safe
        for table_id in lost:
            self.forget(table_id)
        return nodes, lost

    def acquire(self, table_id: str) -> int | None:
        """Take a table's lease if it is free, expired or already this process's: the new
        epoch, or None (another node holds it)."""
        sent = self.monotonic()
        params = {
            "table": table_id,
            "node": self.config.node_id,
            "me": self.owner,
            "ttl": self.config.lease_seconds,
        }
        with self.engine.begin() as c:
            epoch = c.execute(_ACQUIRE, params).scalar()
        if epoch is None:
            return None
        self.held[table_id] = int(epoch)
        self._valid_until[table_id] = sent + self._safe
        return int(epoch)

    def forget(self, table_id: str) -> None:
        """Stop counting a table as held (its lease was lost or given back)."""
        self.held.pop(table_id, None)
        self._valid_until.pop(table_id, None)

    def release(self, table_id: str) -> None:
        """Give a table's lease back (expired at once, for another node to take)."""
        self.forget(table_id)
        with self.engine.begin() as c:
            c.execute(_RELEASE, {"table": table_id, "me": self.owner})

    def release_all(self) -> None:
        """Give back every lease (a clean shutdown)."""
        for table_id in list(self.held):
            self.release(table_id)

    def leave(self) -> None:
        """Give back every lease and mark this node gone (its heartbeat long past), so the
        other nodes take its tables on their next turn (a drain)."""
        self.release_all()
        with self.engine.begin() as c:
            c.execute(_GONE, {"node": self.config.node_id, "me": self.owner})

    def any_free(self, tables: Sequence[str]) -> bool:
        """Whether one of ``tables`` has its lease free (given back or expired): a node then
        renews and rebalances at once instead of on its next turn."""
        with self.engine.connect() as c:
            return c.execute(_ANY_FREE, {"tables": list(tables)}).first() is not None

    def publish(self, summaries: dict[str, dict[str, Any]]) -> None:
        """Write what the lobby shows of the tables held (free boxes, players)."""
        import json

        with self.engine.begin() as c:
            for table_id, summary in summaries.items():
                c.execute(
                    _SUMMARY, {"table": table_id, "me": self.owner, "summary": json.dumps(summary)}
                )

    def owners(self) -> dict[str, TableOwner]:
        """Every lease: the node holding it, whether it is live, the lobby's summary."""
        with self.engine.connect() as c:
            rows = c.execute(_OWNERS, {"ttl": self.config.lease_seconds}).all()
        return {t: TableOwner(node, bool(live), summary) for t, node, live, summary in rows}

    def fence(self, conn: Connection, table_id: str | None, round_id: int | None) -> None:
        """Inside a round's transaction: lock the table's lease row and check this process
        holds it, or raise :class:`LeaseLostError` (the transaction then rolls back)."""
        if table_id is not None:
            found = conn.execute(_FENCE_TABLE, {"table": table_id, "me": self.owner}).first()
        else:
            found = conn.execute(_FENCE_ROUND, {"round": round_id, "me": self.owner}).first()
        if found is None:
            raise LeaseLostError(
                f"node {self.config.node_id!r} does not hold the lease of "
                + (f"table {table_id!r}" if table_id is not None else f"round {round_id}'s table")
            )


def prune_nodes(engine: Engine, older_than: float) -> list[str]:
    """Forget the nodes whose last heartbeat is older than ``older_than`` seconds (a node
    drained or gone for good); returns their ids. Their leases expired long ago, so any node
    may take their tables; a node that comes back registers again."""
    with engine.begin() as c:
        rows = c.execute(_PRUNE, {"age": older_than}).all()
    return sorted(r[0] for r in rows)


def nodes_of(engine: Engine) -> Sequence[tuple[str, str]]:
    """The nodes registered in a database (for ``twentyone proxy-config``)."""
    with engine.connect() as c:
        return [(n, u) for n, u in c.execute(_NODES).all()]
