"""The terminal game's keys and hints (issue 15, item 4): one key without Enter at a terminal
(a pseudo-terminal drives the real game), lines with piped input; the Russian layout's keys;
insurance and even-money hints; side bets only when asked for; ``r`` only after a round;
``--bankroll`` in money.

Stacked shoes deal in the order of RULES.md (ru-online: box, up card, box, hole card)."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
import time

import pytest

from twentyone.cli import main
from twentyone.engine.shoe import StackedShoe
from twentyone.terminal.game import play


def run(lines: list[str], rules: str = "ru-online", shoe: str = "", **kw: object) -> str:
    out = io.StringIO()
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    code = play(rules, stdin=stdin, stdout=out, shoe=StackedShoe(shoe), **kw)  # type: ignore[arg-type]
    assert code == 0
    return out.getvalue()


def net(text: str) -> str:
    found = re.search(r"Net: ([+-]?[\d.,]+)", text)
    assert found is not None
    return found[1]


# ----------------------------------------------------------------------------- the pty
_GAME = (
    "import sys; from twentyone.terminal.game import play; "
    "from twentyone.engine.shoe import StackedShoe; "
    "sys.exit(play('ru-online', shoe=StackedShoe(sys.argv[1]), color=False, lang=sys.argv[2]))"
)


class Terminal:
    """The game in a child process whose standard input and output are a pseudo-terminal."""

    def __init__(self, shoe: str, lang: str = "en") -> None:
        import pty

        self.master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "200", "TERM": "dumb"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _GAME, shoe, lang],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.text = ""

    def wait_for(self, marker: str, seconds: float = 60.0) -> str:
        """Read until ``marker`` has been printed (fail after ``seconds``)."""
        deadline = time.monotonic() + seconds
        while marker not in self.text:
            left = deadline - time.monotonic()
            assert left > 0, f"{marker!r} never came; the terminal shows:\n{self.text}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    data = b""
                if not data:
                    assert marker in self.text, f"{marker!r}: the game ended:\n{self.text}"
                self.text += data.decode("utf-8", "replace")
        return self.text

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode("utf-8"))

    def close(self) -> int:
        code = self.proc.wait(timeout=60)
        os.close(self.master)
        return code


@pytest.mark.skipif(sys.platform == "win32", reason="termios and pty are POSIX")
@pytest.mark.parametrize("stand", ["s", "ы"])
def test_one_key_without_enter_at_a_terminal(stand: str) -> None:
    """T♠ 6♦ against 8♣ (hole 7♠): the key alone stands, no Enter after it; the dealer's 15
    draws T♣ and busts: +10.00. ``ы`` is the Russian layout's letter on the S key."""
    term = Terminal("TS 8C 6D 7S TC")
    try:
        term.wait_for("Bet on box 1")
        assert "one key, no Enter" in term.text
        term.type("10\n")  # an amount is a line
        term.wait_for("s stand")
        term.type(stand)  # one key, no newline
        term.wait_for("Round net +10.00")
        term.wait_for("Bet on box 1", seconds=30)
        term.type("q\n")
        term.wait_for("Session summary")
    finally:
        code = term.close()
    assert code == 0


@pytest.mark.skipif(sys.platform == "win32", reason="termios and pty are POSIX")
def test_yes_no_is_one_key_and_ctrl_d_ends_the_game() -> None:
    """T♠ 9♥ against A♦: the insurance question takes ``n`` alone; a hit with ``h`` alone,
    then Ctrl-D ends the game (the hand finishes standing)."""
    term = Terminal("TS AD 2H 7C 5S 9D")
    try:
        term.wait_for("Bet on box 1")
        term.type("10\n")
        term.wait_for("y/N")
        term.type("n")
        term.wait_for("h hit")
        term.type("р")  # the Russian layout's H
        term.wait_for("(17)")  # the menu again, for 10♠ 2♥ 5♠
        term.type("\x04")
        term.wait_for("Session summary")
    finally:
        code = term.close()
    assert code == 0
    assert "End of input" in term.text


