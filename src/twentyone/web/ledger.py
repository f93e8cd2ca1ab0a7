"""The double-entry ledger: every movement of play money is one entry between two accounts.

Accounts: each player's wallet, and two system accounts: ``bank`` (where a new player's
starting balance comes from) and ``house`` (the other side of every bet). An entry moves a
positive integer ``amount`` from its debit account to its credit account and changes both
balances in the same transaction, so the sum over all accounts is always zero. A player's
balance never goes below zero: the debit is guarded in SQL and by a ``CHECK`` constraint.

A round's money follows the engine's own records: every :class:`~twentyone.records.Payment`
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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    bindparam,
    case,
    event,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from twentyone.ledger import InsufficientFundsError, LedgerUnavailableError, RoundMove
from twentyone.web.ledger_sql import StatementRunner
from twentyone.web.stats import COUNTERS, empty_stats, round_stats
from twentyone.web.storage.models import (
    Account,
    GameRound,
    LedgerEntry,
    PlayerStats,
    RoundPlayer,
    utcnow,
)

BANK = "@bank"
HOUSE = "@house"
_MOVED = "twentyone_moved"
#: The round methods' kept connection is pinged before a transaction when it has been idle
#: this long (seconds): a database restarted meanwhile (PostgreSQL's sessions are cut off)
#: is found out before a round's stakes are written, not by a failed round start.
PING_AFTER_IDLE = 1.0


_ACCOUNTS = cast(Table, Account.__table__)
_ENTRIES = cast(Table, LedgerEntry.__table__)
_ROUNDS = cast(Table, GameRound.__table__)
_ROUND_PLAYERS = cast(Table, RoundPlayer.__table__)
_STATS = cast(Table, PlayerStats.__table__)
# the round-money statements, built once (Core: no ORM bookkeeping on the hot path)
_POSTED_KEYS = select(_ENTRIES.c.key).where(_ENTRIES.c.key.in_(bindparam("keys", expanding=True)))
_DEBIT_PLAYER = (
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("acct"), _ACCOUNTS.c.balance >= bindparam("amount"))
    .values(balance=_ACCOUNTS.c.balance - bindparam("amount"))
)
_INSERT_ROUND = _ROUNDS.insert().returning(_ROUNDS.c.id)
_INSERT_ROUND_PLAYER = _ROUND_PLAYERS.insert()
_INSERT_ENTRY = _ENTRIES.insert()
_CREDIT = (
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("acct"))
    .values(balance=_ACCOUNTS.c.balance + bindparam("amount"))
)
_ROUND_PROGRESS = (
    update(_ROUNDS)
    .where(_ROUNDS.c.id == bindparam("rid"))
    .values(replay=bindparam("replay"), clock_decisions=bindparam("clock_decisions"))
)
_ROUND_SETTLED = (
    update(_ROUNDS)
    .where(_ROUNDS.c.id == bindparam("rid"), _ROUNDS.c.status == "open")
    .values(
        status="settled",
        finished_at=bindparam("finished_at"),
        replay=bindparam("replay"),
        result=bindparam("result"),
        clock_decisions=bindparam("clock_decisions"),
    )
)
_ROUND_PLAYER_RESULT = (
    update(_ROUND_PLAYERS)
    .where(
        _ROUND_PLAYERS.c.round_id == bindparam("rid"),
        _ROUND_PLAYERS.c.account_id == bindparam("acct"),
    )
    .values(staked=bindparam("st"), net=bindparam("nt"))
)

_NET: Any = bindparam("net")
_STATS_ADD = (
    update(_STATS)
    .where(_STATS.c.account_id == bindparam("acct"))
    .values(
        rounds=_STATS.c.rounds + 1,
        **{
            c: getattr(_STATS.c, c) + bindparam(c)
            for c in ("hands", "won", "pushed", "lost", "blackjacks", "staked", "net")
        },
        best=case((or_(_STATS.c.best.is_(None), _STATS.c.best < _NET), _NET), else_=_STATS.c.best),
        worst=case(
            (or_(_STATS.c.worst.is_(None), _STATS.c.worst > _NET), _NET), else_=_STATS.c.worst
        ),
    )
)


def _stats_row(dialect: str) -> Any:
    """An INSERT of a player's statistics row that does nothing when the row is there."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(_STATS).on_conflict_do_nothing(index_elements=["account_id"])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(_STATS).on_conflict_do_nothing(index_elements=["account_id"])


__all__ = ["BANK", "HOUSE", "InsufficientFundsError", "Ledger", "RoundMove"]


