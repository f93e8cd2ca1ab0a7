"""The books of benchmarks/bench_soak.py in the instant after a kill, read with SQLAlchemy:
the players' wallets, the stakes of the rounds in play (held by the house until the round
settles or is voided), the house's result, against what the bank credited."""

from __future__ import annotations

from typing import Any


def books_now(url: str, baseline: dict[str, int]) -> dict[str, int]:
    """Wallets + stakes in play + house result, and what was credited (since ``baseline``,
    benchmarks/web_load_money.baseline_of): the two must be equal."""
    from sqlalchemy import case, func, select

    from twentyone.web.ledger import BANK, HOUSE
    from twentyone.web.storage.db import make_engine
    from twentyone.web.storage.models import Account, GameRound, LedgerEntry

    engine = make_engine(url)
    try:
        with engine.connect() as c:
            wallets = c.scalar(
                select(func.coalesce(func.sum(Account.balance), 0)).where(Account.kind == "player")
            )
            system = {
                row.username: (row.id, row.balance)
                for row in c.execute(
                    select(Account.username, Account.id, Account.balance).where(
                        Account.username.in_([BANK, HOUSE])
                    )
                )
            }
            house_id, house = system[HOUSE]
            _bank_id, bank = system[BANK]
            toward_house = case(
                (LedgerEntry.credit_account_id == house_id, LedgerEntry.amount),
                (LedgerEntry.debit_account_id == house_id, -LedgerEntry.amount),
                else_=0,
            )
            in_play = c.scalar(
                select(func.coalesce(func.sum(toward_house), 0))
                .join(GameRound, GameRound.id == LedgerEntry.round_id)
                .where(GameRound.status == "open", GameRound.id > baseline["max_round"])
            )
    finally:
        engine.dispose()
    wallets = int(wallets or 0) - baseline["players"]
    in_play = int(in_play or 0)
    house_result = house - baseline["house"] - in_play
    return {
        "wallets": wallets,
        "stakes_in_play": in_play,
        "house_result": house_result,
        "sum": wallets + in_play + house_result,
        "credited": baseline["bank"] - bank,
    }


def open_rounds(url: str, baseline: dict[str, Any]) -> int:
    """Rounds begun since ``baseline`` and still open."""
    from sqlalchemy import func, select

    from twentyone.web.storage.db import make_engine
    from twentyone.web.storage.models import GameRound

    engine = make_engine(url)
    try:
        with engine.connect() as c:
            n = c.scalar(
                select(func.count())
                .select_from(GameRound)
                .where(GameRound.status == "open", GameRound.id > baseline["max_round"])
            )
    finally:
        engine.dispose()
    return int(n or 0)
