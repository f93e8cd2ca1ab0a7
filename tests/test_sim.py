"""The simulator around the kernel: shoes, seeds and workers, Ray, the exact value, the CLI.

(Round-by-round agreement of the kernel with the engine is in ``test_sim_agreement.py``.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from twentyone import Rules, load_rules
from twentyone.engine.errors import TwentyOneError
from twentyone.engine.strategy import Strategy
from twentyone.sim.encode import (
    C_DH,
    C_P,
    C_S,
    encode_rules,
    encode_strategy,
    max_cards,
    resolve_table,
)
from twentyone.sim.kernel import record_rounds_kernel
from twentyone.sim.runner import CHUNK, chunk_states, simulate
from twentyone.sim.textbook import textbook_6d_s17_das

BOOK = textbook_6d_s17_das()


def record(rules: Rules, rounds: int, seed: int = 1) -> list[list[int]]:
    """Each round's cards, as the kernel dealt them."""
    p, f = encode_rules(rules)
    hard, soft, pairs = encode_strategy(BOOK)
    cards = np.zeros((rounds, max_cards(rules, 1)), dtype=np.uint8)
    ncards = np.zeros(rounds, dtype=np.int64)
    money = np.zeros(rounds)
    state = chunk_states(seed, 1)[0]
    chart = (hard, soft, pairs, resolve_table())
    record_rounds_kernel(rounds, 1, (p, f), chart, state, (cards, ncards, money))
    return [list(cards[i, : ncards[i]]) for i in range(rounds)]


def test_the_chart_is_encoded_cell_by_cell() -> None:
    hard, soft, pairs = encode_strategy(BOOK)
    # hard 11 doubles against T, hits against A; soft 18 stands on 2, doubles on 3
    assert hard[11, 8] == C_DH and hard[11, 9] == 0
    assert soft[18, 0] == C_S and soft[18, 1] == BOOK.soft[18].index("Ds") + 2
    # 9-9 splits against 8 and stands against 7; totals under 4 read the 4 row
    assert pairs[9, 6] == C_P and pairs[9, 5] == C_S
    assert (hard[2] == hard[4]).all()


def test_a_cut_card_shoe_deals_each_card_once_until_the_cut_card() -> None:
    """One deck, cut card at 3/4 (39 cards): a new shoe starts with the first round after the
    39th card, and until then no card comes twice."""
    rules = load_rules("1D PEN0.75")
    shoes = 0
    seen: set[int] = set()
    dealt = 0
    for cards in record(rules, 3000):
        if dealt >= 39:
            seen, dealt, shoes = set(), 0, shoes + 1
        for c in cards:
            if dealt == 52:  # a round that empties the shoe reshuffles it, as the engine does
                seen, dealt = set(), 0
            assert c not in seen
            seen.add(c)
            dealt += 1
    assert shoes > 300


def test_a_continuous_shuffle_deals_from_a_full_shoe_every_round() -> None:
    """Each round's cards are distinct (one deck), and the first card is uniform over the 52
    (chi-square with 51 degrees of freedom: 99.99th percentile 100.9)."""
    rounds = record(load_rules("1D CSM"), 52_000)
    assert all(len(set(r)) == len(r) for r in rounds)
    counts = np.bincount([r[0] for r in rounds], minlength=52)
    chi2 = float(((counts - 1000.0) ** 2 / 1000.0).sum())
    assert chi2 < 100.9


def test_the_kernels_totals_are_the_sums_of_its_rounds_money() -> None:
    """Both entry points return the sum and the sum of squares of the rounds' money (a round
    variable shadowing the run's sum once made them differ while every round agreed)."""
    from twentyone.sim.kernel import play_rounds_kernel

    rules = load_rules("6D S17 DAS")
    p, f = encode_rules(rules)
    chart = (*encode_strategy(BOOK), resolve_table())
    n = 5000
    cards = np.zeros((n, max_cards(rules, 1)), dtype=np.uint8)
    ncards = np.zeros(n, dtype=np.int64)
    money = np.zeros(n)
    total, squares = record_rounds_kernel(
        n, 1, (p, f), chart, chunk_states(3, 1)[0], (cards, ncards, money)
    )
    assert total == pytest.approx(money.sum()) and squares == pytest.approx((money**2).sum())
    assert (money != 0).sum() > n // 2 and money.sum() != 0
    assert play_rounds_kernel(n, 1, (p, f), chart, chunk_states(3, 1)[0]) == (total, squares)


