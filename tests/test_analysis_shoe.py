"""The analysis of any shoe: explicit full shoes, depleted shoes against an independent
brute force, the CLI's --shoe / --remove."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache

import pytest

from twentyone import load_rules
from twentyone.analysis import analyze, shoe_of
from twentyone.engine.errors import CardError


@pytest.mark.parametrize("spec", ["6D S17 DAS SPL1 NS", "pt-casino", "1D H17 DAS SPL3 LS"])
def test_the_full_shoe_given_explicitly_is_the_default(spec: str) -> None:
    rules = load_rules(spec)
    default = analyze(rules)
    full = shoe_of(
        rules, shoe=" ".join(str(4 * rules.decks) for _ in range(9)) + f" {16 * rules.decks}"
    )
    given = analyze(rules, shoe=full)
    assert given.shoe == default.shoe == full
    assert given.ev_basic == default.ev_basic
    assert given.ev_optimal == default.ev_optimal
    assert given.sd == default.sd


def test_shoe_and_remove_spell_the_same_shoe() -> None:
    rules = load_rules("6D S17 DAS SPL1 NS")
    a = shoe_of(rules, shoe="24 24 24 24 20 22 24 24 24 96")
    assert a == shoe_of(rules, remove="5 5 5 5 6 6")
    assert shoe_of(rules, remove="T K 10 AS") == (23, 24, 24, 24, 24, 24, 24, 24, 24, 93)
    with pytest.raises(CardError, match="ten counts"):
        shoe_of(rules, shoe="1 2 3")
    with pytest.raises(CardError, match="more A"):
        shoe_of(load_rules("1D S17"), remove="A A A A A")
    with pytest.raises(CardError, match="rank"):
        shoe_of(rules, remove="Z")


# --- an independent brute force: the composition-dependent optimum of a round without
# splits, no hole card (ENHC: the dealer draws after the player, a dealer blackjack takes
# every stake), written from the rules alone by recursion over the cards left.

Counts = tuple[int, ...]


def _total(cards: tuple[int, ...]) -> tuple[int, bool]:
    hard = sum(v + 1 for v in cards)
    if 0 in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _take(shoe: Counts, v: int) -> Counts:
    return tuple(c - (i == v) for i, c in enumerate(shoe))


@cache
def _dealer(up: int, drawn: tuple[int, ...], shoe: Counts) -> tuple[tuple[str, float], ...]:
    """The dealer's final outcomes ('bj', 17..21 as strings, 'bust') and their probabilities,
    S17, drawing from ``shoe``."""
    cards = (up, *drawn)
    total, _ = _total(cards)
    if len(cards) == 2 and total == 21:
        return (("bj", 1.0),)
    if total > 21:
        return (("bust", 1.0),)
    if total >= 17:
        return ((str(total), 1.0),)
    n = sum(shoe)
    assert n > 0, "the shoe ran out"
    out: dict[str, float] = {}
    for v in range(10):
        if shoe[v]:
            for k, p in _dealer(up, tuple(sorted((*drawn, v))), _take(shoe, v)):
                out[k] = out.get(k, 0.0) + shoe[v] / n * p
    return tuple(sorted(out.items()))


def _stand(total: int, up: int, shoe: Counts) -> float:
    value = 0.0
    for k, p in _dealer(up, (), shoe):
        if k == "bj":
            value -= p
        elif k == "bust":
            value += p
        else:
            value += p * ((total > int(k)) - (total < int(k)))
    return value


@cache
def _best(hand: tuple[int, ...], up: int, shoe: Counts) -> float:
    total, _ = _total(hand)
    if total > 21:
        return -1.0
    stand = _stand(total, up, shoe)
    if total == 21:
        return stand
    n = sum(shoe)
    hit = sum(
        shoe[v] / n * _best(tuple(sorted((*hand, v))), up, _take(shoe, v))
        for v in range(10)
        if shoe[v]
    )
    best = max(stand, hit)
    if len(hand) == 2:
        double = 0.0
        for v in range(10):
            if shoe[v]:
                t, _ = _total((*hand, v))
                double += shoe[v] / n * (-2.0 if t > 21 else 2.0 * _stand(t, up, _take(shoe, v)))
        best = max(best, double)
    return best


def _round(shoe: Counts) -> float:
    """The optimum's return of one round dealt from ``shoe`` (player, up, player)."""
    ev = 0.0
    n = sum(shoe)
    for a in range(10):
        s1 = _take(shoe, a)
        for u in range(10):
            s2 = _take(s1, u)
            for b in range(10):
                p = shoe[a] / n * s1[u] / (n - 1) * s2[b] / (n - 2)
                if p == 0.0:
                    continue
                s3 = _take(s2, b)
                if {a, b} == {0, 9}:
                    bj = dict(_dealer(u, (), s3)).get("bj", 0.0)
                    ev += p * 1.5 * (1.0 - bj)
                else:
                    ev += p * _best(tuple(sorted((a, b))), u, s3)
    return ev


@pytest.mark.parametrize(
    "shoe",
    [
        (2, 1, 0, 1, 2, 2, 1, 0, 1, 8),  # 18 cards: every round ends before the shoe does
        (1, 2, 2, 0, 1, 1, 0, 2, 0, 9),
    ],
)
def test_a_tiny_shoes_optimum_agrees_with_brute_force(shoe: Counts) -> None:
    rules = load_rules("1D S17 DOA SPL0 ENHC")
    got = analyze(rules, shoe=shoe)
    assert got.shoe == shoe
    assert got.ev_optimal == pytest.approx(_round(shoe), abs=1e-12)
    assert got.ev_basic <= got.ev_optimal + 1e-12


