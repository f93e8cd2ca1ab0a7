"""The trainers' logic (twentyone.counting.trainer, twentyone.counting.trainer_cards): counts
worked out here from Hi-Lo's published tags, flashcard answers checked against the engine's own
questions."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from twentyone.counting.index_set import IndexPlay
from twentyone.counting.trainer import (
    CountDrill,
    Mark,
    Tally,
    count_names,
    count_of,
    count_system,
    parse_count,
)
from twentyone.counting.trainer_cards import (
    Flashcard,
    FlashcardDeck,
    answer,
    chart_play,
    entries_for,
    grade,
    legal_plays,
    load_index_list,
)
from twentyone.engine.cards import Card, full_deck, hand_total, parse_cards
from twentyone.engine.errors import CountError, TrainerError
from twentyone.engine.hands import BoxBet
from twentyone.engine.round import Round
from twentyone.engine.rulesets import PRESETS, load_rules
from twentyone.engine.shoe import Shoe, StackedShoe
from twentyone.engine.strategy import CODES, HARD_TOTALS, PAIR_VALUES, SOFT_TOTALS, Strategy, decide

# Hi-Lo as published: 2-6 count +1, 7-9 count 0, tens and aces -1
HILO = {**dict.fromkeys("23456", 1), **dict.fromkeys("789", 0), **dict.fromkeys("TJQKA", -1)}
HILO_SYSTEM = count_system("hilo")


def hilo(cards: list[Card] | tuple[Card, ...]) -> int:
    return sum(HILO[c.rank] for c in cards)


# ----------------------------------------------------------------------------- the count drill
def test_the_drill_counts_each_batch_as_hi_lo_tags_it_through_the_shoe() -> None:
    rules = load_rules("6D S17")
    drill = CountDrill(rules, HILO_SYSTEM, seed=11)
    # the same shoe, drawn apart from the drill
    same = Shoe(decks=6, penetration=rules.penetration, seed=11)
    seen: list[Card] = []
    for _ in range(20):
        cards = drill.deal(7)
        assert list(cards) == same.draw_many(7)
        seen += cards
        assert drill.running_count == hilo(seen)
        assert drill.cards_left == 312 - len(seen)
        # floor of the running count over the exact decks left
        assert drill.true_count == (hilo(seen) * 52) // (312 - len(seen))


def test_past_the_cut_card_the_drill_shuffles_and_the_count_starts_again() -> None:
    rules = load_rules("1D S17 PEN1/2")
    drill = CountDrill(rules, HILO_SYSTEM, seed=5)
    dealt = 0
    while not drill.shoe.cut_card_out:
        drill.deal(5)
        dealt += 5
        assert not drill.new_shoe
    assert dealt >= 26
    cards = drill.deal(5)
    assert drill.new_shoe and drill.cards_left == 47
    assert drill.running_count == hilo(cards)


def test_a_continuous_shuffle_table_is_drilled_to_three_quarters_of_its_shoe() -> None:
    drill = CountDrill(load_rules("ro-casino"), HILO_SYSTEM, seed=1)
    assert drill.shoe.cut_position == 3 * 52 * drill.rules.decks // 4


def test_a_whole_shoe_counts_to_zero_and_its_true_count_is_computed_on_one_card() -> None:
    rules = load_rules("2D S17")
    shoe = list(full_deck()) * 2
    assert count_of(rules, HILO_SYSTEM, shoe).running == 0
    # the last card left: divide by 1/52 of a deck
    a = count_of(rules, HILO_SYSTEM, shoe[:-1])
    last = shoe[-1]
    assert a.cards_left == 1 and a.running == -HILO[last.rank]
    assert a.true == -HILO[last.rank] * 52


def test_the_true_count_rounds_down() -> None:
    rules = load_rules("2D S17")
    # +4 with 98 cards left: 4 / (98/52) = 2.12 -> 2
    assert count_of(rules, HILO_SYSTEM, "5H 6D 2C KS 3S 4H").true == 2
    # -1 with 103 left: -0.50 -> -1 (floor, not truncation)
    assert count_of(rules, HILO_SYSTEM, "AS").true == -1


def test_floor_and_truncate_differ_on_a_negative_true_count() -> None:
    """-3 with two decks left is -1.5: rounded down (floor, the default) -2, toward zero -1;
    on a positive count the two agree."""
    floor, trunc = count_system("hilo"), count_system("hilo", "truncate")
    assert floor.true_count.rounding == "floor" and count_system("hilo", "floor") == floor
    assert floor.true_count.of(Fraction(-3), 104) == -2
    assert trunc.true_count.of(Fraction(-3), 104) == -1
    assert floor.true_count.of(Fraction(3), 104) == trunc.true_count.of(Fraction(3), 104) == 1
    rules = load_rules("2D S17")  # -1 with 103 cards left: -0.50
    assert count_of(rules, floor, "AS").true == -1
    assert count_of(rules, trunc, "AS").true == 0
    drill = CountDrill(rules, trunc, seed=1)
    drill.running_count = Fraction(-3)
    assert drill.true_count == math.trunc(-3 / float(drill.decks_left))
    with pytest.raises(TrainerError, match="--rounding 'sideways': expected one of floor, trunc"):
        count_system("hilo", "sideways")


def test_count_of_refuses_cards_the_shoe_cannot_hold() -> None:
    with pytest.raises(TrainerError, match="AS appears more often than in 1 decks"):
        count_of(load_rules("1D S17"), HILO_SYSTEM, "AS 2C AS")
    with pytest.raises(TrainerError, match="53 cards: the shoe holds 52"):
        count_of(load_rules("1D S17"), HILO_SYSTEM, [*full_deck(), Card.parse("AS")])


def test_answers_are_graded_and_tallied_with_their_time() -> None:
    drill = CountDrill(load_rules("6D S17"), HILO_SYSTEM, seed=2)
    cards = drill.deal(10)
    right = drill.check(hilo(cards), seconds=2.0)
    wrong = drill.check(hilo(cards) + 1, seconds=4.0)
    assert right.right and not wrong.right
    assert drill.tally.answered == 2 and drill.tally.accuracy == Fraction(1, 2)
    assert drill.tally.mean_seconds == 3.0
    tc = drill.check_true(drill.true_count)
    assert tc.right and tc.question == "true"


def test_a_tally_starts_empty() -> None:
    t = Tally()
    assert (t.answered, t.accuracy, t.mean_seconds) == (0, Fraction(0), 0.0)
    t.add(Mark(question="x", given="1", expected="1", right=True, seconds=1.5))
    assert t.to_json() == {"answered": 1, "right": 1, "accuracy": 1.0, "mean_seconds": 1.5}


@pytest.mark.parametrize("text", ["", "ten", "1/0", "3-", "1/2/3", "--1"])
def test_what_is_not_a_count_is_refused_naming_it(text: str) -> None:
    with pytest.raises(TrainerError, match="is not a count"):
        parse_count(text)


def test_counts_are_typed_as_players_write_them() -> None:
    assert [parse_count(t) for t in ("+3", "-2", "0", "1,5", "\u22124")] == [3, -2, 0, 1.5, -4]


def test_drill_options_are_checked() -> None:
    drill = CountDrill(load_rules("6D S17"), HILO_SYSTEM, seed=1)
    with pytest.raises(TrainerError, match="--cards 0: expected 1 to 52"):
        drill.deal(0)
    with pytest.raises(CountError, match="no such count system"):
        count_system("zen-and-the-art")


def test_every_built_in_system_counts_a_whole_shoe_to_its_end_value() -> None:
    # balanced counts end a shoe at zero; KO starts at 4 - 4 x decks and ends at +4
    rules = load_rules("6D S17")
    shoe = list(full_deck()) * 6
    for key in count_names():
        system = count_system(key)
        end = count_of(rules, system, shoe).running
        assert end == (4 if key == "ko" else 0), key


def test_wong_halves_counts_in_halves() -> None:
    halves = count_system("halves")
    got = count_of(load_rules("1D S17"), halves, "5H 2C 9D")  # +1.5 +0.5 -0.5
    assert got.running == Fraction(3, 2)


# ----------------------------------------------------------------------------- flashcards
def random_chart(rng: random.Random) -> Strategy:
    def row() -> tuple[str, ...]:
        return tuple(rng.choice(CODES) for _ in range(10))

    return Strategy(
        hard={t: row() for t in HARD_TOTALS},
        soft={t: row() for t in SOFT_TOTALS},
        pairs={v: row() for v in PAIR_VALUES},
    )


def engine_play(rules_name: str, chart: Strategy, card: Flashcard) -> str:
    """What ``strategy.decide`` plays on the card's hand in a real round of the engine."""
    rules = load_rules(rules_name)
    a, b = card.hand
    hole = [] if not rules.hole_card else [Card.parse("5C")]  # never a dealer blackjack
    by_box = rules.deal_order == "box-by-box"
    order = [a, b, card.up, *hole] if by_box else [a, card.up, b, *hole]
    rnd = Round(rules, StackedShoe([*order, *parse_cards("5D 5H 5S 4C 4D 4H 4S")]),
                [BoxBet("ann", rules.table_min)])  # fmt: skip
    while rnd.question is not None and rnd.question.kind in ("insurance", "even-money"):
        rnd.apply(decide(chart, rnd))
    assert rnd.question is not None
    play = decide(chart, rnd)
    if play == "no-surrender":  # ro.11: asked before play; the play question follows
        rnd.apply(play)
        assert rnd.question is not None
        play = decide(chart, rnd)
    return play.split(":")[0]


