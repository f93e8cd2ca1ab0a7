"""``advise``: one hand's returns over any shoe, and the hints over the shoe a player knows."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from twentyone import BoxBet, Round, load_rules, parse_cards
from twentyone.analysis import action_evs
from twentyone.analysis.advise import advise, parse_hand, parse_up
from twentyone.analysis.context import full_shoe
from twentyone.analysis.hints import Advisor
from twentyone.engine.shoe import Shoe

RULES = "6D S17 DAS SPL1 LS"


def test_advise_gives_every_legal_action_and_marks_the_best() -> None:
    rules = load_rules(RULES)
    got = advise(rules, "8 8", "T")
    assert set(got.returns) == {"stand", "hit", "double", "split", "surrender"}
    assert got.best == max(got.returns, key=lambda k: got.returns[k]) == "split"
    assert got.returns == action_evs(rules, list(parse_cards("8S 8H")), parse_cards("TC")[0])
    assert got.given_no_blackjack
    assert got.insurance is None  # insurance is offered on an ace only here


def test_advise_on_a_depleted_shoe_and_insurance() -> None:
    rules = load_rules(RULES)
    shoe = (24, 24, 24, 24, 20, 22, 24, 24, 24, 80)  # sixteen tens out: a poor shoe for 16
    hand, up = parse_hand("T 6"), parse_up("A")
    got = advise(rules, hand, "A", shoe=shoe)
    assert got.shoe == shoe
    assert got.returns == action_evs(rules, hand, up, shoe=shoe)
    assert got.returns != advise(rules, hand, "A").returns
    # insurance: 2:1 on the tens left among the cards not seen (the hand's ten and six and the
    # up ace are out)
    left = sum(shoe) - 3
    assert got.insurance == pytest.approx(3 * (80 - 1) / left - 1, abs=1e-15)
    assert advise(rules, "T 6", "A").insurance == pytest.approx(3 * 95 / 309 - 1, abs=1e-15)


def test_a_blackjack_is_priced_before_the_peek() -> None:
    rules = load_rules("6D S17 DAS SPL1 NS")
    got = advise(rules, "A K", "A")
    p = 95 / 309  # the hole card is a ten
    assert got.returns["stand"] == pytest.approx(1.5 * (1 - p), abs=1e-15)
    assert got.returns["even-money"] == 1.0 and got.best == "stand"


def test_cli_advise() -> None:
    cmd = [sys.executable, "-m", "twentyone.cli", "advise", RULES, "--hand", "T 6", "--up", "T"]
    out = subprocess.run(
        [*cmd, "--remove", "5 5 5 5 6 6", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["shoe"] == [24, 24, 24, 24, 20, 22, 24, 24, 24, 96]
    assert data["best"] == "surrender" and data["returns"]["surrender"] == -0.5
    assert set(data["returns"]) == {"stand", "hit", "double", "surrender"}
    text = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "advise", RULES, "--hand", "T 6", "--up", "T"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "<- best" in text and "surrender" in text


def test_hints_use_the_cards_seen_since_the_shuffle() -> None:
    rules = load_rules("6D S17 DAS SPL3 NS")
    shoe = Shoe.for_rules(rules, seed=11)
    earlier = shoe.draw_many(40)  # earlier rounds since the shuffle
    advisor = Advisor(rules, shoe=shoe)
    rnd = Round(rules, shoe, [BoxBet("ann", 1000)])
    while rnd.question is not None and rnd.question.kind != "play":
        rnd.apply("no-" + rnd.question.kind)
    if rnd.question is None:
        pytest.skip("the seeded round ends before play")
    hand = rnd.boxes[0].hands[0].cards
    want = list(full_shoe(rules))
    for c in earlier:  # every card seen before, not the hole card, not the hand or up card
        want[c.value - 1] -= 1
    assert advisor.shoe_counts(rnd) == tuple(want)
    got = advisor.returns(rnd)
    assert got == {
        k: v
        for k, v in action_evs(rules, hand, rnd.upcard, shoe=tuple(want)).items()
        if k in {a.split(":")[0] for a in rnd.question.actions}
    }
    # a continuous shuffler (or a stacked shoe) tells nothing beyond the round in sight
    plain = Advisor(rules.replace(shuffle="continuous"), shoe=shoe)
    assert plain.shoe is None


def test_the_web_hint_plays_the_cards_really_left() -> None:
    from twentyone.analysis.hints import hand_question
    from twentyone.web.advice import Advice

    rules = load_rules("6D S17 DAS SPL3 LS")
    advice = Advice(enabled=True)
    action = advice.default_action(rules)
    exact = advice.exact_hints(rules)
    assert exact is not None and not exact.ready
    advice.start()
    assert advice.thread is not None
    advice.thread.join(300)
    assert action.name == "basic strategy" and exact.ready  # the clock plays the chart
    shoe = Shoe.for_rules(rules, seed=5)
    for _ in range(30):  # a few rounds' cards since the shuffle, then a round to decide
        shoe.draw_many(7)
        rnd = Round(rules, shoe, [BoxBet("ann", 1000)])
        q = rnd.question
        if q is not None and q.kind == "play":
            break
    else:
        pytest.skip("no seeded round reached a play question")
    evs = Advisor(rules, shoe=shoe).returns(rnd)
    best = max(evs, key=lambda k: evs[k])
    hq = hand_question(rules, rnd, shoe.dealt())
    assert hq is not None
    assert exact.pool.submit(lambda: exact.compute(hq)).result(60).split(":")[0] == best
    assert exact.cached(hq) == exact.compute(hq)  # remembered per composition
    advice.stop()


def test_a_first_run_is_announced(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from twentyone.analysis import analyze
    from twentyone.analysis.warmup import NOTICE, compile_pending, notice

    analyze("6D S17 DAS SPL1 NS")  # every kernel: a split into two hands,
    analyze("6D S17 DAS SPL3 NS")  # and resplits
    assert not compile_pending()  # this process has loaded or compiled every kernel
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # an empty cache: all to compile
    assert compile_pending()
    out = io.StringIO()
    assert notice(out) and out.getvalue().strip() == NOTICE


def test_hints_survive_a_reshuffle_in_the_round() -> None:
    # after a shoe empties mid-round the cards listed since the shuffle need not hold the
    # hand in play: the hint falls back to the full shoe instead of failing
    from twentyone import StackedShoe

    rules = load_rules("6D S17 DAS SPL3 NS")

    class Reshuffled:
        def dealt(self) -> tuple[object, ...]:
            # every ten-value card of the shoe, none of them the hand's TS (dealt before)
            tens = parse_cards("TH TD TC KS KH KD KC QS QH QD QC JS JH JD JC JS")
            return tuple(tens * 6)

    rnd = Round(rules, StackedShoe("TS 9H 6D 7C"), [BoxBet("ann", 1000)])
    advisor = Advisor(rules, shoe=Reshuffled())
    assert advisor.shoe is not None
    got = advisor.returns(rnd)
    assert got == {
        k: v
        for k, v in action_evs(rules, rnd.boxes[0].hands[0].cards, rnd.upcard).items()
        if k in {"stand", "hit", "double"}
    }


def test_the_best_play_insures_when_the_tens_left_make_it_pay() -> None:
    from twentyone.analysis.hints import HandQuestion, best_play

    rules = load_rules("6D S17 DAS SPL3 NS")
    nine, seven, ace, ten = parse_cards("9S 7D AH KC")
    ask = ("insure", "no-insurance")
    full = HandQuestion("insurance", ask, (nine, seven), ace, 1, None)
    assert best_play(rules, full) == "no-insurance"  # 96 tens in 309 cards: under a third
    # a shoe the players know to hold 20 tens among 46 cards (less the hand and the ace)
    rich = HandQuestion("insurance", ask, (nine, seven), ace, 1, (4, 2, 2, 2, 2, 2, 4, 4, 4, 20))
    assert best_play(rules, rich) == "insure"
    money = HandQuestion("even-money", ("even-money", "no-even-money"), (ace, ten), ace, 1, None)
    assert best_play(rules, money) == "no-even-money"
    only_amount = HandQuestion("insurance", ("insure:N", "no-insurance"), (nine, seven), ace, 1,
                               (4, 2, 2, 2, 2, 2, 4, 4, 4, 20))  # fmt: skip
    assert best_play(rules, only_amount) is None  # no bare "insure" to point at