# ----------------------------------------------------------------------------- piped lines
def test_piped_lines_still_answer_and_take_the_russian_layout() -> None:
    # T♠ 6♦ against 8♣ (hole 7♠): "р" hits (3♣: 19), "ы" stands; the dealer's 15 draws 9♥:
    # bust, +10.00. At the next bet "й" (the Q key) quits.
    text = run(["10", "р", "ы", "й"], shoe="TS 8C 6D 7S 3C 9H")
    assert "Box 1: 10♠ 6♦ 3♣" in text
    assert net(text) == "+10.00"
    assert "Session summary" in text


def test_russian_yes_no_keys_keep_their_meaning_in_russian() -> None:
    # in Russian "н" is нет (no), though it sits on the Y key: the language's keys come first
    text = run(["10", "н", "ы", "й"], shoe="TS AD 9H 7C", lang="ru")
    assert "Страховка" in text and "страховка 5,00" not in text.lower()
    # in English the Russian layout's "н" is the Y key: yes
    text = run(["10", "н", "q"], shoe="TS AD 9H KC")
    assert "insurance 5.00: paid 15.00 (+10.00)" in text


# ----------------------------------------------------------------------------- hints
def test_insurance_hint_in_words_from_the_cards_left() -> None:
    # ru-online: T♠ 9♥ against A♦. Six decks less T♠, 9♥, A♦: 95 tens among 309 cards.
    text = run(["10", "n", "s", "q"], shoe="TS AD 9H 7C", hints=True)
    chance = 95 / 309
    cost = 1 - 3 * chance
    line = next(line for line in text.splitlines() if line.startswith("Hint: decline insurance"))
    assert f"it loses {100 * cost:.2f}% of what you insure on average" in line
    assert f"(a dealer blackjack: {100 * chance:.2f}%)" in line


def test_even_money_hint_in_words() -> None:
    # hu-casino: A♠ K♥ against A♦ (6 decks): 95 tens among 309 cards left; declining even
    # money returns 3/2 x (1 - 95/309) per unit bet, more than even money's 1.
    text = run(["10", "n", "n", "q"], rules="hu-casino", shoe="AS KH AD 7C", hints=True)
    declined = 1.5 * (1 - 95 / 309)
    assert f"Hint: decline even money; waiting returns {100 * declined:.2f}% of your bet" in text


def test_every_percentage_a_player_reads_has_two_decimals() -> None:
    # issue 29 item 4: hints mixed 51.0% with 51.69%; one precision now, round figures too
    from twentyone.terminal.text import even_money_hint, hint_text, insurance_hint, percent

    assert percent(0.51) == "51.00%" and percent(0.5169) == "51.69%"
    assert "stand costs 25.00% of your bet" in hint_text("hit", {"stand": -0.5, "hit": -0.25})
    assert "it loses 7.40% of what you insure" in insurance_hint(-0.074, 0.3087)
    assert "(a dealer blackjack: 30.00%)" in insurance_hint(-0.1, 0.3)
    assert even_money_hint(1.04, 0.3).endswith("returns 104.00% of your bet on average, even "
                                               "money 100.00%.")  # fmt: skip
    for text in re.findall(
        r"[\d.,]+%", hint_text("hit", {"stand": -0.5, "hit": -0.2, "double": -0.3})
    ):
        assert re.fullmatch(r"\d+\.\d\d%", text), text


def test_play_hint_names_the_chart_and_the_cost_in_words() -> None:
    text = run(["10", "h", "s", "q"], shoe="TS 8C 6D 7S 2C 3C 9H", hints=True)
    line = next(line for line in text.splitlines() if line.startswith("Hint:"))
    assert re.fullmatch(
        r"Hint: the chart says hit; stand costs [\d.]+% of your bet on average.*", line
    )


