"""The shared terminal table (``twentyone play --players ann,bob``), driven with scripted input.

Stacked shoes are read in the dealing order of RULES.md (round-robin: first card to each box,
the dealer's up card, second card to each box; hu deals box by box). Expected nets are worked
out by hand from the rules.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from twentyone.engine.errors import BetError, ShoeExhaustedError
from twentyone.engine.replay import replay
from twentyone.engine.shoe import StackedShoe
from twentyone.i18n import parse_amount
from twentyone.terminal.table import play_shared

CONSOLE_SCRIPT = Path(sys.executable).parent / "twentyone"


class Script(io.StringIO):
    """Scripted input lines; remembers the prompt each line answered."""

    def __init__(self, lines: list[str], out: io.StringIO) -> None:
        super().__init__("".join(line + "\n" for line in lines))
        self.out = out
        self.prompts: list[str] = []

    # typeshed gives StringIO the bytes readline of _IOBase too: the ignore
    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        self.prompts.append(self.out.getvalue().rstrip("\n").rsplit("\n", 1)[-1])
        return super().readline(size)


def run(
    lines: list[str],
    rules: str = "ro-casino",
    shoe: str | None = None,
    players: tuple[str, ...] = ("ann", "bob"),
    **kw: object,
) -> tuple[int, str, Script]:
    out = io.StringIO()
    script = Script(lines, out)
    code = play_shared(
        rules,
        list(players),
        stdin=script,
        stdout=out,
        shoe=StackedShoe(shoe) if shoe is not None else None,
        **kw,  # type: ignore[arg-type]
    )
    return code, out.getvalue(), script


def bankrolls(text: str) -> dict[str, tuple[int, int, int]]:
    """Each player's (rounds, start, end) from the session summary, in minor units."""
    tail = text.split("Session summary", 1)[1]
    found = re.findall(
        r"^(\w+)\n\s+Rounds played: (\d+).*?Bankroll: ([\d.,]+) -> ([\d.,]+)", tail, re.S | re.M
    )
    return {
        name: (int(rounds), parse_amount(start, "en"), parse_amount(end, "en"))
        for name, rounds, start, end in found
    }


# ro-casino (no hole card; surrender asked before play): ann TS 7C = 17, bob 9H 2S = 11, dealer
# 6D. Both decline surrender; ann stands; bob hits 9C (20) and stands. The dealer draws TD (16)
# then 8H: 24, bust. Both win their 10.00.
RO_SHOE = "TS 9H 6D 7C 2S 9C TD 8H"


def test_two_players_bet_in_turn_and_each_question_names_its_player() -> None:
    code, text, script = run(["10", "10", "n", "n", "s", "h", "s", "q"], shoe=RO_SHOE)
    assert code == 0
    asked = [p.split(" ›")[0] for p in script.prompts]
    assert asked[0] == "ann, bet on box 1 (1.00 to 1,000.00, 0 = sit out) [1.00]"
    assert asked[1] == "bob, bet on box 2 (1.00 to 1,000.00, 0 = sit out) [1.00]"
    assert asked[2].startswith("ann · Box 1 against 6♦: surrender")
    assert asked[3].startswith("bob · Box 2 against 6♦: surrender")
    assert asked[4].startswith("▶ ann · Box 1: 10♠ 7♣ (17) vs 6♦")
    assert asked[5].startswith("▶ bob · Box 2: 9♥ 2♠ (11) vs 6♦")
    assert asked[6].startswith("▶ bob · Box 2: 9♥ 2♠ 9♣ (20) vs 6♦")
    assert asked[7].startswith("ann, bet on box 1")  # round 2: q quits
    assert re.search(r"ann · Box 1 .*win", text) and re.search(r"bob · Box 2 .*win", text)
    assert "ann: Round net +10.00 · bankroll 1,010.00" in text
    assert "bob: Round net +10.00 · bankroll 1,010.00" in text
    assert bankrolls(text) == {"ann": (1, 100_000, 101_000), "bob": (1, 100_000, 101_000)}


def test_enter_repeats_a_players_bet_and_r_rebets_their_last_round() -> None:
    # round 1 as above; round 2 ann rebets (10.00), bob presses Enter (his 10.00 again):
    # ann TS 9C = 19, bob 9H 8S = 17 against 7D, both stand; the dealer draws TD: 17.
    # ann wins 10.00, bob pushes.
    shoe = RO_SHOE + " TS 9H 7D 9C 8S TD"
    lines = ["10", "10", "n", "n", "s", "h", "s", "r", "", "n", "n", "s", "s", "q"]
    _, text, script = run(lines, shoe=shoe, bankroll=5000)
    assert "Rebet: 10.00" in text
    assert script.prompts[8].startswith("bob, bet on box 2 (1.00 to 60.00, 0 = sit out) [10.00]")
    assert bankrolls(text) == {"ann": (2, 5000, 7000), "bob": (2, 5000, 6000)}


