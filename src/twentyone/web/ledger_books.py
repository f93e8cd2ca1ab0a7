"""The ledger's books: accounts (the ``bank`` and ``house`` system accounts among them), entries
posted between two accounts, balances (kept in memory, moved as each transaction commits),
the total, the audit and a player's statistics.

:class:`Books` is the base of :class:`~twentyone.web.ledger.Ledger`; the round money
(:mod:`twentyone.web.ledger_rounds`) and the refunds (:mod:`twentyone.web.ledger_refunds`)
build on it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Engine, event, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from twentyone.engine.ledger import InsufficientFundsError, LedgerUnavailableError
from twentyone.web.stats import COUNTERS, empty_stats
from twentyone.web.storage.models import Account, LedgerEntry, PlayerStats

BANK = "@bank"
HOUSE = "@house"
_MOVED = "twentyone_moved"


class Books:
    """Accounts, entries and balances: posting and reading (the base of
    :class:`~twentyone.web.ledger.Ledger`)."""

    def __init__(self, engine: Engine, *, shared: bool = False) -> None:
        self.engine = engine
        # several processes write this database (a cluster): a cached balance is read again
        # after a second, since another node may have moved it
        self.shared = shared
        self._cache_read: dict[int, float] = {}
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._cache: dict[int, int] = {}
        self._cache_epoch = 0
        self._cache_lock = threading.Lock()
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

    def stats(self, account_id: int) -> dict[str, Any]:
        """A player's statistics over every settled round (zeros before the first)."""
        with self.sessions() as s:
            row = s.get(PlayerStats, account_id)
            if row is None:
                return empty_stats()
            return {c: getattr(row, c) for c in (*COUNTERS, "best", "worst")}
