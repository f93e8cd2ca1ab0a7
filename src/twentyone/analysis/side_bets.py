"""Returns of the side bets: insurance, even money (and a blackjack's insurance instead of
it: ro.9, pt.10, hu.9) and the table's side bets.

Each is a return per unit staked on that bet, never part of the main strategy. A side bet on
the first cards (Perfect Pairs, 21+3, Super Match: any kind whose view is ``first-two``,
``first-two-and-up`` or ``pair-four``) is priced by exact enumeration of those cards from the
full shoe through the kind's own evaluator (:func:`twentyone.engine.sidebets.outcome`); the
aces jackpot (pt.13) depends on play and has its own count; the 6-7-8 / 7-7-7 bonus (pt.12) is
inside the main return.

>>> from twentyone import load_rules
>>> ins = insurance_returns(load_rules("1D S17"))
>>> round(ins["A"], 6)  # 3 * 16/51 - 1
-0.058824
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Any

from twentyone.analysis.dealer import blackjack_card
from twentyone.analysis.shoe_counts import ACE, TEN, fresh_counts
from twentyone.engine.cards import RANKS, SUITS, Card
from twentyone.engine.predicates import dealer_draws
from twentyone.engine.rules import Rules
from twentyone.engine.sidebets import SideBet, outcome

_UP = {"A": ACE, "T": TEN}


def insurance_returns(rules: Rules) -> dict[str, float]:
    """Return of one unit of insurance per up card that offers it (pays 2:1 on a dealer
    blackjack), not knowing the player's cards."""
    shoe = fresh_counts(rules.decks, rules.deck)
    n = float(shoe.sum())
    out = {}
    for key in rules.insurance_upcards:
        up = _UP[key]
        p = shoe[blackjack_card(up)] / (n - 1.0)
        out[key] = float(3.0 * p - 1.0)
    return out


def even_money_returns(rules: Rules) -> dict[str, float]:
    """Even money is insurance on a blackjack: the return of one unit of insurance once the
    player's ace and ten are out too."""
    shoe = fresh_counts(rules.decks, rules.deck)
    n = float(shoe.sum())
    out = {}
    for key in rules.insurance_upcards:
        up = _UP[key]
        bj = blackjack_card(up)
        p = (shoe[bj] - 1) / (n - 3.0)
        out[key] = float(3.0 * p - 1.0)
    return out


def blackjack_against_ace(rules: Rules) -> dict[str, float]:
    """What a blackjack facing a dealer ace gets, per unit of its bet, for each answer to the
    one question it is asked (ro.9, pt.10, hu.9): ``even_money`` (1 at once), ``decline``
    (the blackjack payout unless the dealer has blackjack), ``insure_half`` (decline plus
    half a unit of insurance at 2:1; with 3:2 it is exactly even money), and
    ``insurance_per_unit`` (the return of each unit of insurance it places).

    >>> from twentyone import load_rules
    >>> r = blackjack_against_ace(load_rules("hu-casino"))
    >>> r["even_money"], round(r["insure_half"], 12), round(r["decline"], 6)
    (1.0, 1.0, 1.038835)
    """
    shoe = fresh_counts(rules.decks, rules.deck)
    p = float(shoe[blackjack_card(ACE)] - 1) / (float(shoe.sum()) - 3.0)
    decline = float(rules.blackjack_pays) * (1.0 - p)
    return {
        "even_money": 1.0,
        "decline": decline,
        "insure_half": decline + 0.5 * (3.0 * p - 1.0),
        "insurance_per_unit": 3.0 * p - 1.0,
    }


def aces_probabilities(rules: Rules, most: int) -> dict[int, float]:
    """P(the box's first ``k`` cards are all aces) for k = 2..``most``.

    Assumes a box whose cards are all aces so far always takes another card (aces are split
    or hit: A-A is soft 12, A-A-A soft 13, ...). With a peek, a dealer blackjack ends the
    round after two cards.
    """
    shoe = fresh_counts(rules.decks, rules.deck)
    n = int(shoe.sum())
    aces = int(shoe[ACE])
    peek = rules.hole_card and rules.peek
    out: dict[int, float] = {}
    p2 = aces * (aces - 1) / (n * (n - 1))
    out[2] = p2
    for k in range(3, most + 1):
        if not peek:
            p = 1.0
            for j in range(k):
                p *= (aces - j) / (n - j)
            out[k] = p
            continue
        # condition on the up card and the hole card: a dealer blackjack stops the box at two
        total = 0.0
        left = shoe.copy()
        left[ACE] -= 2
        m = n - 2
        for up in range(10):
            for hole in range(10):
                if left[up] == 0 or left[hole] - (hole == up) <= 0:
                    continue
                p = left[up] / m * (left[hole] - (hole == up)) / (m - 1)
                if blackjack_card(up) == hole:
                    continue
                a_left = left[ACE] - (up == ACE) - (hole == ACE)
                for j in range(k - 2):
                    p *= (a_left - j) / (m - 2 - j)
                total += p
        out[k] = p2 * total
    return out


