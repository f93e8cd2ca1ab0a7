"""``twentyone train`` at the terminal, driven with scripted input: the shoe is drawn apart from
the drill with the same seed and counted here with Hi-Lo's published tags."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from twentyone.cli import main
from twentyone.engine.cards import Card
from twentyone.engine.rulesets import load_rules
from twentyone.engine.shoe import Shoe
from twentyone.engine.strategy import Strategy
from twentyone.terminal.train import count_drill, strategy_drill

HILO = {**dict.fromkeys("23456", 1), **dict.fromkeys("789", 0), **dict.fromkeys("TJQKA", -1)}


def clock(*times: float) -> Iterator[float]:
    return iter(times)


def ticking(*times: float) -> Callable[[], float]:
    it = clock(*times)
    return lambda: next(it)


def shoe_cards(rules: str, seed: int, n: int) -> list[Card]:
    r = load_rules(rules)
    return Shoe(decks=r.decks, penetration=r.penetration, seed=seed).draw_many(n)


def test_the_count_drill_grades_each_running_count_and_tallies_time() -> None:
    cards = shoe_cards("6D S17", 9, 10)
    first, both = sum(HILO[c.rank] for c in cards[:5]), sum(HILO[c.rank] for c in cards)
    out = io.StringIO()
    script = io.StringIO(f"{first}\n{both + 1}\n")
    code = count_drill("6D S17", rounds=2, cards=5, speed=0, seed=9, stdin=script, stdout=out,
                       clock=ticking(0.0, 2.0, 10.0, 14.0))  # fmt: skip
    text = out.getvalue()
    assert code == 0
    assert " ".join(c.pretty for c in cards[:5]) in text
    sign = f"+{both}" if both > 0 else str(both)
    assert f"Right: {f'+{first}' if first > 0 else first}" in text
    assert f"Wrong: the running count is {sign}" in text
    assert "1 of 2 right (50.00%), 3.0 s an answer on average" in text


def test_the_true_count_is_asked_with_the_cards_left() -> None:
    cards = shoe_cards("2D S17", 4, 8)
    rc = sum(HILO[c.rank] for c in cards)
    tc = (rc * 52) // (104 - 8)
    out = io.StringIO()
    code = count_drill("2D S17", rounds=1, cards=8, speed=0, seed=4, true_count=True,
                       stdin=io.StringIO(f"{rc}\n{tc}\n"), stdout=out)  # fmt: skip
    text = out.getvalue()
    assert code == 0 and "True count (96 cards left, 1.85 decks)" in text
    assert "2 of 2 right (100.00%)" in text


def test_the_drill_says_how_it_rounds_the_true_count_and_offers_the_other() -> None:
    cards = shoe_cards("2D S17", 4, 8)
    rc = sum(HILO[c.rank] for c in cards)
    exact = rc * 52 / (104 - 8)
    out = io.StringIO()
    count_drill("2D S17", rounds=1, cards=8, speed=0, seed=4, true_count=True,
                stdin=io.StringIO(f"{rc}\n{(rc * 52) // 96}\n"), stdout=out)  # fmt: skip
    assert "rounded down: -1.5 is -2, +1.5 is +1" in out.getvalue()
    out = io.StringIO()
    count_drill("2D S17", rounds=1, cards=8, speed=0, seed=4, true_count=True, rounding="truncate",
                stdin=io.StringIO(f"{rc}\n{int(exact)}\n"), stdout=out)  # fmt: skip
    text = out.getvalue()
    assert "rounded toward zero: -1.5 is -1, +1.5 is +1" in text
    assert "2 of 2 right (100.00%)" in text
    out = io.StringIO()  # without the true-count question, no rule to state
    count_drill("2D S17", rounds=1, cards=8, speed=0, seed=4, stdin=io.StringIO(f"{rc}\n"),
                stdout=out)  # fmt: skip
    assert "rounded" not in out.getvalue()


def test_cards_flash_one_at_a_time_at_the_chosen_speed_on_a_terminal() -> None:
    slept: list[float] = []
    out = io.StringIO()
    count_drill("6D S17", rounds=1, cards=6, speed=0.4, seed=1, stdin=io.StringIO("q\n"),
                stdout=out, color=True, sleep=slept.append)  # fmt: skip
    assert slept == [0.4] * 6
    assert "\r" in out.getvalue()
    # once answered, the cards are shown again on one line
    out = io.StringIO()
    count_drill("6D S17", rounds=1, cards=3, speed=0.4, seed=1, stdin=io.StringIO("0\n"),
                stdout=out, color=True, sleep=slept.append)  # fmt: skip
    after = out.getvalue().split("Running count")[1]
    assert all(c.pretty in after for c in shoe_cards("6D S17", 1, 3))


def test_quitting_and_the_end_of_input_print_the_tally() -> None:
    out = io.StringIO()
    assert count_drill("6D", speed=0, stdin=io.StringIO("q\n"), stdout=out) == 0
    assert "No answers." in out.getvalue()
    out = io.StringIO()
    assert count_drill("6D", speed=0, stdin=io.StringIO("ten\n"), stdout=out) == 0
    text = out.getvalue()
    assert "'ten' is not a count" in text and "End of input." in text


def test_the_drill_speaks_the_chosen_language() -> None:
    out = io.StringIO()
    count_drill("6D", speed=0, rounds=1, seed=2, lang="ru", stdin=io.StringIO("0\n"), stdout=out)
    assert "Текущий счёт" in out.getvalue()


def test_strategy_flashcards_are_graded_against_the_chart() -> None:
    out = io.StringIO()
    # a chart that stands everywhere: stand is right, hit is wrong; x and p (not a pair) are
    # refused and asked again
    code = strategy_drill("6D S17", chart=Strategy.uniform("S"), rounds=3, seed=1,
                          stdin=io.StringIO("s\nx\nh\nstand\n"), stdout=out,
                          clock=ticking(0.0, 1.0, 5.0, 8.0, 20.0, 21.0))  # fmt: skip
    text = out.getvalue()
    assert code == 0
    assert text.count("Right: stand") == 2 and "Wrong: the chart says stand (you said hit)" in text
    assert "'x' is not a play" in text
    assert "2 of 3 right (66.67%), 1.7 s an answer on average" in text


def test_index_flashcards_show_the_true_count_and_name_the_index(tmp_path: Path) -> None:
    path = tmp_path / "i.json"
    entry = {"hand": "16", "up": "T", "below": "hit", "at_or_above": "stand", "index": 0}
    path.write_text(json.dumps([entry]))
    out = io.StringIO()
    strategy_drill("6D S17", indices=str(path), chart=Strategy.uniform("H"), rounds=6, seed=3,
                   stdin=io.StringIO("s\n" * 6), stdout=out)  # fmt: skip
    text = out.getvalue()
    assert "true count" in text
    right, wrong = text.count("Right: stand"), text.count("Wrong: hit (you said stand)")
    assert right + wrong == 6 and right and wrong
    assert "16 against T: stand at 0 or more, else hit" in text


def test_the_published_sets_are_drilled_by_name() -> None:
    out = io.StringIO()
    # "n" answers an insurance card (and is refused by a hand, which "h" then answers)
    strategy_drill("6D S17 DAS", indices="I18+FAB4", chart=Strategy.uniform("H"), rounds=12,
                   seed=5, stdin=io.StringIO("n\nh\n" * 12), stdout=out)  # fmt: skip
    text = out.getvalue()
    assert text.count("true count") >= 6 and "Your answers" in text
    assert re.search(r"Wrong: .* or more, else ", text)


def test_a_count_system_of_the_counting_package_is_drilled() -> None:
    # KO starts a 6-deck shoe at 4 - 24 = -20 and counts sevens +1
    cards = shoe_cards("6D S17", 6, 5)
    ko = {**HILO, "7": 1}
    rc = -20 + sum(ko[c.rank] for c in cards)
    out = io.StringIO()
    count_drill("6D S17", count="ko", rounds=1, cards=5, speed=0, seed=6,
                stdin=io.StringIO(f"{rc}\n"), stdout=out)  # fmt: skip
    assert "Count drill: KO" in out.getvalue() and "1 of 1 right" in out.getvalue()


def test_insurance_cards_are_answered_yes_or_no(tmp_path: Path) -> None:
    path = tmp_path / "i.json"
    entry = {"hand": "insurance", "up": "A", "below": "no-insurance", "at_or_above": "insure",
             "index": 3}  # fmt: skip
    path.write_text(json.dumps({"indices": [entry]}))
    out = io.StringIO()
    strategy_drill("6D S17", indices=str(path), chart=Strategy.uniform("H"), rounds=4, seed=8,
                   stdin=io.StringIO("n\n" * 4), stdout=out)  # fmt: skip
    text = out.getvalue()
    assert "Insurance? (y insure, n no insurance)" in text
    assert text.count("Right: no insurance") + text.count("Wrong: insure") == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "count", "6D", "--count", "nonesuch"], "--count 'nonesuch': no such count"),
        (["train", "strategy", "6D", "--indices", "I19"], "--indices 'I19'"),
        (["train", "count", "6D", "--rounds", "0"], "--rounds 0: expected at least 1"),
        (["train", "count", "6D", "--cards", "53"], "--cards 53: expected 1 to 52"),
        (["train", "count", "6D", "--speed", "11"], "--speed 11.0: expected 0 to 10"),
        (["train", "count", "9D"], "decks=9"),
        (["train", "strategy", "6D", "--indices", "/no/such.json"], "--indices '/no/such.json'"),
        (["train", "count", "6D", "--lang", "xx"], "--lang xx: no such language"),
        (["train", "count", "6D", "--rounding", "up"], "--rounding 'up': expected one of floor"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("twentyone: error: ") and message in err and err.count("\n") == 1


def test_the_command_runs_a_seeded_drill(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("0\nq\n"))
    assert main(["train", "count", "6D", "--speed", "0", "--seed", "3", "--lang", "en"]) == 0
    assert "Count drill: Hi-Lo, 6 decks, 8 cards a round" in capsys.readouterr().out
