"""The counting kernel agrees with the engine, round by round (as the flat kernel does in
``test_sim_agreement.py``).

The kernel records each round's cards, the counter's true count and units at the bet, and the
counter's and the other players' money. The test keeps its own running count from those cards
(each card counted as it is dealt, the hole card when the round ends, a new shoe at the cut
card, every round at a continuous shuffler, or when a round empties the shoe), checks the
kernel's true count and bet (ramp and wonging) against it, and replays the round in
:class:`twentyone.engine.round.Round` on a stacked shoe of exactly those cards: the counter on the
first boxes (bet ``100 x units``) answering from :func:`twentyone.counting.play.decide_counting`
at the true count of the cards seen so far, the other players on one box each (bet 100) from
the chart. The engine must deal exactly those cards and pay exactly the kernel's money.

Every preset, shorthand rule sets and a custom one, with I18 + Fab 4 and indices made up to
reach every kind of entry (soft totals, pairs, surrender before play, insurance against a ten);
random charts put every code in play.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from test_sim_agreement import CUSTOM, random_chart
from twentyone import BoxBet, Round, Rules, StackedShoe, load_rules
from twentyone.counting.counts import load_count
from twentyone.counting.index_set import IndexPlay, load_indices
from twentyone.counting.play import IndexBook, decide_counting
from twentyone.counting.ramp import parse_ramp
from twentyone.counting.sim_kernel import play_counting_kernel
from twentyone.counting.sim_runner import CountSetup, kernel_inputs
from twentyone.engine.errors import TwentyOneError
from twentyone.engine.rulesets import PRESETS
from twentyone.engine.strategy import Strategy, decide
from twentyone.sim.encode import index_card, max_cards
from twentyone.sim.runner import chunk_states
from twentyone.sim.textbook import textbook_6d_s17_das

CARDS = [index_card(i) for i in range(52)]
EXTRA = (
    IndexPlay(hand="soft 18", up="2", below="stand", at_or_above="double-stand", index=1),
    IndexPlay(hand="soft 17", up="2", below="hit", at_or_above="double", index=1),
    IndexPlay(hand="A,A", up="A", below="hit", at_or_above="split", index=-2),
    IndexPlay(hand="9,9", up="7", below="stand", at_or_above="split", index=2),
    IndexPlay(hand="8,8", up="T", below="no-surrender", at_or_above="surrender", index=1),
    IndexPlay(hand="16", up="9", below="hit", at_or_above="surrender", index=3),
    IndexPlay(hand="insurance", up="T", below="no-insurance", at_or_above="insure", index=2),
)
PLAYS = load_indices("I18+FAB4") + EXTRA


def record(rules: Rules, chart: Strategy, setup: CountSetup, rounds: int, seed: int) -> Any:
    inputs = kernel_inputs(rules, chart, setup)
    boxes = setup.boxes + max(setup.players - 1, 1)
    cards = np.zeros((rounds, max_cards(rules, boxes)), dtype=np.uint8)
    ncards = np.zeros(rounds, dtype=np.int64)
    money = np.zeros((rounds, 2))
    bets = np.zeros((rounds, 2), dtype=np.int64)
    play_counting_kernel(
        rounds,
        (inputs["boxes"], inputs["others"]),
        (inputs["params"], inputs["floats"]),
        inputs["chart"],
        inputs["count"],
        (inputs["ramp"], inputs["wong"], inputs["bank"]),
        chunk_states(seed, 1)[0],
        (cards, ncards, money, bets),
    )
    return cards, ncards, money, bets


class Counter21:
    """The test's own count of the cards, as a counter sees them."""

    def __init__(self, rules: Rules, setup: CountSetup) -> None:
        self.system = setup.system
        self.rules = rules
        self.size = 52 * rules.decks
        self.cut = int(52 * rules.decks * rules.penetration)
        self.irc = self.system.initial_running_count(rules.decks)
        self.pos = 0
        self.rc = self.irc
        self.seen_side = 0
        self.shoes = 0

    def new_shoe(self) -> None:
        self.pos, self.rc, self.seen_side = 0, self.irc, 0
        self.shoes += 1

    def running(self) -> Fraction:
        rc = self.rc
        for side in self.system.side_counts:
            rc += side.adjustment(self.seen_side, self.size - self.pos, self.rules.decks)
        return rc

    def tc(self) -> int:
        return self.system.true_count.of(self.running(), self.size - self.pos)

    def count(self, card_index: int) -> bool:
        """Deal one card; True when it started a new shoe."""
        fresh = self.pos >= self.size
        if fresh:
            self.new_shoe()
        self.pos += 1
        self.add(card_index)
        return fresh

    def add(self, card_index: int) -> None:
        c = CARDS[card_index]
        self.rc += self.system.tag_of(c.rank, c.suit)
        side = self.system.side_counts
        if side and ("T" if c.rank in "TJQK" else c.rank) == side[0].rank:
            self.seen_side += 1


