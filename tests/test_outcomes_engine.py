"""The exact distribution of a round with splits, against the engine itself: on a small shoe,
every card sequence is dealt from a stacked shoe to a :class:`~twentyone.Round` played by the
same strategy (the composition-dependent optimum, split hands by their own cards: CDZ-), and
the round's nets weighted by their probabilities must be the analysis's distribution."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules
from twentyone.analysis import action_evs, analyze
from twentyone.engine.cards import Card
from twentyone.engine.errors import ShoeExhaustedError
from twentyone.engine.rules import Rules

RANK = {0: "A", 9: "T"}
#: the order the analysis breaks ties in (the first of equal returns is taken)
ORDER = ("stand", "hit", "double", "split", "surrender")


class _Player:
    """The optimum's choices, read from :func:`action_evs` over the round's starting shoe."""

    def __init__(self, rules: Rules, shoe: Sequence[int]) -> None:
        self.rules = rules
        self.shoe = shoe
        self.memo: dict[tuple[tuple[int, ...], int, int], dict[str, float]] = {}

    def choose(self, cards: list[Card], up: Card, hands: int, legal: Sequence[str]) -> str:
        key = (tuple(sorted(c.value for c in cards)), up.value, hands)
        if key not in self.memo:
            self.memo[key] = action_evs(self.rules, cards, up, split_hands=hands, shoe=self.shoe)
        evs = self.memo[key]
        best = None
        for name in ORDER:
            if name in legal and name in evs and (best is None or evs[name] > evs[best]):
                best = name
        assert best is not None, (cards, legal)
        return best


def _play(rules: Rules, player: _Player, cards: list[Card]) -> tuple[float, int] | None:
    """The net of the round the stacked ``cards`` deal and its number of hands (None: it
    needs more cards)."""
    try:
        rnd = Round(rules, StackedShoe(cards), [BoxBet("p", 100)])
        while not rnd.is_over:
            q = rnd.question
            assert q is not None
            if q.kind in ("insurance", "even-money"):
                rnd.apply("no-" + q.kind)
                continue
            box = rnd.boxes[0]
            hand = box.hands[q.hand]
            rnd.apply(player.choose(hand.cards, rnd.upcard, len(box.hands), q.actions))
    except ShoeExhaustedError:
        return None
    return rnd.net()["p"] / 100, len(rnd.boxes[0].hands)


def engine_outcomes(
    rules: Rules, shoe: tuple[int, ...], hands: dict[int, float] | None = None
) -> dict[float, float]:
    """``{net: probability}`` of one round from ``shoe`` by walking every card sequence
    (``hands``, if given, gets the probability of each number of hands)."""
    player = _Player(rules, shoe)
    out: dict[float, float] = {}

    def walk(cards: list[Card], left: np.ndarray, prob: float) -> None:
        got = _play(rules, player, cards)
        if got is not None:
            net, made = got
            out[net] = out.get(net, 0.0) + prob
            if hands is not None:
                hands[made] = hands.get(made, 0.0) + prob
            return
        n = left.sum()
        assert n > 0, "the shoe ran out: choose a bigger one"
        for v in range(10):
            if left[v]:
                nxt = left.copy()
                nxt[v] -= 1
                card = Card(RANK.get(v, str(v + 1)), "SHDC"[len(cards) % 4])
                walk([*cards, card], nxt, prob * left[v] / n)

    walk([], np.array(shoe, dtype=np.int64), 1.0)
    return out


# aces, fives, eights and tens only: every round ends before the shoe does, and the optimum
# splits eights and aces against several up cards
SMALL = (3, 0, 0, 0, 2, 0, 0, 4, 0, 8)


@pytest.mark.parametrize("spec", ["1D S17 DAS SPL1 NS", "1D S17 DAS SPL1 ENHC"])
def test_a_small_shoes_distribution_with_splits_is_the_engines(spec: str) -> None:
    rules = _rules(spec)
    want = engine_outcomes(rules, SMALL)
    got = analyze(rules, shoe=SMALL).outcomes_optimal
    assert got is not None
    have = {k: v for k, v in got.items() if v > 1e-15}
    assert sum(want.values()) == pytest.approx(1.0, abs=1e-12)
    assert set(have) == set(want)
    for net, p in want.items():
        assert have[net] == pytest.approx(p, abs=1e-12), net
    assert any(abs(net) > 2 for net in want)  # a split round: more than one bet won or lost


def _sd(dist: dict[float, float]) -> float:
    mean = sum(net * p for net, p in dist.items())
    return math.sqrt(sum(net * net * p for net, p in dist.items()) - mean * mean)


def _rules(spec: str) -> Rules:
    """The rules of ``spec``; ``SPL7`` (eight hands from a box) is past what a house uses and
    :class:`Rules` accepts (1 to 4 hands, or no limit), so it is set after the check: the
    analysis walks six hands of aces under a limit that is not the shoe's."""
    if "SPL7" not in spec:
        return load_rules(spec)
    rules = load_rules(spec.replace("SPL7", "SPL3"))
    object.__setattr__(rules, "max_hands", 8)
    return rules


