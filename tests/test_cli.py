"""The ``twentyone`` console script, run as a real subprocess: ``replay`` and ``rules``.

The expected nets of the example replays are worked out by hand in ``examples/README.md``; each
test below repeats the sum it checks. Also: replay JSON exported from a round played with a seeded
shoe (``round_to_replay``) replays to the same result.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from twentyone import (
    PRESETS,
    BoxBet,
    ReplayError,
    Round,
    Shoe,
    format_cards,
    load_rules,
    replay,
    round_result,
    round_to_replay,
)
from twentyone.engine.cards import Card
from twentyone.engine.rulesets import preset_text
from twentyone.i18n import format_money

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _command() -> list[str]:
    script = Path(sys.executable).parent / "twentyone"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "twentyone.cli"]


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real console script."""
    return subprocess.run(
        [*_command(), *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def words(text: str) -> str:
    """Text with its line breaks undone (the rule card wraps its sentences)."""
    return " ".join(text.split())


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text("utf-8"))
    return data


def replay_error(data: dict[str, Any]) -> dict[str, Any]:
    """Replay ``data`` from standard input; it must fail with status 2 and a JSON error."""
    proc = cli("replay", "-", stdin=json.dumps(data))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    assert set(out) == {"error", "decision"}
    return out


# ----------------------------------------------------------------------------- replay FILE
# For each example: the net by hand (see examples/README.md) and details of the hands.
EXPECTED: dict[str, dict[str, int]] = {
    # ro.11 early surrender keeps half: -1000 + 500. ro.14/ro.15: 1000 + 500 doubled, all lost.
    "ro-casino-early-surrender.json": {"ann": -500, "bob": -1500},
    # pl.7 split 8-8, both second cards at once: 8-3 doubled +KH = 21 on 2000, 8-T = 18 on
    # 1000; the dealer 6-T-9 busts: +2000 + 1000.
    "pl-online-split-at-once.json": {"ann": 3000},
    # pt.12 6-7-8 of hearts pays 3 x 1000 though the hand loses 1000 to the bank's blackjack;
    # pt.13 two aces pay 25 x 100 on the jackpot though the hand loses 1000.
    "pt-casino-678-bonus-and-jackpot.json": {"ann": 3000 - 1000, "bob": 2500 - 1000},
    # hu.8 aces split twice: 21, 20, 17 against the dealer's 17: +1000 +1000 +0; bob 18: +1000.
    "hu-casino-resplit-aces.json": {"ann": 2000, "bob": 1000},
    # ru.5/ru.6 insurance on KH, dealer blackjack: ann -1000 + 2 x 500; bob's blackjack pushes
    # and his insurance wins 2 x 1000.
    "ru-online-insurance-on-ten.json": {"ann": 0, "bob": 2000},
    # ro.9 a blackjack insures 200 instead of even money; the dealer's blackjack: a stand-off
    # plus 2 x 200. bob's 17 loses to it (ro.14).
    "ro-casino-blackjack-insured.json": {"ann": 400, "bob": -1000},
    # hu.9 a blackjack insures exactly half (500); no dealer blackjack: +1500 - 500.
    "hu-casino-blackjack-insured.json": {"ann": 1000},
    # pt.10 a blackjack insures 300; the bank's blackjack: a stand-off plus 2 x 300.
    "pt-casino-blackjack-insured-for-less.json": {"ann": 600},
    # ro.16 four splits into five hands of 1000, each beating the dealer's bust.
    "ro-casino-five-hands.json": {"ann": 5000},
}


def test_one_example_per_preset_and_each_is_checked() -> None:
    files = {p.name for p in EXAMPLES.glob("*.json") if not p.name.startswith("error-")}
    assert files == set(EXPECTED)
    assert {example(f)["rules"] for f in files} == set(PRESETS)
    for f in EXAMPLES.glob("*.json"):
        assert set(example(f.name)) <= {"rules", "shoe", "boxes", "decisions", "bankrolls"}
        assert f.name in (EXAMPLES / "README.md").read_text("utf-8")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_file_prints_the_hand_calculated_net(name: str) -> None:
    proc = cli("replay", str(EXAMPLES / name))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    assert out["net"] == EXPECTED[name]
    assert sum(b["net"] for b in out["boxes"]) == sum(EXPECTED[name].values())


def test_ro_surrender_kept_half_though_the_dealer_drew_blackjack() -> None:
    out = json.loads(cli("replay", str(EXAMPLES / "ro-casino-early-surrender.json")).stdout)
    assert out["dealer"] == {"cards": ["KS", "AS"], "total": 21, "blackjack": True}
    ann, bob = out["boxes"]
    assert ann["hands"][0]["result"] == "surrender"
    assert bob["hands"][0]["bet"] == 1500  # 1000 + a double for less of 500
    assert bob["hands"][0]["result"] == "lose"


def test_pl_split_hands_get_their_second_cards_at_once() -> None:
    out = json.loads(cli("replay", str(EXAMPLES / "pl-online-split-at-once.json")).stdout)
    hands = out["boxes"][0]["hands"]
    # TD (the second hand's card) left the shoe before KH (the first hand's double).
    assert [h["cards"] for h in hands] == [["8S", "3C", "KH"], ["8D", "TD"]]
    assert [h["bet"] for h in hands] == [2000, 1000]
    assert out["dealer"]["total"] == 25


def test_pt_bonus_and_jackpot_paid_on_losing_hands() -> None:
    out = json.loads(cli("replay", str(EXAMPLES / "pt-casino-678-bonus-and-jackpot.json")).stdout)
    ann, bob = out["boxes"]
    assert ann["hands"][0] == {
        "cards": ["6H", "7H", "8H"],
        "bet": 1000,
        "total": 21,
        "result": "lose",
        "bonus": 3000,
    }
    assert bob["side_bets"] == {"jackpot": 100}
    assert bob["side_paid"] == {"jackpot": 2600}
    assert bob["hands"][0]["result"] == "lose"
    assert out["dealer"]["blackjack"] is True


def test_hu_resplit_aces_dealt_box_by_box() -> None:
    out = json.loads(cli("replay", str(EXAMPLES / "hu-casino-resplit-aces.json")).stdout)
    ann, bob = out["boxes"]
    assert [h["cards"] for h in ann["hands"]] == [["AS", "KD"], ["AH", "9S"], ["AD", "6D"]]
    assert [h["result"] for h in ann["hands"]] == ["win", "win", "push"]
    assert bob["hands"][0]["cards"] == ["TH", "8C"]  # box 2's two cards before the dealer's
    assert out["dealer"]["cards"] == ["7C", "TC"]


def test_ru_insurance_on_a_ten() -> None:
    out = json.loads(cli("replay", str(EXAMPLES / "ru-online-insurance-on-ten.json")).stdout)
    ann, bob = out["boxes"]
    assert (ann["insurance"], bob["insurance"]) == (500, 1000)
    assert bob["hands"][0]["result"] == "push"
    assert out["dealer"] == {"cards": ["KH", "AD"], "total": 21, "blackjack": True}


def test_replay_from_stdin() -> None:
    text = (EXAMPLES / "pl-online-split-at-once.json").read_text("utf-8")
    proc = cli("replay", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["net"] == {"ann": 3000}


def _pretty(card: str) -> str:
    return Card.parse(card).pretty


@pytest.mark.parametrize(
    "name", ["hu-casino-resplit-aces.json", "pt-casino-678-bonus-and-jackpot.json"]
)
def test_replay_pretty_is_a_table_of_the_same_round(name: str) -> None:
    """``--pretty`` draws the round (issue 15): a row per hand with its cards, decisions,
    result and net, as the JSON result has them; no JSON."""
    path = str(EXAMPLES / name)
    pretty = cli("replay", path, "--pretty").stdout
    result = json.loads(cli("replay", path).stdout)
    assert pretty.lstrip().startswith("Round at") and "┃ box" in pretty and "{" not in pretty
    rows = [line for line in pretty.splitlines() if line.startswith("│")]
    dealer = " ".join(_pretty(c) for c in result["dealer"]["cards"])
    assert any("dealer" in r and dealer in r for r in rows)
    for box in result["boxes"]:
        for hand in box["hands"]:
            cards = " ".join(_pretty(c) for c in hand["cards"])
            row = next(r for r in rows if f" {cards} " in r)
            net = hand["bet"] * {"win": 1, "push": 0, "lose": -1, "bust": -1}[hand["result"]]
            net += hand.get("bonus", 0)
            assert hand["result"] in row and format_money(net, "en", sign=True) in row, row
    for player, net in result["net"].items():
        assert any(player in r and "net" in r and format_money(net, "en", sign=True) in r
                   for r in rows)  # fmt: skip
    assert "split, split" in pretty or "hit → " in pretty  # the decisions, in order


def test_replay_pretty_of_a_log_draws_each_round(tmp_path: Path) -> None:
    log = tmp_path / "rounds.jsonl"
    one = json.dumps(example("hu-casino-resplit-aces.json"))
    log.write_text(one + "\n" + one + "\n", "utf-8")
    pretty = cli("replay", str(log), "--pretty").stdout
    assert "round 1" in pretty and "round 2" in pretty


# ----------------------------------------------------------------------------- replay errors
def test_illegal_decision_example() -> None:
    # pl.7: a split only for a player playing one box; ann has two.
    proc = cli("replay", str(EXAMPLES / "error-pl-online-split-with-two-boxes.json"))
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert out["decision"] == 0
    assert out["error"].startswith("'split' is not allowed")
    assert out["error"].endswith("asked box 1 hand 1 (play): hit, stand, double")


def test_shoe_too_short_example() -> None:
    proc = cli("replay", str(EXAMPLES / "error-ru-online-shoe-too-short.json"))
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert out["decision"] == 1  # the second "hit" needs a sixth card
    assert "empty after 5 cards" in out["error"]
    assert "while playing decision 1 'hit'" in out["error"]


def test_shoe_too_short_for_the_deal() -> None:
    data = example("ru-online-insurance-on-ten.json")
    data["shoe"] = "9H AS KH"
    out = replay_error(data)
    assert out["decision"] == 0
    assert "empty after 3 cards" in out["error"] and "while dealing the round" in out["error"]


def test_replay_refuses_a_shoe_with_more_copies_of_a_card_than_the_decks_hold() -> None:
    # four 9H from one deck: refused, naming the card and what the decks hold
    data = {
        "rules": {"decks": 1},
        "shoe": "9H 9H 9H 9H 5C 7D",
        "boxes": [{"player": "ann", "bet": 100}],
        "decisions": ["stand"],
    }
    out = replay_error(data)
    assert out["error"] == "shoe: 9H is stacked 4 times, but 1 deck holds 1"
    # two decks hold two of each: two 9H replay
    data.update(rules="2D", shoe="9H 9H 5C 9S 7D")
    proc = cli("replay", "-", stdin=json.dumps(data))
    assert proc.returncode == 0, proc.stdout
    data["shoe"] = "9H 9H 5C 9H 7D"
    assert "but 2 decks hold 2" in replay_error(data)["error"]


def test_missing_decision_names_the_question() -> None:
    data = example("hu-casino-resplit-aces.json")
    data["decisions"] = data["decisions"][:2]  # bob's stand left out
    out = replay_error(data)
    assert out["decision"] == 2
    assert "missing decision" in out["error"]
    assert out["error"].endswith("box 2 hand 1 (play): hit, stand, double")


def test_left_over_decision() -> None:
    data = example("hu-casino-resplit-aces.json")
    data["decisions"].append("hit")
    out = replay_error(data)
    assert out["decision"] == 3
    assert "left-over decision 'hit'" in out["error"]


def test_double_for_less_below_the_table_minimum_names_the_range() -> None:
    data = example("ro-casino-early-surrender.json")
    data["decisions"][2] = "double:50"  # ro.15: not below the table minimum (100)
    out = replay_error(data)
    assert out["decision"] == 2
    assert "amount 50 outside 100 to 1000" in out["error"]
    assert "hit, stand, double, double:N (N from 100 to 1000)" in out["error"]


def test_surrender_refused_once_play_started_on_ro() -> None:
    # ro.11: surrender is decided before play; asked to play, "surrender" is not a choice.
    data = example("ro-casino-early-surrender.json")
    data["decisions"] = ["no-surrender", "no-surrender", "surrender"]
    out = replay_error(data)
    assert out["decision"] == 2
    assert "'surrender' is not allowed" in out["error"]
    assert "box 1 hand 1 (play): hit, stand, double, double:N" in out["error"]


def test_not_json_and_missing_file() -> None:
    out = replay_error({"rules": "ru-online"})
    assert "'shoe'" in out["error"] and out["decision"] is None
    proc = cli("replay", "-", stdin="{not json")
    assert proc.returncode == 2 and "not valid JSON" in json.loads(proc.stdout)["error"]
    proc = cli("replay", str(EXAMPLES / "no-such-file.json"))
    assert proc.returncode == 2 and "no-such-file.json" in json.loads(proc.stdout)["error"]


# ----------------------------------------------------------------------------- rules
def test_rules_ro_casino_card() -> None:
    proc = cli("rules", "ro-casino")
    assert proc.returncode == 0, proc.stderr
    card = words(proc.stdout)
    assert proc.stdout.startswith("ro-casino\n=========\n")
    for fact in (
        "6 decks",
        "continuous shuffling machine",  # ro.1
        "Limits: 1.00 - 5,000.00 per box",
        "second card is dealt after the players",  # ro.14
        "takes all bets, doubled and split bets included",
        "Blackjack pays 3 to 2",
        "from 0.50 up to half the box's bet",  # ro.9
        "Even money",  # ro.10
        "Early surrender",  # ro.11
        "not offered when the dealer's first card is an ace",
        "decided box by box before play starts",
        "Double for less",  # ro.15
        "not less than the table minimum (1.00)",
        "same rank (a king and a queen are not a pair)",  # ro.16
        "split again whenever another equal card comes, with no limit",  # ro.16
        "Split aces get one card each",
        "21, not blackjack",
    ):
        assert fact in card, fact
    assert "Bonuses" not in card and "cut card" not in card


@pytest.mark.parametrize(
    ("preset", "facts"),
    [
        (
            "pl-online",
            [
                "checks the face-down card for blackjack",  # pl.3, pl.4
                "paid when the round is settled",  # pl.10
                "exactly half the box's bet",
                "No even money",
                "No surrender.",
                "One split only",
                "only to a player who bets on one box",  # pl.7
                "both hands get their second card at once",
                "The table has 3 boxes",
            ],
        ),
        (
            "pt-casino",
            [
                "cut card at 3/4 of the shoe",
                "does not look at the face-down card",  # pt.3
                "hard 9, 10 or 11",  # pt.9
                "No doubling after a split",
                "stand on is 12",  # pt.5
                "6-7-8 of one suit, or 7-7-7",  # pt.12
                "3 times the box's bet",
                "first 2 cards aces, 25 to 1",  # pt.13
                "first 4 cards aces, 2,500 to 1",
            ],
        ),
        (
            "hu-casino",
            [
                "its two cards, face up, in turn; then the dealer takes one card",  # hu.4
                "The added bet equals the hand's bet",  # hu.7
                "Aces may be split again",  # hu.8
                "No surrender.",
            ],
        ),
        (
            "ru-online",
            [
                "cut card at 2/3 of the shoe",  # ru.1
                "an ace or a ten-value card, before play starts",  # ru.5
                "after a split each hand gets its second card when play reaches it",
                "The table has 5 boxes",
            ],
        ),
    ],
)
def test_rules_card_of_each_preset(preset: str, facts: list[str]) -> None:
    proc = cli("rules", preset)
    assert proc.returncode == 0, proc.stderr
    card = words(proc.stdout).lower()
    for fact in facts:
        assert fact.lower() in card, fact


def test_rules_list_names_and_describes_every_preset() -> None:
    proc = cli("rules", "--list")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(PRESETS)
    for name, line in zip(PRESETS, lines, strict=True):
        # The description is the preset's first comment line, less the name and the source.
        first = preset_text(name).splitlines()[0]
        about = line[len(name) :].strip()
        assert about and about in first
        assert ("casino table" in about) or ("online game" in about)
    assert "the Romanian casino table" in lines[0]


def test_rules_shorthand() -> None:
    proc = cli("rules", "6D H17 LS")
    assert proc.returncode == 0, proc.stderr
    card = words(proc.stdout)
    assert proc.stdout.startswith("6D H17 LS\n")
    assert "6 decks" in card
    assert "hits soft 17" in card
    assert "Late surrender" in card
    assert "Early surrender" not in card


def test_rules_unknown_preset() -> None:
    proc = cli("rules", "ro-kasino")
    assert proc.returncode == 2
    assert "'ro-kasino'" in proc.stderr
    for name in PRESETS:
        assert name in proc.stderr
    assert proc.stdout == ""


def test_rules_bad_shorthand_token() -> None:
    proc = cli("rules", "6D S17 XYZ")
    assert proc.returncode == 2
    assert "'XYZ'" in proc.stderr
    for token in ("S17|H17", "NS|LS|ES", "DFL"):
        assert token in proc.stderr


def test_rules_user_toml_file_gets_its_own_card(tmp_path: Path) -> None:
    # A house's own table: the Romanian rules with an H17 dealer, 8 decks and 6:5 blackjacks.
    text = preset_text("ro-casino")
    text = text.replace('name = "ro-casino"', 'name = "my-house"')
    text = text.replace("dealer_hits_soft_17 = false", "dealer_hits_soft_17 = true")
    text = text.replace("decks = 6", "decks = 8")
    text = text.replace('blackjack_pays = "3:2"', 'blackjack_pays = "6:5"')
    path = tmp_path / "house.toml"
    path.write_text(text, "utf-8")
    proc = cli("rules", str(path))
    assert proc.returncode == 0, proc.stderr
    card = words(proc.stdout)
    assert proc.stdout.startswith("my-house\n========\n")
    assert "8 decks" in card and "6 decks" not in card
    assert "hits soft 17" in card
    assert "Blackjack pays 6 to 5" in card
    assert "Early surrender" in card  # unchanged fields keep their sentences


def test_rules_minimal_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text('name = "tiny"\ndecks = 1\nmax_hands = 1\ninsurance_upcards = []\n', "utf-8")
    proc = cli("rules", str(path))
    assert proc.returncode == 0, proc.stderr
    card = words(proc.stdout)
    assert "1 deck of 52 cards" in card
    assert "No splitting." in card and "No insurance." in card


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ('surrender = "sometimes"', "surrender='sometimes'"),
        ("decks = 9", "decks=9"),
        ('double_on = "any-time"', "double_on='any-time'"),
        ("hole_card = 1", "hole_card=1"),
    ],
)
def test_rules_toml_with_a_bad_field_value(tmp_path: Path, line: str, named: str) -> None:
    path = tmp_path / "bad.toml"
    body = "decks = 6\n" if not line.startswith("decks") else ""
    path.write_text(body + line + "\n", "utf-8")
    proc = cli("rules", str(path))
    assert proc.returncode == 2
    assert named in proc.stderr
    assert proc.stdout == ""


