"""The page at a Blackjack Switch table (the ``switch`` rule file): the pair's question with its
Switch and Keep buttons, answered by the y key, and the swapped cards shown on both boxes.

Shoe ``AS 9H TD 7C KS 9D``: ann bets 10.00 on boxes 1 and 2 and is dealt A-7 and 9-K against
a ten (9 in the hole). She switches: A-K (a plain 21, paid 1:1: +10.00) and 9-7 (16, stands
and loses to 19: -10.00); balance 1,000.00.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_browser import Server, browser, check_balances, expect, register, sit, wait_prompt

__all__ = ["browser"]  # the fixture, shared with the page's other tests


def test_a_pair_is_switched_through_the_page(browser: Any, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/switch.db"
    shoe = "AS 9H TD 7C KS 9D"
    with Server(url, {"switch": shoe}, names=("switch",), rules={"switch": "switch"}) as s:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(8000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            register(page, s.url, "ann", tables=1)
            sit(page, "switch")
            page.click('button[data-chip="1000"]')
            page.click('[data-testid="box-0"]')
            page.click('[data-testid="box-1"]')
            page.click("#deal")
            wait_prompt(page, "boxes 1 and 2")
            expect(page.locator("#decision.mine #prompt")).to_contain_text(
                "Switch the second cards of your two hands?"
            )
            buttons = page.locator("#actions button")
            expect(buttons).to_have_count(2)
            expect(buttons.nth(0)).to_contain_text("Switch")
            expect(buttons.nth(1)).to_contain_text("Keep")
            page.keyboard.press("y")
            wait_prompt(page, "box 2, hand 1")
            expect(page.get_by_test_id("switched-0-0")).to_have_text("switched")
            expect(page.get_by_test_id("switched-1-0")).to_have_text("switched")
            page.keyboard.press("s")
            expect(page.get_by_test_id("net-0")).to_have_text("+10.00")
            expect(page.get_by_test_id("net-1")).to_have_text("-10.00")
            check_balances(s, {"ann": page}, {"ann": 100_000})
            assert errors == []
        finally:
            ctx.close()
