"""A table session's state, as data its parts share: the table's settings, the seats, the
round in play, the countdown, the notices and a finished round the ledger has not taken.

:class:`TableState` is what :class:`~twentyone.engine.session.TableSession` is built over: the
seats (:class:`~twentyone.engine.session_seats.Seating`), the betting
(:class:`~twentyone.engine.session_betting.Betting`) and the settlement
(:class:`~twentyone.engine.session_settlement.Settlement`) each change it, and nothing else;
it answers what the table reads (who owns a box, a player's pending chips, free boxes).

>>> from twentyone.engine.ledger import MemoryLedger
>>> from twentyone.engine.rulesets import load_rules
>>> state = TableState.create(load_rules("ro-casino"), ledger=MemoryLedger(), clock=lambda: 0.0)
>>> state.free_boxes(), state.owner(0), state.seq
(7, None, 0)
>>> state.notice("round-start", "round {round}: no more bets", {"round": 3})
>>> [n.text for n in state.take_notices()], state.notices
(['round 3: no more bets'], [])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

from twentyone.engine.ledger import Ledger
from twentyone.engine.rules import Rules
from twentyone.engine.session_parts import (
    Clock,
    DefaultAction,
    Notice,
    Played,
    Seat,
    Settling,
    stakes_by_box,
)
from twentyone.engine.shoe import CardSource, Shoe

T = TypeVar("T")


@dataclass(eq=False, kw_only=True)
class TableState:
    """One table's settings and state. ``idle_seconds`` (None: never) stands up a player who
    does nothing that long at a single-player table; ``idle_rounds`` one who lets that many
    betting rounds pass without a bet at a multi-player table."""

    rules: Rules
    ledger: Ledger
    clock: Clock
    shoe: CardSource
    default_action: DefaultAction
    id: str = "table"
    multi_player: bool = True
    countdown_seconds: float = 15.0
    decision_seconds: float = 20.0
    idle_seconds: float | None = None
    idle_rounds: int = 3
    seq: int = 0  # grows with every change (a front end broadcasts when it moved)
    seats: dict[str, Seat] = field(default_factory=dict)
    played: Played | None = None
    countdown: float | None = None
    last_played: Played | None = None
    notices: list[Notice] = field(default_factory=list)
    settling: Settling | None = None  # a finished round the ledger has not taken
    voids: list[int] = field(default_factory=list)  # voided rounds not yet refunded
    round_started: float | None = None  # when the round in play started (idle time stops)
    closing: bool = False  # no new rounds: the table is about to stop (a server drains)
    #: told of every seat freed (a front end that keeps seats elsewhere lets them go)
    seat_released: Callable[[Seat], None] | None = None

    @classmethod
    def create(
        cls,
        rules: Rules,
        *,
        ledger: Ledger,
        clock: Clock,
        shoe: CardSource | None = None,
        default_action: DefaultAction | None = None,
        multi_player: bool | None = None,
        **settings: Any,
    ) -> TableState:
        """A fresh table: a shuffled shoe for the rules unless one is given, the clock's
        default action ``stand``, multi-player as the rules say
        (:attr:`~twentyone.engine.rules.Rules.multi_player`) unless told."""
        return cls(
            rules=rules,
            ledger=ledger,
            clock=clock,
            shoe=shoe if shoe is not None else Shoe.for_rules(rules),
            default_action=default_action or DefaultAction("stand"),
            multi_player=rules.multi_player if multi_player is None else multi_player,
            **settings,
        )

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

    # ----------------------------------------------------------------- changing
    def unseat(self, name: str) -> None:
        """Free a player's seat (its chips go back) and tell :attr:`seat_released`."""
        seat = self.seats.pop(name)
        if self.seat_released is not None:
            self.seat_released(seat)

    def changed(self) -> None:
        """Count a change (what a front end watches to know when to show the table again)."""
        self.seq += 1

    def notice(self, kind: str, message: str, params: dict[str, object], text: str = "",
               **extra: object) -> None:  # fmt: skip
        """A notice: the English ``text`` (default: the message filled in) and the catalog
        ``message`` with its ``params``, for a front end to translate."""
        english = text or message.format(**params)
        self.notices.append(Notice(kind, english, message, dict(params), dict(extra)))


class Shared(Generic[T]):
    """An attribute of the :class:`TableState` read and written through the object that
    holds it as ``state`` (the session shows its state's fields as its own).

    >>> class Holder:
    ...     seq: Shared[int] = Shared()
    ...     def __init__(self, state): self.state = state
    >>> from twentyone.engine.ledger import MemoryLedger
    >>> from twentyone.engine.rulesets import load_rules
    >>> h = Holder(TableState.create(load_rules("ru-online"), ledger=MemoryLedger(),
    ...                             clock=lambda: 0.0))
    >>> h.seq = 4
    >>> h.state.seq
    4
    """

    name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> Shared[T]: ...
    @overload
    def __get__(self, obj: object, objtype: type | None = None) -> T: ...
    def __get__(self, obj: object, objtype: type | None = None) -> T | Shared[T]:
        if obj is None:
            return self
        value: T = getattr(obj.state, self.name)  # type: ignore[attr-defined]
        return value

    def __set__(self, obj: object, value: T) -> None:
        setattr(obj.state, self.name, value)  # type: ignore[attr-defined]
