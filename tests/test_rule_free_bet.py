"""Free Bet (the ``free-bet`` rule file; ``free_doubles``, ``free_splits`` and ``dealer_22``):
rounds settled by hand from stacked shoes as the rule sheets cited in the file describe them.
A free double or split is the house's stake: it wins like a real one and is simply taken back
when its hand loses or pushes; the player pays nothing in for it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from twentyone import BoxBet, Round, StackedShoe, load_rules, replay
from twentyone.engine.errors import RulesError
from twentyone.engine.records import Action
from twentyone.engine.replay import round_result, round_to_replay
from twentyone.engine.rules import Rules

FREE_BET = load_rules("free-bet")


def _round(cards: str, *decisions: str, bankroll: int | None = None) -> Round:
    """A one-box round of 100 at the free-bet table from ``cards`` (box, dealer up, box,
    dealer hole, then the draws), the ``decisions`` applied in turn."""
    bankrolls = None if bankroll is None else {"ann": bankroll}
    rnd = Round(FREE_BET, StackedShoe(cards), [BoxBet("ann", 100)], bankrolls)
    for d in decisions:
        rnd.apply(d)
    return rnd


def _hands(rnd: Round) -> list[dict[str, object]]:
    hands: list[dict[str, object]] = round_result(rnd)["boxes"][0]["hands"]
    return hands


def test_free_bet_rule_file_cites_the_standard_game() -> None:
    r = FREE_BET
    assert (r.decks, r.dealer_hits_soft_17, r.dealer_22) == (6, True, "push")
    assert r.blackjack_pays == Fraction(3, 2)
    assert r.free_doubles == (9, 10, 11)
    assert r.free_splits == tuple("A23456789")
    assert (r.max_hands, r.resplit_aces, r.double_after_split, r.surrender) == (
        4,
        True,
        True,
        "none",
    )


def test_a_won_free_double_pays_the_free_stake_too() -> None:
    # 6-5 (hard 11) against a ten up, 7 in the hole; the double draws a ten: 21 beats 17.
    # The player's 100 wins 100 and the house's free 100 wins 100 more: +200
    rnd = _round("6S TH 5D 7C TD", "double")
    assert rnd.is_over
    double = next(r for r in rnd.log if isinstance(r, Action))
    assert double.amount == 0  # nothing paid in
    assert _hands(rnd) == [
        {
            "cards": ["6S", "5D", "TD"],
            "bet": 100,
            "total": 21,
            "result": "win",
            "free": 100,
            "net": 200,
        }
    ]
    assert rnd.net() == {"ann": 200}


def test_a_lost_free_double_costs_only_the_bet() -> None:
    # 6-5 doubled draws a 2: 13 against 17 loses: only the player's 100 is lost
    rnd = _round("6S TH 5D 7C 2D", "double")
    assert _hands(rnd)[0]["result"] == "lose"
    assert rnd.net() == {"ann": -100}


def test_a_pushed_free_double_returns_the_bet() -> None:
    # 6-5 doubled draws a 6: 17 against 17 pushes; the free stake is taken back
    rnd = _round("6S TH 5D 7C 6D", "double")
    assert _hands(rnd)[0]["result"] == "push"
    assert rnd.net() == {"ann": 0}


def test_a_free_double_is_offered_with_no_money_left() -> None:
    rnd = _round("6S TH 5D 7C", bankroll=100)  # all of it on the box
    assert rnd.question is not None and "double" in rnd.question.actions


def test_a_soft_double_is_paid_for() -> None:
    # A-7 (soft 18) is not a free double: the player stakes 100 more; it draws a 2 (soft 20)
    # against the dealer's 17: 200 won, all of it the player's stake
    rnd = _round("AS TH 7D 7C 2D", "double")
    double = next(r for r in rnd.log if isinstance(r, Action))
    assert double.amount == 100
    assert _hands(rnd)[0] | {} == {
        "cards": ["AS", "7D", "2D"],
        "bet": 200,
        "total": 20,
        "result": "win",
    }
    assert rnd.net() == {"ann": 200}


def test_a_free_split_hand_wins_the_free_stake() -> None:
    # 8-8 against a 6 up (ten in the hole: 16). The split is free: the second hand's 100 is the
    # house's. Hand 1 takes a 3 (11) and doubles free, drawing a ten: 21; hand 2 takes a ten
    # (18) and stands. The dealer draws a 5: 21. Hand 1 pushes, hand 2 loses: the player loses
    # nothing (the only real stake, hand 1's, pushed)
    rnd = _round("8S 6H 8D TC 3D TD TS 5C", "split", "double", "stand")
    assert rnd.is_over
    hands = _hands(rnd)
    assert [(h["bet"], h.get("free", 0), h["result"]) for h in hands] == [
        (100, 100, "push"),
        (0, 100, "lose"),
    ]
    assert rnd.net() == {"ann": 0}
    # the same round with the dealer drawing a 4 instead: 20; hand 1's 21 wins 100 + the free
    # double's 100, hand 2's 18 loses its free stake only
    rnd = _round("8S 6H 8D TC 3D TD TS 4C", "split", "double", "stand")
    assert [h["net"] for h in _hands(rnd)] == [200, 0]
    assert rnd.net() == {"ann": 200}


def test_a_free_split_hand_that_wins_pays_the_house_stake_to_the_player() -> None:
    # 8-8 against a 6 up, ten in the hole; hand 1 takes a ten (18), hand 2 a 2 then a ten (20);
    # the dealer draws a 9: 25, bust. Hand 1 wins 100; hand 2, the house's 100, wins 100
    rnd = _round("8S 6H 8D TC TD 2S TH 9C", "split", "stand", "hit", "stand")
    assert rnd.is_over
    assert [(h["result"], h.get("net")) for h in _hands(rnd)] == [("win", None), ("win", 100)]
    assert rnd.net() == {"ann": 200}


def test_a_ten_pair_split_is_paid_for() -> None:
    # tens are no free split: the second hand's 100 is the player's own
    rnd = _round("TS 6H KD TC 9S 9D", bankroll=200)
    assert rnd.question is not None and "split" in rnd.question.actions
    rnd.apply("split")
    split = next(r for r in rnd.log if isinstance(r, Action))
    assert split.amount == 100
    assert [h.free for h in rnd.boxes[0].hands] == [0, 0]
    assert not Round(
        FREE_BET, StackedShoe("TS 6H KD TC"), [BoxBet("ann", 100)], {"ann": 100}
    ).can_split()


def test_a_player_21_pushes_against_the_dealers_22() -> None:
    # 7-4 hits a ten: 21; the dealer 6 up, 6 in the hole, draws a ten: 22 pushes the 21
    rnd = _round("7S 6H 4D 6C TD TS", "hit")  # 21 stands by itself
    assert rnd.is_over
    out = round_result(rnd)
    assert out["dealer"]["total"] == 22
    assert _hands(rnd)[0]["result"] == "push"
    assert rnd.net() == {"ann": 0}


def test_a_free_double_pushed_by_the_dealers_22_returns_the_bet() -> None:
    # 6-5 doubled free draws a ten (21); the dealer's 22 pushes it: the free stake goes back
    rnd = _round("6S 6H 5D 6C TD TS", "double")
    assert _hands(rnd)[0]["result"] == "push"
    assert rnd.net() == {"ann": 0}


def test_a_free_bet_round_replays_exactly() -> None:
    rnd = _round("8S 6H 8D TC 3D TD TS 4C", "split", "double", "stand")
    again = replay(round_to_replay(rnd))
    assert again == round_result(rnd)
    assert round_to_replay(rnd)["rules"] == "free-bet"


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("free_doubles", [3], "hard two-card totals from 4 to 20"),
        ("free_doubles", "9", "hard two-card totals from 4 to 20"),
        ("free_splits", ["K"], "'A', '2' to '9' and 'T'"),
    ],
)
def test_free_fields_refuse_bad_values_by_name(field: str, value: object, says: str) -> None:
    with pytest.raises(RulesError, match=field) as err:
        Rules(decks=6).replace(**{field: value})
    assert says in str(err.value)


def test_a_free_double_must_be_a_double_the_table_allows() -> None:
    with pytest.raises(RulesError, match="hard 9 may not be doubled"):
        Rules(decks=6, double_on="10-11", free_doubles=(9, 10, 11))


@pytest.mark.parametrize("lang", ["en", "ro", "pl", "pt", "hu", "ru"])
def test_the_rule_card_tells_the_free_doubles_and_splits_in_every_language(lang: str) -> None:
    from twentyone.rulecard import rule_card

    card = " ".join(rule_card(FREE_BET, lang).split())
    plain = " ".join(rule_card(FREE_BET.replace(free_doubles=(), free_splits=()), lang).split())
    assert "9, 10, 11" in card and "9, 10, 11" not in plain  # the free totals
    assert "A, 2, 3, 4, 5, 6, 7, 8, 9" in card  # the free pairs
    assert len(card) > len(plain) + 200  # two sentences more
    if lang != "en":
        assert "is free" not in card and "house puts up" not in card  # translated


# ---------------------------------------------------------------- the exact analysis
def _engine_mean(rules: Rules, first: str, up: str, rounds: int, play: str) -> tuple[float, float]:
    """The mean net (per unit bet) and its standard error of ``rounds`` engine rounds at a
    continuous shuffler: the box dealt ``first`` (two ranks), the dealer ``up``, the rest of
    six decks shuffled (seeded); the box plays ``play`` first, then splits again where it may
    and stands otherwise (split aces take one card each: that is their whole play)."""
    import random

    from twentyone.engine.cards import RANKS, SUITS, Card

    rng = random.Random(5)
    deck = [Card(r, s) for r in RANKS for s in SUITS] * rules.decks
    total = total2 = 0.0
    for _ in range(rounds):
        cards = deck.copy()
        picked = []
        for rank in (first[0], up, first[1]):
            picked.append(cards.pop(next(i for i, c in enumerate(cards) if c.rank == rank)))
        rng.shuffle(cards)
        rnd = Round(rules, StackedShoe(picked + cards), [BoxBet("p", 100)])
        rnd.apply(play)
        while not rnd.is_over:
            assert rnd.question is not None
            rnd.apply("split" if "split" in rnd.question.actions else "stand")
        x = rnd.net()["p"] / 100
        total += x
        total2 += x * x
    mean = total / rounds
    return mean, ((total2 / rounds - mean * mean) / rounds) ** 0.5


@pytest.mark.parametrize(
    ("first", "up", "play"),
    [("AA", "6", "split"), ("65", "6", "double")],
)
def test_the_exact_return_of_a_free_split_and_a_free_double_agrees_with_the_engine(
    first: str, up: str, play: str
) -> None:
    """advise's exact return of a free split of aces (four hands at most, aces resplit free,
    one card each: the first hand keeps the player's bet, every other hand the house's) and
    of a free double of 11, against 40,000 rounds the engine deals and settles (a standard
    error of about 0.007)."""
    from twentyone.analysis.advise import advise

    rules = FREE_BET.replace(shuffle="continuous")
    exact = advise(rules, f"{first[0]} {first[1]}", up).returns[play]
    mean, se = _engine_mean(rules, first, up, 40_000, play)
    assert abs(mean - exact) < 4 * se, (first, up, play, exact, mean, se)
    # the same return with the player's own stakes is far off: the test tells them apart
    paid = advise(rules.replace(free_doubles=(), free_splits=()), f"{first[0]} {first[1]}", up)
    assert abs(paid.returns[play] - exact) > 20 * se


@pytest.mark.parametrize(
    ("spec", "free"),
    [
        ("free-bet", {}),
        (
            "1D H17 DAS SPL3 RSA P22",
            {"free_doubles": (9, 10, 11), "free_splits": tuple("A23456789")},
        ),
        ("2D S17 DAS SPL1", {"free_doubles": (10, 11), "free_splits": ("A", "8")}),
    ],
)
def test_the_exact_return_with_free_stakes_agrees_with_the_simulator(
    spec: str, free: dict[str, object]
) -> None:
    """The analysis's basic-strategy return with free doubles and splits against 10 million
    seeded rounds of the same chart (a standard error of about 0.00034), shuffled
    continuously (every round from the full shoe, as the analysis deals it)."""
    from twentyone.analysis import analyze, basic_strategy
    from twentyone.sim.runner import simulate

    rules = load_rules(spec).replace(shuffle="continuous", **free)
    exact = analyze(rules, outcomes=False)
    assert exact.sd is None  # the moments do not price free stakes yet
    sim = simulate(rules, 10_000_000, seed=22, workers=1, strategy=basic_strategy(rules))
    se = sim.sd / sim.rounds**0.5
    assert abs(sim.ev - exact.ev_basic) < 4 * se, (spec, exact.ev_basic, sim.ev, se)


def test_free_bets_edge_and_the_parts_that_refuse_it_by_name() -> None:
    from twentyone.analysis import analyze

    report = analyze(FREE_BET, outcomes=False)
    # free doubles and splits win back most of what the dealer's 22 takes ("6D H17 P22 DAS
    # SPL3 RSA": 7.51%): about 1% (published: 1.01%, docs/variants.md)
    assert 0.009 < -report.ev_basic < 0.011
    assert -report.ev_optimal <= -report.ev_basic
    free_only = load_rules("2D S17 DAS SPL3").replace(free_doubles=(10, 11))
    with pytest.raises(RulesError, match=r"free_doubles=\(10, 11\).*distribution"):
        analyze(free_only)  # the round's distribution
    unlimited = free_only.replace(free_doubles=(), free_splits=("8",), max_hands="unlimited")
    with pytest.raises(RulesError, match=r"free_splits.*past four hands"):
        analyze(unlimited, outcomes=False)  # a free split's return past four hands


# ---------------------------------------------------------------- the Push 22 bet
def _push22_round(cards: str, *decisions: str, stake: int = 10) -> Round:
    bets = [BoxBet("ann", 100, {"push-22": stake} if stake else {})]
    rnd = Round(FREE_BET, StackedShoe(cards), bets)
    for d in decisions:
        rnd.apply(d)
    assert rnd.is_over
    return rnd


@pytest.mark.parametrize(
    ("dealer", "returned"),
    [
        ("6S 6S TS", 36 * 10),  # one suit: 35 to 1
        ("6S 6C TS", 18 * 10),  # one colour (black): 17 to 1
        ("6H 6C TS", 11 * 10),  # any 22: 10 to 1
        ("6H 7C 9S", 11 * 10),  # three cards, 22
        ("6H 7C TS", 0),  # 23: lost
    ],
)
def test_push_22_pays_by_the_dealers_final_cards(dealer: str, returned: int) -> None:
    """free-bet's Push 22 (the Rendezvous sheet's 10 to 1 any 22, 17 to 1 of one colour, 35 to
    1 of one suit): the box stands on 20 (T K) against the dealer's cards."""
    up, hole, draw = dealer.split()
    rnd = _push22_round(f"TS {up} KD {hole} {draw}", "stand")
    assert rnd.boxes[0].side_paid["push-22"] == returned
    hand = rnd.boxes[0].hands[0]
    assert hand.result == ("push" if returned else "win")


