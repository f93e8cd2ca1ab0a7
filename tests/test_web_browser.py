"""The page in a real browser: two players (a desktop and a phone) register, sit at ro-casino
and play two rounds through the page with a stacked shoe: an insurance prompt, a split, a
double for less, the surrender phase, a dropped WebSocket, a reload mid-round, and the
decision clock acting.
The balances each page shows are checked against the ledger and the JSON API.

Debian's chromium driven by Playwright's Python package (never ``playwright install``). The
screenshots go to ``$TWENTYONE_SCREENSHOTS`` when set (the README's come from
``TWENTYONE_SCREENSHOTS=docs/screenshots``), else to a temporary folder.

Money worked out by hand (ro-casino: no hole card, round-robin deal, early surrender not
against an ace, insurance up to half the bet, double for less, S17):

Round 1, shoe ``8S 5H AD 8D 6C TC 9S 9C 7H``: ann (box 1) 8S 8D, bob (box 2) 5H 6C, dealer
AD. ann insures 2.50, bob declines. ann splits: 8S TC = 18, 8D 9S = 17 (10.00 each). bob
doubles for 5.00: 5H 6C 9C = 20 on 15.00. Dealer AD 7H = soft 18, no blackjack. ann: push,
lose 10.00, insurance lost 2.50 -> -12.50, balance 987.50. bob wins 15.00 -> 1015.00.

Round 2, shoe ``TS 9H 6D 7C 9D TD 8H``: ann rebets 10.00, bob double-rebets 20.00 (his last
round's bet was 10.00). ann TS 7C = 17, bob 9H 9D = 18, dealer 6D. Both decline surrender; ann
reloads her page and stands; bob lets the clock stand for him. Dealer 6D TD 8H = 24, bust:
ann +10.00 -> 997.50, bob +20.00 -> 1035.00.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from twentyone.engine.provable import ProvableShoe
from twentyone.engine.rulesets import PRESETS
from twentyone.i18n import RULEBOOK_LANGUAGES, Words, format_money
from twentyone.web.tables import TableConfig
from web_support import FAST_HASHER, stacked

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
DECISION_SECONDS = 8.0
#: the felt's cards have landed: the dealing animation ran and nothing runs any more
SETTLED = """() => window.twentyone.screen.dealing.animated > 0
  && document.getElementById("felt").dataset.dealing === "0"
  && document.getElementById("felt").getAnimations({subtree: true})
       .filter((a) => a.playState === "running").length === 0"""
SHOE = "8S 5H AD 8D 6C TC 9S 9C 7H" + " TS 9H 6D 7C 9D TD 8H"
PASSWORD = "password123"


class Server:
    """The real app under uvicorn in a thread, on 127.0.0.1 and a free port."""

    def __init__(
        self,
        database_url: str,
        shoes: dict[str, str],
        names: tuple[str, ...] = tuple(PRESETS),
        analysis: bool = False,
        languages: bool = False,
        rules: dict[str, str] | None = None,
        provable: tuple[str, ...] = (),
    ) -> None:
        import uvicorn

        from twentyone.web.app import create_app

        tables = [
            TableConfig(
                id=name,
                rules=(rules or {}).get(name, name),
                countdown_seconds=60,
                decision_seconds=DECISION_SECONDS,
                language=RULEBOOK_LANGUAGES.get(name) if languages else None,
                shuffle="provable" if name in provable else "secure",
            )
            for name in names
        ]
        stack = stacked(shoes)

        def shoe_factory(config: TableConfig, rules: Any) -> Any:
            if config.shuffle == "provable":  # the production shoe: committed, revealed
                return ProvableShoe(
                    decks=rules.decks, shuffle=rules.shuffle, penetration=rules.penetration
                )
            return stack(config, rules)

        self.app = create_app(
            database_url,
            tables=tables,
            shoe_factory=shoe_factory,
            password_hasher=FAST_HASHER,
            analysis=analysis,
            tick_interval=0.05,
        )
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            assert self.thread.is_alive(), "the server thread died"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()
        assert not self.thread.is_alive(), "the server did not stop"

    def balance(self, username: str) -> int:
        """A player's balance in the ledger."""
        found = self.app.state.accounts.find(username)
        assert found is not None, username
        balance: int = self.app.state.ledger.balance(found[0].id)
        return balance


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(f"sqlite:///{tmp_path}/browser.db", {"ro-casino": SHOE}) as s:
        yield s


