"""A table session's settlement: a finished round handed to the ledger, kept as settling
while the ledger cannot write (retried with a growing pause), voided and refunded after
:data:`SETTLE_PATIENCE` seconds, and the table made ready for the next round.
"""

from __future__ import annotations

from twentyone.engine.cards import format_cards
from twentyone.engine.errors import N_
from twentyone.engine.ledger import LedgerUnavailableError, RoundMove
from twentyone.engine.records import Payment
from twentyone.engine.replay import round_result, round_to_replay
from twentyone.engine.session_parts import Played, Settling
from twentyone.engine.session_seats import SeatedTable
from twentyone.engine.table import format_money

#: Seconds a finished round waits for the ledger before it is voided and refunded.
SETTLE_PATIENCE = 30.0


class SettlingTable(SeatedTable):
    """A table's finished rounds: settled in the ledger, or settling, or voided."""

    def _finish(self, played: Played, moves: list[RoundMove]) -> None:
        """Settle a finished round in the ledger, or (the ledger cannot write) keep it as
        settling: :meth:`tick` tries again with a growing pause, and after
        :data:`SETTLE_PATIENCE` seconds voids it as a restart does and play goes on."""
        rnd = played.rnd
        net = rnd.net()
        staked: dict[str, int] = {}
        for rec in rnd.log:
            if isinstance(rec, Payment) and rec.amount < 0:
                name = rnd.boxes[rec.box].player
                staked[name] = staked.get(name, 0) - rec.amount
        per_player = {
            acct: (staked.get(name, 0), net.get(name, 0)) for name, acct in played.accounts.items()
        }
        try:
            self.ledger.settle_round(
                played.id,
                moves,
                round_to_replay(rnd),
                round_result(rnd),
                per_player,
                played.clock_decisions,
            )
        except LedgerUnavailableError:
            now = self.clock()
            if self.settling is None:
                self.settling = Settling(played, moves, since=now, retry_at=now + 0.5)
                self._notice(
                    "settling",
                    N_("round {round}: the books cannot be written now; it settles when they can"),
                    {"round": played.id},
                    round=played.id,
                )
                self._changed()
            return
        self.settling = None
        self._round_over(played, net)

    def _round_over(self, played: Played, net: dict[str, int], *, void: bool = False) -> None:
        note = getattr(self.shoe, "note_round", None)
        if note is not None:  # a provable shoe keeps each round's cards for verification
            note(played.id, format_cards(played.rnd.cards_dealt))
        finish = getattr(self.shoe, "finish_round", None)
        if finish is not None:  # a shoe that is over is revealed at once
            finish()
        self.last_played = played
        self.played = None
        for name in [n for n, s in self.seats.items() if s.connections == 0]:
            del self.seats[name]
        if void:
            self._notice(
                "round-void",
                N_("round {round} is void: the books could not be written; the stakes go back"),
                {"round": played.id},
                round=played.id,
            )
        else:
            summary = ", ".join(f"{n} {format_money(v, sign=True)}" for n, v in net.items())
            self._notice(
                "round-end",
                N_("round {round}: {summary}"),
                {"round": played.id, "summary": net},
                text=f"round {played.id}: {summary}",
                round=played.id,
                net=net,
            )
        self._changed()

    def _retry_settlement(self, now: float) -> None:
        """A settling round: try the ledger again when due; past the patience, void it."""
        settling = self.settling
        if settling is None or now < settling.retry_at:
            return
        if now - settling.since < SETTLE_PATIENCE:
            settling.pause = min(settling.pause * 2, 5.0)
            settling.retry_at = now + settling.pause
            self._finish(settling.played, settling.moves)
            return
        # the patience is out: void the round (now, or when the books can be written)
        self.settling = None
        self.voids.append(settling.played.id)
        self._flush_voids()
        self._round_over(settling.played, {}, void=True)

    def _flush_voids(self) -> None:
        """Refund the voided rounds the ledger has not taken yet (a restart would too)."""
        for round_id in list(self.voids):
            try:
                self.ledger.refund_round(round_id)
            except LedgerUnavailableError:
                return
            self.voids.remove(round_id)