def catch_up(
    counter: Counter21, dealt: list[int], upto: int, state: dict[str, int], hole: int
) -> None:
    """Count the round's cards dealt so far (the hole card waits until the round ends)."""
    while state["n"] < upto:
        i = state["n"]
        if i == hole:
            if counter.pos >= counter.size:
                counter.new_shoe()
            counter.pos += 1
            state["hole_shoe"] = counter.shoes
        else:
            counter.count(dealt[i])
        state["n"] += 1


def replay(job: tuple[Any, ...]) -> tuple[list[str], Counter[str]]:
    rules, chart, setup, cards, ncards, money, bets = job
    book = IndexBook(setup.indices)
    counter = Counter21(rules, setup)
    bad: list[str] = []
    seen: Counter[str] = Counter()
    seated = True
    for r in range(len(money)):
        fresh = False
        if rules.shuffle == "continuous" or counter.pos >= counter.cut:
            counter.new_shoe()
            fresh = True
        tc = counter.tc()
        if fresh:
            seated = setup.wong_in is None or tc >= setup.wong_in
        elif not seated and setup.wong_in is not None and tc >= setup.wong_in:
            seated = True
        if seated and setup.wong_out is not None and tc < setup.wong_out:
            seated = False
        units = setup.ramp.units(tc) if seated else 0
        if (int(bets[r, 1]), int(bets[r, 0])) != (tc, units):
            bad.append(f"round {r}: kernel tc {bets[r, 1]} units {bets[r, 0]}, test {tc} {units}")
            break
        k = setup.boxes if units else 0
        others = max(setup.players - 1, 0 if k else 1)
        dealt = [int(c) for c in cards[r, : ncards[r]]]
        boxes = [BoxBet("c", 100 * units)] * k + [BoxBet(f"o{i}", 100) for i in range(others)]
        hole = 2 * (k + others) + 1 if rules.hole_card else -1
        shoe = StackedShoe([CARDS[c] for c in dealt])
        state = {"n": 0, "hole_shoe": -1}

        try:
            rnd = Round(rules, shoe, boxes)
            while not rnd.is_over:
                catch_up(counter, dealt, len(dealt) - shoe.remaining, state, hole)
                q = rnd.question
                assert q is not None
                if rnd.boxes[q.box].player == "c":
                    decision = decide_counting(chart, book, rnd, counter.tc())
                    seen[f"counter {decision}"] += 1
                else:
                    decision = decide(chart, rnd)
                rnd.apply(decision)
            catch_up(counter, dealt, len(dealt) - shoe.remaining, state, hole)
            # the hole card, shown at the round's end: counted unless the shoe was reshuffled
            if 0 <= hole < len(dealt) and counter.shoes == state["hole_shoe"]:
                counter.add(dealt[hole])
            net = rnd.net()
            got_c = net.get("c", 0)
            got_o = sum(v for p, v in net.items() if p != "c")
            ok = (
                shoe.remaining == 0
                and abs(got_c - 100 * money[r, 0]) < 1e-6
                and abs(got_o - 100 * money[r, 1]) < 1e-6
            )
            problem = f"engine c {got_c} others {got_o}, {shoe.remaining} cards left"
        except TwentyOneError as exc:
            ok, problem = False, f"engine error {exc}"
        if not ok:
            bad.append(
                f"round {r}: kernel {money[r, 0]} / {money[r, 1]} at tc {tc} x{units}, {problem}; "
                + " ".join(str(CARDS[c]) for c in dealt)
            )
            if len(bad) > 4:
                break
        seen["played" if k else "sat out"] += 1
    return bad, seen


