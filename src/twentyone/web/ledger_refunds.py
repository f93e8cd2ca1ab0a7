"""The ledger's refunds: a round voided as a restart does, or every round a restart (or a
cluster node taking tables over) found open, each player given back exactly what the round's
entries took from them, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from twentyone.engine.ledger import LedgerUnavailableError
from twentyone.web.ledger_books import Books
from twentyone.web.storage.models import GameRound, LedgerEntry, RoundPlayer, utcnow


class Refunds(Books):
    """Voiding open rounds: each refunded once, the round marked refunded first."""

    def refund_round(self, round_id: int) -> bool:
        """Void one open round as a restart does (False: it was not open)."""
        try:
            with self.sessions.begin() as s:
                status = s.scalar(select(GameRound.status).where(GameRound.id == round_id))
                if status != "open":
                    return False
                refunded = bool(self._refund(s, [round_id]))
        except DBAPIError as exc:
            raise LedgerUnavailableError(f"the ledger cannot write: {exc.orig}") from exc
        return refunded

    def refund_open_rounds(self, table_ids: Sequence[str] | None = None) -> list[int]:
        """Void every round still open (a restart cut it short), or those of the given
        tables (a cluster node taking them over): each player gets back exactly what the
        round's entries took from them, net of what it paid them, and the round is marked
        refunded. Returns the rounds refunded."""
        query = select(GameRound.id).where(GameRound.status == "open")
        if table_ids is not None:
            query = query.where(GameRound.table_id.in_(list(table_ids)))
        with self.sessions.begin() as s:
            return self._refund(s, list(s.scalars(query.order_by(GameRound.id))))

    def _refund(self, s: Session, round_ids: Sequence[int]) -> list[int]:
        done = []
        for round_id in round_ids:
            # marked first, and only while open: a settlement committing meanwhile (another
            # process) makes this a no-op instead of a second payment
            marked = s.execute(
                update(GameRound)
                .where(GameRound.id == round_id, GameRound.status == "open")
                .values(status="refunded", finished_at=utcnow())
            )
            if cast(Any, marked).rowcount != 1:
                continue
            paid_in: dict[int, int] = {}
            for e in s.scalars(select(LedgerEntry).where(LedgerEntry.round_id == round_id)):
                if e.credit_account_id == self.house_id:
                    paid_in[e.debit_account_id] = paid_in.get(e.debit_account_id, 0) + e.amount
                elif e.debit_account_id == self.house_id:
                    paid_in[e.credit_account_id] = paid_in.get(e.credit_account_id, 0) - e.amount
            for account_id, amount in sorted(paid_in.items()):
                key = f"round:{round_id}:refund:{account_id}"
                if amount:  # what the round took from the player (or paid them over) goes back
                    debit, credit = (
                        (self.house_id, account_id) if amount > 0 else (account_id, self.house_id)
                    )
                    self.post(s, "refund", debit, credit, abs(amount), round_id=round_id, key=key)
                s.execute(
                    update(RoundPlayer)
                    .where(RoundPlayer.round_id == round_id, RoundPlayer.account_id == account_id)
                    .values(staked=max(amount, 0), net=0)
                )
            done.append(round_id)
        return done
