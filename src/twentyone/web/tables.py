"""The live table: seats, chips, the betting countdown or the deal button, the round in play
and its decision clock.

A :class:`LiveTable` is driven by intentions (``sit``, ``bet``, ``decide``…) and by
:meth:`LiveTable.tick`, which the server calls with the clock's time to fire the countdown
and the decision clock. Every intention either changes the table and returns, or raises
:class:`TableError` naming the bad value and changes nothing. The engine
(:class:`~twentyone.round.Round`) is the only judge of the game; the
:class:`~twentyone.web.ledger.Ledger` holds the money. The views players see are built by
:mod:`twentyone.web.views` from this state.
"""

from __future__ import annotations

from typing import Any

from twentyone.errors import TwentyOneError
from twentyone.hands import BoxBet
from twentyone.i18n import N_
from twentyone.records import Action, Payment
from twentyone.replay import round_result, round_to_replay
from twentyone.round import Round
from twentyone.rules import Rules
from twentyone.shoe import CardSource
from twentyone.table import format_money
from twentyone.web.ledger import InsufficientFundsError, Ledger, RoundMove
from twentyone.web.refusal import TableError as TableError  # where it always was
from twentyone.web.storage.accounts import Player
from twentyone.web.table_parts import Chip, Clock, DefaultAction, Played, Seat, TableConfig
from twentyone.web.views import boxes_view, dealer_view

__all__ = ["Clock", "DefaultAction", "LiveTable", "TableConfig", "TableError"]


