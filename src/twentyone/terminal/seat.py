"""The one-player game's seat: a player alone at a
:class:`~twentyone.engine.session.TableSession` whose money is a
:class:`~twentyone.engine.ledger.MemoryLedger`, the same table the web and the shared terminal
table run.

:meth:`PlayerSeat.deal` puts one bet per box (``0`` leaves a box empty) on the session's table
boxes 0, 1, ... and says ready, which deals at once at a single-player table; the player's
decisions go through :meth:`PlayerSeat.decide`; :meth:`PlayerSeat.settle` counts a finished round
into the statistics (the ledger already holds the money). Boxes are the table's boxes: box ``i``
of the round sits at table box :meth:`PlayerSeat.seat` (counted from 1, as shown).

>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.shoe import StackedShoe
>>> seat = PlayerSeat(load_rules("ru-online"), bankroll=10_000, shoe=StackedShoe("TS 9D 7H 8C"))
>>> rnd = seat.deal([1000])
>>> seat.decide("stand")
>>> seat.settle(rnd), seat.bankroll, seat.stats.pushed
(0, 10000, 1)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from twentyone.engine.bets import check_left, check_main_bet, check_side_bet
from twentyone.engine.errors import N_, BetError, IllegalActionError
from twentyone.engine.ledger import MemoryLedger
from twentyone.engine.replay import round_to_replay
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.engine.session import Played, SessionError, TableSession
from twentyone.engine.shoe import CardSource, Shoe
from twentyone.engine.stats import Stats


class PlayerSeat:
    """One player at a single-player table: ``boxes`` boxes each round, ``bankroll`` in minor
    units. ``shoe`` defaults to a shuffled :class:`~twentyone.engine.shoe.Shoe` for the rules
    (``seed`` None: a cryptographic RNG); tests pass a
    :class:`~twentyone.engine.shoe.StackedShoe`."""

    def __init__(
        self,
        rules: Rules,
        *,
        bankroll: int,
        boxes: int = 1,
        seed: int | None = None,
        shoe: CardSource | None = None,
        player: str = "player",
    ) -> None:
        if not 1 <= boxes <= rules.boxes_per_player:
            raise BetError(
                "boxes-per-player", boxes=boxes, table=rules.name, most=rules.boxes_per_player
            )
        if bankroll < 0:
            raise BetError("negative-bankroll", bankroll=bankroll)
        self.rules = rules
        self.boxes = boxes
        self.player = player
        self.start_bankroll = bankroll
        self.ledger = MemoryLedger()
        self.account = self.ledger.open_account(player, bankroll)
        self.shoe: CardSource = shoe if shoe is not None else Shoe.for_rules(rules, seed)
        self.session = TableSession(
            rules,
            ledger=self.ledger,
            clock=time.monotonic,
            shoe=self.shoe,
            table_id=rules.name,
            multi_player=False,
        )
        self.session.sit(player, self.account)
        self.last_bets: list[int] | None = None
        self.last_side_bets: list[dict[str, int]] | None = None
        self.round_bankroll = bankroll
        self.played: Played | None = None
        self.stats = Stats()

    @property
    def bankroll(self) -> int:
        """The player's money now (the ledger's balance: stakes on the table are out of it)."""
        return self.ledger.balance(self.account)

    @property
    def can_play(self) -> bool:
        """Whether the bankroll still covers the table minimum on one box."""
        return self.can_bet(self.bankroll)

    def can_bet(self, available: int) -> bool:
        """Whether a bet of the table minimum may go on a box with ``available`` left."""
        try:
            self.check_bet(self.rules.table_min, available)
        except BetError:
            return False
        return True

    def check_bet(self, bet: int, available: int, *, side: str | None = None, box: int = 1) -> None:
        """Raise :class:`~twentyone.engine.errors.BetError` naming the amount unless it may go
        on box ``box`` (counted from 1; as its main bet, or as the stake of the side bet
        ``side``): the checks of :mod:`twentyone.engine.bets`. ``0`` leaves the box empty (or
        places no side bet); ``available`` is what is left after the bets already placed.

        >>> from twentyone.engine.rulesets import load_rules
        >>> PlayerSeat(load_rules("ro-casino"), bankroll=1000).check_bet(50, 1000, box=1)
        Traceback (most recent call last):
        ...
        twentyone.engine.errors.BetError: box 1: bet 50 is outside the table limits 100 to 500000
        """
        if bet == 0:
            return
        if side is not None:
            check_side_bet(self.rules, box, side, bet)
        else:
            check_main_bet(self.rules, box, bet)
        check_left(box, bet, available)

    def deal(
        self, bets: Sequence[int], side_bets: Sequence[Mapping[str, int]] | None = None
    ) -> Round:
        """Bet one amount per box (``0``: the box sits out; ``side_bets``: one
        ``{side bet id: stake}`` per box), deal the round, and return it. A bad bet raises
        :class:`~twentyone.engine.errors.BetError` and nothing is on the table."""
        if len(bets) != self.boxes:
            raise BetError("bets-per-box", count=len(bets), boxes=self.boxes)
        sides = [dict(s) for s in side_bets] if side_bets is not None else [{}] * self.boxes
        if len(sides) != self.boxes:
            raise BetError("side-bets-per-box", count=len(sides), boxes=self.boxes)
        available = self.bankroll
        for seat, (bet, side) in enumerate(zip(bets, sides, strict=True), start=1):
            if bet == 0 and any(side.values()):
                alone = next(k for k, v in side.items() if v)
                raise BetError("side-bet-alone", box=seat, side=alone)
            self.check_bet(bet, available, box=seat)
            available -= bet
            for bet_id, stake in side.items():
                self.check_bet(stake, available, side=bet_id, box=seat)
                available -= stake
        if not any(bets):
            raise BetError("no-bets")
        self.round_bankroll = self.bankroll
        session, before = self.session, self.session.last_played
        try:
            for box, (bet, side) in enumerate(zip(bets, sides, strict=True)):
                if bet:
                    session.bet(self.player, box, bet)
                    for bet_id, stake in side.items():
                        if stake:
                            session.bet(self.player, box, stake, bet_id)
            session.ready(self.player)
        except SessionError:
            session.clear(self.player)
            raise
        played = session.played or session.last_played
        if played is None or played is before:  # the table could not start it
            notices = [n.text for n in session.take_notices() if n.kind == "table-error"]
            raise SessionError(
                N_("the round could not start: the bets are taken back"),
                detail="; ".join(notices) or None,
            )
        session.take_notices()  # the terminal tells the round itself
        self.played = played
        self.last_bets = list(bets)
        self.last_side_bets = sides
        return played.rnd

    def decide(self, decision: str) -> None:
        """Answer the round's question (the session and the engine check it)."""
        self.session.decide(self.player, decision)

    def seat(self, box: int) -> int:
        """The box number (from 1) a player sees for the round's box index."""
        played = self.played
        return played.box_map[box] + 1 if played is not None else box + 1

    def settle(self, rnd: Round) -> int:
        """Count a finished round into the statistics; returns its net (the ledger settled
        it as it ended)."""
        if not rnd.is_over:
            raise IllegalActionError("round-not-over")
        self.session.take_notices()
        return self.stats.count(rnd, self.player)

    def replay_record(self, rnd: Round) -> dict[str, Any]:
        """The round's replay JSON, with the bankroll it was played with (which decides what
        the round could ask: an unaffordable insurance is never offered)."""
        data = round_to_replay(rnd)
        data["bankrolls"] = {self.player: self.round_bankroll}
        return data
