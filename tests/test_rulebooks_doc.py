"""docs/rulebooks.md (issue 29, item 5) lists every clause the code and the tests cite, for a
clone that does not have the rulebooks, and the README points to it, not outside the repo."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLAUSE = re.compile(r"\b(ro|pl|pt|hu|ru)\.([0-9]+)\b")


def _cited() -> set[str]:
    found: set[str] = set()
    for folder in ("src", "tests"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".toml", ".md", ".json"} and path.is_file():
                text = path.read_text("utf-8", errors="replace")
                found |= {f"{a}.{b}" for a, b in CLAUSE.findall(text)}
    return found


def test_every_clause_the_code_cites_is_on_the_page() -> None:
    page = (ROOT / "docs" / "rulebooks.md").read_text("utf-8")
    listed = {f"{a}.{b}" for a, b in re.findall(r"^\| (ro|pl|pt|hu|ru)\.([0-9]+) \|", page, re.M)}
    cited = _cited()
    assert len(cited) > 50
    assert cited <= listed, sorted(cited - listed)


def test_the_readme_points_inside_the_repository() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "../shared" not in readme and "docs/rulebooks.md" in readme