def test_the_table_refuses_bad_bets_in_its_own_words_and_asks_again() -> None:
    lines = ["60", "0.50", "ten", "10", "0", "n", "s", "q"]
    code, text, script = run(lines, shoe=RO_SHOE, bankroll=5000)
    assert code == 0
    # the engine's refusals (twentyone.engine.bets), in the game's words
    assert "player 'ann' bets 60.00 but has 50.00; r rebets, q quits" in text
    assert "box 1: bet 0.50 is outside the table limits 1.00 to 5,000.00; r rebets, q quits" in text
    assert "'ten' is not an amount" in text
    assert [p.split(",")[0] for p in script.prompts[:5]] == ["ann"] * 4 + ["bob"]
    # bob sat out (0): only ann's box is dealt
    assert bankrolls(text)["bob"] == (0, 5000, 5000)
    assert bankrolls(text)["ann"][0] == 1


def test_the_tables_refusal_speaks_the_games_language() -> None:
    _, text, _ = run(["60", "q"], shoe=RO_SHOE, bankroll=5000, lang="ro")
    assert "jucătorul 'ann' pariază 60,00, dar are 50,00" in text


def test_r_with_no_last_round_is_refused() -> None:
    _, text, _ = run(["r", "q"], shoe=RO_SHOE)
    assert "rebet: you have no last round to repeat here" in text


def test_a_broke_player_sits_out_and_the_game_ends_when_nobody_can_bet() -> None:
    # ann 1.00 vs bob 1.00, both at the minimum: both lose to the dealer's 20 (TS 7C = 17,
    # 9H 2S = 11 stand; dealer 6D TD 4H = 20).
    lines = ["", "", "n", "n", "s", "s"]
    _, text, _ = run(lines, shoe="TS 9H 6D 7C 2S TD 4H", bankroll=100)
    assert "No bankroll covers the table minimum 1.00: the game is over." in text
    assert bankrolls(text) == {"ann": (1, 100, 0), "bob": (1, 100, 0)}


def test_pt_jackpot_side_bet_for_one_player() -> None:
    # pt-casino (hole card): ann 9S 9D = 18 with a 1.00 jackpot bet, bob TH 7C = 17, dealer
    # 8C + hole TC = 18. ann pushes (jackpot lost: no ace), bob loses.
    lines = ["10", "1", "10", "0", "s", "s", "q"]
    _, text, script = run(lines, rules="pt-casino", shoe="9S TH 8C 9D 7C TC", side_bets=True)
    assert script.prompts[1].strip().startswith("ann, Aces jackpot bet on box 1 (0 for none)")
    assert "ann · Box 1 Aces jackpot 1.00: lost (-1.00)" in text
    assert bankrolls(text) == {"ann": (1, 100_000, 99_900), "bob": (1, 100_000, 99_000)}


def test_end_of_input_mid_round_finishes_it_standing() -> None:
    code, text, _ = run(["10", "10"], shoe=RO_SHOE)
    assert code == 0 and "End of input: the round was finished standing" in text
    assert "(ann · Box 1: no)" in text and "(bob · Box 2: stand)" in text


@pytest.mark.parametrize(
    ("rules", "players", "named"),
    [
        ("pl-online", ("ann", "bob"), "pl-online is a single-player table"),
        ("ru-online", ("ann", "bob"), "ru-online is a single-player table"),
        ("ro-casino", ("ann",), "name two or more players"),
        ("ro-casino", ("ann", ""), "name two or more players"),
        ("ro-casino", ("ann", "bob", "ann"), "'ann' is named twice"),
        ("ro-casino", tuple("abcdefgh"), "8 players with 1 box each need 8 boxes"),
    ],
)
def test_tables_and_names_that_cannot_be_shared_are_errors(
    rules: str, players: tuple[str, ...], named: str
) -> None:
    with pytest.raises(BetError, match=re.escape(named)):
        run([], rules=rules, players=players)