@pytest.mark.parametrize(
    "rules_name", [*PRESETS, "6D H17 LS DAS", "2D S17 D10 NDAS ES", "8D S17 D9 SPL1 LS"]
)
def test_the_flashcards_answer_is_what_the_chart_plays_in_a_real_round(rules_name: str) -> None:
    rng = random.Random(rules_name)
    deck = FlashcardDeck(seed=7)
    rules = load_rules(rules_name)
    for _ in range(150):
        chart = random_chart(rng)
        card = deck.draw()
        assert answer(card, rules, chart) == engine_play(rules_name, chart, card), card


def test_basic_strategy_cards_cover_every_row_and_up_card() -> None:
    deck = FlashcardDeck(seed=1)
    rows, ups = set(), set()
    for _ in range(3000):
        card = deck.draw()
        a, b = card.hand
        t = hand_total(card.hand)
        assert not (t.total == 21 and t.soft)  # never a blackjack
        kind = "pair" if a.rank == b.rank else "soft" if t.soft else "hard"
        rows.add((kind, a.value if kind == "pair" else t.total))
        ups.add(card.up.value)
    assert len(rows) == 13 + 8 + 10 and len(ups) == 10


def test_legal_plays_follow_the_double_split_and_surrender_rules() -> None:
    # pt: doubles hard 9-11 only (pt.9), no surrender against an ace, no standing below 12 (pt.5)
    pt = load_rules("pt-casino")
    soft = parse_cards("AS 7D")
    assert legal_plays(pt, soft, Card.parse("6C")) == ("hit", "stand", "surrender")
    assert legal_plays(pt, parse_cards("5S 6D"), Card.parse("AC")) == ("hit", "double")
    ru = load_rules("ru-online")
    assert legal_plays(ru, parse_cards("KS QD"), Card.parse("6C")) == (
        "hit",
        "stand",
        "double",
        "split",
    )


