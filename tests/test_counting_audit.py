"""The countability audit's model (issue 13 item 4): how often each true count comes, and a
counter's figures from a ramp."""

from __future__ import annotations

import math

import numpy as np
import pytest

from twentyone.counting.audit_model import (
    Ramp,
    TcRow,
    best_at_ror,
    best_ramp,
    counter,
    tc_frequencies,
    tc_law,
)

HILO = np.array([-1, 1, 1, 1, 1, 1, 0, 0, 0, -1])


def _dealt_true_counts(decks: int, pen: float, shoes: int, seed: int = 7) -> dict[int, float]:
    """Floored true counts at every 5th card of real shuffled shoes dealt to ``pen``."""
    rng = np.random.default_rng(seed)
    values = np.repeat(np.arange(10), [4 * decks] * 9 + [16 * decks])
    n = values.size
    upto = int(pen * n)
    seen: dict[int, int] = {}
    total = 0
    for _ in range(shoes):
        tags = HILO[rng.permutation(values)][:upto]
        rc = np.concatenate([[0], np.cumsum(tags)])[:upto:5]
        left = (n - np.arange(0, upto, 5)[: rc.size]) / 52.0
        for tc in np.floor(rc / left).astype(int):
            seen[int(tc)] = seen.get(int(tc), 0) + 1
            total += 1
    return {k: v / total for k, v in seen.items()}


def test_true_count_frequencies_match_dealt_shoes() -> None:
    model = tc_frequencies(6, 0.75, 40)
    dealt = _dealt_true_counts(6, 0.75, 3000)
    assert sum(model.values()) == pytest.approx(1.0)
    for tc in range(-4, 5):
        assert model[tc] == pytest.approx(dealt.get(tc, 0.0), abs=0.012), tc


def test_shallower_cut_card_gives_fewer_high_counts() -> None:
    deep, shallow = tc_frequencies(6, 5 / 6, 40), tc_frequencies(6, 0.5, 40)
    high = range(3, 21)
    assert sum(shallow[t] for t in high) < sum(deep[t] for t in high)


def _rows(slope: float = 0.005, base: float = -0.005) -> dict[int, TcRow]:
    return {tc: TcRow(tc, base + slope * tc, base + slope * tc, 1.15) for tc in range(-20, 21)}


def test_continuous_shuffler_no_ramp_gains_anything() -> None:
    freq = tc_frequencies(6, 0.0, 40)
    assert freq[0] == 1.0
    rows = _rows()
    for top in (1, 8, 16):
        res = best_ramp(freq, rows, top)
        assert res.ev / res.avg_bet == pytest.approx(rows[0].ev_i18)
        assert res.score == 0.0 and res.n0 is None and res.ror(1000) == 1.0


def test_flat_bet_counter_gets_the_average_return() -> None:
    freq = tc_frequencies(6, 0.75, 40)
    rows = _rows()
    flat = counter(freq, rows, Ramp(dict.fromkeys(range(-20, 21), 1)))
    assert flat.avg_bet == pytest.approx(1.0)
    assert flat.ev == pytest.approx(sum(f * rows[t].ev_i18 for t, f in freq.items()))


def test_counter_figures_follow_their_definitions() -> None:
    freq = tc_frequencies(6, 0.75, 40)
    res = best_ramp(freq, _rows(), 8)
    assert res.ev > 0 and max(res.ramp.units.values()) == 8
    assert res.di == pytest.approx(1000 * res.ev / res.sd)
    assert res.score == pytest.approx(res.di**2)
    assert res.n0 == pytest.approx((res.sd / res.ev) ** 2)
    assert res.ror(500) == pytest.approx(math.exp(-2 * res.ev * 500 / res.sd**2))
    assert best_ramp(freq, _rows(), 16).score >= res.score  # a wider spread never hurts DI


def test_best_spread_at_a_risk_of_ruin_keeps_the_risk() -> None:
    freq = tc_frequencies(6, 0.75, 40)
    small, large = best_at_ror(freq, _rows(), 5000, 0.05), best_at_ror(freq, _rows(), 20000, 0.05)
    assert small is not None and large is not None
    assert small.ror(5000) <= 0.05 and large.ror(20000) <= 0.05
    assert large.ev > small.ev  # more bankroll, more spread, more won


def test_ramp_text() -> None:
    assert Ramp({-1: 1, 0: 1, 1: 2, 2: 2, 3: 6}).text() == "0:1 1:2 3:6"


def test_mean_true_count_of_each_count() -> None:
    _, means = tc_law(6, 0.75, 40)
    assert all(tc <= means[tc] <= tc + 1 for tc in range(-6, 7))
    assert means[0] < 0.5  # the shoe's first rounds are at exactly 0
    assert tc_law(6, 0.0, 40)[1][0] == 0.0