def test_results_depend_on_the_seed_not_on_the_workers() -> None:
    rules = load_rules("6D S17 DAS SPL1 NS CSM")
    rounds = 2 * CHUNK + 12_345
    one = simulate(rules, rounds, seed=42, workers=1, strategy=BOOK)
    two = simulate(rules, rounds, seed=42, workers=2, strategy=BOOK)
    other = simulate(rules, rounds, seed=43, workers=2, strategy=BOOK)
    assert (one.total, one.squares) == (two.total, two.squares)
    assert (one.total, one.squares) != (other.total, other.squares)
    assert one.rounds == rounds and -0.02 < one.ev < 0.01
    lo, hi = one.ci95
    assert lo < one.ev < hi and hi - lo == pytest.approx(2 * 1.959964 * one.stderr)


def test_a_local_ray_gives_the_same_totals() -> None:
    ray = pytest.importorskip("ray")
    rules = load_rules("ro-casino")
    rounds = CHUNK + 777
    here = simulate(rules, rounds, seed=5, workers=1, strategy=BOOK)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        there = simulate(rules, rounds, seed=5, strategy=BOOK, address="auto")
    finally:
        ray.shutdown()
    assert (here.total, here.squares) == (there.total, there.squares)


def test_without_ray_the_address_option_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(TwentyOneError, match=r"twentyone\[cluster\]"):
        simulate(load_rules("6D"), 10, address="auto", strategy=BOOK)


def test_basic_strategy_lands_near_the_exact_value_with_a_continuous_shuffle() -> None:
    """The issue's check: simulated basic strategy within a few standard errors of the exact
    analysis (4 million rounds: a standard error of about 0.06%)."""
    analysis = pytest.importorskip("twentyone.analysis")
    rules = load_rules("6D S17 DAS SPL1 NS CSM")
    chart = analysis.basic_strategy(rules)
    exact = analysis.analyze(rules).ev_basic
    res = simulate(rules, 4_000_000, seed=2024, workers=2, strategy=chart)
    z = res.z(exact)
    assert z is not None and abs(z) < 4, (res.ev, exact, res.stderr)


# ---------------------------------------------------------------- the command line
def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_simulate_json_has_the_documented_shape() -> None:
    out = cli("6D S17 CSM", "--rounds", "20000", "--seed", "3", "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {
        "rounds", "ev", "stderr", "ci95", "sd", "rounds_per_second", "exact_ev", "z"
    }  # fmt: skip
    assert data["rounds"] == 20000
    lo, hi = data["ci95"]
    assert lo < data["ev"] < hi
    assert 1.0 < data["sd"] < 1.3 and data["stderr"] == pytest.approx(data["sd"] / 20000**0.5)
    if data["exact_ev"] is not None:
        assert data["z"] == pytest.approx((data["ev"] - data["exact_ev"]) / data["stderr"])
    # the same seed, the same result
    again = json.loads(
        cli("6D S17 CSM", "--rounds", "20000", "--seed", "3", "--workers", "2", "--json").stdout
    )
    assert again["ev"] == data["ev"]


def test_simulate_compares_with_the_exact_return_only_when_known_or_asked(
    tmp_path: Path,
) -> None:
    # issue 26 item 6: simulate goes straight to its kernel; the exact return is shown when
    # `edge` kept it (no analysis run for it) or with --exact, never computed on the way
    rules, run = "6D S17 CSM", ["--rounds", "20000", "--seed", "3", "--workers", "1"]
    plain = cli(rules, *run, "--json")
    assert plain.returncode == 0, plain.stderr
    data = json.loads(plain.stdout)
    assert data["exact_ev"] is None and data["z"] is None
    text = cli(rules, *run)
    assert "exact        not computed (--exact computes it" in text.stdout
    from twentyone.analysis import analyze

    exact = float(analyze(load_rules(rules), outcomes=False).ev_basic)
    asked = json.loads(cli(rules, *run, "--exact", "--json").stdout)
    assert asked["exact_ev"] == exact and asked["ev"] == data["ev"]
    assert asked["z"] == pytest.approx((asked["ev"] - exact) / asked["stderr"])
    # kept by edge: read back, with nothing computed for it
    env = dict(os.environ, TWENTYONE_CACHE_DIR=str(tmp_path))
    edge = [sys.executable, "-m", "twentyone.cli", "edge", rules, "--json"]
    kept = json.loads(subprocess.run(edge, capture_output=True, text=True, env=env).stdout)
    sim = [sys.executable, "-m", "twentyone.cli", "simulate", rules, *run, "--json"]
    out = subprocess.run(sim, capture_output=True, text=True, env=env, timeout=300)
    assert json.loads(out.stdout)["exact_ev"] == kept["ev_basic"]


