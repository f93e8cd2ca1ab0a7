"""The ledger on SQLite and PostgreSQL: double entry, never negative, the sum over all
accounts constant, idempotent keys, stakes taken at the start and settled once; and whole
rounds played at live tables with a real shuffled shoe keep the books right."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from twentyone.engine.hands import BoxBet
from twentyone.engine.records import Payment
from twentyone.engine.round import Round
from twentyone.engine.rulesets import load_rules
from twentyone.engine.shoe import Shoe, StackedShoe
from twentyone.web.ledger import InsufficientFundsError, Ledger, RoundMove
from twentyone.web.storage.accounts import Accounts, Player
from twentyone.web.storage.db import make_engine, migrate
from twentyone.web.storage.models import Account, GameRound, LedgerEntry
from twentyone.web.tables import DefaultAction, LiveTable, TableConfig
from web_support import BACKENDS, FakeClock, database_url


@pytest.fixture(params=BACKENDS)
def ledger(request: Any, tmp_path: Any) -> Iterator[Ledger]:
    for url in database_url(request.param, tmp_path):
        engine = make_engine(url)
        migrate(engine)
        migrate(engine)  # applying the migrations again is a no-op
        yield Ledger(engine)
        engine.dispose()


def players(ledger: Ledger, *names: str, balance: int = 10_000) -> list[Player]:
    accounts = Accounts(ledger, balance)
    return [accounts.create_player(n, "x") for n in names]


def test_grants_come_from_the_bank_and_the_books_balance(ledger: Ledger) -> None:
    ann, bob = players(ledger, "ann", "bob")
    assert ledger.balances([ann.id, bob.id]) == {ann.id: 10_000, bob.id: 10_000}
    assert ledger.balance(ledger.bank_id) == -20_000
    assert ledger.total() == 0 and ledger.audit() == []


def test_a_debit_never_takes_a_player_below_zero(ledger: Ledger) -> None:
    (ann,) = players(ledger, "ann", balance=500)
    with pytest.raises(InsufficientFundsError), ledger.sessions.begin() as s:
        ledger.post(s, "stake", ann.id, ledger.house_id, 501)
    assert ledger.balance(ann.id) == 500  # the transaction rolled back
    with ledger.sessions.begin() as s:
        assert ledger.post(s, "stake", ann.id, ledger.house_id, 500)
    assert ledger.balance(ann.id) == 0 and ledger.audit() == []


def test_a_key_is_posted_once(ledger: Ledger) -> None:
    (ann,) = players(ledger, "ann")
    for _ in range(3):
        with ledger.sessions.begin() as s:
            ledger.post(s, "payout", ledger.house_id, ann.id, 250, key="k1")
    assert ledger.balance(ann.id) == 10_250
    with ledger.sessions() as s:
        assert len(list(s.scalars(select(LedgerEntry).where(LedgerEntry.key == "k1")))) == 1


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(1, 8000), st.booleans()),
        max_size=25,
    )
)
def test_random_movements_keep_every_invariant(
    ledger: Ledger, moves: list[tuple[int, int, int, bool]]
) -> None:
    suffix = uuid.uuid4().hex[:10]
    accts = [p.id for p in players(ledger, *(f"p{i}-{suffix}" for i in range(2)))]
    accts.append(ledger.house_id)
    for src, dst, amount, keyed in moves:
        if src == dst:
            continue
        before = ledger.balances(accts)
        key = f"m-{suffix}-{src}-{dst}-{amount}" if keyed else None
        try:
            with ledger.sessions.begin() as s:
                posted = ledger.post(s, "stake", accts[src], accts[dst], amount, key=key)
        except InsufficientFundsError:
            assert src < 2 and before[accts[src]] < amount  # only a player can be short
            assert ledger.balances(accts) == before
            continue
        after = ledger.balances(accts)
        moved = amount if posted else 0
        assert after[accts[src]] == before[accts[src]] - moved
        assert after[accts[dst]] == before[accts[dst]] + moved
        assert all(after[a] >= 0 for a in accts[:2])
    assert ledger.total() == 0 and ledger.audit() == []


def _moves(rnd: Round, account: int, start: int = 0) -> list[RoundMove]:
    return [
        RoundMove(i, account, r.amount)
        for i, r in enumerate(rnd.log)
        if i >= start and isinstance(r, Payment) and r.amount
    ]


def test_stakes_at_the_start_and_settlement_once(ledger: Ledger) -> None:
    # ru-online: ann TS 7H (17) stands, dealer 9D 5C draws 8H (22): ann's 1000 wins 1000.
    (ann,) = players(ledger, "ann")
    rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 5C 8H"), [BoxBet("ann", 1000)])
    round_id = ledger.start_round("t", "ru-online", {}, [ann.id], _moves(rnd, ann.id))
    assert ledger.balance(ann.id) == 9_000 and ledger.balance(ledger.house_id) == 1000
    posted = len(rnd.log)
    rnd.stand()
    rest = _moves(rnd, ann.id, posted)
    assert ledger.settle_round(round_id, rest, {}, {}, {ann.id: (1000, 1000)})
    assert ledger.balance(ann.id) == 11_000
    # settling again (a retry, a second worker) changes nothing
    assert not ledger.settle_round(round_id, rest, {}, {}, {ann.id: (1000, 1000)})
    assert ledger.balance(ann.id) == 11_000
    # and a refund after settlement finds no open round
    assert ledger.refund_open_rounds() == []
    assert ledger.audit() == []


def test_a_round_nobody_can_pay_for_is_not_recorded(ledger: Ledger) -> None:
    (ann,) = players(ledger, "ann", balance=500)
    rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 5C"), [BoxBet("ann", 1000)])
    with pytest.raises(InsufficientFundsError):
        ledger.start_round("t", "ru-online", {}, [ann.id], _moves(rnd, ann.id))
    assert ledger.balance(ann.id) == 500 and ledger.audit() == []


def test_a_round_one_player_cannot_pay_for_takes_no_stake(ledger: Ledger) -> None:
    # the stakes are taken together (one statement where the driver counts its rows): when
    # the second player cannot pay, the first player's stake is not taken either, no round is
    # recorded, and the cached balances do not move
    ann, bob = players(ledger, "ann", "bob", balance=1_000)
    stakes = [RoundMove(0, ann.id, -500), RoundMove(1, bob.id, -1_001)]
    with pytest.raises(InsufficientFundsError):
        ledger.start_round("t", "ru-online", {}, [ann.id, bob.id], stakes)
    assert ledger.balances([ann.id, bob.id]) == {ann.id: 1_000, bob.id: 1_000}
    with ledger.sessions() as s:
        assert s.scalar(select(func.count()).select_from(GameRound)) == 0
        assert s.scalar(select(func.count()).select_from(LedgerEntry)) == 2  # the grants
    # both can pay: each stake is taken once, the cache and the database agree
    stakes = [RoundMove(0, ann.id, -500), RoundMove(1, bob.id, -1_000), RoundMove(2, ann.id, -500)]
    ledger.start_round("t", "ru-online", {}, [ann.id, bob.id], stakes)
    assert ledger.balances([ann.id, bob.id]) == {ann.id: 0, bob.id: 0}
    with ledger.sessions() as s:
        found = dict(s.execute(select(Account.id, Account.balance)).all())
    assert found[ann.id] == found[bob.id] == 0
    assert ledger.audit() == []


@pytest.mark.parametrize("preset", ["ro-casino", "pt-casino", "hu-casino"])
def test_many_rounds_at_a_live_table_keep_the_books(ledger: Ledger, preset: str) -> None:
    """Three players bet at random on a shuffled shoe; the clock plays every decision
    (basic 'stand or hit' default). After each round the books balance and the players'
    ledger balances moved by exactly the engine's net."""
    rules = load_rules(preset)
    clock = FakeClock()
    table = LiveTable(
        TableConfig(id=preset, rules=preset, countdown_seconds=5, decision_seconds=1),
        rules,
        ledger=ledger,
        shoe=Shoe.for_rules(rules, seed=7),
        clock=clock,
        default_action=DefaultAction("stand"),
    )
    people = players(ledger, "ann", "bob", "cy", balance=5_000)
    rng = random.Random(3)
    for p in people:
        table.sit(p)
    start_total = sum(ledger.balances(p.id for p in people).values())
    last_id = None
    rounds = 0
    for _ in range(12):
        before = ledger.balances(p.id for p in people)
        for n, p in enumerate(people):
            if before[p.id] >= 200 and rng.random() < 0.8:
                table.bet(p, n * 2, rng.choice([100, 200, min(before[p.id], 1000)]))
        for p in people:
            if table.seats[p.username].chips:
                table.ready(p)
        for _ in range(200):
            if table.played is None and table.countdown is None:
                break
            clock.advance(2)
            table.tick(clock())
        assert table.played is None
        after = ledger.balances(p.id for p in people)
        assert all(v >= 0 for v in after.values())
        if table.last_round is not None and table.last_round["id"] != last_id:
            last_id = table.last_round["id"]
            net = table.last_round["net"]
            rounds += 1
            for p in people:
                assert after[p.id] - before[p.id] == net.get(p.username, 0)
        else:
            assert after == before
        assert ledger.audit() == []
    assert rounds >= 10
    house_gain = ledger.balance(ledger.house_id)
    assert start_total - sum(ledger.balances(p.id for p in people).values()) == house_gain


def test_a_lost_round_connection_is_found_before_the_next_round(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the connection the round methods keep is lost while idle (a database restarted between
    # rounds cuts it off): it is pinged and replaced, and the next round starts as usual
    import twentyone.web.ledger as web_ledger

    monkeypatch.setattr(web_ledger, "PING_AFTER_IDLE", 0.0, raising=False)
    (ann,) = players(ledger, "ann")
    rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 5C 8H"), [BoxBet("ann", 1000)])
    ledger.start_round("t", "ru-online", {}, [ann.id], _moves(rnd, ann.id))
    kept = ledger._round_conn
    assert kept is not None
    dbapi = kept.connection.dbapi_connection
    assert dbapi is not None
    dbapi.close()  # what the driver finds after a restart: the connection is gone
    rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 5C 8H"), [BoxBet("ann", 1000)])
    ledger.start_round("t", "ru-online", {}, [ann.id], _moves(rnd, ann.id))
    assert ledger._round_conn is not kept
    assert ledger.balance(ann.id) == 8_000 and ledger.audit() == []
