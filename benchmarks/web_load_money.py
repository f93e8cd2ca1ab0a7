"""The money check of benchmarks/bench_web_load.py, read from the database with SQLAlchemy:
not a chip lost or duplicated, every round settled exactly once."""

from __future__ import annotations

from collections import Counter
from typing import Any


def money_check(
    url: str,
    names: list[str],
    starting: int,
    baseline: dict[str, int],
    shown: dict[str, int | None],
    *,
    voided_ok: bool = False,
) -> tuple[list[str], dict[str, Any]]:
    """Check the books after the run; (problems, facts). Empty problems: not a chip lost or
    duplicated. ``voided_ok``: rounds a restart voided (``refunded``, as after a kill) are
    allowed, each player's entries for such a round netting to exactly zero."""
    from sqlalchemy import func, select

    from twentyone.engine.replay import replay
    from twentyone.web.ledger import BANK, HOUSE
    from twentyone.web.storage.db import make_engine
    from twentyone.web.storage.models import Account, GameRound, LedgerEntry, RoundPlayer

    problems: list[str] = []
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            accounts = {
                row.id: row
                for row in c.execute(
                    select(Account.id, Account.kind, Account.username, Account.balance)
                )
            }
            by_name = {a.username: a for a in accounts.values()}
            credits = dict(
                c.execute(
                    select(LedgerEntry.credit_account_id, func.sum(LedgerEntry.amount)).group_by(
                        LedgerEntry.credit_account_id
                    )
                ).all()
            )
            debits = dict(
                c.execute(
                    select(LedgerEntry.debit_account_id, func.sum(LedgerEntry.amount)).group_by(
                        LedgerEntry.debit_account_id
                    )
                ).all()
            )
            rounds = c.execute(
                select(GameRound.id, GameRound.status, GameRound.replay, GameRound.result).where(
                    GameRound.id > baseline["max_round"]
                )
            ).all()
            parts = c.execute(
                select(RoundPlayer.round_id, RoundPlayer.account_id, RoundPlayer.net).where(
                    RoundPlayer.round_id > baseline["max_round"]
                )
            ).all()
            entries = c.execute(
                select(
                    LedgerEntry.round_id,
                    LedgerEntry.kind,
                    LedgerEntry.debit_account_id,
                    LedgerEntry.credit_account_id,
                    LedgerEntry.amount,
                ).where(LedgerEntry.round_id > baseline["max_round"])
            ).all()
    finally:
        engine.dispose()

    players = [a for a in accounts.values() if a.kind == "player"]
    house, bank = by_name[HOUSE], by_name[BANK]
    player_sum = sum(a.balance for a in players)
    total_before = baseline["players"] + baseline["house"]
    expected_total = total_before + len(names) * starting
    if player_sum + house.balance != expected_total:
        problems.append(
            f"players + house hold {player_sum + house.balance}, expected {expected_total}"
        )
    if bank.balance != baseline["bank"] - len(names) * starting:
        problems.append(
            f"the bank paid {baseline['bank'] - bank.balance}, not {len(names) * starting}"
        )
    if sum(a.balance for a in accounts.values()) != 0:
        problems.append("the accounts do not sum to zero")
    for a in accounts.values():
        from_entries = int(credits.get(a.id, 0)) - int(debits.get(a.id, 0))
        if a.balance != from_entries:
            problems.append(f"{a.username}: balance {a.balance}, its entries say {from_entries}")
        if a.kind == "player" and a.balance < 0:
            problems.append(f"{a.username}: negative balance {a.balance}")

    # every round settled exactly once, its money equal to the engine's replay of its log
    ledger_net: dict[tuple[int, int], int] = Counter()
    for e in entries:
        if e.credit_account_id == house.id:
            ledger_net[(e.round_id, e.debit_account_id)] -= e.amount
        elif e.debit_account_id == house.id:
            ledger_net[(e.round_id, e.credit_account_id)] += e.amount
        else:
            problems.append(f"round {e.round_id}: an entry not against the house")
    recorded = {(p.round_id, p.account_id): p.net for p in parts}
    status = Counter(r.status for r in rounds)
    if status["open"] or (status["refunded"] and not voided_ok):
        problems.append(f"rounds not settled: {dict(status)}")
    voided = {r.id for r in rounds if r.status == "refunded"}
    for (round_id, acct), net in sorted(ledger_net.items()):
        if round_id in voided and net != 0:
            problems.append(f"round {round_id} (voided), account {acct}: its entries net {net}")
    nets_by_player: Counter[int] = Counter()
    for r in rounds:
        if r.status != "settled":
            continue
        try:
            replayed = replay(r.replay)["net"]
        except Exception as exc:
            problems.append(f"round {r.id}: its stored log does not replay: {exc}")
            continue
        if replayed != r.result["net"]:
            problems.append(f"round {r.id}: replay nets {replayed}, stored {r.result['net']}")
        for player_name, net in replayed.items():
            acct = by_name[player_name].id
            key = (r.id, acct)
            if ledger_net.get(key, 0) != net or recorded.get(key) != net:
                problems.append(
                    f"round {r.id}, {player_name}: replay net {net}, ledger "
                    f"{ledger_net.get(key, 0)}, recorded {recorded.get(key)}"
                )
            nets_by_player[acct] += net
    for name in names:
        mine = by_name.get(name)
        if mine is None:
            problems.append(f"{name}: no account")
            continue
        if mine.balance != starting + nets_by_player[mine.id]:
            problems.append(
                f"{name}: balance {mine.balance}, expected {starting} + rounds' nets "
                f"{nets_by_player[mine.id]}"
            )
        if shown.get(name) is not None and shown[name] != mine.balance:
            problems.append(f"{name}: was shown {shown[name]}, the ledger holds {mine.balance}")
    facts = {
        "rounds_in_database": len(rounds),
        "round_status": dict(status),
        "ledger_entries_of_rounds": len(entries),
        "players_plus_house": player_sum + house.balance,
        "expected_total": expected_total,
        "house_result": house.balance - baseline["house"],
        "lowest_player_balance": min((a.balance for a in players), default=0),
    }
    return problems, facts


def baseline_of(url: str) -> dict[str, int]:
    """What the database holds before the players register (zero for a fresh one)."""
    from sqlalchemy import func, select

    from twentyone.web.ledger import BANK, HOUSE
    from twentyone.web.storage.db import make_engine
    from twentyone.web.storage.models import Account, GameRound

    engine = make_engine(url)
    try:
        with engine.connect() as c:
            players = c.scalar(
                select(func.coalesce(func.sum(Account.balance), 0)).where(Account.kind == "player")
            )
            system = dict(
                c.execute(
                    select(Account.username, Account.balance).where(
                        Account.username.in_([BANK, HOUSE])
                    )
                ).all()
            )
            max_round = c.scalar(select(func.coalesce(func.max(GameRound.id), 0)))
    finally:
        engine.dispose()
    return {
        "players": int(players or 0),
        "house": int(system.get(HOUSE, 0)),
        "bank": int(system.get(BANK, 0)),
        "max_round": int(max_round or 0),
    }
