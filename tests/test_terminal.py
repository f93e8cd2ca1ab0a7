"""The terminal game (``twentyone play``), driven with scripted input.

Stacked shoes are read in the dealing order of RULES.md: round-robin = first card to each box,
the dealer's up card, second card to each box, then the hole card (hole-card games only);
hu deals each box its two cards, then the dealer's card. Every expected net below is worked out
by hand from the rules, not taken from the program's output.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from twentyone.engine.errors import BetError
from twentyone.engine.money import format_money, parse_money
from twentyone.engine.replay import replay
from twentyone.engine.rulesets import load_rules
from twentyone.engine.shoe import StackedShoe
from twentyone.i18n import parse_amount
from twentyone.terminal.game import play
from twentyone.terminal.seat import PlayerSeat

ROOT = Path(__file__).resolve().parents[1]
CONSOLE_SCRIPT = Path(sys.executable).parent / "twentyone"


class Script(io.StringIO):
    """Scripted input lines; remembers what had been printed when each line was read."""

    def __init__(self, lines: list[str], out: io.StringIO) -> None:
        super().__init__("".join(line + "\n" for line in lines))
        self.out = out
        self.seen: list[str] = []

    # typeshed gives StringIO the bytes readline of _IOBase too: the ignore
    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        self.seen.append(self.out.getvalue())
        return super().readline(size)


def run(
    lines: list[str], rules: str = "ru-online", shoe: str | None = None, **kw: object
) -> tuple[int, str, Script]:
    out = io.StringIO()
    script = Script(lines, out)
    code = play(
        rules,
        stdin=script,
        stdout=out,
        shoe=StackedShoe(shoe) if shoe is not None else None,
        **kw,  # type: ignore[arg-type]
    )
    return code, out.getvalue(), script


def summary(text: str) -> tuple[int, int, int, int]:
    """(rounds, net, starting bankroll, final bankroll) in minor units, from the summary."""
    tail = text.split("Session summary", 1)[1]
    rounds = int(re.search(r"Rounds played: (\d+)", tail)[1])  # type: ignore[index]
    found = re.search(r"Net: [+]?(-?[\d.,]+)", tail)
    assert found is not None
    net = parse_amount(found[1].lstrip("-"), "en")  # English groups thousands: 1,015.00
    if "Net: -" in tail:
        net = -net
    m = re.search(r"Bankroll: ([\d.,]+) -> ([\d.,]+)", tail)
    assert m is not None
    return rounds, net, parse_amount(m[1], "en"), parse_amount(m[2], "en")


# ----------------------------------------------------------------------------- money and the seat
def test_money_is_typed_and_shown_in_units_with_two_decimals() -> None:
    assert parse_money("10") == 1000
    assert parse_money("10.50") == 1050
    assert parse_money("10.5") == 1050
    assert parse_money("0.05") == 5
    assert format_money(1050) == "10.50"
    assert format_money(-250) == "-2.50"
    assert format_money(1500, sign=True) == "+15.00"
    for bad in ("abc", "10.555", "-5", "1,5"):
        with pytest.raises(ValueError, match=re.escape(repr(bad))):
            parse_money(bad)


def test_table_books_a_blackjack_paid_3_to_2_into_bankroll_and_stats() -> None:
    # ru-online: A♠ K♥ against a 9: no insurance, blackjack paid 3:2 at once (ru.7): +15.00.
    table = PlayerSeat(load_rules("ru-online"), bankroll=10_000, shoe=StackedShoe("AS 9D KH 8C"))
    rnd = table.deal([1000])
    assert rnd.is_over
    assert table.settle(rnd) == 1500
    assert table.bankroll == 11_500
    s = table.stats
    assert (s.rounds, s.won, s.lost, s.blackjacks, s.net, s.biggest_win) == (1, 1, 0, 1, 1500, 1500)


# ----------------------------------------------------------------------------- what is shown
def test_hole_card_is_not_printed_before_the_dealer_shows_it() -> None:
    # Player T♠ 7♥ (17), dealer 9♦ up and 8♣ in the hole: 17 against 17 pushes.
    code, text, script = run(["10", "s", "q"], shoe="TS 9D 7H 8C")
    before_stand = script.seen[1]  # all output when the play question was asked
    assert "Box 1: 10♠ 7♥ (17)" in before_stand
    assert "9♦ ??" in before_stand
    assert "8♣" not in before_stand
    after = text[len(before_stand) :]
    assert "9♦ 8♣" in after
    assert re.search(r"Box 1 .*push", after)
    assert code == 0
    assert summary(text) == (1, 0, 100_000, 100_000)


def test_only_legal_action_keys_are_offered() -> None:
    _, no_pair, _ = run(["10", "s", "q"], shoe="TS 9D 7H 8C")
    assert "h hit · s stand · d double ›" in no_pair
    assert "p split" not in no_pair
    # 8♠ 8♥ is a pair; ru-online has no surrender, so no 'r'.
    _, pair, _ = run(["10", "s", "q"], shoe="8S 9D 8H 7C TD")
    assert "h hit · s stand · d double · p split ›" in pair
    assert "r surrender" not in pair


def test_an_illegal_key_is_refused_named_and_asked_again() -> None:
    # T♠ 6♥ (16) against 9♦, hole 8♣: 'p' and 'x' are refused, then the stand loses 10.00.
    _, text, _ = run(["10", "p", "x", "s", "q"], shoe="TS 9D 6H 8C")
    assert "'p' (split) is not allowed for this hand: h (hit), s (stand), d (double)" in text
    assert "'x' is not one of the choices: h (hit), s (stand), d (double)" in text
    assert text.count("Box 1: 10♠ 6♥ (16) vs 9♦") == 3
    assert summary(text)[1] == -1000


def test_split_hands_are_labelled_and_played_in_turn() -> None:
    # 8♠ 8♥ against 9♦ (hole 7♣): split; hand 1 takes 3♣ (11), hand 2 takes 2♦ when play
    # reaches it (ru.9); both stand. Dealer 16 draws T♦ and busts: both hands win 10.00.
    _, text, _ = run(["10", "p", "s", "s", "q"], shoe="8S 9D 8H 7C 3C 2D TD")
    assert "▶ Box 1 hand 1 of 2: 8♠ 3♣ (11)" in text
    assert "▶ Box 1 hand 2 of 2: 8♥ 2♦ (10)" in text
    assert summary(text)[1] == 2000


def test_insurance_is_offered_against_an_ace_and_pays_2_to_1() -> None:
    # ru.5, ru.6: T♠ 9♥ against A♦ with K♣ in the hole. Insure 5.00: the hand loses 10.00,
    # insurance wins 10.00 (2:1): net 0.
    _, text, script = run(["10", "maybe", "y", "q"], shoe="TS AD 9H KC")
    assert "Insurance. Box 1 against A♦: insure for 5.00" in script.seen[1]
    assert "'maybe' is not an answer: type y (yes) or n (no)" in script.seen[2]
    assert "K♣" not in script.seen[2]
    assert "insurance 5.00: paid 15.00 (+10.00)" in text
    assert summary(text)[1] == 0


def test_declined_insurance_then_the_peek_finds_no_blackjack() -> None:
    # T♠ 9♥ (19) against A♦ 7♣ (soft 18, stands: ru.11): the hand wins 10.00.
    _, text, script = run(["10", "n", "s", "q"], shoe="TS AD 9H 7C")
    assert "The dealer checks the hole card: no blackjack." in text
    assert "7♣" not in script.seen[2]
    assert summary(text)[1] == 1000


def test_up_to_half_insurance_asks_the_amount_with_its_range() -> None:
    # ro-casino (ro.9): insurance from half the table minimum (0.50) to half the bet (5.00).
    # 9.00 is refused; 2.00 taken. T♠ 9♥ stands; the dealer's A♦ gets K♣: blackjack takes the
    # hand (-10.00), insurance pays 2:1 (+4.00): net -6.00.
    _, text, _ = run(["10", "y", "9", "2", "s", "q"], rules="ro-casino", shoe="TS AD 9H KC")
    assert "Insurance amount (0.50 to 5.00, Enter = 5.00)" in text
    assert "9.00 is outside 0.50 to 5.00" in text
    assert summary(text)[1] == -600


def test_even_money_prompt_pays_1_to_1() -> None:
    # hu-casino deals box by box (hu.4): A♠ K♥ to the box, then the dealer's A♦: even money.
    _, text, _ = run(["10", "y", "q"], rules="hu-casino", shoe="AS KH AD")
    assert "Box 1 has blackjack against A♦: take even money (20.00 now)?" in text
    assert summary(text)[1] == 1000


def test_a_blackjack_that_declines_even_money_is_offered_insurance() -> None:
    # hu.9: the blackjack may insure instead of taking even money. A♠ K♥ against A♦ declines
    # even money, insures 5.00; the dealer's K♣ makes blackjack: a stand-off plus 10.00 from
    # the insurance, +10.00 as even money would have paid.
    _, text, _ = run(["10", "n", "y", "q"], rules="hu-casino", shoe="AS KH AD KC")
    assert "take even money (20.00 now)?" in text
    assert "insure for 5.00 (pays 2:1 on a dealer blackjack)?" in text
    assert summary(text)[1] == 1000


def test_a_blackjack_insured_for_less_than_half_at_ro_casino(tmp_path: Path) -> None:
    # ro.9: 2.00 of insurance on a 10.00 blackjack (A♠ K♥ against A♦); the dealer's 9♣ makes
    # soft 20: the blackjack is paid 3:2 (+15.00), the insurance lost (-2.00): +13.00.
    log = tmp_path / "rounds.jsonl"
    _, text, _ = run(
        ["10", "n", "y", "2", "q"], rules="ro-casino", shoe="AS AD KH 9C", log_path=str(log)
    )
    assert "Insurance amount (0.50 to 5.00, Enter = 5.00)" in text
    assert summary(text)[1] == 1300
    data = json.loads(log.read_text().splitlines()[0])
    assert data["decisions"] == ["insure:200"]
    assert replay(data)["net"] == {"player": 1300}


def test_double_for_less_and_its_log_replays_to_the_same_net(tmp_path: Path) -> None:
    # ro-casino: 6♠ 5♥ (11) against 5♦. Surrender is asked before play (ro.11): no. Double
    # for 5.00 (ro.15) draws T♣ (21); the dealer draws T♦ K♦ and busts: +15.00.
    log = tmp_path / "rounds.jsonl"
    _, text, _ = run(
        ["10", "n", "d", "5", "q"], rules="ro-casino", shoe="6S 5D 5H TC TD KD", log_path=str(log)
    )
    assert "Box 1 against 5♦: surrender and get 5.00 back?" in text
    assert "Double for (1.00 to 10.00, Enter = 10.00)" in text
    assert summary(text)[1] == 1500
    (line,) = log.read_text().splitlines()
    data = json.loads(line)
    assert data["decisions"] == ["no-surrender", "double:500"]
    assert replay(data)["net"] == {"player": 1500}


def test_pt_jackpot_bet_and_menu_with_split_and_surrender() -> None:
    # pt-casino: A♠ A♥ against 9♦ (hole 8♣). Jackpot 1.00 on two aces pays 25:1 (pt.13 preset
    # paytable); soft 12 may stand (pt.5), loses to 17: -10.00 + 25.00 = +15.00.
    _, text, _ = run(["10", "1", "s", "q"], rules="pt-casino", shoe="AS 9D AH 8C", side_bets=True)
    assert "Aces jackpot bet on box 1 (0 for none)" in text
    assert "h hit · s stand · p split · r surrender ›" in text
    assert "jackpot 1.00: paid 26.00 (+25.00)" in text
    assert summary(text)[1] == 1500


# ----------------------------------------------------------------------------- bets and endings
def test_bad_bets_are_refused_and_no_money_is_lost() -> None:
    # Bankroll 50.00: 'abc', 0.50 and 60.00 are refused; 10.00 on T♠ 7♥ pushes against 9♦ 8♣.
    _, text, _ = run(["abc", "0.50", "60", "10", "s", "q"], shoe="TS 9D 7H 8C", bankroll=5000)
    assert "'abc' is not an amount: expected money such as 10 or 10.50" in text
    assert "bet 0.50 is outside the table limits 1.00 to 5,000.00" in text
    assert "bet 60.00 is more than the 50.00 left" in text
    assert text.count("Bet on box 1 (1.00 to 50.00) [1.00]") == 4
    assert summary(text) == (1, 0, 5000, 5000)


def test_rebet_repeats_every_box() -> None:
    # Two boxes (ru-online deals round-robin). Round 1: T♠ 7♥ and 9♠ 8♥ (17s) against 9♦ 8♣:
    # two pushes. Round 2 rebets 10.00 and 20.00: T♣ 8♦ and 9♣ K♦ against 5♦ T♥, the dealer
    # draws 7♠ and busts: +10.00 +20.00.
    shoe = "TS 9S 9D 7H 8H 8C  TC 9C 5D 8D KD TH 7S"
    _, text, _ = run(["10", "20", "s", "s", "r", "s", "s", "q"], shoe=shoe, boxes=2)
    assert "Rebet: 10.00 · 20.00" in text
    assert "▶ Box 2: 9♣ K♦ (19) vs 5♦" in text
    assert summary(text) == (2, 3000, 100_000, 103_000)


def test_quitting_prints_the_summary() -> None:
    code, text, _ = run(["q"])
    assert code == 0
    assert "Session summary" in text
    assert summary(text) == (0, 0, 100_000, 100_000)


def test_end_of_input_mid_round_finishes_it_and_books_the_money() -> None:
    # Input ends at the play question: the hand stands on 16 and loses to 17.
    _, text, _ = run(["10"], shoe="TS 9D 6H 8C")
    assert "End of input" in text
    assert summary(text) == (1, -1000, 100_000, 99_000)


def test_the_game_ends_when_the_bankroll_is_below_the_table_minimum() -> None:
    _, text, _ = run(["10", "s", "10"], shoe="TS 9D 6H 8C", bankroll=1000)
    assert "below the table minimum 1.00" in text
    assert text.count("Bet on box 1") == 1
    assert summary(text) == (1, -1000, 1000, 0)


def test_boxes_above_the_rules_limit_is_an_error_naming_the_value() -> None:
    with pytest.raises(BetError, match=r"--boxes 6: the ru-online table allows 1 to 5 boxes"):
        play("ru-online", boxes=6, stdin=io.StringIO(""), stdout=io.StringIO())


def test_colour_only_when_asked_or_on_a_terminal() -> None:
    _, plain, _ = run(["10", "s", "q"], shoe="TS 9D 7H 8C")
    _, colour, _ = run(["10", "s", "q"], shoe="TS 9D 7H 8C", color=True)
    assert "\x1b[" not in plain
    assert "\x1b[1;31m7♥" in colour  # hearts and diamonds red
    assert "\x1b[1;31m9♦" in colour
    assert "\x1b[1m10♠" in colour  # spades and clubs not


# ----------------------------------------------------------------------------- the real command
def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def test_console_script_rejects_too_many_boxes() -> None:
    proc = subprocess.run(
        [str(CONSOLE_SCRIPT), "play", "--rules", "pl-online", "--boxes", "4"],
        input="",
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert proc.returncode == 2
    assert "--boxes 4: the pl-online table allows 1 to 3 boxes" in proc.stderr


def test_console_script_seeded_session_nets_match_bankroll_and_replays(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    # Every prompt accepts one of these lines; the others are refused and asked again.
    lines = ["", "s", "n"] * 40
    proc = subprocess.run(
        [str(CONSOLE_SCRIPT), "play", "--seed", "1", "--rules", "ru-online", "--log", str(log)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" not in proc.stdout
    rounds, net, start, end = summary(proc.stdout)
    assert rounds > 5
    assert end - start == net
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == rounds
    assert sum(replay(r)["net"]["player"] for r in records) == net

    # the whole log replays through the console script too, one result line per round
    whole = subprocess.run(
        [str(CONSOLE_SCRIPT), "replay", str(log)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert whole.returncode == 0, whole.stdout
    results = [json.loads(line) for line in whole.stdout.splitlines()]
    assert len(results) == rounds
    assert sum(r["net"]["player"] for r in results) == net


def test_hints_show_the_chart_move_and_the_cost_of_a_deviation() -> None:
    from twentyone.analysis import action_evs
    from twentyone.engine.cards import parse_cards

    # ru-online: box TS 6D against the dealer's 8C (hole 7S); the player stands on 16.
    code, text, _ = run(["10", "s", "q"], shoe="TS 8C 6D 7S 3C", hints=True)
    assert code == 0
    evs = action_evs(load_rules("ru-online"), list(parse_cards("TS 6D")), parse_cards("8C")[0])
    assert evs["hit"] > evs["stand"]
    # the hint in words, before the choice (issue 15): the chart's move and what stand costs
    hint = re.search(
        r"Hint: the chart says hit; stand costs ([\d.]+)% of your bet on average", text
    )
    assert hint is not None
    assert float(hint[1]) == pytest.approx(100 * (evs["hit"] - evs["stand"]), abs=0.006)
    assert "-0." not in text  # no raw returns
    cost = re.search(r"stand costs ([\d.]+)% of the bet", text)
    assert cost is not None
    assert float(cost[1]) == pytest.approx(100 * (evs["hit"] - evs["stand"]), abs=0.006)
    # following the chart draws no complaint
    _, quiet, _ = run(["10", "h", "s", "q"], shoe="TS 8C 6D 7S 2C 3C 9H", hints=True)
    assert "Hint: the chart says" in quiet and "The chart says" not in quiet


def test_side_bets_of_a_rules_file_are_asked_per_box_and_paid_after_the_deal() -> None:
    # examples/rules/side-bets.toml: 10.00 on the box, 5.00 Perfect Pairs, 2.00 21+3; ann
    # 7♥ 7♦ (a coloured pair, 12 to 1) against 8♥ (7-7-8: no 21+3 hand); stands on 14, the
    # dealer 8♥ T♣ (18) wins: -10.00 + 60.00 - 2.00 = +48.00.
    rules = str(Path(__file__).parent.parent / "examples" / "rules" / "side-bets.toml")
    _, text, _ = run(["10", "5", "2", "s", "q"], rules=rules, shoe="7H 8H 7D TC", side_bets=True)
    assert "Perfect Pairs bet on box 1 (0 for none) [0.00]" in text
    assert "21+3 bet on box 1 (0 for none) [0.00]" in text
    assert "Box 1: Perfect Pairs pays 65.00! (coloured pair (one colour))" in text
    assert "Box 1 Perfect Pairs 5.00: paid 65.00 (+60.00)" in text
    assert "Box 1 21+3 2.00: lost (-2.00)" in text
    assert summary(text)[1] == 4800


# ----------------------------------------------------------------------------- issue 29, item 4
def test_one_insurance_question_covers_all_the_players_boxes(tmp_path: Path) -> None:
    # ru-online, two boxes: T♠ 9♥ (10.00) and 9♠ T♥ (20.00) against A♦, K♣ in the hole. One
    # question for both boxes, each insured for half its own bet; the dealer's blackjack takes
    # the hands (-30.00), the insurance pays 2:1 (+10.00, +20.00): net 0. The log keeps one
    # decision a box.
    log = tmp_path / "rounds.jsonl"
    _, text, script = run(
        ["10", "20", "y", "q"], shoe="TS 9S AD 9H TH KC", boxes=2, log_path=str(log)
    )
    asked = "Insurance. Box 1, Box 2 against A♦: insure for 5.00 + 10.00 (pays 2:1"
    assert asked in script.seen[2] and text.count("Insurance.") == 1
    assert "Box 1 insurance 5.00: paid 15.00 (+10.00)" in text
    assert "Box 2 insurance 10.00: paid 30.00 (+20.00)" in text
    data = json.loads(log.read_text().splitlines()[0])
    assert data["decisions"] == ["insure", "insure"]
    assert replay(data)["net"] == {"player": 0} and summary(text)[1] == 0


def test_insurance_for_less_asks_each_boxs_amount_after_one_question(tmp_path: Path) -> None:
    # ro-casino (ro.9, any amount up to half): the same cards, the dealer's K♣ drawn after
    # play. One question; box 1 insures 2.00, box 2 takes Enter (its half, 10.00). Hands -30.00,
    # insurance +4.00 +20.00: -6.00.
    log = tmp_path / "rounds.jsonl"
    lines = ["10", "20", "y", "2", "", "s", "s", "q"]
    _, text, _ = run(lines, rules="ro-casino", shoe="TS 9S AD 9H TH KC", boxes=2,
                     log_path=str(log))  # fmt: skip
    assert "Insurance. Box 1, Box 2 against A♦: insure for up to 5.00 + 10.00" in text
    assert text.count("Insurance.") == 1
    assert "Box 1: Insurance amount (0.50 to 5.00, Enter = 5.00)" in text
    assert "Box 2: Insurance amount (0.50 to 10.00, Enter = 10.00)" in text
    data = json.loads(log.read_text().splitlines()[0])
    assert data["decisions"] == ["insure:200", "insure", "stand", "stand"]
    assert replay(data)["net"] == {"player": -600} and summary(text)[1] == -600


def test_declining_insurance_once_declines_it_for_every_box() -> None:
    # T♠ 9♥ and 9♠ T♥ (19 each) against A♦ 7♣: no insurance, no blackjack; both stand on 19
    # against the dealer's soft 18 (ru.11): +10.00 +10.00.
    _, text, _ = run(["10", "", "n", "s", "s", "q"], shoe="TS 9S AD 9H TH 7C", boxes=2)
    assert text.count("Insurance.") == 1 and "insurance 5.00" not in text
    assert summary(text)[1] == 2000


def test_a_boxs_default_bet_follows_the_bet_just_put_on_the_box_before() -> None:
    _, _, script = run(["25", "q"], boxes=2)
    assert "Bet on box 2 (1.00 to 975.00, 0 = sit out) [25.00]" in script.seen[1]
    _, _, script = run(["25", "0", "q"], boxes=3)  # a box sat out: the last bet put on
    assert "Bet on box 3 (1.00 to 975.00, 0 = sit out) [25.00]" in script.seen[2]


def test_r_and_rebet_show_the_amounts_side_bets_included() -> None:
    # pt-casino with the jackpot: round 1 A♠ A♥ (10.00 and 1.00 on the jackpot) against 9♦
    # 8♣; round 2 repeats both with r.
    lines = ["b", "10", "1", "s", "r", "s", "q"]
    _, text, _ = run(lines, rules="pt-casino", shoe="AS 9D AH 8C TS 9H 7D TC")
    assert "r repeats the last round's bets (10.00 + Aces jackpot 1.00)" in text
    assert "Rebet: 10.00 + Aces jackpot 1.00" in text
