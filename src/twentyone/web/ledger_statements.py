"""The SQL of the ledger's round money, built once: the tables as SQLAlchemy Core handles and
the statements the round methods run (Core: no ORM bookkeeping on the hot path), each with
named parameters (:mod:`twentyone.web.ledger_rounds` runs them).

>>> sorted(DEBIT_PLAYER.compile().params)
['acct', 'amount']
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, bindparam, case, func, or_, select, update

from twentyone.web.storage.models import Account, GameRound, LedgerEntry, PlayerStats, RoundPlayer

ACCOUNTS = cast(Table, Account.__table__)
ENTRIES = cast(Table, LedgerEntry.__table__)
ROUNDS = cast(Table, GameRound.__table__)
ROUND_PLAYERS = cast(Table, RoundPlayer.__table__)
STATS = cast(Table, PlayerStats.__table__)

# the round-money statements
POSTED_KEYS = select(ENTRIES.c.key).where(ENTRIES.c.key.in_(bindparam("keys", expanding=True)))
#: the players' names and ids (``keys``: the ids)
NAMES_OF = select(ACCOUNTS.c.username, ACCOUNTS.c.id).where(
    ACCOUNTS.c.id.in_(bindparam("keys", expanding=True))
)
#: an account's balance (read when a stake cannot be paid, for the refusal)
BALANCE_OF = select(ACCOUNTS.c.balance).where(ACCOUNTS.c.id == bindparam("acct"))
DEBIT_PLAYER = (
    update(ACCOUNTS)
    .where(ACCOUNTS.c.id == bindparam("acct"), ACCOUNTS.c.balance >= bindparam("amount"))
    .values(balance=ACCOUNTS.c.balance - bindparam("amount"))
)
#: a new round, numbered after its table's last (a table deals one round at a time, on one
#: node: the unique (table_id, number) only guards); returns its id and number
INSERT_ROUND = (
    ROUNDS.insert()
    .values(
        number=select(func.coalesce(func.max(ROUNDS.c.number), 0) + 1)
        .where(ROUNDS.c.table_id == bindparam("number_at"))
        .scalar_subquery()
    )
    .returning(ROUNDS.c.id, ROUNDS.c.number)
)
INSERT_ROUND_PLAYER = ROUND_PLAYERS.insert()
INSERT_ENTRY = ENTRIES.insert()
CREDIT = (
    update(ACCOUNTS)
    .where(ACCOUNTS.c.id == bindparam("acct"))
    .values(balance=ACCOUNTS.c.balance + bindparam("amount"))
)
ROUND_PROGRESS = (
    update(ROUNDS)
    .where(ROUNDS.c.id == bindparam("rid"))
    .values(replay=bindparam("replay"), clock_decisions=bindparam("clock_decisions"))
)
ROUND_SETTLED = (
    update(ROUNDS)
    .where(ROUNDS.c.id == bindparam("rid"), ROUNDS.c.status == "open")
    .values(
        status="settled",
        finished_at=bindparam("finished_at"),
        replay=bindparam("replay"),
        result=bindparam("result"),
        clock_decisions=bindparam("clock_decisions"),
    )
)
ROUND_PLAYER_RESULT = (
    update(ROUND_PLAYERS)
    .where(
        ROUND_PLAYERS.c.round_id == bindparam("rid"),
        ROUND_PLAYERS.c.account_id == bindparam("acct"),
    )
    .values(staked=bindparam("st"), net=bindparam("nt"))
)

_NET: Any = bindparam("net")
STATS_ADD = (
    update(STATS)
    .where(STATS.c.account_id == bindparam("acct"))
    .values(
        rounds=STATS.c.rounds + 1,
        **{
            c: getattr(STATS.c, c) + bindparam(c)
            for c in ("hands", "won", "pushed", "lost", "blackjacks", "staked", "net")
        },
        best=case((or_(STATS.c.best.is_(None), STATS.c.best < _NET), _NET), else_=STATS.c.best),
        worst=case((or_(STATS.c.worst.is_(None), STATS.c.worst > _NET), _NET), else_=STATS.c.worst),
    )
)


def stats_row(dialect: str) -> Any:
    """An INSERT of a player's statistics row that does nothing when the row is there."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(STATS).on_conflict_do_nothing(index_elements=["account_id"])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(STATS).on_conflict_do_nothing(index_elements=["account_id"])
