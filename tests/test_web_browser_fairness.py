"""A provable table in a real browser (issue 27, item 5): the page keeps the commitment it was
shown before the shoe and, once the shoe's seed is revealed, checks it with WebCrypto and says
whether it matches; a server that revealed a seed of another commitment is caught."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_browser import Server, browser, expect, register, shots_dir, sit

__all__ = ["browser"]  # the fixture, shared with the page's other tests

RULES = {"fair": "1D S17 CSM"}  # a continuous shuffler: every round is a shoe, revealed after it


def _play_one_round(page: Any, shoe: int) -> None:
    """Bet 10.00 and stand on whatever is asked (or decline it) until shoe ``shoe`` (this
    round's) is revealed."""
    page.click('button[data-chip="1000"]')
    page.click('[data-testid="box-0"]')
    page.click("#deal")
    prompt = page.locator("#decision.mine #prompt")
    line = page.get_by_test_id("fairness")
    for _ in range(60):
        if f"shoe {shoe}: the revealed seed" in (line.text_content() or ""):
            return
        if prompt.is_visible():
            page.keyboard.press("s" if "hand" in prompt.inner_text() else "n")
        page.wait_for_timeout(200)
    raise AssertionError(f"shoe {shoe} was not revealed: {line.text_content()!r}")


def test_the_page_checks_the_revealed_seed_against_the_commitment_it_kept(
    browser: Any, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path}/fair.db"
    with Server(url, {}, names=("fair",), rules=RULES, provable=("fair",)) as s:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(8000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            register(page, s.url, "ann", tables=1)
            sit(page, "fair")
            line = page.get_by_test_id("fairness")
            expect(line).to_contain_text("Provable shoe 1: commitment")
            first = page.evaluate("JSON.parse(localStorage.getItem('twentyone.commitments'))")
            assert list(first) == ["fair:1"] and len(first["fair:1"]) == 64
            _play_one_round(page, 1)
            expect(line).to_have_attribute("data-check", "match")
            expect(line).to_contain_text(
                "shoe 1: the revealed seed matches the commitment shown before it"
            )
            page.screenshot(path=str(shots_dir(tmp_path) / "fairness.png"), full_page=True)
            # the next shoe: the page's kept commitment is changed behind its back, as if the
            # server had shown another one before the shoe; the revealed seed must not match
            page.evaluate(
                "(() => { const s = JSON.parse(localStorage.getItem('twentyone.commitments'));"
                " s['fair:2'] = '00'.repeat(32);"
                " localStorage.setItem('twentyone.commitments', JSON.stringify(s)); })()"
            )
            page.reload()
            expect(page.locator("#betting")).to_be_visible()
            _play_one_round(page, 2)
            expect(line).to_have_attribute("data-check", "mismatch")
            expect(line).to_contain_text("does NOT match")
            assert errors == []
        finally:
            ctx.close()
