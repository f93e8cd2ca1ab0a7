"""Strategy charts in every format show exactly the chart's codes."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from twentyone.analysis.chart import LEGEND, chart_html, chart_json, chart_png, chart_text, render
from twentyone.engine.strategy import (
    CODES,
    HARD_TOTALS,
    PAIR_VALUES,
    SOFT_TOTALS,
    UPCARDS,
    Strategy,
)


def random_chart(seed: int) -> Strategy:
    rng = random.Random(seed)

    def row() -> tuple[str, ...]:
        return tuple(rng.choice(CODES) for _ in UPCARDS)

    return Strategy(
        name=f"random {seed}",
        hard={t: row() for t in HARD_TOTALS},
        soft={t: row() for t in SOFT_TOTALS},
        pairs={v: row() for v in PAIR_VALUES},
    )


def test_text_rows_carry_the_charts_codes() -> None:
    chart = random_chart(1)
    lines = chart_text(chart).splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in lines if line[:1].isalnum()}
    assert rows["16"] == list(chart.hard[16])
    assert rows["A,7"] == list(chart.soft[18])
    assert rows["A,A"] == list(chart.pairs[1])
    assert rows["T,T"] == list(chart.pairs[10])
    assert rows["8,8"] == list(chart.pairs[8])
    for code, meaning in LEGEND.items():
        assert f"{code:<3} {meaning}" in chart_text(chart)


def test_json_holds_every_table() -> None:
    chart = random_chart(2)
    data = json.loads(chart_json(chart, title="t"))
    assert data["title"] == "t" and data["upcards"] == list(UPCARDS)
    assert data["hard"]["12"] == list(chart.hard[12])
    assert data["soft"]["21"] == list(chart.soft[21])
    assert data["pairs"]["A"] == list(chart.pairs[1])
    assert set(data["legend"]) == set(CODES)


def test_html_has_one_coloured_cell_per_code() -> None:
    chart = random_chart(3)
    page = chart_html(chart)
    cells = re.findall(r"<td class='c(\w+)'>(\w+)</td>", page)
    # hard 21 down to 5 (17 rows), soft A,10 down to A,2 (9 rows), 10 pair rows
    assert len(cells) == (17 + 9 + 10) * len(UPCARDS)
    assert all(cls == code for cls, code in cells)
    first_row = [code for _, code in cells[:10]]
    assert first_row == list(chart.hard[21])


def test_png_is_a_picture() -> None:
    data = chart_png(random_chart(4))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 500 and height > width


def test_an_unknown_format_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'pdf': expected text, json, html or png"):
        render(random_chart(5), "pdf")


def test_strategy_command_prints_the_analysis_chart(tmp_path: Path) -> None:
    from twentyone.analysis import basic_strategy
    from twentyone.cli import main
    from twentyone.engine.rulesets import load_rules

    rules = "6D S17 DAS SPL3 NS"
    out = tmp_path / "chart.json"
    assert main(["strategy", rules, "--format", "json", "--output", str(out)]) == 0
    data = json.loads(out.read_text())
    expected = basic_strategy(load_rules(rules)).to_dict()
    assert {k: data[k] for k in ("hard", "soft", "pairs")} == {
        k: expected[k] for k in ("hard", "soft", "pairs")
    }
    # textbook 6-deck S17 DAS entries (e.g. the Wizard of Odds' 4-8 deck chart)
    assert data["hard"]["16"][UPCARDS.index("T")] == "H"
    assert data["hard"]["11"][UPCARDS.index("6")] == "Dh"
    assert data["pairs"]["8"][UPCARDS.index("T")] == "P"
    png = tmp_path / "chart.png"
    assert main(["strategy", "pt-casino", "--format", "png", "--output", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