# ----------------------------------------------------------------------------- bets
def test_pt_jackpot_is_not_asked_unless_the_player_opts_in() -> None:
    # pt-casino: A♠ A♥ against 9♦ (hole 8♣): soft 12 stands and loses -10.00; no jackpot bet
    text = run(["10", "s", "q"], rules="pt-casino", shoe="AS 9D AH 8C")
    assert "jackpot bet on box 1" not in text
    assert "Side bets (Aces jackpot) are off; b at a bet asks them." in text
    assert net(text) == "-10.00"


def test_b_switches_the_side_bets_on_at_a_bet() -> None:
    # as above, with b: the jackpot is asked, 1.00 on two aces pays 25:1: -10.00 + 25.00
    text = run(["b", "10", "1", "s", "q"], rules="pt-casino", shoe="AS 9D AH 8C")
    assert "Side bets (Aces jackpot) are asked with each bet; b stops asking." in text
    assert "Aces jackpot bet on box 1 (0 for none)" in text
    assert net(text) == "+15.00"


def test_r_is_offered_only_after_a_round() -> None:
    # round 1: T♠ 6♦ against 8♣ 7♠, stands, the dealer draws T♣: +10.00; round 2 is a rebet
    shoe = "TS 8C 6D 7S TC 9S 5D 9H TD TH"
    text = run(["10", "s", "r", "s", "q"], shoe=shoe)
    first, second = text.split("Round 2", 1)
    assert "r rebets" not in first and "r repeats" not in first
    assert "r repeats the last round's bets (10.00)" in second
    assert "Rebet: 10.00" in second


def test_a_bad_bet_before_any_round_does_not_offer_r() -> None:
    text = run(["abc", "q"], shoe="TS 8C 6D 7S")
    assert "'abc' is not an amount" in text and "r rebets" not in text


@pytest.mark.parametrize(
    ("typed", "shown"), [("500", "500.00"), ("500.00", "500.00"), ("2500.5", "2,500.50")]
)
def test_bankroll_is_money(typed: str, shown: str, capsys: pytest.CaptureFixture[str]) -> None:
    stdin = io.StringIO("q\n")
    old = sys.stdin
    sys.stdin = stdin
    try:
        assert main(["play", "--rules", "ru-online", "--bankroll", typed]) == 0
    finally:
        sys.stdin = old
    assert f"Bankroll {shown}" in capsys.readouterr().out


def test_bankroll_in_the_languages_decimal_comma(capsys: pytest.CaptureFixture[str]) -> None:
    old = sys.stdin
    sys.stdin = io.StringIO("q\n")
    try:
        assert main(["play", "--rules", "ru-online", "--bankroll", "500,50", "--lang", "ru"]) == 0
    finally:
        sys.stdin = old
    assert "Счёт 500,50" in capsys.readouterr().out


@pytest.mark.parametrize("typed", ["abc", "-5", "1e3"])
def test_bankroll_not_money_is_one_line(typed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bankroll", typed]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--bankroll {typed!r}: expected money such as 500" in err


def test_bankroll_below_the_minimum_is_told_in_money(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--rules", "ru-online", "--bankroll", "0.50"]) == 2
    assert "--bankroll 0.50: below the table minimum 1.00" in capsys.readouterr().err


def test_help_says_the_bankroll_is_money(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "starting bankroll in money" in " ".join(capsys.readouterr().out.split())


def test_shared_table_offers_r_only_to_a_player_with_a_last_round() -> None:
    from twentyone.terminal.table import play_shared

    # ro-casino (no hole card): ann 10♠ 9♦ against 8♣ declines early surrender (ro.12) and
    # stands; the dealer draws 10♥: 18, ann wins. bob sits out. Round 2: r is offered to ann,
    # not to bob; q quits.
    out = io.StringIO()
    stdin = io.StringIO("10\n0\nn\ns\nq\n")
    shoe = StackedShoe("TS 8C 9D TH")
    assert play_shared("ro-casino", ["ann", "bob"], stdin=stdin, stdout=out, shoe=shoe) == 0
    first, second = out.getvalue().split("Round 2", 1)
    assert "r rebets" not in first and "r repeats" not in first
    assert "r repeats ann's last bets" in second and "r repeats bob's" not in second
