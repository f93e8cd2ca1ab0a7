"""The exact return with both dealer cards face up (Double Exposure, ``hole_card_up``):
the dealer's tables from a two-card start against an enumeration of the dealer's draws, the
starts' outcomes against the hidden-hole dealer, a chart's exact return against the
simulator, and what stays refused by name."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from twentyone import load_rules
from twentyone.analysis.dealer import (
    BLACKJACK,
    BUST,
    dealer_distribution,
    start_distribution,
    start_stands,
)
from twentyone.analysis.shoe_counts import fresh_counts
from twentyone.engine.errors import RulesError
from twentyone.engine.predicates import dealer_draws

DE = load_rules("double-exposure")


def _enumerate(shoe: list[int], hard: int, aces: bool, cards: int, h17_from: int) -> list[Fraction]:
    """The dealer's outcomes (17..21, bust) drawing from ``shoe`` by the rule itself, every
    card in turn (exact fractions)."""
    soft = aces and hard + 10 <= 21
    total = hard + 10 if soft else hard
    out = [Fraction(0)] * 6
    if not dealer_draws(total, soft, cards, h17_from):
        out[BUST if total > 21 else total - 17] = Fraction(1)
        return out
    n = sum(shoe)
    for v in range(10):
        if shoe[v] == 0:
            continue
        p = Fraction(shoe[v], n)
        shoe[v] -= 1
        sub = _enumerate(shoe, hard + v + 1, aces or v == 0, cards + 1, h17_from)
        shoe[v] += 1
        out = [a + p * b for a, b in zip(out, sub, strict=True)]
    return out


@pytest.mark.parametrize("h17_from", [0, 1, 3])
@pytest.mark.parametrize(("up", "hole"), [(9, 5), (0, 5), (5, 0), (1, 2), (0, 0), (4, 4), (9, 1)])
def test_the_dealers_outcomes_from_two_known_cards_are_those_of_every_draw(
    up: int, hole: int, h17_from: int
) -> None:
    """A short shoe (one deck less a few cards, so that the draws run deep), both cards out."""
    shoe = fresh_counts(1)
    shoe[9] -= 10  # six tens left: long dealer hands
    shoe[up] -= 1
    shoe[hole] -= 1
    got = start_distribution(shoe, up, hole, h17_from)
    want = _enumerate([int(x) for x in shoe], up + hole + 2, 0 in (up, hole), 2, h17_from)
    assert got[BLACKJACK] == 0.0
    assert np.allclose(got[:6], [float(x) for x in want], rtol=0, atol=1e-14)


def test_a_two_card_start_the_dealer_stands_on_is_its_own_total() -> None:
    assert start_stands(9, 7, 0) == 1  # ten and eight: 18
    assert start_stands(0, 5, 0) == 0  # soft 17 stands (S17)
    assert start_stands(0, 5, 2) == -1  # and is hit where the dealer hits soft 17
    assert start_distribution(fresh_counts(8), 0, 9, 2)[BLACKJACK] == 1.0


def test_the_starts_average_to_the_hidden_hole_dealer() -> None:
    """Over the hole card, the dealer's outcomes of each up card are those of the dealer who
    draws the second card unseen (to rounding)."""
    from twentyone.analysis import analyze

    exposed = analyze(DE, outcomes=False).dealer_totals
    for key, u in (("2", 1), ("6", 5), ("T", 9), ("A", 0)):
        left = fresh_counts(DE.decks)
        left[u] -= 1
        hidden = dealer_distribution(left, u, 2)
        got = [exposed[key][k] for k in ("17", "18", "19", "20", "21", "bust", "blackjack")]
        assert np.allclose(got, hidden, rtol=0, atol=1e-12), key


def test_a_charts_exact_return_agrees_with_the_simulator() -> None:
    """A chart by up card (blind to the face-up hole card) on the shipped rules, shuffled
    continuously: its exact return over the dealer's two-card starts against 10 million
    seeded rounds of the simulator (a standard error of about 0.00035). A chart blind to the
    hole card returns what it returns with the hole card hidden (the dealer's blackjack is seen
    at once either way): the sum over the hundred starts gives the hidden-hole analysis's
    figure to rounding, a check of the starts' tables, weights and splits."""
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.analysis.exposed import chart_return
    from twentyone.sim.runner import simulate

    rules = DE.replace(shuffle="continuous")
    chart = basic_strategy(rules.replace(hole_card_up=False))
    exact = chart_return(rules, chart)
    sim = simulate(rules, 10_000_000, seed=21, workers=1, strategy=chart)
    se = sim.sd / sim.rounds**0.5
    assert abs(sim.ev - exact) < 4 * se, (exact, sim.ev, se)
    hidden = analyze(rules.replace(hole_card_up=False), outcomes=False).ev_basic
    assert exact == pytest.approx(hidden, rel=0, abs=1e-12)


