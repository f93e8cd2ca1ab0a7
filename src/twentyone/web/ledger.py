"""The double-entry ledger: every movement of play money is one entry between two accounts.

Accounts: each player's wallet, and two system accounts: ``bank`` (where a new player's
starting balance comes from) and ``house`` (the other side of every bet). An entry moves a
positive integer ``amount`` from its debit account to its credit account and changes both
balances in the same transaction, so the sum over all accounts is always zero. A player's
balance never goes below zero: the debit is guarded in SQL and by a ``CHECK`` constraint.

A round's money follows the engine's own records: every :class:`~twentyone.engine.records.Payment`
in a round's log becomes one entry, keyed by the round and the record's index in the log, so
posting a record again (a retry, a repeated message, a restart) changes nothing. Stakes are
taken when the round starts (the round is only dealt once they are posted), doubles, splits
and insurance when they are made, and everything the round pays is posted once, when the
engine pays it; the round is then marked settled in the same transaction.

Balances are read often (every view carries the player's), so the ledger keeps them in
memory: each transaction of :attr:`Ledger.sessions` notes how much it moved on each account,
and when it commits the cached balances move by as much (when it rolls back, nothing moves).
All writes go through :meth:`Ledger.post` (in sessions of :attr:`Ledger.sessions`) or the
round methods (plain Core transactions, lighter than ORM sessions, which move the cache the
same way once they commit).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError

from twentyone.engine.ledger import InsufficientFundsError, LedgerUnavailableError, RoundMove
from twentyone.web.ledger_books import BANK, HOUSE
from twentyone.web.ledger_refunds import Refunds
from twentyone.web.ledger_rounds import RoundMoney

#: The round methods' kept connection is pinged before a transaction when it has been idle
#: this long (seconds): a database restarted meanwhile (PostgreSQL's sessions are cut off)
#: is found out before a round's stakes are written, not by a failed round start.
PING_AFTER_IDLE = 1.0

if TYPE_CHECKING:
    from twentyone.web.metrics import Metrics

__all__ = ["BANK", "HOUSE", "InsufficientFundsError", "Ledger", "RoundMove"]


class Ledger(RoundMoney, Refunds):
    """Posting and reading entries; round money (stakes, payments, settlement, refunds): the
    :class:`twentyone.engine.ledger.Ledger` protocol kept in SQL.

    The books are :class:`~twentyone.web.ledger_books.Books`', the round money
    :class:`~twentyone.web.ledger_rounds.RoundMoney`'s, the refunds
    :class:`~twentyone.web.ledger_refunds.Refunds`'; this class keeps the round methods'
    connection.

    ``synchronous_commit=False``: on PostgreSQL the round transactions (a round's start, its
    payments, its settlement) do not wait for the WAL's flush to disk when they commit
    (``serve --pg-synchronous-commit off``; :mod:`twentyone.web.ledger_sql`); the other
    transactions (accounts, refunds, sessions) still do."""

    def __init__(
        self, engine: Engine, *, shared: bool = False, synchronous_commit: bool = True
    ) -> None:
        self.metrics: Metrics | None = None  # counted when the server's metrics are on
        self._round_conn: Connection | None = None
        self._round_used = 0.0  # time.monotonic() of the kept connection's last transaction
        self._round_lock = threading.Lock()
        super().__init__(engine, shared=shared, synchronous_commit=synchronous_commit)

    # ----------------------------------------------------------------- round connection
    @contextlib.contextmanager
    def _round_transaction(
        self, table_id: str | None = None, round_id: int | None = None
    ) -> Iterator[Connection]:
        """A transaction on the connection the round methods keep (taking one from the pool
        for each round's every step cost more than the statements), beginning with the
        :attr:`fence` (a cluster node's lease check) of ``table_id`` or ``round_id``'s
        table: committed when the block ends, rolled back when it raises. A connection the
        driver lost is replaced, and one idle for :data:`PING_AFTER_IDLE` seconds is pinged
        first (as the pool's pre-ping does for the connections it hands out), so that a
        database restarted since costs nothing. On PostgreSQL the transaction runs in a
        pipeline (:meth:`~twentyone.web.ledger_sql.StatementRunner.transaction`)."""
        sql = self._sql
        errors: tuple[type[Exception], ...] = (
            DBAPIError,
            sqlite3.DatabaseError,
            *sql.driver_errors,
        )
        with self._round_lock:
            try:
                conn = self._round_conn
                now = time.monotonic()
                if conn is not None and now - self._round_used >= PING_AFTER_IDLE:
                    conn = self._alive(conn)
                if conn is None or conn.closed or conn.invalidated:
                    if conn is not None:
                        conn.close()
                    conn = self._round_conn = self.engine.connect()
                    if sql.pipelined:  # BEGIN and COMMIT are the pipeline's own statements
                        conn.execution_options(isolation_level="AUTOCOMMIT")
                self._round_used = now
                fence = self.fence
                first = None if fence is None else lambda: fence(conn, table_id, round_id)
                with conn.begin(), sql.transaction(conn, first):
                    yield conn
                if self.metrics is not None:  # the statements and the commit
                    self.metrics.commit_seconds.observe(time.monotonic() - now)
            except errors as exc:
                # down, restarted, read-only, locked: nothing was posted (the SQLite fast
                # path and the PostgreSQL pipeline raise the driver's own errors)
                lost = isinstance(exc, DBAPIError) and exc.connection_invalidated
                if lost or isinstance(exc, sql.driver_errors):
                    if self._round_conn is not None:
                        with contextlib.suppress(Exception):
                            self._round_conn.invalidate()
                        self._round_conn.close()
                    self._round_conn = None
                raise LedgerUnavailableError(f"the ledger cannot write: {exc}") from exc

    # ----------------------------------------------------------------- counted rounds
    def start_round(
        self,
        table_id: str,
        rules: str,
        replay: dict[str, Any],
        players: Sequence[int],
        moves: Iterable[RoundMove],
    ) -> int:
        round_id = super().start_round(table_id, rules, replay, players, moves)
        if self.metrics is not None:
            self.metrics.rounds.labels("started").inc()
        return round_id

    def settle_round(
        self,
        round_id: int,
        moves: Iterable[RoundMove],
        replay: dict[str, Any],
        result: dict[str, Any],
        per_player: Mapping[int, tuple[int, int]],
        clock_decisions: Sequence[int] = (),
    ) -> bool:
        settled = super().settle_round(round_id, moves, replay, result, per_player, clock_decisions)
        if settled and self.metrics is not None:
            self.metrics.rounds.labels("settled").inc()
        return settled

    def refund_round(self, round_id: int) -> bool:
        refunded = super().refund_round(round_id)
        if refunded and self.metrics is not None:
            self.metrics.rounds.labels("refunded").inc()
            self.metrics.refunds.inc()
        return refunded

    def refund_open_rounds(self, table_ids: Sequence[str] | None = None) -> list[int]:
        refunded = super().refund_open_rounds(table_ids)
        if refunded and self.metrics is not None:
            self.metrics.rounds.labels("refunded").inc(len(refunded))
            self.metrics.refunds.inc(len(refunded))
        return refunded

    @staticmethod
    def _alive(conn: Connection) -> Connection | None:
        """The connection if it answers a ping, else None (it is invalidated and closed)."""
        if conn.closed or conn.invalidated:
            return conn
        try:
            dbapi = conn.connection.dbapi_connection
            if dbapi is not None and conn.dialect.do_ping(dbapi):
                return conn
        except Exception:  # the driver's own error for a lost connection
            pass
        with contextlib.suppress(Exception):
            conn.invalidate()
        with contextlib.suppress(Exception):
            conn.close()
        return None

    def close(self) -> None:
        """Give back the round methods' connection (the app calls this on shutdown)."""
        with self._round_lock:
            if self._round_conn is not None:
                self._round_conn.close()
                self._round_conn = None
