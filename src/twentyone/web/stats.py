"""A player's statistics, kept by the server in the ledger's database (``player_stats``).

Each settled round adds to the statistics of every player in it, in the same transaction that
settles it, so they survive a reload, a new login and a restart, and count every round once.
What a round adds is worked out here from its stored result (the ``result`` column of
``rounds``: each box's player and hands), so the migration that created the table could fill
it from the rounds already played.

>>> result = {"boxes": [
...     {"player": "ann", "hands": [{"result": "win"}, {"result": "push"}]},
...     {"player": "bob", "hands": [{"result": "blackjack"}]}],
...     "net": {"ann": 1000, "bob": 750}}
>>> round_stats(result)["ann"]
{'hands': 2, 'won': 1, 'pushed': 1, 'lost': 0, 'blackjacks': 0, 'net': 1000}
>>> round_stats(result)["bob"]["blackjacks"]
1
"""

from __future__ import annotations

from typing import Any

#: a hand's results counted as won, pushed and lost (``surrender`` loses half the bet)
WON = frozenset({"win", "bonus-21", "blackjack", "even-money"})
PUSHED = frozenset({"push"})
#: the counters of a player's statistics (besides ``best`` and ``worst``, a round's net)
COUNTERS = ("rounds", "hands", "won", "pushed", "lost", "blackjacks", "staked", "net")


def round_stats(result: dict[str, Any]) -> dict[str, dict[str, int]]:
    """What one settled round adds to each of its players' statistics, by username: hands
    played, won, pushed, lost, blackjacks, and the round's net for the player."""
    out: dict[str, dict[str, int]] = {}
    nets = result.get("net") or {}
    for box in result.get("boxes") or []:
        name = box.get("player")
        if not isinstance(name, str):
            continue
        s = out.setdefault(
            name,
            {"hands": 0, "won": 0, "pushed": 0, "lost": 0, "blackjacks": 0, "net": 0},
        )
        for hand in box.get("hands") or []:
            outcome = hand.get("result")
            s["hands"] += 1
            s["blackjacks"] += outcome == "blackjack"
            if outcome in WON:
                s["won"] += 1
            elif outcome in PUSHED:
                s["pushed"] += 1
            else:
                s["lost"] += 1
    for name, s in out.items():
        net = nets.get(name, 0)
        s["net"] = net if isinstance(net, int) else 0
    return out


def empty_stats() -> dict[str, Any]:
    """The statistics of a player who has not finished a round.

    >>> empty_stats()["rounds"], empty_stats()["best"]
    (0, None)
    """
    return {**dict.fromkeys(COUNTERS, 0), "best": None, "worst": None}
