"""A player's statistics over a session: rounds, hands won, lost and pushed, blackjacks, net.

>>> from twentyone.engine.hands import BoxBet
>>> from twentyone.engine.rulesets import load_rules
>>> from twentyone.engine.shoe import StackedShoe
>>> rnd = Round(load_rules("ru-online"), StackedShoe("AS 9D KH 8C"), [BoxBet("ann", 1000)])
>>> stats = Stats()
>>> stats.count(rnd, "ann"), stats.won, stats.blackjacks
(1500, 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from twentyone.engine.round import Round


@dataclass
class Stats:
    """A session's statistics. Hands count each hand played (split hands apart); a surrender
    (a doubled hand's rescue too) counts as lost, a taken even money as won; ``blackjacks``
    counts blackjacks dealt."""

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
                if hand.result in ("win", "bonus-21", "blackjack", "even-money"):
                    self.won += 1
                elif hand.result == "push":
                    self.pushed += 1
                else:
                    self.lost += 1
                    self.surrendered += hand.surrendered or hand.rescued
        return net