def test_simulate_text_report_and_a_strategy_file(tmp_path: Path) -> None:
    chart = tmp_path / "stand.json"
    chart.write_text(json.dumps(Strategy.uniform("S").to_dict()))
    out = cli("pl-online", "--rounds", "5000", "--seed", "1", "--strategy", str(chart))
    assert out.returncode == 0, out.stderr
    assert "uniform S" in out.stdout and "95% interval" in out.stdout
    assert "exact        not available" in out.stdout  # a chart of one's own has no exact value


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["6D", "--rounds", "0"], "--rounds 0"),
        (["6D", "--rounds", "lots"], "'lots'"),
        (["pl-online", "--rounds", "10", "--boxes", "4"], "--boxes 4"),
        (["6D", "--rounds", "10", "--workers", "0"], "--workers 0"),
        (["6D XYZ", "--rounds", "10"], "'XYZ'"),
        (["6D", "--rounds", "10", "--strategy", "no-such.json"], "no-such.json"),
    ],
)
def test_a_bad_argument_exits_2_naming_it(args: list[str], named: str) -> None:
    out = cli(*args)
    assert out.returncode == 2
    assert named in out.stderr


def test_a_first_simulate_is_announced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 12 item 7: while the simulator compiles, the user is told so and for how long
    import io

    from twentyone.analysis import analyze, warmup
    from twentyone.cli import main
    from twentyone.sim.kernel import flat_kernel
    from twentyone.sim.runner import compile_notice, warm_up

    warm_up()
    analyze(load_rules("1D S17 NS"), outcomes=False)
    # every kernel it uses has a cache file
    assert not warmup.compile_pending("simulate", extra=(flat_kernel,))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # an empty cache: all to compile
    assert warmup.compile_pending("simulate", extra=(flat_kernel,))
    out = io.StringIO()
    assert compile_notice(out)
    assert out.getvalue().strip() == warmup.NOTICE_SIMULATE
    assert "simulator" in warmup.NOTICE_SIMULATE and " s on " in warmup.NOTICE_SIMULATE
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(
        warmup, "compile_pending", lambda command="analysis", resplits=True, extra=(): True
    )
    assert main(["simulate", "1D S17 NS", "--rounds", "1000", "--workers", "1", "--seed", "1"]) == 0
    assert err.getvalue().splitlines()[0] == warmup.NOTICE_SIMULATE


def test_a_shipped_chart_waits_for_no_analysis_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 26 item 6: simulate goes straight to its kernel; with a chart shipped (ro-casino)
    # the analysis that derives one never compiles, so its kernels' absence from numba's
    # cache is no reason for the notice (it was told on every run until an `edge`)
    import io

    from twentyone.analysis import warmup
    from twentyone.cli import main
    from twentyone.sim import command
    from twentyone.sim.runner import compile_notice

    analysis = {k.py_func.__name__ for k in warmup._chart_kernels()}
    monkeypatch.setattr(warmup, "kernel_cached", lambda k: k.py_func.__name__ not in analysis)
    assert compile_notice(io.StringIO(), chart=False) is False  # the simulator's is cached
    assert compile_notice(io.StringIO(), chart=True) is True
    assert compile_notice(io.StringIO(), exact=True, chart=False) is True  # --exact: analysis
    told: list[str] = []
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)

    def run(*args: object, **kw: object) -> int:
        told.append(err.getvalue())  # what was said before the simulation began
        return 0

    monkeypatch.setattr(command, "run", run)
    assert main(["simulate", "ro-casino", "--rounds", "10"]) == 0  # a shipped chart
    assert main(["simulate", "1D S17 NS", "--rounds", "10"]) == 0  # a chart to derive
    assert told[0] == ""
    assert told[1].strip() == warmup.NOTICE_SIMULATE


def test_a_first_run_compiles_the_kernel_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    # the kernel compiles in another process (writing numba's cache) while this one works
    from twentyone.analysis import warmup
    from twentyone.sim import runner
    from twentyone.sim.kernel import flat_kernel

    runner.warm_up()
    assert warmup.kernel_cached(flat_kernel)
    assert runner.compile_aside() is None  # cached: nothing to do
    monkeypatch.setattr(warmup, "kernel_cached", lambda kernel: False)
    helper = runner.compile_aside()
    assert helper is not None
    helper.join(timeout=120)
    assert helper.exitcode == 0


