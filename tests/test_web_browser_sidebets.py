"""The page at a table built from a rules file with side bets (examples/rules/side-bets.toml):
the side bets it offers come from the table's rules, with nothing in the page naming them.

Shoe ``7H 8H 7D TC``: ann bets 10.00, Perfect Pairs 5.00 and 21+3 1.00 on box 1; she is dealt
7H 7D (a coloured pair: 12 to 1, 65.00 back right after the deal) against 8H (7-7-8: no 21+3
hand, 1.00 lost); she stands on 14 and loses 10.00 to 8H TC (18): -10.00 + 60.00 - 1.00 =
+49.00, balance 1,049.00.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_browser import (
    Server,
    browser,
    check_balances,
    expect,
    register,
    shots_dir,
    sit,
    wait_prompt,
)

__all__ = ["browser"]  # the fixture, shared with the page's other tests

EXAMPLE = str(Path(__file__).parent.parent / "examples" / "rules" / "side-bets.toml")


def test_side_bets_are_offered_staked_and_paid_through_the_page(
    browser: Any, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path}/sides.db"
    with Server(url, {"sides": "7H 8H 7D TC"}, names=("sides",), rules={"sides": EXAMPLE}) as s:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(8000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            register(page, s.url, "ann", tables=1)
            sit(page, "sides")
            expect(page.locator("#side-wrap")).to_be_visible()
            expect(page.locator("#side-wrap label")).to_have_text(
                ["main bet", "Perfect Pairs", "21+3"], use_inner_text=True
            )
            expect(page.locator("#side-wrap label").nth(2)).to_have_attribute(
                "title",
                "suited three of a kind: 100 to 1\nstraight flush: 40 to 1\n"
                "three of a kind: 30 to 1\nstraight: 10 to 1\nflush: 5 to 1",
            )
            page.click('button[data-chip="1000"]')
            page.click('[data-testid="box-0"]')
            page.check('[data-testid="side-perfect-pairs"]')
            page.click('button[data-chip="500"]')
            page.click('[data-testid="box-0"]')
            page.check('[data-testid="side-21-3"]')
            page.click('button[data-chip="100"]')
            page.click('[data-testid="box-0"]')
            stake = page.get_by_test_id("stake-0")
            expect(stake).to_contain_text("10.00")
            expect(stake).to_contain_text("Perfect Pairs 5.00")
            expect(stake).to_contain_text("21+3 1.00")
            expect(page.locator("#pending")).to_have_text("in chips 16.00")
            page.click("#deal")
            wait_prompt(page, "box 1, hand 1")
            box = page.get_by_test_id("box-0")
            expect(box).to_contain_text("Perfect Pairs 5.00 → 65.00")
            expect(box).to_contain_text("21+3 1.00 — lost")  # a lost side bet says so
            page.screenshot(path=str(shots_dir(tmp_path) / "side-bets.png"), full_page=True)
            page.keyboard.press("s")
            expect(page.get_by_test_id("net-0")).to_have_text("+49.00")
            expect(page.get_by_test_id("sides-0")).to_contain_text("Perfect Pairs 5.00 → 65.00")
            check_balances(s, {"ann": page}, {"ann": 104_900})
            assert errors == []
        finally:
            ctx.close()
