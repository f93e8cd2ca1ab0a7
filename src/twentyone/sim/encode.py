"""Rules and charts as the plain integer arrays the simulation kernel reads.

:func:`encode_rules` turns a :class:`~twentyone.rules.Rules` into an ``int64`` parameter vector
(indices are the ``P_*`` constants) and a ``float64`` vector (``F_*``); :func:`encode_strategy`
turns a :class:`~twentyone.strategy.Strategy` into ``hard[22, 10]``, ``soft[22, 10]`` and
``pairs[11, 10]`` code tables (codes are indices into :data:`twentyone.strategy.CODES`, columns
the up cards ``2 3 4 5 6 7 8 9 T A``).

Cards in the kernel are 52-card indices in the order of :func:`twentyone.cards.full_deck`
(suit-major ``C D H S``, ranks ``2``-``A``): ``index = 13 * suit + rank``.

>>> from twentyone import load_rules
>>> p, f = encode_rules(load_rules("6D H17 LS"))
>>> int(p[P_DECKS]), int(p[P_H17]), int(p[P_SURRENDER]), float(f[F_BJ])
(6, 1, 1, 1.5)
>>> card_index(Card.parse("AS")), int(RANK_VALUE[12])
(51, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from twentyone.cards import RANKS, SUITS, Card
from twentyone.errors import RulesError, TwentyOneError
from twentyone.rules import Rules
from twentyone.strategy import CODES, HARD_TOTALS, PAIR_VALUES, SOFT_TOTALS, UPCARDS, Strategy

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
CodeArray = npt.NDArray[np.int8]

# chart codes, as indices into twentyone.strategy.CODES
C_H, C_S, C_DH, C_DS, C_P, C_RH, C_RS, C_RP = range(8)
assert CODES == ("H", "S", "Dh", "Ds", "P", "Rh", "Rs", "Rp")

# action bits (a question's legal actions form a mask)
A_HIT, A_STAND, A_DOUBLE, A_SPLIT, A_SURRENDER = 1, 2, 4, 8, 16

# the int64 parameter vector
P_DECKS = 0  # decks in the shoe
P_CONTINUOUS = 1  # 1: a full shoe every round; 0: a cut card
P_CUT = 2  # cards dealt before the cut card is out: int(52 * decks * penetration)
P_H17 = 3  # dealer hits soft 17
P_HOLE = 4  # the dealer takes a hole card in the initial deal
P_PEEK = 5  # the dealer peeks under an ace or a ten
P_OBO = 6  # without a peek a dealer blackjack takes only the original bets
P_SURRENDER = 7  # 0 none, 1 late, 2 early
P_SURR_VS_ACE = 8  # surrender allowed against an ace
P_SURR_BEFORE = 9  # surrender decided box by box before play (ro.11)
P_DOUBLE_ON = 10  # 0 any two cards, 1 hard 9-11, 2 hard 10-11
P_DAS = 11  # double after split
P_SPLIT_RANK = 12  # 1: split only same rank; 0: same value
P_MAX_HANDS = 13  # hands from one box (1: no split)
P_ONE_BOX_SPLIT = 14  # split only when the player has one box (pl.7)
P_RSA = 15  # resplit aces
P_HSA = 16  # hit split aces
P_AT_ONCE = 17  # split hands get their second cards at once (pl.7)
P_MIN_STAND = 18  # lowest total the player may stand on
P_BONUS = 19  # 1 when the 6-7-8 suited / 7-7-7 bonus is paid
P_BOX_BY_BOX = 20  # deal order: 1 box by box (hu.4), 0 round robin
P_SIZE = 21  # length of the vector

# the float64 parameter vector
F_BJ = 0  # blackjack pays (3:2 = 1.5)
F_BONUS = 1  # 6-7-8 / 7-7-7 bonus, times the box's bet
F_SIZE = 2

# the kernel's bound on hands from one box: every ten-value card of 8 decks, so "unlimited"
# (ro.16, hu.8) is played exactly (a box cannot make more hands than its pair's cards)
MAX_HANDS = 128
MAX_BOXES = 12  # Rules.table_boxes is at most 12

# blackjack value of each rank index (2..9, T J Q K = 10, ace = 1)
RANK_VALUE = np.array([min(i + 2, 10) for i in range(12)] + [1], dtype=np.int64)
# per 52-card index: value, rank index, suit index
CARD_VALUE = np.array([RANK_VALUE[i % 13] for i in range(52)], dtype=np.int64)
CARD_RANK = np.array([i % 13 for i in range(52)], dtype=np.int64)
CARD_SUIT = np.array([i // 13 for i in range(52)], dtype=np.int64)


def max_cards(rules: Rules, boxes: int) -> int:
    """A bound on the cards one round can take (a hand never holds 22 cards; the dealer
    fewer; never more than the shoe), the width of the kernel's record of a round.

    >>> max_cards(Rules(decks=6, max_hands=4), 1), max_cards(Rules(decks=6, max_hands=4), 3)
    (112, 288)
    """
    return min(boxes * (rules.hand_limit or MAX_HANDS) * 22 + 24, 52 * rules.decks)


def card_index(card: Card) -> int:
    """The 52-card index of a card (the kernel's representation)."""
    return 13 * SUITS.index(card.suit) + RANKS.index(card.rank)


def index_card(index: int) -> Card:
    """The inverse of :func:`card_index`.

    >>> index_card(51), index_card(0)
    (Card('AS'), Card('2C'))
    """
    return Card(RANKS[index % 13], SUITS[index // 13])


#: Fields of :class:`~twentyone.rules.Rules` the simulator does not encode, and why.
SIM_IGNORES: dict[str, str] = {
    "name": "a label",
    "insurance_upcards": "the simulated player never insures",
    "insurance_stake": "as insurance_upcards",
    "insurance_minimum": "as insurance_upcards",
    "even_money": "the simulated player never takes even money",
    "blackjack_paid_at_once": "when a blackjack is paid, not how much",
    "double_for_less": "the chart doubles in full",
    "table_min": "a money limit (returns are per initial bet)",
    "table_max": "as table_min",
    "boxes_per_player": "checked against the boxes argument before encoding",
    "table_boxes": "seats at the table",
}


def encode_rules(rules: Rules) -> tuple[IntArray, FloatArray]:
    """The kernel's parameter vectors for ``rules``. Side bets (insurance, even money, the
    aces jackpot) are never taken by the simulated player, so they are not encoded."""
    if rules.hand_limit is not None and rules.hand_limit > MAX_HANDS:
        raise RulesError("sim-max-hands", max_hands=rules.max_hands, most=MAX_HANDS)
    p = np.zeros(P_SIZE, dtype=np.int64)
    p[P_DECKS] = rules.decks
    p[P_CONTINUOUS] = rules.shuffle == "continuous"
    p[P_CUT] = int(52 * rules.decks * rules.penetration)
    p[P_H17] = rules.dealer_hits_soft_17
    p[P_HOLE] = rules.hole_card
    p[P_PEEK] = rules.peek
    p[P_OBO] = rules.dealer_blackjack_takes == "original"
    p[P_SURRENDER] = ("none", "late", "early").index(rules.surrender)
    p[P_SURR_VS_ACE] = rules.surrender_against_ace
    p[P_SURR_BEFORE] = rules.surrender_before_play
    p[P_DOUBLE_ON] = ("any", "9-11", "10-11").index(rules.double_on)
    p[P_DAS] = rules.double_after_split
    p[P_SPLIT_RANK] = rules.split_by == "rank"
    # "unlimited" (ro.16, hu.8): the kernel's bound, which no shoe reaches
    p[P_MAX_HANDS] = MAX_HANDS if rules.hand_limit is None else rules.hand_limit
    p[P_ONE_BOX_SPLIT] = rules.split_only_one_box
    p[P_RSA] = rules.resplit_aces
    p[P_HSA] = rules.hit_split_aces
    p[P_AT_ONCE] = rules.split_second_card == "at-once"
    p[P_MIN_STAND] = rules.min_stand_total
    p[P_BONUS] = rules.bonus_678_777 > 0
    p[P_BOX_BY_BOX] = rules.deal_order == "box-by-box"
    f = np.zeros(F_SIZE, dtype=np.float64)
    f[F_BJ] = float(rules.blackjack_pays)
    f[F_BONUS] = float(rules.bonus_678_777)
    return p, f


def encode_strategy(strategy: Strategy) -> tuple[CodeArray, CodeArray, CodeArray]:
    """``hard[22, 10]``, ``soft[22, 10]``, ``pairs[11, 10]`` code tables.

    Rows below a table's first total repeat its first row (the chart reads ``max(total, 4)``
    and ``max(total, 12)``), so the kernel can index by any total up to 21.

    >>> hard, soft, pairs = encode_strategy(Strategy.uniform("Ds", "P"))
    >>> int(hard[16, 9]), int(soft[2, 0]), int(pairs[1, 9])
    (3, 3, 4)
    """
    code = {c: i for i, c in enumerate(CODES)}
    hard = np.zeros((22, 10), dtype=np.int8)
    soft = np.zeros((22, 10), dtype=np.int8)
    pairs = np.zeros((11, 10), dtype=np.int8)
    for t in range(22):
        hard[t] = [code[c] for c in strategy.hard[max(t, HARD_TOTALS[0])]]
        soft[t] = [code[c] for c in strategy.soft[max(t, SOFT_TOTALS[0])]]
    for v in PAIR_VALUES:
        pairs[v] = [code[c] for c in strategy.pairs[v]]
    pairs[0] = pairs[1]
    return hard, soft, pairs


def resolve_table() -> CodeArray:
    """``table[code, mask]``: the action bit :func:`twentyone.strategy.resolve` picks for a chart
    code among the legal actions in ``mask`` (``0`` for an empty mask).

    >>> t = resolve_table()
    >>> int(t[C_DH, A_HIT | A_STAND]), int(t[C_RS, A_HIT | A_STAND | A_SURRENDER])
    (1, 16)
    """
    from twentyone.strategy import resolve

    names = (
        (A_HIT, "hit"),
        (A_STAND, "stand"),
        (A_DOUBLE, "double"),
        (A_SPLIT, "split"),
        (A_SURRENDER, "surrender"),
    )
    bit = dict((n, b) for b, n in names)
    table = np.zeros((8, 32), dtype=np.int8)
    for c, name in enumerate(CODES):
        for mask in range(1, 32):
            actions = tuple(n for b, n in names if mask & b)
            table[c, mask] = bit[resolve(name, actions)]
    return table


def strategy_from_dict(data: Mapping[str, Any]) -> Strategy:
    """A chart from the JSON shape of :meth:`Strategy.to_dict` (pairs keyed ``A``, ``2``…``10``
    or ``T``).

    >>> s = Strategy.uniform("H", "P")
    >>> strategy_from_dict(s.to_dict()) == s
    True
    """
    try:
        upcards = tuple(data.get("upcards", UPCARDS))
        if upcards != UPCARDS:
            raise TwentyOneError("strategy-upcards", upcards=list(upcards), expected=list(UPCARDS))

        def rows(name: str) -> dict[int, tuple[str, ...]]:
            table = data[name]
            out: dict[int, tuple[str, ...]] = {}
            for key, row in table.items():
                k = str(key).upper()
                n = 1 if k == "A" else 10 if k == "T" else int(k)
                out[n] = tuple(str(c) for c in row)
            return out

        return Strategy(
            name=str(data.get("name", "chart")),
            hard=rows("hard"),
            soft=rows("soft"),
            pairs=rows("pairs"),
            notes=tuple(str(n) for n in data.get("notes", ())),
        )
    except (KeyError, AttributeError, ValueError) as exc:
        if isinstance(exc, TwentyOneError):
            raise
        raise TwentyOneError("strategy-file", reason=repr(exc)) from exc