# ---------------------------------------------------------------- long runs (issue 29, item 4)
def test_a_run_longer_than_a_day_is_refused_with_its_limit() -> None:
    from twentyone.sim.runner import BOX_ROUNDS_A_CORE_DAY, check_arguments, most_rounds

    rules = load_rules("6D S17 CSM")
    check_arguments(rules, BOX_ROUNDS_A_CORE_DAY, 1, 1)  # a day on one core: taken
    assert most_rounds(2, 4) == 2 * BOX_ROUNDS_A_CORE_DAY  # 4 cores, each round two boxes
    for rounds, boxes, workers in ((10**20, 1, 2), (10**12 + 1, 1, 1), (6 * 10**11, 2, 1)):
        with pytest.raises(TwentyOneError) as err:
            check_arguments(rules, rounds, boxes, workers)
        assert err.value.code == "sim-rounds-day"
        assert err.value.params == {"rounds": rounds, "most": most_rounds(boxes, workers)}
    # the command refuses at once, naming the limit (it used to run forever)
    out = cli("6D S17 CSM", "--rounds", str(10**20), "--workers", "2", "--json")
    assert out.returncode == 2 and out.stdout == ""
    assert f"expected at most {2 * BOX_ROUNDS_A_CORE_DAY}" in out.stderr


def test_the_chunks_are_made_as_they_are_needed() -> None:
    # a run of a million chunks does not seed them all before the first one plays
    from twentyone.sim.tasks import make_tasks

    tasks = make_tasks(load_rules("6D"), BOOK, 10**12, 1, 9)
    assert len(tasks) == 10**6 and tasks[-1].index == 10**6 - 1
    few = make_tasks(load_rules("6D"), BOOK, 3 * CHUNK + 5, 1, 9)
    assert [t.rounds for t in few] == [CHUNK, CHUNK, CHUNK, 5]
    assert all((t.state == s).all() for t, s in zip(few, chunk_states(9, 4), strict=True))


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_a_run_with_the_rounds_played(workers: int) -> None:
    from twentyone.sim.runner import Interrupted

    rules = load_rules("6D S17 CSM")
    seen: list[int] = []

    def ctrl_c_after_three_chunks(rounds: int) -> None:
        seen.append(rounds)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stop:
        simulate(rules, 50 * CHUNK, seed=4, workers=workers, strategy=BOOK,
                 progress=ctrl_c_after_three_chunks)  # fmt: skip
    part = stop.value.result
    assert part is not None and part.interrupted and part.rounds == 3 * CHUNK
    assert part.to_dict()["interrupted"] is True and part.to_dict()["rounds"] == 3 * CHUNK
    if workers == 1:  # the first three chunks: a run of three chunks with this seed
        whole = simulate(rules, 3 * CHUNK, seed=4, workers=1, strategy=BOOK)
        assert (part.total, part.squares) == (whole.total, whole.squares)
        assert "interrupted" not in whole.to_dict()


def test_an_interrupted_command_prints_what_it_played_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from twentyone.sim import command
    from twentyone.sim.runner import Interrupted, SimResult

    part = SimResult(2 * CHUNK, 1, -9000.0, 2.6e6, 0.5, 7, 2, interrupted=True)

    def stopped(*args: object, **kwargs: object) -> SimResult:
        raise Interrupted(part)

    monkeypatch.setattr(command, "simulate", stopped)
    rules = load_rules("6D S17 CSM")
    assert command.run(rules, rounds=10**9, seed=7, workers=2, as_json=True) == 130
    out = capsys.readouterr()
    assert json.loads(out.out) == {**part.to_dict(), "interrupted": True}
    assert "interrupted: 2,000,000 of 1,000,000,000 rounds played" in out.err
    assert command.run(rules, rounds=10**9, seed=7, workers=2) == 130
    assert "2,000,000 x 1 box, seed 7 (interrupted" in capsys.readouterr().out


def test_the_progress_bar_shows_rate_and_time_left_after_two_seconds() -> None:
    import io

    from rich.console import Console

    from twentyone.sim.command import BAR_AFTER, ProgressBar

    now = [0.0]
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    bar = ProgressBar(100 * CHUNK, console=console, clock=lambda: now[0])
    now[0] = BAR_AFTER - 0.5
    bar(CHUNK)  # a short run prints nothing
    assert bar.bar is None and screen.getvalue() == ""
    now[0] = BAR_AFTER + 0.5
    bar(CHUNK)
    now[0] = BAR_AFTER + 1.5
    bar(8 * CHUNK)
    assert bar.bar is not None
    bar.bar.refresh()
    shown = screen.getvalue()
    assert "10,000,000/100,000,000" in shown or "10000000/100000000" in shown
    assert "2.86 M rounds/s" in shown  # 10 million rounds in 3.5 seconds
    assert "0:00:12" in shown  # the time left: 90 million rounds at 8 million a second
    bar.close()
    assert bar.bar is None