class Ledger:
    """Posting and reading entries; round money (stakes, payments, settlement, refunds): the
    :class:`twentyone.ledger.Ledger` protocol kept in SQL."""

    def __init__(self, engine: Engine, *, shared: bool = False) -> None:
        self.engine = engine
        # several processes write this database (a cluster): a cached balance is read again
        # after a second, since another node may have moved it
        self.shared = shared
        self._cache_read: dict[int, float] = {}
        # a cluster node's lease check, run first in every round transaction
        self.fence: Callable[[Connection, str | None, int | None], None] | None = None
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._cache: dict[int, int] = {}
        self._cache_epoch = 0
        self._cache_lock = threading.Lock()
        self._round_conn: Connection | None = None
        self._round_used = 0.0  # time.monotonic() of the kept connection's last transaction
        self._sql = StatementRunner(engine.dialect)
        self._round_lock = threading.Lock()
        event.listen(self.sessions, "after_commit", self._committed)
        event.listen(self.sessions, "after_rollback", self._rolled_back)
        self.bank_id = self._system_account(BANK, "bank")
        self.house_id = self._system_account(HOUSE, "house")

    def _system_account(self, name: str, kind: str) -> int:
        for _attempt in range(2):
            try:
                with self.sessions.begin() as s:
                    found = s.scalar(select(Account.id).where(Account.username_key == name))
                    if found is not None:
                        return found
                    acct = Account(kind=kind, username=name, username_key=name, balance=0)
                    s.add(acct)
                    s.flush()
                    return acct.id
            except IntegrityError:  # another process (a cluster's node) made it meanwhile
                continue
        raise LedgerUnavailableError(f"cannot make the system account {name!r}")

    # ----------------------------------------------------------------- round connection
    @contextlib.contextmanager
    def _round_transaction(self) -> Iterator[Connection]:
        """A transaction on the connection the round methods keep (taking one from the pool
        for each round's every step cost more than the statements): committed when the block
        ends, rolled back when it raises. A connection the driver lost is replaced, and one
        idle for :data:`PING_AFTER_IDLE` seconds is pinged first (as the pool's pre-ping does
        for the connections it hands out), so that a database restarted since costs nothing."""
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
                self._round_used = now
                with conn.begin():
                    yield conn
            except (DBAPIError, sqlite3.DatabaseError) as exc:
                # down, restarted, read-only, locked: nothing was posted (the SQLite fast
                # path raises the driver's own errors)
                if isinstance(exc, DBAPIError) and exc.connection_invalidated:
                    if self._round_conn is not None:
                        self._round_conn.close()
                    self._round_conn = None
                raise LedgerUnavailableError(f"the ledger cannot write: {exc}") from exc

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

    # ----------------------------------------------------------------- balance cache
    @staticmethod
    def _moved(s: Session, account_id: int, amount: int) -> None:
        """Note that this session's transaction moved ``amount`` onto an account."""
        moved: dict[int, int] = s.info.setdefault(_MOVED, {})
        moved[account_id] = moved.get(account_id, 0) + amount

    def _committed(self, s: Session) -> None:
        """After a commit: the cached balances move as the transaction moved them (a read
        in flight meanwhile is not cached)."""
        moved: dict[int, int] | None = s.info.pop(_MOVED, None)
        if moved:
            self._apply_moved(moved)

    def _rolled_back(self, s: Session) -> None:
        """After a rollback: nothing moved."""
        s.info.pop(_MOVED, None)

    def _apply_moved(self, moved: Mapping[int, int]) -> None:
        """After a transaction committed (a session's, or a round method's Core one): the
        cached balances move as it moved them."""
        if moved:
            with self._cache_lock:
                self._cache_epoch += 1
                for account_id, amount in moved.items():
                    if account_id in self._cache:
                        self._cache[account_id] += amount

    # ----------------------------------------------------------------- entries
    def post(
        self,
        s: Session,
        kind: str,
        debit: int,
        credit: int,
        amount: int,
        *,
        round_id: int | None = None,
        key: str | None = None,
    ) -> bool:
        """Move ``amount`` from ``debit`` to ``credit`` inside the session's transaction.

        Returns False (and changes nothing) when ``amount`` is zero or an entry with ``key``
        exists already; raises :class:`InsufficientFundsError` when a player's balance would
        go negative.
        """
        if amount == 0:
            return False
        if amount < 0:
            raise ValueError(f"amount {amount}: an entry moves a positive amount")
        if (
            key is not None
            and s.scalar(select(LedgerEntry.id).where(LedgerEntry.key == key)) is not None
        ):
            return False
        taken = s.execute(
            update(Account)
            .where(Account.id == debit, or_(Account.kind != "player", Account.balance >= amount))
            .values(balance=Account.balance - amount)
        )
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            have = s.scalar(select(Account.balance).where(Account.id == debit))
            raise InsufficientFundsError(
                "account-cannot-pay", account=debit, balance=have, amount=amount
            )
        self._moved(s, debit, -amount)
        self._moved(s, credit, amount)
        s.execute(
            update(Account).where(Account.id == credit).values(balance=Account.balance + amount)
        )
        s.add(
            LedgerEntry(
                kind=kind,
                debit_account_id=debit,
                credit_account_id=credit,
                amount=amount,
                round_id=round_id,
                key=key,
            )
        )
        s.flush()
        return True

    def balance(self, account_id: int) -> int:
        """An account's balance."""
        value = self.balances((account_id,)).get(account_id)
        if value is None:
            raise KeyError(f"no account {account_id}")
        return value

    def balances(self, account_ids: Iterable[int]) -> dict[int, int]:
        """Balances of several accounts at once (unknown accounts are left out)."""
        with self._cache_lock:
            epoch = self._cache_epoch
            cache = self._cache
            found: dict[int, int] = {}
            missing: list[int] = []
            stale = time.monotonic() - 1.0 if self.shared else None
            for i in account_ids:
                value = cache.get(i)
                if value is None or (stale is not None and self._cache_read.get(i, 0) < stale):
                    missing.append(i)
                else:
                    found[i] = value
        if missing:
            with self.sessions() as s:
                result = s.execute(
                    select(Account.id, Account.balance).where(Account.id.in_(missing))
                )
                rows = {i: b for i, b in result}
            with self._cache_lock:
                if self._cache_epoch == epoch:  # no commit since the read began
                    self._cache.update(rows)
                    if self.shared:
                        now = time.monotonic()
                        self._cache_read.update(dict.fromkeys(rows, now))
            found.update(rows)
        return found

    def total(self) -> int:
        """The sum over all accounts (zero, always)."""
        with self.sessions() as s:
            return int(s.scalar(select(func.coalesce(func.sum(Account.balance), 0))) or 0)

    def audit(self) -> list[str]:
        """Every inconsistency found: a balance that differs from its entries, a negative
        player balance, a total that is not zero. Empty when the books are right."""
        problems = []
        with self.sessions() as s:
            credits = dict(
                s.execute(
                    select(LedgerEntry.credit_account_id, func.sum(LedgerEntry.amount)).group_by(
                        LedgerEntry.credit_account_id
                    )
                ).all()
            )
            debits = dict(
                s.execute(
                    select(LedgerEntry.debit_account_id, func.sum(LedgerEntry.amount)).group_by(
                        LedgerEntry.debit_account_id
                    )
                ).all()
            )
            total = 0
            for acct in s.scalars(select(Account)):
                expected = int(credits.get(acct.id, 0)) - int(debits.get(acct.id, 0))
                total += acct.balance
                if acct.balance != expected:
                    problems.append(
                        f"{acct.username}: balance {acct.balance}, entries say {expected}"
                    )
                if acct.kind == "player" and acct.balance < 0:
                    problems.append(f"{acct.username}: negative balance {acct.balance}")
            if total != 0:
                problems.append(f"the accounts sum to {total}, not 0")
        return problems

    # ----------------------------------------------------------------- round money
    def _post_moves(
        self,
        conn: Connection,
        moved: dict[int, int],
        round_id: int,
        moves: Iterable[RoundMove],
        *,
        new_round: bool = False,
    ) -> None:
        """Post a round's moves against the house, as :meth:`post` would one by one, in a
        few Core statements: one look-up of the keys already posted (none for a round this
        transaction created), the guarded updates of the stakes (one statement for them all
        where the driver counts the rows an executemany changed), one update for the payments,
        one of the house, one insert of the entries. What moved on each account is added to
        ``moved`` (for the balance cache, once the transaction commits)."""
        keyed = {f"round:{round_id}:{m.index}": m for m in moves if m.amount}
        if not keyed:
            return
        done: set[str] = (
            set()
            if new_round
            else self._sql.values_in(conn, _POSTED_KEYS, _ENTRIES.c.key, list(keyed))
        )
        rows: list[dict[str, Any]] = []
        debits: list[dict[str, int]] = []
        credits: list[dict[str, int]] = []
        house_delta = 0
        now = utcnow()
        for key, m in keyed.items():
            if key in done:
                continue
            amount = abs(m.amount)
            if m.amount < 0:  # a stake: the player pays the house, never below zero
                debits.append({"acct": m.account_id, "amount": amount})
                debit, credit, kind = m.account_id, self.house_id, "stake"
                house_delta += amount
            else:  # a payment from the house (which may go negative)
                credits.append({"acct": m.account_id, "amount": amount})
                debit, credit, kind = self.house_id, m.account_id, "payout"
                house_delta -= amount
            delta = -amount if m.amount < 0 else amount
            moved[m.account_id] = moved.get(m.account_id, 0) + delta
            rows.append(
                {
                    "kind": kind,
                    "debit_account_id": debit,
                    "credit_account_id": credit,
                    "amount": amount,
                    "round_id": round_id,
                    "key": key,
                    "created_at": now,
                }
            )
        self._take_stakes(conn, debits)
        if credits:
            self._sql.run(conn, _CREDIT, credits)
        if house_delta:
            self._sql.run(conn, _CREDIT, {"acct": self.house_id, "amount": house_delta})
            moved[self.house_id] = moved.get(self.house_id, 0) + house_delta
        if rows:
            self._sql.run(conn, _INSERT_ENTRY, rows)

    def _take_stakes(self, conn: Connection, debits: list[dict[str, int]]) -> None:
        """Debit each stake from its player, each update guarded (``balance >= amount``);
        raises :class:`InsufficientFundsError` (the caller's transaction then rolls back)
        when any one of them finds too little."""
        if not debits:
            return
        if len(debits) > 1 and conn.dialect.supports_sane_multi_rowcount:
            if self._sql.run(conn, _DEBIT_PLAYER, debits).rowcount == len(debits):
                return
            raise InsufficientFundsError(
                "stakes-cannot-pay",
                stakes=", ".join(f"{d['amount']} from account {d['acct']}" for d in debits),
            )
        for d in debits:
            if self._sql.run(conn, _DEBIT_PLAYER, d).rowcount != 1:
                have = conn.scalar(select(Account.balance).where(Account.id == d["acct"]))
                raise InsufficientFundsError(
                    "account-cannot-pay", account=d["acct"], balance=have, amount=d["amount"]
                )

    def start_round(
        self,
        table_id: str,
        rules: str,
        replay: dict[str, Any],
        players: Sequence[int],
        moves: Iterable[RoundMove],
    ) -> int:
        """Record a new round and take its stakes, all in one transaction; returns its id.

        Raises :class:`InsufficientFundsError` (and records nothing) when a player cannot pay.
        """
        moved: dict[int, int] = {}
        with self._round_transaction() as conn:
            if self.fence is not None:
                self.fence(conn, table_id, None)
            round_id: int = self._sql.run(
                conn,
                _INSERT_ROUND,
                {
                    "table_id": table_id,
                    "rules": rules,
                    "status": "open",
                    "started_at": utcnow(),
                    "replay": replay,
                    "clock_decisions": [],
                },
                fetch=True,
            ).scalar_one()
            if players:
                self._sql.run(
                    conn,
                    _INSERT_ROUND_PLAYER,
                    [
                        {"round_id": round_id, "account_id": a, "staked": 0, "net": 0}
                        for a in players
                    ],
                )
            self._post_moves(conn, moved, round_id, moves, new_round=True)
        self._apply_moved(moved)
        return round_id

    def record_moves(
        self,
        round_id: int,
        moves: Iterable[RoundMove],
        replay: dict[str, Any],
        clock_decisions: Sequence[int] = (),
    ) -> None:
        """Post a round's new payments (doubles, splits, insurance, money paid at once) and
        store its replay so far."""
        moved: dict[int, int] = {}
        with self._round_transaction() as conn:
            if self.fence is not None:
                self.fence(conn, None, round_id)
            self._post_moves(conn, moved, round_id, moves)
            self._sql.run(
                conn,
                _ROUND_PROGRESS,
                {"rid": round_id, "replay": replay, "clock_decisions": list(clock_decisions)},
            )
        self._apply_moved(moved)

    def settle_round(
        self,
        round_id: int,
        moves: Iterable[RoundMove],
        replay: dict[str, Any],
        result: dict[str, Any],
        per_player: Mapping[int, tuple[int, int]],
        clock_decisions: Sequence[int] = (),
    ) -> bool:
        """Post the round's last payments and mark it settled, once: returns False and
        changes nothing when the round is not open (settled or refunded already).
        ``per_player`` maps an account to (staked, net)."""
        moved: dict[int, int] = {}
        with self._round_transaction() as conn:
            if self.fence is not None:
                self.fence(conn, None, round_id)
            marked = self._sql.run(
                conn,
                _ROUND_SETTLED,
                {
                    "rid": round_id,
                    "finished_at": utcnow(),
                    "replay": replay,
                    "result": result,
                    "clock_decisions": list(clock_decisions),
                },
            )
            if marked.rowcount != 1:
                return False
            self._post_moves(conn, moved, round_id, moves)
            if per_player:
                self._sql.run(
                    conn,
                    _ROUND_PLAYER_RESULT,
                    [
                        {"rid": round_id, "acct": a, "st": staked, "nt": net}
                        for a, (staked, net) in per_player.items()
                    ],
                )
                self._add_stats(conn, result, per_player)
        self._apply_moved(moved)
        return True

    def _add_stats(
        self,
        conn: Connection,
        result: Mapping[str, Any],
        per_player: Mapping[int, tuple[int, int]],
    ) -> None:
        """Add a settled round to its players' statistics (``twentyone.web.stats``)."""
        names = dict(
            conn.execute(
                select(_ACCOUNTS.c.username, _ACCOUNTS.c.id).where(
                    _ACCOUNTS.c.id.in_(list(per_player))
                )
            ).all()
        )
        for name, add in round_stats(dict(result)).items():
            acct = names.get(name)
            if acct is None:
                continue
            params = {**add, "acct": acct, "staked": per_player[acct][0]}
            if conn.execute(_STATS_ADD, params).rowcount == 0:  # the player's first round
                # another node may be settling this player's first round at another table:
                # the row is made once, and both rounds add to it
                zero = dict.fromkeys(COUNTERS, 0)
                conn.execute(_stats_row(conn.dialect.name), {**zero, "account_id": acct})
                conn.execute(_STATS_ADD, params)

    def stats(self, account_id: int) -> dict[str, Any]:
        """A player's statistics over every settled round (zeros before the first)."""
        with self.sessions() as s:
            row = s.get(PlayerStats, account_id)
            if row is None:
                return empty_stats()
            return {c: getattr(row, c) for c in (*COUNTERS, "best", "worst")}

    def refund_round(self, round_id: int) -> bool:
        """Void one open round as a restart does (False: it was not open)."""
        try:
            with self.sessions.begin() as s:
                status = s.scalar(select(GameRound.status).where(GameRound.id == round_id))
                if status != "open":
                    return False
                refunded = bool(self._refund(s, [round_id]))
        except DBAPIError as exc:
            raise LedgerUnavailableError(f"the ledger cannot write: {exc.orig}") from exc
        return refunded

    def refund_open_rounds(self, table_ids: Sequence[str] | None = None) -> list[int]:
        """Void every round still open (a restart cut it short), or those of the given
        tables (a cluster node taking them over): each player gets back exactly what the
        round's entries took from them, net of what it paid them, and the round is marked
        refunded. Returns the rounds refunded."""
        query = select(GameRound.id).where(GameRound.status == "open")
        if table_ids is not None:
            query = query.where(GameRound.table_id.in_(list(table_ids)))
        with self.sessions.begin() as s:
            return self._refund(s, list(s.scalars(query.order_by(GameRound.id))))

    def _refund(self, s: Session, round_ids: Sequence[int]) -> list[int]:
        done = []
        for round_id in round_ids:
            # marked first, and only while open: a settlement committing meanwhile (another
            # process) makes this a no-op instead of a second payment
            marked = s.execute(
                update(GameRound)
                .where(GameRound.id == round_id, GameRound.status == "open")
                .values(status="refunded", finished_at=utcnow())
            )
            if cast(Any, marked).rowcount != 1:
                continue
            paid_in: dict[int, int] = {}
            for e in s.scalars(select(LedgerEntry).where(LedgerEntry.round_id == round_id)):
                if e.credit_account_id == self.house_id:
                    paid_in[e.debit_account_id] = paid_in.get(e.debit_account_id, 0) + e.amount
                elif e.debit_account_id == self.house_id:
                    paid_in[e.credit_account_id] = paid_in.get(e.credit_account_id, 0) - e.amount
            for account_id, amount in sorted(paid_in.items()):
                key = f"round:{round_id}:refund:{account_id}"
                if amount > 0:
                    self.post(
                        s,
                        "refund",
                        self.house_id,
                        account_id,
                        amount,
                        round_id=round_id,
                        key=key,
                    )
                elif amount < 0:
                    self.post(
                        s,
                        "refund",
                        account_id,
                        self.house_id,
                        -amount,
                        round_id=round_id,
                        key=key,
                    )
                s.execute(
                    update(RoundPlayer)
                    .where(RoundPlayer.round_id == round_id, RoundPlayer.account_id == account_id)
                    .values(staked=max(amount, 0), net=0)
                )
            done.append(round_id)
        return done
