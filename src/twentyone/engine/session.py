"""A table with several players: seats, chips, the betting countdown or the deal, the round
in play and its decision clock, as a state machine with no I/O.

A :class:`TableSession` is driven by intentions (``sit``, ``bet``, ``ready``, ``decide``…)
and by :meth:`TableSession.tick`, which a front end calls with the time to fire the countdown
and the decision clock (the session reads the time only through the ``clock`` it is given).
Every intention either changes the table and returns, or raises :class:`SessionError` naming
the bad value and changes nothing. The engine (:class:`~twentyone.engine.round.Round`) is the only
judge of the game; a :class:`~twentyone.engine.ledger.Ledger` holds the money. The web's live table
and the terminal's shared table are front ends of this one.

>>> from twentyone.engine.ledger import MemoryLedger
>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.shoe import StackedShoe
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

from twentyone.engine.cards import format_cards
from twentyone.engine.errors import N_, TwentyOneError
from twentyone.engine.hands import BoxBet
from twentyone.engine.ledger import (
    InsufficientFundsError,
    Ledger,
    LedgerUnavailableError,
)
from twentyone.engine.money import format_money
from twentyone.engine.records import Action
from twentyone.engine.replay import round_to_replay
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.engine.session_betting import Betting
from twentyone.engine.session_parts import (
    Chip,
    Clock,
    DefaultAction,
    Notice,
    Played,
    Seat,
    SessionError,
    Settling,
    Turn,
    box_bet,
    is_multi_player,
    round_moves,
    stakes_by_box,
)
from twentyone.engine.session_seats import Seating
from twentyone.engine.session_settlement import SETTLE_PATIENCE, Settlement
from twentyone.engine.session_state import Shared, TableState
from twentyone.engine.shoe import CardSource

__all__ = [
    "SETTLE_PATIENCE",
    "Chip",
    "Clock",
    "DefaultAction",
    "Notice",
    "Played",
    "Seat",
    "SessionError",
    "TableSession",
    "TableState",
    "Turn",
    "box_bet",
    "is_multi_player",
]


class TableSession:
    """One table, alive: its seats, chips, countdown, round in play and decision clock.

    Built from parts over one :class:`~twentyone.engine.session_state.TableState` (``state``,
    whose fields it shows as its own): :class:`~twentyone.engine.session_seats.Seating`
    (``seating``), :class:`~twentyone.engine.session_betting.Betting` (``betting``) and
    :class:`~twentyone.engine.session_settlement.Settlement` (``settlement``); the session
    starts and plays the round and runs the clock. ``idle_seconds`` (None: never) stands up a
    player idle that long at a single-player table, ``idle_rounds`` one who lets that many
    betting rounds pass without a bet at a multi-player table."""

    id: Shared[str] = Shared()
    rules: Shared[Rules] = Shared()
    ledger: Shared[Ledger] = Shared()
    clock: Shared[Clock] = Shared()
    shoe: Shared[CardSource] = Shared()
    default_action: Shared[DefaultAction] = Shared()
    multi_player: Shared[bool] = Shared()
    countdown_seconds: Shared[float] = Shared()
    decision_seconds: Shared[float] = Shared()
    idle_seconds: Shared[float | None] = Shared()
    idle_rounds: Shared[int] = Shared()
    seq: Shared[int] = Shared()
    seats: Shared[dict[str, Seat]] = Shared()
    played: Shared[Played | None] = Shared()
    countdown: Shared[float | None] = Shared()
    last_played: Shared[Played | None] = Shared()
    notices: Shared[list[Notice]] = Shared()
    settling: Shared[Settling | None] = Shared()
    voids: Shared[list[int]] = Shared()

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
        self.state = TableState.create(
            rules,
            ledger=ledger,
            clock=clock,
            shoe=shoe,
            default_action=default_action,
            multi_player=multi_player,
            id=table_id,
            countdown_seconds=countdown_seconds,
            decision_seconds=decision_seconds,
            idle_seconds=idle_seconds,
            idle_rounds=idle_rounds,
        )
        self.seating = Seating(self.state, seat_freed=self._seat_freed)
        self.betting = Betting(self.state, self.seating, start_round=self._start_round)
        self.settlement = Settlement(self.state, round_ended=self.seating.round_ended)

    # ----------------------------------------------------------------- reading (the state's)
    def owner(self, box: int) -> str | None:
        """Who owns a table box: the round's player, or whoever has chips on it."""
        return self.state.owner(box)

    def pending(self, name: str) -> int:
        """The total of a player's chips not yet staked."""
        return self.state.pending(name)

    def free_boxes(self) -> int:
        """Boxes a newcomer could bet on (:meth:`TableState.free_boxes`)."""
        return self.state.free_boxes()

    def in_round(self, name: str) -> bool:
        """Whether a player has a box in the round in play."""
        return self.state.in_round(name)

    def stakes(self, name: str) -> dict[int, dict[str, int]]:
        """A player's pending chips per table box and side."""
        return self.state.stakes(name)

    def take_notices(self) -> list[Notice]:
        """The notices since the last call (a front end shows or broadcasts them)."""
        return self.state.take_notices()

    # ----------------------------------------------------------------- seats (Seating's)
    def connect(self, name: str) -> None:
        """A connection of a player opened (seated or not)."""
        self.seating.connect(name)

    def disconnect(self, name: str) -> None:
        """A connection closed (:meth:`Seating.disconnect`)."""
        self.seating.disconnect(name)

    def sit(self, name: str, account: int, connections: int = 1) -> None:
        """Take a seat with a ledger account (a no-op for a seated player)."""
        self.seating.sit(name, account, connections)

    def leave(self, name: str) -> None:
        """Stand up between rounds; chips go back."""
        self.seating.leave(name)

    # ----------------------------------------------------------------- bets (Betting's)
    def bet(self, name: str, box: object, amount: object, side: object = "main") -> None:
        """Add a chip to a table box (numbered from 0), on its main bet or a side bet."""
        self.betting.bet(name, box, amount, side)

    def undo(self, name: str) -> None:
        """Take back the player's last chip."""
        self.betting.undo(name)

    def clear(self, name: str) -> None:
        """Take back all the player's chips."""
        self.betting.clear(name)

    def rebet(self, name: str, factor: int = 1) -> None:
        """The bets of the player's last round again (``factor`` 2: doubled)."""
        self.betting.rebet(name, factor)

    def ready(self, name: str) -> None:
        """Multi-player: ready (the round starts once all are); single-player: deal now."""
        self.betting.ready(name)

    def close_betting(self) -> None:
        """Close the betting window now, as if the countdown ran out."""
        self.betting.close_betting()

    def close_for_new_rounds(self) -> None:
        """Start no new round (a server about to stop drains its tables): chips on the table
        go back, bets and ready are refused, and a round in play is played out."""
        state = self.state
        if state.closing:
            return
        state.closing = True
        state.countdown = None
        for seat in state.seats.values():
            seat.chips = []
            seat.ready = False
        state.notice(
            "table-closing",
            N_("the table is closing: no new rounds; bets on the table go back"),
            {},
        )
        state.changed()

    def shift_clocks(self, seconds: float) -> None:
        """Move every clock of the table on by ``seconds`` (a table that was paused: the
        countdown, the decision clock, a settlement's patience and the seats' idle time go on
        from where they stopped)."""
        state = self.state
        if state.countdown is not None:
            state.countdown += seconds
        if state.played is not None and state.played.deadline is not None:
            state.played.deadline += seconds
        if state.round_started is not None:
            state.round_started += seconds
        if state.settling is not None:
            state.settling.since += seconds
            state.settling.retry_at += seconds
        for seat in state.seats.values():
            seat.idle_since += seconds

    @property
    def busy(self) -> bool:
        """Whether a round is in play or waits for the books (a drain waits for it)."""
        return self.state.played is not None or self.state.settling is not None

    def _seat_freed(self) -> None:
        self.betting.countdown_check()  # the others may all be ready now

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

    # ----------------------------------------------------------------- the round
    def _start_round(self) -> None:
        self.seating.count_rounds_without_bet()
        bets: list[tuple[int, BoxBet]] = []
        accounts: dict[str, int] = {}
        for name, seat in self.seats.items():
            refused = self.betting.refused_box(seat)
            if refused is not None:
                low = int(refused.value)
                self.state.notice(
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
            self.state.changed()
            return
        bets.sort(key=lambda pair: pair[0])
        try:
            bankrolls = self.ledger.balances(accounts.values())
        except LedgerUnavailableError:
            self._not_started()
            return
        by_name = {name: bankrolls.get(acct, 0) for name, acct in accounts.items()}
        for name in [n for n in accounts if _staked(bets, n) > by_name[n]]:
            # chips are checked against the balance when they are placed; money that left
            # since (elsewhere) costs this player the round, never the others theirs
            self.state.notice(
                "bets-dropped",
                N_("{player}: the bets are more than {player}'s balance; {player}'s bets are not "
                   "in this round"),
                {"player": name},
                player=name,
            )  # fmt: skip
            self.seats[name].chips = []
            bets = [(b, bet) for b, bet in bets if bet.player != name]
            del accounts[name], by_name[name]
        if not bets:
            self.state.changed()
            return
        try:
            rnd = Round(self.rules, self.shoe, [b for _, b in bets], by_name)
        except TwentyOneError:
            self._not_started()
            return
        moves = round_moves(rnd, 0, accounts)
        try:
            round_id = self.ledger.start_round(
                self.id, self.rules.name, round_to_replay(rnd), list(accounts.values()), moves
            )
        except (InsufficientFundsError, LedgerUnavailableError):
            note = getattr(self.shoe, "note_round", None)
            if note is not None:  # a provable shoe accounts for every card it dealt
                note(None, format_cards(rnd.cards_dealt))
            self._not_started()
            return
        for seat in self.seats.values():
            if seat.chips:
                seat.last_bets = seat.chips
            seat.chips = []
            seat.ready = False
        number = self.ledger.round_number(round_id)
        self.played = Played(
            round_id, rnd, [b for b, _ in bets], accounts, posted=len(rnd.log), number=number
        )
        self.state.round_started = self.clock()  # the seats' idle time stops meanwhile
        self.state.notice(
            "round-start", N_("round {round}: no more bets"), {"round": number}, round=number
        )
        self._after_change()

    def _not_started(self) -> None:
        """A round that could not start: the bets go back, and the table is told why."""
        for seat in self.seats.values():
            seat.chips = []
            seat.ready = False
        # the table is told without the reason: it may name a player's balance or account
        self.state.notice(
            "table-error", N_("the round could not start: the bets are taken back"), {}
        )
        self.state.changed()

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
        self.seating.active(name)  # an accepted decision: the player is playing

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
                "decision": str(record.decision),
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
            self.settlement.finish(played, moves)
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
        self.state.changed()

    # ----------------------------------------------------------------- time
    def tick(self, now: float) -> bool:
        """Fire the countdown and the decision clock if their time has come; True when the
        table changed."""
        state = self.state  # read directly: this runs for every table many times a second
        before = state.seq
        self.settlement.retry(now)
        if state.voids:
            self.settlement.flush_voids()
        self.seating.idle_check(now)
        if state.countdown is not None and now >= state.countdown:
            self.betting.close_betting()
        played = state.played
        if (
            played is not None
            and played.rnd.question is not None
            and played.deadline is not None
            and now >= played.deadline
        ):
            q = played.rnd.question
            player = played.rnd.boxes[q.box].player
            decision = played.default or self.default_action.decide(played.rnd)
            self.state.notice(
                "default-action",
                N_("{player} did not act in time: {decision} (table default: {default})"),
                {"player": player, "decision": decision, "default": self.default_action.name},
                player=player,
                box=played.box_map[q.box],
                hand=q.hand,
                decision=decision,
            )
            self._apply(played, decision, "clock")
        return state.seq != before


def _staked(bets: list[tuple[int, BoxBet]], name: str) -> int:
    """What a player's bets stake in all (main bets and side bets)."""
    return sum(b.bet + sum(b.side_bets.values()) for _, b in bets if b.player == name)
