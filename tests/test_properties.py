"""Random rules x random shoes x random legal decisions.

For every round hypothesis makes: money is conserved (each player's bankroll change is the net
of the round's payments, and equals what the hands' results say it should be), no balance goes
below zero, no illegal action is ever accepted (and a refused one changes nothing), every
question is one the rules allow, and replaying the round's log gives the same result.
"""

from __future__ import annotations

import os
import random
from fractions import Fraction
from typing import Literal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentyone import (
    BoxBet,
    IllegalActionError,
    Payment,
    Round,
    Rules,
    Shoe,
    hand_total,
    load_rules,
    replay,
    round_result,
    round_to_replay,
)
from twentyone.engine.hands import Box
from twentyone.engine.records import DECISION_NAMES
from twentyone.engine.rules import DoubleOn
from twentyone.engine.rulesets import SHIPPED
from twentyone.engine.sidebets import cards_seen, outcome

VOCABULARY = DECISION_NAMES  # every decision a round may ask for


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A preset, or a random but valid combination of every field that changes play."""
    if draw(st.booleans()):
        return load_rules(draw(st.sampled_from(SHIPPED)))
    hole = draw(st.booleans())
    peek = hole and draw(st.booleans())
    max_hands: int | Literal["unlimited"] = draw(st.sampled_from([1, 2, 3, 4, "unlimited"]))
    double_on: DoubleOn = draw(st.sampled_from(["any", "9-11", "10-11"]))
    doubled = {"any": range(4, 21), "9-11": range(9, 12), "10-11": range(10, 12)}[double_on]
    even_money = draw(st.booleans())
    switch = not even_money and draw(st.booleans())  # a switch table offers no even money
    return Rules(
        decks=draw(st.integers(1, 8)),
        dealer_hits_soft_17=draw(st.booleans()),
        hole_card=hole,
        peek=peek,
        dealer_blackjack_takes="all" if peek else draw(st.sampled_from(["all", "original"])),
        blackjack_pays=draw(st.sampled_from([Fraction(3, 2), Fraction(6, 5), Fraction(1)])),
        blackjack_paid_at_once=draw(st.booleans()),
        insurance_upcards=draw(st.sampled_from([(), ("A",), ("A", "T")])),
        insurance_stake=draw(st.sampled_from(["half", "up-to-half"])),
        even_money=even_money,
        switch=switch,
        surrender=draw(st.sampled_from(["none", "late", "early"])),
        surrender_against_ace=draw(st.booleans()),
        surrender_before_play=draw(st.booleans()),
        double_on=double_on,
        free_doubles=tuple(t for t in doubled if draw(st.integers(0, 3)) == 0),
        free_splits=tuple(v for v in "A23456789T" if draw(st.integers(0, 2)) == 0),
        dealer_22=draw(st.sampled_from(["bust", "push"])),
        hole_card_up=peek and draw(st.booleans()),
        ties=draw(st.sampled_from(["push", "dealer"])),
        blackjack_ties=draw(st.sampled_from(["push", "player", "dealer"])),
        double_for_less=draw(st.booleans()),
        double_after_split=draw(st.booleans()),
        double_after_hit=draw(st.booleans()),
        redoubles=draw(st.integers(0, 3)),
        rescue=draw(st.booleans()),
        split_by=draw(st.sampled_from(["rank", "value"])),
        max_hands=max_hands,
        split_only_one_box=draw(st.booleans()),
        resplit_aces=(max_hands == "unlimited" or max_hands >= 3) and draw(st.booleans()),
        hit_split_aces=draw(st.booleans()),
        split_second_card=draw(st.sampled_from(["in-turn", "at-once"])),
        min_stand_total=draw(st.sampled_from([0, 12, 13])),
        side_bets={  # type: ignore[arg-type]  # the TOML table, read by side_bets_from
            k: v
            for k, v in (
                ("bonus", {"kind": "678-777", "paytable": {"suited-6-7-8": 3, "7-7-7": 3}}),
                ("jackpot", {"kind": "aces-jackpot", "paytable": {"2": 25, "3": 250}}),
                ("pp", {"kind": "perfect-pairs", "paytable": {"perfect": 25, "mixed": "6"}}),
                ("21-3", {"kind": "21+3", "paytable": {"flush": 5, "straight": "10"}}),
                ("push-22", {"kind": "push-22", "paytable": {"any": 10, "suited": 35}}),
                ("match", {"kind": "super-match", "paytable": {"pair": 1, "two-pairs": 8}}),
            )
            if draw(st.booleans()) and (k != "match" or switch)
        },
        deal_order=draw(st.sampled_from(["round-robin", "box-by-box"])),
        deck=draw(st.sampled_from(["standard", "spanish"])),
        player_21_wins=draw(st.booleans()),
        bonus_21_cards={5: "3:2", 6: "2", 7: "3"} if draw(st.booleans()) else {},  # type: ignore[arg-type]
        bonus_21_678_777={"mixed": "3:2", "suited": "2", "spades": "3"}  # type: ignore[arg-type]
        if draw(st.booleans())
        else {},
        table_boxes=6,  # three boxes, or three switch pairs
        boxes_per_player=6,
    )


def expected_return(rules: Rules, box: Box, hand_index: int) -> Fraction:
    """What a settled hand should pay back, from its result alone."""
    hand = box.hands[hand_index]
    if hand.result == "win":
        return Fraction(2 * hand.bet + hand.free)  # a free stake's win is paid too
    if hand.result == "bonus-21":
        odds = rules.bonus_21(hand.cards, hand.doubled)
        assert odds is not None
        return hand.bet * (1 + odds) + hand.free * odds
    if hand.result == "even-money":
        return Fraction(2 * hand.bet)
    if hand.result == "blackjack":
        return hand.bet * (1 + rules.blackjack_pays)
    if hand.result == "surrender":
        return Fraction(hand.bet, 2)
    if hand.result == "rescue":
        return Fraction(hand.doubled_by)  # the doubles back, the original bet lost
    if hand.result == "push":
        return Fraction(hand.bet)
    if hand.result == "lose" and rules.dealer_blackjack_takes == "original":
        return Fraction(hand.returned)  # OBO refunds are checked by their own tests
    return Fraction(0)


def check_results(rnd: Round) -> None:
    """Each hand's result follows from its cards and the dealer's, judged independently."""
    dealer = hand_total(rnd.dealer)
    dealer_bj = len(rnd.dealer) >= 2 and hand_total(rnd.dealer[:2]).total == 21
    assert bool(rnd.dealer_blackjack) == dealer_bj or len(rnd.dealer) < 2
    live = False
    for box in rnd.boxes:
        for hand in box.hands:
            total = hand.total.total
            natural = len(hand.cards) == 2 and total == 21 and len(box.hands) == 1
            natural = natural and not hand.switched  # a 21 made by switching is a plain 21
            if hand.result in ("bust", "surrender", "even-money"):
                assert (hand.result == "bust") == (total > 21)
                continue
            if natural:
                tie = {"push": "push", "player": "blackjack", "dealer": "lose"}
                assert hand.result == (tie[rnd.rules.blackjack_ties] if dealer_bj else "blackjack")
                continue
            if hand.surrendered:
                assert hand.result == "lose" and dealer_bj
                continue
            if hand.rescued:  # a doubled hand given up: lost only to a dealer blackjack
                assert hand.doubled and total <= 21
                assert hand.result in (("lose", "push") if dealer_bj else ("rescue",))
                continue
            live = True
            if dealer_bj:
                assert hand.result in ("lose", "push")  # push: an OBO refund
                continue
            want = "win" if dealer.total > 21 or total > dealer.total else "lose"
            if total == 21 and rnd.rules.player_21_wins:
                want = "win"  # a player's 21 wins whatever the dealer makes
            elif dealer.total == 22 and rnd.rules.dealer_22 == "push":
                want = "push"  # a dealer's 22 pushes every hand standing
            elif total == dealer.total:
                want = "lose" if rnd.rules.ties == "dealer" else "push"
            if want == "win" and rnd.rules.bonus_21(hand.cards, hand.doubled) is not None:
                want = "bonus-21"  # a 21 paid its bonus odds instead
            assert hand.result == want
    if live and not dealer_bj:
        assert dealer.total >= 17
        before = hand_total(rnd.dealer[:-1])
        assert before.total < 17 or (before.total == 17 and before.soft)


def check_question(rnd: Round) -> None:
    q = rnd.question
    assert q is not None
    box = rnd.boxes[q.box]
    hand = box.hands[q.hand]
    if q.kind != "play":
        assert len(box.hands) == 1 and len(hand.cards) == 2
        return
    assert (not hand.is_blackjack and hand.total.total < 21) or q.actions == ("split", "stand")
    if "split" in q.actions:
        a, b = hand.cards
        assert len(hand.cards) == 2 and a.value == b.value
        limit = rnd.rules.hand_limit
        assert limit is None or len(box.hands) < limit
    if "double" in q.actions or "double:N" in q.actions:
        if hand.doubled:  # a redouble, within the rules' count
            assert hand.doubles <= rnd.rules.redoubles
        else:
            assert len(hand.cards) == 2 or rnd.rules.double_after_hit
    if hand.doubled:  # asked again after its card: stand, redouble or rescue
        assert "stand" in q.actions and len(q.actions) > 1
        assert set(q.actions) <= {"stand", "double", "double:N", "rescue"}
        assert ("rescue" in q.actions) == rnd.rules.rescue
    if "stand" not in q.actions:
        assert hand.total.total < rnd.rules.min_stand_total


@settings(
    max_examples=int(os.environ.get("TWENTYONE_EXAMPLES", "1000")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    rules=rule_sets(),
    seed=st.integers(0, 2**32),
    n_boxes=st.integers(1, 3),
    two_players=st.booleans(),
    tight=st.booleans(),
    choices=st.randoms(use_true_random=False),
)
def test_random_rounds_conserve_money_refuse_illegal_moves_and_replay(
    rules: Rules, seed: int, n_boxes: int, two_players: bool, tight: bool, choices: random.Random
) -> None:
    players = ["ann", "bob"] if two_players else ["ann"]
    bets = []
    for i in range(n_boxes):
        sides = {b.id: 100 for b in rules.staked_side_bets if choices.random() < 0.5}
        bets.append(BoxBet(players[i % len(players)], choices.choice([100, 250, 1000]), sides))
    if rules.switch:  # a switch table takes each player's boxes in pairs of equal bets
        bets = [b for b in bets for _ in (0, 1)]
    players = sorted({b.player for b in bets})
    # a tight bankroll covers the bets and little more, so doubles and splits are often refused
    bankrolls = {
        p: sum(b.staked for b in bets if b.player == p) + (150 if tight else 10**7) for p in players
    }
    rnd = Round(rules, Shoe(decks=rules.decks, seed=seed, deck=rules.deck), bets, bankrolls)
    while not rnd.is_over:
        check_question(rnd)
        q = rnd.question
        assert q is not None
        # an illegal decision is refused and changes nothing
        # (a blackjack's one question also takes "no-insurance" for "no-even-money")
        alias = {"no-insurance"} if q.kind == "even-money" else set()
        wrong = [d for d in VOCABULARY if d not in q.actions and d not in alias]
        if wrong:
            before = (len(rnd.log), rnd.question, rnd.net())
            bad = choices.choice(wrong)
            assert not rnd.can(bad)
            try:
                rnd.apply(bad)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"illegal {bad!r} accepted at {q}")
            assert (len(rnd.log), rnd.question, rnd.net()) == before
        action = choices.choice(q.actions)
        if action.endswith(":N"):
            assert q.amount_range is not None
            lo, hi = q.amount_range
            action = f"{action[:-2]}:{choices.randint(lo, hi)}"
        rnd.apply(action)
        for p in players:
            have = rnd.available(p)
            assert have is not None and have >= 0

    # money: payments per box add up to its net; each player's change is the sum of their boxes
    for box in rnd.boxes:
        assert sum(p.amount for p in rnd.log if isinstance(p, Payment) and p.box == box.index) == (
            box.net
        )
        for i, hand in enumerate(box.hands):
            assert hand.settled and hand.result is not None
            exact = expected_return(rules, box, i)
            assert hand.returned == int(exact) and hand.remainder == exact - int(exact)
        # every staked side bet is settled once, as its kind's evaluator says
        for bet_id, stake in box.side_bets.items():
            paid = [
                p
                for p in rnd.log
                if isinstance(p, Payment) and p.box == box.index and p.side_bet == bet_id
            ]
            assert [p.kind for p in paid] == ["stake", "side-bet"] and paid[0].amount == -stake
            bet = rules.side_bet(bet_id)
            partner = rnd.partner_of(box.index)  # a switch pair's other box (Super Match)
            theirs = rnd.boxes[partner].cards_received if partner is not None else []
            seen = cards_seen(bet.spec.view, box.cards_received, rnd.dealer[0], rnd.dealer, theirs)
            assert paid[1].amount == int(outcome(bet, stake, seen)[1])
    check_results(rnd)
    house = -sum(rnd.net().values())
    assert sum(rnd.net().values()) + house == 0
    for p in players:
        assert bankrolls[p] + rnd.net()[p] == rnd.available(p)

    # the log replays to the same result
    assert replay(round_to_replay(rnd)) == round_result(rnd)
