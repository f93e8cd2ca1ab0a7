"""Effects of removal and betting correlations against published figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from twentyone import load_rules
from twentyone.analysis import analyze
from twentyone.counting.eor import TAGS, betting_correlation, effects_of_removal

# Peter Griffin, "The Theory of Blackjack" (6th ed., 1999), effects of removal on basic
# strategy, one deck, Las Vegas Strip rules (S17, double any two, no DAS), % of the bet.
GRIFFIN_1D = {
    "A": -0.61,
    "2": 0.38,
    "3": 0.44,
    "4": 0.55,
    "5": 0.69,
    "6": 0.46,
    "7": 0.28,
    "8": 0.00,
    "9": -0.18,
    "T": -0.51,
}
# Griffin's betting correlations of the same systems (one deck), as quoted in Wong,
# "Professional Blackjack", and Schlesinger, "Blackjack Attack".
PUBLISHED_BC = {
    "Hi-Lo": 0.97,
    "KO": 0.98,
    "Hi-Opt I": 0.88,
    "Hi-Opt II": 0.91,
    "Omega II": 0.92,
    "Zen": 0.96,
    "Wong Halves": 0.99,
}
# Wizard of Odds, "Effect of Card Removal in Blackjack" (appendix 7, from Farmer's CA): six
# decks, DOA, DAS, split once, S17, play adjusted to the composition (CDZ-), % of the bet.
WOO_6D_OPTIMAL = {
    "A": -0.094,
    "2": 0.069,
    "3": 0.082,
    "4": 0.110,
    "5": 0.141,
    "6": 0.079,
    "7": 0.041,
    "8": -0.008,
    "9": -0.040,
    "T": -0.091,
}


@pytest.fixture(scope="module")
def one_deck() -> object:
    return effects_of_removal(load_rules("1D S17 DOA NDAS SPL3 NS"))


def test_one_deck_effects_match_griffin(one_deck: object) -> None:
    from twentyone.counting.eor import EorReport

    assert isinstance(one_deck, EorReport)
    for rank, pct in GRIFFIN_1D.items():
        assert 100 * one_deck.eor_basic[rank] == pytest.approx(pct, abs=0.025), rank
    # each effect is exactly the return of the shoe one card short less the full shoe's
    rules = load_rules("1D S17 DOA NDAS SPL3 NS")
    five_out = analyze(rules, shoe=(4, 4, 4, 4, 3, 4, 4, 4, 4, 16))
    assert one_deck.eor_optimal["5"] == five_out.ev_optimal - analyze(rules).ev_optimal
    # removing the whole deck one card at a time sums to about zero (the return is nearly
    # linear in the composition)
    total = sum(
        n * one_deck.eor_basic[r] for r, n in zip("A23456789T", (*(4,) * 9, 16), strict=True)
    )
    assert abs(total) < 0.002


def test_betting_correlations_match_the_published(one_deck: object) -> None:
    from twentyone.counting.eor import EorReport

    assert isinstance(one_deck, EorReport)
    for name, bc in PUBLISHED_BC.items():
        assert one_deck.betting_correlation[name] == pytest.approx(bc, abs=0.006), name
    assert betting_correlation(TAGS["Zen"], [2 * t for t in TAGS["Zen"]]) == pytest.approx(1.0)


def test_six_deck_optimal_effects_near_the_wizards_table() -> None:
    got = effects_of_removal(load_rules("6D S17 DAS SPL1 NS"))
    for rank, pct in WOO_6D_OPTIMAL.items():
        # the published table runs up to 10% larger on the small cards; signs and order agree
        assert 100 * got.eor_optimal[rank] == pytest.approx(pct, abs=0.02), rank
    order = sorted(got.eor_optimal, key=lambda r: got.eor_optimal[r])
    assert order[:2] == ["A", "T"] and order[-1] == "5"


def test_cli_eor_json() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "twentyone.cli", "eor", "1D S17 DOA NDAS SPL3 NS", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert list(data["eor_basic"]) == list("A23456789T") == list(data["eor_optimal"])
    # every built-in count system (counting/systems/*.toml), Red 7 too (no published figure)
    assert set(data["betting_correlation"]) == set(PUBLISHED_BC) | {"Red 7"}
    assert data["tags"]["Wong Halves"]["5"] == 1.5 and data["tags"]["Red 7"]["7"] == 0.5
    assert data["eor_basic"]["5"] > 0 > data["eor_basic"]["A"]
