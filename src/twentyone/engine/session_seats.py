"""A table session's state and its seats: what the table reads (who owns a box, whose chips
are pending, free boxes, notices), players sitting down, leaving, connecting and going idle.

:class:`SeatedTable` is the base of :class:`~twentyone.engine.session.TableSession`: it holds the
table's state (:meth:`SeatedTable.__init__`); betting (:mod:`twentyone.engine.session_betting`),
settlement (:mod:`twentyone.engine.session_settlement`) and the round in play
(:mod:`twentyone.engine.session`) build on it.

>>> from twentyone.engine.ledger import MemoryLedger
>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.session import TableSession
>>> table = TableSession(load_rules("ro-casino"), ledger=MemoryLedger(), clock=lambda: 0.0)
>>> table.sit("ann", 1)
>>> table.owner(0), table.pending("ann"), table.in_round("ann")
(None, 0, False)
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from twentyone.engine.errors import N_
from twentyone.engine.ledger import Ledger
from twentyone.engine.rules import Rules
from twentyone.engine.session_parts import (
    Clock,
    DefaultAction,
    Notice,
    Played,
    Seat,
    SessionError,
    Settling,
    is_multi_player,
    stakes_by_box,
)
from twentyone.engine.shoe import CardSource, Shoe


class SeatedTable(ABC):
    """One table's state, what it reads, and its seats (the base of
    :class:`~twentyone.engine.session.TableSession`)."""

    def __init__(
        self,
        rules: Rules,
        *,
        ledger: Ledger,
        clock: Clock,
        shoe: CardSource | None = None,
        default_action: DefaultAction | None = None,
        table_id: str = "table",
        multi_player: bool | None = None,
        countdown_seconds: float = 15.0,
        decision_seconds: float = 20.0,
        idle_seconds: float | None = None,
        idle_rounds: int = 3,
    ) -> None:
        self.id = table_id
        # idle seats: at a single-player table a player who does nothing for idle_seconds
        # (None: never) is warned, then stood up; at a multi-player table one who lets
        # idle_rounds betting rounds pass without a bet
        self.idle_seconds = idle_seconds
        self.idle_rounds = idle_rounds
        self.rules = rules
        self.ledger = ledger
        self.shoe: CardSource = shoe if shoe is not None else Shoe.for_rules(rules)
        self.clock = clock
        self.default_action = default_action or DefaultAction("stand")
        self.multi_player = is_multi_player(rules) if multi_player is None else multi_player
        self.countdown_seconds = countdown_seconds
        self.decision_seconds = decision_seconds
        self.seq = 0
        self.seats: dict[str, Seat] = {}
        self.played: Played | None = None
        self.countdown: float | None = None
        self.last_played: Played | None = None
        self.notices: list[Notice] = []
        self.settling: Settling | None = None  # a finished round the ledger has not taken
        self.voids: list[int] = []  # voided rounds whose refund the ledger has not taken

    # ----------------------------------------------------------------- reading
    def owner(self, box: int) -> str | None:
        """Who owns a table box: the round's player, or whoever has chips on it."""
        if self.played is not None:
            for i, t in enumerate(self.played.box_map):
                if t == box:
                    return self.played.rnd.boxes[i].player
            return None
        for name, seat in self.seats.items():
            if any(c.box == box for c in seat.chips):
                return name
        return None

    def pending(self, name: str) -> int:
        """The total of a player's chips not yet staked."""
        seat = self.seats.get(name)
        return sum(c.amount for c in seat.chips) if seat else 0

    def free_boxes(self) -> int:
        """Boxes a newcomer could bet on: nobody bets on or plays them, and a seat is free for
        them (none while a single-player table is taken, or every seat is)."""
        if not self.multi_player and self.seats:
            return 0
        unowned = sum(1 for b in range(self.rules.table_boxes) if self.owner(b) is None)
        return max(0, min(unowned, self.rules.table_boxes - len(self.seats)))

    def in_round(self, name: str) -> bool:
        """Whether a player has a box in the round in play."""
        return self.played is not None and name in self.played.accounts

    def stakes(self, name: str) -> dict[int, dict[str, int]]:
        """A player's pending chips per table box and side."""
        seat = self.seats.get(name)
        return stakes_by_box(seat.chips) if seat else {}

    def take_notices(self) -> list[Notice]:
        """The notices since the last call (a front end shows or broadcasts them)."""
        out, self.notices = self.notices, []
        return out

    def _changed(self) -> None:
        self.seq += 1

    def _notice(self, kind: str, message: str, params: dict[str, object], text: str = "",
                **extra: object) -> None:  # fmt: skip
        """A notice: the English ``text`` (default: the message filled in) and the catalog
        ``message`` with its ``params``, for a front end to translate."""
        english = text or message.format(**params)
        self.notices.append(Notice(kind, english, message, dict(params), dict(extra)))

    # ----------------------------------------------------------------- seats
    def connect(self, name: str) -> None:
        """A connection of a player opened (seated or not)."""
        seat = self.seats.get(name)
        if seat is not None:
            seat.connections += 1
            self._changed()

    def disconnect(self, name: str) -> None:
        """A connection closed; a seated player with no connection left stands up unless
        they play in the round (then after it, and the decision clock plays for them)."""
        seat = self.seats.get(name)
        if seat is None:
            return
        seat.connections = max(0, seat.connections - 1)
        if seat.connections == 0 and not self.in_round(name):
            del self.seats[name]
            self._countdown_check()
        self._changed()

    def sit(self, name: str, account: int, connections: int = 1) -> None:
        """Take a seat with a ledger account (a no-op for a seated player)."""
        if name in self.seats:
            return
        if not self.multi_player and self.seats:
            other = next(iter(self.seats))
            raise SessionError(
                N_("table {table} is a single-player table and {other} plays it"),
                table=self.id,
                other=other,
            )
        if len(self.seats) >= self.rules.table_boxes:
            raise SessionError(
                N_("table {table} is full ({seats} seats)"),
                table=self.id,
                seats=self.rules.table_boxes,
            )
        self.seats[name] = Seat(name, account, connections=connections, active_at=self.clock())
        self._changed()

    def leave(self, name: str) -> None:
        """Stand up between rounds; chips go back."""
        if name not in self.seats:
            raise SessionError(N_("you are not seated at this table"), "type", "leave")
        if self.in_round(name):
            raise SessionError(N_("you play in this round: leave after it"), "type", "leave")
        del self.seats[name]
        self._countdown_check()
        self._changed()

    def _seat(self, name: str) -> Seat:
        seat = self.seats.get(name)
        if seat is None:
            raise SessionError(N_("sit down first: you are not seated at this table"), "type")
        seat.active_at = self.clock()  # an intention: the player is there
        seat.warned = False
        return seat

    def _stand_up(self, name: str, why: str) -> None:
        """Stand an idle player up: the seat and its chips are free (not during their round)."""
        del self.seats[name]
        self._notice(
            "stood-up",
            N_("{player} was idle and is stood up: the seat is free"),
            {"player": name},
            text=f"{name} was idle ({why}) and is stood up: the seat is free",
            player=name,
        )
        self._countdown_check()
        self._changed()

    def _idle_check(self, now: float) -> None:
        """Single-player tables: warn, then stand up, a player idle for ``idle_seconds``."""
        limit = self.idle_seconds
        if limit is None or self.multi_player:
            return
        for name, seat in list(self.seats.items()):
            if self.in_round(name):
                continue
            idle = now - seat.active_at
            if idle >= limit:
                self._stand_up(name, f"{idle:.0f} s without a move")
            elif idle >= 0.75 * limit and not seat.warned:
                seat.warned = True
                left = round(limit - idle)
                self._notice(
                    "idle-warning",
                    N_("{player}: no move for a while; the seat is freed in {seconds} s"),
                    {"player": name, "seconds": left},
                    text=f"{name}: no move for a while; the seat is freed in {left} s",
                    player=name,
                )
                self._changed()

    def _count_rounds_without_bet(self) -> None:
        """Multi-player tables: a player who lets ``idle_rounds`` betting rounds pass without
        a bet is stood up (warned the round before)."""
        if self.idle_seconds is None or not self.multi_player:
            return
        for name, seat in list(self.seats.items()):
            if seat.chips:
                seat.rounds_without_bet = 0
                continue
            seat.rounds_without_bet += 1
            if seat.rounds_without_bet >= self.idle_rounds:
                self._stand_up(name, f"{seat.rounds_without_bet} rounds without a bet")
            elif seat.rounds_without_bet == self.idle_rounds - 1:
                self._notice(
                    "idle-warning",
                    N_("{player}: bet in the next round or the seat is freed"),
                    {"player": name},
                    text=f"{name}: bet in the next round or the seat is freed",
                    player=name,
                )

    @abstractmethod
    def _countdown_check(self) -> None:
        """Multi-player: start the round once the betting is over
        (:class:`~twentyone.engine.session_betting.BettingTable` decides)."""
