"""A table with several players: seats, chips, the betting countdown or the deal, the round
in play and its decision clock, as a state machine with no I/O.

A :class:`TableSession` is driven by intentions (``sit``, ``bet``, ``ready``, ``decide``…)
and by :meth:`TableSession.tick`, which a front end calls with the time to fire the countdown
and the decision clock (the session reads the time only through the ``clock`` it is given).
Every intention either changes the table and returns, or raises :class:`SessionError` naming
the bad value and changes nothing. The engine (:class:`~twentyone.round.Round`) is the only
judge of the game; a :class:`~twentyone.ledger.Ledger` holds the money. The web's live table
and the terminal's shared table are front ends of this one.

>>> from twentyone.ledger import MemoryLedger
>>> from twentyone.rulesets import load_rules
>>> from twentyone.shoe import StackedShoe
>>> ledger = MemoryLedger()
>>> table = TableSession(load_rules("ro-casino"), ledger=ledger, clock=lambda: 0.0,
...                      shoe=StackedShoe("TS 9D 8H 8C"))
>>> table.sit("ann", ledger.open_account("ann", 5000))
>>> table.bet("ann", 0, 1000)
>>> table.ready("ann")
>>> table.turn.player, table.turn.kind, table.turn.actions
('ann', 'surrender', ('surrender', 'no-surrender'))
>>> table.decide("ann", "no-surrender")
>>> table.decide("ann", "stand")
>>> table.played is None, table.last_played.rnd.net(), ledger.balances([1])
(True, {'ann': 1000}, {1: 6000})
"""

from __future__ import annotations

from dataclasses import dataclass

from twentyone.bets import check_box_bet, check_player_bets
from twentyone.cards import format_cards
from twentyone.errors import BetError, TwentyOneError
from twentyone.hands import BoxBet
from twentyone.i18n import N_
from twentyone.ledger import InsufficientFundsError, Ledger, LedgerUnavailableError, RoundMove
from twentyone.records import Action, Payment
from twentyone.replay import round_result, round_to_replay
from twentyone.round import Round
from twentyone.rules import Rules
from twentyone.session_parts import (
    Chip,
    Clock,
    DefaultAction,
    Notice,
    Played,
    Seat,
    SessionError,
    Turn,
    box_bet,
    is_multi_player,
    round_moves,
    stakes_by_box,
)
from twentyone.shoe import CardSource, Shoe
from twentyone.table import format_money

__all__ = [
    "Chip",
    "Clock",
    "DefaultAction",
    "Notice",
    "Played",
    "Seat",
    "SessionError",
    "TableSession",
    "Turn",
    "box_bet",
    "is_multi_player",
]


#: Seconds a finished round waits for the ledger before it is voided and refunded.
SETTLE_PATIENCE = 30.0


@dataclass(slots=True)
class Settling:
    """A finished round whose settlement the ledger could not write yet."""

    played: Played
    moves: list[RoundMove]
    since: float
    retry_at: float
    pause: float = 0.5


