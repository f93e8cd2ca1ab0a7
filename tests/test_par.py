"""PAR sheets: figures consistent with the exact analysis, the three formats, a simulation."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from twentyone import load_rules
from twentyone.analysis import analyze
from twentyone.reports.par import Z90, par_sheet, render


def test_par_sheet_figures_follow_the_distribution() -> None:
    rules = load_rules("6D S17 DAS SPL1 LS")
    sheet = par_sheet(rules)
    report = analyze(rules)
    assert sheet["house_edge"] == -report.ev_basic
    total = sum(o["contribution"] for o in sheet["outcomes"])
    assert total == pytest.approx(report.ev_basic, abs=1e-12)
    probs = sum(o["probability"] for o in sheet["outcomes"])
    assert probs == pytest.approx(1.0, abs=1e-12)
    assert sheet["hit_frequency"] + sheet["push_frequency"] + sheet["loss_frequency"] == (
        pytest.approx(1.0, abs=1e-12)
    )
    assert sheet["volatility_index_90"] == pytest.approx(Z90 * sheet["sd"])
    assert sheet["max_win"] == 4.0 and sheet["max_loss"] == -4.0  # split, double both
    assert {o["net"] for o in sheet["outcomes"]} >= {-0.5, 1.5}
    assert sheet["simulation"] is None


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_par_formats(fmt: str) -> None:
    sheet = par_sheet(load_rules("ru-online"))
    text = render(sheet, fmt)
    if fmt == "json":
        assert json.loads(text)["rules"] == "ru-online"
    elif fmt == "md":
        assert text.startswith("# PAR sheet: ru-online") and "| +1.5 |" in text
    else:
        assert text.startswith("<!doctype html>") and "<td>+1.5</td>" in text


def test_cli_par_simulates_and_scores_it() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "twentyone.cli",
            "par",
            "pl-online",
            "--format",
            "json",
            "--rounds",
            "20000",
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    sim = json.loads(out.stdout)["simulation"]
    assert sim["rounds"] == 20000 and sim["seed"] == 3
    assert abs(sim["z"]) < 4.0  # the simulation agrees with the exact return
    assert sim["z"] == pytest.approx(
        (sim["ev"] - json.loads(out.stdout)["return_to_player"] + 1) / sim["stderr"]
    )
