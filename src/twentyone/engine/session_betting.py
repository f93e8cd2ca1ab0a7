"""A table session's betting: chips on boxes (bet, undo, clear, rebet, double rebet), their
checks against the table and the engine's limits, ready, and the countdown that closes the
betting window.

:class:`Betting` is one of the parts :class:`~twentyone.engine.session.TableSession` is built
from: it changes the chips in the table's :class:`~twentyone.engine.session_state.TableState` and
calls ``start_round`` when the betting is over.

>>> from twentyone.engine.ledger import MemoryLedger
>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.session import TableSession
>>> ledger = MemoryLedger()
>>> table = TableSession(load_rules("ro-casino"), ledger=ledger, clock=lambda: 0.0)
>>> table.sit("ann", ledger.open_account("ann", 5000))
>>> table.bet("ann", 0, 1000)
>>> table.bet("ann", 0, 500)
>>> table.undo("ann")
>>> table.stakes("ann")
{0: {'main': 1000}}
"""

from __future__ import annotations

from collections.abc import Callable

from twentyone.engine.bets import check_box_bet, check_player_bets, check_switch_pairs
from twentyone.engine.errors import N_, BetError
from twentyone.engine.hands import BoxBet
from twentyone.engine.session_parts import Chip, Seat, SessionError, stakes_by_box
from twentyone.engine.session_seats import Seating
from twentyone.engine.session_state import TableState