def test_the_dealer_draws_out_while_push_22_is_staked() -> None:
    # the box's T-2 hits a king and busts: no hand is left to play for. Without the bet the
    # dealer's 6-6 draws nothing; with it the dealer draws a ten: 22, paid 10 to 1
    bare = _push22_round("TS 6H 2D 6C KS TD", "hit", stake=0)
    assert [str(c) for c in bare.dealer] == ["6H", "6C"]
    staked = _push22_round("TS 6H 2D 6C KS TD", "hit")
    assert [str(c) for c in staked.dealer] == ["6H", "6C", "TD"]
    assert staked.boxes[0].side_paid["push-22"] == 110
    assert staked.net() == {"ann": -100 + 100}  # the bust's 100 lost, the bet's 100 won


def test_a_dealer_blackjack_loses_push_22() -> None:
    rnd = _push22_round("9S KH 9D AC")  # the peek under the king finds blackjack: it ends
    assert rnd.boxes[0].side_paid["push-22"] == 0


def test_push_22_exact_lines_agree_with_dealt_dealer_hands() -> None:
    """The exact chances of the dealer's 22 (any, one colour, one suit) against 300,000 dealer
    hands dealt from seeded six-deck shoes by the engine's own drawing rule."""
    import random

    from twentyone.analysis.side_bets import dealer_final_lines, side_bet_price
    from twentyone.engine.cards import RANKS, SUITS, Card, hand_total
    from twentyone.engine.round_settlement import dealer_must_draw
    from twentyone.engine.sidebets import push_22

    exact = dealer_final_lines(FREE_BET)
    rng = random.Random(22)
    deck = [Card(r, s) for r in RANKS for s in SUITS] * FREE_BET.decks
    n = 300_000
    seen = {"any": 0, "coloured": 0, "suited": 0}
    for _ in range(n):
        cards = rng.sample(deck, 12)  # more than any dealer hand takes
        hand = cards[:2]
        while dealer_must_draw(hand, FREE_BET):
            hand.append(cards[len(hand)])
        for line in push_22(hand):
            seen[line] += 1
        assert hand_total(hand).total >= 17
    for line, p in exact.items():
        se = (p * (1 - p) / n) ** 0.5
        assert abs(seen[line] / n - p) < 4 * se, (line, p, seen[line] / n)
    price = side_bet_price(FREE_BET, FREE_BET.side_bet("push-22"))
    lines = price["lines"]
    assert lines["suited"] == pytest.approx(exact["suited"])
    assert lines["any"] == pytest.approx(exact["any"] - exact["coloured"])
    assert price["return"] == pytest.approx(
        -1 + 36 * lines["suited"] + 18 * lines["coloured"] + 11 * lines["any"]
    )


