"""What the reinforcement-learning environments share: the action numbering, the phases, the
mapping between an agent's action and the engine's decision, the observation of a round and
the exact return an action gives up (``ev_loss``).

Nothing here imports Gymnasium: the environments in :mod:`twentyone.gym.env`,
:mod:`twentyone.gym.table` and :mod:`twentyone.gym.vector` build their spaces on it.

One numbering covers every question the engine asks (:attr:`twentyone.engine.round.Round.question`):

====  ============  =========================================================================
 0    stand         ``stand``
 1    hit           ``hit``
 2    double        ``double`` (where only a double for less is open: ``double:N`` with the
                    largest N, the full amount the player can add)
 3    split         ``split``
 4    surrender     ``surrender`` (in play, or the ro.11 surrender question)
 5    insure        ``insure`` (where only ``insure:N`` is open: the largest N)
 6    even-money    ``even-money``
 7    decline       ``no-insurance``, ``no-even-money`` or ``no-surrender``: whatever the
                    question's "no" is
 8    next          a round dealt and settled without a single question (a blackjack paid at
                    once, a dealer blackjack after the peek): the agent takes its result
 9    switch        ``switch``: a switch pair's second cards change places (``Rules.switch``)
10    keep          ``keep``: the pair keeps its cards
11    rescue        ``rescue``: a doubled hand is surrendered (``Rules.rescue``)
12+   bet           ``bet_levels[i]`` initial bets on the next round (only with bet levels)
====  ============  =========================================================================

>>> from twentyone import BoxBet, StackedShoe, load_rules
>>> from twentyone.engine.round import Round
>>> rnd = Round(load_rules("ru-online"), StackedShoe("TS 9D 7H 8C"), [BoxBet("agent", 100)])
>>> [ACTIONS[a] for a in legal_actions(rnd.question)]
['stand', 'hit', 'double']
>>> decision_for(rnd.question, DOUBLE)
'double'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from twentyone.engine.cards import Card, hand_total
from twentyone.engine.errors import IllegalActionError, TwentyOneError
from twentyone.engine.records import Question
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules

ACTIONS = (
    "stand",
    "hit",
    "double",
    "split",
    "surrender",
    "insure",
    "even-money",
    "decline",
    "next",
    "switch",
    "keep",
    "rescue",
)
STAND, HIT, DOUBLE, SPLIT, SURRENDER, INSURE, EVEN_MONEY, DECLINE, NEXT = range(9)
SWITCH, KEEP, RESCUE = range(9, 12)
#: the first bet action (``BET + i`` stakes ``bet_levels[i]`` initial bets)
BET = len(ACTIONS)

PHASES = ("bet", "insurance", "even-money", "surrender", "play", "settled", "switch")
P_BET, P_INSURANCE, P_EVEN_MONEY, P_SURRENDER, P_PLAY, P_SETTLED, P_SWITCH = range(7)

#: the value index of a card in observations: ace 1, two 2, ... ten-value 10
MAX_TOTAL = 31  # a hand's total is at most 21 + 10 (a bust by a ten on 21 cannot happen)

IntArray = npt.NDArray[np.int64]


def asks_doubled(rules: Rules) -> bool:
    """Whether a doubled hand is asked again after its card (a redouble or a rescue may
    follow): the observation then tells how many times the hand doubled (``doubles``).

    >>> from twentyone import load_rules
    >>> asks_doubled(load_rules("spanish-21")), asks_doubled(load_rules("ru-online"))
    (True, False)
    """
    return rules.rescue or rules.redoubles > 0


def phase_of(question: Question | None) -> int:
    """The phase number of a question (``P_SETTLED`` when none is asked).

    >>> phase_of(None) == P_SETTLED
    True
    """
    if question is None:
        return P_SETTLED
    phases = {
        "insurance": P_INSURANCE,
        "even-money": P_EVEN_MONEY,
        "surrender": P_SURRENDER,
        "switch": P_SWITCH,
    }
    return phases.get(question.kind, P_PLAY)


def legal_actions(question: Question | None) -> list[int]:
    """The action numbers open for ``question`` (``[NEXT]`` when none is asked)."""
    if question is None:
        return [NEXT]
    acts = set(question.actions)
    out: list[int] = []
    if "stand" in acts:
        out.append(STAND)
    if "hit" in acts:
        out.append(HIT)
    if acts & {"double", "double:N"}:
        out.append(DOUBLE)
    if "split" in acts:
        out.append(SPLIT)
    if "surrender" in acts:
        out.append(SURRENDER)
    if acts & {"insure", "insure:N"}:
        out.append(INSURE)
    if "even-money" in acts:
        out.append(EVEN_MONEY)
    if acts & {"no-insurance", "no-even-money", "no-surrender"}:
        out.append(DECLINE)
    out.extend(
        n for n, name in ((SWITCH, "switch"), (KEEP, "keep"), (RESCUE, "rescue")) if name in acts
    )
    return out


def action_mask(question: Question | None, size: int) -> npt.NDArray[np.int8]:
    """``legal_actions`` as a 0/1 vector of ``size`` entries (Gymnasium's mask type)."""
    mask = np.zeros(size, dtype=np.int8)
    mask[legal_actions(question)] = 1
    return mask


def decision_for(question: Question, action: int) -> str:
    """The engine's decision (replay spelling) for ``action``; raises
    :class:`IllegalActionError` when the action is not open."""
    if action not in legal_actions(question):
        open_ = ", ".join(ACTIONS[a] for a in legal_actions(question))
        name = ACTIONS[action] if 0 <= action < len(ACTIONS) else f"bet level {action - BET}"
        raise IllegalActionError(
            "action-not-open", action=action, name=name, asked=question.describe(), open=open_
        )
    acts = question.actions
    hi = question.amount_range[1] if question.amount_range else 0
    if action == DOUBLE:
        return "double" if "double" in acts else f"double:{hi}"
    if action == INSURE:
        return "insure" if "insure" in acts else f"insure:{hi}"
    if action == DECLINE:
        return {"insurance": "no-insurance", "even-money": "no-even-money"}.get(
            question.kind, "no-surrender"
        )
    return ACTIONS[action]


def pair_value(cards: Sequence[Card], rules: Rules) -> int:
    """The value (1-10) of a two-card pair as the rules split it (``split_by`` rank or value),
    0 for anything else.

    >>> from twentyone import load_rules, parse_cards
    >>> pair_value(parse_cards("KS QD"), load_rules("ru-online"))
    10
    >>> pair_value(parse_cards("KS QD"), load_rules("ro-casino"))
    0
    """
    if len(cards) != 2:
        return 0
    a, b = cards
    same = a.rank == b.rank if rules.split_by == "rank" else a.value == b.value
    return a.value if same else 0


def full_counts(rules: Rules) -> IntArray:
    """The rules' full shoe by value index (ace 0 .. ten-value 9): four of each value a deck
    and sixteen ten-values, twelve in a Spanish deck (``Rules.deck``)."""
    counts = np.full(10, 4 * rules.decks, dtype=np.int64)
    counts[9] = (12 if rules.deck == "spanish" else 16) * rules.decks
    return counts


def value_counts(cards: Sequence[Card]) -> IntArray:
    """Counts of each value in ``cards``: index 0 aces, 1 twos, ... 9 ten-value cards."""
    out = np.zeros(10, dtype=np.int64)
    for c in cards:
        out[c.value - 1] += 1
    return out


def hi_lo(cards: Sequence[Card]) -> int:
    """The Hi-Lo count of ``cards``: +1 for 2-6, -1 for tens and aces.

    >>> from twentyone import parse_cards
    >>> hi_lo(parse_cards("2S 6D TH AC 8C"))
    0
    """
    return sum(1 if 2 <= c.value <= 6 else -1 if c.value in (1, 10) else 0 for c in cards)


def seen_cards(rnd: Round) -> list[Card]:
    """The cards of ``rnd`` a player has seen: every dealt card but an unshown hole card."""
    cards = rnd.cards_dealt
    if rnd.rules.hole_card and not rnd.hole_revealed and len(rnd.dealer) >= 2:
        hole = rnd.dealer[1]
        for i, c in enumerate(cards):
            if c is hole:
                return cards[:i] + cards[i + 1 :]
    return cards


def insurance_returns(rnd: Round, unseen: npt.NDArray[np.int64] | None) -> dict[str, float] | None:
    """Exact returns, in the box's bets, of the insurance or even-money question now asked:
    the dealer's hidden or next card is a uniformly random unseen card (``unseen``: counts by
    value index 0-9; ``None``: a full shoe less the cards seen this round)."""
    q = rnd.question
    if q is None or q.kind not in ("insurance", "even-money"):
        return None
    if unseen is None:
        unseen = full_counts(rnd.rules) - value_counts(seen_cards(rnd))
    n = float(unseen.sum())
    p_bj = float(unseen[9]) / n if rnd.upcard.is_ace else float(unseen[0]) / n
    box = rnd.boxes[q.box]
    stake = (box.bet // 2) / box.bet
    if q.amount_range and "insure" not in q.actions:
        stake = q.amount_range[1] / box.bet
    insure = stake * (3.0 * p_bj - 1.0)
    if q.kind == "even-money":
        bj = float(rnd.rules.blackjack_pays) * (1.0 - p_bj)
        out = {"even-money": 1.0, "insure": bj + insure, "decline": bj}
    else:
        out = {"insure": insure, "decline": 0.0}
    return out


def action_returns(
    rnd: Round, boxes: int, dealt: tuple[Card, ...] | None = None
) -> dict[int, float] | None:
    """The exact return (in the box's initial bets) of every open action of the current
    question, keyed by action number; ``None`` where no exact figure is known.

    Play and the ro.11 surrender question use :func:`twentyone.analysis.action_evs` over the
    real remaining shoe: the rules' full shoe less the cards seen (``dealt``: every card drawn
    since the shuffle, as :meth:`twentyone.engine.shoe.Shoe.dealt` tells; ``None``: the cards in
    sight this round), as ``twentyone advise`` computes it; insurance and even money are
    exact for the cards seen this round. A switch pair's question: the sums of the pair's two
    hands' returns as dealt and as a switch makes them
    (:func:`twentyone.analysis.switch_chart.pair_choice`: the optimum's, over the rules' full
    shoe less the up card and each hand's own cards, as the analysis prices the switch)."""
    q = rnd.question
    if q is None or "rescue" in q.actions:
        return None  # the analysis does not price a rescue
    if q.kind == "switch":
        return switch_returns(rnd, boxes)
    if q.kind in ("insurance", "even-money"):
        ins = insurance_returns(rnd, None)
        assert ins is not None
        names = {"insure": INSURE, "decline": DECLINE, "even-money": EVEN_MONEY}
        return {names[k]: v for k, v in ins.items() if names[k] in legal_actions(q)}
    from twentyone.analysis import action_evs
    from twentyone.analysis.context import MIN_CARDS
    from twentyone.analysis.hints import known_shoe

    box = rnd.boxes[q.box]
    hand = box.hands[q.hand]
    shoe: tuple[int, ...] | None = known_shoe(rnd.rules, rnd, dealt)
    if shoe is not None and sum(shoe) < MIN_CARDS:
        shoe = None  # too few cards left to deal from: the full shoe instead
    try:
        evs = action_evs(
            rnd.rules,
            list(hand.cards),
            rnd.upcard,
            boxes=boxes,
            split_hands=len(box.hands),
            shoe=shoe,
            free=hand.bet == 0 and hand.free > 0,  # a hand a free split made: the house's
        )
    except (TwentyOneError, KeyError, IndexError):
        return None
    if q.kind == "surrender":
        play = [v for k, v in evs.items() if k != "surrender"]
        if "surrender" not in evs or not play:
            return None
        return {SURRENDER: evs["surrender"], DECLINE: max(play)}
    numbers = {"stand": STAND, "hit": HIT, "double": DOUBLE, "split": SPLIT, "surrender": SURRENDER}
    out = {numbers[k]: v for k, v in evs.items() if numbers[k] in legal_actions(q)}
    return out or None


def switch_returns(rnd: Round, boxes: int) -> dict[int, float] | None:
    """A switch pair's question's returns, ``{KEEP: ..., SWITCH: ...}``, in one box's initial
    bets (the pair's two hands summed); ``None`` where the analysis cannot price them."""
    from twentyone.analysis.switch_chart import pair_choice

    q = rnd.question
    assert q is not None and q.kind == "switch"
    if q.partner is None:
        return None
    a, b = (card.value for card in rnd.boxes[q.box].hands[0].cards[:2])
    c, d = (card.value for card in rnd.boxes[q.partner].hands[0].cards[:2])
    try:
        keep, switch = pair_choice(rnd.rules, rnd.upcard.value, (a, b), (c, d), boxes)
    except (TwentyOneError, KeyError, IndexError):
        return None
    return {KEEP: keep, SWITCH: switch}


def ev_loss(returns: dict[int, float] | None, action: int) -> float:
    """What ``action`` gives up against the best open action (``nan`` when unknown).

    >>> ev_loss({STAND: -0.2, HIT: -0.1}, STAND)
    0.1
    """
    if not returns or action not in returns:
        return float("nan")
    return round(max(returns.values()) - returns[action], 15)


def observation(
    rnd: Round | None,
    rules: Rules,
    phase: int,
    observe: str | None,
    shoe_cards: Sequence[Card] | None,
    hand_at: tuple[int, int] = (0, 0),
    follow_question: bool = True,
) -> dict[str, Any]:
    """The Dict observation (see :func:`twentyone.gym.env.observation_space`) of the hand
    asked about (``hand_at``, box and hand, when none is or ``follow_question`` is false):
    at a switch table also the ``partner`` box's first hand (the pair's other box: a switch
    question asks the pair's first box), where doubled hands are asked again its ``doubles``.

    ``shoe_cards`` are the cards seen since the shoe's last shuffle (for ``observe``)."""
    q = rnd.question if rnd is not None and follow_question else None
    b, h = (q.box, q.hand) if q is not None else hand_at
    cards: list[Card] = []
    up = 0
    split = 0
    insured = 0
    if rnd is not None and b < len(rnd.boxes) and h < len(rnd.boxes[b].hands):
        hand = rnd.boxes[b].hands[h]
        cards = list(hand.cards)
        up = rnd.upcard.value
        split = int(hand.split)
        insured = int(rnd.boxes[b].insurance > 0)
    t = hand_total(cards)
    partner: list[Card] = []
    doubles = 0
    if rnd is not None and cards:
        doubles = rnd.boxes[b].hands[h].doubles
        other = rnd.partner_of(b)
        if other is not None:
            partner = list(rnd.boxes[other].hands[0].cards)
    obs: dict[str, Any] = {
        "phase": np.int64(phase),
        "total": np.int64(min(t.total, MAX_TOTAL)),
        "soft": np.int64(t.soft),
        "pair": np.int64(pair_value(cards, rules)),
        "cards": np.minimum(value_counts(cards), 21),
        "up": np.int64(up),
        "split": np.int64(split),
        "box": np.int64(b),
        "insured": np.int64(insured),
    }
    if rules.switch:
        obs["partner"] = np.minimum(value_counts(partner), 21)
    if asks_doubled(rules):
        obs["doubles"] = np.int64(doubles)
    if observe is not None:
        seen = list(shoe_cards or ())
        if observe == "composition":
            full = full_counts(rules)
            obs["composition"] = full - value_counts(seen)
        else:
            obs["count"] = np.array([hi_lo(seen), rules.shoe_size - len(seen)], dtype=np.int64)
    return obs