def test_console_script_plays_a_shared_table_from_piped_input() -> None:
    proc = subprocess.run(
        [str(CONSOLE_SCRIPT), "play", "--players", "ann,bob", "--seed", "5", "--lang", "en"],
        input="10\n20\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    found = bankrolls(proc.stdout)
    assert set(found) == {"ann", "bob"}
    assert found["ann"][:2] == (1, 100_000) and found["bob"][:2] == (1, 100_000)
    bad = subprocess.run(
        [str(CONSOLE_SCRIPT), "play", "--players", "ann,bob", "--rules", "ru-online"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "ru-online is a single-player table" in bad.stderr


def test_a_round_the_table_cannot_start_is_told_and_the_bets_go_back() -> None:
    # a two-card shoe cannot deal two boxes and the dealer: the session takes the bets back
    # and says so; input then ends
    code, text, _ = run(["10", "10"], shoe="TS 9H")
    assert code == 0
    assert "the round could not start: the bets are taken back" in text
    assert bankrolls(text) == {"ann": (0, 100_000, 100_000), "bob": (0, 100_000, 100_000)}


def test_each_player_gets_their_own_boxes() -> None:
    # two boxes each: ann boxes 1-2, bob 3-4; bob sits box 4 out. hu deals box by box:
    # box 1 TS 9H, box 2 8C 7C, box 3 TD 9D, dealer 6D; input ends: all stand, the dealer
    # draws TH 5S.
    lines = ["10", "10", "10", "0"]
    shoe = "TS 9H 8C 7C TD 9D 6D TH 5S"
    code, text, script = run(lines, rules="hu-casino", shoe=shoe, boxes=2)
    assert code == 0
    assert "ann: Box 1, Box 2, bankroll 1,000.00" in text
    assert "bob: Box 3, Box 4, bankroll 1,000.00" in text
    assert [p.split(" (")[0] for p in script.prompts[:4]] == [
        "ann, bet on box 1",
        "ann, bet on box 2",
        "bob, bet on box 3",
        "bob, bet on box 4",
    ]
    assert "bob · Box 3  10♦ 9♦" in text and "Box 4" not in text.split("Round 1")[1]


def test_a_shoe_that_runs_out_mid_round_is_an_error_not_a_loop() -> None:
    with pytest.raises(ShoeExhaustedError):
        run(["10", "10", "n", "n", "s", "s"], shoe="TS 9H 6D 7C 2S")


def test_log_writes_each_round_with_every_players_bankroll(tmp_path: Path) -> None:
    log = tmp_path / "rounds.jsonl"
    _, _, _ = run(["10", "10", "n", "n", "s", "h", "s", "q"], shoe=RO_SHOE, log_path=str(log))
    (line,) = log.read_text().splitlines()
    record = json.loads(line)
    assert record["bankrolls"] == {"ann": 100_000, "bob": 100_000}
    assert [b["player"] for b in record["boxes"]] == ["ann", "bob"]
    assert replay(record)["net"] == {"ann": 1000, "bob": 1000}


# ----------------------------------------------------------------------------- issue 29, item 4
# ro-casino, two boxes each: ann T♠ 9♥, 9♠ T♥; bob T♦ 9♣, 9♦ T♣ (19 each) against A♦; the
# dealer's K♣ (drawn after play: no hole card) makes blackjack.
TWO_EACH = "TS 9S TD 9D AD 9H TH 9C TC KC"


def test_one_insurance_question_per_player_and_defaults_follow_the_box_before(
    tmp_path: Path,
) -> None:
    log = tmp_path / "rounds.jsonl"
    lines = ["10", "", "10", "20", "n", "y", "", "", "s", "s", "s", "s", "q"]
    _, text, script = run(lines, shoe=TWO_EACH, boxes=2, log_path=str(log))
    # box 2's default is the 10.00 just put on box 1, box 4's the 10.00 on box 3
    assert script.prompts[1].startswith("ann, bet on box 2 (1.00 to 990.00, 0 = sit out) [10.00]")
    assert script.prompts[3].startswith("bob, bet on box 4 (1.00 to 990.00, 0 = sit out) [10.00]")
    assert script.prompts[4].startswith(
        "Insurance. ann · Box 1, Box 2 against A♦: insure for up to 5.00 + 5.00"
    )
    assert script.prompts[5].startswith(
        "Insurance. bob · Box 3, Box 4 against A♦: insure for up to 5.00 + 10.00"
    )
    assert script.prompts[6].strip().startswith("bob · Box 3: Insurance amount (0.50 to 5.00")
    assert script.prompts[7].strip().startswith("bob · Box 4: Insurance amount (0.50 to 10.00")
    assert text.count("Insurance.") == 2
    record = json.loads(log.read_text().splitlines()[0])
    assert record["decisions"][:4] == ["no-insurance", "no-insurance", "insure", "insure"]
    # ann: -20.00; bob: -30.00 on the hands, +10.00 +20.00 from the insurance
    assert replay(record)["net"] == {"ann": -2000, "bob": 0}
    assert bankrolls(text) == {"ann": (1, 100_000, 98_000), "bob": (1, 100_000, 100_000)}


def test_r_and_rebet_show_each_players_amounts_side_bets_included() -> None:
    # pt-casino, as in the jackpot test above, twice: round 2 ann rebets (10.00 and the jackpot
    # 1.00), bob repeats his 10.00 with Enter and adds a jackpot 1.00
    lines = ["10", "1", "10", "0", "s", "s", "r", "", "1", "s", "s", "q"]
    shoe = "9S TH 8C 9D 7C TC 9S TH 8C 9D 7C TC"
    _, text, _ = run(lines, rules="pt-casino", shoe=shoe, side_bets=True)
    assert "r repeats ann's last bets (10.00 + Aces jackpot 1.00)" in text
    assert "Rebet: 10.00 + Aces jackpot 1.00" in text
    assert "r repeats bob's last bets (10.00)" in text
    assert "ann · Box 1 Aces jackpot 1.00: lost (-1.00)" in text.split("Round 2")[1]
