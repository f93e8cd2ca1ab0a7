"""Strategy charts as people read them: plain text, JSON, a coloured HTML page, a PNG picture.

Every format shows the same three tables (hard totals, soft totals, pairs) by dealer up card
with the codes casinos print, and a legend.

>>> from twentyone.engine.strategy import Strategy
>>> text = chart_text(Strategy.uniform("S"), title="demo")
>>> text.splitlines()[2]
'Hard     2   3   4   5   6   7   8   9   T   A'
>>> "S   stand" in text
True
"""

from __future__ import annotations

import html
import io
import json
from typing import Any

from twentyone.engine.errors import TwentyOneError
from twentyone.engine.strategy import HARD_TOTALS, PAIR_VALUES, SOFT_TOTALS, UPCARDS, Strategy

LEGEND = {
    "H": "hit",
    "S": "stand",
    "Dh": "double if allowed, otherwise hit",
    "Ds": "double if allowed, otherwise stand",
    "P": "split",
    "Rh": "surrender if allowed, otherwise hit",
    "Rs": "surrender if allowed, otherwise stand",
    "Rp": "surrender if allowed, otherwise split",
}

# background colours by code, as printed charts colour them
COLOURS = {
    "H": "#f4f4f4",
    "S": "#f7d046",
    "Dh": "#4cae4c",
    "Ds": "#a9d18e",
    "P": "#5b9bd5",
    "Rh": "#b48ad6",
    "Rs": "#d9c2ec",
    "Rp": "#8e6bbf",
}


def legend(strategy: Strategy) -> dict[str, str]:
    """The legend of the codes the chart uses (a table without surrender lists no ``R`` code).

    >>> list(legend(Strategy.uniform("S")))  # (hard 4 to 11 hit: no total stands there)
    ['H', 'S']
    """
    used = {c for _, rows in _rows(strategy) for _, codes in rows for c in codes}
    return {code: meaning for code, meaning in LEGEND.items() if code in used}


def _rows(strategy: Strategy) -> list[tuple[str, list[tuple[str, tuple[str, ...]]]]]:
    """(table title, [(row label, codes)]) in print order: high totals first."""
    hard = [(str(t), strategy.hard[t]) for t in reversed(HARD_TOTALS) if t >= 5]
    soft = [(f"A,{t - 11}", strategy.soft[t]) for t in reversed(SOFT_TOTALS) if 13 <= t <= 21]
    pairs = []
    for v in (1, *reversed(PAIR_VALUES[1:])):
        label = "A,A" if v == 1 else ("T,T" if v == 10 else f"{v},{v}")
        pairs.append((label, strategy.pairs[v]))
    return [("Hard", hard), ("Soft", soft), ("Pairs", pairs)]


def chart_text(strategy: Strategy, *, title: str | None = None) -> str:
    """The chart as fixed-width text with a legend."""
    lines = [title or strategy.name, ""]
    for name, rows in _rows(strategy):
        lines.append(f"{name:<6}" + "".join(f"{u:>4}" for u in UPCARDS))
        for label, codes in rows:
            lines.append(f"{label:<6}" + "".join(f"{c:>4}" for c in codes))
        lines.append("")
    lines.append("Legend")
    lines.extend(f"  {code:<3} {meaning}" for code, meaning in legend(strategy).items())
    lines.extend(f"  {note}" for note in strategy.notes)
    return "\n".join(lines) + "\n"


def chart_json(strategy: Strategy, *, title: str | None = None) -> str:
    """The chart as JSON: ``{"title", "upcards", "hard", "soft", "pairs", "legend", "notes"}``."""
    data: dict[str, Any] = {"title": title or strategy.name, **strategy.to_dict()}
    data["legend"] = legend(strategy)
    return json.dumps(data, indent=2)