def test_the_exact_edge_of_double_exposure() -> None:
    """The shipped rules: the optimum by the dealer's two cards, the chart per dealer start no
    better, both far better than a chart blind to the hole card; a dealer blackjack seen at
    once loses every hand but a blackjack (won)."""
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.analysis.exposed import (
        chart_return,
        dealer_blackjack_value,
        exposed_context,
        exposed_starts,
    )

    r = analyze(DE, outcomes=False)
    assert r.ev_basic <= r.ev_optimal
    assert round(-r.ev_basic, 5) == 0.01149  # 1.149%: see docs/variants.md
    assert r.sd is None and r.outcomes_basic is None
    blind = chart_return(DE, basic_strategy(DE.replace(hole_card_up=False)))
    assert r.ev_basic > blind + 0.1
    ctx = exposed_context(DE)
    starts = exposed_starts(ctx)
    assert len(starts) == 100
    assert sum(s.probability for s in starts.values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(s.probability * s.ev_optimal for s in starts.values()) == pytest.approx(
        r.ev_optimal, abs=1e-15
    )
    bj = starts[(0, 9)]
    assert bj.ev_optimal == dealer_blackjack_value(ctx, 0, 9)
    assert -1.0 < bj.ev_optimal < -0.9  # a blackjack (about 4.7%) wins 1, the rest lose 1
    # the best starts for the player: the dealer's 16 against 12
    assert starts[(9, 5)].ev_optimal > starts[(9, 1)].ev_optimal > 0.0


def test_what_is_not_priced_with_the_hole_card_up_is_refused_by_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.cli import main

    with pytest.raises(RulesError, match="hole_card_up=True"):
        analyze(DE)  # the round's distribution
    with pytest.raises(RulesError, match="hole_card_up=True"):
        basic_strategy(DE)  # a chart by up card
    assert main(["strategy", "double-exposure", "--format", "html"]) == 2
    assert "hole_card_up=True" in capsys.readouterr().err


def test_the_chart_by_dealer_total_makes_the_games_known_plays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Wikipedia's Double Exposure article: two ten-value cards are split whenever the dealer
    has 13 through 16, and a hard 20 is hit against a dealer's 20 (the dealer takes the tie).
    The chart, played exactly against every dealer start, returns as much as a chart per
    start, to 0.001%."""
    from twentyone.analysis import analyze
    from twentyone.analysis.exposed_chart import dealer_total_chart
    from twentyone.cli import main

    chart = dealer_total_chart(DE)
    assert [chart.code("pairs", 10, t) for t in ("12", "13", "14", "15", "16", "17")] == [
        "S", "P", "P", "P", "P", "S",
    ]  # fmt: skip
    assert chart.code("hard", 20, "20") == "H" and chart.code("hard", 20, "19") == "S"
    assert chart.code("hard", 12, "6") == "S" and chart.code("hard", 16, "17") == "H"
    r = analyze(DE, outcomes=False)
    assert chart.ev <= r.ev_optimal
    assert chart.ev == pytest.approx(r.ev_basic, abs=1e-5)
    assert main(["strategy", "double-exposure"]) == 0
    out = capsys.readouterr().out
    assert "A,9" in out.splitlines()[2] and f"{100 * chart.ev:+.4f}%" in out


def _index(card: object) -> int:
    return int(card.value) - 1  # type: ignore[attr-defined]


def _optimal_decision(rnd: object, ctx: object) -> str:
    """The optimum's decision (as :func:`~twentyone.analysis.optimal.optimal_upcard` and
    its split values take them) on the hand the round asks about."""
    from twentyone.analysis.context import Context, up_base
    from twentyone.analysis.hands import ACTION_CODE, hand_options
    from twentyone.analysis.optimal import optimal_solved, optimal_split
    from twentyone.engine.round import Round

    assert isinstance(rnd, Round) and isinstance(ctx, Context) and rnd.question is not None
    q = rnd.question
    box = rnd.boxes[q.box]
    cards = box.hands[q.hand].cards
    u, h = (_index(c) for c in rnd.dealer_visible[:2])
    known = ctx.exposed(h)
    solved = optimal_solved(known, u)
    node = known.nodes.index[tuple(sum(_index(c) == v for c in cards) for v in range(10))]
    if len(box.hands) == 1 and len(cards) == 2:  # the first hand: every action
        a = _index(cards[0])
        split = optimal_split(known, u, a, known.split_max(a)) if "split" in q.actions else None
        opts = hand_options(
            known, u, node, solved, up_base(known, u), split=split, surrender=False
        ).plain
        return max(opts, key=lambda k: opts[k])
    act = ACTION_CODE[int(solved.dec[node])]  # later cards and split hands: CDZ-
    return act if act in q.actions else "hit"


@pytest.mark.parametrize(
    ("up", "hole"),
    [("T", "6"), ("A", "6"), ("5", "5"), ("9", "9")],
)
def test_the_optimum_against_one_dealer_start_agrees_with_engine_rounds(up: str, hole: str) -> None:
    """Engine rounds dealt from the shoe less the dealer's two cards, every decision the
    optimum's, against the exact return of that start (within 4 standard errors of 6,000
    rounds: about 0.06)."""
    import random

    from twentyone import BoxBet, Round, StackedShoe
    from twentyone.analysis.exposed import exposed_context, exposed_start

    ctx = exposed_context(DE)
    u, h = "A23456789T".index(up), "A23456789T".index(hole)
    exact = exposed_start(ctx, u, h).ev_optimal
    ranks = [r for r in "A23456789TJQK" for _ in range(4 * DE.decks)]
    ranks.remove(up)
    ranks.remove(hole)
    rng = random.Random(7)
    nets = []
    for _ in range(6000):
        p1, p2, *rest = rng.sample(ranks, 24)
        deal = [p1, up, p2, hole, *rest]
        rnd = Round(DE, StackedShoe(" ".join(f"{r}S" for r in deal)), [BoxBet("ann", 100)])
        while not rnd.is_over:
            rnd.apply(_optimal_decision(rnd, ctx))
        nets.append(rnd.net()["ann"] / 100)
    mean = sum(nets) / len(nets)
    sd = (sum((x - mean) ** 2 for x in nets) / (len(nets) - 1)) ** 0.5
    assert abs(mean - exact) < 4 * sd / len(nets) ** 0.5, (up, hole, exact, mean)


def test_edge_prints_the_exact_house_edge_of_double_exposure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from twentyone.analysis import analyze
    from twentyone.cli import main

    assert main(["edge", "double-exposure", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    r = analyze(DE, outcomes=False)
    assert (data["ev_basic"], data["ev_optimal"]) == (r.ev_basic, r.ev_optimal)
    assert data["sd"] is None and "hole card face up" in data["notes"][0]
    assert sum(u["probability"] for u in data["by_upcard"].values()) == pytest.approx(1.0)
