"""The exact mean and second moment of a split round, resplits included
(:mod:`twentyone.analysis.split_moments`), against three independent exact methods: the two-hand
joint distribution (Farmer's definition), the small-shoe walk over every round (itself checked
against the engine in ``tests/test_outcomes_engine.py``), and Farmer's exact split return."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone import load_rules
from twentyone.analysis import outcomes
from twentyone.analysis.context import Context, shoe_after
from twentyone.analysis.dealer import dealer_table, standing_table
from twentyone.analysis.grid import STEP, Grid, hand_nets
from twentyone.analysis.hands import SplitPlay, split_decisions
from twentyone.analysis.optimal import optimal_solved
from twentyone.analysis.player import FIXED
from twentyone.analysis.resplit import hands_distribution
from twentyone.analysis.shoe_counts import ACE
from twentyone.analysis.split_moments import split_moments_of, tilted, weighted_rows
from twentyone.analysis.split_patterns import pattern_chance, patterns, rest_weights
from twentyone.analysis.splits import split_value


def _decisions(ctx: Context, up: int, pair: int) -> tuple[SplitPlay, np.ndarray]:
    solved = optimal_solved(ctx, up)
    play = SplitPlay(mode=FIXED, dec=(solved.dec, solved.decs))
    dec, _, _ = split_decisions(ctx, up, pair, play)
    return play, dec


def _grid_moments(ctx: Context, dist: np.ndarray) -> tuple[float, float]:
    grid = Grid(ctx)
    x = (np.arange(grid.size) - grid.off) * STEP
    return float(dist @ x), float(dist @ x**2)


@given(
    limit=st.integers(2, 9),
    pair_cards=st.integers(0, 30),
    others=st.integers(10, 300),
)
@settings(max_examples=60, deadline=None)
def test_the_patterns_of_a_split_take_every_round_once(
    limit: int, pair_cards: int, others: int
) -> None:
    # every split ends in one of its patterns: their chances sum to 1, and the number of
    # hands they make is distributed as resplit.hands_distribution's independent walk says
    found = patterns(limit, pair_cards)
    assert pattern_chance(found, pair_cards, others) == pytest.approx(1.0, abs=1e-12)
    want = hands_distribution(limit, float(pair_cards), float(pair_cards + others))
    by_hands: dict[int, float] = {}
    for (k, n1, n2), count in found.items():
        one = pattern_chance({(k, n1, n2): count}, pair_cards, others)
        by_hands[k + 2] = by_hands.get(k + 2, 0.0) + one
    for hands in set(by_hands) | {k for k, _ in want}:
        expected = sum(p for (k, _), p in want.items() if k == hands)
        assert by_hands.get(hands, 0.0) == pytest.approx(expected, abs=1e-12), hands


def test_weighted_rows_bust_by_what_the_others_leave_is_the_busting_hands_sum() -> None:
    # the bust's entry is the weight before the dealer less the other outcomes': summing the
    # busting final hands one by one (the full table) gives the same, because every way the
    # dealer ends, weighted by the rest's chance after it, sums to that chance before it
    rules = load_rules("6D S17 DAS SPL3 NS")
    ctx = Context.of(rules, 1, None)
    up, pair = 5, 7
    shoe = shoe_after(ctx, up)
    shoe[pair] -= 2
    weights = rest_weights(4, int(shoe[pair]), int(shoe.sum() - shoe[pair]), 40)
    removed = np.array([[0] * 10, [1, 0, 0, 2, 0, 0, 0, 1, 0, 3], [0, 2, 0, 0, 0, 0, 0, 2, 1, 1]])
    short = standing_table(up, False)
    full = dealer_table(up, False)
    got, listed = (
        weighted_rows(shoe, removed, pair, t.parent, t.fac, t.ways, t.bucket, weights)
        for t in (short, full)
    )
    np.testing.assert_allclose(got, listed, rtol=0, atol=1e-13)
    assert float(np.abs(got).max()) > 0.1


@pytest.mark.parametrize("spec", ["6D S17 DAS SPL1 NS", "pt-casino"])
@pytest.mark.parametrize("up", [0, 4, 9])
def test_split_moments_without_resplits_are_the_two_hand_joints(spec: str, up: int) -> None:
    # one split only: the moments are those of Farmer's exact two-hand distribution (pt.12's
    # 6-7-8 / 7-7-7 bonus on split hands in both)
    ctx = Context.of(load_rules(spec), 1, None)
    grid = Grid(ctx)
    for pair in range(10):
        solved = optimal_solved(ctx, up)
        play = SplitPlay(mode=FIXED, dec=(solved.dec, solved.decs))
        dec, decs, _ = split_decisions(ctx, up, pair, play)
        two = outcomes._two_hands(ctx, grid, up, pair, dec, resplits=False, decs=decs)
        got = split_moments_of(ctx, up, pair, dec, 2, decs=decs)
        assert got is not None and got.second is not None
        first, second = _grid_moments(ctx, two)
        assert got.first == pytest.approx(first, abs=1e-12), pair
        assert got.second == pytest.approx(second, abs=1e-12), pair


#: small shoes where the walk lists every round of three hands or more exactly
SMALL = [
    ("1D S17 DAS SPL3 NS", (3, 0, 0, 0, 2, 0, 0, 4, 0, 8), 7, (0, 4, 7, 9)),
    ("1D H17 DAS SPL3 RSA ENHC", (4, 4, 0, 0, 0, 0, 0, 0, 0, 9), 1, (0, 1, 9)),
    ("1D H17 DAS SPL3 RSA ENHC", (4, 4, 0, 0, 0, 0, 0, 0, 0, 9), 0, (0, 1, 9)),
    ("2D S17 DAS SPLU RSA ENHC", (6, 0, 0, 0, 0, 0, 0, 0, 0, 14), 0, (0, 9)),
    ("1D S17 NDAS SPL3 RSA LS", (4, 0, 0, 0, 0, 4, 0, 0, 0, 10), 5, (0, 5, 9)),
]


@pytest.mark.parametrize(("spec", "shoe", "pair", "ups"), SMALL)
def test_split_moments_with_resplits_are_the_walks_over_every_round(
    spec: str, shoe: tuple[int, ...], pair: int, ups: tuple[int, ...]
) -> None:
    # up to six hands, peek and no hole card, DAS and not: the walk over every round (in the
    # engine's order, the dealer after all hands) has the same mean and second moment
    ctx = Context.of(load_rules(spec), 1, shoe)
    grid = Grid(ctx)
    for up in ups:
        _, dec = _decisions(ctx, up, pair)
        two = outcomes._two_hands(ctx, grid, up, pair, dec, resplits=True)
        more = outcomes._more_exact(ctx, grid, up, pair, dec)
        assert more is not None and float(more.sum()) > 1e-3  # three hands or more happen
        got = split_moments_of(ctx, up, pair, dec, ctx.split_max(pair))
        assert got is not None and got.second is not None
        first, second = _grid_moments(ctx, two + more)
        assert got.first == pytest.approx(first, abs=1e-12), up
        assert got.second == pytest.approx(second, abs=1e-12), up


@pytest.mark.parametrize("spec", ["6D S17 DAS SPL3 NS", "2D H17 NDAS SPL2 RSA ENHC"])
@pytest.mark.parametrize("up", [1, 5, 9])
def test_the_split_mean_is_farmers_exact_split_return_up_to_four_hands(spec: str, up: int) -> None:
    ctx = Context.of(load_rules(spec), 1, None)
    for pair in range(10):
        play, dec = _decisions(ctx, up, pair)
        limit = ctx.split_max(pair)
        farmer = split_value(ctx, up, shoe_after(ctx, up), pair, play, limit)
        got = split_moments_of(ctx, up, pair, dec, limit, second=False)
        assert got is not None  # its second moment too where an earlier call asked
        assert got.first == pytest.approx(farmer, abs=1e-12), pair


def test_a_split_beyond_four_hands_returns_the_exact_mean() -> None:
    # aces to six hands from a small shoe: the split's return is the walk's exact mean (the
    # approximation of split_weights, which it replaces beyond four hands, is 0.14 off here)
    spec, shoe, pair, ups = SMALL[3]
    ctx = Context.of(load_rules(spec), 1, shoe)
    grid = Grid(ctx)
    for up in ups:
        play, dec = _decisions(ctx, up, pair)
        two = outcomes._two_hands(ctx, grid, up, pair, dec, resplits=True)
        more = outcomes._more_exact(ctx, grid, up, pair, dec)
        assert more is not None
        first, _ = _grid_moments(ctx, two + more)
        got = split_value(ctx, up, shoe_after(ctx, up), pair, play, ctx.split_max(pair))
        assert got == pytest.approx(first, abs=1e-12), up


def test_a_ten_pair_split_by_rank_has_no_exact_moments() -> None:
    ctx = Context.of(load_rules("ro-casino"), 1, None)
    _, dec = _decisions(ctx, 5, 9)
    assert split_moments_of(ctx, 5, 9, dec, ctx.split_max(9)) is None
    assert split_moments_of(ctx, 5, ACE, dec, 2) is not None


def test_tilted_reaches_the_moments_it_can_and_says_when_it_cannot() -> None:
    x = np.arange(-4.0, 5.0)
    dist = np.exp(-(x**2) / 4.0)
    dist *= 0.003 / dist.sum()
    got = tilted(dist, x, 0.003 * 0.1, 0.003 * 2.5)
    assert got is not None and (got > 0).all()
    assert float(got.sum()) == pytest.approx(0.003, rel=1e-13)
    assert float(got @ x) == pytest.approx(0.0003, rel=1e-12)
    assert float(got @ x**2) == pytest.approx(0.0075, rel=1e-12)
    one_point = np.where(x == 1.0, 0.003, 0.0)
    assert tilted(one_point, x, 0.003, 0.006) is None  # a single net cannot spread
    assert tilted(dist, x, 0.003 * 5.0, 0.003 * 26.0) is None  # a mean past every net


def test_hand_nets_are_the_split_hands_nets_in_half_bets() -> None:
    ctx = Context.of(load_rules("ro-casino"), 1, None)
    nets = hand_nets(ctx)
    assert nets.shape == (16, 7)
    assert nets[7 + 4, 5] == 4  # a doubled 20 against a bust: +2 bets
    assert nets[6, 4] == -2  # a bust loses
    pt = hand_nets(Context.of(load_rules("pt-casino"), 1, None))
    assert pt[14, 4] == 6  # pt.12: a 7-7-7 paid three bets, then a push against 21
    assert pt[14, 6] == 4  # the dealer's blackjack takes the hand's bet, not the bonus


def test_a_splits_second_moment_for_one_hand_is_the_walks() -> None:
    # action_second_moments (risk-averse indices read it) answers a split's E[X^2] exactly,
    # resplits included: eights against a five split to four hands from a small shoe
    from twentyone import parse_cards
    from twentyone.analysis.action_moments import action_second_moments

    spec, shoe, pair, _ = SMALL[0]
    rules = load_rules(spec)
    ctx = Context.of(rules, 1, shoe)
    grid = Grid(ctx)
    _, dec = _decisions(ctx, 4, pair)
    walk = outcomes._two_hands(ctx, grid, 4, pair, dec, resplits=True)
    more = outcomes._more_exact(ctx, grid, 4, pair, dec)
    assert more is not None
    _, second = _grid_moments(ctx, walk + more)
    got = action_second_moments(rules, list(parse_cards("8S 8D")), parse_cards("5H")[0], shoe=shoe)
    assert got["split"] == pytest.approx(second, abs=1e-12)


def test_split_moments_from_six_decks_are_the_walks_where_it_can_list_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the walk over every round runs from six decks too where the hands stand early (eights
    # and nines against a five: a tenth of a second each, once its bounds are lifted): the
    # same mean and second moment from a full shoe
    from twentyone.analysis import resplit_exact

    monkeypatch.setattr(resplit_exact, "LISTABLE", 10**18)
    monkeypatch.setattr(resplit_exact, "WORK", 10**8)
    ctx = Context.of(load_rules("6D S17 DAS SPL3 NS"), 1, None)
    grid = Grid(ctx)
    for pair in (7, 8):
        _, dec = _decisions(ctx, 4, pair)
        two = outcomes._two_hands(ctx, grid, 4, pair, dec, resplits=True)
        more = outcomes._more_exact(ctx, grid, 4, pair, dec)
        assert more is not None and float(more.sum()) > 0.1  # a seventh of splits resplit
        got = split_moments_of(ctx, 4, pair, dec, 4)
        assert got is not None and got.second is not None
        first, second = _grid_moments(ctx, two + more)
        assert got.first == pytest.approx(first, abs=1e-12), pair
        assert got.second == pytest.approx(second, abs=1e-12), pair