I18_PART = [
    {"hand": "insurance", "up": "A", "below": "no-insurance", "at_or_above": "insure", "index": 3},
    {"hand": "16", "up": "T", "below": "hit", "at_or_above": "stand", "index": 0},
    {"hand": "T,T", "up": "5", "below": "stand", "at_or_above": "split", "index": 5},
    {"hand": "11", "up": "A", "below": "hit", "at_or_above": "double", "index": 1},
    {"hand": "15", "up": "T", "below": "no-surrender", "at_or_above": "surrender", "index": 0},
    {"hand": "soft 19", "up": "6", "below": "stand", "at_or_above": "double-stand", "index": 1},
]


def write(tmp_path: Path, entries: list[dict[str, object]]) -> str:
    path = tmp_path / "i.json"
    path.write_text(json.dumps({"indices": entries}))
    return str(path)


def test_index_cards_take_the_side_of_the_index_the_true_count_is_on(tmp_path: Path) -> None:
    plays = load_index_list(write(tmp_path, I18_PART))
    rules, chart = load_rules("6D S17 DAS LS"), Strategy.uniform("H")
    deck = FlashcardDeck(plays, seed=4)
    seen = set()
    for _ in range(400):
        card = deck.draw()
        assert len(card.entries) == 1 and card.true_count is not None
        e = card.entries[0]
        assert abs(card.true_count - e.index) <= 3
        seen.add(e.hand)
        side = e.play_at(card.true_count)
        expected = {"double-stand": "double", "no-surrender": "hit"}.get(side, side)
        assert answer(card, rules, chart) == expected
        if not e.is_insurance:
            t = hand_total(card.hand)
            if "," in e.hand:
                assert card.hand[0].rank == card.hand[1].rank
                assert card.hand[0].value == (10 if e.hand == "T,T" else int(e.hand[0]))
            else:
                assert (f"soft {t.total}" if t.soft else str(t.total)) == e.hand
        assert grade(card, rules, chart, answer(card, rules, chart)).right
    assert seen == {e["hand"] for e in I18_PART}


