"""The table's limits and the players' money: the one place a bet is checked.

:func:`verify_bets` (a round's bets, as :class:`~twentyone.engine.round.Round` starts),
:meth:`twentyone.terminal.seat.PlayerSeat.check_bet` (the terminal's bet prompt) and the table
session (chips placed one by one) all call these, and show the
:class:`~twentyone.engine.errors.BetError` they raise (translated by its code, see
:func:`twentyone.i18n.describe`); no front end checks a limit of its own. Boxes are numbered as
the caller counts them (from 1, as a player does; the table session passes its 0-based index);
money is minor units.

>>> from twentyone.engine.rules import Rules
>>> rules = Rules(decks=6, table_min=100, table_max=500_000)
>>> check_box_bet(rules, 2, 50)
Traceback (most recent call last):
...
twentyone.engine.errors.BetError: box 2: bet 50 is outside the table limits 100 to 500000
>>> check_box_bet(rules, 2, 50, placing=True)  # chips still going on: only the maximum
>>> check_funds("ann", 700, 500)
Traceback (most recent call last):
...
twentyone.engine.errors.BetError: player 'ann' bets 700 but has 500
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from twentyone.engine.errors import BetError
from twentyone.engine.hands import BoxBet
from twentyone.engine.rules import Rules


def _whole(box: int, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BetError("not-whole-units", box=box, value=value)
    return value


def check_main_bet(rules: Rules, box: int, bet: object, *, placing: bool = False) -> None:
    """Raise :class:`BetError` unless ``bet`` may stand on box ``box``: a whole number of minor
    units within the table limits. ``placing``: chips are still being put on the box, so a
    bet below the minimum may yet grow (bets are checked in full when they close)."""
    amount = _whole(box, bet)
    low = 0 if placing else rules.table_min
    if not low <= amount <= rules.table_max:
        raise BetError(
            "outside-limits", box=box, bet=amount, min=rules.table_min, max=rules.table_max
        )


def check_side_bet(rules: Rules, box: int, side: str, amount: object) -> None:
    """Raise :class:`BetError` unless side bet ``side`` of ``amount`` may go on box ``box``:
    one the table offers a stake on (:meth:`~twentyone.engine.rules.Rules.side_bet`), from 0 to the
    table maximum (0 places none)."""
    try:
        rules.side_bet(side)
    except BetError as exc:
        raise BetError("no-side-bet", box=box, side=side, offered=exc.params["offered"]) from None
    value = _whole(box, amount)
    if not 0 <= value <= rules.table_max:
        raise BetError(
            "side-bet-outside-limits", box=box, side=side, amount=value, max=rules.table_max
        )


def check_box_bet(
    rules: Rules,
    box: int,
    bet: object,
    sides: Mapping[str, object] | None = None,
    *,
    placing: bool = False,
) -> None:
    """Raise :class:`BetError` unless a box's main ``bet`` and its side bets (``sides``:
    name -> amount) fit the table (``placing``: see :func:`check_main_bet`).

    >>> check_box_bet(Rules(decks=6), 1, 0, {"jackpot": 100}, placing=True)
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.BetError: box 1: side bet 'jackpot': this table offers none
    """
    check_main_bet(rules, box, bet, placing=placing)
    for side, amount in (sides or {}).items():
        check_side_bet(rules, box, side, amount)
        if amount and not bet and not placing:
            raise BetError("side-bet-alone", box=box, side=side)


def check_funds(player: str, total: int, balance: int) -> None:
    """Raise :class:`BetError` if the bets ``total`` exceed the player's ``balance``."""
    if total > balance:
        raise BetError("insufficient-funds", player=player, total=total, balance=balance)


def check_left(box: int, bet: int, left: int) -> None:
    """Raise :class:`BetError` if ``bet`` on box ``box`` is more than the ``left`` of the
    bankroll after the bets already placed this round."""
    if bet > left:
        raise BetError("more-than-left", box=box, bet=bet, balance=left)


