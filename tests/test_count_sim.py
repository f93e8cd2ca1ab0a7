"""The counting simulation's figures: a flat bettor who counts wins what basic strategy wins, a
continuous shuffler defeats every ramp, the risk-of-ruin formula agrees with simulated ruin,
and the command works on every preset and on shorthand rules.

(Round-by-round agreement with the engine is in ``test_count_agreement.py``.)
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from twentyone import load_rules
from twentyone.counting.counts import load_count
from twentyone.counting.index_set import load_indices
from twentyone.counting.ramp import parse_ramp
from twentyone.counting.sim_runner import CountSetup, simulate_counting
from twentyone.engine.errors import CountError, TwentyOneError
from twentyone.engine.rulesets import PRESETS
from twentyone.sim.runner import simulate
from twentyone.sim.textbook import chart_for

RAMP = "0:1 1:2 2:4 3:8 4:12"


def setup(**kw: object) -> CountSetup:
    base: dict[str, object] = {"system": load_count("hilo"), "ramp": parse_ramp("0:1")}
    base.update(kw)
    return CountSetup(**base)  # type: ignore[arg-type]


def test_a_flat_bettor_who_counts_wins_the_basic_strategy_ev() -> None:
    """Counting changes nothing when the bet never changes: the same rounds as the flat
    simulator (same seeds, same round), so the same money to the last bit, and the exact
    basic-strategy EV within the simulation's error."""
    from twentyone.analysis import analyze

    rules = load_rules("6D S17 DAS")
    rounds = 2_000_000
    counted = simulate_counting(rules, rounds, setup(), seed=11)
    flat = simulate(rules, rounds, seed=11, strategy=chart_for(rules)[0])
    assert counted.acc[0] == flat.total and counted.acc[1] == flat.squares
    exact = float(analyze(rules).ev_basic)
    assert abs(counted.ev - exact) < 4 * counted.stderr, (counted.ev, exact, counted.stderr)
    d = counted.to_dict()
    assert d["avg_bet"] == 1.0 and d["rounds_played"] == rounds
    # the true counts spread around zero, and the edge rises with them (about 0.5% a count)
    rows = {row["tc"]: row for row in d["by_true_count"]}
    assert rows[0]["frequency"] > 0.2 and rows[-1]["frequency"] > 0.1
    assert sum(r["frequency"] for r in rows.values()) == pytest.approx(1.0)
    assert rows[3]["ev"] - rows[-3]["ev"] > 0.02


@pytest.mark.parametrize("count", ["hilo", "ko", "halves"])
def test_no_ramp_gains_at_a_continuous_shuffler(count: str) -> None:
    """A full shoe every round: the count at the bet is always the same, so a 1-12 ramp bets
    one size and wins basic strategy's return per unit, no more."""
    from twentyone.analysis import analyze

    rules = load_rules("6D S17 DAS CSM")
    result = simulate_counting(
        rules,
        1_000_000,
        setup(system=load_count(count), ramp=parse_ramp(RAMP), indices=load_indices("I18")),
        seed=5,
    )
    d = result.to_dict()
    assert len(d["by_true_count"]) == 1  # one true count: the full shoe's
    exact = float(analyze(rules).ev_basic)
    per_unit = d["ev_per_unit"]
    units = d["avg_bet"]
    assert units in (1.0, 12.0)  # the ramp's bet at the full shoe's count, every round
    # I18 moves the return a hair at a full shoe; within the error of the per-unit return
    assert abs(per_unit - exact) < 4 * result.stderr / units + 0.001, (per_unit, exact)
    assert d["score"] is None and d["n0"] is None  # no positive expectation


def test_the_risk_of_ruin_formula_agrees_with_simulated_ruin() -> None:
    """A game the player beats (blackjack pays 2:1) with a ramp: exp(-2 ev B / var) against
    bankroll trips run to ruin or to ten times the bankroll."""
    rules = load_rules("6D S17 DAS BJ2:1")
    result = simulate_counting(
        rules,
        4_000_000,
        setup(ramp=parse_ramp("0:1 2:2 4:4"), bankroll=25.0),
        seed=3,
    )
    ror = result.to_dict()["ror"]
    assert 0.2 < ror["formula"] < 0.8, ror
    assert ror["trips"] > 400, ror
    assert ror["simulated"] == pytest.approx(ror["formula"], abs=0.06), ror
    assert result.to_dict()["ce"] is not None


