"""``twentyone replay --pretty``: a replayed round as a table a person reads (rich).

One row for the dealer, then one row per hand: its box and player, its cards as they were
dealt, its total, the decisions taken on it in order, its bet, its result and what it paid;
a box's insurance and side bets follow its hands.

>>> from twentyone.engine.replay import replay_round
>>> rnd = replay_round({"rules": "ru-online", "shoe": "TS 9D 7H 5C 8H",
...                     "boxes": [{"player": "ann", "bet": 1000}], "decisions": ["stand"]})
>>> text = render_text(round_table(rnd), width=100)
>>> "10♠ 7♥" in text and "stand" in text and "+10.00" in text
True
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from twentyone.engine.cards import hand_total
from twentyone.engine.records import Action, Payment
from twentyone.engine.round import Round
from twentyone.i18n import format_money

_RESULTS = {
    "blackjack": "blackjack",
    "win": "win",
    "bonus-21": "21 bonus",
    "even-money": "even money",
    "push": "push",
    "lose": "lose",
    "bust": "bust",
    "surrender": "surrendered",
    "rescue": "rescued",
}


def _money(units: int, *, sign: bool = False) -> str:
    return format_money(units, "en", sign=sign)


def _decision(act: Action) -> str:
    """An action in words: ``double (5.00)``, ``insure (2.50)``, ``hit → 7♥``."""
    name, amount = act.decision.name, act.decision.amount
    words = name.replace("-", " ")
    if amount is not None:
        words += f" ({_money(amount)})"
    elif act.amount and name in ("double", "insure"):
        words += f" ({_money(act.amount)})"
    if act.cards and name in ("hit", "double"):
        words += " → " + " ".join(c.pretty for c in act.cards)
    return words


def _paid(rnd: Round, box: int, kind: str) -> int:
    """What the box's payments of ``kind`` returned (insurance: the stake and 2:1, or 0)."""
    return sum(
        p.amount for p in rnd.log if isinstance(p, Payment) and (p.box, p.kind) == (box, kind)
    )


def round_table(rnd: Round) -> Table:
    """The round as a rich table (see the module's docstring)."""
    table = Table(title=f"Round at {rnd.rules.name}", show_lines=True)
    for col, justify in (
        ("box", "right"),
        ("player", "left"),
        ("hand", "left"),
        ("cards", "left"),
        ("total", "right"),
        ("decisions", "left"),
        ("bet", "right"),
        ("result", "left"),
        ("net", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    dealer = rnd.dealer_visible
    dealt = hand_total(dealer)
    shown = "blackjack" if rnd.dealer_blackjack and rnd.is_over else str(dealt.total)
    table.add_row("", "dealer", "", " ".join(c.pretty for c in dealer), shown, "", "", "", "")
    acts = [r for r in rnd.log if isinstance(r, Action)]
    for box in rnd.boxes:
        for i, hand in enumerate(box.hands):
            # a switch pair's decision is the pair's: both boxes' first hands show it
            mine = [
                _decision(a)
                for a in acts
                if (a.box, a.hand) == (box.index, i)
                or (a.kind == "switch" and i == 0 and rnd.partner_of(a.box) == box.index)
            ]
            total = "blackjack" if hand.is_blackjack else str(hand.total.total)
            paid = hand.returned + hand.bonus - hand.bet
            result = _RESULTS.get(hand.result or "", hand.result or "")
            if hand.bonus:
                result += f" + bonus {_money(hand.bonus)}"
            table.add_row(
                str(box.index + 1) if i == 0 else "",
                box.player if i == 0 else "",
                f"{i + 1} of {len(box.hands)}" if len(box.hands) > 1 else "",
                " ".join(c.pretty for c in hand.cards),
                total,
                ", ".join(mine),
                _money(hand.bet),
                result,
                _money(paid, sign=True),
            )
        sides = [("insurance", box.insurance, _paid(rnd, box.index, "insurance"))]
        for bet_id, stake in box.side_bets.items():
            title = rnd.rules.side_bet(bet_id, staked=False).spec.title
            sides.append((title, stake, box.side_paid.get(bet_id, 0)))
        for title, stake, paid in sides:
            if not stake:
                continue
            outcome = f"paid {_money(paid)}" if paid else "lost"
            table.add_row(
                "", "", title, "", "", "", _money(stake), outcome, _money(paid - stake, sign=True)
            )
    for player, net in rnd.net().items():
        table.add_row("", player, "net", "", "", "", "", "", _money(net, sign=True))
    return table


def render_text(table: Table, *, width: int | None = None, color: bool = False) -> str:
    """The table drawn as text (boxes of line-drawing characters)."""
    buf = io.StringIO()
    Console(file=buf, width=width, force_terminal=color, no_color=not color).print(table)
    return buf.getvalue()
