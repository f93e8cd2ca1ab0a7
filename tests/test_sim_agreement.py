"""The simulation kernel agrees with the reference engine, round by round.

The recording kernel keeps every round's cards (52-card indices, in the order they left the
shoe) and money. Each round is then replayed in :class:`twentyone.engine.round.Round` on a
:class:`twentyone.engine.shoe.StackedShoe` of exactly those cards, one player ``"p"`` on the same
boxes (bet 100 each, no bankroll limit), with :func:`twentyone.engine.strategy.decide` answering
every question from the same chart. The engine must end the round having dealt exactly those cards
and with a net of ``100 x`` the kernel's money (to float rounding: a 6:5 blackjack is ``1.2``).

Every preset gets 100,000 rounds (the textbook chart on one box, that chart with a third of
its cells changed at random on one box, and random charts on two and three boxes); shorthand
and custom rule sets get 20,000 each. Random charts (seeded) put every code in every table, so
doubles, splits, resplits, surrenders (before play too) and the 6-7-8 / 7-7-7 bonus all happen;
the test checks they did. The engine is the slow side (about 5,000-15,000 rounds a second),
so the replays run on two processes.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from twentyone import BoxBet, Round, Rules, StackedShoe, load_rules
from twentyone.engine.errors import TwentyOneError
from twentyone.engine.rulesets import PRESETS
from twentyone.engine.strategy import (
    CODES,
    DEALER_TOTALS,
    HARD_TOTALS,
    PAIR_VALUES,
    SOFT_TOTALS,
    UPCARDS,
    Strategy,
    decide,
)
from twentyone.sim.encode import (
    P_HOLE_UP,
    encode_rules,
    encode_strategy,
    index_card,
    max_cards,
    resolve_table,
)
from twentyone.sim.kernel import record_rounds_kernel
from twentyone.sim.runner import chunk_states
from twentyone.sim.textbook import textbook_6d_s17_das

CARDS = [index_card(i) for i in range(52)]
# random codes, weighted so that hands live long enough to double, split and hit to three cards
WEIGHTS = np.array([0.30, 0.20, 0.10, 0.10, 0.14, 0.05, 0.05, 0.06])

SHORTHAND = (
    "6D ENHC LS",
    "6D OBO ES SPL3",
    "6D H17 LS RSA SPL3",
    "2D H17C3 LS SPL3",  # the dealer hits a soft 17 only with three cards or more
    "6D H17 P22 LS SPL3",  # a dealer's 22 pushes every hand standing
    "2D HSA D10 SPL3 DAS",
    "8D D9 NDAS H17 PEN0.5",
    "1D S17 SPL3 RSA LS PEN0.9",
    "free-bet",  # free doubles on hard 9-11, free splits but tens, a dealer's 22 pushes
    "double-exposure",  # the dealer takes ties, a blackjack beats the dealer's
)
CUSTOM = {
    # spanish-21: Spanish decks, a player's 21 always winning, the 21 bonuses, doubles on
    # any number of cards, two redoubles and the rescue (which a chart never takes)
    "spanish-21": load_rules("spanish-21"),
    # three redoubles, no peek: a dealer blackjack takes every doubled stake
    "spanish-21-nopeek": load_rules("spanish-21").replace(
        name="spanish-21-nopeek", redoubles=3, peek=False
    ),
    # no hole card, dealer blackjack takes only the original bet, late surrender decided
    # before play, split by rank to 4 hands dealt at once, lowest standing total, 3:2 bonus
    "custom-obo-before-play": Rules(
        name="custom-obo-before-play",
        decks=2,
        hole_card=False,
        peek=False,
        dealer_blackjack_takes="original",
        surrender="late",
        surrender_before_play=True,
        split_by="rank",
        max_hands=4,
        resplit_aces=True,
        hit_split_aces=True,
        split_second_card="at-once",
        min_stand_total=13,
        side_bets={  # type: ignore[arg-type]  # the TOML table, read by side_bets_from
            "bonus": {"kind": "678-777", "paytable": {"suited-6-7-8": "3:2", "7-7-7": "3:2"}}
        },
        blackjack_pays=Fraction(6, 5),
        deal_order="box-by-box",
    ),
    # Spanish decks (48 cards, no ten-spots: Spanish 21's shoe), H17, late surrender,
    # resplit and hit split aces
    "custom-spanish-deck": Rules(
        name="custom-spanish-deck",
        decks=6,
        deck="spanish",
        dealer_hits_soft_17=True,
        surrender="late",
        resplit_aces=True,
        hit_split_aces=True,
        blackjack_ties="player",
    ),
    # a hole card without a peek, early surrender against anything, one-box-only splitting
    "custom-nopeek-one-box": Rules(
        name="custom-nopeek-one-box",
        decks=4,
        peek=False,
        surrender="early",
        split_only_one_box=True,
        double_on="10-11",
        shuffle="continuous",
        side_bets={  # type: ignore[arg-type]  # the TOML table, read by side_bets_from
            "bonus": {"kind": "678-777", "paytable": {"suited-6-7-8": "3", "7-7-7": "3"}},
        },
    ),
}


def random_chart(
    rng: np.random.Generator,
    base: Strategy | None = None,
    share: float = 1.0,
    columns: tuple[str, ...] = UPCARDS,
) -> Strategy:
    """``base`` with a ``share`` of its cells replaced by random codes (all of them with no
    base), its columns ``base``'s or ``columns``."""
    columns = base.columns if base else columns
    width = len(columns)

    def row(old: tuple[str, ...] | None) -> tuple[str, ...]:
        new = [CODES[i] for i in rng.choice(8, size=width, p=WEIGHTS)]
        if old is None:
            return tuple(new)
        keep = rng.random(width) >= share
        return tuple(o if k else n for o, n, k in zip(old, new, keep, strict=True))

    return Strategy(
        name="random",
        hard={t: row(base.hard[t] if base else None) for t in HARD_TOTALS},
        soft={t: row(base.soft[t] if base else None) for t in SOFT_TOTALS},
        pairs={v: row(base.pairs[v] if base else None) for v in PAIR_VALUES},
        columns=columns,
    )