@pytest.mark.parametrize("spec", [*PRESETS, "6D H17 LS", "2D S17 DAS PEN0.7", "8D OBO ES"])
def test_counting_runs_on_every_preset_and_shorthand(spec: str) -> None:
    rules = load_rules(spec)
    result = simulate_counting(
        rules,
        50_000,
        setup(
            ramp=parse_ramp(RAMP),
            indices=load_indices("I18+FAB4"),
            players=min(3, rules.table_boxes),
            wong_out=-1,
            bankroll=500.0,
        ),
        seed=2,
    )
    d = result.to_dict()
    assert d["rounds"] == 50_000 and 0 < d["rounds_played"] <= 50_000
    assert 1.0 <= d["avg_bet"] <= 12.0
    assert d["ror"]["formula"] <= 1.0


def test_the_table_and_options_are_checked() -> None:
    rules = load_rules("6D S17")
    most = rules.table_boxes
    with pytest.raises(CountError, match=f"--players {most + 1}: .* seats {most} boxes"):
        simulate_counting(rules, 10, setup(players=most + 1))
    with pytest.raises(CountError, match=f"expected 1 to {most - 1} players"):
        simulate_counting(rules, 10, setup(players=most, boxes=2))
    with pytest.raises(CountError, match="--wong-out 2 is above --wong-in 1"):
        simulate_counting(load_rules("6D S17"), 10, setup(wong_in=1, wong_out=2))
    with pytest.raises(CountError, match="--bankroll 0"):
        simulate_counting(load_rules("6D S17"), 10, setup(bankroll=0))
    with pytest.raises(TwentyOneError, match="--rounds 0"):
        simulate_counting(load_rules("6D S17"), 0, setup())


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "simulate", *args],
        capture_output=True,
        text=True,
    )


def test_cli_simulate_count_json() -> None:
    out = run_cli(
        "6D S17 DAS LS",
        "--rounds",
        "200000",
        "--count",
        "hilo",
        "--ramp",
        RAMP,
        "--indices",
        "I18",
        "--wong-in",
        "-1",
        "--players",
        "3",
        "--bankroll",
        "400",
        "--json",
        "--workers",
        "1",
        "--seed",
        "4",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in ("avg_bet", "ev_per_round", "sd_per_round", "win_per_100", "di", "score", "n0"):
        assert key in data
    assert set(data["ror"]) == {"bankroll", "formula", "simulated", "trips", "ceiling"}
    assert data["ce"] is not None and data["indices"] == "I18" and data["players"] == 3
    assert {"tc", "frequency", "played", "ev", "sd"} == set(data["by_true_count"][0])
    text = run_cli(
        "6D S17",
        "--rounds",
        "20000",
        "--count",
        "zen",
        "--ramp",
        "1:1 3:4",
        "--indices",
        "I18",
        "--workers",
        "1",
    )
    assert text.returncode == 0, text.stderr
    assert "count        Zen" in text.stdout and "only a guide" in text.stderr


def test_score_is_schlesinger_s_di_squared() -> None:
    # a counter who plays only at a true count of +2 or more has a positive expectation;
    # SCORE (the win per 100 rounds with a 10,000-unit Kelly bankroll) is then DI squared
    out = run_cli(
        "6D S17 DAS", "--rounds", "200000", "--count", "hilo", "--ramp", "0:0 2:8",
        "--indices", "I18", "--json", "--workers", "1", "--seed", "3",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["ev_per_round"] > 0
    assert data["di"] == pytest.approx(1000 * data["ev_per_round"] / data["sd_per_round"])
    assert data["score"] == pytest.approx(data["di"] ** 2, rel=1e-9)
    assert data["n0"] == pytest.approx((data["sd_per_round"] / data["ev_per_round"]) ** 2)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--ramp", "0:1"], "--ramp needs --count"),
        (["--count", "hilo", "--ramp", "0:1 1:x"], "'1:x'"),
        (["--count", "hilow"], "'hilow'"),
        (["--count", "hilo", "--indices", "missing.json"], "missing.json"),
    ],
)
def test_cli_errors_name_the_bad_value(args: list[str], named: str) -> None:
    out = run_cli("6D S17", "--rounds", "10", *args)
    assert out.returncode != 0 and named in out.stderr and "Traceback" not in out.stderr


