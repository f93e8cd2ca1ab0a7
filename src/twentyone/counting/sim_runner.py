"""A counting simulation: its setup, chunks and workers, and the figures a counter reads.

The rounds are cut into the flat simulator's chunks (:data:`twentyone.sim.runner.CHUNK`,
seeded the same way), so a result depends only on the setup, the rounds and the seed.
Figures, in units of the ramp (a round the counter sits out counts as a round won nothing):

- ``ev_per_round`` (the mean), ``sd_per_round``, ``win_per_100`` = 100 x the mean;
- ``avg_bet``: units bet a round played (all the counter's boxes); ``ev_per_unit``: the money
  per unit bet;
- ``di`` = 1000 x ev / sd, ``score`` = 1,000,000 x (ev / sd)^2 = di^2 (Schlesinger's SCORE:
  the win per 100 rounds of a Kelly bettor with a 10,000-unit bankroll), ``n0`` = (sd / ev)^2
  (rounds for the expectation to reach one standard deviation), the last two only for a positive ev;
- with ``--bankroll B``: ``ror.formula`` = exp(-2 ev B / sd^2) (the classic approximation of
  a long run's risk of ruin), ``ror.simulated``: bankroll trips started at ``B`` and run until
  ruin (the bankroll at 0 or below) or until it reaches ``ceiling`` = 10 B (where the formula
  says ruin is the formula's risk to the tenth power), ruined / (ruined + survived), trips
  still running at a chunk's end left out; ``ce`` = 100 x (ev - sd^2 / (2 B)), the certainty
  equivalent per 100 rounds of a log-utility (Kelly) bettor with that bankroll;
- ``by_true_count``: for each true count seen, the share of rounds, the rounds played, and the
  mean and SD of the money per initial bet (a box's bet) of the rounds played there.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from twentyone.counting.counts import ESTIMATIONS, ROUNDINGS, CountSystem
from twentyone.counting.index_set import IndexPlay, encode_indices
from twentyone.counting.ramp import Ramp
from twentyone.engine.cards import RANKS, SUITS
from twentyone.engine.errors import CountError, RulesError, TwentyOneError
from twentyone.engine.rules import Rules
from twentyone.engine.strategy import Strategy
from twentyone.sim import count_play as cpm
from twentyone.sim.encode import (
    encode_rules,
    encode_strategy,
    refuse_spanish_doubles,
    refuse_switch,
    resolve_table,
)
from twentyone.sim.runner import CHUNK, Interrupted, chunk_states

Arr = npt.NDArray[Any]
ROR_CEILING = 10  # a bankroll trip ends at this many times the bankroll


@dataclass(frozen=True, kw_only=True)
class CountSetup:
    """A counter at a table: the system, ramp, index plays, wonging, the other players (one
    box each), the counter's boxes, and the bankroll (units; ``None``: no risk of ruin)."""

    system: CountSystem
    ramp: Ramp
    indices: tuple[IndexPlay, ...] = ()
    indices_name: str = ""
    wong_in: int | None = None
    wong_out: int | None = None
    players: int = 1
    boxes: int = 1
    bankroll: float | None = None

    def check(self, rules: Rules) -> None:
        """Refuse what the table cannot seat, naming the value."""
        if self.wong_in is not None and self.wong_out is not None and self.wong_out > self.wong_in:
            raise CountError("count-wong", out=self.wong_out, into=self.wong_in)
        most = rules.table_boxes
        if self.players < 1 or self.boxes + self.players - 1 > most:
            raise CountError(
                "count-players",
                players=self.players,
                table=rules.name,
                most=most,
                boxes=self.boxes,
                most_players=max(1, most - self.boxes + 1),
            )
        if not 1 <= self.boxes <= rules.boxes_per_player:
            raise TwentyOneError(
                "sim-boxes", boxes=self.boxes, table=rules.name, most=rules.boxes_per_player
            )
        if self.bankroll is not None and not self.bankroll > 0:
            raise CountError("count-bankroll", units=self.bankroll)