class TableSession:
    """One table, alive: its seats, chips, countdown, round in play and decision clock."""

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

    @property
    def turn(self) -> Turn | None:
        """Whose turn it is, at which table box and hand, and what they may do."""
        played = self.played
        if played is None or played.rnd.question is None:
            return None
        q = played.rnd.question
        return Turn(
            player=played.rnd.boxes[q.box].player,
            box=played.box_map[q.box],
            hand=q.hand,
            kind=q.kind,
            actions=tuple(q.actions),
            amount_range=q.amount_range,
            deadline=played.deadline,
            default=played.default,
        )

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

    # ----------------------------------------------------------------- betting
    def _betting_seat(self, name: str) -> Seat:
        seat = self._seat(name)
        if self.played is not None:
            raise SessionError(N_("bets are closed: a round is in play"), "type")
        return seat

    def _check_chips(self, seat: Seat, chips: list[Chip]) -> None:
        """Raise unless these chips are a valid set of pending bets for the seat: the seats
        here, and the limits and the balance by the engine's check (:mod:`twentyone.bets`,
        placing: the minimum waits for ready)."""
        rules = self.rules
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
            owner = self.owner(c.box)
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
                rules, seat.name, boxes, self.ledger.balance(seat.account), placing=True
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
        if self.multi_player and self.countdown is None and chips:
            self.countdown = self.clock() + self.countdown_seconds
        self._countdown_check()
        self._changed()

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
        ids = [b.id for b in self.rules.staked_side_bets]
        if side != "main" and side not in ids:
            raise SessionError(
                N_("side {side!r}: expected 'main' or a side bet of the table ({ids})"),
                "side",
                side,
                side=side,
                ids=", ".join(ids) or "-",
            )
        self._set_chips(seat, [*seat.chips, Chip(box, side, amount)])

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

    def ready(self, name: str) -> None:
        """Multi-player: ready (the round starts once all are); single-player: deal now."""
        seat = self._betting_seat(name)
        if not seat.chips:
            raise SessionError(N_("place a bet first"), "type", "ready")
        refused = self._refused_box(seat)
        if refused is not None:
            raise refused
        seat.ready = True
        self._changed()
        if not self.multi_player:
            self._start_round()
        else:
            self._countdown_check()

    def _refused_box(self, seat: Seat) -> SessionError | None:
        """The engine's refusal of the first of the seat's boxes it would not take as the bets
        close (a main bet below the minimum: :func:`twentyone.bets.check_box_bet`)."""
        for box, stakes in stakes_by_box(seat.chips).items():
            sides = {k: v for k, v in stakes.items() if k != "main"}
            try:
                check_box_bet(self.rules, box, stakes.get("main", 0), sides)
            except BetError as exc:
                return SessionError.from_engine(exc, "box", box)
        return None

    def _countdown_check(self) -> None:
        """Multi-player: start when every seated player is ready and someone bets."""
        if self.played is not None or not self.multi_player:
            return
        if not any(s.chips for s in self.seats.values()):
            self.countdown = None
            return
        if all(s.ready for s in self.seats.values()):
            self._start_round()

    # ----------------------------------------------------------------- the round
    def close_betting(self) -> None:
        """Close the betting window now, as if the countdown ran out: the round starts with
        the bets placed (bets below the table minimum sit out). A no-op without bets."""
        if self.played is None and self.countdown is not None:
            self._start_round()

    def _start_round(self) -> None:
        self._count_rounds_without_bet()
        bets: list[tuple[int, BoxBet]] = []
        accounts: dict[str, int] = {}
        for name, seat in self.seats.items():
            refused = self._refused_box(seat)
            if refused is not None:
                low = int(refused.value)
                self._notice(
                    "bets-dropped",
                    N_(
                        "{player}: box {seat} is below the table minimum {min}; {player}'s bets "
                        "are not in this round"
                    ),
                    {"player": name, "seat": low + 1, "min": self.rules.table_min},
                    text=f"{name}: box {low + 1} is below the table minimum "
                    f"{format_money(self.rules.table_min)}; {name}'s bets are not in this round",
                    player=name,
                )
                seat.chips = []
                continue
            for b, sides in stakes_by_box(seat.chips).items():
                bets.append((b, box_bet(name, sides)))
                accounts[name] = seat.account
        self.countdown = None
        if not bets:
            self._changed()
            return
        bets.sort(key=lambda pair: pair[0])
        try:
            bankrolls = self.ledger.balances(accounts.values())
        except LedgerUnavailableError as exc:
            self._not_started(exc)
            return
        by_name = {name: bankrolls.get(acct, 0) for name, acct in accounts.items()}
        try:
            rnd = Round(self.rules, self.shoe, [b for _, b in bets], by_name)
        except TwentyOneError as exc:
            self._not_started(exc)
            return
        moves = round_moves(rnd, 0, accounts)
        try:
            round_id = self.ledger.start_round(
                self.id, self.rules.name, round_to_replay(rnd), list(accounts.values()), moves
            )
        except (InsufficientFundsError, LedgerUnavailableError) as exc:
            self._not_started(exc)
            return
        for seat in self.seats.values():
            if seat.chips:
                seat.last_bets = seat.chips
            seat.chips = []
            seat.ready = False
        self.played = Played(round_id, rnd, [b for b, _ in bets], accounts, posted=len(rnd.log))
        self._notice(
            "round-start", N_("round {round}: no more bets"), {"round": round_id}, round=round_id
        )
        self._after_change()

    def _not_started(self, exc: Exception) -> None:
        """A round that could not start: the bets go back, and the table is told why."""
        for seat in self.seats.values():
            seat.chips = []
            seat.ready = False
        self._notice(
            "table-error",
            N_("the round could not start: the bets are taken back"),
            {},
            text=f"the round could not start: {exc}",
        )
        self._changed()

    def decide(self, name: str, decision: object, box: object = None, hand: object = None) -> None:
        """Answer the round's question (only the player whose turn it is); ``box`` (the
        table box) and ``hand``, when given, must be where the turn is."""
        played = self.played
        if played is None or played.rnd.question is None:
            raise SessionError(
                N_("decision {decision!r}: no round is asking"),
                "decision",
                decision,
                decision=decision,
            )
        if not isinstance(decision, str):
            raise SessionError(
                N_("decision {decision!r}: expected a string"),
                "decision",
                decision,
                decision=decision,
            )
        q = played.rnd.question
        whose = played.rnd.boxes[q.box].player
        if whose != name:
            raise SessionError(
                N_("decision {decision!r}: it is {whose}'s turn, not yours"),
                "decision",
                decision,
                decision=decision,
                whose=whose,
            )
        seat = self.seats.get(name)
        if seat is not None:  # a move: the player is there
            seat.active_at = self.clock()
            seat.warned = False
        table_box = played.box_map[q.box]
        if box is not None and box != table_box:
            raise SessionError(
                N_("box {box!r}: the turn is at box {turn}"), "box", box, box=box, turn=table_box
            )
        if hand is not None and hand != q.hand:
            raise SessionError(
                N_("hand {hand!r}: the turn is at hand {turn}"),
                "hand",
                hand,
                hand=hand,
                turn=q.hand,
            )
        try:
            self._apply(played, decision, "player")
        except TwentyOneError as exc:
            if exc.code == "amount-outside":  # the engine's range, in the page's words
                raise SessionError(
                    N_("decision {decision!r}: amount {amount} is outside {min} to {max}"),
                    "decision",
                    decision,
                    detail=str(exc),
                    engine=exc,
                    decision=decision,
                    amount=exc.params["amount"],
                    min=exc.params["min"],
                    max=exc.params["max"],
                ) from exc
            raise SessionError(
                N_("decision {decision!r}: the game does not allow it now"),
                "decision",
                decision,
                detail=str(exc),
                engine=exc,
                decision=decision,
            ) from exc

    def _apply(self, played: Played, decision: str, by: str) -> None:
        rnd = played.rnd
        q = rnd.question
        assert q is not None
        record: Action = rnd.apply(decision)
        player = rnd.boxes[q.box].player
        if by == "clock":
            played.clock_decisions.append(len(rnd.decisions) - 1)
        played.log.append(
            {
                "box": played.box_map[q.box],
                "hand": q.hand,
                "decision": record.decision,
                "player": player,
                "by": by,
            }
        )
        self._after_change()

    def _after_change(self) -> None:
        played = self.played
        assert played is not None
        rnd = played.rnd
        moves = round_moves(rnd, played.posted, played.accounts)
        if rnd.is_over:
            played.posted = len(rnd.log)
            self._finish(played, moves)
            return
        if moves:  # money moved: post it, with the replay so far (hits and stands wait)
            try:
                self.ledger.record_moves(
                    played.id, moves, round_to_replay(rnd), played.clock_decisions
                )
                played.posted = len(rnd.log)
            except LedgerUnavailableError:
                pass  # posted later, with the next moves or the settlement
        else:
            played.posted = len(rnd.log)
        q = rnd.question
        assert q is not None
        key = (q.kind, q.box, q.hand, len(rnd.log))
        if key != played.question_key:
            played.question_key = key
            played.deadline = self.clock() + self.decision_seconds
            played.default = self.default_action.decide(rnd)
        self._changed()

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

    # ----------------------------------------------------------------- time
    def tick(self, now: float) -> bool:
        """Fire the countdown and the decision clock if their time has come; True when the
        table changed."""
        before = self.seq
        self._retry_settlement(now)
        if self.voids:
            self._flush_voids()
        self._idle_check(now)
        if self.countdown is not None and now >= self.countdown:
            self.close_betting()
        played = self.played
        if (
            played is not None
            and played.rnd.question is not None
            and played.deadline is not None
            and now >= played.deadline
        ):
            q = played.rnd.question
            player = played.rnd.boxes[q.box].player
            decision = played.default or self.default_action.decide(played.rnd)
            self._notice(
                "default-action",
                N_("{player} did not act in time: {decision} (table default: {default})"),
                {"player": player, "decision": decision, "default": self.default_action.name},
                player=player,
                box=played.box_map[q.box],
                hand=q.hand,
                decision=decision,
            )
            self._apply(played, decision, "clock")
        return self.seq != before
