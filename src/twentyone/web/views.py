"""What each player sees of a table (the ``view`` message of docs/protocol.md).

Built only from what players may see: the dealer's cards through
:attr:`~twentyone.engine.round.Round.dealer_visible`, never the shoe. The legal actions go only to
the player whose turn it is.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import orjson

from twentyone.engine.cards import hand_total
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules, fraction_text

if TYPE_CHECKING:
    from twentyone.engine.session_parts import Played
    from twentyone.web.tables import LiveTable


def dealer_view(rnd: Round) -> dict[str, Any]:
    """The dealer's hand as players see it (``pushes``: only at a table where a dealer's 22
    pushes, once the dealer shows 22)."""
    shown = rnd.dealer_visible
    total = hand_total(shown) if shown else None
    known = rnd.is_over or rnd.dealer_blackjack is False
    out: dict[str, Any] = {
        "cards": [str(c) for c in shown],
        "hidden": len(rnd.dealer) - len(shown),
        "total": total.total if total else 0,
        "soft": bool(total and total.soft),
        "blackjack": rnd.dealer_blackjack if known else None,
    }
    if rnd.rules.dealer_22 == "push" and total is not None and total.total == 22:
        out["pushes"] = True
    return out


def boxes_view(
    table: LiveTable, played: Played | None, *, final: bool = False
) -> list[dict[str, Any]]:
    """Every box of the table: the round's boxes in play, else the pending chips."""
    out: list[dict[str, Any]] = [
        {
            "index": i,
            "player": None,
            "bet": 0,
            "side_bets": {},
            "insurance": 0,
            "net": None,
            "hands": [],
        }
        for i in range(table.rules.table_boxes)
    ]
    if played is None:
        for name, seat in table.seats.items():
            for chip in seat.chips:
                box = out[chip.box]
                box["player"] = name
                if chip.side == "main":
                    box["bet"] += chip.amount
                else:
                    sides = box["side_bets"]
                    sides[chip.side] = sides.get(chip.side, 0) + chip.amount
        return out
    rnd = played.rnd
    q = rnd.question
    for i, b in enumerate(rnd.boxes):
        hands = []
        for h_index, h in enumerate(b.hands):
            total = h.total
            hands.append(
                {
                    "cards": [str(c) for c in h.cards],
                    "bet": h.bet,
                    "free": h.free,
                    "switched": h.switched,
                    "total": total.total,
                    "soft": total.soft,
                    "doubled": h.doubled,
                    "surrendered": h.surrendered,
                    "doubles": h.doubles,
                    "rescued": h.rescued,
                    "result": h.result,
                    "returned": h.returned,
                    "bonus": h.bonus,
                    "active": (
                        not final
                        and q is not None
                        and q.kind == "play"
                        and q.box == i
                        and q.hand == h_index
                    ),
                }
            )
        out[played.box_map[i]] = {
            "index": played.box_map[i],
            "player": b.player,
            "bet": b.bet,
            "side_bets": dict(b.side_bets),
            "side_paid": dict(b.side_paid),
            "insurance": b.insurance,
            "net": b.net if rnd.is_over else None,
            "hands": hands,
        }
    return out


def side_bets_info(rules: Rules) -> list[dict[str, Any]]:
    """The side bets a player may stake at the table, for the page to show generically:
    ``id``, ``kind``, ``title`` and each paytable line's ``title`` and ``pays`` (odds to one);
    the titles are catalog msgids the page translates."""
    return [
        {
            "id": b.id,
            "kind": b.kind,
            "title": b.spec.title,
            "lines": [
                {"line": line, "title": b.spec.line_titles[line], "pays": fraction_text(pays)}
                for line, pays in b.paytable.items()
            ],
        }
        for b in rules.staked_side_bets
    ]


def table_info(table: LiveTable) -> dict[str, Any]:
    """The table's facts as the view carries them: the fixed ones (worked out once per table)
    and its provable shoe's commitment."""
    fixed = _FIXED.get(table)
    if fixed is None:
        fixed = _FIXED[table] = _fixed_info(table)
    return {**fixed, "provable": provable_info(table)}


#: Each live table's fixed facts: every view carries them, and building them again for each
#: broadcast (the side bets, the felt) took about 2% of the event loop's time on the load
#: benchmark (bench_web_load.py --profile, 100 players at 20 tables).
_FIXED: weakref.WeakKeyDictionary[LiveTable, dict[str, Any]] = weakref.WeakKeyDictionary()


def _fixed_info(table: LiveTable) -> dict[str, Any]:
    return {
        "id": table.id,
        "name": table.name,
        "country": table.country,
        "house": table.house,
        "rules": table.rules.name,
        "limits": {"min": table.rules.table_min, "max": table.rules.table_max},
        "boxes": table.rules.table_boxes,
        "boxes_per_player": table.rules.boxes_per_player,
        "multi_player": table.multi_player,
        "side_bets": side_bets_info(table.rules),
        "default_action": table.default_action.name,
        "countdown_seconds": table.config.countdown_seconds if table.multi_player else None,
        "decision_seconds": table.config.decision_seconds,
        "felt": felt_info(table.rules),
    }


def felt_info(rules: Rules) -> dict[str, Any]:
    """What the house prints on its felt, as facts the page words in its language: the
    blackjack payout, the dealer's soft-17 rule, and whether insurance is offered (it pays
    2 to 1)."""
    pays = rules.blackjack_pays
    return {
        "blackjack_pays": [pays.numerator, pays.denominator],
        "dealer_hits_soft_17": rules.dealer_hits_soft_17,
        "insurance": bool(rules.insurance_upcards),
    }


