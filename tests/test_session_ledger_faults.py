"""A ledger that cannot write (issue 11, item 5) at the session: the round waits as
settling, settles exactly once when the books are back, or after 60 s is voided and refunded
as a restart does; a round that cannot start gives the bets back. No database."""

from __future__ import annotations

from typing import Any

import pytest

from twentyone.engine.ledger import LedgerUnavailableError, MemoryLedger
from twentyone.engine.rulesets import load_rules
from twentyone.engine.session import SETTLE_PATIENCE, TableSession
from twentyone.engine.shoe import StackedShoe


class FlakyLedger(MemoryLedger):
    """The memory ledger, refusing every write while ``down``."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.settled: list[int] = []

    def _check(self) -> None:
        if self.down:
            raise LedgerUnavailableError("the books are down")

    def start_round(self, *args: Any, **kwargs: Any) -> int:
        self._check()
        return super().start_round(*args, **kwargs)

    def record_moves(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        super().record_moves(*args, **kwargs)

    def settle_round(self, round_id: int, *args: Any, **kwargs: Any) -> bool:
        self._check()
        done = super().settle_round(round_id, *args, **kwargs)
        if done:
            self.settled.append(round_id)
        return done

    def refund_round(self, round_id: int) -> bool:
        self._check()
        return super().refund_round(round_id)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def hu_table() -> tuple[TableSession, FlakyLedger, Clock, int]:
    # hu-casino, ann alone: TS 9C (19) against the dealer's 7H; she stands; the dealer draws
    # TD: 17. ann wins 1000.
    ledger, clock = FlakyLedger(), Clock()
    table = TableSession(
        load_rules("hu-casino"),
        ledger=ledger,
        clock=clock,
        shoe=StackedShoe("TS 9C 7H TD"),
        table_id="hu",
        multi_player=False,
    )
    account = ledger.open_account("ann", 100_000)
    table.sit("ann", account)
    table.bet("ann", 0, 1000)
    table.ready("ann")
    assert table.played is not None
    return table, ledger, clock, account


def kinds(table: TableSession) -> list[str]:
    return [n.kind for n in table.take_notices()]


def test_a_round_settles_exactly_once_when_the_books_are_back() -> None:
    table, ledger, clock, ann = hu_table()
    total = ledger.total()
    kinds(table)
    ledger.down = True
    table.decide("ann", "stand")  # the round is over; the ledger cannot take it
    assert table.played is not None and table.settling is not None
    assert kinds(table) == ["settling"]
    assert ledger.balance(ann) == 99_000  # only the stake moved
    clock.now += 0.6
    table.tick(clock.now)  # still down: waits longer
    assert table.settling is not None and ledger.settled == []
    ledger.down = False
    clock.now += 1.1
    table.tick(clock.now)
    assert table.settling is None and table.played is None
    assert ledger.settled == [1] and "round-end" in kinds(table)
    assert ledger.balance(ann) == 101_000 and ledger.total() == total
    clock.now += 60
    table.tick(clock.now)
    assert ledger.settled == [1]  # once


def test_after_the_patience_the_round_is_voided_and_refunded_and_play_goes_on() -> None:
    table, ledger, clock, ann = hu_table()
    total = ledger.total()
    ledger.down = True
    table.decide("ann", "stand")
    for _ in range(int(SETTLE_PATIENCE) + 10):
        clock.now += 1
        table.tick(clock.now)
    assert clock.now - 1000 > SETTLE_PATIENCE
    assert table.played is None and table.settling is None
    got = kinds(table)
    assert got[-1] == "round-void" and "round-end" not in got
    assert table.voids == [1] and ledger.balance(ann) == 99_000  # refund not written yet
    ledger.down = False
    clock.now += 1
    table.tick(clock.now)
    assert table.voids == [] and ledger.balance(ann) == 100_000  # as before the round
    assert ledger.rounds[1].status == "refunded" and ledger.settled == []
    assert ledger.total() == total
    table.bet("ann", 0, 500)  # the table plays on
    assert table.pending("ann") == 500


def test_a_round_that_cannot_start_gives_the_bets_back() -> None:
    ledger, clock = FlakyLedger(), Clock()
    table = TableSession(
        load_rules("hu-casino"),
        ledger=ledger,
        clock=clock,
        shoe=StackedShoe("TS 9C 7H TD"),
        multi_player=False,
    )
    table.sit("ann", ledger.open_account("ann", 100_000))
    table.bet("ann", 0, 1000)
    ledger.down = True
    table.ready("ann")
    assert table.played is None and table.pending("ann") == 0
    assert "table-error" in kinds(table)
    with pytest.raises(KeyError):
        ledger.rounds[1]


def test_issue_27_10_an_outage_of_30_seconds_voids_nothing() -> None:
    table, ledger, clock, _ = hu_table()
    ledger.down = True
    table.decide("ann", "stand")
    for _ in range(30):  # the books cannot be written for 30 s
        clock.now += 1
        table.tick(clock.now)
    ledger.down = False
    for _ in range(6):  # the next retry (at most 5 s later) settles it
        clock.now += 1
        table.tick(clock.now)
    assert table.voids == [] and ledger.rounds[1].status == "settled"
    assert "round-void" not in kinds(table)