@lru_cache(maxsize=32)
def dealer_final_lines(rules: Rules) -> dict[str, float]:
    """Exact chances of the dealer's final cards making 22 (``any``), 22 of one colour
    (``coloured``) and 22 of one suit (``suited``): the Push 22 bet's lines, each including
    the next (a suited 22 is coloured too). The dealer's cards are drawn from the full shoe
    (the player's cards left in it, as the other side bets are priced) and the dealer draws
    out whatever the hands did, as the engine does while the bet is staked; a 22 is never a
    blackjack, so the peek changes nothing. Given the ranks drawn, the suits are a draw
    without replacement within each rank: ``k`` cards of a rank with ``n`` copies are all of
    one suit with chance C(n/4, k) / C(n, k), of one colour C(n/2, k) / C(n, k).

    >>> lines = dealer_final_lines(Rules(decks=6, dealer_hits_soft_17=True))
    >>> round(lines["any"], 4), lines["suited"] < lines["coloured"] < lines["any"]
    (0.0735, True)
    """
    shoe = [int(x) for x in fresh_counts(rules.decks, rules.deck)]
    copies = list(shoe)
    out = {"any": 0.0, "coloured": 0.0, "suited": 0.0}
    h17 = rules.soft_17_hit_from

    def walk(hard: int, ace: bool, n: int, drawn: list[int], left: int, p: float) -> None:
        total = hard + 10 if ace and hard <= 11 else hard
        if n >= 2 and not dealer_draws(total, total != hard, n, h17):
            if total == 22:
                one_suit = 4.0
                one_colour = 2.0
                for v, k in enumerate(drawn):
                    if k:
                        c = comb(copies[v], k)
                        one_suit *= comb(copies[v] // 4, k) / c
                        one_colour *= comb(copies[v] // 2, k) / c
                out["any"] += p
                out["coloured"] += p * one_colour
                out["suited"] += p * one_suit
            return
        for v in range(10):
            have = shoe[v] - drawn[v]
            if have <= 0:
                continue
            drawn[v] += 1
            walk(hard + v + 1, ace or v == ACE, n + 1, drawn, left - 1, p * have / left)
            drawn[v] -= 1

    walk(0, False, 0, [0] * 10, sum(shoe), 1.0)
    return out


_CARDS = tuple(Card(r, s) for r in RANKS for s in SUITS)
#: The views priced by enumerating their cards from the full shoe, and how many cards each
#: sees: a switch pair's four (``pair-four``, Super Match) are drawn as any four are.
_VIEW_CARDS = {"first-two": 2, "first-two-and-up": 3, "pair-four": 4}


@lru_cache(maxsize=32)
def first_cards_lines(
    bet: SideBet, decks: int, deck: str = "standard"
) -> dict[str | None, Fraction]:
    """Exact probability of each paytable line being the one paid (``None``: nothing) for a
    side bet on the first cards, every draw of them from a full shoe of ``decks`` decks of
    the kind ``deck`` counted once (the evaluators of most kinds do not care about the cards'
    order; for an ``ordered`` kind the dealer's up card is drawn apart, then the box's two).

    >>> from twentyone.engine.sidebets import SideBet
    >>> pp = SideBet(id="pp", kind="perfect-pairs", paytable={"perfect": "25"})
    >>> first_cards_lines(pp, 1)[None]  # one deck: no two identical cards
    Fraction(1, 1)
    >>> md = SideBet(id="md", kind="match-the-dealer", paytable={"two-unsuited": 8, "unsuited": 4})
    >>> lines = first_cards_lines(md, 1)  # one deck: three cards of the up card's rank left
    >>> lines["unsuited"], lines["two-unsuited"]  # 2 * 3/51 * 48/50, 3/51 * 2/50
    (Fraction(48, 425), Fraction(1, 425))
    """
    cards = [c for c in _CARDS if deck != "spanish" or c.rank != "T"]
    size = len(cards) * decks
    n = _VIEW_CARDS[bet.spec.view]
    weights: dict[str | None, int] = {}
    if bet.spec.ordered:  # the up card first (any of its copies), then the box's two
        for up in range(len(cards)):
            for combo in combinations_with_replacement(range(len(cards)), n - 1):
                ways = decks * prod(comb(decks - (c == up), combo.count(c)) for c in set(combo))
                if ways:
                    line, _ = outcome(bet, 1, [*(cards[c] for c in combo), cards[up]])
                    weights[line] = weights.get(line, 0) + ways
        total = size * comb(size - 1, n - 1)
    else:
        for combo in combinations_with_replacement(range(len(cards)), n):
            ways = prod(comb(decks, combo.count(c)) for c in set(combo))
            if ways:
                line, _ = outcome(bet, 1, [cards[c] for c in combo])
                weights[line] = weights.get(line, 0) + ways
        total = comb(size, n)
    return {line: Fraction(w, total) for line, w in weights.items()}


def side_bet_price(rules: Rules, bet: SideBet) -> dict[str, Any]:
    """One side bet for the report: ``kind``, ``return`` per unit staked (``None`` for the
    6-7-8 bonus, whose value is inside the main return) and ``lines``: each paytable line's
    probability of being the one paid.

    >>> from twentyone import load_rules
    >>> jp = side_bet_price(load_rules("pt-casino"), load_rules("pt-casino").side_bet("jackpot"))
    >>> jp["kind"], round(jp["return"], 4), sorted(jp["lines"])
    ('aces-jackpot', -0.6995, ['2', '3', '4'])
    """
    out: dict[str, Any] = {"kind": bet.kind, "paytable": bet.to_dict()["paytable"]}
    view = bet.spec.view
    if view in _VIEW_CARDS:
        probs = first_cards_lines(bet, rules.decks, rules.deck)
        ret = sum((p * (1 + bet.paytable[line]) for line, p in probs.items() if line), Fraction(0))
        out["return"] = float(ret - 1)
        out["lines"] = {line: float(probs.get(line, 0)) for line in bet.paytable}
    elif view == "dealer-final":
        hit = dealer_final_lines(rules)
        # the best paying line the cards hit pays: each line's chance is that of the hits
        # whose best paying line it is (a suited 22 hits all three lines)
        paid: dict[str, float] = dict.fromkeys(bet.paytable, 0.0)
        for hits, only in (
            (("suited", "coloured", "any"), hit["suited"]),
            (("coloured", "any"), hit["coloured"] - hit["suited"]),
            (("any",), hit["any"] - hit["coloured"]),
        ):
            on_table = [x for x in hits if x in bet.paytable]
            if on_table:
                paid[max(on_table, key=lambda x: bet.paytable[x])] += only
        out["lines"] = paid
        out["return"] = -1.0 + sum(p * float(1 + bet.paytable[k]) for k, p in paid.items())
    elif bet.kind == "aces-jackpot":
        lines = sorted(int(k) for k in bet.paytable)
        reach = aces_probabilities(rules, max(lines))
        out["lines"] = {
            str(k): reach[k] - (reach[lines[i + 1]] if i + 1 < len(lines) else 0.0)
            for i, k in enumerate(lines)
        }
        out["return"] = -1.0 + sum(p * float(1 + bet.paytable[k]) for k, p in out["lines"].items())
    else:
        out["return"] = None
        out["note"] = "inside the main game's return"
    return out


def side_bets(rules: Rules) -> dict[str, object]:
    """Every side bet's return for :class:`~twentyone.analysis.report.EdgeReport`: insurance,
    even money, and each of the table's side bets by id (:func:`side_bet_price`)."""
    out: dict[str, object] = {"insurance": insurance_returns(rules)}
    if rules.even_money:
        out["even_money"] = even_money_returns(rules)
        if "A" in rules.insurance_upcards:
            out["blackjack_vs_ace"] = blackjack_against_ace(rules)
    for bet in rules.side_bets:
        out[bet.id] = side_bet_price(rules, bet)
    return out