def test_cli_audit_formats(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from twentyone.cli import main
    from twentyone.counting import audit as audit_module

    xs = tuple(float(x) for x in range(-12, 13, 3))
    curve = audit_module.TcCurve(
        xs, tuple(-0.005 + 0.005 * x for x in xs), (1.15,) * len(xs), xs, (), ()
    )
    monkeypatch.setattr(audit_module, "tc_curve", lambda rules, line: curve)
    assert main(["audit", "ru-online", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dealt"] == "cut card at 2/3" and set(data["spreads"]) == {"1-8", "1-16"}
    assert data["spreads"]["1-16"]["score"] >= data["spreads"]["1-8"]["score"] > 0
    assert data["shuffles"][0]["win_per_100"] == pytest.approx(100 * data["base_ev"])
    assert main(["audit", "ru-online", "--format", "md"]) == 0
    assert "| 1-8 |" in capsys.readouterr().out
    assert main(["audit", "ru-online", "--format", "html"]) == 0
    assert capsys.readouterr().out.startswith("<!doctype html>")
    assert data["simulated"] is None  # no simulation unless asked


def test_cli_audit_simulated_cross_check(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from twentyone.cli import main
    from twentyone.counting import audit as audit_module

    xs = tuple(float(x) for x in range(-12, 13, 3))
    curve = audit_module.TcCurve(
        xs, tuple(-0.005 + 0.005 * x for x in xs), (1.15,) * len(xs), xs, (), ()
    )
    monkeypatch.setattr(audit_module, "tc_curve", lambda rules, line: curve)
    assert main(["audit", "ru-online", "--format", "json", "--rounds", "40000"]) == 0
    data = json.loads(capsys.readouterr().out)
    sims = data["simulated"]
    assert [s["spread"] for s in sims] == ["1-8", "1-16"]
    for s, spread in zip(sims, ("1-8", "1-16"), strict=True):
        model = data["spreads"][spread]
        assert s["rounds"] == 40000 and s["seed"] == 1 and s["stderr_per_100"] > 0
        assert s["ramp"] == model["ramp"]
        assert s["model_win_per_100"] == pytest.approx(model["win_per_100"])
        assert s["z"] == pytest.approx(
            (s["win_per_100"] - s["model_win_per_100"]) / s["stderr_per_100"]
        )
        assert 1.0 <= s["avg_bet"] <= int(spread[2:])  # the ramp's bets, really placed
    assert main(["audit", "ru-online", "--rounds", "40000", "--seed", "2"]) == 0
    assert "## Simulated cross-check" in capsys.readouterr().out
    assert main(["audit", "ru-online", "--rounds", "-1"]) == 2
    assert "--rounds -1: expected 0" in capsys.readouterr().err


def test_each_preset_page_says_what_it_assumes_of_the_dealing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ro-casino's continuous shuffler and ru-online's cut card are the rulebooks' open
    questions, not facts: the page says which reading it takes and what the other does."""
    import dataclasses

    from twentyone.counting import audit as audit_module
    from twentyone.counting.audit_render import assumptions, render_html, render_md
    from twentyone.engine.rulesets import load_rules

    xs = tuple(float(x) for x in range(-12, 13, 3))
    curve = audit_module.TcCurve(
        xs, tuple(-0.005 + 0.005 * x for x in xs), (1.15,) * len(xs), xs, (), ()
    )
    monkeypatch.setattr(audit_module, "tc_curve", lambda rules, line: curve)
    ro = audit_module.audit(load_rules("ro-casino"), rounds=0)
    text = assumptions(ro)
    assert text is not None and "continuous shuffler" in text and "ro.1" in text
    assert "worthless" in text and "at 3/4" in text
    assert text in render_md(ro)
    ru = audit_module.audit(load_rules("ru-online"), rounds=0)
    text = assumptions(ru)
    assert text is not None and "ru.13" in text and "cut card at 2/3" in text
    assert "shuffled before every round" in text and "worthless" in text
    assert f"{ru.shuffles[0][2].win_per_100:+.2f} per 100" in text
    assert "Assumed: ru.1" in render_html(ru)
    for preset in ("pl-online", "pt-casino", "hu-casino"):
        assert assumptions(audit_module.audit(load_rules(preset), rounds=0)) is not None
    # a preset dealt otherwise than shipped, or any other rules: no claim about a rulebook
    assert assumptions(audit_module.audit(load_rules("6D S17 DAS"), rounds=0)) is None
    reshuffled = dataclasses.replace(load_rules("ru-online"), shuffle="continuous")
    assert assumptions(audit_module.audit(reshuffled, rounds=0)) is None


def test_the_shipped_audit_pages_state_their_assumptions() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "docs" / "audit"
    for preset in ("ro-casino", "pl-online", "pt-casino", "hu-casino", "ru-online"):
        assert "\nAssumed: " in (root / f"{preset}.md").read_text("utf-8"), preset