def test_removing_small_cards_helps_the_player_as_published() -> None:
    # Griffin, The Theory of Blackjack (6th ed.), table of effects of removal for one deck:
    # removing a 5 gains about +0.69% (the largest), removing an ace costs about -0.61%
    rules = load_rules("1D S17 DOA NDAS SPL3 NS")
    full = analyze(rules).ev_basic
    five = analyze(rules, shoe=shoe_of(rules, remove="5")).ev_basic - full
    ace = analyze(rules, shoe=shoe_of(rules, remove="A")).ev_basic - full
    assert five == pytest.approx(0.0069, abs=0.0006)
    assert ace == pytest.approx(-0.0061, abs=0.0006)


def test_cli_edge_takes_a_shoe() -> None:
    def run(*extra: str) -> dict[str, object]:
        out = subprocess.run(
            [sys.executable, "-m", "twentyone.cli", "edge", "6D S17 DAS SPL1 NS", "--json", *extra],
            capture_output=True,
            text=True,
            check=True,
        )
        data: dict[str, object] = json.loads(out.stdout)
        return data

    by_shoe = run("--shoe", "24 24 24 24 20 22 24 24 24 96")
    by_remove = run("--remove", "5 5 5 5 6 6")
    assert by_shoe["shoe"] == by_remove["shoe"] == [24, 24, 24, 24, 20, 22, 24, 24, 24, 96]
    assert by_shoe["ev_optimal"] == by_remove["ev_optimal"]
    full = run()
    assert full["shoe"] == [24] * 9 + [96]
    assert isinstance(by_shoe["ev_basic"], float) and isinstance(full["ev_basic"], float)
    assert by_shoe["ev_basic"] > full["ev_basic"] + 0.004  # four fives and two sixes out
    bad = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "edge", "1D", "--remove", "A A A A A"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "more A" in bad.stderr


# --- the distribution of a round's net, by the same brute force


def _stand_dist(total: int, up: int, shoe: Counts, stake: float) -> dict[float, float]:
    out: dict[float, float] = {}
    for k, p in _dealer(up, (), shoe):
        if k == "bj":
            net = -stake  # no hole card: a dealer blackjack takes every stake
        elif k == "bust":
            net = stake
        else:
            net = stake * ((total > int(k)) - (total < int(k)))
        out[net] = out.get(net, 0.0) + p
    return out


def _mix(into: dict[float, float], dist: dict[float, float], w: float) -> None:
    for net, p in dist.items():
        into[net] = into.get(net, 0.0) + w * p


def _best_dist(hand: tuple[int, ...], up: int, shoe: Counts) -> dict[float, float]:
    total, _ = _total(hand)
    if total > 21:
        return {-1.0: 1.0}
    n = sum(shoe)
    stand = _stand(total, up, shoe)
    hit = -2.0
    if total < 21:
        hit = sum(
            shoe[v] / n * _best(tuple(sorted((*hand, v))), up, _take(shoe, v))
            for v in range(10)
            if shoe[v]
        )
    double = -3.0
    if len(hand) == 2 and total < 21:
        double = 0.0
        for v in range(10):
            if shoe[v]:
                t, _ = _total((*hand, v))
                double += shoe[v] / n * (-2.0 if t > 21 else 2.0 * _stand(t, up, _take(shoe, v)))
    out: dict[float, float] = {}
    best = max(stand, hit, double)
    if best == stand:
        return _stand_dist(total, up, shoe, 1.0)
    for v in range(10):
        if shoe[v]:
            kid = tuple(sorted((*hand, v)))
            if best == hit:
                _mix(out, _best_dist(kid, up, _take(shoe, v)), shoe[v] / n)
            else:
                t, _ = _total(kid)
                two = {-2.0: 1.0} if t > 21 else _stand_dist(t, up, _take(shoe, v), 2.0)
                _mix(out, two, shoe[v] / n)
    return out


def _round_dist(shoe: Counts) -> dict[float, float]:
    out: dict[float, float] = {}
    n = sum(shoe)
    for a in range(10):
        s1 = _take(shoe, a)
        for u in range(10):
            s2 = _take(s1, u)
            for b in range(10):
                p = shoe[a] / n * s1[u] / (n - 1) * s2[b] / (n - 2)
                if p == 0.0:
                    continue
                s3 = _take(s2, b)
                if {a, b} == {0, 9}:
                    bj = dict(_dealer(u, (), s3)).get("bj", 0.0)
                    _mix(out, {1.5: 1.0 - bj, 0.0: bj}, p)
                else:
                    _mix(out, _best_dist(tuple(sorted((a, b))), u, s3), p)
    return {k: v for k, v in out.items() if v > 0}


@pytest.mark.parametrize("shoe", [(2, 1, 0, 1, 2, 2, 1, 0, 1, 8), (1, 2, 2, 0, 1, 1, 0, 2, 0, 9)])
def test_a_tiny_shoes_outcomes_agree_with_brute_force(shoe: Counts) -> None:
    got = analyze(load_rules("1D S17 DOA SPL0 ENHC"), shoe=shoe)
    want = _round_dist(shoe)
    assert got.outcomes_optimal is not None
    have = {k: v for k, v in got.outcomes_optimal.items() if v > 1e-15}
    assert set(have) == set(want)
    for net, p in want.items():
        assert have[net] == pytest.approx(p, abs=1e-12), net
