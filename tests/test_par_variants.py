"""PAR sheets of the variants whose round distribution is simulated (Free Bet, Blackjack
Switch, Double Exposure; Spanish 21 refused by name while the simulator refuses its doubles):
the returns are the analysis's, the distribution is the simulator's, each labelled so.

The simulated means are held to within 4 standard errors of the exact return. The seeds are
fixed, so each check is deterministic; were the seed drawn at random, a right simulation
would fail it once in about 16,000 runs (the normal's two-sided tail beyond 4), while the
faults it is there to catch move the mean by far more: a free double won paying +1 instead
of +2 moves it by about P(free double won), some 5% of rounds, against a standard error of
0.08% at a million rounds.
"""

from __future__ import annotations

import html
import json
import subprocess
import sys
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from twentyone import load_rules
from twentyone.analysis import analyze
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy
from twentyone.reports.par import Z90, par_sheet, render
from twentyone.reports.par_variants import BOUND, EXACT, SIMULATED, variant_sheet
from twentyone.sim.encode import (
    CARD_VALUE,
    SIM_REFUSES,
    encode_rules,
    encode_strategy,
    max_cards,
    resolve_table,
)
from twentyone.sim.histogram import net_histogram
from twentyone.sim.kernel import record_rounds_kernel
from twentyone.sim.runner import simulate
from twentyone.sim.tasks import chunk_states
from twentyone.sim.textbook import chart_for

ROUNDS = 1_000_000


@pytest.fixture(scope="module")
def sheets() -> dict[str, dict[str, Any]]:
    return {
        name: variant_sheet(load_rules(name), rounds=ROUNDS, seed=5)
        for name in ("free-bet", "switch", "double-exposure")
    }


def check_distribution(sheet: dict[str, Any]) -> None:
    """What every variant sheet holds: the outcomes sum to 1 and their mean is the
    simulation's; the frequencies partition the rounds; the volatility index is 1.645 sd;
    the simulated mean is within 4 standard errors of the exact return."""
    probs = [o["probability"] for o in sheet["outcomes"]]
    assert sum(probs) == pytest.approx(1.0, abs=1e-12)
    mean = sum(o["contribution"] for o in sheet["outcomes"])
    sim = sheet["simulation"]
    assert mean == pytest.approx(sim["ev"], abs=1e-12)
    assert sheet["hit_frequency"] + sheet["push_frequency"] + sheet["loss_frequency"] == (
        pytest.approx(1.0, abs=1e-12)
    )
    assert sheet["volatility_index_90"] == pytest.approx(Z90 * sheet["sd"])
    assert abs(sim["ev"] - (sheet["return_to_player"] - 1.0)) < 4 * sim["stderr"], sim
    assert sim["rounds"] == ROUNDS and sheet["sources"]["outcomes"] == SIMULATED
    assert sheet["max_loss_seen"] >= sheet["max_loss"] and sheet["max_win_seen"] <= sheet["max_win"]
    assert sheet["sources"]["max_win"] == BOUND
    assert not any(n.startswith("sd:") for n in sheet["notes"])  # the analysis's sd unpriced


def record(rules: Rules, chart: Strategy, rounds: int, seed: int) -> tuple[Any, Any, Any]:
    """``rounds`` rounds of one box from a full shoe each, with their cards and money."""
    rules = replace(rules, shuffle="continuous")
    p, f = encode_rules(rules)
    hard, soft, pairs = encode_strategy(chart)
    width = max_cards(rules, 1)
    cards = np.zeros((rounds, width), dtype=np.uint8)
    ncards = np.zeros(rounds, dtype=np.int64)
    money = np.zeros(rounds, dtype=np.float64)
    tables = (hard, soft, pairs, resolve_table())
    rng = chunk_states(seed, 1)[0]
    record_rounds_kernel(rounds, 1, (p, f), tables, rng, (cards, ncards, money))
    return cards, ncards, money


def best(values: list[int]) -> int:
    total = sum(values)
    return total + 10 if 1 in values and total <= 11 else total


def test_free_bet_sheet_returns_the_exact_edge_and_simulates_the_rest(sheets: Any) -> None:
    sheet = sheets["free-bet"]
    report = analyze(load_rules("free-bet"), outcomes=False)
    assert sheet["return_to_player"] == 1.0 + report.ev_basic
    assert sheet["house_edge"] == -report.ev_basic
    assert sheet["sources"]["return_to_player"] == EXACT
    assert sheet["side_bets"]["push-22"]["return"] == report.side_bets["push-22"]["return"]
    check_distribution(sheet)
    # four hands (max_hands), each a double won: 2 a hand, free stakes paid like the player's
    assert sheet["max_win"] == 4 * 2 and sheet["max_loss"] == -8
    # a dealer's 22 pushes every standing hand: far more pushes than a classic table's 8-9%
    assert sheet["push_frequency"] > 0.12


