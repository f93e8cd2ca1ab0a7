"""Blackjack Switch in the simulator (:mod:`twentyone.sim.switch`): the kernel agrees with the
engine round by round at switch tables, and its return per hand agrees with the exact
``ev_basic`` (:func:`twentyone.analysis.switch.switch_report`).

The agreement follows tests/test_sim_agreement.py: the recording kernel keeps each round's
cards and money; each round is replayed in :class:`twentyone.engine.round.Round` on a stacked
shoe of exactly those cards, one player on the same boxes, the chart answering every play
question and the kernel's switch table (the basic chart's returns) every switch question, and
the engine must deal exactly those cards and net exactly the kernel's money. The test checks
that switches and keeps, a switch that makes 21 from a blackjack's cards, a switched 21 against
the dealer's 22 and splits after a switch all happened.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from twentyone import BoxBet, Round, Rules, StackedShoe, load_rules
from twentyone.engine.cards import hand_total
from twentyone.engine.errors import TwentyOneError
from twentyone.engine.strategy import Strategy, decide
from twentyone.sim.encode import (
    encode_rules,
    encode_strategy,
    index_card,
    max_cards,
    resolve_table,
)
from twentyone.sim.kernel import record_rounds_kernel
from twentyone.sim.runner import chunk_states, simulate
from twentyone.sim.switch import switch_table
from twentyone.sim.textbook import chart_for

CARDS = [index_card(i) for i in range(52)]
SWITCH = load_rules("switch")
# no peek (a dealer blackjack is seen after the play, and takes a switched 21 like any hand),
# a dealer's 22 busts, a blackjack pays 3:2, late surrender, split to three hands
OTHER = SWITCH.replace(
    name="switch-other",
    peek=False,
    dealer_22="bust",
    blackjack_pays=Fraction(3, 2),
    surrender="late",
    max_hands=3,
)


def record(
    rules: Rules, chart: Strategy, table: Any, rounds: int, boxes: int, seed: int
) -> tuple[Any, ...]:
    p, f = encode_rules(rules)
    hard, soft, pairs = encode_strategy(chart)
    width = max_cards(rules, boxes)
    cards = np.zeros((rounds, width), dtype=np.uint8)
    ncards = np.zeros(rounds, dtype=np.int64)
    money = np.zeros(rounds, dtype=np.float64)
    rng = chunk_states(seed, 1)[0]
    tables = (hard, soft, pairs, resolve_table())
    record_rounds_kernel(rounds, boxes, (p, f), tables, rng, (cards, ncards, money), table)
    assert (ncards <= width).all()
    return cards, ncards, money


def switches(table: Any, rnd: Round) -> bool:
    """The kernel's switch decision for the pair asked (``rnd.question``), from the same
    table: the hands a switch makes return more than those dealt."""
    q = rnd.question
    assert q is not None and q.partner is not None
    up = rnd.upcard.value
    a, b = (c.value for c in rnd.boxes[q.box].hands[0].cards)
    c, d = (c.value for c in rnd.boxes[q.partner].hands[0].cards)
    keep = table[up, a, b, 0] + table[up, c, d, 0]
    return bool(table[up, a, d, 1] + table[up, c, b, 1] > keep)


def replay_rounds(job: tuple[Any, ...]) -> tuple[list[str], Counter[str]]:
    """Replay rounds in the engine: the mismatches (at most 5 described) and what happened."""
    rules, chart, table, boxes, cards, ncards, money, first = job
    bad: list[str] = []
    seen: Counter[str] = Counter()
    for i in range(len(money)):
        dealt = [CARDS[c] for c in cards[i, : ncards[i]]]
        shoe = StackedShoe(dealt)
        switched: set[int] = set()
        naturals = 0
        try:
            rnd = Round(rules, shoe, [BoxBet("p", 100)] * boxes)
            while not rnd.is_over:
                q = rnd.question
                assert q is not None
                if q.kind == "switch":
                    assert q.partner is not None
                    decision = "switch" if switches(table, rnd) else "keep"
                    if decision == "switch":
                        switched |= {q.box, q.partner}
                        pair = (rnd.boxes[q.box], rnd.boxes[q.partner])
                        naturals += sum(box.hands[0].is_blackjack for box in pair)
                else:
                    decision = decide(chart, rnd)
                seen[decision] += 1
                rnd.apply(decision)
            net = rnd.net()["p"]
            ok = shoe.remaining == 0 and abs(net - 100 * money[i]) < 1e-6
            problem = f"engine net {net}, {shoe.remaining} cards left"
        except TwentyOneError as exc:
            ok, problem, rnd = False, f"engine error {exc}", None
        if not ok:
            if len(bad) < 5:
                bad.append(
                    f"round {first + i}: kernel money {money[i]}, {problem}; cards "
                    + " ".join(str(c) for c in dealt)
                )
            else:
                bad.append("...")
            continue
        assert rnd is not None
        seen["switched blackjack"] += naturals
        dealer = hand_total(rnd.dealer).total
        for k in switched:
            hands = rnd.boxes[k].hands
            seen["split after a switch"] += len(hands) > 1
            for hand in hands:
                if hand.switched and len(hand.cards) == 2 and hand.total.total == 21:
                    seen[f"switched 21 {hand.result}"] += 1
                    seen["switched 21 against 22"] += dealer == 22
    return bad, seen


def agree(
    rules: Rules, runs: list[tuple[Strategy, int, int, int]], pool: Any, table: Any = None
) -> Counter[str]:
    """Record and replay ``runs`` of (chart, rounds, boxes, seed) with the rules' switch
    table (or ``table``: the kernel's, the engine still deciding by the rules'); fail on any
    mismatch."""
    right = switch_table(rules, 2)
    jobs = []
    for chart, rounds, boxes, seed in runs:
        cards, ncards, money = record(
            rules, chart, right if table is None else table, rounds, boxes, seed
        )
        step = -(-rounds // 4)
        for a in range(0, rounds, step):
            b = min(rounds, a + step)
            job = (rules, chart, right, boxes, cards[a:b], ncards[a:b], money[a:b], a)
            jobs.append(job)
    bad: list[str] = []
    seen: Counter[str] = Counter()
    for b, s in pool.imap_unordered(replay_rounds, jobs):
        bad += b
        seen += s
    assert not bad, (
        f"{rules.name}: {len([b for b in bad if b != '...'])}+ mismatches:\n" + "\n".join(bad[:10])
    )
    return seen


@pytest.fixture(scope="module")
def pool() -> Any:
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(2) as p:
        yield p


@pytest.mark.parametrize("rules", [SWITCH, OTHER], ids=lambda r: r.name)
def test_switch_tables_agree_with_the_engine_round_by_round(rules: Rules, pool: Any) -> None:
    chart = chart_for(rules, 2)[0]
    seen = agree(rules, [(chart, 16_000, 2, 1), (chart, 8_000, 4, 2)], pool)
    assert seen["switch"] > 1000 and seen["keep"] > 1000, seen
    if rules.blackjack_pays == 1:  # (a 3:2 blackjack is seldom worth switching away)
        assert seen["switched blackjack"] > 20, seen  # a blackjack's cards switched into a 21
    assert seen["split after a switch"] > 20, seen
    assert seen["double"] > 1000 and seen["split"] > 200, seen
    if rules.dealer_22 == "push":
        assert seen["switched 21 against 22"] > 5, seen
    if rules.offers_surrender:
        assert seen["surrender"] > 100, seen


def test_a_kernel_that_switches_by_the_wrong_returns_is_caught(pool: Any) -> None:
    """The agreement has teeth: a kernel whose table swaps the returns as dealt and as
    switched decides pairs the engine, deciding by the right table, does not."""
    chart = chart_for(SWITCH, 2)[0]
    wrong = switch_table(SWITCH, 2)[..., ::-1].copy()
    with pytest.raises(AssertionError, match="mismatches"):
        agree(SWITCH, [(chart, 2000, 2, 3)], pool, wrong)


def test_a_switch_table_refuses_an_odd_number_of_boxes_by_name() -> None:
    with pytest.raises(TwentyOneError, match="--boxes 3: switch is a switch table") as err:
        simulate(SWITCH, 1000, boxes=3)
    assert err.value.code == "sim-switch-boxes"


def test_the_simulated_return_per_hand_agrees_with_the_exact_ev_basic() -> None:
    """Four million rounds of a pair (eight million hands) at the switch table: the return
    per hand lies within 4 standard errors of ``ev_basic`` (-0.5408%)."""
    from twentyone.analysis.switch import switch_report

    exact = switch_report(SWITCH, 2).ev_basic
    result = simulate(SWITCH, 4_000_000, boxes=2, seed=11)
    z = result.z(exact)
    assert z is not None and abs(z) < 4, (result.ev, result.stderr, exact)
    assert result.stderr < 0.0005  # per hand: the pair's money over its two bets


def test_the_kernel_reads_the_switch_table_only_at_a_switch_table() -> None:
    """The same rules without the switch, given the switch table: the rounds are those of
    a kernel given none (the default)."""
    rules = SWITCH.replace(switch=False, side_bets=())
    chart = chart_for(SWITCH, 2)[0]
    plain = record(rules, chart, None, 3000, 2, 5)
    given = record(rules, chart, switch_table(SWITCH, 2), 3000, 2, 5)
    assert all((x == y).all() for x, y in zip(plain, given, strict=True))
    switched = record(SWITCH, chart, switch_table(SWITCH, 2), 3000, 2, 5)
    assert not (switched[2] == plain[2]).all()  # the switch table's rounds differ


def test_simulate_switch_reports_per_hand_of_a_pair_beside_edges_kept_return(
    tmp_path: Path,
) -> None:
    """``twentyone simulate switch`` plays one pair by default and shows the return per hand
    beside the one ``edge switch`` kept (one box: each hand is priced alone)."""
    env = dict(os.environ, TWENTYONE_CACHE_DIR=str(tmp_path))
    twentyone = [sys.executable, "-m", "twentyone.cli"]
    edge = subprocess.run(
        [*twentyone, "edge", "switch", "--json"], capture_output=True, text=True, env=env
    )
    kept = json.loads(edge.stdout)["ev_basic"]
    run = ["simulate", "switch", "--rounds", "200000", "--seed", "3", "--workers", "1"]
    out = subprocess.run([*twentyone, *run], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "200,000 x 2 boxes (1 switch pair), seed 3" in out.stdout
    assert "per hand (initial bet) of a switch pair" in out.stdout
    assert f"exact        {100 * kept:.4f}% (result lies" in out.stdout
    odd = subprocess.run([*twentyone, *run, "--boxes", "3"], capture_output=True, text=True)
    assert odd.returncode != 0 and "--boxes 3: switch is a switch table" in odd.stderr
