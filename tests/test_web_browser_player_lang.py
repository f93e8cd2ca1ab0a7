"""The player's language is theirs (issue 29 item 2), in a real browser: an English player
who sits at Moscow, Budapest, Lisbon or Bucharest keeps English; each table offers its house
language with one click (the offer written in that language), which the menu undoes. Round
numbers count each table's rounds, and recall and the subtitles name the house, not the rules'
slug. On a phone the box whose turn it is stays above the fixed decision panel; a new attempt
clears the last refusal, which speaks to the player.

Shoes: ru-online ``TS 9D 8C 7S TD``: the player's TS 8C = 18 stands against 9D 7S = 16, who
draws TD: bust. hu-casino ``TS 7D 6C 5H 9C``: TS 7D = 17 stands against 6C, who draws 5H 9C =
20. The phone's ru-online ``TS TH TD TC 6S 7S 7H 7D 7C 9H 8S``: four boxes of 17 against 6S
(hole 9H), who draws 8S: bust.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from test_web_browser import SETTLED, Server, browser, register  # noqa: F401
from test_web_casino_table import bet, play_out, serious, sit_at

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

TABLES = ("ru-online", "hu-casino", "pt-casino", "ro-casino")
SHOES = {"ru-online": "TS 9D 8C 7S TD", "hu-casino": "TS 7D 6C 5H 9C"}
OFFERS = {
    "ru-online": ("ru", "Играть на русском"),
    "hu-casino": ("hu", "Játék magyarul"),
    "pt-casino": ("pt", "Jogar em português"),
    "ro-casino": ("ro", "Jucați în română"),
}


def watch(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Security Policy" in m.text else None)
    return errors


def test_a_table_offers_its_language_and_never_switches_unasked(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/lang.db"
    with Server(url, SHOES, names=TABLES, languages=True) as server:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        page = ctx.new_page()
        page.set_default_timeout(8000)
        errors = watch(page)
        register(page, server.url, "emma", tables=len(TABLES))
        for table in TABLES:  # the lobby's subtitles: the country, never the slug
            expect(page.locator(f'article[data-table="{table}"] .house')).not_to_contain_text(table)

        # every table keeps the player's English and offers its own language
        offer = page.get_by_test_id("language-offer")
        for table in ("pt-casino", "ro-casino", "ru-online"):
            sit_at(page, table)
            code, text = OFFERS[table]
            expect(offer).to_have_text(text)
            expect(offer).to_have_attribute("lang", code)
            expect(page.locator("#undo")).to_have_text("Undo")
            expect(page.locator("html")).to_have_attribute("lang", "en")
            expect(page.locator("#language")).to_have_value("en")
            expect(page.get_by_test_id("table-house")).not_to_contain_text(table)

        # a round at Moscow, then the first at Budapest: round 1 at each table
        bet(page, 1000)
        page.click("#deal")
        play_out(page, [])
        expect(page.locator("#status")).to_contain_text("Round 1 over: you +10.00")
        sit_at(page, "hu-casino")
        expect(offer).to_have_text("Játék magyarul")
        bet(page, 1000)
        page.click("#deal")
        expect(page.locator("#status")).to_contain_text("Round 1")
        expect(page.locator("#notices")).to_contain_text("round 1: no more bets")
        play_out(page, [])
        expect(page.locator("#status")).to_contain_text("Round 1 over: you -10.00")
        recall = page.locator("#recall > details.round > summary")
        expect(recall).to_have_count(2)
        expect(recall.nth(0)).to_contain_text("#1Budapest Casino")
        expect(recall.nth(1)).to_contain_text("#1Moscow Online")
        for i, table in enumerate(("hu-casino", "ru-online")):
            expect(recall.nth(i)).not_to_contain_text(table)

        # one click plays in the house's language; the menu undoes it
        assert serious(page) == []
        offer.click()
        expect(page.locator("#undo")).to_have_text("Visszavonás")
        expect(page.locator("#language")).to_have_value("hu")
        expect(offer).to_be_hidden()
        assert page.request.get(server.url + "/api/me").json()["language"] == "hu"
        page.select_option("#language", "en")
        expect(page.locator("#undo")).to_have_text("Undo")
        expect(offer).to_have_text("Játék magyarul")
        page.reload()
        expect(page.locator("#undo")).to_have_text("Undo")
        assert errors == []
        ctx.close()


def test_on_a_phone_the_turn_stays_in_sight_and_a_new_attempt_clears_the_refusal(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    shoe = {"ru-online": "TS TH TD TC 6S 7S 7H 7D 7C 9H 8S"}
    with Server(f"sqlite:///{tmp_path}/phone.db", shoe, names=("ru-online",)) as server:
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True
        )
        page = ctx.new_page()
        page.set_default_timeout(8000)
        errors = watch(page)
        register(page, server.url, "pia", tables=1)
        sit_at(page, "ru-online")

        # a bet over the balance: the refusal speaks to the player; the next attempt clears it
        page.evaluate("window.twentyone.screen.send('bet', {box: 0, amount: 200000, side: 'main'})")
        expect(page.locator("#banner")).to_have_text("you bet 2,000.00 but have 1,000.00")
        expect(page.locator("#notices li.error")).to_have_count(1)
        bet(page, 1000)
        expect(page.get_by_test_id("stake-0")).to_have_text("10.00")
        expect(page.locator("#banner")).to_be_hidden()
        expect(page.locator("#notices li.error")).to_have_count(0)

        for box in (1, 2, 3):
            page.click(f'[data-testid="box-{box}"]')
        expect(page.get_by_test_id("stake-3")).to_have_text("10.00")
        page.click("#deal")
        for box in (0, 1, 2, 3):
            expect(page.locator("#decision.mine #prompt")).to_contain_text(f"box {box + 1}")
            page.wait_for_function(SETTLED)
            turn = page.get_by_test_id(f"box-{box}").bounding_box()
            panel = page.locator("#decision").bounding_box()
            assert turn["y"] >= 0 and turn["y"] + turn["height"] <= panel["y"] + 1, (
                box,
                turn,
                panel,
            )
            page.keyboard.press("s")
        expect(page.locator("#status")).to_contain_text("Round 1 over: you +40.00")
        assert errors == []
        ctx.close()