def test_free_bet_a_free_double_won_nets_two_units_on_one_staked() -> None:
    """Rounds of a hard 9 to 11 dealt (no pair, no dealer blackjack), which the chart
    doubles for free against every up card: the money is +2 when the hand's total beats the
    dealer's or the dealer busts past 22, 0 at a tie or a dealer's 22, -1 (the player's one
    unit) otherwise."""
    rules = load_rules("free-bet")
    chart = chart_for(rules)[0]
    assert all(
        chart.code(total=t, soft=False, up=u) == "Dh" for t in (9, 10, 11) for u in "23456789TA"
    )
    cards, ncards, money = record(rules, chart, 20000, 3)
    seen = set()
    for r in range(len(money)):
        p1, up, p2, hole = (int(CARD_VALUE[c]) for c in cards[r, :4])
        if p1 == p2 or 1 in (p1, p2) or not 9 <= p1 + p2 <= 11 or best([up, hole]) == 21:
            continue
        player = best([p1, p2, int(CARD_VALUE[cards[r, 4]])])
        dealer = best([up, hole, *(int(CARD_VALUE[c]) for c in cards[r, 5 : ncards[r]])])
        if dealer == 22:
            want = 0.0
        elif dealer > 22 or player > dealer:
            want = 2.0
        else:
            want = 0.0 if player == dealer else -1.0
        assert money[r] == want, (r, cards[r, : ncards[r]], money[r])
        seen.add(want)
    assert seen == {2.0, 0.0, -1.0}


def test_switch_sheet_is_per_hand_of_a_pair_and_labels_the_approximation(sheets: Any) -> None:
    sheet = sheets["switch"]
    report = analyze(load_rules("switch"), boxes=2, outcomes=False)
    assert sheet["return_to_player"] == 1.0 + report.ev_basic
    assert sheet["sources"]["return_to_player"].startswith("analysis")  # not "exact"
    assert sheet["simulation"]["boxes"] == 2
    check_distribution(sheet)
    # blackjack pays even money and every stake is whole units: the pair's money is a whole
    # number, its net per initial bet a multiple of 1/2 (a 3:2 blackjack would make 0.75)
    assert all((2 * o["net"]).is_integer() for o in sheet["outcomes"])
    assert any(o["net"] == 0.5 for o in sheet["outcomes"])  # one hand won, the other pushed
    assert sheet["max_win"] == 8  # per initial bet: 2 boxes x 4 hands x 2, over 2 bets


def test_double_exposure_sheet_prices_the_chart_it_simulates(sheets: Any) -> None:
    from twentyone.analysis.exposed_chart import dealer_total_chart

    rules = load_rules("double-exposure")
    sheet = sheets["double-exposure"]
    assert sheet["return_to_player"] == 1.0 + dealer_total_chart(rules).ev
    assert sheet["return_per_start_chart"] == 1.0 + analyze(rules, outcomes=False).ev_basic
    assert sheet["sources"]["return_to_player"] == EXACT
    check_distribution(sheet)
    assert sheet["max_win"] == 4 and sheet["max_loss"] == -4  # one split: two doubled hands
    assert 1.5 not in {o["net"] for o in sheet["outcomes"]}  # blackjack pays even money


def test_double_exposure_only_a_split_round_nets_zero() -> None:
    """The dealer wins ties and a tie of blackjacks goes to the player: a round that is not
    split never pushes."""
    rules = load_rules("double-exposure")
    cards, _, money = record(rules, chart_for(rules)[0], 20000, 4)
    p1, p2 = CARD_VALUE[cards[:, 0]], CARD_VALUE[cards[:, 2]]
    assert not (money[p1 != p2] == 0.0).any()
    assert (money[p1 == p2] == 0.0).any()  # split hands, one won and one lost


def test_spanish_21_is_refused_by_the_field_the_simulator_lacks() -> None:
    """While the simulator refuses a field Spanish 21 sets, ``par`` refuses it naming that
    field; once it plays them all, the sheet's distribution is whole."""
    rules = load_rules("spanish-21")
    lacking = [f for f, (played, _) in SIM_REFUSES.items() if getattr(rules, f) != played]
    if lacking:
        with pytest.raises(RulesError, match=f"^{lacking[0]}="):
            par_sheet(rules, rounds=1000)
    else:
        sheet = par_sheet(rules, rounds=100_000)
        assert sum(o["probability"] for o in sheet["outcomes"]) == pytest.approx(1.0)


def test_net_histogram_plays_what_simulate_plays() -> None:
    """The same seed: the same sums as simulate's, and the counts add up to the rounds."""
    rules = load_rules("6D H17 DAS CSM")
    hist = net_histogram(rules, 30000, seed=9)
    sim = simulate(rules, 30000, seed=9)
    assert (hist.total, hist.squares) == (sim.total, sim.squares)
    assert sum(hist.counts.values()) == 30000
    assert hist.result.sd == sim.sd
    mean = sum(net * p for net, p in hist.dist().items())
    assert mean == pytest.approx(sim.ev, abs=1e-12)


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_variant_sheet_formats_label_every_figure(sheets: Any, fmt: str) -> None:
    text = html.unescape(render(sheets["free-bet"], fmt))
    if fmt == "json":
        data = json.loads(text)
        assert data["sources"]["sd"] == SIMULATED and data["stderr"]["sd"] > 0
        return
    assert "98.98" in text and "(exact)" in text and "simulated, 1,000,000 rounds" in text
    assert "standard error" in text and "rules' bound" in text


def test_cli_par_double_exposure() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "par", "double-exposure", "--format", "json",
         "--rounds", "200000", "--seed", "2"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    sheet = json.loads(out.stdout)
    assert sheet["rules"] == "double-exposure" and sheet["simulation"]["rounds"] == 200000
    assert abs(sheet["simulation"]["z"]) < 4
