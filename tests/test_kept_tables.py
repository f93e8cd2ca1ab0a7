"""The hand and dealer tables kept on disk (analysis/kept.py, issue 12 item 7: a new process
reads them instead of building them) are the tables built, and change no figure."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

from twentyone.analysis import analyze, clear_caches
from twentyone.analysis.dealer import dealer_table
from twentyone.analysis.kept import load, table_key, tables_dir
from twentyone.analysis.shoe_counts import Nodes, player_nodes, removed_sets


def _same(a: object, b: object) -> None:
    assert type(a) is type(b)
    for f in fields(a):  # type: ignore[arg-type]
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all(), f.name
        else:
            assert x == y, f.name


def _built_and_kept(where: Path) -> list[tuple[object, object]]:
    clear_caches(tables=True)
    built = [player_nodes(2), removed_sets(2, (2, 3, 2, 2, 2, 2, 2, 2, 2, 4))]
    built += [dealer_table(up, h17) for up in (0, 5, 9) for h17 in (False, True)]
    assert len(list((where / "tables").rglob("*.npz"))) == len(built)  # each kept once
    clear_caches(tables=True)
    read = [player_nodes(2), removed_sets(2, (2, 3, 2, 2, 2, 2, 2, 2, 2, 4))]
    read += [dealer_table(up, h17) for up in (0, 5, 9) for h17 in (False, True)]
    clear_caches(tables=True)
    return list(zip(built, read, strict=True))


def test_a_kept_table_is_the_table_built_field_by_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWENTYONE_CACHE_DIR", str(tmp_path))
    for built, read in _built_and_kept(tmp_path):
        assert built is not read  # the second one came from the disk
        _same(built, read)
    nodes = player_nodes(2)
    assert isinstance(nodes, Nodes) and nodes.index[(1, 0, 0, 0, 0, 0, 0, 0, 0, 1)] >= 0


def test_the_analysis_on_kept_tables_gives_the_same_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clear_caches(tables=True)
    want = analyze("2D H17 DAS SPL3 NS").to_json()  # tables built (the cache is off)
    monkeypatch.setenv("TWENTYONE_CACHE_DIR", str(tmp_path))
    for _ in range(2):  # built and written, then read back
        clear_caches(tables=True)
        got = analyze("2D H17 DAS SPL3 NS").to_json()
        got["seconds"] = want["seconds"]
        assert got == want
    assert list((tmp_path / "tables").rglob("*.npz"))
    clear_caches(tables=True)


def test_a_damaged_or_foreign_file_is_ignored_and_written_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWENTYONE_CACHE_DIR", str(tmp_path))
    clear_caches(tables=True)
    built = dealer_table(3, False)
    where = tables_dir()
    assert where is not None
    mine = where / f"{table_key('dealer_table', (3, False))}.npz"
    assert mine.is_file()
    mine.write_bytes(mine.read_bytes()[:100])  # cut short
    assert load(mine.stem, type(built), where) is None
    clear_caches(tables=True)
    _same(dealer_table(3, False), built)  # built again, and written whole
    assert load(mine.stem, type(built), where) is not None
    other = where / f"{table_key('dealer_table', (4, False))}.npz"
    other.write_bytes(mine.read_bytes())  # a whole file under another table's name
    assert load(other.stem, type(built), where) is None
    clear_caches(tables=True)


def test_nothing_is_kept_with_the_cache_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWENTYONE_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    clear_caches(tables=True)
    player_nodes(1)
    dealer_table(0, True)
    assert tables_dir() is None and not any(tmp_path.rglob("*.npz"))
    clear_caches(tables=True)


def test_the_tables_of_other_code_are_removed_when_this_code_keeps_its_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWENTYONE_CACHE_DIR", str(tmp_path))
    older = tmp_path / "tables" / "0123456789abcdef01234567"  # an update ago
    older.mkdir(parents=True)
    (older / "x.npz").write_bytes(b"kept by the code before")
    clear_caches(tables=True)
    dealer_table(2, True)
    where = tables_dir()
    assert where is not None and where.parent == tmp_path / "tables"
    assert not older.exists() and [p.parent for p in where.parent.rglob("*.npz")] == [where]
    clear_caches(tables=True)
