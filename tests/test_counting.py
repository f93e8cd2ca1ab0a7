"""Counting systems, the true count, bet ramps and index sets as data: what they load to, and
the errors that name a bad value."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from twentyone.counting.counts import (
    COUNT_RANKS,
    SYSTEMS,
    CountSystem,
    SideCount,
    TrueCount,
    count_from_toml,
    load_count,
)
from twentyone.counting.index_set import (
    NEVER,
    IndexPlay,
    encode_indices,
    indices_from_data,
    load_indices,
)
from twentyone.counting.ramp import load_ramp, parse_ramp
from twentyone.engine.errors import CountError
from twentyone.sim.encode import K_HARD, K_PAIR, K_SURRENDER, X_SURRENDER

# published tags (Wong, "Professional Blackjack"; Snyder, "Blackbelt in Blackjack"; Vancura
# and Fuchs, "Knock-Out Blackjack"), by rank A, 2..9, T
PUBLISHED = {
    "hilo": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    "ko": (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    "hiopt1": (0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
    "hiopt2": (0, 1, 1, 2, 2, 1, 1, 0, 0, -2),
    "omega2": (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
    "zen": (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
    "halves": (-1, 0.5, 1, 1, 1.5, 1, 0.5, 0, -0.5, -1),
    "red7": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
}


@pytest.mark.parametrize("key", SYSTEMS)
def test_built_in_systems_load_with_their_published_tags(key: str) -> None:
    system = load_count(key)
    assert system.tags == tuple(Fraction(t) for t in PUBLISHED[key])
    balanced = key not in ("ko", "red7")
    assert system.balanced is balanced
    # a balanced count starts at zero; KO at 4 - 4 x decks, Red 7 at -2 x decks
    irc = {"ko": 4 - 4 * 6, "red7": -2 * 6}.get(key, 0)
    assert system.initial_running_count(6) == irc
    if not balanced:  # unbalanced counts end a full shoe at their pivot, not at zero
        assert irc + 6 * system.deck_sum == {"ko": 4, "red7": 0}[key]


def test_wong_halves_is_exact_in_halves_and_red7_sees_suits() -> None:
    halves = load_count("halves")
    assert halves.scale == 2 and halves.tags[4] == Fraction(3, 2)
    red7 = load_count("red7")
    assert red7.tag_of("7", "H") == 1 and red7.tag_of("7", "C") == 0
    assert red7.deck_sum == 2 and red7.rank_tags[6] == Fraction(1, 2)
    hiopt2 = load_count("hiopt2")
    assert hiopt2.side_counts == (SideCount(name="aces", rank="A", betting_weight=Fraction(2)),)


def test_a_users_file_loads_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'name = "Mine"\ntags = { A = -1, 2 = "1/2", 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 1.0, 8 = 0, '
        '9 = 0, T = -1 }\n[true_count]\nestimation = "half-deck"\nrounding = "truncate"\n'
    )
    system = load_count(str(path))
    assert system.name == "Mine" and system.key == "mine"
    assert system.tags[1] == Fraction(1, 2) and system.tags[6] == 1
    assert system.true_count == TrueCount(estimation="half-deck", rounding="truncate")
    assert not system.balanced and system.deck_sum == 2


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ("tags = { A = -1, 2 = 1 }", "tags"),
        (
            'tags = { A = "x", 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }',
            "'x'",
        ),
        (
            "tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }\n"
            "colour = 1",
            "'colour'",
        ),
        (
            "tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }\n"
            '[true_count]\nrounding = "up"',
            "'up'",
        ),
        (
            "tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }\n"
            '[true_count]\nestimation = "quarter-deck"',
            "'quarter-deck'",
        ),
        ("tags = [", "bad.toml': Invalid value"),
    ],
)
def test_bad_count_files_are_refused_naming_the_value(toml: str, named: str) -> None:
    with pytest.raises(CountError) as err:
        count_from_toml(toml, "bad.toml")
    assert named in str(err.value)


def test_unknown_system_names_the_built_in_ones() -> None:
    with pytest.raises(CountError, match=r"'hilow'.*hilo, ko"):
        load_count("hilow")


def test_true_count_estimation_and_rounding() -> None:
    # running count -7 with 130 cards (2.5 decks) left
    exact = TrueCount(estimation="exact", rounding="floor")
    assert exact.exact(Fraction(-7), 130) == Fraction(-14, 5)
    assert exact.of(Fraction(-7), 130) == -3
    assert TrueCount(estimation="exact", rounding="truncate").of(Fraction(-7), 130) == -2
    assert TrueCount(estimation="exact", rounding="round").of(Fraction(-7), 130) == -3
    # halves round away from zero
    assert TrueCount(estimation="exact", rounding="round").of(Fraction(5), 104) == 3
    assert TrueCount(estimation="exact", rounding="round").of(Fraction(-5), 104) == -3
    # 130 cards: 2.5 decks seen by half decks, 3 by whole decks (halves up), none: no division
    assert TrueCount(estimation="half-deck").decks_left(130) == Fraction(5, 2)
    assert TrueCount(estimation="half-deck").decks_left(120) == Fraction(5, 2)
    assert TrueCount(estimation="full-deck").decks_left(130) == 3
    assert TrueCount(estimation="full-deck").decks_left(10) == 1
    assert TrueCount(estimation="none").of(Fraction(-7), 130) == -7
    with pytest.raises(CountError, match="estimation='eyeball'"):
        TrueCount(estimation="eyeball")


def test_side_count_adjusts_the_betting_count() -> None:
    aces = SideCount(name="aces", rank="A", betting_weight=Fraction(2))
    # six decks, half dealt (156 left), no aces seen: 24 left against 12 expected
    assert aces.adjustment(0, 156, 6) == 24
    assert aces.adjustment(12, 156, 6) == 0
    with pytest.raises(CountError, match="'Z'"):
        SideCount(name="z", rank="Z", betting_weight=Fraction(1))


def test_count_system_validates_its_tags() -> None:
    with pytest.raises(CountError, match="expected a tag for each rank"):
        CountSystem(name="short", tags=(Fraction(1),) * 9)
    system = CountSystem(name="x", tags=tuple(Fraction(t) for t in PUBLISHED["zen"]))
    assert system.red_tags == system.tags and system.balanced
    assert len(COUNT_RANKS) == 10


def test_ramp_semantics_as_the_issue_states() -> None:
    ramp = parse_ramp("0:1 1:2 2:4 3:8 4:12")
    # at tc or more: that pair's units; below the first pair: the first pair's units
    assert [ramp.units(tc) for tc in range(-2, 7)] == [1, 1, 1, 2, 4, 8, 12, 12, 12]
    wong = parse_ramp("-1:0, 1:1, 2:4")
    assert [wong.units(tc) for tc in (-5, -1, 0, 1, 2)] == [0, 0, 0, 1, 4]
    assert ramp.spread == "1-12" and wong.spread == "1-4"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("1:2 2", "'2'"),
        ("1:2 2:x", "'2:x'"),
        ("1:2 2:-4", "'2:-4'"),
        ("2:2 1:4", "(2 1)"),
        ("1:2 1:4", "(1 1)"),
        ("", "expected tc:units"),
    ],
)
def test_bad_ramps_are_refused_naming_the_pair(text: str, named: str) -> None:
    with pytest.raises(CountError) as err:
        parse_ramp(text)
    assert named in str(err.value)


def test_ramp_from_a_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "ramp.toml"
    path.write_text("steps = [[0, 1], [2, 4], [4, 8]]\n")
    assert load_ramp(str(path)).steps == ((0, 1), (2, 4), (4, 8))
    path.write_text('ramp = "1:1 3:6"\n')
    assert load_ramp(str(path)).units(5) == 6
    path.write_text("steps = [[0, 1], [0, 4]]\n")
    with pytest.raises(CountError, match="must rise"):
        load_ramp(str(path))
    with pytest.raises(CountError, match=r"nope\.toml"):
        load_ramp(str(tmp_path / "nope.toml"))


def test_published_sets_load_and_encode() -> None:
    i18 = load_indices("I18")
    fab4 = load_indices("FAB4")
    assert len(i18) == 18 and len(fab4) == 4
    assert i18[0] == IndexPlay(
        hand="insurance", up="A", below="no-insurance", at_or_above="insure", index=3
    )
    both = load_indices("I18+FAB4")
    table, entries, ins = encode_indices(both)
    assert int(ins[0]) == 3 and int(ins[1]) == NEVER
    # 15 against a ten: a play entry (stand at +4) and a surrender entry (at 0)
    col_t = 8
    play = table[K_HARD, 15, col_t]
    surr = table[K_SURRENDER + K_HARD, 15, col_t]
    assert tuple(entries[play]) == (4, 0, 1)  # hit below, stand at or above
    assert tuple(entries[surr]) == (0, 0, X_SURRENDER)
    tt5 = table[K_PAIR, 10, 3]
    assert tuple(entries[tt5]) == (5, 1, 4)  # stand below, split at or above
    assert (table >= 0).sum() == 21  # 17 hand entries of I18 and 4 of Fab 4


@pytest.mark.parametrize(
    ("entry", "named"),
    [
        ({"hand": "A,7", "up": "6", "below": "hit", "at_or_above": "double", "index": 1}, "'A,7'"),
        ({"hand": "23", "up": "6", "below": "hit", "at_or_above": "stand", "index": 1}, "'23'"),
        ({"hand": "16", "up": "1", "below": "hit", "at_or_above": "stand", "index": 0}, "'1'"),
        ({"hand": "16", "up": "T", "below": "hit", "at_or_above": "split", "index": 0}, "'split'"),
        ({"hand": "16", "up": "T", "below": "hold", "at_or_above": "stand", "index": 0}, "'hold'"),
        ({"hand": "16", "up": "T", "below": "hit", "at_or_above": "stand", "index": 0.5}, "0.5"),
        (
            {
                "hand": "insurance",
                "up": "9",
                "below": "no-insurance",
                "at_or_above": "insure",
                "index": 3,
            },
            "'9'",
        ),
        ({"hand": "16", "up": "T", "below": "hit", "index": 0}, "at_or_above"),
    ],
)
def test_bad_index_entries_are_refused_naming_the_value(
    entry: dict[str, object], named: str
) -> None:
    with pytest.raises(CountError) as err:
        indices_from_data([entry], "mine.json")
    assert named in str(err.value) and "mine.json" in str(err.value)


def test_index_files_and_their_spellings(tmp_path: Path) -> None:
    entries = [
        {"hand": "soft 18", "up": "2", "below": "stand", "at_or_above": "double-stand", "index": 1},
        {"hand": "A,A", "up": "A", "below": "hit", "at_or_above": "split", "index": -3},
        {"hand": "16", "up": "T", "below": "no-surrender", "at_or_above": "surrender", "index": 0},
        {
            "hand": "insurance",
            "up": "T",
            "below": "no-insurance",
            "at_or_above": "insure",
            "index": 5,
        },
    ]
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"name": "mine", "indices": entries}))
    plays = load_indices(str(path))
    assert [p.to_dict() for p in plays] == entries
    assert plays[2].is_surrender and plays[3].is_insurance
    assert plays[0].play_at(0) == "stand" and plays[0].play_at(1) == "double-stand"
    table, _, ins = encode_indices(plays)
    assert int(ins[1]) == 5 and int(ins[0]) == NEVER  # ru.5: insurance against a ten
    assert table[1, 18, 0] == 0 and table[K_PAIR, 1, 9] == 1
    path.write_text(json.dumps(entries + entries[:1]))
    with pytest.raises(CountError, match="soft 18 against 2 is given twice"):
        load_indices(str(path))
    path.write_text("[{")
    with pytest.raises(CountError, match=r"set\.json"):
        load_indices(str(path))


def test_kernel_true_count_equals_the_python_one() -> None:
    """The kernel's integer true count (count_play.true_count) is TrueCount.of exactly, for
    every estimation and rounding, halves and side counts included."""
    from twentyone import load_rules
    from twentyone.counting.sim_runner import encode_count
    from twentyone.sim.count_play import ST_POS, ST_RC, ST_SIDE, ST_SIZE, true_count

    rng = np.random.default_rng(5)
    rules = load_rules("6D S17")
    size = 52 * 6
    for key in ("hilo", "halves", "hiopt2", "ko"):
        base = load_count(key)
        for est in ("exact", "half-deck", "full-deck", "none"):
            for rounding in ("floor", "truncate", "round"):
                system = CountSystem(
                    name=base.name,
                    tags=base.tags,
                    red_tags=base.red_tags,
                    initial_per_deck=base.initial_per_deck,
                    initial_constant=base.initial_constant,
                    side_counts=base.side_counts,
                    true_count=TrueCount(estimation=est, rounding=rounding),
                )
                cp = encode_count(system, rules, ())[0]
                st = np.zeros(ST_SIZE, dtype=np.int64)
                for _ in range(200):
                    dealt = int(rng.integers(0, size))
                    rc = Fraction(int(rng.integers(-60, 61)), system.scale)
                    aces = int(rng.integers(0, 25))
                    st[ST_POS], st[ST_RC], st[ST_SIDE] = dealt, int(rc * system.scale), aces
                    running = rc
                    for side in system.side_counts:
                        running += side.adjustment(aces, size - dealt, 6)
                    want = system.true_count.of(running, size - dealt)
                    assert true_count(st, cp, size) == want, (key, est, rounding, rc, dealt)
