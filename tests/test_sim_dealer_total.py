"""Charts by the dealer's two-card total (Double Exposure, ``Rules.hole_card_up``): the engine
reads the column of both face-up dealer cards, the simulator's kernel the same column, and
``simulate double-exposure`` plays the exact analysis's chart by dealer total against its exact
return. (The kernel's agreement with the engine round by round is in
tests/test_sim_agreement.py.)"""

from __future__ import annotations

import json

import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules
from twentyone.engine.errors import RulesError, TwentyOneError
from twentyone.engine.strategy import (
    DEALER_TOTALS,
    HARD_TOTALS,
    PAIR_VALUES,
    SOFT_TOTALS,
    Strategy,
    decide,
)
from twentyone.sim.encode import encode_strategy, strategy_from_dict

DE = load_rules("double-exposure")


def _stand_on_column(column: str) -> Strategy:
    """A chart by dealer total hitting everything but standing against ``column``."""
    row = tuple("S" if c == column else "H" for c in DEALER_TOTALS)
    return Strategy(
        name=f"stand against {column}",
        hard=dict.fromkeys(HARD_TOTALS, row),
        soft=dict.fromkeys(SOFT_TOTALS, row),
        pairs=dict.fromkeys(PAIR_VALUES, ("H",) * len(DEALER_TOTALS)),
        columns=DEALER_TOTALS,
    )


@pytest.mark.parametrize(
    ("cards", "decision"),
    [
        ("TS 9H 6D 7C", "stand"),  # the dealer's 9-7 is 16: the column "16" stands
        ("TS TH 6D 6C", "stand"),  # T-6 is 16 too: the same column, whatever the up card
        ("TS 9H 6D 8C", "hit"),  # 9-8 is 17: another column (an up-card chart saw 9 both)
        ("TS 5H 6D AC", "hit"),  # 5-A is soft 16, the column "A,5", not hard 16
    ],
)
def test_a_chart_by_dealer_total_reads_both_dealer_cards(cards: str, decision: str) -> None:
    rnd = Round(DE, StackedShoe(cards), [BoxBet("ann", 100)])
    assert decide(_stand_on_column("16"), rnd) == decision


def test_a_soft_dealer_total_has_its_own_column() -> None:
    rnd = Round(DE, StackedShoe("TS 5H 6D AC"), [BoxBet("ann", 100)])
    assert decide(_stand_on_column("A,5"), rnd) == "stand"


def test_a_chart_by_dealer_total_is_refused_where_the_hole_card_is_down() -> None:
    rules = load_rules("6D S17 DAS SPL1 NS")
    rnd = Round(rules, StackedShoe("TS 9H 6D 7C"), [BoxBet("ann", 100)])
    with pytest.raises(TwentyOneError) as err:
        decide(_stand_on_column("16"), rnd)
    assert err.value.code == "strategy-dealer-total"


def test_the_simulator_refuses_a_chart_by_dealer_total_with_the_hole_card_down() -> None:
    from twentyone.sim.runner import simulate

    with pytest.raises(RulesError) as err:
        simulate(load_rules("6D S17 DAS SPL1 NS"), 1000, strategy=_stand_on_column("16"))
    assert "hole_card_up=False" in str(err.value)


def test_the_counting_simulation_refuses_a_chart_by_dealer_total() -> None:
    from twentyone.counting.counts import load_count
    from twentyone.counting.ramp import parse_ramp
    from twentyone.counting.sim_runner import CountSetup, kernel_inputs

    setup = CountSetup(system=load_count("hilo"), ramp=parse_ramp("0:1"))
    with pytest.raises(RulesError) as err:
        kernel_inputs(DE, _stand_on_column("16"), setup)
    assert "hole_card_up=True" in str(err.value)


def test_a_chart_by_dealer_total_is_encoded_26_columns_wide() -> None:
    hard, soft, pairs = encode_strategy(_stand_on_column("A,9"))
    assert hard.shape == (22, 26) and soft.shape == (22, 26) and pairs.shape == (11, 26)
    assert int(hard[16, DEALER_TOTALS.index("A,9")]) == 1 and int(hard[16, 0]) == 0


def test_a_chart_by_dealer_total_round_trips_through_json() -> None:
    chart = _stand_on_column("12")
    assert strategy_from_dict(json.loads(json.dumps(chart.to_dict()))) == chart
    assert "upcards" not in chart.to_dict()


def test_the_strategy_commands_json_is_a_chart_the_simulator_reads() -> None:
    """``twentyone strategy double-exposure --format json`` is a ``--strategy`` file."""
    from twentyone.analysis.exposed_chart import dealer_total_chart

    exposed = dealer_total_chart(DE)
    chart = strategy_from_dict(json.loads(exposed.to_json()))
    assert chart.by_dealer_total and chart.hard == exposed.strategy().hard
    assert chart.pairs == exposed.strategy().pairs


def test_simulated_rounds_agree_with_the_exact_return_of_the_chart_by_total() -> None:
    """3 million seeded rounds (a fresh shoe each, as the exact analysis prices a round) of the
    chart by dealer total lie within 4 standard errors (about 0.00067 each) of its exact
    return, -1.1494%."""
    from twentyone.analysis.exposed_chart import dealer_total_chart
    from twentyone.sim.runner import simulate

    rules = DE.replace(shuffle="continuous")
    exposed = dealer_total_chart(rules)
    assert exposed.ev == pytest.approx(-0.011494, abs=5e-7)
    sim = simulate(rules, 3_000_000, seed=5, workers=2, strategy=exposed.strategy())
    assert abs(sim.ev - exposed.ev) < 4 * sim.stderr, (exposed.ev, sim.ev, sim.stderr)


def test_simulate_double_exposure_plays_the_chart_by_total_against_its_exact_return(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from twentyone.sim.command import run

    assert run(DE, rounds=20_000, seed=3, workers=1) == 0
    out = capsys.readouterr()
    assert "note" not in out.err
    assert "strategy     double-exposure: by the dealer's two-card total" in out.out
    assert "exact        -1.1494% (result lies" in out.out
