"""A player's session at a table: rules, shoe, bankroll, last bets and statistics, no I/O.

The terminal game (:mod:`twentyone.terminal.game`) and any other front end drive a :class:`Table`:
:meth:`Table.deal` takes the bets (one per box; ``0`` leaves a box empty) and returns the
:class:`~twentyone.engine.round.Round` to play; :meth:`Table.settle` books a finished round into the
bankroll and the statistics. Money is integer minor units throughout; :func:`format_money` and
:func:`parse_money` convert to and from what a person reads and types.

>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.shoe import StackedShoe
>>> table = Table(load_rules("ru-online"), bankroll=10_000, shoe=StackedShoe("TS 9D 7H 8C"))
>>> rnd = table.deal([1000])
>>> _ = rnd.stand()
>>> table.settle(rnd), table.bankroll, table.stats.pushed
(0, 10000, 1)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from twentyone.engine.bets import check_left, check_main_bet, check_side_bet
from twentyone.engine.errors import BetError, IllegalActionError
from twentyone.engine.hands import BoxBet
from twentyone.engine.replay import round_to_replay
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.engine.shoe import CardSource, Shoe

_MONEY = re.compile(r"(\d+)(?:\.(\d*))?|\.(\d+)")


def format_money(units: int, *, sign: bool = False) -> str:
    """Minor units as money with two decimals; ``sign`` adds ``+`` to positive amounts.

    >>> format_money(1050), format_money(-5)
    ('10.50', '-0.05')
    >>> format_money(2500, sign=True), format_money(0, sign=True)
    ('+25.00', '0.00')
    """
    text = f"{abs(units) // 100}.{abs(units) % 100:02d}"
    if units < 0:
        return "-" + text
    return ("+" + text) if sign and units > 0 else text


def parse_money(text: str) -> int:
    """Money as typed (``10``, ``10.5``, ``10.50``) in minor units.

    >>> parse_money("10"), parse_money("10.5"), parse_money(" 0.05 ")
    (1000, 1050, 5)
    >>> parse_money("ten")
    Traceback (most recent call last):
    ...
    ValueError: 'ten' is not an amount: expected money such as 10 or 10.50
    """
    t = text.strip()
    m = _MONEY.fullmatch(t)
    if m is None:
        raise ValueError(f"{t!r} is not an amount: expected money such as 10 or 10.50")
    whole, cents = (m[1], m[2] or "") if m[1] is not None else ("0", m[3])
    if len(cents) > 2:
        raise ValueError(f"{t!r} has more than two decimals: expected money such as 10.50")
    return int(whole) * 100 + int(cents.ljust(2, "0"))


@dataclass
class Stats:
    """A session's statistics. Hands count each hand played (split hands apart); a surrender
    counts as lost, a taken even money as won; ``blackjacks`` counts blackjacks dealt."""

    rounds: int = 0
    won: int = 0
    lost: int = 0
    pushed: int = 0
    surrendered: int = 0
    blackjacks: int = 0
    net: int = 0
    biggest_win: int = 0
    wagered: int = 0

    @property
    def hands(self) -> int:
        return self.won + self.lost + self.pushed

    def count(self, rnd: Round, player: str) -> int:
        """Count ``player``'s boxes of a finished round (others at the table are left out);
        returns the player's net."""
        net = rnd.net().get(player, 0)
        self.rounds += 1
        self.net += net
        self.biggest_win = max(self.biggest_win, net)
        for box in rnd.boxes:
            if box.player != player:
                continue
            self.wagered += box.staked
            for hand in box.hands:
                self.blackjacks += hand.is_blackjack
                if hand.result in ("win", "blackjack", "even-money"):
                    self.won += 1
                elif hand.result == "push":
                    self.pushed += 1
                else:
                    self.lost += 1
                    self.surrendered += hand.surrendered
        return net