def record(
    rules: Rules, chart: Strategy, rounds: int, boxes: int, seed: int, by_total: bool = True
) -> tuple[Any, ...]:
    """Play ``rounds`` in the recording kernel (``by_total=False``: told the hole card is down,
    so that it reads a chart by dealer total by the up card's column)."""
    p, f = encode_rules(rules)
    if not by_total:
        p[P_HOLE_UP] = 0
    hard, soft, pairs = encode_strategy(chart)
    width = max_cards(rules, boxes)
    cards = np.zeros((rounds, width), dtype=np.uint8)
    ncards = np.zeros(rounds, dtype=np.int64)
    money = np.zeros(rounds, dtype=np.float64)
    rng = chunk_states(seed, 1)[0]
    chart_tables = (hard, soft, pairs, resolve_table())
    record_rounds_kernel(rounds, boxes, (p, f), chart_tables, rng, (cards, ncards, money))
    assert (ncards <= width).all()
    return cards, ncards, money


def replay_rounds(job: tuple[Any, ...]) -> tuple[list[str], Counter[str]]:
    """Replay rounds in the engine: the mismatches (at most 5 described) and what happened."""
    rules, chart, boxes, cards, ncards, money, first = job
    bad: list[str] = []
    seen: Counter[str] = Counter()
    for i in range(len(money)):
        dealt = [CARDS[c] for c in cards[i, : ncards[i]]]
        shoe = StackedShoe(dealt)
        seen["ten-spots"] += sum(c.rank == "T" for c in dealt)
        try:
            rnd = Round(rules, shoe, [BoxBet("p", 100)] * boxes)
            while not rnd.is_over:
                decision = decide(chart, rnd)
                seen[decision] += 1
                rnd.apply(decision)
            net = rnd.net()["p"]
            ok = shoe.remaining == 0 and abs(net - 100 * money[i]) < 1e-6  # float sums of 1.2s
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
        for box in rnd.boxes:
            seen["hands"] += len(box.hands)
            seen["resplit"] += len(box.hands) > 2
            seen["five hands"] += len(box.hands) > 4
            for hand in box.hands:
                seen["bonus"] += hand.bonus > 0
                seen["redouble"] += hand.doubles > 1
                seen[f"result {hand.result}"] += 1
    return bad, seen


