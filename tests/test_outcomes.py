"""The distribution of a round's net and the standard deviation it gives."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from twentyone import load_rules
from twentyone.analysis import analyze
from twentyone.analysis.outcomes import hands_distribution
from twentyone.analysis.split import split_weights


def _mean(dist: dict[float, float] | None) -> float:
    assert dist is not None
    return sum(x * p for x, p in dist.items())


@pytest.mark.parametrize(
    "spec",
    [
        "6D S17 DAS SPL0 NS", "1D H17 SPL0 ENHC LS", "2D S17 SPL0 OBO ES", "6D S17 DAS SPL1 NS",
        "6D S17 DAS SPL3 NS", "ro-casino", "pl-online", "pt-casino", "hu-casino", "ru-online",
    ],
)  # fmt: skip
def test_outcomes_sum_to_one_and_average_to_the_return(spec: str) -> None:
    # without splits the distribution is exact; with one split each split hand's outcomes
    # are exact jointly with the dealer's (pt.12's bonus on split hands included); rounds of
    # three hands or more are matched to their exact mean: the mean is the exact return
    got = analyze(load_rules(spec))
    for dist, ev in ((got.outcomes_optimal, got.ev_optimal), (got.outcomes_basic, got.ev_basic)):
        assert dist is not None
        assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
        assert _mean(dist) == pytest.approx(ev, abs=1e-12)
        assert min(dist.values()) > -1e-15


def test_without_splits_the_sd_is_the_exact_moment() -> None:
    got = analyze(load_rules("6D S17 DAS SPL0 NS"))
    assert got.sd_basic == pytest.approx(got.sd, abs=1e-12)  # no split: both exact
    assert got.outcomes_basic is not None
    assert set(got.outcomes_basic) <= {-2.0, -1.0, 0.0, 1.0, 1.5, 2.0}


def test_sd_is_farmers_exact_figure() -> None:
    # Eric Farmer's combinatorial analyzer (blackjack_pdf): SD 1.146540 for 6D S17 DAS SPL1 NS
    # played CDZ- (split hands by the decisions their cards get before a split), from its
    # exact distribution of a round; ours is that distribution, a split's two hands jointly
    rules = load_rules("6D S17 DAS SPL1 NS")
    exact = analyze(rules)
    assert exact.sd_optimal == pytest.approx(1.146540, abs=5e-7)
    assert exact.sd_optimal == pytest.approx(1.146540058006, abs=1e-11)
    # basic strategy's: the figure the pairs of endings listed one by one gave (before the
    # busts were folded into atoms), the same to 1e-12
    assert exact.sd_basic == pytest.approx(1.146391462572, abs=1e-11)
    assert _mean(exact.outcomes_optimal) == pytest.approx(exact.ev_optimal, abs=1e-12)
    assert _mean(exact.outcomes_basic) == pytest.approx(exact.ev_basic, abs=1e-12)
    assert exact.outcomes_optimal is not None
    assert exact.outcomes_optimal[-4.0] > 0 and exact.outcomes_optimal[4.0] > 0  # double both
    assert any("exact, splits into two hands included" in note for note in exact.notes)


def test_resplit_rules_report_the_mass_they_approximate() -> None:
    from twentyone.analysis.context import Context
    from twentyone.analysis.outcomes import round_outcomes

    rules = load_rules("6D S17 DAS SPL3 NS")
    got = round_outcomes(Context.of(rules, 1, None), True)
    # a split draws a third pair card about one time in seven: 0.26% of rounds (the note's)
    assert 1e-3 < got.resplit_mass < 1e-2
    notes = analyze(rules).notes
    assert any(f"probability {got.resplit_mass:.3g}" in note for note in notes)
    once = Context.of(load_rules("6D S17 DAS SPL1 NS"), 1, None)
    assert round_outcomes(once, True).resplit_mass == 0


def test_hands_distribution_counts_the_expected_hands() -> None:
    for most, pairs, cards in ((3, 22.0, 307.0), (4, 2.0, 49.0), (16, 22.0, 307.0)):
        dist = hands_distribution(most, pairs, cards)
        assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
        w_np, w_any = split_weights(most, pairs, cards)
        # expected hands of each kind agree with the independent chain of split_weights
        assert sum(p * (k - m) for (k, m), p in dist.items()) == pytest.approx(
            sum(w_np.values()), abs=1e-12
        )
        assert sum(p * m for (_, m), p in dist.items()) == pytest.approx(w_any, abs=1e-12)


def test_cli_edge_json_has_the_distributions() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "edge", "pt-casino", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    for key in ("outcomes_optimal", "outcomes_basic"):
        pairs = data[key]
        assert all(len(x) == 2 for x in pairs)
        assert sum(p for _, p in pairs) == pytest.approx(1.0, abs=1e-12)
        assert [net for net, _ in pairs] == sorted(net for net, _ in pairs)
    assert data["sd_basic"] > 1.0 and data["sd_optimal"] > 1.0
    nets = {net for net, _ in data["outcomes_basic"]}
    assert {1.5, -0.5, 4.0} <= nets  # blackjack, surrender, the 6-7-8 bonus on a doubled hand


def test_a_shoe_that_can_run_out_with_no_pair_card_left_splits_without_error() -> None:
    # twos split against a two with no two left: no third hand, and the two-hand rounds
    # that run out of cards are missing (this divided by zero before)
    got = analyze(load_rules("1D S17 DAS SPL3 NS"), shoe=(2, 3, 2, 1, 3, 1, 1, 0, 1, 11))
    assert got.outcomes_optimal is not None
    assert 0.99 < sum(got.outcomes_optimal.values()) <= 1.0 + 1e-12


def test_resplit_figures_do_not_depend_on_what_was_computed_before() -> None:
    # the rounds reaching three hands read dealer rows cached by earlier analyses: a process
    # that computed more of them (a long-running server, a test suite) must get the same bits
    from twentyone.analysis import clear_caches
    from twentyone.analysis.context import UPS, Context, up_dists
    from twentyone.analysis.shoe_counts import removed_sets

    rules = load_rules("6D S17 DAS SPL3 NS")
    clear_caches(tables=True)
    first = analyze(rules).to_json()
    clear_caches(tables=True)
    ctx = Context.of(rules)
    everything = removed_sets(ctx.decks, ctx.hands_by_pair).where.reshape(-1)
    for up in UPS:  # every dealer row of every set of cards out, computed beforehand
        up_dists(ctx, up).ensure(everything)
    again = analyze(rules).to_json()
    first.pop("seconds")
    again.pop("seconds")
    assert again == first


def test_kept_resplit_rounds_give_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rounds of three hands or more are kept between the optimum and the chart
    (``outcomes._more_hands``): each up card's distributions are those computed afresh for
    every split, bit for bit, and the optimum and the chart do share some."""
    from twentyone.analysis import clear_caches, outcomes
    from twentyone.analysis.context import Context
    from twentyone.analysis.resplit import more_hands

    ctx = Context.of(load_rules("6D S17 DAS SPL3 NS"), 1, None)
    calls: list[int] = []

    def counted(*args: object) -> object:
        calls.append(1)
        return more_hands(*args)  # type: ignore[arg-type]

    def parts() -> list[tuple[bytes, float]]:
        clear_caches()
        got = [outcomes.up_outcomes(ctx, up, opt) for up in (5, 9) for opt in (True, False)]
        return [(g.main.tobytes(), g.resplit) for g in got]

    monkeypatch.setattr(outcomes, "more_hands", counted)
    kept = parts()
    computed = len(calls)
    assert len(outcomes._mores(ctx)) == computed > 0
    monkeypatch.setattr(outcomes, "_more_hands", counted)  # no keeping: one call each
    calls.clear()
    fresh = parts()
    assert len(calls) > computed  # the optimum and the chart shared some
    assert kept == fresh
