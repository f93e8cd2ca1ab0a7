"""The page's trainer (``#/train``, static/trainer.js) in a real browser: one count drill and
three flashcards (basic strategy, one by its key, one of the Illustrious 18), answered right,
graded by the server and tallied by the page. The count is worked out here from the cards the
page shows (Hi-Lo's published tags); the flashcards' answers from the table's basic-strategy
chart and the index set. A screenshot goes with the others
(``TWENTYONE_SCREENSHOTS=docs/screenshots`` writes ``trainer.png``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_browser import Server, browser, expect, register, shots_dir
from twentyone.analysis import basic_strategy
from twentyone.counting.trainer_cards import (
    Flashcard,
    answer,
    chart_play,
    entries_for,
    load_index_list,
)
from twentyone.engine.cards import parse_cards
from twentyone.engine.rulesets import load_rules

__all__ = ["browser"]  # the fixture, shared with the page's other tests

I18 = load_index_list("I18")
HILO = {**dict.fromkeys("23456", 1), **dict.fromkeys("789", 0), **dict.fromkeys("TJQKA", -1)}


def test_a_count_drill_and_a_flashcard_in_the_page(browser: Any, tmp_path: Path) -> None:
    rules = load_rules("pt-casino")
    chart = basic_strategy(rules)  # computed (and compiled) before the page asks
    with Server(f"sqlite:///{tmp_path}/train.db", {}, names=("pt-casino",)) as server:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(15000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        register(page, server.url, "tina", tables=1)
        page.click("#to-trainer")
        expect(page.locator("#trainer-view")).to_be_visible()
        expect(page.get_by_test_id("train-table").locator("option")).to_have_count(1)

        # the count drill: 6 cards shown one at a time, 0.1 s each, then the running and
        # the true count asked
        page.fill("#train-cards", "6")
        page.fill("#train-speed", "0.1")
        page.check("#train-true-on")
        page.get_by_test_id("train-deal").click()
        expect(page.get_by_test_id("train-running")).to_be_visible()
        expect(page.get_by_test_id("train-flash").locator(".card")).to_have_count(0)
        shown = page.evaluate("window.twentyoneTrainer.question.cards")
        assert len(shown) == 6
        rc = sum(HILO[c[0]] for c in shown)
        left = 52 * load_rules("pt-casino").decks - 6
        page.fill("#train-running", str(rc))
        page.fill("#train-true", str((rc * 52) // left))
        page.get_by_test_id("train-answer").click()
        verdict = page.get_by_test_id("train-count-verdict")
        expect(verdict).to_contain_text("Right: the running count is")
        expect(verdict).to_contain_text("Right: the true count is")
        expect(verdict).to_have_class("train-verdict right")
        expect(page.get_by_test_id("train-flash").locator(".card")).to_have_count(6)
        expect(page.get_by_test_id("train-count-tally")).to_contain_text("1 of 1 right (100.00%)")

        # a flashcard: the chart's play clicked
        page.get_by_test_id("train-next-card").click()
        expect(page.get_by_test_id("train-card").locator(".card")).to_have_count(3)
        card = page.evaluate("window.twentyoneTrainer.card")
        hand, up = parse_cards(" ".join(card["hand"])), parse_cards(card["up"])[0]
        right = chart_play(chart, load_rules("pt-casino"), hand, up)
        page.get_by_test_id(f"train-play-{right}").click()
        expect(page.get_by_test_id("train-card-verdict")).to_contain_text("Right:")
        expect(page.get_by_test_id("train-card-tally")).to_contain_text("1 of 1 right")
        # the next card answered with a key, as at the table (h s d p r)
        page.get_by_test_id("train-next-card").click()
        expect(page.get_by_test_id("train-plays").locator("button")).not_to_have_count(0)
        card = page.evaluate("window.twentyoneTrainer.card")
        hand, up = parse_cards(" ".join(card["hand"])), parse_cards(card["up"])[0]
        right = chart_play(chart, load_rules("pt-casino"), hand, up)
        page.keyboard.press({"hit": "h", "stand": "s", "double": "d", "split": "p"}.get(right, "r"))
        expect(page.get_by_test_id("train-card-tally")).to_contain_text("2 of 2 right")

        # an index card of the Illustrious 18: its true count shown, the index's play clicked
        page.select_option("#train-deck", "I18")
        page.get_by_test_id("train-next-card").click()
        expect(page.get_by_test_id("train-tc")).to_contain_text("true count")
        card = page.evaluate("window.twentyoneTrainer.card")
        hand, up = parse_cards(" ".join(card["hand"])), parse_cards(card["up"])[0]
        entries = entries_for(I18, hand, up, insurance=card["insurance"])
        flash = Flashcard(hand=hand, up=up, true_count=card["true_count"], entries=entries)
        page.get_by_test_id(f"train-play-{answer(flash, rules, chart)}").click()
        expect(page.get_by_test_id("train-card-tally")).to_contain_text("3 of 3 right")

        # the page's language: the trainer's words in Portuguese
        page.select_option("#language", "pt")
        expect(page.get_by_test_id("train-card-tally")).to_contain_text("3 certas em 3")
        expect(page.locator("#trainer-view h1")).to_have_text("Treino")
        page.select_option("#language", "en")
        expect(page.locator("#trainer-view h1")).to_have_text("Trainer")
        page.screenshot(path=str(shots_dir(tmp_path) / "trainer.png"), full_page=True)
        assert errors == []