def encode_count(
    system: CountSystem, rules: Rules, plays: tuple[IndexPlay, ...]
) -> tuple[Arr, ...]:
    """``(cp, tags, sides, ixt, ixe, ins)`` for the kernel (:mod:`twentyone.sim.count_play`):
    tags per 52-card index in the system's scaled units."""
    scale = system.scale
    cp = np.zeros(cpm.CP_SIZE, dtype=np.int64)
    cp[cpm.CP_SCALE] = scale
    irc = system.initial_running_count(rules.decks) * scale
    assert irc.denominator == 1
    cp[cpm.CP_IRC] = int(irc)
    cp[cpm.CP_EST] = ESTIMATIONS.index(system.true_count.estimation)
    cp[cpm.CP_ROUND] = ROUNDINGS.index(system.true_count.rounding)
    cp[cpm.CP_DECKS] = rules.decks
    cp[cpm.CP_INS_A] = "A" in rules.insurance_upcards
    cp[cpm.CP_INS_T] = "T" in rules.insurance_upcards
    cp[cpm.CP_EVEN_MONEY] = rules.even_money
    tags = np.zeros(52, dtype=np.int64)
    sides = np.zeros(52, dtype=np.int64)
    side = system.side_counts[0] if system.side_counts else None
    if side is not None:
        cp[cpm.CP_SIDE_W] = int(side.betting_weight * scale)
        cp[cpm.CP_SIDE_PER_DECK] = 16 if side.rank == "T" else 4
    for i in range(52):
        rank, suit = RANKS[i % 13], SUITS[i // 13]
        tags[i] = int(system.tag_of(rank, suit) * scale)
        counting_rank = "T" if rank in "TJQK" else rank
        sides[i] = side is not None and counting_rank == side.rank
    ixt, ixe, ins = encode_indices(plays)
    return cp, tags, sides, ixt, ixe, ins


@dataclass(frozen=True)
class CountTask:
    """One chunk (picklable)."""

    index: int
    rounds: int
    boxes: int
    others: int
    params: Any
    floats: Any
    chart: Any
    count: Any
    ramp: Any
    wong: Any
    bank: Any
    state: Any


def run_count_task(task: CountTask) -> tuple[int, Arr, Arr]:
    from twentyone.counting.sim_kernel import play_counting_kernel

    rng = np.array(task.state, dtype=np.uint64)
    acc, bins = play_counting_kernel(
        task.rounds,
        (task.boxes, task.others),
        (task.params, task.floats),
        task.chart,
        task.count,
        (task.ramp, task.wong, task.bank),
        rng,
    )
    return task.index, acc, bins


def kernel_inputs(rules: Rules, strategy: Strategy, setup: CountSetup) -> dict[str, Any]:
    """Everything the counting kernel reads, but the rounds and the random state."""
    from twentyone.counting.sim_kernel import TC_HI, TC_LO

    if rules.deck != "standard":  # the true count and its side counts are per 52-card deck
        raise RulesError(
            "fast-path-refuses",
            field="deck",
            value=rules.deck,
            path="the counting simulator",
            lacks="its true count is per 52-card deck",
        )
    refuse_switch(rules, "the counting simulator")  # the counter's boxes play alone
    refuse_spanish_doubles(rules, "the counting simulator")  # its indexes double two cards
    p, f = encode_rules(rules)
    if strategy.by_dealer_total:  # its indices are by up card
        raise RulesError(
            "fast-path-refuses",
            field="hole_card_up",
            value=rules.hole_card_up,
            path="the counting simulation",
            lacks="a chart by the dealer's two-card total: its charts and indices are by up card",
        )
    hard, soft, pairs = encode_strategy(strategy)
    ramp = np.array(setup.ramp.table(TC_LO, TC_HI), dtype=np.int64)
    wong = np.array(
        [
            setup.wong_in is not None,
            setup.wong_in or 0,
            setup.wong_out is not None,
            setup.wong_out or 0,
        ],
        dtype=np.int64,
    )
    b = float(setup.bankroll or 0.0)
    return {
        "boxes": setup.boxes,
        "others": setup.players - 1,
        "params": p,
        "floats": f,
        "chart": (hard, soft, pairs, resolve_table()),
        "count": encode_count(setup.system, rules, setup.indices),
        "ramp": ramp,
        "wong": wong,
        "bank": np.array([b, b * ROR_CEILING], dtype=np.float64),
    }


@dataclass(frozen=True)
class CountResult:
    """A counting simulation's sums (see the module's text for the figures)."""

    rounds: int
    acc: Arr
    bins: Arr
    seconds: float
    seed: int
    workers: int
    setup: CountSetup = field(repr=False)
    #: Ctrl-C stopped the run: the sums are those of the chunks finished by then.
    interrupted: bool = False

    @property
    def ev(self) -> float:
        return float(self.acc[0]) / self.rounds

    @property
    def sd(self) -> float:
        n = self.rounds
        mean = self.ev
        var = (float(self.acc[1]) - n * mean * mean) / (n - 1) if n > 1 else 0.0
        return math.sqrt(max(var, 0.0))

    @property
    def stderr(self) -> float:
        return self.sd / math.sqrt(self.rounds)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    def ror_formula(self, bankroll: float) -> float:
        """exp(-2 ev B / var): 1 where the ev is not positive."""
        if self.ev <= 0 or self.sd == 0:
            return 1.0
        return math.exp(-2 * self.ev * bankroll / self.sd**2)

    def ror_simulated(self) -> tuple[float | None, int]:
        """Ruined trips over finished trips, and the number of finished trips."""
        ruined, survived = float(self.acc[4]), float(self.acc[5])
        trips = int(ruined + survived)
        return (ruined / trips if trips else None), trips

    def by_true_count(self) -> list[dict[str, Any]]:
        from twentyone.counting.sim_kernel import TC_LO

        out = []
        for i, (seen, played, s, ss) in enumerate(self.bins):
            if seen == 0:
                continue
            ev = s / played if played else None
            sd = (
                math.sqrt(max((ss - played * ev * ev) / (played - 1), 0.0))
                if played > 1 and ev is not None
                else None
            )
            out.append(
                {
                    "tc": TC_LO + i,
                    "frequency": seen / self.rounds,
                    "played": int(played),
                    "ev": ev,
                    "sd": sd,
                }
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        """The ``simulate --count ... --json`` shape."""
        s = self.setup
        ev, sd = self.ev, self.sd
        played = float(self.acc[2])
        units = float(self.acc[3])
        positive = ev > 0 and sd > 0
        out: dict[str, Any] = {
            "rounds": self.rounds,
            "interrupted": self.interrupted,
            "count": s.system.name,
            "ramp": s.ramp.text,
            "indices": s.indices_name or None,
            "players": s.players,
            "boxes": s.boxes,
            "wong_in": s.wong_in,
            "wong_out": s.wong_out,
            "rounds_played": int(played),
            "avg_bet": units / played if played else 0.0,
            "ev_per_round": ev,
            "sd_per_round": sd,
            "stderr": self.stderr,
            "ev_per_unit": float(self.acc[0]) / units if units else None,
            "win_per_100": 100 * ev,
            "di": 1000 * ev / sd if sd else None,
            "score": 1e6 * (ev / sd) ** 2 if positive else None,
            "n0": (sd / ev) ** 2 if positive else None,
            "ce": None,
            "ror": None,
            "by_true_count": self.by_true_count(),
            "seed": self.seed,
            "rounds_per_second": self.rounds_per_second,
        }
        if s.bankroll is not None:
            b = float(s.bankroll)
            simulated, trips = self.ror_simulated()
            out["ce"] = 100 * (ev - sd * sd / (2 * b))
            out["ror"] = {
                "bankroll": b,
                "formula": self.ror_formula(b),
                "simulated": simulated,
                "trips": trips,
                "ceiling": b * ROR_CEILING,
            }
        return out


def check_count_day(rounds: int, setup: CountSetup, workers: int | None) -> None:
    """Refuse a counting run longer than about a day here (every box dealt counted:
    :data:`twentyone.sim.runner.COUNT_BOX_ROUNDS_A_CORE_DAY`), naming the limit."""
    from twentyone.sim.runner import COUNT_BOX_ROUNDS_A_CORE_DAY, check_day

    seats = setup.boxes + setup.players - 1
    check_day(rounds, seats, workers, COUNT_BOX_ROUNDS_A_CORE_DAY)


def make_count_tasks(
    rules: Rules, strategy: Strategy, setup: CountSetup, rounds: int, seed: int
) -> list[CountTask]:
    inputs = kernel_inputs(rules, strategy, setup)
    n_chunks = max(1, math.ceil(rounds / CHUNK))
    states = chunk_states(seed, n_chunks)
    return [
        CountTask(i, min(CHUNK, rounds - i * CHUNK), state=states[i], **inputs)
        for i in range(n_chunks)
    ]


def _pool_context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def simulate_counting(
    rules: Rules,
    rounds: int,
    setup: CountSetup,
    *,
    seed: int = 0,
    workers: int | None = 1,
    strategy: Strategy | None = None,
    progress: Any = None,
) -> CountResult:
    """Play ``rounds`` rounds of a counter (``setup``) at ``rules``' table; the chart is basic
    strategy for the rules (:func:`twentyone.sim.textbook.chart_for`) unless given."""
    if workers is None:
        workers = os.cpu_count() or 1
    if rounds < 1:
        raise TwentyOneError("sim-rounds", rounds=rounds)
    setup.check(rules)
    check_count_day(rounds, setup, workers)
    if strategy is None:
        from twentyone.sim.textbook import chart_for

        strategy = chart_for(rules, setup.boxes, by_dealer_total=False)[0]
    tasks = make_count_tasks(rules, strategy, setup, rounds, seed)
    run_count_task(make_count_tasks(rules, strategy, setup, 1, 0)[0])  # compile here once
    start = time.perf_counter()
    results: list[Any] = [None] * len(tasks)
    try:
        if workers == 1 or len(tasks) == 1:
            for t in tasks:
                results[t.index] = run_count_task(t)
                if progress:
                    progress(t.rounds)
        else:
            with _pool_context().Pool(min(workers, len(tasks))) as pool:
                for out in pool.imap_unordered(run_count_task, tasks):
                    results[out[0]] = out
                    if progress:
                        progress(tasks[out[0]].rounds)
    except KeyboardInterrupt:
        done = [(t, r) for t, r in zip(tasks, results, strict=True) if r is not None]
        if not done:
            raise Interrupted(None) from None
        played = sum(t.rounds for t, _ in done)
        seconds = time.perf_counter() - start
        done_results = [r for _, r in done]
        part = _summed(done_results, played, seconds, seed, workers, setup, interrupted=True)
        raise Interrupted(part) from None
    seconds = time.perf_counter() - start
    return _summed(results, rounds, seconds, seed, workers, setup, interrupted=False)


#: Ctrl-C stopped :func:`simulate_counting`: the simulator's
#: :class:`~twentyone.sim.runner.Interrupted`, its ``result`` the chunks finished by then (a
#: :class:`CountResult` marked ``interrupted``), or None when none had finished.
CountInterrupted = Interrupted


def _summed(
    results: list[Any],
    rounds: int,
    seconds: float,
    seed: int,
    workers: int,
    setup: CountSetup,
    *,
    interrupted: bool,
) -> CountResult:
    """The chunks' sums, added in chunk order."""
    acc = np.zeros_like(results[0][1])
    bins = np.zeros_like(results[0][2])
    for _, a, b in results:  # chunk order
        acc += a
        bins += b
    return CountResult(rounds, acc, bins, seconds, seed, workers, setup, interrupted)