def test_rules_toml_with_an_unknown_field(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text('decks = 6\nsurender = "late"\n', "utf-8")
    proc = cli("rules", str(path))
    assert proc.returncode == 2
    assert "'surender'" in proc.stderr and "surrender_before_play" in proc.stderr


# ----------------------------------------------------------------------------- round_to_replay
def _play_at_random(rnd: Round, rng: random.Random) -> None:
    """Answer every question with a random legal decision (amounts drawn from their range)."""
    while rnd.question is not None:
        q = rnd.question
        action = rng.choice(q.actions)
        if action.endswith(":N"):
            assert q.amount_range is not None
            action = f"{action[:-2]}:{rng.randint(*q.amount_range)}"
        rnd.apply(action)


def _seeded_round(preset: str, seed: int) -> Round:
    rules = load_rules(preset)
    rng = random.Random(seed)
    n = rng.randint(1, 3)
    bets = [
        BoxBet(
            ("ann", "bob")[i % 2],
            rng.randrange(rules.table_min, 5001, 100),
            {b.id: 100 for b in rules.staked_side_bets if rng.random() < 0.5},
        )
        for i in range(n)
    ]
    rnd = Round(rules, Shoe(decks=6, seed=seed), bets)
    _play_at_random(rnd, rng)
    return rnd


@pytest.mark.parametrize("preset", PRESETS)
def test_round_to_replay_replays_to_the_same_result(preset: str) -> None:
    seen: set[str] = set()
    for seed in range(60):
        rnd = _seeded_round(preset, seed)
        assert rnd.is_over
        data = json.loads(json.dumps(round_to_replay(rnd)))
        assert set(data) == {"rules", "shoe", "boxes", "decisions"}
        assert data["rules"] == preset
        # The exported shoe is exactly the seeded shoe's first cards, in order.
        fresh = Shoe(decks=6, seed=seed)
        fresh.begin_round()
        n = len(data["shoe"].split())
        assert data["shoe"] == format_cards(fresh.draw_many(n))
        assert replay(data) == round_result(rnd)
        seen.update(d.split(":")[0] for d in data["decisions"])
    # The random play went through splits, doubles and insurance somewhere in the 60 rounds.
    assert {"split", "double", "hit", "stand"} <= seen
    assert seen & {"insure", "no-insurance", "even-money", "no-even-money"}


def test_round_to_replay_of_a_custom_table_inlines_its_rules() -> None:
    rules = load_rules("pt-casino").replace(name="my-house", dealer_hits_soft_17=True, decks=2)
    rng = random.Random(5)
    for seed in range(30):
        rnd = Round(rules, Shoe(decks=2, seed=seed), [BoxBet("ann", 1000, {"jackpot": 100})])
        _play_at_random(rnd, rng)
        data = json.loads(json.dumps(round_to_replay(rnd)))
        assert isinstance(data["rules"], dict)
        assert data["rules"]["name"] == "my-house" and data["rules"]["dealer_hits_soft_17"]
        assert replay(data) == round_result(rnd)


def test_round_to_replay_through_the_console_script(tmp_path: Path) -> None:
    rnd = _seeded_round("ro-casino", 11)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(round_to_replay(rnd)), "utf-8")
    proc = cli("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == round_result(rnd)
    assert out["net"] == rnd.net()


def test_round_to_replay_of_an_unfinished_round_asks_the_same_question() -> None:
    rules = load_rules("hu-casino")
    for seed in range(200):
        rnd = Round(rules, Shoe(decks=6, seed=seed), [BoxBet("ann", 1000)])
        if rnd.question is not None and rnd.question.kind == "play":
            break
    else:
        pytest.fail("no seed gave a hand to play")
    asked = rnd.question
    assert asked is not None
    data = round_to_replay(rnd)
    assert data["decisions"] == []
    with pytest.raises(ReplayError) as err:
        replay(data)
    assert err.value.decision == 0
    assert asked.describe() in str(err.value)


# ----------------------------------------------------------------------------- names, charts
def test_rules_card_of_a_copied_preset_is_named_by_its_file(tmp_path: Path) -> None:
    text = preset_text("pt-casino").replace('blackjack_pays = "3:2"', 'blackjack_pays = "6:5"')
    path = tmp_path / "house.toml"
    path.write_text(text, "utf-8")
    proc = cli("rules", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("house\n=====\n")
    assert "pt-casino" not in proc.stdout


def _fake_chart(monkeypatch: pytest.MonkeyPatch) -> None:
    """``strategy`` without the chart's seconds of analysis: every cell stands."""
    import twentyone.analysis
    from twentyone.engine.strategy import Strategy

    monkeypatch.setattr(twentyone.analysis, "basic_strategy", lambda *a, **k: Strategy.uniform("S"))


def test_strategy_png_into_a_file_or_pipe_writes_the_image_there(
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    from twentyone.cli import main

    _fake_chart(monkeypatch)
    monkeypatch.chdir(tmp_path)
    assert main(["strategy", "ru-online", "--format", "png"]) == 0
    out = capsysbinary.readouterr().out
    assert out.startswith(b"\x89PNG\r\n\x1a\n")  # the image itself, as `> c.png` wants it
    assert list(tmp_path.iterdir()) == []  # and no other file


def test_strategy_png_output_option_writes_the_path_given(
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    from twentyone.cli import main

    _fake_chart(monkeypatch)
    path = tmp_path / "c.png"
    assert main(["strategy", "ru-online", "--format", "png", "-o", str(path)]) == 0
    assert capsysbinary.readouterr().out == f"{path}\n".encode()
    assert path.read_bytes().startswith(b"\x89PNG")
