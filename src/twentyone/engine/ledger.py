"""Where a table's money lives: the :class:`Ledger` protocol a
:class:`~twentyone.engine.session.TableSession` posts its rounds to, and :class:`MemoryLedger`, the
one kept in memory (the terminal's shared table, tests). The web keeps its books in SQL
(``twentyone.web.ledger``) behind the same protocol.

A round's money follows the engine's own records: every
:class:`~twentyone.engine.records.Payment` of the round's log becomes one :class:`RoundMove`, keyed
by the round and the record's index, so posting a move twice changes nothing. Stakes are
taken when the round starts (all of them or none), doubles, splits and insurance when they
are made, and what the round pays when the engine pays it. A player's balance never goes
below zero; the house's may.

>>> ledger = MemoryLedger()
>>> ann = ledger.open_account("ann", 1000)
>>> rid = ledger.start_round("t", "ro-casino", {}, [ann], [RoundMove(0, ann, -300)])
>>> ledger.balance(ann), ledger.house
(700, 300)
>>> ledger.settle_round(rid, [RoundMove(5, ann, 600)], {}, {}, {ann: (300, 300)})
True
>>> ledger.balance(ann), ledger.house, ledger.total()
(1300, -300, 1000)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from twentyone.engine.errors import TwentyOneError


class InsufficientFundsError(TwentyOneError):
    """A debit would take a player's balance below zero."""


@dataclass(frozen=True, slots=True)
class RoundMove:
    """One engine payment of a round, ready for the ledger: ``amount`` < 0 is a stake the
    player pays the house, > 0 a payment from the house. ``index`` is its place in the log.

    >>> RoundMove(0, 7, -500)
    RoundMove(index=0, account_id=7, amount=-500)
    """

    index: int
    account_id: int
    amount: int


class LedgerUnavailableError(Exception):
    """The ledger could not write (its database is down or read-only): nothing was posted;
    the same call may be tried again later."""


class Ledger(Protocol):
    """What a table session needs of the books: balances, and a round's money posted as it
    happens (the replay and result travel along for a ledger that keeps them)."""

    def balance(self, account_id: int) -> int:
        """An account's balance (``KeyError`` for an unknown account)."""
        ...

    def balances(self, account_ids: Iterable[int]) -> dict[int, int]:
        """Balances of several accounts (unknown accounts are left out)."""
        ...

    def start_round(
        self,
        table_id: str,
        rules: str,
        replay: dict[str, Any],
        players: Sequence[int],
        moves: Iterable[RoundMove],
    ) -> int:
        """Record a new round and take its stakes, all or none; returns the round's id.
        Raises :class:`InsufficientFundsError` (recording nothing) when a player cannot pay."""
        ...

    def round_number(self, round_id: int) -> int:
        """A started round's number at its table, counted from 1 (what players see; the id
        may be shared by several tables)."""
        ...

    def record_moves(
        self,
        round_id: int,
        moves: Iterable[RoundMove],
        replay: dict[str, Any],
        clock_decisions: Sequence[int] = (),
    ) -> None:
        """Post a round's new payments (doubles, splits, insurance, money paid at once)."""
        ...

    def settle_round(
        self,
        round_id: int,
        moves: Iterable[RoundMove],
        replay: dict[str, Any],
        result: dict[str, Any],
        per_player: Mapping[int, tuple[int, int]],
        clock_decisions: Sequence[int] = (),
    ) -> bool:
        """Post the round's last payments and close it, once (False: it was not open).
        ``per_player`` maps an account to (staked, net)."""
        ...

    def refund_round(self, round_id: int) -> bool:
        """Void an open round as a restart does: every player gets back what the round took
        from them, net of what it paid them (False: the round was not open)."""
        ...


@dataclass(slots=True)
class MemoryRound:
    """A round as the memory ledger keeps it."""

    table_id: str
    rules: str
    players: list[int]
    replay: dict[str, Any]
    status: str = "open"
    result: dict[str, Any] = field(default_factory=dict)
    per_player: dict[int, tuple[int, int]] = field(default_factory=dict)
    clock_decisions: list[int] = field(default_factory=list)


