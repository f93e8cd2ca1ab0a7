"""Index plays generated from the exact analysis at each true count's shoe (issue 13 item 3).

The published figures are Don Schlesinger's Hi-Lo Illustrious 18 and Fab 4 for a 6-deck game,
dealer stands on soft 17, double after split, late surrender (*Blackjack Attack: Playing the
Pros' Way*), held as data in src/twentyone/counting/named_sets.toml.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

import pytest

from twentyone import load_rules
from twentyone.cli import main
from twentyone.counting.count_line import count_line
from twentyone.counting.index_gen import Decision, GeneratedIndex, crossings, generate, shoe_returns
from twentyone.counting.indices import (
    NamedDecision,
    index_list,
    named_decisions,
    named_indices,
)
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules

GAME = "6D S17 DAS LS"
DECKS_LEFT = Fraction(15, 4)
UPS = "A23456789T"


def _named() -> list[NamedDecision]:
    return named_decisions("I18") + named_decisions("FAB4")


@cache
def published_game() -> tuple[Rules, list[GeneratedIndex]]:
    rules = load_rules(GAME)
    wanted = frozenset((d.up, d.hand) for d in _named() if d.hand != "insurance")
    _, got = generate(rules, "hilo", decks_left=DECKS_LEFT, wanted=wanted)
    return rules, got


def _found(d: NamedDecision) -> GeneratedIndex:
    _, got = published_game()
    hits = [e for e in got if d.matches(e)]
    assert len(hits) == 1, (d, hits)
    return hits[0]


@pytest.mark.parametrize("decision", _named(), ids=lambda d: f"{d.name}-{d.hand}-v-{d.up}")
def test_hilo_i18_and_fab4_within_one_of_published(decision: NamedDecision) -> None:
    e = _found(decision)
    assert abs(e.index - decision.published) <= 1, e
    # each published index names the play made at that count or above
    assert e.at_or_above == decision.play, e


def _delta(rules: Rules, up: str, hand: str, plays: tuple[str, str], shoe: Sequence[int]) -> float:
    ret, _ = shoe_returns(rules, shoe, UPS.index(up), frozenset({hand}))
    r = ret[hand]
    if "surrender" in plays:  # surrender against the best other play
        got = Decision(hand, "surrender", ("hit", "stand", "double")).delta(r)
        assert got is not None
        return got[0] if plays[1] == "surrender" else -got[0]
    below, above = (p.replace("double-stand", "double") for p in plays)
    if {below, above} == {"hit", "stand"} and "any:stand" in r:
        below, above = "any:" + below, "any:" + above  # every hand that reaches the total
    return r[above] - r[below]


def _at_count(rules: Rules, e: GeneratedIndex, tc: float) -> float:
    """at_or_above's return less below's on the expected shoe at ``tc``: the exact analysis
    at the whole-card shoe just under that composition, plus each rank's share of a card more
    (each rank's effect measured exactly: one card of it added)."""
    comp = count_line("hilo", DECKS_LEFT).composition(tc)
    base = [math.floor(x) for x in comp]
    plays = (e.below, e.at_or_above)
    d0 = _delta(rules, e.up, e.hand, plays, base)
    total = d0
    for r, x in enumerate(comp):
        frac = x - base[r]
        if frac > 1e-9:
            more = list(base)
            more[r] += 1
            total += frac * (_delta(rules, e.up, e.hand, plays, more) - d0)
    return total


CHECKED = [
    d
    for d in _named()
    if (d.hand, d.up)
    in {
        ("16", "T"),
        ("12", "4"),
        ("10", "A"),
        ("T,T", "5"),
        ("insurance", "A"),
        ("15", "A"),
        ("9", "2"),
    }
]


@pytest.mark.parametrize("decision", CHECKED, ids=lambda d: f"{d.name}-{d.hand}-v-{d.up}")
def test_index_agrees_with_the_exact_analysis_at_the_counts_shoes(
    decision: NamedDecision,
) -> None:
    rules, _ = published_game()
    e = _found(decision)
    assert _at_count(rules, e, e.index - 1) < 0.0  # below is the better play
    assert _at_count(rules, e, e.index + 1) > 0.0  # at_or_above is the better play


def test_surrender_before_play_has_indices_ro_11() -> None:
    # ro.11: surrender is asked before play (an early surrender, not against an ace)
    rules = load_rules("ro-casino")
    got = named_indices(rules, "hilo", "FULL")
    sur = [e for e in got if "surrender" in (e["below"], e["at_or_above"])]
    assert [e for e in sur if e["hand"] == "15" and e["up"] == "T"]
    assert all(e["up"] != "A" for e in sur)  # never offered against an ace


def test_insurance_against_a_ten_has_no_index_in_range_ru_5() -> None:
    # ru.5 insurance against a ten pays on an ace underneath: Hi-Lo counts aces with the
    # tens, but a 1-in-3 ace needs a true count far above +10
    got = named_indices(load_rules("ru-online"), "hilo", "FULL")
    ins = [e for e in got if e["hand"] == "insurance"]
    assert [e["up"] for e in ins] == ["A"]


def test_no_peek_games_never_double_ten_against_ace() -> None:
    # hu.4 no hole card: a dealer blackjack takes the doubled stake, so 10 v A is never doubled
    got = named_indices(load_rules("hu-casino"), "hilo", "FULL")
    assert not [e for e in got if e["hand"] == "10" and e["up"] == "A"]
    assert [
        e
        for e in named_indices(load_rules("ru-online"), "hilo", "FULL")
        if e["hand"] == "10" and e["up"] == "A"
    ]


def test_shipped_list_is_what_the_generator_makes() -> None:
    rules = load_rules("ru-online")
    shipped = index_list(rules, "hilo")
    wanted = frozenset(("T", h) for h in ("10", "11", "12", "13", "14", "15", "16", "T,T", "8,8"))
    _, fresh = generate(rules, "hilo", decks_left=shipped.decks_left, wanted=wanted)
    old = [e for e in shipped.entries if e.up == "T" and ("T", e.hand) in wanted]
    assert [e.to_json() for e in fresh] == [e.to_json() for e in old]
    assert [round(e.crossover, 3) for e in fresh] == [round(e.crossover, 3) for e in old]


def test_named_sets_filter_the_full_list() -> None:
    rules = load_rules("ru-online")
    full = named_indices(rules, "hilo", "FULL")
    i18 = named_indices(rules, "hilo", "I18")
    assert i18 and all(e in full for e in i18) and len(i18) < len(full)
    assert set(i18[0]) == {"hand", "up", "below", "at_or_above", "index"}
    with pytest.raises(RulesError, match="expected one of I18, FAB4, FULL"):
        named_indices(rules, "hilo", "TOP10")


def test_count_line_keeps_the_true_count() -> None:
    line = count_line("hilo", Fraction(4))
    for k in (-3, 1, 4):
        shoe = line.shoe(k)
        seen = [24 - x for x in shoe[:9]] + [96 - shoe[9]]
        rc = sum(t * s for t, s in zip(line.tags, seen, strict=True))
        assert sum(shoe) == 208 and rc / 4 == pytest.approx(k * line.tc_step)


def test_crossing_found_on_the_interpolated_curve() -> None:
    xs = [-2.0, 0.0, 2.0, 4.0]
    ys = [(x - 1.3) * (1 + 0.05 * x) for x in xs]
    assert crossings(xs, ys) == [pytest.approx(1.3, abs=1e-6)]


def test_decision_compares_with_the_best_other_play() -> None:
    d = Decision("9", "double", ("hit", "stand"))
    assert d.delta({"hit": 0.1, "stand": -0.2, "double": 0.15}) == (pytest.approx(0.05), "hit")  # type: ignore[comparison-overlap]
    assert d.delta({"hit": 0.1, "stand": -0.2}) is None


def test_cli_indices_json_and_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["indices", "pl-online", "--set", "I18", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == named_indices(load_rules("pl-online"), "hilo", "I18")
    assert main(["indices", "pl-online", "--set", "I18", "--method", "risk-averse"]) == 0
    out = capsys.readouterr().out
    assert "risk-averse" in out and "11" in out
    assert main(["indices", "pl-online", "--count", "ko"]) == 2
    assert "expected one of Hi-Lo" in capsys.readouterr().err
