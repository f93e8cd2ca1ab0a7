"""The table looks like a casino's (issue 29 item 1), in a real browser: the lobby's tiles each
have a small felt with the table's boxes; at ro-casino the boxes lie on an arc (the middle one
lower than the ends), a card face has two corner indices, a bet of three chips is three chips
on its spot, the house's printing on the felt comes from the table's rules and speaks the
page's language, and a blackjack is celebrated; under reduced motion there is no celebration.
On a phone (390 x 844) the boxes stay in sight.

Shoes: ro-casino (no hole card, round-robin) ``AS TC 7H KD 8D 9C 5D``: box 1's AS KD is a
blackjack and box 4's TC 8D stands on 18 against the dealer's 7H, who draws 9C 5D = 21.
pl-online (hole card) ``AS 7H KD 9C 5D``: the same blackjack against 7H 9C, 16, who draws 5D.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from test_web_browser import SETTLED, Server, browser, register, shots_dir  # noqa: F401
from test_web_casino_table import bet, play_out, sit_at
from twentyone.engine.rulesets import load_rules
from twentyone.i18n import Words

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

BLACKJACK = "AS 7H KD 9C 5D"


def printed(text: str) -> str:
    """The felt's words as the page prints them: capitals, "17s" kept small."""
    return text.upper().replace("17S", "17s")


def payout(lang: str, table: str) -> str:
    pays = Fraction(load_rules(table).blackjack_pays)
    w = Words(lang)
    ratio = w._("{a} to {b}", a=pays.numerator, b=pays.denominator)
    return printed(w._("Blackjack pays {ratio}", ratio=ratio))


def test_the_casino_table(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    shots = shots_dir(tmp_path)
    with Server(f"sqlite:///{tmp_path}/look.db", {"ro-casino": "AS TC 7H KD 8D 9C 5D"}) as server:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(8000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if "Security Policy" in m.text else None)
        register(page, server.url, "vera")

        # the lobby: a tile per table, each with its felt and one seat per box
        tile = page.locator('article[data-table="ro-casino"]')
        expect(tile.locator(".thumb")).to_have_count(1)
        expect(tile.locator(".thumb .seat")).to_have_count(load_rules("ro-casino").table_boxes)
        expect(tile.locator("svg.flag")).to_have_count(1)  # the heading's, named

        # the felt's printing, from the rules, in English and in Romanian
        sit_at(page, "ro-casino")
        felt = page.get_by_test_id("felt-print")
        expect(felt).to_contain_text(payout("en", "ro-casino"))
        dealer = "Dealer must draw to 16 and stand on all 17s"
        assert not load_rules("ro-casino").dealer_hits_soft_17
        expect(felt).to_contain_text(printed(dealer))
        expect(felt).to_contain_text(printed("Insurance pays 2 to 1"))
        page.select_option("#language", "ro")
        expect(felt).to_contain_text(payout("ro", "ro-casino"))
        expect(felt).to_contain_text(printed(Words("ro")._(dealer)))
        page.select_option("#language", "en")
        expect(felt).to_contain_text(payout("en", "ro-casino"))

        # the boxes on an arc: the middle box lower than the first and the last
        ys = [page.get_by_test_id(f"box-{i}").bounding_box()["y"] for i in (0, 3, 6)]
        assert ys[1] > ys[0] + 10 and ys[1] > ys[2] + 10, ys
        assert abs(ys[0] - ys[2]) < 2, ys

        # three chips on the spot, three chips drawn; a side spot needs no side bet here
        bet(page, 100)
        page.click('[data-testid="box-0"]')
        page.click('[data-testid="box-0"]')
        expect(page.get_by_test_id("stake-0")).to_have_text("3.00")
        expect(page.get_by_test_id("stake-0").locator(".disc")).to_have_count(3)
        bet(page, 500, box=3)
        page.click("#deal")

        # the cards: a face with its two corner indices, drawn
        ace = page.locator('#boxes [data-card="AS"]')
        expect(ace).to_have_count(1)
        expect(ace.locator(".index")).to_have_count(2)
        expect(ace.locator(".index text").first).to_have_text("A")
        page.wait_for_function(SETTLED)
        page.screenshot(path=str(shots / "casino-table.png"), full_page=True)

        # the blackjack: celebrated with motion (the round ends after the dealer's draw)
        play_out(page, [])
        celebration = page.get_by_test_id("celebration")
        expect(celebration).to_have_attribute("data-kind", "blackjack")
        expect(celebration).to_have_attribute("data-count", "1")
        page.wait_for_timeout(500)  # the words at their largest
        page.screenshot(path=str(shots / "blackjack.png"), full_page=False)
        page.wait_for_function(SETTLED)
        expect(celebration).to_be_hidden()

        # on a phone: the boxes stay in sight
        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate("window.scrollTo(0, 0)")
        box = page.get_by_test_id("box-0").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert box["y"] + 40 < 844, box
        expect(page.get_by_test_id("box-0")).to_be_in_viewport()
        assert errors == []
        ctx.close()


def test_with_reduced_motion_no_celebration(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Server(f"sqlite:///{tmp_path}/calm.db", {"pl-online": BLACKJACK}) as server:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
        page = ctx.new_page()
        page.set_default_timeout(8000)
        register(page, server.url, "wera")
        sit_at(page, "pl-online")
        bet(page, 100)
        page.click("#deal")  # a blackjack against 7H 9C: no question, the round ends
        expect(page.get_by_test_id("outcome")).to_contain_text("You win 1.50")
        expect(page.get_by_test_id("result-0-0")).to_have_text("Blackjack")
        celebration = page.get_by_test_id("celebration")
        expect(celebration).to_be_hidden()
        assert celebration.get_attribute("data-count") is None
        felt = "document.getElementById('felt').getAnimations({subtree: true}).length"
        assert page.evaluate(felt) == 0
        ctx.close()