class LiveTable:
    """One table of the lobby, alive."""

    def __init__(
        self,
        config: TableConfig,
        rules: Rules,
        *,
        ledger: Ledger,
        shoe: CardSource,
        clock: Clock,
        default_action: DefaultAction,
    ) -> None:
        self.config = config
        self.id = config.id
        self.rules = rules
        self.ledger = ledger
        self.shoe = shoe
        self.clock = clock
        self.default_action = default_action
        self.multi_player = (
            config.multi_player
            if config.multi_player is not None
            else not rules.name.endswith("-online")
        )
        self.seq = 0
        self.seats: dict[str, Seat] = {}
        self.played: Played | None = None
        self.countdown: float | None = None
        self.last_round: dict[str, Any] | None = None
        self.notices: list[dict[str, Any]] = []

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
        """Boxes nobody bets on or plays (none while a single-player table is taken)."""
        if not self.multi_player and self.seats:
            return 0
        return sum(1 for b in range(self.rules.table_boxes) if self.owner(b) is None)

    def in_round(self, name: str) -> bool:
        """Whether a player has a box in the round in play."""
        return self.played is not None and name in self.played.accounts

    def _changed(self) -> None:
        self.seq += 1

    def _notice(
        self, kind: str, message: str, params: dict[str, Any], text: str = "", **extra: Any
    ) -> None:
        """A notice: the English ``text`` (default: the message filled in) and the catalog
        ``message`` with its ``params``, for the page to translate."""
        english = text or message.format(**params)
        notice = {"type": "notice", "kind": kind, "text": english, "message": message}
        self.notices.append({**notice, "params": params, **extra})

    # ----------------------------------------------------------------- seats
    def connect(self, player: Player) -> None:
        """A connection of a player opened (seated or not)."""
        seat = self.seats.get(player.username)
        if seat is not None:
            seat.connections += 1
            self._changed()

    def disconnect(self, player: Player) -> None:
        """A connection closed; a seated player with no connection left stands up unless
        they play in the round (then after it, and the decision clock plays for them)."""
        seat = self.seats.get(player.username)
        if seat is None:
            return
        seat.connections = max(0, seat.connections - 1)
        if seat.connections == 0 and not self.in_round(player.username):
            del self.seats[player.username]
            self._countdown_check()
        self._changed()

    def sit(self, player: Player, connections: int = 1) -> None:
        """Take a seat (a no-op for a seated player)."""
        if player.username in self.seats:
            return
        if not self.multi_player and self.seats:
            other = next(iter(self.seats))
            raise TableError(
                N_("table {table} is a single-player table and {other} plays it"),
                table=self.id,
                other=other,
            )
        if len(self.seats) >= self.rules.table_boxes:
            raise TableError(
                N_("table {table} is full ({seats} seats)"),
                table=self.id,
                seats=self.rules.table_boxes,
            )
        self.seats[player.username] = Seat(player, connections=connections)
        self._changed()

    def leave(self, player: Player) -> None:
        """Stand up between rounds; chips go back."""
        if player.username not in self.seats:
            raise TableError(N_("you are not seated at this table"), "type", "leave")
        if self.in_round(player.username):
            raise TableError(N_("you play in this round: leave after it"), "type", "leave")
        del self.seats[player.username]
        self._countdown_check()
        self._changed()

    def _seat(self, player: Player) -> Seat:
        seat = self.seats.get(player.username)
        if seat is None:
            raise TableError(N_("sit down first: you are not seated at this table"), "type")
        return seat

    # ----------------------------------------------------------------- betting
    def _betting_seat(self, player: Player) -> Seat:
        seat = self._seat(player)
        if self.played is not None:
            raise TableError(N_("bets are closed: a round is in play"), "type")
        return seat

    def _check_chips(self, player: Player, chips: list[Chip]) -> None:
        """Raise unless these chips are a valid set of pending bets for the player."""
        boxes: dict[int, dict[str, int]] = {}
        for c in chips:
            if not 0 <= c.box < self.rules.table_boxes:
                raise TableError(
                    N_("box {box}: the table has boxes 0 to {last}"),
                    "box",
                    c.box,
                    box=c.box,
                    last=self.rules.table_boxes - 1,
                )
            owner = self.owner(c.box)
            if owner is not None and owner != player.username:
                raise TableError(N_("box {box} is {owner}'s"), "box", c.box, box=c.box, owner=owner)
            sides = boxes.setdefault(c.box, {})
            sides[c.side] = sides.get(c.side, 0) + c.amount
            if sides[c.side] > self.rules.table_max:
                raise TableError(
                    N_(
                        "amount {amount}: box {box} would hold {held}, "
                        "above the table maximum {max}"
                    ),
                    "amount",
                    c.amount,
                    amount=c.amount,
                    box=c.box,
                    held=sides[c.side],
                    max=self.rules.table_max,
                )
        if len(boxes) > self.rules.boxes_per_player:
            raise TableError(
                N_("box {box}: at most {n} boxes per player"),
                "box",
                chips[-1].box,
                box=chips[-1].box,
                n=self.rules.boxes_per_player,
            )
        total = sum(c.amount for c in chips)
        balance = self.ledger.balance(player.id)
        if total > balance:
            raise TableError(
                N_("amount {amount}: bets of {total} exceed the balance {balance}"),
                "amount",
                chips[-1].amount,
                amount=chips[-1].amount,
                total=total,
                balance=balance,
            )

    def _set_chips(self, seat: Seat, chips: list[Chip]) -> None:
        self._check_chips(seat.player, chips)
        seat.chips = chips
        seat.ready = False
        if self.multi_player and self.countdown is None and chips:
            self.countdown = self.clock() + self.config.countdown_seconds
        self._countdown_check()
        self._changed()

    def bet(self, player: Player, box: Any, amount: Any, side: Any = "main") -> None:
        """Add a chip to a box."""
        seat = self._betting_seat(player)
        if not isinstance(box, int) or isinstance(box, bool):
            raise TableError(N_("box {box!r}: expected a box number"), "box", box, box=box)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise TableError(
                N_("amount {amount!r}: expected a whole number of minor units above 0"),
                "amount",
                amount,
                amount=amount,
            )
        ids = [b.id for b in self.rules.staked_side_bets]
        if side != "main" and side not in ids:
            raise TableError(
                N_("side {side!r}: expected 'main' or a side bet of the table ({ids})"),
                "side",
                side,
                side=side,
                ids=", ".join(ids) or "-",
            )
        self._set_chips(seat, [*seat.chips, Chip(box, side, amount)])

    def undo(self, player: Player) -> None:
        """Take back the player's last chip."""
        seat = self._betting_seat(player)
        if not seat.chips:
            raise TableError(N_("undo: you have no chips on the table"), "type", "undo")
        self._set_chips(seat, seat.chips[:-1])

    def clear(self, player: Player) -> None:
        """Take back all the player's chips."""
        seat = self._betting_seat(player)
        self._set_chips(seat, [])

    def rebet(self, player: Player, factor: int = 1) -> None:
        """The bets of the player's last round again (``factor`` 2: doubled)."""
        seat = self._betting_seat(player)
        if not seat.last_bets:
            name = "rebet" if factor == 1 else "double-rebet"
            raise TableError(
                N_("{name}: you have no last round to repeat here"), "type", name, name=name
            )
        self._set_chips(seat, [Chip(c.box, c.side, c.amount * factor) for c in seat.last_bets])

    def ready(self, player: Player) -> None:
        """Multi-player: ready (the round starts once all are); single-player: deal now."""
        seat = self._betting_seat(player)
        if not seat.chips:
            raise TableError(N_("place a bet first"), "type", "ready")
        self._check_minimums(seat)
        seat.ready = True
        self._changed()
        if not self.multi_player:
            self._start_round()
        else:
            self._countdown_check()

    def _check_minimums(self, seat: Seat) -> None:
        for box, main in self._boxes_of(seat).items():
            if main[0] < self.rules.table_min:
                raise TableError(
                    N_("box {box}: bet {bet} is below the table minimum {min}"),
                    "box",
                    box,
                    box=box,
                    bet=main[0],
                    min=self.rules.table_min,
                )

    @staticmethod
    def _boxes_of(seat: Seat) -> dict[int, tuple[int, dict[str, int]]]:
        """Each box's main bet and side stakes (by side bet id) from the seat's chips."""
        out: dict[int, tuple[int, dict[str, int]]] = {}
        for c in seat.chips:
            main, sides = out.setdefault(c.box, (0, {}))
            if c.side == "main":
                out[c.box] = (main + c.amount, sides)
            else:
                sides[c.side] = sides.get(c.side, 0) + c.amount
        return out

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
    def _start_round(self) -> None:
        bets: list[tuple[int, BoxBet]] = []
        accounts: dict[str, int] = {}
        for name, seat in self.seats.items():
            boxes = self._boxes_of(seat)
            low = [b for b, (main, _) in boxes.items() if main < self.rules.table_min]
            if low:
                self._notice(
                    "bets-dropped",
                    N_(
                        "{player}: box {seat} is below the table minimum {min}; {player}'s bets "
                        "are not in this round"
                    ),
                    {"player": name, "seat": low[0] + 1, "min": self.rules.table_min},
                    text=f"{name}: box {low[0] + 1} is below the table minimum "
                    f"{format_money(self.rules.table_min)}; {name}'s bets are not in this round",
                    player=name,
                )
                seat.chips = []
                continue
            for b, (main, sides) in boxes.items():
                bets.append((b, BoxBet(name, main, sides)))
                accounts[name] = seat.player.id
        self.countdown = None
        if not bets:
            self._changed()
            return
        bets.sort(key=lambda pair: pair[0])
        bankrolls = self.ledger.balances(accounts.values())
        by_name = {name: bankrolls.get(acct, 0) for name, acct in accounts.items()}
        try:
            rnd = Round(self.rules, self.shoe, [b for _, b in bets], by_name)
        except TwentyOneError as exc:
            self._not_started(exc)
            return
        moves = self._moves(rnd, 0, accounts)
        try:
            round_id = self.ledger.start_round(
                self.id, self.rules.name, round_to_replay(rnd), list(accounts.values()), moves
            )
        except InsufficientFundsError as exc:
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
        self._clear_bets()
        self._notice(
            "table-error",
            N_("the round could not start: the bets are taken back"),
            {},
            text=f"the round could not start: {exc}",
        )
        self._changed()

    def _clear_bets(self) -> None:
        for seat in self.seats.values():
            seat.chips = []
            seat.ready = False

    @staticmethod
    def _moves(rnd: Round, start: int, accounts: dict[str, int]) -> list[RoundMove]:
        moves = []
        for index in range(start, len(rnd.log)):
            rec = rnd.log[index]
            if isinstance(rec, Payment) and rec.amount:
                player = rnd.boxes[rec.box].player
                moves.append(RoundMove(index, accounts[player], rec.amount))
        return moves

    def decide(self, player: Player, decision: Any, box: Any = None, hand: Any = None) -> None:
        """Answer the round's question (only the player whose turn it is)."""
        played = self.played
        if played is None or played.rnd.question is None:
            raise TableError(
                N_("decision {decision!r}: no round is asking"),
                "decision",
                decision,
                decision=decision,
            )
        if not isinstance(decision, str):
            raise TableError(
                N_("decision {decision!r}: expected a string"),
                "decision",
                decision,
                decision=decision,
            )
        q = played.rnd.question
        whose = played.rnd.boxes[q.box].player
        if whose != player.username:
            raise TableError(
                N_("decision {decision!r}: it is {whose}'s turn, not yours"),
                "decision",
                decision,
                decision=decision,
                whose=whose,
            )
        table_box = played.box_map[q.box]
        if box is not None and box != table_box:
            raise TableError(
                N_("box {box!r}: the turn is at box {turn}"), "box", box, box=box, turn=table_box
            )
        if hand is not None and hand != q.hand:
            raise TableError(
                N_("hand {hand!r}: the turn is at hand {turn}"),
                "hand",
                hand,
                hand=hand,
                turn=q.hand,
            )
        try:
            self._apply(played, decision, "player")
        except TwentyOneError as exc:
            raise TableError(
                N_("decision {decision!r}: the game does not allow it now"),
                "decision",
                decision,
                detail=str(exc),
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
        moves = self._moves(rnd, played.posted, played.accounts)
        played.posted = len(rnd.log)
        if rnd.is_over:
            self._finish(played, moves)
            return
        if moves:  # money moved: post it, with the replay so far (hits and stands wait)
            self.ledger.record_moves(played.id, moves, round_to_replay(rnd), played.clock_decisions)
        q = rnd.question
        assert q is not None
        key = (q.kind, q.box, q.hand, len(rnd.log))
        if key != played.question_key:
            played.question_key = key
            played.deadline = self.clock() + self.config.decision_seconds
            played.default = self.default_action.decide(rnd)
        self._changed()

    def _finish(self, played: Played, moves: list[RoundMove]) -> None:
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
        self.ledger.settle_round(
            played.id,
            moves,
            round_to_replay(rnd),
            round_result(rnd),
            per_player,
            played.clock_decisions,
        )
        self.last_round = {
            "id": played.id,
            "dealer": dealer_view(rnd),
            "boxes": boxes_view(self, played, final=True),
            "net": net,
            "log": played.log,
        }
        self.played = None
        for name in [n for n, s in self.seats.items() if s.connections == 0]:
            del self.seats[name]
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

    # ----------------------------------------------------------------- time
    def tick(self, now: float) -> bool:
        """Fire the countdown and the decision clock if their time has come; True when the
        table changed."""
        before = self.seq
        if self.played is None and self.countdown is not None and now >= self.countdown:
            self._start_round()
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
            box = played.box_map[q.box]
            self._notice(
                "default-action",
                N_("{player} did not act in time: {decision} (table default: {default})"),
                {"player": player, "decision": decision, "default": self.default_action.name},
                player=player,
                box=box,
                hand=q.hand,
                decision=decision,
            )
            self._apply(played, decision, "clock")
        return self.seq != before

    def take_notices(self) -> list[dict[str, Any]]:
        """The notices since the last call (the server broadcasts them)."""
        out, self.notices = self.notices, []
        return out