@pytest.fixture
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        missing = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(missing)  # .ci/run installs it: never skip there
        pytest.skip(missing)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def shots_dir(tmp_path: Path) -> Path:
    where = os.environ.get("TWENTYONE_SCREENSHOTS")
    path = Path(where) if where else tmp_path / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def register(page: Any, base: str, username: str, tables: int = len(PRESETS)) -> None:
    page.goto(base + "/")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#register-btn")
    expect(page.locator("#me-name")).to_have_text(username)
    expect(page.locator("article.table-card")).to_have_count(tables)


def sit(page: Any, table: str) -> None:
    page.click(f'a[data-sit="{table}"]')
    expect(page.locator("#betting")).to_be_visible()


def shown_balance(page: Any) -> int:
    return int(page.locator("#balance").get_attribute("data-units"))


def check_balances(server: Server, pages: dict[str, Any], expected: dict[str, int]) -> None:
    """Each page shows the ledger's balance, which is the one worked out by hand; the API
    agrees, and the books balance."""
    for name, page in pages.items():
        units = expected[name]
        expect(page.locator("#balance")).to_have_text(format_money(units, "en"))
        assert shown_balance(page) == server.balance(name) == units
        me = page.request.get(server.url + "/api/me").json()
        assert me["balance"] == units and me["username"] == name
    assert server.app.state.ledger.audit() == []
    assert server.app.state.ledger.total() == 0


def wait_prompt(page: Any, text: str) -> None:
    expect(page.locator("#decision.mine #prompt")).to_contain_text(text)


