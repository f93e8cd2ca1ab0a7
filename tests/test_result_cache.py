"""The disk cache of ``edge``'s answers (:mod:`twentyone.analysis.result_cache`): a repeated
query is answered from it without the analysis; a change of the rules, the shoe or the code makes a
new key; a damaged or foreign entry is ignored and replaced; ``off`` turns it off."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from twentyone import cli, load_rules
from twentyone.analysis import result_cache
from twentyone.cli import analysis as cli_analysis

RULES = "1D S17 DAS SPL1 NS"


def _edge(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    assert cli.main(["edge", RULES, "--json", *extra]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def _entries(where: Path) -> list[Path]:
    return sorted((where / "edge").glob("*.json"))


def _no_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the analysis ran on a cache hit")

    monkeypatch.setattr(cli_analysis, "_edge_report", fail)


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(result_cache.ENV, str(tmp_path))
    return tmp_path


def test_a_repeated_query_is_answered_from_the_cache(
    where: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _edge(capsys)
    assert len(_entries(where)) == 1
    _no_analysis(monkeypatch)
    again = _edge(capsys)
    first.pop("seconds")
    again.pop("seconds")
    assert again == first  # every figure, the distributions included, bit for bit


def test_the_table_is_printed_from_the_cache_too(
    where: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _edge(capsys)
    _no_analysis(monkeypatch)
    assert cli.main(["edge", RULES]) == 0
    text = capsys.readouterr().out
    assert "house edge, basic strategy" in text and "bust" in text


def test_other_rules_or_shoe_or_boxes_miss(where: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edge(capsys)
    h17 = cli.main(["edge", "1D H17 DAS SPL1 NS", "--json"])
    capsys.readouterr()
    fewer = _edge(capsys, "--remove", "5")
    assert h17 == 0 and fewer["shoe"] == [4, 4, 4, 4, 3, 4, 4, 4, 4, 16]
    assert len(_entries(where)) == 3
    rules = load_rules(RULES)
    keys = {
        result_cache.edge_key(rules, 1, None, None),
        result_cache.edge_key(rules, 2, None, None),
        result_cache.edge_key(rules, 1, None, "5"),
        result_cache.edge_key(rules, 1, "4 4 4 4 3 4 4 4 4 16", None),
        result_cache.edge_key(load_rules("1D H17 DAS SPL1 NS"), 1, None, None),
    }
    assert len(keys) == 5
    assert result_cache.edge_key(rules, 1, None, " 5  6") == result_cache.edge_key(
        rules, 1, None, "5 6"
    )


def test_a_code_change_makes_a_new_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = tmp_path / "pkg"
    shutil.copytree(Path(result_cache.__file__).parent, tree)
    before = result_cache.tree_digest(tree)
    assert result_cache.tree_digest(tree) == before
    kernel = tree / "dealer.py"
    kernel.write_text(kernel.read_text() + "\n# changed\n")
    assert result_cache.tree_digest(tree) != before
    rules = load_rules(RULES)
    key = result_cache.edge_key(rules, 1, None, None)
    monkeypatch.setattr(result_cache, "code_digest", lambda: "other code")
    assert result_cache.edge_key(rules, 1, None, None) != key


def test_a_corrupt_or_foreign_entry_is_ignored_and_replaced(
    where: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _edge(capsys)
    (entry,) = _entries(where)
    good = result_cache.load(entry.stem)
    assert good is not None
    good.pop("seconds")
    for bad in ("{not json", '{"key": "someone else", "data": {}}', "[1, 2]", ""):
        entry.write_text(bad)
        assert result_cache.load(entry.stem) is None
        again = _edge(capsys)  # computed again
        assert again["ev_basic"] == first["ev_basic"]
        rewritten = result_cache.load(entry.stem)  # and written whole again
        assert rewritten is not None
        rewritten.pop("seconds")
        assert rewritten == good
    assert not list((where / "edge").glob(".tmp-*"))


def test_off_turns_it_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(result_cache.ENV, "off")
    assert result_cache.cache_dir() is None
    _edge(capsys)
    result_cache.store("k", {"x": 1})
    assert result_cache.load("k") is None
    monkeypatch.delenv(result_cache.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert result_cache.cache_dir() == tmp_path / "twentyone" / "edge"


def test_an_unwritable_folder_is_no_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(result_cache.ENV, str(blocker))
    assert _edge(capsys)["rules"] == RULES