def agree(rules: Rules, chart: Strategy, setup: CountSetup, rounds: int, seed: int) -> Counter[str]:
    cards, ncards, money, bets = record(rules, chart, setup, rounds, seed)
    bad, seen = replay((rules, chart, setup, cards, ncards, money, bets))
    assert not bad, f"{rules.name}:\n" + "\n".join(bad)
    return seen


def setup_for(rules: Rules, **kw: Any) -> CountSetup:
    base: dict[str, Any] = {
        "system": load_count("hilo"),
        "ramp": parse_ramp("-1:0 0:1 1:2 2:4 3:8 4:12"),
        "indices": PLAYS,
        "indices_name": "test",
        "players": min(3, rules.table_boxes),
    }
    base.update(kw)
    return CountSetup(**base)


@pytest.fixture(scope="module")
def pool() -> Any:
    rules = load_rules("6D S17")
    record(rules, textbook_6d_s17_das(), setup_for(rules), 10, 0)  # compile once, then fork
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(2) as p:
        yield p


def jobs_for(spec: str) -> list[tuple[Rules, Strategy, CountSetup, int, int]]:
    rules = CUSTOM[spec] if spec in CUSTOM else load_rules(spec)
    rng = np.random.default_rng(sum(map(ord, spec)))
    book = textbook_6d_s17_das()
    one = min(3, rules.table_boxes)
    return [
        (rules, book, setup_for(rules), 6000, 1),
        (rules, random_chart(rng, book, 1 / 3), setup_for(rules, wong_in=1, wong_out=0), 4000, 2),
        (
            rules,
            random_chart(rng, book, 1 / 4),
            setup_for(rules, system=load_count("hiopt2"), players=1, wong_out=-1),
            3000,
            3,
        ),
        (rules, book, setup_for(rules, system=load_count("red7"), players=one), 3000, 4),
        (rules, book, setup_for(rules, system=load_count("halves"), players=2), 3000, 5),
    ]


SPECS = (*PRESETS, "6D S17 DAS LS", "6D ENHC LS", "1D H17 LS PEN0.9", "custom-obo-before-play")


def _run(job: tuple[Rules, Strategy, CountSetup, int, int]) -> tuple[list[str], Counter[str]]:
    rules, chart, setup, rounds, seed = job
    cards, ncards, money, bets = record(rules, chart, setup, rounds, seed)
    return replay((rules, chart, setup, cards, ncards, money, bets))


@pytest.mark.parametrize("spec", SPECS)
def test_counting_kernel_agrees_with_the_engine(spec: str, pool: Any) -> None:
    bad: list[str] = []
    seen: Counter[str] = Counter()
    for b, s in pool.imap_unordered(_run, jobs_for(spec)):
        bad += b
        seen += s
    assert not bad, f"{spec}:\n" + "\n".join(bad[:8])
    # the counter played and sat out, and index plays of several kinds were taken
    assert seen["played"] > 1000 and seen["sat out"] > 100, seen
    for what in ("counter stand", "counter hit", "counter double", "counter split"):
        assert seen[what] > 20, (what, seen)
    rules = CUSTOM[spec] if spec in CUSTOM else load_rules(spec)
    # (at a continuous shuffler the count never reaches the insurance index of +3)
    if rules.shuffle != "continuous" and ("A" in rules.insurance_upcards or rules.even_money):
        assert seen["counter insure"] + seen["counter even-money"] > 0, seen
    if rules.offers_surrender:
        assert seen["counter surrender"] > 0, seen


def test_a_wrong_count_is_caught() -> None:
    """The comparison has teeth: the kernel counting with other tags disagrees."""
    rules = load_rules("6D S17 DAS LS")
    setup = setup_for(rules)
    cards, ncards, money, bets = record(
        rules, textbook_6d_s17_das(), setup_for(rules, system=load_count("zen")), 2000, 9
    )
    bad, _ = replay((rules, textbook_6d_s17_das(), setup, cards, ncards, money, bets))
    assert bad