class MemoryLedger:
    """The :class:`Ledger` in memory: player accounts, and the house on the other side of
    every move. The sum of the players' balances and the house's never changes."""

    def __init__(self) -> None:
        self.accounts: dict[int, int] = {}
        self.names: dict[int, str] = {}
        self.house = 0
        self.rounds: dict[int, MemoryRound] = {}
        self._posted: set[tuple[int, int]] = set()
        self._moves: dict[int, dict[int, int]] = {}  # per round: what it moved per account

    def open_account(self, name: str, balance: int) -> int:
        """A new player account holding ``balance``; returns its id.

        >>> MemoryLedger().open_account("ann", -1)
        Traceback (most recent call last):
        ...
        twentyone.engine.errors.TwentyOneError: balance -1: expected 0 or more minor units
        """
        if not isinstance(balance, int) or isinstance(balance, bool) or balance < 0:
            raise TwentyOneError("bad-opening-balance", balance=balance)
        account = len(self.accounts) + 1
        self.accounts[account] = balance
        self.names[account] = name
        return account

    def balance(self, account_id: int) -> int:
        """An account's balance."""
        try:
            return self.accounts[account_id]
        except KeyError:
            raise KeyError(f"no account {account_id}") from None

    def balances(self, account_ids: Iterable[int]) -> dict[int, int]:
        """Balances of several accounts at once (unknown accounts are left out)."""
        return {a: self.accounts[a] for a in account_ids if a in self.accounts}

    def total(self) -> int:
        """The players' balances and the house's together: what was granted, always."""
        return sum(self.accounts.values()) + self.house

    def start_round(
        self,
        table_id: str,
        rules: str,
        replay: dict[str, Any],
        players: Sequence[int],
        moves: Iterable[RoundMove],
    ) -> int:
        """Record a new round and take its stakes, all or none; returns its id."""
        round_id = len(self.rounds) + 1
        self._post(round_id, moves)  # raises, recording nothing, when a player cannot pay
        self.rounds[round_id] = MemoryRound(table_id, rules, list(players), replay)
        return round_id

    def round_number(self, round_id: int) -> int:
        """A round's number at its table: how many of the table's rounds started up to it."""
        table = self.rounds[round_id].table_id
        return sum(1 for i, r in self.rounds.items() if i <= round_id and r.table_id == table)

    def record_moves(
        self,
        round_id: int,
        moves: Iterable[RoundMove],
        replay: dict[str, Any],
        clock_decisions: Sequence[int] = (),
    ) -> None:
        """Post a round's new payments and keep its replay so far."""
        rnd = self._open(round_id)
        self._post(round_id, moves)
        rnd.replay = replay
        rnd.clock_decisions = list(clock_decisions)

    def settle_round(
        self,
        round_id: int,
        moves: Iterable[RoundMove],
        replay: dict[str, Any],
        result: dict[str, Any],
        per_player: Mapping[int, tuple[int, int]],
        clock_decisions: Sequence[int] = (),
    ) -> bool:
        """Post the round's last payments and mark it settled, once."""
        rnd = self.rounds.get(round_id)
        if rnd is None or rnd.status != "open":
            return False
        self._post(round_id, moves)
        rnd.status = "settled"
        rnd.replay, rnd.result = replay, result
        rnd.per_player = dict(per_player)
        rnd.clock_decisions = list(clock_decisions)
        return True

    def refund_round(self, round_id: int) -> bool:
        """Void an open round: every move it posted is undone."""
        rnd = self.rounds.get(round_id)
        if rnd is None or rnd.status != "open":
            return False
        for account, amount in self._moves.pop(round_id, {}).items():
            self.accounts[account] -= amount
            self.house += amount
        rnd.status = "refunded"
        return True

    def _open(self, round_id: int) -> MemoryRound:
        rnd = self.rounds.get(round_id)
        if rnd is None or rnd.status != "open":
            raise TwentyOneError("no-open-round", round=round_id)
        return rnd

    def _post(self, round_id: int, moves: Iterable[RoundMove]) -> None:
        """Apply the moves not posted yet: all of them, or none when a player cannot pay."""
        moves = [m for m in moves if m.amount and (round_id, m.index) not in self._posted]
        need: dict[int, int] = {}
        for m in moves:
            self.balance(m.account_id)  # an unknown account raises before anything moves
            if m.amount < 0:
                need[m.account_id] = need.get(m.account_id, 0) - m.amount
        for account, amount in need.items():
            if self.accounts[account] < amount:
                raise InsufficientFundsError(
                    "account-cannot-pay",
                    account=account,
                    balance=self.accounts[account],
                    amount=amount,
                )
        for m in moves:
            self.accounts[m.account_id] += m.amount
            self.house -= m.amount
            self._posted.add((round_id, m.index))
            moved = self._moves.setdefault(round_id, {})
            moved[m.account_id] = moved.get(m.account_id, 0) + m.amount