class Table:
    """One player's seat at a table: ``boxes`` boxes each round, ``bankroll`` in minor units.

    ``shoe`` defaults to a shuffled :class:`~twentyone.engine.shoe.Shoe` for the rules (``seed``
    None: a cryptographic RNG); tests pass a :class:`~twentyone.engine.shoe.StackedShoe`.
    """

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
        self.bankroll = bankroll
        self.start_bankroll = bankroll
        self.player = player
        self.shoe: CardSource = shoe if shoe is not None else Shoe.for_rules(rules, seed)
        self.last_bets: list[int] | None = None
        self.last_side_bets: list[dict[str, int]] | None = None
        self.seats: list[int] = []
        self.round_bankroll = bankroll
        self.stats = Stats()

    @property
    def can_play(self) -> bool:
        """Whether the bankroll still covers the table minimum on one box."""
        return self.can_bet(self.bankroll)

    def can_bet(self, available: int) -> bool:
        """Whether a bet of the table minimum may go on a box with ``available`` left
        (:meth:`check_bet` answers)."""
        try:
            self.check_bet(self.rules.table_min, available)
        except BetError:
            return False
        return True

    def check_bet(self, bet: int, available: int, *, side: str | None = None, box: int = 1) -> None:
        """Raise :class:`BetError` naming the amount unless it may go on box ``box`` (as its
        main bet, or as the stake of the side bet ``side``, an id of the table's side bets):
        the checks of :mod:`twentyone.engine.bets`.

        ``0`` leaves the box empty (or places no side bet); ``available`` is what is left
        of the bankroll after the bets already placed this round.

        >>> from twentyone.engine.rulesets import load_rules
        >>> Table(load_rules("ro-casino"), bankroll=1000).check_bet(50, 1000, box=1)
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
        """Start a round with one bet per box (``0``: the box sits out) and deal it;
        ``side_bets`` has one ``{side bet id: stake}`` per box."""
        if len(bets) != self.boxes:
            raise BetError("bets-per-box", count=len(bets), boxes=self.boxes)
        sides = [dict(s) for s in side_bets] if side_bets is not None else [{}] * self.boxes
        if len(sides) != self.boxes:
            raise BetError("side-bets-per-box", count=len(sides), boxes=self.boxes)
        available = self.bankroll
        box_bets: list[BoxBet] = []
        seats: list[int] = []
        for seat, (bet, side) in enumerate(zip(bets, sides, strict=True), start=1):
            if bet == 0 and any(side.values()):
                alone = next(k for k, v in side.items() if v)
                raise BetError("side-bet-alone", box=seat, side=alone)
            self.check_bet(bet, available, box=seat)
            available -= bet
            for bet_id, stake in side.items():
                self.check_bet(stake, available, side=bet_id, box=seat)
                available -= stake
            if bet:
                box_bets.append(BoxBet(self.player, bet, {k: v for k, v in side.items() if v}))
                seats.append(seat)
        if not box_bets:
            raise BetError("no-bets")
        rnd = Round(self.rules, self.shoe, box_bets, {self.player: self.bankroll})
        self.seats = seats
        self.round_bankroll = self.bankroll
        self.last_bets = list(bets)
        self.last_side_bets = sides
        return rnd

    def seat(self, box: int) -> int:
        """The box number (from 1) a player sees for the round's box index."""
        return self.seats[box] if box < len(self.seats) else box + 1

    def settle(self, rnd: Round) -> int:
        """Book a finished round into the bankroll and statistics; returns its net."""
        if not rnd.is_over:
            raise IllegalActionError("round-not-over")
        net = self.stats.count(rnd, self.player)
        self.bankroll = self.round_bankroll + net
        return net

    def replay_record(self, rnd: Round) -> dict[str, Any]:
        """The round's replay JSON, with the bankroll it was played with (which decides what
        the round could ask: an unaffordable insurance is never offered)."""
        data = round_to_replay(rnd)
        data["bankrolls"] = {self.player: self.round_bankroll}
        return data