def test_the_hints_price_a_free_split_hand_as_the_houses_stake() -> None:
    """After a free split of 8-8 against a 6, the second hand (8-T, the house's 100) is
    advised with its own returns: standing is worth its chance of a win (it never loses),
    checked against 20,000 rounds the engine settles from random hole cards and draws."""
    import random

    from twentyone.analysis.actions import action_evs
    from twentyone.analysis.hints import hand_question, question_returns
    from twentyone.engine.cards import RANKS, SUITS, Card, parse_cards

    rules = FREE_BET.replace(shuffle="continuous")
    rnd = Round(rules, StackedShoe("8S 6H 8D TC 9C TS"), [BoxBet("ann", 100)])
    rnd.apply("split")
    rnd.apply("stand")  # hand 1: 8-9, 17
    hq = hand_question(rules, rnd, None)
    assert hq is not None and hq.free and [str(c) for c in hq.cards] == ["8D", "TS"]
    evs = question_returns(rules, hq)
    paid = action_evs(rules, list(hq.cards), hq.upcard, split_hands=2, shoe=hq.shoe)
    assert evs["stand"] > 0 and evs["stand"] > paid["stand"]
    # the engine: the hole card and the draws random from the rest of the shoe
    rng = random.Random(8)
    deck = [Card(r, s) for r in RANKS for s in SUITS] * rules.decks
    for c in parse_cards("8S 6H 8D 9C TS"):
        deck.remove(c)
    n, won = 20_000, 0
    for _ in range(n):
        rest = rng.sample(deck, 8)
        cards = [*parse_cards("8S 6H 8D"), rest[0], *parse_cards("9C TS"), *rest[1:]]
        one = Round(rules, StackedShoe(cards), [BoxBet("ann", 100)])
        for d in ("split", "stand", "stand"):
            one.apply(d)
        won += one.boxes[0].hands[1].result == "win"
    p = won / n
    assert abs(p - evs["stand"]) < 4 * (p * (1 - p) / n) ** 0.5, (p, evs["stand"])
