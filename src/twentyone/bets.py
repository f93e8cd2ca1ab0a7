"""The bets of a round: whether they fit the table and the players can cover them.

>>> from twentyone.rules import Rules
>>> verify_bets(Rules(decks=6), [BoxBet("ann", 1000), BoxBet("bob", 500)])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from twentyone.errors import BetError
from twentyone.hands import BoxBet
from twentyone.rules import Rules


def verify_bets(
    rules: Rules, bets: Sequence[BoxBet], bankrolls: Mapping[str, int] | None = None
) -> None:
    """Raise :class:`BetError` unless every bet fits the table and the players can cover it.

    >>> from twentyone.rules import Rules
    >>> verify_bets(Rules(decks=6), [BoxBet("ann", 50)])
    Traceback (most recent call last):
    ...
    twentyone.errors.BetError: box 1: bet 50 is outside the table limits 100 to 500000
    """
    if not bets:
        raise BetError("no bets: a round needs at least one box with a bet")
    if len(bets) > rules.table_boxes:
        raise BetError(f"{len(bets)} boxes: the table has {rules.table_boxes}")
    per_player: dict[str, int] = {}
    for i, b in enumerate(bets):
        if not isinstance(b.bet, int) or isinstance(b.bet, bool):
            raise BetError(f"box {i + 1}: bet {b.bet!r} must be a whole number of minor units")
        if not rules.table_min <= b.bet <= rules.table_max:
            raise BetError(
                f"box {i + 1}: bet {b.bet} is outside the table limits "
                f"{rules.table_min} to {rules.table_max}"
            )
        for bet_id, stake in b.side_bets.items():
            try:
                rules.side_bet(bet_id)
            except BetError as exc:
                raise BetError(f"box {i + 1}: {exc}") from None
            if not isinstance(stake, int) or isinstance(stake, bool):
                raise BetError(f"box {i + 1}: side bet {bet_id!r} {stake!r}: expected whole units")
            if not 0 <= stake <= rules.table_max:
                raise BetError(
                    f"box {i + 1}: side bet {bet_id!r} {stake}: expected 0 to {rules.table_max}"
                )
        per_player[b.player] = per_player.get(b.player, 0) + 1
        if per_player[b.player] > rules.boxes_per_player:
            raise BetError(
                f"player {b.player!r} bets on {per_player[b.player]} boxes: "
                f"at most {rules.boxes_per_player} per player"
            )
    if bankrolls is not None:
        for player in per_player:
            need = sum(b.staked for b in bets if b.player == player)
            have = bankrolls.get(player, 0)
            if need > have:
                raise BetError(f"player {player!r} bets {need} but has {have}")