def test_indices_full_are_the_generated_set_for_the_rules() -> None:
    from twentyone.counting.index_set import indices_from_data, load_indices
    from twentyone.counting.indices import named_indices
    from twentyone.counting.sim_command import setup_from_options
    from twentyone.engine.rulesets import load_rules

    rules = load_rules("pt-casino")
    setup = setup_from_options(
        rules=rules, count="hilo", ramp=None, indices="full", wong_in=None, wong_out=None,
        players=None, boxes=1, bankroll=None,
    )  # fmt: skip
    generated = indices_from_data(named_indices(rules, "hilo", "FULL"), "FULL")
    assert setup.indices == generated
    assert len(generated) > len(load_indices("I18+FAB4"))  # every decision, not a subset


def test_a_counting_run_longer_than_a_day_is_refused_with_its_limit() -> None:
    # issue 29 item 4: --count with 10^20 rounds seeded every chunk first and never started
    from twentyone.sim.runner import COUNT_BOX_ROUNDS_A_CORE_DAY

    rules = load_rules("6D S17 DAS LS")
    with pytest.raises(TwentyOneError) as err:
        simulate_counting(rules, 10**20, setup(players=3), workers=2)
    assert err.value.code == "sim-rounds-day"
    assert err.value.params["most"] == COUNT_BOX_ROUNDS_A_CORE_DAY * 2 // 3


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_a_counting_run_with_the_rounds_played(workers: int) -> None:
    from twentyone.counting.sim_runner import CountInterrupted
    from twentyone.sim.runner import CHUNK

    rules = load_rules("6D S17 DAS")
    seen: list[int] = []

    def ctrl_c_after_two_chunks(rounds: int) -> None:
        seen.append(rounds)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(CountInterrupted) as stop:
        simulate_counting(rules, 20 * CHUNK, setup(), seed=5, workers=workers,
                          progress=ctrl_c_after_two_chunks)  # fmt: skip
    part = stop.value.result
    assert part is not None and part.interrupted and part.rounds == 2 * CHUNK
    assert part.to_dict()["interrupted"] is True and part.to_dict()["rounds"] == 2 * CHUNK
    if workers == 1:  # the first two chunks: what a run of two chunks with this seed sums
        whole = simulate_counting(rules, 2 * CHUNK, setup(), seed=5, workers=1)
        assert (part.acc == whole.acc).all() and not whole.interrupted


def test_an_interrupted_counting_command_prints_what_it_played_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from twentyone.counting import sim_command
    from twentyone.counting.sim_runner import CountInterrupted
    from twentyone.sim.runner import CHUNK

    rules = load_rules("6D S17 DAS")
    part = simulate_counting(rules, CHUNK, setup(), seed=3, workers=1)
    part = type(part)(**{**part.__dict__, "interrupted": True})

    def stopped(*args: object, **kwargs: object) -> None:
        assert "progress" in kwargs  # the command passes its bar (None off a terminal)
        raise CountInterrupted(part)

    monkeypatch.setattr(sim_command, "simulate_counting", stopped)
    args = {"rounds": 10**8, "seed": 3, "workers": 1}
    assert sim_command.run_counting(rules, setup(), **args, as_json=True) == 130
    out = capsys.readouterr()
    assert json.loads(out.out)["interrupted"] is True
    assert f"interrupted: {CHUNK:,} of 100,000,000 rounds played" in out.err
    assert sim_command.run_counting(rules, setup(), **args, as_json=False) == 130
    assert "seed 3, interrupted" in capsys.readouterr().out
