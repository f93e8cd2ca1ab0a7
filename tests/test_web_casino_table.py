"""The web table as a casino table, in a real browser (issue 15 items 1-3): a player plays a
full round at every preset through the page; the cards fly from the shoe and the animation
finishes; a chip denomination has one colour on the rack, in a pending stake and in a placed
stake; a five-card hand stays inside its box on a desktop and on a phone; one insurance answer
covers all the player's boxes; Enter after Rebet deals; a lost jackpot bet says lost; the
table log speaks the new language after a switch; an unknown table shows a not-found page;
the statistics survive a reload and a new login; recall names each decision's box and hand
and draws the cards; axe-core finds no serious or critical violation on the lobby, a table
mid-round and recall; with reduced motion nothing flies.

The shoes are stacked (``Server`` and the helpers are test_web_browser's):

- ro-casino ``TS 7H 9C 8D 9S`` (round-robin, no hole card, the surrender phase first): the
  player TS 9C = 19 stands; the dealer 7H 8D 9S = 24, bust: a 25.00 bet (a green chip) wins.
- pl-online, pt-casino (hole card) ``TS 7H 9C 8D 9S`` and hu-casino (box by box)
  ``TS 9C 7H 8D 9S``: 19 against the dealer's 24, each 1.00 bet wins; at pt-casino a 1.00
  aces jackpot beside it is lost.
- ru-online, three rounds. 1: ``2S 7H 3C 8D 4D 5H 6C 9S``: 2S 3C, hit 4D, 5H, 6C = 20, five
  cards; the dealer 7H 8D 9S = 24. 2: ``TS 9C AH 8D 9D 7C``: two boxes TS 8D and 9C 9D (18
  each) against the dealer's ace: one "no" declines insurance for both; the dealer's A 7 = 18
  pushes both. 3: Rebet, then Enter deals ``TS 9C 7H 8D 9D 8C 9S``: 18 and 18 against 7H 8C
  9S = 24: both win.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from test_web_browser import PASSWORD, SETTLED, Server, browser, register, shots_dir  # noqa: F401
from twentyone.i18n import Words

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

SHOES = {
    "ro-casino": "TS 7H 9C 8D 9S",
    "pl-online": "TS 7H 9C 8D 9S",
    "pt-casino": "TS 7H 9C 8D 9S",
    "hu-casino": "TS 9C 7H 8D 9S",
    "ru-online": "2S 7H 3C 8D 4D 5H 6C 9S" + " TS 9C AH 8D 9D 7C" + " TS 9C 7H 8D 9D 8C 9S",
}
STATE = """() => {
  const s = window.twentyone.screen, v = s && s.view;
  if (!v) return null;
  const mine = v.turn && v.turn.player === v.you.username && v.turn.actions.length;
  return {phase: v.phase, seq: v.seq, kind: mine ? v.turn.kind : null,
          answered: Boolean(s.insurance && v.round && s.insurance.round === v.round.id),
          last: v.last_round ? v.last_round.id : null,
          prompt: document.getElementById("prompt").textContent};
}"""


def play_out(page: Any, plays: list[str]) -> dict[str, Any]:
    """Answer the player's questions until the round just dealt is over: ``plays`` are the
    keys for the play questions (then ``s``), every other question gets ``n``. Returns what
    was asked."""
    asked: dict[str, Any] = {"insurance": 0, "prompts": []}
    before = page.evaluate(STATE)["last"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = page.evaluate(STATE)
        if state and state["phase"] == "betting" and state["last"] not in (None, before):
            return asked
        if state and state["kind"] and not (state["kind"] == "insurance" and state["answered"]):
            asked["prompts"].append(state["prompt"])
            if state["kind"] == "insurance":
                asked["insurance"] += 1
            play = plays.pop(0) if plays else "s"
            page.keyboard.press(play if state["kind"] == "play" else "n")
            page.wait_for_function("s => window.twentyone.screen.view.seq > s", arg=state["seq"])
        else:
            time.sleep(0.05)
    raise AssertionError(f"the round did not end: {page.evaluate(STATE)}")


def colour(page: Any, selector: str) -> str:
    value: str = page.locator(selector).first.evaluate("e => getComputedStyle(e).backgroundColor")
    return value


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page (the bundled axe.min.js)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def inside(page: Any, box: str) -> None:
    """Every card of the box lies inside the box."""
    page.wait_for_timeout(100)  # the page fits the hands again after a resize
    outer = page.get_by_test_id(box).bounding_box()
    cards = page.get_by_test_id(box).locator(".card")
    assert cards.count() >= 5
    for i in range(cards.count()):
        r = cards.nth(i).bounding_box()
        right = outer["x"] + outer["width"] + 1
        assert outer["x"] - 1 <= r["x"] and r["x"] + r["width"] <= right, (i, r, outer)


def sit_at(page: Any, table: str) -> None:
    page.evaluate(f"location.hash = '#/table/{table}'")
    page.wait_for_function(
        "t => { const s = window.twentyone.screen; return s && s.tableId === t && s.view"
        " && s.view.you.seated; }",
        arg=table,
    )
    expect(page.locator("#betting")).to_be_visible()


def bet(page: Any, chip: int, box: int = 0, side: str = "main") -> None:
    page.click(f'#chips [data-chip="{chip}"]')
    if page.locator(f'[data-testid="side-{side}"]').count():
        page.check(f'[data-testid="side-{side}"]')
    page.click(f'[data-testid="box-{box}"]')


def test_every_preset_plays_through_the_casino_table(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    shots = shots_dir(tmp_path)
    with Server(f"sqlite:///{tmp_path}/casino.db", SHOES) as server:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(8000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        register(page, server.url, "dora")
        ro = page.locator('article[data-table="ro-casino"]')
        expect(ro.locator("h2")).to_have_text("Romania Bucharest Casino")
        expect(ro.locator("svg.flag")).to_have_attribute("aria-label", "Romania")
        hu = page.locator('article[data-table="hu-casino"]')
        expect(hu.locator(".rule-section h3").first).to_have_text("The game")
        assert serious(page) == [], "the lobby"
        rounds = 0

        # ro-casino: a green 25.00 chip, the same green on the rack, pending and placed
        sit_at(page, "ro-casino")
        expect(page.get_by_test_id("table-name")).to_have_text("Romania Bucharest Casino")
        rack = {c: colour(page, f'#chips [data-chip="{c}"]') for c in (100, 500, 1000, 2500)}
        assert len(set(rack.values())) == 4, rack  # one colour per denomination
        bet(page, 2500)
        assert colour(page, '[data-testid="stake-0"] .disc[data-value="2500"]') == rack[2500]
        expect(page.get_by_test_id("shoe")).to_contain_text("shuffling machine")
        page.click("#deal")
        expect(page.locator("#decision.mine")).to_be_visible()
        assert colour(page, '.stake.placed .disc[data-value="2500"]') == rack[2500]
        page.wait_for_function(SETTLED)
        assert serious(page) == [], "a table mid-round"
        play_out(page, [])
        rounds += 1
        expect(page.get_by_test_id("outcome")).to_contain_text("You win 25.00")
        expect(page.get_by_test_id("result-0-0")).to_have_text("Win")
        page.wait_for_function(SETTLED)
        page.screenshot(path=str(shots / "result.png"), full_page=True)

        # the table log in another language: the old lines are written again
        before = page.get_by_test_id("notices").inner_text().splitlines()
        page.select_option("#language", "ro")
        expect(page.locator("#deal")).to_have_text(Words("ro")._("Ready"))
        after = page.get_by_test_id("notices").inner_text().splitlines()
        assert Words("ro")._("round {round}: no more bets", round=1) in after
        assert not set(before) & set(after), (before, after)
        page.select_option("#language", "en")
        expect(page.locator("#deal")).to_have_text("Ready")

        # pl-online, hu-casino, pt-casino: a round each; pt's jackpot is lost and says so
        for table in ("pl-online", "hu-casino", "pt-casino"):
            sit_at(page, table)
            if table == "pt-casino":
                bet(page, 100, side="jackpot")
            bet(page, 100)
            page.click("#deal")
            play_out(page, [])
            rounds += 1
            outcome = page.get_by_test_id("outcome")
            expect(outcome).to_contain_text("Even" if table == "pt-casino" else "You win 1.00")
            page.wait_for_function(SETTLED)
        expect(outcome).to_contain_text("box 1: Win \u2014 paid 2.00")
        expect(outcome).to_contain_text("Aces jackpot 1.00 \u2014 lost")
        expect(page.get_by_test_id("sides-0")).to_have_text("Aces jackpot 1.00 \u2014 lost")
        pt_round = page.locator("#recall details.round").first  # recall keeps it too
        expect(pt_round).to_contain_text("Aces jackpot 1.00 \u2014 lost")
        expect(page.get_by_test_id("net-0")).to_have_text("0.00")

        # ru-online 1: five cards stay inside the box, on a desktop and on a phone
        sit_at(page, "ru-online")
        expect(page.get_by_test_id("shoe")).to_contain_text("cards left")
        bet(page, 100)
        page.click("#deal")
        play_out(page, ["h", "h", "h"])
        rounds += 1
        expect(page.get_by_test_id("hand-0-0").locator(".card")).to_have_count(5)
        inside(page, "box-0")
        page.set_viewport_size({"width": 390, "height": 844})
        inside(page, "box-0")
        page.set_viewport_size({"width": 1280, "height": 900})

        # ru-online 2: two boxes against an ace, one insurance answer for both
        bet(page, 100, box=0)
        bet(page, 100, box=1)
        page.click("#deal")
        asked = play_out(page, [])
        rounds += 1
        assert asked["insurance"] == 1, asked
        assert asked["prompts"][0].startswith("Insurance for all your boxes?"), asked
        expect(page.get_by_test_id("outcome")).to_contain_text("Push")

        # ru-online 3: Rebet, then Enter deals (not a second rebet)
        page.click("#rebet")
        expect(page.locator("#deal")).to_be_focused()
        expect(page.locator("#deal")).to_be_enabled()
        page.keyboard.press("Enter")
        expect(page.locator("#decision.mine")).to_be_visible()
        stakes = page.evaluate("window.twentyone.screen.view.boxes.map((b) => b.bet)")
        assert stakes[:2] == [100, 100], stakes
        play_out(page, [])
        rounds += 1
        expect(page.get_by_test_id("outcome")).to_contain_text("You win 2.00")

        # recall: each decision with its box and hand, the cards drawn as cards
        latest = page.locator("#recall details.round").nth(1)  # ru-online's second round
        latest.locator("summary").first.click()
        steps = latest.locator("li.step")
        expect(steps).to_have_count(4)
        expect(steps.nth(0).locator(".where")).to_have_text("dora, box 1")
        expect(steps.nth(1).locator(".where")).to_have_text("dora, box 2")
        expect(steps.nth(2).locator(".where")).to_have_text("dora, box 1, hand 1")
        expect(steps.nth(0).locator(".said")).to_have_text("no insurance")
        expect(steps.nth(2).locator(".card")).to_have_count(3)  # TS 8D, and the dealer's AH
        expect(latest.locator(".shoe-order .card")).to_have_count(6)
        rows = latest.locator(".recall-row .who")
        xs = {round(rows.nth(i).bounding_box()["x"]) for i in range(rows.count())}
        assert len(xs) == 1, xs  # one column
        latest.scroll_into_view_if_needed()
        assert serious(page) == [], "recall"
        page.locator("#recall-view").screenshot(path=str(shots / "recall.png"))

        # statistics: kept by the server, the same after a reload and a new login
        expect(page.locator('[data-stat="rounds"]')).to_have_text(str(rounds))
        numbers = "() => [...document.querySelectorAll('[data-stat]')].map((d) => d.textContent)"
        shown = page.evaluate(numbers)
        assert shown[:6] == ["7", "7 / 2 / 0", "0", "34.00", "+30.00", "+25.00 / 0.00"], shown
        page.reload()
        expect(page.locator('[data-stat="rounds"]')).to_have_text(str(rounds))
        assert page.evaluate(numbers) == shown
        page.click("#logout")
        page.fill("#username", "dora")
        page.fill("#password", PASSWORD)
        page.click("#login-btn")
        expect(page.locator('[data-stat="rounds"]')).to_have_text(str(rounds))
        assert page.evaluate(numbers) == shown

        # an unknown table: a clear page, no felt, no "reconnecting"
        page.evaluate("location.hash = '#/table/nope'")
        expect(page.get_by_test_id("missing")).to_be_visible()
        expect(page.get_by_test_id("missing")).to_contain_text("There is no table \u201cnope\u201d")
        expect(page.locator("#table-view")).to_be_hidden()
        time.sleep(1.0)
        expect(page.locator("#banner")).to_be_hidden()
        favicon = page.request.get(server.url + "/favicon.ico")
        assert favicon.ok and favicon.headers["content-type"].startswith("image/svg")
        assert errors == []
        ctx.close()


def test_with_reduced_motion_no_card_flies(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Server(f"sqlite:///{tmp_path}/still.db", {"pl-online": SHOES["pl-online"]}) as server:
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, reduced_motion="reduce"
        )
        page = ctx.new_page()
        page.set_default_timeout(8000)
        register(page, server.url, "emil")
        sit_at(page, "pl-online")
        bet(page, 100)
        page.click("#deal")
        play_out(page, [])
        expect(page.get_by_test_id("outcome")).to_contain_text("You win 1.00")
        assert page.evaluate("window.twentyone.screen.dealing.animated") == 0
        felt = "document.getElementById('felt').getAnimations({subtree: true}).length"
        assert page.evaluate(felt) == 0
        expect(page.get_by_test_id("announce")).to_contain_text("You win 1.00")
        ctx.close()
