"""Rules and charts as the plain integer arrays the simulation kernel reads.

:func:`encode_rules` is the one compiled form of a :class:`~twentyone.engine.rules.Rules`
(:mod:`twentyone.engine.compiled`: an ``int64`` parameter vector indexed by the ``P_*`` constants
and a ``float64`` vector, ``F_*``; the exact analysis reads the same); :func:`encode_strategy`
turns a :class:`~twentyone.engine.strategy.Strategy` into ``hard[22, 10]``, ``soft[22, 10]`` and
``pairs[11, 10]`` code tables (codes are indices into :data:`twentyone.engine.strategy.CODES`,
columns the up cards ``2 3 4 5 6 7 8 9 T A``), or, for a chart by the dealer's two-card total
(:data:`twentyone.engine.strategy.DEALER_TOTALS`, a table whose dealer shows both cards),
tables of 26 columns: hard 4 to 20, then soft ``A,A`` to ``A,9``.

Cards in the kernel are 52-card indices in the order of :func:`twentyone.engine.cards.full_deck`
(suit-major ``C D H S``, ranks ``2``-``A``): ``index = 13 * suit + rank``.

>>> from twentyone import load_rules
>>> p, f = encode_rules(load_rules("6D H17 LS"))
>>> int(p[P_DECKS]), int(p[P_H17]), int(p[P_SURRENDER]), float(f[F_BJ])
(6, 2, 1, 1.5)
>>> card_index(Card.parse("AS")), int(RANK_VALUE[12])
(51, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from twentyone.engine.cards import RANKS, SUITS, Card

# the kernel's names for the one compiled form (twentyone.engine.compiled), re-exported
from twentyone.engine.compiled import F_B21_CARDS as F_B21_CARDS
from twentyone.engine.compiled import F_B21_MIXED as F_B21_MIXED
from twentyone.engine.compiled import F_B21_SPADES as F_B21_SPADES
from twentyone.engine.compiled import F_B21_SUITED as F_B21_SUITED
from twentyone.engine.compiled import F_BJ as F_BJ
from twentyone.engine.compiled import F_BONUS as F_BONUS
from twentyone.engine.compiled import F_SIZE as F_SIZE
from twentyone.engine.compiled import MAX_HANDS as MAX_HANDS
from twentyone.engine.compiled import P_AT_ONCE as P_AT_ONCE
from twentyone.engine.compiled import P_BJ_TIES as P_BJ_TIES
from twentyone.engine.compiled import P_BONUS as P_BONUS
from twentyone.engine.compiled import P_BOX_BY_BOX as P_BOX_BY_BOX
from twentyone.engine.compiled import P_CONTINUOUS as P_CONTINUOUS
from twentyone.engine.compiled import P_CUT as P_CUT
from twentyone.engine.compiled import P_DAS as P_DAS
from twentyone.engine.compiled import P_DEALER_22 as P_DEALER_22
from twentyone.engine.compiled import P_DECKS as P_DECKS
from twentyone.engine.compiled import P_DOUBLE_AFTER_HIT as P_DOUBLE_AFTER_HIT
from twentyone.engine.compiled import P_DOUBLE_ON as P_DOUBLE_ON
from twentyone.engine.compiled import P_FREE_DOUBLES as P_FREE_DOUBLES
from twentyone.engine.compiled import P_FREE_SPLITS as P_FREE_SPLITS
from twentyone.engine.compiled import P_H17 as P_H17
from twentyone.engine.compiled import P_HOLE as P_HOLE
from twentyone.engine.compiled import P_HOLE_UP as P_HOLE_UP
from twentyone.engine.compiled import P_HSA as P_HSA
from twentyone.engine.compiled import P_MAX_HANDS as P_MAX_HANDS
from twentyone.engine.compiled import P_MIN_STAND as P_MIN_STAND
from twentyone.engine.compiled import P_OBO as P_OBO
from twentyone.engine.compiled import P_ONE_BOX_SPLIT as P_ONE_BOX_SPLIT
from twentyone.engine.compiled import P_P21_WINS as P_P21_WINS
from twentyone.engine.compiled import P_PEEK as P_PEEK
from twentyone.engine.compiled import P_REDOUBLES as P_REDOUBLES
from twentyone.engine.compiled import P_RESCUE as P_RESCUE
from twentyone.engine.compiled import P_RSA as P_RSA
from twentyone.engine.compiled import P_SIZE as P_SIZE
from twentyone.engine.compiled import P_SPANISH as P_SPANISH
from twentyone.engine.compiled import P_SPLIT_RANK as P_SPLIT_RANK
from twentyone.engine.compiled import P_SURR_BEFORE as P_SURR_BEFORE
from twentyone.engine.compiled import P_SURR_VS_ACE as P_SURR_VS_ACE
from twentyone.engine.compiled import P_SURRENDER as P_SURRENDER
from twentyone.engine.compiled import P_SWITCH as P_SWITCH
from twentyone.engine.compiled import P_TIES as P_TIES
from twentyone.engine.compiled import encode_rules as compiled_rules
from twentyone.engine.errors import RulesError, TwentyOneError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import (
    CODES,
    DEALER_TOTALS,
    HARD_TOTALS,
    PAIR_VALUES,
    SOFT_TOTALS,
    UPCARDS,
    Strategy,
)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
CodeArray = npt.NDArray[np.int8]

# chart codes, as indices into twentyone.engine.strategy.CODES
C_H, C_S, C_DH, C_DS, C_P, C_RH, C_RS, C_RP = range(8)
assert CODES == ("H", "S", "Dh", "Ds", "P", "Rh", "Rs", "Rp")

# the counting kernel's two codes beyond the chart's: an index says surrender, or leaves the
# chart's play (no surrender); twentyone.counting.index_set encodes index tables with them
X_SURRENDER = 8
X_CHART = 9
# index table kinds: rows of the counting kernel's lookup
K_HARD, K_SOFT, K_PAIR = 0, 1, 2
K_SURRENDER = 3  # + K_HARD / K_SOFT / K_PAIR
# action bits (a question's legal actions form a mask)
A_HIT, A_STAND, A_DOUBLE, A_SPLIT, A_SURRENDER = 1, 2, 4, 8, 16

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


def shoe_indices(decks: int, deck: str = "standard") -> npt.NDArray[np.uint8]:
    """A fresh shoe as the kernels hold it: the 52-card indices of ``decks`` decks, in deck
    order (the kernels' lazy shuffle makes it random); a Spanish deck (``Rules.deck``) without
    the ten-spots' indices.

    >>> len(shoe_indices(6)), len(shoe_indices(6, "spanish"))
    (312, 288)
    >>> any(index_card(int(i)).rank == "T" for i in shoe_indices(1, "spanish"))
    False
    """
    one = [i for i in range(52) if deck != "spanish" or RANKS[i % 13] != "T"]
    return np.tile(np.array(one, dtype=np.uint8), decks)


def card_index(card: Card) -> int:
    """The 52-card index of a card (the kernel's representation)."""
    return 13 * SUITS.index(card.suit) + RANKS.index(card.rank)


def index_card(index: int) -> Card:
    """The inverse of :func:`card_index`.

    >>> index_card(51), index_card(0)
    (Card('AS'), Card('2C'))
    """
    return Card(RANKS[index % 13], SUITS[index // 13])


#: Fields of :class:`~twentyone.engine.rules.Rules` the simulator does not encode, and why.
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
    "multi_player": "the simulated player plays alone",
}


#: Fields whose other values the kernels (the simulator's, the counting simulation's, the
#: vectorized environment's) cannot play: the value they play, and what they lack. Encoding
#: (:func:`encode_rules`, which all of them take their rules from) refuses any other value
#: with a :class:`RulesError` naming the field.
SIM_REFUSES: dict[str, tuple[object, str]] = {}

#: Spanish 21's doubles (``double_after_hit``, ``redoubles``, ``rescue``): the flat
#: simulator plays them (a chart doubles by its codes on any number of cards and again after
#: a double, and never rescues, as :func:`twentyone.engine.strategy.decide` answers), so does
#: the vectorized environment (its agent redoubles and rescues); the counting simulation
#: refuses them by name (:func:`refuse_spanish_doubles`), and every kernel refuses them with
#: free stakes.
SPANISH_DOUBLES = ("double_after_hit", "redoubles", "rescue")
SPANISH_DOUBLES_LACKS = "Spanish 21's doubles: its kernel doubles a hand's first two cards only"


def refuse_spanish_doubles(rules: Rules, path: str) -> None:
    """Refuse Spanish 21's doubles for a fast path that does not play them (``path``: its name
    in the message), with a :class:`RulesError` naming the first field on.

    >>> refuse_spanish_doubles(Rules(decks=6, rescue=True), "the counting simulator")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.RulesError: rescue=True: the counting simulator does not play this \
yet (Spanish 21's doubles: its kernel doubles a hand's first two cards only); the engine plays \
it (terminal, web table, replay)
    """
    for name in SPANISH_DOUBLES:
        value = getattr(rules, name)
        if value:
            raise RulesError(
                "fast-path-refuses", field=name, value=value, path=path, lacks=SPANISH_DOUBLES_LACKS
            )


#: What the counting simulation and the vectorized environment lack to play ``switch=True``
#: (the flat simulator plays it: :mod:`twentyone.sim.switch`); each refuses it by name,
#: :func:`refuse_switch`.
SWITCH_LACKS = "a pair of boxes and its switch decision: its kernel plays each box alone"


def refuse_switch(rules: Rules, path: str) -> None:
    """Refuse a switch table (``Rules.switch``) for a fast path that plays each box alone
    (``path``: its name in the message), with a :class:`RulesError` naming the field.

    >>> refuse_switch(Rules(decks=6, switch=True, even_money=False), "the counting simulator")
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.RulesError: switch=True: the counting simulator does not play this \
yet (a pair of boxes and its switch decision: its kernel plays each box alone); the engine plays \
it (terminal, web table, replay)
    """
    if rules.switch:
        raise RulesError(
            "fast-path-refuses", field="switch", value=True, path=path, lacks=SWITCH_LACKS
        )


def encode_rules(rules: Rules) -> tuple[IntArray, FloatArray]:
    """The kernel's parameter vectors for ``rules``: the one compiled form of
    :func:`twentyone.engine.compiled.encode_rules`, refusing a hand limit the kernel cannot hold
    and a value of :data:`SIM_REFUSES`.

    >>> encode_rules(Rules(decks=6, redoubles=2, double_after_hit=True, free_doubles=(11,)))
    Traceback (most recent call last):
    ...
    twentyone.engine.errors.RulesError: free_doubles=(11,): the simulator does not play this yet \
(free stakes with Spanish 21's doubles: a doubled hand's stakes are the player's); the engine \
plays it (terminal, web table, replay)
    """
    for name, (played, lacks) in SIM_REFUSES.items():
        if getattr(rules, name) != played:
            value = getattr(rules, name)
            path = "the simulator"
            raise RulesError("fast-path-refuses", field=name, value=value, path=path, lacks=lacks)
    if any(getattr(rules, name) for name in SPANISH_DOUBLES):
        lacks = "free stakes with Spanish 21's doubles: a doubled hand's stakes are the player's"
        for name in ("free_doubles", "free_splits"):
            if getattr(rules, name):
                value = getattr(rules, name)
                raise RulesError(
                    "fast-path-refuses", field=name, value=value, path="the simulator", lacks=lacks
                )
    if rules.hand_limit is not None and rules.hand_limit > MAX_HANDS:
        raise RulesError("sim-max-hands", max_hands=rules.max_hands, most=MAX_HANDS)
    return compiled_rules(rules)


#: The kernel's column count of a chart by the dealer's two-card total (its tables' width).
TOTAL_COLUMNS = len(DEALER_TOTALS)


def check_chart(rules: Rules, strategy: Strategy, path: str = "the simulator") -> None:
    """Refuse a chart by the dealer's two-card total at a table whose hole card is not dealt
    face up (the kernel would read a total it cannot see), naming ``hole_card_up``.

    >>> check_chart(Rules(decks=6), Strategy.uniform("H"))
    """
    if strategy.by_dealer_total and not rules.hole_card_up:
        lacks = "a chart by the dealer's two-card total needs both dealer cards face up"
        raise RulesError(
            "fast-path-refuses", field="hole_card_up", value=False, path=path, lacks=lacks
        )


def encode_strategy(strategy: Strategy) -> tuple[CodeArray, CodeArray, CodeArray]:
    """``hard[22, k]``, ``soft[22, k]``, ``pairs[11, k]`` code tables, ``k`` the chart's
    columns: 10 up cards, or :data:`TOTAL_COLUMNS` dealer totals.

    Rows below a table's first total repeat its first row (the chart reads ``max(total, 4)``
    and ``max(total, 12)``), so the kernel can index by any total up to 21.

    >>> hard, soft, pairs = encode_strategy(Strategy.uniform("Ds", "P"))
    >>> int(hard[16, 9]), int(soft[2, 0]), int(pairs[1, 9])
    (3, 3, 4)
    """
    code = {c: i for i, c in enumerate(CODES)}
    k = len(strategy.columns)
    hard = np.zeros((22, k), dtype=np.int8)
    soft = np.zeros((22, k), dtype=np.int8)
    pairs = np.zeros((11, k), dtype=np.int8)
    for t in range(22):
        hard[t] = [code[c] for c in strategy.hard[max(t, HARD_TOTALS[0])]]
        soft[t] = [code[c] for c in strategy.soft[max(t, SOFT_TOTALS[0])]]
    for v in PAIR_VALUES:
        pairs[v] = [code[c] for c in strategy.pairs[v]]
    pairs[0] = pairs[1]
    return hard, soft, pairs


def resolve_table() -> CodeArray:
    """``table[code, mask]``: the action bit :func:`twentyone.engine.strategy.resolve` picks for a
    chart code among the legal actions in ``mask`` (``0`` for an empty mask).

    >>> t = resolve_table()
    >>> int(t[C_DH, A_HIT | A_STAND]), int(t[C_RS, A_HIT | A_STAND | A_SURRENDER])
    (1, 16)
    """
    from twentyone.engine.strategy import resolve

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
    or ``T``; ``"columns"``, the dealer totals, for a chart by dealer total).

    >>> s = Strategy.uniform("H", "P")
    >>> strategy_from_dict(s.to_dict()) == s
    True
    """
    try:
        upcards = tuple(data.get("upcards", UPCARDS))
        if upcards != UPCARDS:
            raise TwentyOneError("strategy-upcards", upcards=list(upcards), expected=list(UPCARDS))
        columns = tuple(str(c) for c in data.get("columns", UPCARDS))

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
            columns=columns,
        )
    except (KeyError, AttributeError, ValueError) as exc:
        if isinstance(exc, TwentyOneError):
            raise
        raise TwentyOneError("strategy-file", reason=repr(exc)) from exc