# shoes where a split makes three hands or more: eights (DAS) to four hands; aces resplit
# (one card each) and twos with no hole card; aces to six hands (beyond the four hands of
# Farmer's split method); sixes and aces, no double after a split, late surrender
RESPLITS = [
    ("1D S17 DAS SPL3 NS", SMALL),
    ("1D H17 DAS SPL3 RSA ENHC", (4, 4, 0, 0, 0, 0, 0, 0, 0, 9)),
    ("2D S17 DAS SPL7 RSA ENHC", (6, 0, 0, 0, 0, 0, 0, 0, 0, 14)),
    ("1D S17 NDAS SPL3 RSA LS", (4, 0, 0, 0, 0, 4, 0, 0, 0, 10)),
]


@pytest.mark.parametrize(("spec", "shoe"), RESPLITS)
def test_a_small_shoes_distribution_with_resplits_is_the_engines(
    spec: str, shoe: tuple[int, ...]
) -> None:
    from twentyone.analysis.context import Context
    from twentyone.analysis.outcomes import round_outcomes

    rules = _rules(spec)
    hands: dict[int, float] = {}
    want = engine_outcomes(rules, shoe, hands)
    assert sum(p for k, p in hands.items() if k >= 3) > 1e-2  # the engine resplits
    got = round_outcomes(Context.of(rules, 1, shoe), True)
    assert got.resplit_mass == 0.0  # nothing approximated
    have = {k: v for k, v in got.dist.items() if abs(v) > 1e-15}
    assert set(have) == set(want)
    for net, p in want.items():
        assert have[net] == pytest.approx(p, abs=1e-12), net
    assert sum(have.values()) == pytest.approx(1.0, abs=1e-12)
    assert _sd(have) == pytest.approx(_sd(want), abs=1e-12)
    assert (
        analyze(rules, shoe=shoe)
        .notes[-1]
        .startswith("outcomes, sd_optimal, sd_basic: exact, splits and resplits included")
    )


@pytest.mark.parametrize(("spec", "shoe"), RESPLITS)
def test_the_exact_distribution_with_resplits_averages_to_the_exact_split_return(
    spec: str, shoe: tuple[int, ...]
) -> None:
    # up to four hands a split's return is Farmer's exact method, beyond (aces to six hands)
    # the mean of split_moments: the distribution's mean, found by listing every round, is the
    # same return
    got = analyze(_rules(spec), shoe=shoe)
    assert got.outcomes_optimal is not None and got.outcomes_basic is not None
    assert sum(n * p for n, p in got.outcomes_optimal.items()) == pytest.approx(
        got.ev_optimal, abs=1e-12
    )
    assert sum(n * p for n, p in got.outcomes_basic.items()) == pytest.approx(
        got.ev_basic, abs=1e-12
    )


@pytest.mark.parametrize("shoe", [(0, 0, 0, 0, 2, 0, 5, 0, 0, 9), (0, 0, 0, 0, 0, 3, 6, 0, 0, 8)])
def test_pt_12_the_bonus_on_split_hands_is_in_the_distribution_as_the_engine_pays_it(
    shoe: tuple[int, ...],
) -> None:
    # pt.12: 7-7-7 pays three bets at once, split hands included: sevens split, a seven on a
    # seven (no resplit) and a third seven; nets of 4 and 8 (both hands) appear, the engine's
    from twentyone.analysis.context import Context
    from twentyone.analysis.outcomes import round_outcomes

    rules = load_rules("pt-casino")
    hands: dict[int, float] = {}
    want = engine_outcomes(rules, shoe, hands)
    assert hands[2] > 0.05  # the optimum splits
    got = round_outcomes(Context.of(rules, 1, shoe), True).dist
    for net in set(want) | set(got):
        assert got.get(net, 0.0) == pytest.approx(want.get(net, 0.0), abs=1e-12), net
    assert want.get(4.0, 0.0) > 1e-3


@pytest.mark.parametrize(("spec", "shoe"), RESPLITS)
def test_a_walk_past_its_bound_approximates_those_rounds_with_the_engines_mean_and_sd(
    monkeypatch: pytest.MonkeyPatch, spec: str, shoe: tuple[int, ...]
) -> None:
    # where listing the rounds would take too long (a big shoe), the rounds that reach three
    # hands are taken independent given the dealer's outcome, their mass reported, and matched
    # to their exact mean and second moment: the distribution moves, its mean and sd do not
    from twentyone.analysis import resplit_exact
    from twentyone.analysis.context import Context
    from twentyone.analysis.outcomes import round_outcomes

    rules = _rules(spec)
    hands: dict[int, float] = {}
    want = engine_outcomes(rules, shoe, hands)
    monkeypatch.setattr(resplit_exact, "WORK", 10)
    got = round_outcomes(Context.of(rules, 1, shoe), True)
    more = sum(p for k, p in hands.items() if k >= 3)
    assert got.resplit_mass == pytest.approx(more, abs=1e-12)
    assert got.unmatched == 0.0
    gap = sum(abs(got.dist.get(n, 0.0) - want.get(n, 0.0)) for n in set(want) | set(got.dist))
    assert sum(got.dist.values()) == pytest.approx(1.0, abs=1e-12)
    assert 1e-6 < gap <= 2.0 * more
    mean = sum(n * p for n, p in got.dist.items())
    assert mean == pytest.approx(sum(n * p for n, p in want.items()), abs=1e-12)
    assert _sd(got.dist) == pytest.approx(_sd(want), abs=1e-12)