def test_a_surrender_index_comes_before_the_play_index_of_the_same_hand() -> None:
    # 15 against a ten: I18 stands from +4, Fab 4 surrenders from 0
    both = load_index_list("I18+FAB4")
    hand, up = parse_cards("9S 6D"), Card.parse("QH")
    entries = entries_for(both, hand, up)
    assert {(e.below, e.at_or_above) for e in entries} == {
        ("hit", "stand"),
        ("hit", "surrender"),
    }
    chart = Strategy.uniform("H")
    late, none = load_rules("6D S17 DAS LS"), load_rules("6D S17 DAS NS")
    for tc, with_surrender, without in ((-1, "hit", "hit"), (1, "surrender", "hit"),
                                        (5, "surrender", "stand")):  # fmt: skip
        card = Flashcard(hand=hand, up=up, true_count=tc, entries=entries)
        assert answer(card, late, chart) == with_surrender
        assert answer(card, none, chart) == without


def test_a_drawn_pair_card_follows_its_split_entry() -> None:
    deck = FlashcardDeck(load_index_list("I18"), seed=2)
    rules, chart = load_rules("6D S17 DAS"), Strategy.uniform("S")
    pairs = [c for c in (deck.draw() for _ in range(300)) if c.hand[0].rank == c.hand[1].rank]
    assert pairs
    for card in pairs:
        assert card.entries[0].hand == "T,T"
        assert answer(card, rules, chart) == card.entries[0].play_at(card.true_count or 0)


def test_an_index_play_the_rules_refuse_falls_back_as_the_chart_would() -> None:
    # pt: no double on soft hands, no surrender against an ace
    pt, chart = load_rules("pt-casino"), Strategy.uniform("S")
    soft19 = Flashcard(
        hand=parse_cards("AS 8D"),
        up=Card.parse("6H"),
        true_count=2,
        entries=(
            IndexPlay(hand="soft 19", up="6", below="stand", at_or_above="double-stand", index=1),
        ),
    )
    assert answer(soft19, pt, chart) == "stand"
    sur = IndexPlay(hand="16", up="A", below="no-surrender", at_or_above="surrender", index=0)
    card = Flashcard(hand=parse_cards("TS 6D"), up=Card.parse("AH"), true_count=3, entries=(sur,))
    assert answer(card, pt, Strategy.uniform("H")) == "hit"


def test_chart_play_without_surrender_plays_the_codes_other_half() -> None:
    rules = load_rules("6D S17 LS")
    hand, up = parse_cards("TS 6D"), Card.parse("TH")
    assert chart_play(Strategy.uniform("Rs"), rules, hand, up) == "surrender"
    assert chart_play(Strategy.uniform("Rs"), rules, hand, up, surrender=False) == "stand"


def test_index_lists_load_by_name_or_file_and_keep_what_two_cards_can_show(
    tmp_path: Path,
) -> None:
    assert len(load_index_list("I18")) == 18 and len(load_index_list("I18+FAB4")) == 22
    entry = {"up": "6", "below": "stand", "at_or_above": "stand", "index": 0}
    only: list[dict[str, object]] = [{**entry, "hand": "soft 21"}, {**entry, "hand": "20"}]
    with pytest.raises(TrainerError, match="the list holds no index plays"):
        load_index_list(write(tmp_path, only))
    kept = load_index_list(write(tmp_path, [*only, I18_PART[1]]))
    assert [e.hand for e in kept] == ["16"]
    with pytest.raises(CountError, match=r"missing\.json"):
        load_index_list(str(tmp_path / "missing.json"))
    with pytest.raises(CountError, match="hand '22'"):
        load_index_list(write(tmp_path, [{**I18_PART[1], "hand": "22"}]))
