"""Returns of the side bets: insurance, even money (and a blackjack's insurance instead of
it: ro.9, pt.10, hu.9) and the aces jackpot (pt.13).

Each is a return per unit staked on that bet, never part of the main strategy.

>>> from twentyone import load_rules
>>> ins = insurance_returns(load_rules("1D S17"))
>>> round(ins["A"], 6)  # 3 * 16/51 - 1
-0.058824
"""

from __future__ import annotations

from fractions import Fraction

from twentyone.analysis.dealer import blackjack_card
from twentyone.analysis.shoe_counts import ACE, TEN, fresh_counts
from twentyone.rules import Rules

_UP = {"A": ACE, "T": TEN}


def insurance_returns(rules: Rules) -> dict[str, float]:
    """Return of one unit of insurance per up card that offers it (pays 2:1 on a dealer
    blackjack), not knowing the player's cards."""
    shoe = fresh_counts(rules.decks)
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
    shoe = fresh_counts(rules.decks)
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
    shoe = fresh_counts(rules.decks)
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
    shoe = fresh_counts(rules.decks)
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


def jackpot_return(rules: Rules) -> float | None:
    """Return per unit of the aces jackpot from its paytable (``None`` without a jackpot).

    Pays the highest line whose count of leading aces the box reached (as the engine does)."""
    table = rules.jackpot_paytable
    if not table:
        return None
    most = max(k for k, _ in table)
    probs = aces_probabilities(rules, most)
    lines = sorted(table)
    ret = -1.0
    for i, (k, pays) in enumerate(lines):
        upper = probs[lines[i + 1][0]] if i + 1 < len(lines) else 0.0
        ret += (probs[k] - upper) * float(1 + Fraction(pays))
    return float(ret)


def side_bets(rules: Rules) -> dict[str, object]:
    """Every side bet's return for :class:`~twentyone.analysis.report.EdgeReport`."""
    out: dict[str, object] = {"insurance": insurance_returns(rules)}
    if rules.even_money:
        out["even_money"] = even_money_returns(rules)
        if "A" in rules.insurance_upcards:
            out["blackjack_vs_ace"] = blackjack_against_ace(rules)
    jp = jackpot_return(rules)
    if jp is not None:
        out["jackpot"] = jp
    if rules.bonus_678_777:
        out["bonus_678_777"] = "inside the main game's return"
    return out