def provable_info(table: LiveTable) -> dict[str, Any] | None:
    """A provable table's commitment to its coming (or current) shoe, the seeds given for
    the next, and the last shoe revealed (its number, commitment and server seed: the page
    checks the seed against the commitment it kept from before that shoe); ``null`` at other
    tables."""
    shoe: Any = table.shoe
    if not hasattr(shoe, "commitment"):
        return None
    last = shoe.revealed[-1] if shoe.revealed else None
    return {
        "shoe": shoe.number,
        "commitment": shoe.commitment,
        "client_seeds": sorted(shoe.client_seeds),
        "revealed": None
        if last is None
        else {k: last[k] for k in ("shoe", "commitment", "server_seed")},
    }


def shoe_view(table: LiveTable) -> dict[str, Any]:
    """The dealer's shoe as players see it on the table: a continuous shuffler (every round
    from a full shoe), or a cut-card shoe with how many cards are left in it and in the
    discard tray, and whether the cut card is out (a new shoe next round). Counts only: no
    card leaves the server before it is shown."""
    rules = table.rules
    size = rules.shoe_size
    if rules.shuffle == "continuous":
        return {"kind": "continuous", "size": size, "left": None, "discards": None, "cut": False}
    shoe: Any = table.shoe
    left = shoe.remaining if isinstance(getattr(shoe, "remaining", None), int) else None
    left = min(left, size) if left is not None else None
    return {
        "kind": "cut-card",
        "size": size,
        "left": left,
        "discards": None if left is None else size - left,
        "cut": bool(getattr(shoe, "cut_card_out", False)),
    }


def turn_view(table: LiveTable, username: str, now: float) -> dict[str, Any] | None:
    """Whose turn it is; the legal actions only for that player."""
    played = table.played
    if played is None or played.rnd.question is None:
        return None
    q = played.rnd.question
    whose = played.rnd.boxes[q.box].player
    mine = whose == username
    deadline = played.deadline or now
    return {
        "player": whose,
        "kind": q.kind,
        "box": played.box_map[q.box],
        "hand": q.hand,
        # a switch question's other box (Blackjack Switch), else null
        "partner": None if q.partner is None else played.box_map[q.partner],
        "actions": list(q.actions) if mine else [],
        "amount_range": list(q.amount_range) if (mine and q.amount_range) else None,
        "deadline": deadline,
        "seconds_left": max(0.0, deadline - now),
        "default": played.default,
        "hint": hint_view(table, played),
    }


def hint_view(table: LiveTable, played: Played) -> dict[str, Any] | None:
    """The hint for the question in play: the exact best play for the cards the players
    know once worked out (``exact``), else the chart's move (the decision clock's default);
    ``None`` while the table has no strategy (no analysis)."""
    if table.default_action.chooser is None:
        return None
    exact = table.hint.for_question(played)
    if exact is not None:
        return {"decision": exact, "exact": True}
    return {"decision": played.default, "exact": False}


def shared_view(table: LiveTable, now: float) -> dict[str, Any]:
    """The part of the ``view`` message that is the same for every player (all of it but
    ``type``, ``seq``, ``you`` and ``turn``)."""
    played = table.played
    countdown = None
    if played is None and table.countdown is not None:
        countdown = {"deadline": table.countdown, "seconds_left": max(0.0, table.countdown - now)}
    return {
        "table": table_info(table),
        "players": [
            {"username": name, "ready": s.ready, "connected": s.connections > 0}
            for name, s in table.seats.items()
        ],
        "phase": "playing" if played is not None else "betting",
        "countdown": countdown,
        "shoe": shoe_view(table),
        "boxes": boxes_view(table, played),
        "dealer": dealer_view(played.rnd) if played is not None else None,
        "round": (
            {"id": played.id, "number": played.number, "log": played.log}
            if played is not None
            else None
        ),
        "last_round": table.last_round if played is None else None,
    }


def own_view(table: LiveTable, username: str, balance: int, now: float) -> dict[str, Any]:
    """The part of the ``view`` message that is the player's own."""
    seat = table.seats.get(username)
    return {
        "type": "view",
        "seq": table.seq,
        "you": {
            "username": username,
            "balance": balance,
            "seated": seat is not None,
            "ready": bool(seat and seat.ready),
            "pending": table.pending(username),
            "can_rebet": bool(seat and seat.last_bets),
        },
        "turn": turn_view(table, username, now),
    }


def table_view(table: LiveTable, username: str, balance: int) -> dict[str, Any]:
    """The whole ``view`` message for one player."""
    now = table.clock()
    return {**own_view(table, username, balance, now), **shared_view(table, now)}


def table_views(table: LiveTable, balances: dict[str, int]) -> dict[str, dict[str, Any]]:
    """The ``view`` message of each named player (their balances given), to be encoded by
    :func:`dumps`: the shared part is built and encoded once (its values are
    ``orjson.Fragment``), each player's own part on its own; each encodes to the JSON of
    :func:`table_view`'s.
    """
    now = table.clock()
    shared = {k: orjson.Fragment(orjson.dumps(v)) for k, v in shared_view(table, now).items()}
    return {
        name: {**own_view(table, name, balance, now), **shared}
        for name, balance in balances.items()
    }


def dumps(message: Any) -> str:
    """Compact JSON text of a message (orjson: UTF-8 as is, no spaces)."""
    return orjson.dumps(message).decode()
