"""A provable table's shoes in the database (:class:`ProvableStore`, the
:class:`~twentyone.engine.provable.ShoeKeeper` of the table's
:class:`~twentyone.engine.provable.ProvableShoe`): every commitment with its seed, the client
seeds, each round's cards and each revealed record, written as they happen, so they outlive
the process. A node that starts dealing the table (:meth:`ProvableStore.adopt`) reveals the
shoes a previous holder left live, and numbers its shoes after theirs.

Writes the database cannot take now wait, in order, and go with the next one.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, update
from sqlalchemy.exc import DBAPIError

from twentyone.engine.provable import VERSION
from twentyone.web.storage.models import ProvableRound, ProvableShoeRecord, utcnow

log = logging.getLogger(__name__)


class ProvableStore:
    """One provable table's shoes: kept as they happen, revealed ones read back."""

    def __init__(self, engine: Engine, table_id: str, decks: int) -> None:
        self.engine = engine
        self.table_id = table_id
        self.decks = decks
        self._ids: dict[int, int] = {}  # shoe number -> row id
        self._seq: dict[int, int] = {}  # shoe number -> rounds noted
        self._pending: list[Callable[[Connection], None]] = []

    # ----------------------------------------------------------------- a table comes alive
    def adopt(self) -> int:
        """Reveal the shoes of this table nobody revealed (their node stopped), with the cards
        their rounds show as dealt; returns the number the next shoe takes."""
        t = ProvableShoeRecord
        with self.engine.begin() as conn:
            live = conn.execute(
                select(t.id).where(t.table_id == self.table_id, t.revealed_at.is_(None))
            ).scalars()
            for shoe_id in list(live):
                dealt = sum(len(c.split()) for c in _cards_of(conn, shoe_id))
                conn.execute(
                    update(t).where(t.id == shoe_id).values(dealt=dealt, revealed_at=utcnow())
                )
            top = conn.scalar(select(func.max(t.number)).where(t.table_id == self.table_id))
        return int(top or 0) + 1

    # ----------------------------------------------------------------- the keeper
    def committed(self, shoe: int, commitment: str, server_seed: str) -> None:
        def write(conn: Connection) -> None:
            self._ids[shoe] = conn.execute(
                insert(ProvableShoeRecord).returning(ProvableShoeRecord.id),
                {
                    "table_id": self.table_id,
                    "number": shoe,
                    "decks": self.decks,
                    "commitment": commitment,
                    "server_seed": server_seed,
                    "client_seeds": [],
                    "created_at": utcnow(),
                },
            ).scalar_one()
            self._seq[shoe] = 0

        self._do(write)

    def frozen(self, shoe: int, client_seeds: Sequence[str]) -> None:
        seeds = list(client_seeds)
        self._do(lambda conn: self._set(conn, shoe, client_seeds=seeds))

    def round_dealt(self, shoe: int, round_id: int | None, cards: str) -> None:
        def write(conn: Connection) -> None:
            self._seq[shoe] = self._seq.get(shoe, 0) + 1
            conn.execute(
                insert(ProvableRound),
                {
                    "shoe_id": self._ids[shoe],
                    "seq": self._seq[shoe],
                    "round_id": round_id,
                    "cards": cards,
                },
            )

        self._do(write)

    def revealed(self, record: Mapping[str, Any]) -> None:
        shoe, dealt = int(record["shoe"]), int(record["dealt"])
        seeds = list(record["client_seeds"])
        self._do(
            lambda conn: self._set(
                conn, shoe, dealt=dealt, client_seeds=seeds, revealed_at=utcnow()
            )
        )

    def _set(self, conn: Connection, shoe: int, **values: Any) -> None:
        t = ProvableShoeRecord
        conn.execute(update(t).where(t.id == self._ids[shoe]).values(**values))

    def _do(self, write: Callable[[Connection], None]) -> None:
        self._pending.append(write)
        self.flush()

    def flush(self) -> bool:
        """Write what waits, in order, in one transaction; False when the database cannot
        take it now (it waits for the next write)."""
        if not self._pending:
            return True
        try:
            with self.engine.begin() as conn:
                for write in self._pending:
                    write(conn)
        except (DBAPIError, sqlite3.DatabaseError) as exc:
            log.warning("table %s: provable shoes wait for the database: %s", self.table_id, exc)
            return False
        self._pending.clear()
        return True

    # ----------------------------------------------------------------- reading
    def recent(self, last: int = 20) -> list[dict[str, Any]]:
        """The ``twentyone verify`` file of the table's last revealed shoes (oldest first):
        each record with its rounds' cards."""
        return revealed_shoes(self.engine, self.table_id, last)


def revealed_shoes(engine: Engine, table_id: str, last: int = 20) -> list[dict[str, Any]]:
    """A table's last ``last`` revealed shoes, oldest first, as ``twentyone verify`` reads
    them (any node may answer: they are in the database)."""
    t = ProvableShoeRecord
    with engine.connect() as conn:
        rows = conn.execute(
            select(t)
            .where(t.table_id == table_id, t.revealed_at.is_not(None))
            .order_by(t.number.desc())
            .limit(last)
        ).all()
        out = []
        for row in reversed(rows):
            record = {
                "version": VERSION,
                "shoe": row.number,
                "decks": row.decks,
                "commitment": row.commitment,
                "server_seed": row.server_seed,
                "client_seeds": list(row.client_seeds or []),
                "dealt": row.dealt,
            }
            rounds = conn.execute(
                select(ProvableRound.round_id, ProvableRound.cards)
                .where(ProvableRound.shoe_id == row.id)
                .order_by(ProvableRound.seq)
            ).all()
            out.append({"record": record, "rounds": [{"id": r, "shoe": c} for r, c in rounds]})
    return out


def _cards_of(conn: Connection, shoe_id: int) -> list[str]:
    return list(
        conn.execute(
            select(ProvableRound.cards)
            .where(ProvableRound.shoe_id == shoe_id)
            .order_by(ProvableRound.seq)
        ).scalars()
    )