def chart_html(strategy: Strategy, *, title: str | None = None) -> str:
    """A standalone, printable HTML page with the coloured chart."""
    head = html.escape(title or strategy.name)
    css = "".join(f".c{code}{{background:{c}}}" for code, c in COLOURS.items())
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{head}</title><style>",
        "body{font-family:system-ui,sans-serif;margin:1.5em}",
        "table{border-collapse:collapse;margin:0 1.5em 1.5em 0;display:inline-table}",
        "th,td{border:1px solid #999;padding:.2em .45em;text-align:center;min-width:2em}",
        "th{background:#333;color:#fff}",
        css,
        "</style></head><body>",
        f"<h1>{head}</h1>",
    ]
    for name, rows in _rows(strategy):
        parts.append(f"<table><caption>{name}</caption><tr><th></th>")
        parts.extend(f"<th>{u}</th>" for u in UPCARDS)
        parts.append("</tr>")
        for label, codes in rows:
            parts.append(f"<tr><th>{html.escape(label)}</th>")
            parts.extend(f"<td class='c{c}'>{c}</td>" for c in codes)
            parts.append("</tr>")
        parts.append("</table>")
    parts.append("<h2>Legend</h2><ul>")
    for code, meaning in legend(strategy).items():
        parts.append(f"<li><span class='c{code}'>&nbsp;{code}&nbsp;</span> {meaning}</li>")
    parts.extend(f"<li>{html.escape(note)}</li>" for note in strategy.notes)
    parts.append("</ul></body></html>")
    return "\n".join(parts) + "\n"


def chart_png(strategy: Strategy, *, title: str | None = None) -> bytes:
    """The coloured chart as a PNG picture (needs matplotlib: ``twentyone[png]``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle
    except ImportError as exc:
        raise TwentyOneError("png-needs-matplotlib") from exc
    tables = _rows(strategy)
    keys = legend(strategy)
    n_rows = sum(len(rows) + 2 for _, rows in tables) + (len(keys) + 1) // 2 + 3
    fig, ax = plt.subplots(figsize=(6.4, 0.27 * n_rows + 0.6), dpi=130)
    ax.set_xlim(0, 11)
    ax.set_ylim(n_rows, 0)
    ax.axis("off")
    ax.text(0, 0.6, title or strategy.name, fontsize=12, weight="bold", va="center")
    y = 1.6
    for name, rows in tables:
        ax.text(0.5, y + 0.5, name, ha="center", va="center", weight="bold", fontsize=8)
        for i, up in enumerate(UPCARDS):
            ax.add_patch(Rectangle((1 + i, y), 1, 1, facecolor="#333333", edgecolor="#999999"))
            ax.text(1.5 + i, y + 0.5, up, ha="center", va="center", color="white", fontsize=8)
        y += 1
        for label, codes in rows:
            ax.text(0.5, y + 0.5, label, ha="center", va="center", fontsize=8)
            for i, code in enumerate(codes):
                ax.add_patch(
                    Rectangle((1 + i, y), 1, 1, facecolor=COLOURS[code], edgecolor="#999999")
                )
                ax.text(1.5 + i, y + 0.5, code, ha="center", va="center", fontsize=8)
            y += 1
        y += 1
    for i, (code, meaning) in enumerate(keys.items()):
        col, row = i % 2, i // 2
        x = 0.1 + col * 5.5
        ax.add_patch(Rectangle((x, y + row), 0.9, 0.9, facecolor=COLOURS[code]))
        ax.text(x + 0.45, y + row + 0.45, code, ha="center", va="center", fontsize=7)
        ax.text(x + 1.1, y + row + 0.45, meaning, va="center", fontsize=7)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def render(strategy: Strategy, fmt: str, *, title: str | None = None) -> str | bytes:
    """The chart in ``fmt``: ``text``, ``json``, ``html`` (str) or ``png`` (bytes)."""
    if fmt == "text":
        return chart_text(strategy, title=title)
    if fmt == "json":
        return chart_json(strategy, title=title)
    if fmt == "html":
        return chart_html(strategy, title=title)
    if fmt == "png":
        return chart_png(strategy, title=title)
    raise ValueError(f"format {fmt!r}: expected text, json, html or png")
