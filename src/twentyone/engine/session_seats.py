"""A table session's seats: players sitting down, leaving, connecting and going idle.

Idle means not playing: a seat's idle time is the time betting was open (no round in play:
from the moment the seat is taken, whether or not a round starts) since its player's last
accepted bet or decision (:meth:`Seating.active`); nothing else a player sends (a refused
intention, a request for the view) counts. A seat idle for the table's ``idle_seconds`` is
warned at three quarters of it, then stood up, at single- and multi-player tables alike.

:class:`Seating` is one of the parts :class:`~twentyone.engine.session.TableSession` is built
from; it changes the table's :class:`~twentyone.engine.session_state.TableState` and, when a seat
is freed, lets the betting know (a round may start once everyone left is ready).

>>> from twentyone.engine.ledger import MemoryLedger
>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.session_state import TableState
>>> state = TableState.create(load_rules("pl-online"), ledger=MemoryLedger(), clock=lambda: 0.0)
>>> seating = Seating(state, seat_freed=lambda: None)
>>> seating.sit("ann", 1)
>>> seating.sit("bob", 2)
Traceback (most recent call last):
...
twentyone.engine.session_parts.SessionError: table table is a single-player table and ann plays it
"""

from __future__ import annotations

from collections.abc import Callable

from twentyone.engine.errors import N_, Nn_
from twentyone.engine.session_parts import Seat, SessionError
from twentyone.engine.session_state import TableState


class Seating:
    """Who sits at the table: sitting, leaving, connections, and idle seats stood up.

    ``seat_freed`` is called whenever a seat is freed (the betting checks whether the round
    can start without that player)."""

    def __init__(self, state: TableState, *, seat_freed: Callable[[], None]) -> None:
        self.state = state
        self.seat_freed = seat_freed

    def connect(self, name: str) -> None:
        """A connection of a player opened (seated or not)."""
        seat = self.state.seats.get(name)
        if seat is not None:
            seat.connections += 1
            self.state.changed()

    def disconnect(self, name: str) -> None:
        """A connection closed; a seated player with no connection left stands up unless
        they play in the round (then after it, and the decision clock plays for them)."""
        state = self.state
        seat = state.seats.get(name)
        if seat is None:
            return
        seat.connections = max(0, seat.connections - 1)
        if seat.connections == 0 and not state.in_round(name):
            state.unseat(name)
            self.seat_freed()
        state.changed()

    def sit(self, name: str, account: int, connections: int = 1) -> None:
        """Take a seat with a ledger account (a no-op for a seated player)."""
        state = self.state
        if name in state.seats:
            return
        if not state.multi_player and state.seats:
            other = next(iter(state.seats))
            raise SessionError(
                N_("table {table} is a single-player table and {other} plays it"),
                table=state.id,
                other=other,
            )
        if len(state.seats) >= state.rules.table_boxes:
            raise SessionError(
                Nn_(
                    "table {table} is full ({seats} seat)", "table {table} is full ({seats} seats)"
                ),
                counted="seats",
                table=state.id,
                seats=state.rules.table_boxes,
            )
        state.seats[name] = Seat(name, account, connections=connections, idle_since=state.clock())
        state.changed()

    def leave(self, name: str) -> None:
        """Stand up between rounds; chips go back."""
        state = self.state
        if name not in state.seats:
            raise SessionError(N_("you are not seated at this table"), "type", "leave")
        if state.in_round(name):
            raise SessionError(N_("you play in this round: leave after it"), "type", "leave")
        state.unseat(name)
        self.seat_freed()
        state.changed()

    def seat(self, name: str) -> Seat:
        """The seat of a player; raises :class:`SessionError` when they are not seated."""
        seat = self.state.seats.get(name)
        if seat is None:
            raise SessionError(N_("sit down first: you are not seated at this table"), "type")
        return seat

    def active(self, name: str) -> None:
        """A bet or a decision of the player's was accepted: their seat is not idle."""
        seat = self.state.seats.get(name)
        if seat is not None:
            seat.idle_since = self.state.clock()
            seat.warned = False

    def round_ended(self, now: float) -> None:
        """The round in play is over: the time it took is not idle time for anyone."""
        state = self.state
        if state.round_started is None:
            return
        took, state.round_started = now - state.round_started, None
        for seat in state.seats.values():
            seat.idle_since = min(seat.idle_since + took, now)

    def stand_up(self, name: str, why: str) -> None:
        """Stand an idle player up: the seat and its chips are free (not during their round)."""
        state = self.state
        state.unseat(name)
        state.notice(
            "stood-up",
            N_("{player} was idle and is stood up: the seat is free"),
            {"player": name},
            text=f"{name} was idle ({why}) and is stood up: the seat is free",
            player=name,
        )
        self.seat_freed()
        state.changed()

    def idle_check(self, now: float) -> None:
        """Warn, then stand up, a seat idle for ``idle_seconds`` (betting open: during a
        round nobody can bet, its players are playing and the others waiting)."""
        state = self.state
        limit = state.idle_seconds
        if limit is None or state.played is not None:
            return
        for name, seat in list(state.seats.items()):
            idle = now - seat.idle_since
            if idle >= limit:
                self.stand_up(name, f"{idle:.0f} s without a move")
            elif idle >= 0.75 * limit and not seat.warned:
                seat.warned = True
                left = round(limit - idle)
                state.notice(
                    "idle-warning",
                    N_("{player}: no move for a while; the seat is freed in {seconds} s"),
                    {"player": name, "seconds": left},
                    text=f"{name}: no move for a while; the seat is freed in {left} s",
                    player=name,
                )
                state.changed()

    def count_rounds_without_bet(self) -> None:
        """Multi-player tables: a player who lets ``idle_rounds`` betting rounds pass without
        a bet is stood up (warned the round before)."""
        state = self.state
        if state.idle_seconds is None or not state.multi_player:
            return
        for name, seat in list(state.seats.items()):
            if seat.chips:
                seat.rounds_without_bet = 0
                continue
            seat.rounds_without_bet += 1
            if seat.rounds_without_bet >= state.idle_rounds:
                self.stand_up(name, f"{seat.rounds_without_bet} rounds without a bet")
            elif seat.rounds_without_bet == state.idle_rounds - 1:
                state.notice(
                    "idle-warning",
                    N_("{player}: bet in the next round or the seat is freed"),
                    {"player": name},
                    text=f"{name}: bet in the next round or the seat is freed",
                    player=name,
                )
