"""Small helpers shared by the engine tests."""

from __future__ import annotations

from collections.abc import Sequence

from twentyone import BoxBet, Round, Rules, StackedShoe, load_rules


def play(
    rules: str | Rules,
    shoe: str,
    bets: Sequence[BoxBet | int] = (1000,),
    decisions: Sequence[str] = (),
    bankrolls: dict[str, int] | None = None,
) -> Round:
    """Deal a round from a stacked shoe and apply decisions in replay spelling.

    Plain integers in ``bets`` are boxes of the player ``"ann"``.
    """
    boxes = [b if isinstance(b, BoxBet) else BoxBet("ann", b) for b in bets]
    rnd = Round(load_rules(rules), StackedShoe(shoe), boxes, bankrolls)
    for d in decisions:
        rnd.apply(d)
    return rnd


def results(rnd: Round) -> list[list[str | None]]:
    """Each box's hand results."""
    return [[h.result for h in b.hands] for b in rnd.boxes]
