"""Properties of the exact analysis that fail if its mathematics were wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from twentyone import PRESETS, load_rules, parse_cards
from twentyone.analysis import action_evs, analyze, basic_strategy
from twentyone.analysis.dealer import dealer_distribution
from twentyone.analysis.shoe_counts import fresh_counts, hand_counts
from twentyone.analysis.side_bets import aces_probabilities, insurance_returns
from twentyone.analysis.split import split_weights

BASE = "6D S17 DAS SPL3 NS"


def ev(spec: str) -> float:
    return analyze(load_rules(spec)).ev_basic


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("decks", [1, 6])
def test_dealer_final_probabilities_sum_to_one(decks: int, h17: bool) -> None:
    for up in range(10):
        shoe = fresh_counts(decks)
        shoe[up] -= 1
        dist = dealer_distribution(shoe, up, h17)
        assert dist.sum() == pytest.approx(1.0, abs=1e-12)
        assert (dist >= 0).all()
        # a dealer blackjack only under an ace or a ten, with the hole card's probability
        bj = {0: 9, 9: 0}.get(up)
        assert dist[6] == pytest.approx(shoe[bj] / shoe.sum() if bj is not None else 0.0)


def test_dealer_six_busts_as_by_hand_for_tiny_shoe() -> None:
    # shoe holding only tens and one 5 under a 6 up: 6+T=16 draws, then T busts, 5 makes 21.
    shoe = np.zeros(10, dtype=np.int64)
    shoe[9], shoe[4] = 3, 1
    dist = dealer_distribution(shoe, 5, False)
    # first card T (3/4): 16, draws T (2/3, bust) or 5 (1/3, 21); first card 5 (1/4): 11,
    # then T: 21.
    assert dist[5] == pytest.approx(3 / 4 * 2 / 3)
    assert dist[4] == pytest.approx(3 / 4 * 1 / 3 + 1 / 4)


def test_stand_on_20_vs_6_two_ways() -> None:
    rules = load_rules(BASE)
    hand = list(parse_cards("TS QD"))
    up = parse_cards("6H")[0]
    shoe = fresh_counts(6) - hand_counts([*hand, up])
    d = dealer_distribution(shoe, 5, False)
    direct = d[5] + d[0] + d[1] + d[2] - d[4]  # bust, 17-19 win; 20 push; 21 loses
    assert action_evs(rules, hand, up)["stand"] == pytest.approx(direct, abs=1e-12)


def test_peek_conditions_on_no_dealer_blackjack() -> None:
    # with a peek, standing 20 vs a ten is judged over the hole cards that are not an ace
    rules = load_rules(BASE)
    hand = list(parse_cards("TS QD"))
    up = parse_cards("KH")[0]
    shoe = fresh_counts(6) - hand_counts([*hand, up])
    d = dealer_distribution(shoe, 9, False)
    no_bj = d[:6] / (1.0 - d[6])  # P(dealer BJ) = 0 after conditioning
    direct = no_bj[5] + no_bj[0] + no_bj[1] + no_bj[2] - no_bj[4]
    assert action_evs(rules, hand, up)["stand"] == pytest.approx(direct, abs=1e-12)
    # without a peek (ENHC) a dealer blackjack takes the standing 20
    enhc = action_evs(load_rules("6D S17 DAS SPL3 ENHC"), hand, up)["stand"]
    assert enhc == pytest.approx(d[5] + d[0] + d[1] + d[2] - d[4] - d[6], abs=1e-12)


def test_rule_changes_move_the_edge_the_known_way() -> None:
    base = ev(BASE)
    assert ev("6D H17 DAS SPL3 NS") < base
    assert ev("6D S17 NDAS SPL3 NS") < base
    assert ev("6D S17 DAS SPL3 LS") > base
    assert ev("6D S17 DAS SPL3 ES") > ev("6D S17 DAS SPL3 ENHC LS")
    assert ev("6D S17 DAS SPL3 ENHC") < base
    assert ev("6D S17 DAS SPL3 OBO") > ev("6D S17 DAS SPL3 ENHC")
    assert ev("6D S17 DAS SPL1 NS") < base
    assert ev("6D S17 DAS SPL3 RSA NS") > base
    assert ev("2D S17 DAS SPL3 NS") > base
    # 6:5 costs about 1.4% (0.5 x P(blackjack) = 0.5 x 0.0475 less the pushes)
    assert base - ev("6D S17 DAS SPL3 NS BJ6:5") == pytest.approx(0.0136, abs=0.0015)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_basic_at_most_optimal(name: str) -> None:
    report = analyze(name)
    assert report.ev_basic <= report.ev_optimal + 1e-12
    assert -0.03 < report.ev_basic < 0.01
    probs = [row["probability"] for row in report.by_upcard.values()]
    assert sum(probs) == pytest.approx(1.0)
    total = sum(row["probability"] * row["ev_basic"] for row in report.by_upcard.values())
    assert total == pytest.approx(report.ev_basic)
    for dist in report.dealer_totals.values():
        assert sum(dist.values()) == pytest.approx(1.0)


def test_chart_has_textbook_entries() -> None:
    chart = basic_strategy(load_rules("6D S17 DAS SPL3 NS"))
    assert chart.code(total=16, soft=False, up="T") == "H"
    assert chart.code(total=11, soft=False, up="6") == "Dh"
    assert chart.pair_code(8, "T") == "P"
    assert chart.code(total=19, soft=True, up="6") == "S"  # A-8 stands vs 6 (S17)
    assert chart.code(total=12, soft=False, up="4") == "S"
    assert chart.pair_code(10, "6") == "S"


def test_chart_shows_only_what_the_rules_allow() -> None:
    # pl: two boxes -> no split at all; pt: doubles only hard 9-11, surrender not vs ace
    pl = basic_strategy(load_rules("pl-online"), boxes=2)
    assert all(c not in ("P", "Rp") for row in pl.pairs.values() for c in row)
    pt = basic_strategy(load_rules("pt-casino"))
    for total, row in pt.hard.items():
        if total not in (9, 10, 11):
            assert not any(c.startswith("D") for c in row), total
    assert not any(c.startswith("D") for row in pt.soft.values() for c in row)
    assert all(not row[-1].startswith("R") for row in pt.hard.values())
    ro = basic_strategy(load_rules("ro-casino"))
    assert any(c.startswith("R") for row in ro.hard.values() for c in row)
    assert all(not row[-1].startswith("R") for row in ro.hard.values())
    ns = basic_strategy(load_rules(BASE))
    assert not any(c.startswith("R") for row in ns.hard.values() for c in row)


def test_surrender_codes_16_vs_ten_with_late_surrender() -> None:
    chart = basic_strategy(load_rules("6D S17 DAS SPL3 LS"))
    assert chart.code(total=16, soft=False, up="T") == "Rh"
    assert chart.code(total=15, soft=False, up="T") == "Rh"


def test_one_box_splitting_costs_the_splits() -> None:
    one = analyze("pl-online", boxes=1)
    two = analyze("pl-online", boxes=2)
    assert two.ev_basic < one.ev_basic - 0.002


def test_lowest_standing_total_removes_stand() -> None:
    pt = load_rules("pt-casino")
    evs = action_evs(pt, list(parse_cards("2S 3D")), parse_cards("6H")[0])
    assert "stand" not in evs and "hit" in evs
    evs = action_evs(pt, list(parse_cards("TS 2D")), parse_cards("6H")[0])
    assert "stand" in evs


def test_678_bonus_exact_with_suits() -> None:
    pt = load_rules("pt-casino")
    plain = pt.replace(bonus_678_777=Fraction(0))
    up = parse_cards("TH")[0]
    suited = list(parse_cards("6S 7S"))
    unsuited = list(parse_cards("6S 7D"))
    # no peek in pt: P(third card is the 8 of spades) = 6 / (312 - 3)
    gain = action_evs(pt, suited, up)["hit"] - action_evs(plain, suited, up)["hit"]
    assert gain == pytest.approx(3 * 6 / 309, abs=1e-12)
    assert action_evs(pt, unsuited, up)["hit"] == pytest.approx(
        action_evs(plain, unsuited, up)["hit"], abs=1e-12
    )
    sevens = list(parse_cards("7S 7D"))
    gain7 = action_evs(pt, sevens, up)["hit"] - action_evs(plain, sevens, up)["hit"]
    assert gain7 == pytest.approx(3 * 22 / 309, abs=1e-12)
    assert analyze(pt).ev_basic > analyze(plain).ev_basic


def test_side_bets_by_hand() -> None:
    one = load_rules("1D S17")
    assert insurance_returns(one)["A"] == pytest.approx(3 * 16 / 51 - 1)
    pt = load_rules("pt-casino")
    p = aces_probabilities(pt, 4)
    assert p[2] == pytest.approx(24 * 23 / (312 * 311))
    assert p[4] == pytest.approx(24 * 23 * 22 * 21 / (312 * 311 * 310 * 309))
    jp = analyze(pt).side_bets["jackpot"]
    want = (p[2] - p[3]) * 26 + (p[3] - p[4]) * 251 + p[4] * 2501 - 1
    assert jp["return"] == pytest.approx(want)
    assert jp["lines"]["4"] == pytest.approx(p[4])
    ru = analyze("ru-online").side_bets["insurance"]
    assert set(ru) == {"A", "T"}
    assert ru["T"] == pytest.approx(3 * 24 / 311 - 1)


@pytest.mark.parametrize("preset", ["ro-casino", "pt-casino", "hu-casino"])
def test_ro_9_pt_10_hu_9_a_blackjacks_three_answers_priced_against_the_engine(preset: str) -> None:
    # A blackjack facing an ace is asked once: even money, insurance instead, or neither. The
    # analysis's returns per unit of the bet equal the engine's nets averaged over the dealer's
    # second card (every rank, weighted by the shoe less A, K and the up ace).
    from twentyone import BoxBet, Round, StackedShoe
    from twentyone.analysis.side_bets import blackjack_against_ace

    rules = load_rules(preset)
    got = analyze(rules).side_bets["blackjack_vs_ace"]
    assert got == blackjack_against_ace(rules)
    left = fresh_counts(rules.decks) - hand_counts(parse_cards("AS KD AH"))
    ranks = "A23456789T"
    want = dict.fromkeys(("even_money", "decline", "insure_half"), 0.0)
    for v in range(10):
        shoe = "AS AH KD" if rules.deal_order == "round-robin" else "AS KD AH"
        shoe += f" {ranks[v]}C 9D 9H"  # the dealer's second card (and cards to draw to 17)
        for key, decision in (
            ("even_money", "even-money"),
            ("decline", "no-even-money"),
            ("insure_half", "insure"),
        ):
            rnd = Round(rules, StackedShoe(shoe), [BoxBet("p", 1000)])
            rnd.apply(decision)
            assert rnd.is_over
            want[key] += left[v] / left.sum() * rnd.net()["p"] / 1000
    for key, value in want.items():
        assert got[key] == pytest.approx(value, abs=1e-12), key


def test_split_weights_count_hands() -> None:
    w_np, w_any = split_weights(2, 2.0, 49.0)
    assert w_any == 2.0 and not w_np
    # no pair card left: never a resplit, two hands with a non-pair second card
    w_np, w_any = split_weights(4, 0.0, 49.0)
    assert w_np == {2: pytest.approx(2.0)} and w_any == 0.0
    w_np, w_any = split_weights(4, 22.0, 307.0)
    assert 2.0 < sum(w_np.values()) + w_any < 2.3


def test_cli_edge_json_shape() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "edge", "6D S17 DAS SPL1 NS", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    for key in ("rules", "ev_basic", "ev_optimal", "by_upcard", "side_bets", "seconds"):
        assert key in data
    assert data["rules"] == "6D S17 DAS SPL1 NS"
    assert set(data["by_upcard"]) == {"2", "3", "4", "5", "6", "7", "8", "9", "T", "A"}
    assert set(data["by_upcard"]["T"]) == {"probability", "ev_basic", "ev_optimal"}
    assert -0.01 < data["ev_basic"] <= data["ev_optimal"] < 0.0


def test_cli_edge_table() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "edge", "pt-casino"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "house edge" in out.stdout and "jackpot" in out.stdout


def _engine_ev(
    spec: str,
    first: str,
    up: str,
    action: str,
    power: int = 1,
    shoe: tuple[int, ...] | None = None,
) -> float:
    """The exact return (``power`` 2: second moment) of a fixed action (stand / double /
    surrender) as the engine itself settles it: every sequence of further cards is dealt from a
    stacked shoe and weighted by its probability (the round ends when it asks for no more).
    ``shoe``: the counts the hand and the up card were dealt from (default the full shoe)."""
    from twentyone import BoxBet, Round, StackedShoe
    from twentyone.engine.cards import Card
    from twentyone.engine.errors import ShoeExhaustedError

    rules = load_rules(spec)
    p1, p2 = parse_cards(first)
    upc = parse_cards(up)[0]
    full = fresh_counts(rules.decks) if shoe is None else np.array(shoe, dtype=np.int64)
    counts = full - hand_counts([p1, p2, upc])
    rank = {0: "A", 9: "T"}

    def play(extra: list[Card]) -> float | None:
        try:
            rnd = Round(rules, StackedShoe([p1, upc, p2, *extra]), [BoxBet("p", 100)])
            first = True
            while not rnd.is_over:
                q = rnd.question
                assert q is not None
                if q.kind in ("insurance", "even-money"):
                    rnd.apply("no-" + q.kind)
                elif q.kind == "surrender":
                    rnd.apply("surrender" if action == "surrender" else "no-surrender")
                elif action == "split" and "split" in q.actions:
                    rnd.apply("split")  # split (and resplit) whenever allowed
                    first = False
                else:  # the action, then stand on every split hand
                    rnd.apply(action if first else "stand")
                    first = False
        except ShoeExhaustedError:
            return None
        return rnd.net()["p"] / 100

    def walk(extra: list[Card], left: np.ndarray, prob: float) -> float:
        got = play(extra)
        if got is not None:
            return prob * got**power
        n = left.sum()
        total = 0.0
        for v in range(10):
            if left[v]:
                card = Card(rank.get(v, str(v + 1)), "CDHS"[len(extra) % 4])
                nxt = left.copy()
                nxt[v] -= 1
                total += walk([*extra, card], nxt, prob * left[v] / n)
        return total

    return walk([], counts, 1.0)


@pytest.mark.parametrize(
    ("spec", "first", "up", "action"),
    [
        ("1D S17 NS", "TS 6D", "7H", "stand"),
        ("1D H17 NS", "9S 2D", "TH", "double"),  # peek: a dealer blackjack takes one unit
        ("1D H17 ENHC", "9S 2D", "TH", "double"),  # no hole card: it takes both units
        ("1D S17 OBO", "9S 2D", "TH", "double"),  # OBO: only the original unit
        ("1D S17 ENHC LS", "TS 6D", "TH", "surrender"),  # late: lost in full to a blackjack
        ("pt-casino", "TS 2D", "AH", "stand"),
    ],
)
def test_action_returns_agree_with_the_engine(spec: str, first: str, up: str, action: str) -> None:
    rules = load_rules(spec)
    hand = list(parse_cards(first))
    upc = parse_cards(up)[0]
    got = action_evs(rules, hand, upc)[action]
    if rules.hole_card and rules.peek and upc.value in (1, 10):
        # action_evs is conditional on no dealer blackjack (the peek has happened)
        left = fresh_counts(rules.decks) - hand_counts([*hand, upc])
        p = left[9 if upc.value == 1 else 0] / left.sum()
        got = -p + (1 - p) * got
    assert got == pytest.approx(_engine_ev(spec, first, up, action), abs=1e-12)


# a one-deck shoe after a round that took out 2 5 5 6 T T K A 9 (43 cards left)
DEPLETED = (3, 3, 4, 4, 2, 3, 4, 4, 3, 13)


@pytest.mark.parametrize(
    ("spec", "first", "up", "action"),
    [
        ("1D S17 NS", "TS 6D", "7H", "stand"),
        ("1D H17 NS", "9S 2D", "TH", "double"),  # peek: the returns are given no blackjack
        ("1D H17 ENHC", "9S 2D", "AH", "double"),
        ("1D S17 OBO", "9S 2D", "TH", "double"),
        ("1D S17 ENHC LS", "TS 6D", "TH", "surrender"),
        ("1D S17 SPL1 NS", "8S 8D", "TH", "split"),
    ],
)
def test_action_returns_on_a_depleted_shoe_agree_with_the_engine(
    spec: str, first: str, up: str, action: str
) -> None:
    rules = load_rules(spec)
    hand = list(parse_cards(first))
    upc = parse_cards(up)[0]
    evs = action_evs(rules, hand, upc, shoe=DEPLETED)
    if action == "split":  # stand on both split hands
        from twentyone.analysis.context import Context, shoe_after
        from twentyone.analysis.hands import SplitPlay
        from twentyone.analysis.splits import split_value

        ctx = Context.of(rules, shoe=DEPLETED)
        stand = np.full(22, 1, dtype=np.int64)
        got = split_value(ctx, 9, shoe_after(ctx, 9), 7, SplitPlay(mode=2, chart=(stand, stand)), 2)
    else:
        got = evs[action]
    if rules.hole_card and rules.peek and upc.value in (1, 10):
        left = np.array(DEPLETED) - hand_counts([*hand, upc])
        p = left[9 if upc.value == 1 else 0] / left.sum()
        got = -p + (1 - p) * got if action != "split" else got - p
    assert got == pytest.approx(_engine_ev(spec, first, up, action, shoe=DEPLETED), abs=1e-12)
    # and the depleted shoe's returns differ from the full shoe's
    assert evs != action_evs(rules, hand, upc)


@pytest.mark.parametrize(
    ("spec", "first", "up", "action"),
    [
        ("1D S17 NS", "TS 6D", "7H", "stand"),
        ("1D H17 NS", "9S 2D", "TH", "double"),
        ("1D H17 ENHC", "9S 2D", "TH", "double"),
        ("1D S17 OBO", "9S 2D", "TH", "double"),
    ],
)
def test_second_moments_agree_with_the_engine(spec: str, first: str, up: str, action: str) -> None:
    from twentyone.analysis.context import Context, up_base
    from twentyone.analysis.variance import run_moments

    rules = load_rules(spec)
    ctx = Context.of(rules)
    hand = list(parse_cards(first))
    u = parse_cards(up)[0].value - 1
    node = ctx.nodes.index[tuple(int(x) for x in hand_counts(hand))]
    base = up_base(ctx, u)
    dec = np.zeros(ctx.nodes.size, dtype=np.int64)
    _, s2, _, d2, _ = run_moments(ctx, u, base, dec, split_aces=False)
    got = {"stand": s2, "double": d2}[action][node]
    if ctx.peek and u in (0, 9):
        got += base.pbj[node]  # a dealer blackjack takes the bet before play: X^2 = 1
    assert got == pytest.approx(_engine_ev(spec, first, up, action, power=2), abs=1e-12)


def test_sd_without_splits_and_with() -> None:
    # published: about 1.15 for a 6-deck S17 DAS game (Wizard of Odds, "Blackjack standard
    # deviation": 1.15); a game without splits has fewer big swings
    six = analyze("6D S17 DAS SPL3 NS")
    assert six.sd is not None and 1.13 < six.sd < 1.17
    no_split = analyze("6D S17 DAS SPL0 NS")
    assert no_split.sd is not None and no_split.sd < six.sd


@pytest.mark.parametrize("spec", ["1D S17 SPL1 ENHC", "1D S17 SPL1 NS"])
def test_split_returns_agree_with_the_engine(spec: str) -> None:
    # split 8-8 against a ten and stand on both hands, as the engine settles it
    from twentyone.analysis.context import Context, shoe_after
    from twentyone.analysis.hands import SplitPlay
    from twentyone.analysis.splits import split_value

    rules = load_rules(spec)
    ctx = Context.of(rules)
    stand = np.full(22, 1, dtype=np.int64)  # code S on every row
    got = split_value(ctx, 9, shoe_after(ctx, 9), 7, SplitPlay(mode=2, chart=(stand, stand)), 2)
    if ctx.peek:
        left = fresh_counts(1) - hand_counts(list(parse_cards("8S 8D TH")))
        p = left[0] / left.sum()
        got -= p  # values are kept in the no-blackjack space; the blackjack takes one unit
    assert got == pytest.approx(_engine_ev(spec, "8S 8D", "TH", "split"), abs=1e-12)


@pytest.mark.parametrize(
    ("spec", "up", "pair"), [("1D SPL3", 5, 1), ("6D SPL3", 9, 7), ("2D SPL2", 0, 1)]
)
def test_farmer_split_counts_the_expected_hands(
    spec: str, up: int, pair: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with every split hand worth exactly 1, a split is worth its expected number of hands,
    # which the draw-by-draw chain of split_weights counts independently
    from twentyone.analysis import hands
    from twentyone.analysis.context import Context, shoe_after
    from twentyone.analysis.splits import split_value

    monkeypatch.setattr(hands, "_split_tables", lambda *args: (1.0, 1.0, 0.0))
    ctx = Context.of(load_rules(spec))
    shoe = shoe_after(ctx, up)
    most = ctx.split_max(pair)
    got = split_value(ctx, up, shoe, pair, hands.SplitPlay(mode=2), most)
    w_np, w_any = split_weights(most, ctx.pair_cards_left(shoe, pair, up), float(shoe.sum() - 2))
    assert got == pytest.approx(sum(w_np.values()) + w_any, abs=1e-12)
    assert got > 2.0


@pytest.mark.parametrize("spec", ["ro-casino", "hu-casino", "pt-casino", "6D S17 DAS SPL3 LS"])
def test_the_chart_is_the_codes_each_played_column_derives(spec: str) -> None:
    # basic_strategy reads only the columns' codes (issue 26 item 6: a simulation's chart
    # compiles no second-moment kernel); they are the codes basic_column plays
    from twentyone.analysis.basic import basic_column
    from twentyone.analysis.context import UPS, Context

    rules = load_rules(spec)
    for boxes in (1, 2):
        chart = basic_strategy(rules, boxes)
        cols = [basic_column(Context.of(rules, boxes), u) for u in UPS]
        assert chart.hard == {t: tuple(c.hard[t] for c in cols) for t in chart.hard}
        assert chart.soft == {t: tuple(c.soft[t] for c in cols) for t in chart.soft}
        assert chart.pairs == {v: tuple(c.pairs[v] for c in cols) for v in chart.pairs}
