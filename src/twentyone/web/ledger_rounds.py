"""The ledger's round money: a round recorded with its stakes, its payments posted as the
engine makes them, its settlement once, and the settled round added to its players'
statistics, each in one transaction on the connection the round methods keep.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import Connection, Engine, select

from twentyone.engine.ledger import InsufficientFundsError, RoundMove
from twentyone.web.ledger_books import Books
from twentyone.web.ledger_sql import Outcome, StatementRunner
from twentyone.web.ledger_statements import (
    ACCOUNTS,
    BALANCE_OF,
    CREDIT,
    DEBIT_PLAYER,
    ENTRIES,
    INSERT_ENTRY,
    INSERT_ROUND,
    INSERT_ROUND_PLAYER,
    NAMES_OF,
    POSTED_KEYS,
    ROUND_PLAYER_RESULT,
    ROUND_PROGRESS,
    ROUND_SETTLED,
    ROUNDS,
    STATS_ADD,
    stats_row,
)
from twentyone.web.stats import COUNTERS, round_stats
from twentyone.web.storage.models import utcnow


class RoundMoney(Books, ABC):
    """A round's money in the books: :meth:`start_round`, :meth:`record_moves`,
    :meth:`settle_round` (the :class:`twentyone.engine.ledger.Ledger` protocol's round methods)."""

    def __init__(
        self, engine: Engine, *, shared: bool = False, synchronous_commit: bool = True
    ) -> None:
        # a cluster node's lease check, run first in every round transaction
        self.fence: Callable[[Connection, str | None, int | None], None] | None = None
        self._sql = StatementRunner(engine.dialect, synchronous_commit=synchronous_commit)
        self._stats_row = stats_row(engine.dialect.name)
        self._numbers: dict[int, int] = {}  # a started round's number, until asked for
        super().__init__(engine, shared=shared)

    @abstractmethod
    def _round_transaction(
        self, table_id: str | None = None, round_id: int | None = None
    ) -> AbstractContextManager[Connection]:
        """A transaction for a round's step (:class:`~twentyone.web.ledger.Ledger` keeps its
        connection), beginning with the :attr:`fence` of the table or the round's table."""

    @staticmethod
    def _keyed(round_id: int, moves: Iterable[RoundMove]) -> dict[str, RoundMove]:
        """A round's moves that move money, by their entries' keys."""
        return {f"round:{round_id}:{m.index}": m for m in moves if m.amount}

    def _posted(self, conn: Connection, keyed: Mapping[str, RoundMove]) -> Outcome | None:
        """The look-up of the keys already posted (read later: in a pipeline it is answered
        with the statements sent after it)."""
        if not keyed:
            return None
        return self._sql.values_in(conn, POSTED_KEYS, ENTRIES.c.key, list(keyed))

    def _post_moves(
        self,
        conn: Connection,
        moved: dict[int, int],
        round_id: int,
        keyed: Mapping[str, RoundMove],
        posted: Outcome | None,
        *,
        stakes_taken: bool = False,
    ) -> None:
        """Post a round's moves (``keyed``: :meth:`_keyed`) against the house, as :meth:`post`
        would one by one, in a few Core statements: the guarded updates of the stakes (one
        statement for them all where the driver counts the rows an executemany changed;
        none when ``stakes_taken``: :meth:`start_round` took them already), one update for
        the payments, one of the house, one insert of the entries; those of the keys in
        ``posted`` (:meth:`_posted`) are left out. What moved on each account is added to
        ``moved`` (for the balance cache, once the transaction commits)."""
        if not keyed:
            return
        done = set(posted.scalars()) if posted is not None else set()
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
        if not stakes_taken:
            self._check_stakes(conn, debits, self._take_stakes(conn, debits))
        if credits:
            self._sql.run(conn, CREDIT, credits)
        if house_delta:
            self._sql.run(conn, CREDIT, {"acct": self.house_id, "amount": house_delta})
            moved[self.house_id] = moved.get(self.house_id, 0) + house_delta
        if rows:
            self._sql.run(conn, INSERT_ENTRY, rows)

    def _take_stakes(self, conn: Connection, debits: list[dict[str, int]]) -> list[Outcome]:
        """Debit each stake from its player, each update guarded (``balance >= amount``):
        one executemany where the driver counts its rows, else one update each. What they
        changed is read by :meth:`_check_stakes`."""
        if not debits:
            return []
        if len(debits) > 1 and conn.dialect.supports_sane_multi_rowcount:
            return [self._sql.run(conn, DEBIT_PLAYER, debits)]
        return [self._sql.run(conn, DEBIT_PLAYER, d) for d in debits]

    def _check_stakes(
        self, conn: Connection, debits: list[dict[str, int]], taken: list[Outcome]
    ) -> None:
        """Raise :class:`InsufficientFundsError` (the caller's transaction then rolls back)
        when any stake of :meth:`_take_stakes` found too little."""
        if not debits:
            return
        if len(taken) == 1 and len(debits) > 1:
            if taken[0].rowcount == len(debits):
                return
            raise InsufficientFundsError(
                "stakes-cannot-pay",
                stakes=", ".join(f"{d['amount']} from account {d['acct']}" for d in debits),
            )
        for d, outcome in zip(debits, taken, strict=True):
            if outcome.rowcount != 1:
                found = self._sql.run(conn, BALANCE_OF, {"acct": d["acct"]}, fetch=True)
                have = next(found.scalars(), None)
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
        by_index = {m.index: m for m in moves if m.amount}
        debits = [
            {"acct": m.account_id, "amount": -m.amount} for m in by_index.values() if m.amount < 0
        ]
        with self._round_transaction(table_id=table_id) as conn:
            # the stakes first: they are answered with the round's id (one round trip)
            taken = self._take_stakes(conn, debits)
            (row,) = self._sql.run(
                conn,
                INSERT_ROUND,
                {
                    "table_id": table_id,
                    "number_at": table_id,
                    "rules": rules,
                    "status": "open",
                    "started_at": utcnow(),
                    "replay": replay,
                    "clock_decisions": [],
                },
                fetch=True,
            ).rows
            self._check_stakes(conn, debits, taken)
            round_id, number = int(row[0]), int(row[1])
            if players:
                self._sql.run(
                    conn,
                    INSERT_ROUND_PLAYER,
                    [
                        {"round_id": round_id, "account_id": a, "staked": 0, "net": 0}
                        for a in players
                    ],
                )
            keyed = {f"round:{round_id}:{i}": m for i, m in by_index.items()}
            self._post_moves(conn, moved, round_id, keyed, None, stakes_taken=True)
        self._apply_moved(moved)
        self._numbers[round_id] = number
        return round_id

    def round_number(self, round_id: int) -> int:
        """A round's number at its table (counted from 1): kept from :meth:`start_round`,
        else read from the database."""
        number = self._numbers.pop(round_id, None)
        if number is not None:
            return number
        with self.engine.connect() as conn:
            found = conn.scalar(select(ROUNDS.c.number).where(ROUNDS.c.id == round_id))
        if found is None:
            raise KeyError(f"no round {round_id}")
        return int(found)

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
        with self._round_transaction(round_id=round_id) as conn:
            keyed = self._keyed(round_id, moves)
            posted = self._posted(conn, keyed)
            self._sql.run(
                conn,
                ROUND_PROGRESS,
                {"rid": round_id, "replay": replay, "clock_decisions": list(clock_decisions)},
            )
            self._post_moves(conn, moved, round_id, keyed, posted)
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
        with self._round_transaction(round_id=round_id) as conn:
            marked = self._sql.run(
                conn,
                ROUND_SETTLED,
                {
                    "rid": round_id,
                    "finished_at": utcnow(),
                    "replay": replay,
                    "result": result,
                    "clock_decisions": list(clock_decisions),
                },
            )
            # the look-ups go with it (in a pipeline, one round trip for the three)
            keyed = self._keyed(round_id, moves)
            posted = self._posted(conn, keyed)
            names = (
                self._sql.values_in(conn, NAMES_OF, ACCOUNTS.c.id, list(per_player))
                if per_player
                else None
            )
            if marked.rowcount != 1:
                return False
            self._post_moves(conn, moved, round_id, keyed, posted)
            if per_player:
                self._sql.run(
                    conn,
                    ROUND_PLAYER_RESULT,
                    [
                        {"rid": round_id, "acct": a, "st": staked, "nt": net}
                        for a, (staked, net) in per_player.items()
                    ],
                )
                assert names is not None
                self._add_stats(conn, result, per_player, {n: a for n, a in names.rows})
        self._apply_moved(moved)
        return True

    def _add_stats(
        self,
        conn: Connection,
        result: Mapping[str, Any],
        per_player: Mapping[int, tuple[int, int]],
        names: Mapping[str, int],
    ) -> None:
        """Add a settled round to its players' statistics (``twentyone.web.stats``);
        ``names``: their account ids by name."""
        for name, add in round_stats(dict(result)).items():
            acct = names.get(name)
            if acct is None:
                continue
            params = {**add, "acct": acct, "staked": per_player[acct][0]}
            zero = dict.fromkeys(COUNTERS, 0)
            if self._sql.pipelined:  # no row count to wait for: the row first, if missing
                self._sql.run(conn, self._stats_row, {**zero, "account_id": acct})
                self._sql.run(conn, STATS_ADD, params)
            elif self._sql.run(conn, STATS_ADD, params).rowcount == 0:  # the first round
                # another node may be settling this player's first round at another table:
                # the row is made once, and both rounds add to it
                self._sql.run(conn, self._stats_row, {**zero, "account_id": acct})
                self._sql.run(conn, STATS_ADD, params)
