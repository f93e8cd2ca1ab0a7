"""One table at a time per account, across every node of a cluster: seat claims in the
database (:class:`~twentyone.web.storage.models.SeatClaim`).

A player's seat is claimed before the table seats them and released when the seat is freed
(they leave, are stood up, or go once their round is over). A node that starts dealing a table
(at start, or when it takes the table's lease after another node) releases every claim left
on it, since the seats of a table live only in the memory of the node that deals it.

>>> from sqlalchemy import create_engine
>>> from twentyone.web.storage.models import Account, Base
>>> engine = create_engine("sqlite://")
>>> Base.metadata.create_all(engine)
>>> with engine.begin() as conn:
...     _ = conn.execute(Account.__table__.insert(), [{"id": 1, "kind": "player",
...         "username": "ann", "username_key": "ann", "balance": 0}])
>>> claims = SeatClaims(engine)
>>> claims.claim(1, "ro-casino"), claims.claim(1, "ro-casino"), claims.claim(1, "pt-casino")
(None, None, 'ro-casino')
>>> claims.release(1, "ro-casino"); claims.claim(1, "pt-casino")
"""

from __future__ import annotations

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.exc import IntegrityError

from twentyone.web.storage.models import SeatClaim, utcnow


class SeatClaims:
    """The seats table: claim, release, and release a whole table."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def claim(self, account_id: int, table_id: str) -> str | None:
        """Claim the account's seat at ``table_id``; returns None when it is the account's
        (now or already), else the table where the account is seated."""
        where = None
        for _ in range(2):  # a claim released between the insert and the select: once more
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(SeatClaim),
                        {"account_id": account_id, "table_id": table_id, "claimed_at": utcnow()},
                    )
                return None
            except IntegrityError:
                with self.engine.connect() as conn:
                    where = conn.scalar(
                        select(SeatClaim.table_id).where(SeatClaim.account_id == account_id)
                    )
                if where is not None:
                    break
        return None if where is None or where == table_id else str(where)

    def release(self, account_id: int, table_id: str) -> None:
        """Free the account's seat at ``table_id`` (nothing when it is seated elsewhere)."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(SeatClaim).where(
                    SeatClaim.account_id == account_id, SeatClaim.table_id == table_id
                )
            )

    def release_table(self, table_id: str) -> int:
        """Free every seat claimed at ``table_id``; returns how many there were."""
        with self.engine.begin() as conn:
            return conn.execute(delete(SeatClaim).where(SeatClaim.table_id == table_id)).rowcount