def test_two_players_play_through_the_page(server: Server, browser: Any, tmp_path: Path) -> None:
    started = time.monotonic()
    shots = shots_dir(tmp_path)
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True
    )
    ann, bob = desk.new_page(), phone.new_page()
    errors: list[str] = []
    for page in (ann, bob):
        page.set_default_timeout(8000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # the page works under its Content-Security-Policy: nothing it does is refused
        page.on("console", lambda m: errors.append(m.text) if "Security Policy" in m.text else None)
    try:
        # ---- register, the lobby, sit down
        register(ann, server.url, "ann")
        expect(ann.locator("#balance")).to_have_text("1,000.00")
        card = ann.locator('article[data-table="ro-casino"]')
        expect(card).to_contain_text("1.00 – 5,000.00")
        expect(card.get_by_test_id("free-boxes")).to_have_text("7 of 7 boxes free")
        sit(ann, "ro-casino")
        register(bob, server.url, "bob")
        expect(bob.locator('article[data-table="ro-casino"]')).to_contain_text("ann")
        desk_lobby = desk.new_page()  # ann's second tab stays in the lobby
        desk_lobby.goto(server.url + "/#/")
        expect(desk_lobby.locator('article[data-table="ro-casino"]')).to_contain_text("ann")
        desk_lobby.close()
        sit(bob, "ro-casino")
        expect(ann.locator("#status")).to_contain_text("bob")

        # ---- round 1: chips, undo, ready
        ann.click('button[data-chip="1000"]')
        ann.click('[data-testid="box-0"]')
        ann.click('[data-testid="box-0"]')
        expect(ann.get_by_test_id("stake-0")).to_have_text("20.00")
        ann.click("#undo")
        expect(ann.get_by_test_id("stake-0")).to_have_text("10.00")
        expect(ann.locator("#pending")).to_have_text("in chips 10.00")
        expect(bob.get_by_test_id("box-0")).to_contain_text("ann")
        bob.click('button[data-chip="500"]')
        bob.click('[data-testid="box-1"]')
        bob.click('[data-testid="box-1"]')
        expect(bob.get_by_test_id("stake-1")).to_have_text("10.00")
        expect(ann.locator("#countdown")).to_contain_text("Cards in")
        ann.click("#deal")
        expect(ann.locator("#deal")).to_have_text("Ready ✓")
        bob.click("#deal")

        # insurance: ann insures 2.50 of the 5.00 she may, bob says no with the key
        wait_prompt(ann, "Insurance?")
        expect(ann.locator("#dealer-cards .card")).to_have_count(1)
        expect(ann.locator('#dealer-cards [data-card="AD"]')).to_have_count(1)
        expect(ann.locator("#actions .range")).to_have_text("0.50–5.00")
        expect(bob.locator("#prompt")).to_contain_text("ann: Insurance?")
        ann.fill('input[data-amount-for="insure"]', "2.50")
        ann.click('button[data-action="insure:N"]')
        wait_prompt(bob, "Insurance?")
        expect(bob.locator("#actions kbd")).to_have_text(["y", "n"])
        bob.keyboard.press("n")

        # ann splits her eights with the key, then stands on both hands
        wait_prompt(ann, "box 1, hand 1")
        expect(ann.locator('#actions button[data-action="split"]')).to_be_visible()
        expect(ann.locator("#clock-text")).to_contain_text("then you get: stand")
        expect(ann.get_by_test_id("box-0")).to_contain_text("insured 2.50")
        ann.keyboard.press("p")
        expect(ann.get_by_test_id("hand-0-1")).to_be_visible()
        expect(ann.get_by_test_id("hand-0-0")).to_have_class("hand active")
        expect(ann.get_by_test_id("hand-0-0")).to_contain_text("18")
        expect(bob.get_by_test_id("hand-0-1")).to_be_visible()
        expect(bob.locator("#clock-text")).to_contain_text("then ann gets: stand")
        ann.screenshot(path=str(shots / "table.png"), full_page=True)
        bob.screenshot(path=str(shots / "table-phone.png"), full_page=False)
        ann.keyboard.press("s")
        wait_prompt(ann, "box 1, hand 2")
        expect(ann.get_by_test_id("hand-0-1")).to_have_class("hand active")
        ann.click('#actions button[data-action="stand"]')

        # bob doubles for less: 5.00 on his 10.00
        wait_prompt(bob, "box 2, hand 1")
        expect(bob.locator('#actions button[data-action="split"]')).to_have_count(0)
        bob.fill('input[data-amount-for="double"]', "5")
        bob.press('input[data-amount-for="double"]', "Enter")

        # results and payouts per hand, the balances
        expect(ann.locator("#status")).to_contain_text("you -12.50")
        expect(bob.locator("#status")).to_contain_text("you +15.00")
        expect(ann.locator("#dealer-total")).to_have_text("soft 18")
        expect(ann.get_by_test_id("hand-0-0").locator(".result")).to_have_text("Push")
        expect(ann.get_by_test_id("hand-0-0").locator(".paid")).to_have_text("paid 10.00")
        expect(ann.get_by_test_id("hand-0-1").locator(".result")).to_have_text("Lose")
        expect(ann.get_by_test_id("hand-0-1").locator(".paid")).to_have_count(0)
        expect(ann.get_by_test_id("hand-1-0").locator(".result")).to_have_text("Win")
        expect(ann.get_by_test_id("hand-1-0").locator(".paid")).to_have_text("paid 30.00")
        expect(ann.get_by_test_id("hand-1-0").locator(".hand-bet")).to_have_text(
            "bet 15.00 doubled"
        )
        expect(ann.get_by_test_id("net-0")).to_have_text("-12.50")
        expect(bob.get_by_test_id("net-1")).to_have_text("+15.00")
        check_balances(server, {"ann": ann, "bob": bob}, {"ann": 98_750, "bob": 101_500})

        # game recall: the round with its replay JSON
        recall = ann.locator('#recall details[data-round="1"]')
        expect(recall).to_contain_text("-12.50")
        replay = json.loads(recall.locator("textarea.replay").input_value())
        assert replay["shoe"].split() == SHOE.split()[:9]
        assert replay["decisions"] == [
            "insure:250",
            "no-insurance",
            "split",
            "stand",
            "stand",
            "double:500",
        ]
        assert [b["player"] for b in replay["boxes"]] == ["ann", "bob"]
        expect(ann.locator("#stats")).to_contain_text("0 / 1 / 1")

        # ---- round 2: rebet, double rebet, the surrender phase, a dropped socket, the clock
        ann.click("#rebet")
        expect(ann.get_by_test_id("stake-0")).to_have_text("10.00")
        bob.click("#double-rebet")
        expect(bob.get_by_test_id("stake-1")).to_have_text("20.00")
        ann.click("#deal")
        bob.click("#deal")
        wait_prompt(ann, "Surrender now")
        expect(ann.locator('#dealer-cards [data-card="6D"]')).to_have_count(1)
        ann.keyboard.press("n")
        wait_prompt(bob, "Surrender now")
        bob.keyboard.press("n")
        wait_prompt(ann, "Your move")
        # bob's connection drops: the page reconnects and shows the round as it stands
        bob.evaluate("window.twentyone.screen.socket.close()")
        expect(bob.locator("#banner")).to_have_text("Connection lost: reconnecting…")
        expect(bob.locator("#banner")).to_be_hidden()
        bob.wait_for_function("window.twentyone.screen.socket.readyState === WebSocket.OPEN")
        expect(bob.locator("#prompt")).to_contain_text("ann to play")
        expect(bob.locator("#status")).to_contain_text("Round 2")
        # ann reloads the page: it takes her back to her table and the round as it stands
        ann.goto(server.url + "/")
        expect(ann).to_have_url(server.url + "/#/table/ro-casino")
        wait_prompt(ann, "Your move")
        expect(ann.get_by_test_id("hand-0-0").locator(".total")).to_have_text("17")
        expect(ann.locator("#balance")).to_have_text("977.50")
        ann.keyboard.press("s")
        expect(bob.locator("#decision.mine #prompt")).to_contain_text("Your move")
        expect(bob.get_by_test_id("hand-1-0")).to_contain_text("18")
        # bob does not act: the clock stands for him, said on both screens
        expect(ann.locator("#notices")).to_contain_text(
            "bob did not act in time: stand", timeout=(DECISION_SECONDS + 5) * 1000
        )
        expect(bob.locator("#notices")).to_contain_text("bob did not act in time: stand")
        expect(ann.locator("#dealer-total")).to_have_text("24 — bust")
        check_balances(server, {"ann": ann, "bob": bob}, {"ann": 99_750, "bob": 103_500})
        recall2 = bob.locator('#recall details[data-round="2"]')
        expect(recall2.locator("li.clock .said")).to_have_text("stand (clock)")
        expect(recall2.locator("li.clock .where")).to_have_text("bob, box 2, hand 1")
        assert errors == []
    finally:
        desk.close()
        phone.close()
    assert time.monotonic() - started < 90


def test_single_player_table_with_the_strategy_hint(browser: Any, tmp_path: Path) -> None:
    """With the analysis: the lobby shows each table's house edge; at ru-online the Deal
    button deals, the hole card is a card back, and the hint (the exact best play for the
    cards in sight, which follows the chart's) names the textbook play, as does the clock's
    basic-strategy default. Shoe ``5S 9H 6D 7C 9S TC``: the player 5S 6D = 11
    against 9H (double, not the clock's fallback stand), doubles onto 9S = 20; the dealer
    9H 7C = 16 draws TC, 26: the player wins 20.00 on 20.00 staked."""
    url = f"sqlite:///{tmp_path}/hint.db"
    shots = shots_dir(tmp_path)
    with Server(url, {"ru-online": "5S 9H 6D 7C 9S TC"}, analysis=True) as server:
        advice = server.app.state.advice
        deadline = time.monotonic() + 120
        while advice.thread is None or advice.thread.is_alive():
            assert time.monotonic() < deadline, "the analysis did not finish in 120 s"
            time.sleep(0.1)
        lobby = server.app.state.hub.tables
        edges = {t: advice.house_edge(lobby[t].rules) for t in PRESETS}
        assert None not in edges.values(), edges
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(8000)
        try:
            register(page, server.url, "cleo")
            for table, edge in edges.items():
                card = page.locator(f'article[data-table="{table}"]')
                expect(card).to_contain_text(f"House edge{edge * 100:.2f}%")
            page.screenshot(path=str(shots / "lobby.png"), full_page=True)
            card = page.locator('article[data-table="ru-online"]')
            expect(card).to_contain_text("single player, deal button")
            sit(page, "ru-online")
            expect(page.locator("#deal")).to_have_text("Deal")
            expect(page.locator("#countdown")).to_have_text("Press Deal when your bets are placed.")
            page.click('button[data-chip="1000"]')
            page.click('[data-testid="box-2"]')
            expect(page.get_by_test_id("stake-2")).to_have_text("10.00")
            page.keyboard.press("Enter")  # deals, as the Deal button does
            wait_prompt(page, "Your move")
            expect(page.locator("#dealer-cards .card.back")).to_have_count(1)
            expect(page.locator('#dealer-cards [data-card="9H"]')).to_have_count(1)
            expect(page.locator("#dealer-cards .card")).to_have_count(2)
            expect(page.locator("#hint")).to_have_text("Best play for the cards left: double")
            expect(page.locator("#actions .action.hinted")).to_have_attribute(
                "data-action", "double"
            )
            expect(page.locator("#clock-text")).to_contain_text("then you get: double")
            page.uncheck("#show-hint")
            expect(page.locator("#hint")).to_be_hidden()
            expect(page.locator("#actions .action.hinted")).to_have_count(0)
            page.click('#actions button[data-action="double"]')
            expect(page.locator("#dealer-total")).to_have_text("26 — bust")
            expect(page.locator("#dealer-cards .card.back")).to_have_count(0)
            expect(page.get_by_test_id("net-2")).to_have_text("+20.00")
            check_balances(server, {"cleo": page}, {"cleo": 102_000})
        finally:
            ctx.close()


def test_readme_shows_the_screenshots() -> None:
    """The README's web table section shows the screenshots, and they are PNG files."""
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    section = readme.split("## The web table", 1)[1].split("\n## ", 1)[0]
    for name in ("lobby.png", "table.png", "table-phone.png", "result.png", "recall.png"):
        assert f"docs/screenshots/{name}" in section, name
        assert (root / "docs" / "screenshots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_readme_and_the_languages_doc_show_the_tables_in_russian_and_hungarian() -> None:
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    section = readme.split("### Languages", 1)[1].split("\n### ", 1)[0]
    doc = (root / "docs" / "i18n.md").read_text()
    for name in ("table-ru.png", "table-hu.png"):
        assert f"docs/screenshots/{name}" in section and f"screenshots/{name}" in doc, name
        assert (root / "docs" / "screenshots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_page_fetches_nothing_from_outside() -> None:
    """No CDN: the page's files name no other host and import only each other."""
    import re

    static = Path(__file__).resolve().parents[1] / "src" / "twentyone" / "web" / "static"
    files = {
        p.name: p.read_text() for p in static.iterdir() if p.suffix in (".html", ".js", ".css")
    }
    assert {"index.html", "app.js", "style.css"} <= set(files)
    for name, text in files.items():
        text = text.replace("http://www.w3.org/2000/svg", "")  # a namespace, never fetched
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), name
        for target in re.findall(r'from "([^"]+)"', text):
            assert target.startswith("./") and target[2:] in files, (name, target)


#: English words of the page's controls: none may be seen on a table in another language.
ENGLISH_LABELS = [
    "Hit", "Stand", "Double", "Split", "Deal", "Undo", "Clear", "Rebet", "Your move", "Balance",
    "Log out", "Dealer", "Rule card", "Your statistics", "Rounds", "box", "hand", "bet", "Lobby",
]  # fmt: skip


def english_left(page: Any) -> list[str]:
    """The English labels visible on the page (whole words)."""
    import re

    text = page.locator("body").inner_text()
    return [w for w in ENGLISH_LABELS if re.search(rf"(?<![\w]){w}(?![\w])", text)]


def box_facts(lang: str, table: str) -> str:
    """The table's boxes as the page writes them (a plural message), worked out by Python."""
    from twentyone.engine.rulesets import load_rules

    rules, w = load_rules(table), Words(lang)
    if rules.boxes_per_player < rules.table_boxes:
        return w._n(
            "{n} box, up to {each} each",
            "{n} boxes, up to {each} each",
            rules.table_boxes,
            each=rules.boxes_per_player,
        )
    return w._n("{n} box", "{n} boxes", rules.table_boxes)


def test_tables_speak_their_rulebooks_languages(browser: Any, tmp_path: Path) -> None:
    """The preset tables with their rulebooks' languages, a browser that speaks English: the
    page keeps English at a table, which offers its own language (the offer in that language);
    one click on ru-online's speaks Russian (buttons, prompts, notices, money, the rule card)
    and the account keeps it, so hu-casino stays Russian and offers Hungarian, taken with one
    click too; the player picks English from the menu, which the account keeps.
    Shoes: ru-online 5S 9H 6D 7C 9S TC (5 6 = 11 against 9, hole 7; the double
    draws 9: 20; the dealer 16 draws 10: bust, +20.00); hu-casino TS 7D 6C (the player's 10 7
    = 17 against the dealer's 6, no hole card)."""
    started = time.monotonic()
    shots = shots_dir(tmp_path)
    shoes = {"ru-online": "5S 9H 6D 7C 9S TC", "hu-casino": "TS 7D 6C 5H 9C 8D"}
    url = f"sqlite:///{tmp_path}/languages.db"
    with Server(url, shoes, names=("ru-online", "hu-casino"), languages=True) as server:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        page = ctx.new_page()
        page.set_default_timeout(8000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # the page works under its Content-Security-Policy: nothing it does is refused
        page.on("console", lambda m: errors.append(m.text) if "Security Policy" in m.text else None)
        try:
            register(page, server.url, "olga", tables=2)
            expect(page.locator("#language")).to_have_value("en")
            expect(page.locator('a[data-sit="ru-online"]')).to_have_text("Sit down")

            # ---- ru-online: English until the player takes the offer; Russian, 1 000,00
            sit(page, "ru-online")
            expect(page.locator("#deal")).to_have_text("Deal")
            expect(page.locator("#language")).to_have_value("en")
            offer = page.get_by_test_id("language-offer")
            expect(offer).to_have_text("Играть на русском")
            offer.click()
            expect(page.locator("#deal")).to_have_text("Раздать")
            expect(page.locator("#language")).to_have_value("ru")
            expect(offer).to_be_hidden()
            expect(page.locator("html")).to_have_attribute("lang", "ru")
            expect(page.locator("#balance")).to_have_text(format_money(100_000, "ru"))
            expect(page.locator("#table-facts")).to_contain_text(box_facts("ru", "ru-online"))
            expect(page.locator("#table-rulecard")).to_contain_text("Страховка")
            page.click('button[data-chip="1000"]')
            page.click('[data-testid="box-0"]')
            expect(page.get_by_test_id("stake-0")).to_have_text("10,00")
            expect(page.locator("#pending")).to_have_text("в фишках 10,00")
            page.click("#deal")
            wait_prompt(page, "Ваш ход — бокс 1, рука 1")
            labels = page.locator("#actions button.action").all_inner_texts()
            assert [label.split("\n")[0] for label in labels[:3]] == ["Ещё", "Хватит", "Удвоить"]
            expect(page.locator("#notices")).to_contain_text("ставки больше не принимаются")
            expect(page.locator("#clock-text")).to_contain_text("затем автоматически: хватит")
            assert english_left(page) == []
            page.screenshot(path=str(shots / "table-ru.png"), full_page=True)
            # amounts typed the Russian way (the page's parser, as i18n.parse_amount reads them)
            typed = page.evaluate(
                "import('/static/i18n.js').then(m => "
                "['10,50', '1 234,5', '1\u00a0000', '10.50', 'десять'].map(m.parseMoney))"
            )
            assert typed == [1050, 123_450, 100_000, 1050, None]
            page.click('#actions button[data-action="double"]')
            expect(page.get_by_test_id("hand-0-0").locator(".result")).to_have_text("Выигрыш")
            expect(page.get_by_test_id("net-0")).to_have_text("+20,00")
            expect(page.locator("#balance")).to_have_text(format_money(102_000, "ru"))
            assert server.balance("olga") == 102_000

            # ---- hu-casino: the player's Russian, then Hungarian with one click
            page.click("#to-lobby")
            expect(page.locator('a[data-sit="hu-casino"]')).to_have_text(Words("ru")._("Sit down"))
            sit(page, "hu-casino")
            expect(page.locator("#undo")).to_have_text(Words("ru")._("Undo"))
            expect(offer).to_have_text("Játék magyarul")
            offer.click()
            expect(page.locator("#undo")).to_have_text("Visszavonás")
            expect(page.locator("#countdown")).to_have_text(
                "A visszaszámlálás az első zsetonnal indul."
            )
            page.click('button[data-chip="1000"]')
            page.click('[data-testid="box-0"]')
            page.click("#deal")
            wait_prompt(page, "Ön következik — 1. játékhely, 1. kéz")  # Ön: the formal address
            expect(page.locator('#actions button[data-action="hit"]')).to_contain_text("Lapot kér")
            expect(page.locator('#actions button[data-action="stand"]')).to_contain_text("Megáll")
            expect(page.locator("#table-facts")).to_contain_text(box_facts("hu", "hu-casino"))
            expect(page.locator("#table-rulecard")).to_contain_text("Biztosítás")
            assert english_left(page) == []
            page.wait_for_function(SETTLED)  # the cards have landed: box 1 shows its hand
            page.screenshot(path=str(shots / "table-hu.png"), full_page=True)

            # ---- the player's choice wins over the table's, and the account keeps it
            page.select_option("#language", "en")
            expect(page.locator('#actions button[data-action="stand"]')).to_contain_text("Stand")
            expect(page.locator("#table-rulecard")).to_contain_text("Insurance")
            assert page.request.get(server.url + "/api/me").json()["language"] == "en"
            expect(offer).to_have_text("Játék magyarul")  # offered again
            page.reload()
            wait_prompt(page, "Your move — box 1, hand 1")
            expect(page.locator("#language")).to_have_value("en")
            assert errors == []
        finally:
            ctx.close()
    assert time.monotonic() - started < 40