def check_player_bets(
    rules: Rules,
    player: str,
    boxes: Mapping[int, tuple[int, Mapping[str, int]]],
    balance: int | None,
    *,
    placing: bool = False,
) -> None:
    """Raise :class:`BetError` unless one player's bets fit: ``boxes`` maps a box number
    (from 1) to its main bet and side bets; at most ``boxes_per_player`` boxes, each within
    the limits, all covered by ``balance`` (``None``: not checked)."""
    if len(boxes) > rules.boxes_per_player:
        raise BetError(
            "over-boxes-per-player", player=player, boxes=len(boxes), most=rules.boxes_per_player
        )
    for box, (bet, sides) in boxes.items():
        check_box_bet(rules, box, bet, sides, placing=placing)
    if balance is not None:
        total = sum(bet + sum(sides.values()) for bet, sides in boxes.values())
        check_funds(player, total, balance)


def switch_pairs(players: Sequence[str]) -> list[tuple[int, int]]:
    """The switch pairs of a round's boxes (``players``: who plays each box, in box order),
    as 0-based box indices: each player's first and second box, third and fourth...; a
    player's last box is left out when they play an odd number (:func:`check_switch_pairs`
    refuses that).

    >>> switch_pairs(["ann", "bob", "ann", "bob", "ann", "ann"])
    [(0, 2), (1, 3), (4, 5)]
    """
    by_player: dict[str, list[int]] = {}
    for i, player in enumerate(players):
        by_player.setdefault(player, []).append(i)
    pairs = [
        (mine[k], mine[k + 1]) for mine in by_player.values() for k in range(0, len(mine) - 1, 2)
    ]
    return sorted(pairs)


def check_switch_pairs(
    rules: Rules, bets: Sequence[BoxBet], numbers: Sequence[int] | None = None
) -> None:
    """Raise :class:`BetError` unless ``bets`` play in switch pairs where ``rules.switch``
    asks for them: every player an even number of boxes, each pair's two bets equal (boxes
    named by ``numbers``, by default counted from 1). A table without ``switch`` takes any
    bets.

    >>> rules = Rules(decks=6, switch=True, even_money=False)
    >>> check_switch_pairs(rules, [BoxBet("ann", 1000), BoxBet("ann", 1000)])
    >>> check_switch_pairs(rules, [BoxBet("ann", 1000)])
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.BetError: player 'ann' bets 1 box: a switch table plays a \
player's boxes in pairs, so expected an even number
    >>> check_switch_pairs(rules, [BoxBet("ann", 1000), BoxBet("ann", 500)])
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.BetError: boxes 1 and 2 play as a switch pair: their bets must be \
equal, got 1000 and 500
    """
    if not rules.switch:
        return
    players = [b.player for b in bets]
    for player in dict.fromkeys(players):
        count = players.count(player)
        if count % 2:
            raise BetError("switch-odd-boxes", player=player, boxes=count)
    for i, j in switch_pairs(players):
        if bets[i].bet != bets[j].bet:
            first, second = (numbers[i], numbers[j]) if numbers else (i + 1, j + 1)
            raise BetError(
                "switch-unequal-bets", first=first, second=second, a=bets[i].bet, b=bets[j].bet
            )


def verify_bets(
    rules: Rules, bets: Sequence[BoxBet], bankrolls: Mapping[str, int] | None = None
) -> None:
    """Raise :class:`BetError` unless a round may start with ``bets`` (one per box, in box
    order): at least one, no more boxes than the table has, each player's within the limits
    and covered by their bankroll (``bankrolls``: a player it does not name has nothing), in
    equal pairs at a switch table (:func:`check_switch_pairs`).

    >>> verify_bets(Rules(decks=6), [BoxBet("ann", 1000), BoxBet("bob", 500)])
    >>> verify_bets(Rules(decks=6), [BoxBet("ann", 50)])
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.BetError: box 1: bet 50 is outside the table limits 100 to 500000
    """
    if not bets:
        raise BetError("no-bets")
    if len(bets) > rules.table_boxes:
        raise BetError("too-many-boxes", boxes=len(bets), most=rules.table_boxes)
    by_player: dict[str, dict[int, tuple[int, Mapping[str, int]]]] = {}
    for number, b in enumerate(bets, start=1):
        _whole(number, b.bet)
        by_player.setdefault(b.player, {})[number] = (b.bet, dict(b.side_bets))
    for player, boxes in by_player.items():
        balance = None if bankrolls is None else bankrolls.get(player, 0)
        check_player_bets(rules, player, boxes, balance)
    check_switch_pairs(rules, bets)
