"""A cluster node's loop: renew its leases, take the tables it is preferred for, give back the
ones it is not, bring taken tables to life (their open rounds refunded first) and drop lost
ones, and publish what the lobby shows of its tables (:mod:`twentyone.web.cluster`).

The database calls run in a worker thread; the tables are changed on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from sqlalchemy.exc import DBAPIError

from twentyone.engine.ledger import LedgerUnavailableError
from twentyone.web.cluster import MOVED, MOVING, Leases, TableOwner, preferred, route
from twentyone.web.ledger import Ledger
from twentyone.web.tables import LiveTable, TableConfig
from twentyone.web.ws import Hub

__all__ = ["ClusterNode"]

log = logging.getLogger("twentyone.web")


class ClusterNode:
    """Runs one node's leases against its :class:`~twentyone.web.ws.Hub`."""

    def __init__(
        self,
        leases: Leases,
        hub: Hub,
        configs: Mapping[str, TableConfig],
        make_live: Callable[[TableConfig], LiveTable],
        ledger: Ledger,
        *,
        live_sessions: Callable[[set[str]], set[str]] | None = None,
        wake_seconds: float = 0.2,
    ) -> None:
        self.leases = leases
        self.hub = hub
        self.configs = configs
        self.make_live = make_live
        self.ledger = ledger
        self.wake_seconds = wake_seconds
        self.live_sessions = live_sessions
        self.node_id = leases.config.node_id
        self.live_nodes: list[str] = [self.node_id]
        self._next_renew = 0.0
        self._published: dict[str, dict[str, Any]] = {}
        self._owners: tuple[float, dict[str, TableOwner]] = (float("-inf"), {})
        self.draining = False  # set by a drain: no new lease
        # the database away: since when (its tables wait, paused); and when it came back
        # (a quiet period of one lease time follows, so every owner renews before anyone
        # takes a lease that ran out during the outage)
        self.cut_off_since: float | None = None
        self.back_at: float | None = None
        hub.paused = self.paused
        hub.may_deal = leases.valid
        hub.on_drop = self._dropped
        ledger.fence = leases.fence

    # ----------------------------------------------------------------- the loop
    async def run(self) -> None:
        """Register, then keep the leases until cancelled (the app's lifespan does both)."""
        await asyncio.to_thread(self.leases.register)
        while True:
            try:
                await self.step()
            except (DBAPIError, LedgerUnavailableError, OSError) as exc:
                # the database is away: the tables wait, paused (no money moves without it,
                # and the lease fence still guards every transaction); try again next wake
                if self.cut_off_since is None:
                    self.cut_off_since = self.leases.monotonic()
                    log.warning("node %s: the database is away, tables paused: %s",
                                self.node_id, exc)  # fmt: skip
            await asyncio.sleep(self.wake_seconds)

    async def step(self) -> None:
        """One turn: renew when due (and rebalance), publish the lobby's summaries."""
        now = self.leases.monotonic()
        due = now >= self._next_renew
        if not due and not self.draining:  # a table given back (a drain): take it now
            due = await asyncio.to_thread(self.leases.any_free, list(self.configs))
        if due:
            self._next_renew = now + self.leases.config.renew_seconds
            nodes, lost = await asyncio.to_thread(self.leases.renew)
            if self.cut_off_since is not None:  # back: the tables still ours go on
                log.warning("node %s: the database is back after %.1f s", self.node_id,
                            now - self.cut_off_since)  # fmt: skip
                self.cut_off_since = None
                self.back_at = now
            self.live_nodes = nodes if self.node_id in nodes else [*nodes, self.node_id]
            for table_id in lost:
                self.hub.drop_table(table_id, MOVING)
            await self._rebalance()
            await self._end_logged_out()
        await self._publish()

    async def _end_logged_out(self) -> None:
        """Close the sockets whose login session ended on another node (a logout there,
        ``POST /api/logout-all``): within a renewal (a second)."""
        if self.live_sessions is None:
            return
        tokens = {c.session for conns in self.hub.connections.values() for c in conns if c.session}
        if not tokens:
            return
        live = await asyncio.to_thread(self.live_sessions, tokens)
        for token in tokens - live:
            self.hub.close_sockets(session=token)

    async def _rebalance(self) -> None:
        if self.draining:
            return
        held = self.leases.held
        for table_id, config in self.configs.items():
            wanted = preferred(table_id, self.live_nodes) == self.node_id
            if table_id in held:
                if table_id not in self.hub.tables:  # dropped here, lease still ours
                    await self._bring_up(config)
                elif not wanted and self._idle(self.hub.tables[table_id]):
                    self.hub.drop_table(table_id, MOVING)
                    await asyncio.to_thread(self.leases.release, table_id)
                continue
            quiet = self.back_at is not None and (
                self.leases.monotonic() - self.back_at < self.leases.config.lease_seconds
            )
            if quiet:  # just back from an outage: the owners renew theirs first
                continue
            if wanted and await asyncio.to_thread(self.leases.acquire, table_id) is not None:
                await self._bring_up(config)

    async def _bring_up(self, config: TableConfig) -> None:
        """A table just taken: refund what its previous holder left open, then deal it."""
        refunded = await asyncio.to_thread(self.ledger.refund_open_rounds, [config.id])
        if refunded:
            log.warning("node %s took %s: refunded rounds %s", self.node_id, config.id, refunded)
        if self.leases.valid(config.id):
            self.hub.add_table(self.make_live(config))

    def paused(self, table_id: str) -> bool:
        """Whether a table this node may not deal now waits rather than goes: the database
        is away and the lease was this node's when it went."""
        return self.cut_off_since is not None and table_id in self.leases.held

    @staticmethod
    def _idle(table: LiveTable) -> bool:
        """Nobody seated and no round in play: the table can move without anyone noticing."""
        return not table.seats and table.played is None

    def _dropped(self, table_id: str) -> None:
        self.leases.forget(table_id)
        self._published.pop(table_id, None)

    async def _publish(self) -> None:
        summaries = {t: summary(table) for t, table in self.hub.tables.items()}
        changed = {t: s for t, s in summaries.items() if self._published.get(t) != s}
        if changed:
            await asyncio.to_thread(self.leases.publish, changed)
            self._published.update(changed)

    # ----------------------------------------------------------------- where tables are
    def owners(self, max_age: float = 0.2) -> dict[str, TableOwner]:
        """Every table's lease (read at most ``max_age`` seconds ago)."""
        read, owners = self._owners
        now = time.monotonic()
        if now - read > max_age:
            owners = self.leases.owners()
            self._owners = (now, owners)
        return owners

    def redirect(self, table_id: str) -> tuple[int, str]:
        """The close code and reason for a socket to a table this node does not deal:
        :data:`MOVED` with the owner's socket path, or :data:`MOVING` while nobody holds it."""
        owner = self.owners().get(table_id)
        if owner is None or not owner.live or owner.node_id == self.node_id:
            return MOVING, ""
        return MOVED, f"{route(owner.node_id)}/ws/tables/{quote(table_id, safe='')}"


def summary(table: LiveTable) -> dict[str, Any]:
    """What the lobby shows of a table."""
    return {"free_boxes": table.free_boxes(), "players": sorted(table.seats)}