class Betting:
    """A table's betting window: the chips, ready, the countdown. ``start_round`` closes the
    bets and starts the round with them (the session's)."""

    def __init__(
        self, state: TableState, seating: Seating, *, start_round: Callable[[], None]
    ) -> None:
        self.state = state
        self.seating = seating
        self.start_round = start_round

    def _betting_seat(self, name: str) -> Seat:
        seat = self.seating.seat(name)
        if self.state.closing:
            raise SessionError(N_("the table is closing: no new rounds"), "type")
        if self.state.played is not None:
            raise SessionError(N_("bets are closed: a round is in play"), "type")
        return seat

    def _check_chips(self, seat: Seat, chips: list[Chip]) -> None:
        """Raise unless these chips are a valid set of pending bets for the seat: the seats
        here, and the limits and the balance by the engine's check (:mod:`twentyone.engine.bets`,
        placing: the minimum waits for ready)."""
        rules = self.state.rules
        boxes: dict[int, tuple[int, dict[str, int]]] = {}
        for c in chips:
            if not 0 <= c.box < rules.table_boxes:
                raise SessionError(
                    N_("box {box}: the table has boxes 0 to {last}"),
                    "box",
                    c.box,
                    box=c.box,
                    last=rules.table_boxes - 1,
                )
            owner = self.state.owner(c.box)
            if owner is not None and owner != seat.name:
                raise SessionError(
                    N_("box {box} is {owner}'s"), "box", c.box, box=c.box, owner=owner
                )
            main, sides = boxes.get(c.box, (0, {}))
            if c.side == "main":
                main += c.amount
            else:
                sides = {**sides, c.side: sides.get(c.side, 0) + c.amount}
            boxes[c.box] = (main, sides)
            try:
                check_box_bet(rules, c.box, main, sides, placing=True)
            except BetError as exc:
                if exc.code == "no-side-bet":
                    raise SessionError.from_engine(exc, "side", c.side) from exc
                raise SessionError.from_engine(exc, "amount", c.amount) from exc
        if not chips:
            return
        try:
            check_player_bets(
                rules, seat.name, boxes, self.state.ledger.balance(seat.account), placing=True
            )
        except BetError as exc:
            last = chips[-1]
            if exc.code == "over-boxes-per-player":
                raise SessionError.from_engine(exc, "box", last.box) from exc
            raise SessionError.from_engine(exc, "amount", last.amount) from exc

    def _set_chips(self, seat: Seat, chips: list[Chip]) -> None:
        self._check_chips(seat, chips)
        seat.chips = chips
        seat.ready = False
        if self.state.multi_player and self.state.countdown is None and chips:
            self.state.countdown = self.state.clock() + self.state.countdown_seconds
        self.countdown_check()
        self.state.changed()

    def bet(self, name: str, box: object, amount: object, side: object = "main") -> None:
        """Add a chip to a table box (numbered from 0): on its main bet, or on a side bet the
        table offers (``side``: its id)."""
        seat = self._betting_seat(name)
        if not isinstance(box, int) or isinstance(box, bool):
            raise SessionError(N_("box {box!r}: expected a box number"), "box", box, box=box)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise SessionError(
                N_("amount {amount!r}: expected a whole number of minor units above 0"),
                "amount",
                amount,
                amount=amount,
            )
        ids = [b.id for b in self.state.rules.staked_side_bets]
        if side != "main" and side not in ids:
            raise SessionError(
                N_("side {side!r}: expected 'main' or a side bet of the table ({ids})"),
                "side",
                side,
                side=side,
                ids=", ".join(ids) or "-",
            )
        self._set_chips(seat, [*seat.chips, Chip(box, side, amount)])
        self.seating.active(name)  # an accepted bet

    def undo(self, name: str) -> None:
        """Take back the player's last chip."""
        seat = self._betting_seat(name)
        if not seat.chips:
            raise SessionError(N_("undo: you have no chips on the table"), "type", "undo")
        self._set_chips(seat, seat.chips[:-1])

    def clear(self, name: str) -> None:
        """Take back all the player's chips."""
        seat = self._betting_seat(name)
        self._set_chips(seat, [])

    def rebet(self, name: str, factor: int = 1) -> None:
        """The bets of the player's last round again (``factor`` 2: doubled)."""
        seat = self._betting_seat(name)
        if not seat.last_bets:
            what = "rebet" if factor == 1 else "double-rebet"
            raise SessionError(
                N_("{name}: you have no last round to repeat here"), "type", what, name=what
            )
        self._set_chips(seat, [Chip(c.box, c.side, c.amount * factor) for c in seat.last_bets])
        self.seating.active(name)  # accepted bets

    def ready(self, name: str) -> None:
        """Multi-player: ready (the round starts once all are); single-player: deal now."""
        seat = self._betting_seat(name)
        if not seat.chips:
            raise SessionError(N_("place a bet first"), "type", "ready")
        refused = self.refused_box(seat)
        if refused is not None:
            raise refused
        seat.ready = True
        self.seating.active(name)  # the bets confirmed
        self.state.changed()
        if not self.state.multi_player:
            self.start_round()
        else:
            self.countdown_check()

    def refused_box(self, seat: Seat) -> SessionError | None:
        """The engine's refusal of the first of the seat's boxes it would not take as the bets
        close (a main bet below the minimum: :func:`twentyone.engine.bets.check_box_bet`)."""
        for box, stakes in stakes_by_box(seat.chips).items():
            sides = {k: v for k, v in stakes.items() if k != "main"}
            try:
                check_box_bet(self.state.rules, box, stakes.get("main", 0), sides)
            except BetError as exc:
                return SessionError.from_engine(exc, "box", box)
        if self.state.rules.switch:  # the seat's boxes in equal pairs (Blackjack Switch)
            mains = sorted((b, s.get("main", 0)) for b, s in stakes_by_box(seat.chips).items())
            mains = [(b, m) for b, m in mains if m]
            try:
                bets = [BoxBet(seat.name, m) for _, m in mains]
                check_switch_pairs(self.state.rules, bets, [b + 1 for b, _ in mains])
            except BetError as exc:
                return SessionError.from_engine(exc, "box", mains[-1][0])
        return None

    def countdown_check(self) -> None:
        """Multi-player: start when every seated player is ready and someone bets."""
        if self.state.played is not None or not self.state.multi_player or self.state.closing:
            return
        if not any(s.chips for s in self.state.seats.values()):
            self.state.countdown = None
            return
        if all(s.ready for s in self.state.seats.values()):
            self.start_round()

    def close_betting(self) -> None:
        """Close the betting window now, as if the countdown ran out: the round starts with
        the bets placed (bets below the table minimum sit out). A no-op without bets."""
        state = self.state
        if state.played is None and state.countdown is not None and not state.closing:
            self.start_round()
