"""A table session's settlement: a finished round handed to the ledger, kept as settling
while the ledger cannot write (retried with a growing pause), voided and refunded after
:data:`SETTLE_PATIENCE` seconds, and the table made ready for the next round.

:class:`Settlement` changes the table's :class:`~twentyone.engine.session_state.TableState`;
:meth:`Settlement.finish` is called with each round that is over, :meth:`Settlement.retry` on
every tick.
"""

from __future__ import annotations

from collections.abc import Callable

from twentyone.engine.cards import format_cards
from twentyone.engine.errors import N_
from twentyone.engine.ledger import LedgerUnavailableError, RoundMove
from twentyone.engine.money import format_money
from twentyone.engine.records import Payment
from twentyone.engine.replay import round_result, round_to_replay
from twentyone.engine.session_parts import Played, Settling
from twentyone.engine.session_state import TableState

#: Seconds a finished round waits for the ledger before it is voided and refunded.
SETTLE_PATIENCE = 60.0


class Settlement:
    """A table's finished rounds: settled in the ledger, or settling, or voided (one of the
    parts :class:`~twentyone.engine.session.TableSession` is built from)."""

    def __init__(self, state: TableState, *, round_ended: Callable[[float], None]) -> None:
        self.state = state
        self.round_ended = round_ended  # told the time a round is done with

    def finish(self, played: Played, moves: list[RoundMove]) -> None:
        """Settle a finished round in the ledger, or (the ledger cannot write) keep it as
        settling: :meth:`retry` tries again with a growing pause, and after
        :data:`SETTLE_PATIENCE` seconds voids it as a restart does and play goes on."""
        state = self.state
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
            state.ledger.settle_round(
                played.id,
                moves,
                round_to_replay(rnd),
                round_result(rnd),
                per_player,
                played.clock_decisions,
            )
        except LedgerUnavailableError:
            now = state.clock()
            if state.settling is None:
                state.settling = Settling(played, moves, since=now, retry_at=now + 0.5)
                state.notice(
                    "settling",
                    N_("round {round}: the books cannot be written now; it settles when they can"),
                    {"round": played.number},
                    round=played.number,
                )
                state.changed()
            return
        state.settling = None
        self.round_over(played, net)

    def round_over(self, played: Played, net: dict[str, int], *, void: bool = False) -> None:
        """The round is done with (settled with ``net`` per player, or ``void``): a provable
        shoe notes its cards, players gone meanwhile leave their seats, the table is told."""
        state = self.state
        note = getattr(state.shoe, "note_round", None)
        if note is not None:  # a provable shoe keeps each round's cards for verification
            note(played.id, format_cards(played.rnd.cards_dealt))
        finish = getattr(state.shoe, "finish_round", None)
        if finish is not None:  # a shoe that is over is revealed at once
            finish()
        state.last_played = played
        state.played = None
        self.round_ended(state.clock())
        for name in [n for n, s in state.seats.items() if s.connections == 0]:
            state.unseat(name)
        if void:
            state.notice(
                "round-void",
                N_("round {round} is void: the books could not be written; the stakes go back"),
                {"round": played.number},
                round=played.number,
            )
        else:
            summary = ", ".join(f"{n} {format_money(v, sign=True)}" for n, v in net.items())
            state.notice(
                "round-end",
                N_("round {round}: {summary}"),
                {"round": played.number, "summary": net},
                text=f"round {played.number}: {summary}",
                round=played.number,
                net=net,
            )
        state.changed()

    def retry(self, now: float) -> None:
        """A settling round: try the ledger again when due; past the patience, void it."""
        state = self.state
        settling = state.settling
        if settling is None or now < settling.retry_at:
            return
        if now - settling.since < SETTLE_PATIENCE:
            settling.pause = min(settling.pause * 2, 5.0)
            settling.retry_at = now + settling.pause
            self.finish(settling.played, settling.moves)
            return
        # the patience is out: void the round (now, or when the books can be written)
        state.settling = None
        state.voids.append(settling.played.id)
        self.flush_voids()
        self.round_over(settling.played, {}, void=True)

    def flush_voids(self) -> None:
        """Refund the voided rounds the ledger has not taken yet (a restart would too)."""
        state = self.state
        for round_id in list(state.voids):
            try:
                state.ledger.refund_round(round_id)
            except LedgerUnavailableError:
                return
            state.voids.remove(round_id)