def agree(rules: Rules, runs: list[tuple[Strategy, int, int, int]], pool: Any) -> Counter[str]:
    """Record and replay ``runs`` of (chart, rounds, boxes, seed); fail on any mismatch."""
    jobs = []
    for chart, rounds, boxes, seed in runs:
        cards, ncards, money = record(rules, chart, rounds, boxes, seed)
        step = -(-rounds // 4)
        for a in range(0, rounds, step):
            b = min(rounds, a + step)
            jobs.append((rules, chart, boxes, cards[a:b], ncards[a:b], money[a:b], a))
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


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_agree_on_100000_rounds(preset: str, pool: Any) -> None:
    rules = load_rules(preset)
    rng = np.random.default_rng(sum(map(ord, preset)))
    book = textbook_6d_s17_das()
    runs = [
        (book, 25_000, 1, 1),
        (random_chart(rng, book, 1 / 3), 25_000, 1, 2),
        (random_chart(rng), 25_000, 2, 3),
        (random_chart(rng), 25_000, 3, 4),
    ]
    assert sum(r[1] for r in runs) == 100_000
    seen = agree(rules, runs, pool)
    # every action path was taken
    for what in ("hit", "stand", "double", "split", "result win", "result bust"):
        assert seen[what] > 100, (what, seen)
    if rules.offers_surrender:
        assert seen["surrender"] > 100, seen
    if rules.may_resplit:
        assert seen["resplit"] > 10, seen
    if rules.hand_limit is None:  # ro.16, hu.8: the kernel plays past four hands too
        assert seen["five hands"] > 0, seen
    if rules.bonus_678_777:
        assert seen["bonus"] > 5, seen


@pytest.mark.parametrize("spec", SHORTHAND + tuple(CUSTOM))
def test_other_rule_sets_agree(spec: str, pool: Any) -> None:
    rules = CUSTOM[spec] if spec in CUSTOM else load_rules(spec)
    rng = np.random.default_rng(sum(map(ord, spec)))
    book = textbook_6d_s17_das()
    runs = [
        (random_chart(rng, book, 1 / 3), 10_000, 1, 5),
        (random_chart(rng), 10_000, 3, 6),
    ]
    seen = agree(rules, runs, pool)
    assert seen["split"] > 50 and seen["double"] > 50, seen
    # a Spanish shoe deals no ten-spot, a standard one plenty
    assert (seen["ten-spots"] == 0) == (rules.deck == "spanish"), seen
    if rules.bonus_21_cards:
        assert seen["result bonus-21"] > 20, seen
    if rules.redoubles:
        assert seen["redouble"] > 50, seen


def test_a_wrong_rule_is_caught(pool: Any) -> None:
    """The comparison has teeth: a kernel told the wrong split rule disagrees."""
    rules = load_rules("pl-online")  # split hands get their second cards at once
    rng = np.random.default_rng(9)
    chart = random_chart(rng)
    cards, ncards, money = record(rules.replace(split_second_card="in-turn"), chart, 3000, 1, 7)
    bad, _ = replay_rounds((rules, chart, 1, cards, ncards, money, 0))
    assert bad


def test_a_kernel_that_ignores_the_soft_17_card_rule_is_caught() -> None:
    """The H17C3 rule set's agreement has teeth: a kernel hitting every soft 17 (plain H17)
    deals rounds the engine, drawing only on soft 17s of three cards, does not."""
    rules = load_rules("2D H17C3 LS SPL3")
    chart = random_chart(np.random.default_rng(3))
    cards, ncards, money = record(rules.replace(dealer_hits_soft_17_min_cards=2), chart, 3000, 1, 7)
    bad, _ = replay_rounds((rules, chart, 1, cards, ncards, money, 0))
    assert bad


def test_a_kernel_that_ignores_the_push_22_rule_is_caught() -> None:
    """The P22 rule set's agreement has teeth: a kernel busting the dealer's 22 pays rounds
    the engine, pushing them, does not."""
    rules = load_rules("6D H17 P22 LS SPL3")
    chart = random_chart(np.random.default_rng(3))
    cards, ncards, money = record(rules.replace(dealer_22="bust"), chart, 3000, 1, 7)
    bad, _ = replay_rounds((rules, chart, 1, cards, ncards, money, 0))
    assert bad


def test_a_kernel_that_ignores_free_stakes_is_caught() -> None:
    """The free-bet rule set's agreement has teeth: a kernel taking every double and split
    for real money settles rounds the engine, paying the house's free stakes, does not."""
    rules = load_rules("free-bet")
    chart = random_chart(np.random.default_rng(3))
    cards, ncards, money = record(rules.replace(free_doubles=(), free_splits=()), chart, 3000, 1, 7)
    bad, _ = replay_rounds((rules, chart, 1, cards, ncards, money, 0))
    assert bad


def test_a_kernel_that_ignores_redoubles_is_caught() -> None:
    """The spanish-21 agreement has teeth: a kernel that stands every doubled hand deals and
    settles rounds the engine, redoubling where the chart doubles, does not."""
    rules = load_rules("spanish-21")
    chart = random_chart(np.random.default_rng(3))
    cards, ncards, money = record(rules.replace(redoubles=0), chart, 3000, 1, 7)
    bad, _ = replay_rounds((rules, chart, 1, cards, ncards, money, 0))
    assert bad


def test_a_kernel_that_pushes_ties_is_caught() -> None:
    """The double-exposure rule set's agreement has teeth: a kernel pushing ties and blackjack
    ties settles rounds the engine, giving ties to the dealer, does not."""
    rules = load_rules("double-exposure")
    chart = random_chart(np.random.default_rng(3))
    cards, ncards, money = record(
        rules.replace(ties="push", blackjack_ties="push"), chart, 3000, 1, 7
    )
    bad, _ = replay_rounds((rules, chart, 1, cards, ncards, money, 0))
    assert bad


def test_a_chart_by_dealer_total_agrees_at_a_face_up_hole_card(pool: Any) -> None:
    """Double Exposure's chart by the dealer's two-card total (the exact analysis's, a third of
    it changed at random, and random ones on two boxes): the kernel reads each round's column
    from both dealer cards as :func:`~twentyone.engine.strategy.decide` does."""
    from twentyone.analysis.exposed_chart import dealer_total_chart

    rules = load_rules("double-exposure")
    rng = np.random.default_rng(11)
    best = dealer_total_chart(rules).strategy()
    assert best.columns == DEALER_TOTALS
    runs = [
        (best, 25_000, 1, 21),
        (random_chart(rng, best, 1 / 3), 25_000, 1, 22),
        (random_chart(rng, columns=DEALER_TOTALS), 25_000, 2, 23),
    ]
    seen = agree(rules, runs, pool)
    for what in ("hit", "stand", "double", "split", "result win", "result bust"):
        assert seen[what] > 100, (what, seen)


def test_a_kernel_that_reads_the_up_card_column_of_a_chart_by_total_is_caught() -> None:
    """The agreement by dealer total has teeth: a kernel reading a chart by total at the up
    card's column index plays rounds the engine, reading both dealer cards, does not."""
    rules = load_rules("double-exposure")
    chart = random_chart(np.random.default_rng(3), columns=DEALER_TOTALS)
    cards, ncards, money = record(rules, chart, 3000, 1, 7, by_total=False)
    bad, _ = replay_rounds((rules, chart, 1, cards, ncards, money, 0))
    assert bad
