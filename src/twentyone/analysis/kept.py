"""Tables kept on disk between processes: the ones that depend only on a few small arguments
(the deck count, the up card, S17/H17), not on the rules' other numbers or the shoe.

The player's hands of a shoe (:func:`~twentyone.analysis.shoe_counts.player_nodes`), the sets
of cards a stand value needs out of the shoe (:func:`~twentyone.analysis.shoe_counts.
removed_sets`) and the dealer's final hands (:func:`~twentyone.analysis.dealer.dealer_table`)
are built with numpy in about 25 ms for a six-deck shoe (they were Python loops, 0.1 s and
more, when they were first kept); read back they cost about as much (a dozen small files),
so keeping them now saves little. Each is a frozen dataclass of numpy arrays and
integers, kept as one ``.npz`` file in the ``tables`` folder of the cache
(:func:`twentyone.analysis.result_cache.cache_root`: ``TWENTYONE_CACHE_DIR=off`` keeps nothing) and
keyed by the table's name, its arguments and :func:`twentyone.analysis.result_cache.code_digest`
(any change to the package's code, or to Python's, numpy's or numba's version, makes new keys, in
a new folder: the folders of other code are removed then, so that updates leave no tables
behind).
A file is written whole under a temporary name and then renamed over the entry; a file that
cannot be read, does not name its own key or lacks a field is ignored (the table is built
and written again). Nothing is unpickled.

>>> import tempfile
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pair:
...     values: np.ndarray
...     size: int
>>> where = Path(tempfile.mkdtemp())
>>> store("k" * 64, Pair(np.arange(3), 3), where)
>>> load("k" * 64, Pair, where)
Pair(values=array([0, 1, 2]), size=3)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from twentyone.analysis import result_cache

T = TypeVar("T")
_KEY = "__key__"


def tables_dir() -> Path | None:
    """The folder of the tables kept by the code running now (one folder per code digest:
    the first table an updated package keeps removes the folders of the code before), or
    None when the cache is off."""
    root = result_cache.cache_root()
    return None if root is None else root / "tables" / result_cache.code_digest()[:24]


def _forget_other_code(where: Path) -> None:
    """Remove the tables kept by other code than ``where``'s (none of them can be read by
    this code: their keys hold another digest)."""
    import shutil

    for other in where.parent.iterdir():
        if other != where and other.is_dir():
            shutil.rmtree(other, ignore_errors=True)


def table_key(name: str, args: tuple[Any, ...]) -> str:
    """The key of table ``name`` built from ``args`` by the code running now."""
    text = f"{result_cache.code_digest()}\n{name}\n{args!r}"
    return hashlib.sha256(text.encode()).hexdigest()


def load(
    key: str,
    cls: type[T],
    where: Path | None = None,
    derive: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> T | None:
    """The ``cls`` kept under ``key`` (its fields read from the file, and those ``derive``
    makes from them), or None (none kept, unreadable, another key's, or a field missing)."""
    where = where or tables_dir()
    if where is None:
        return None
    try:
        with np.load(where / f"{key}.npz", allow_pickle=False) as got:
            arrays = {name: got[name] for name in got.files}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if _KEY not in arrays or str(arrays.pop(_KEY)) != key:
        return None
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name not in arrays:
            continue
        a = arrays[f.name]
        if a.dtype.kind not in "bif":
            return None
        values[f.name] = int(a) if f.type in ("int", int) else a
    if derive is not None:
        try:
            values.update(derive(values))
        except (KeyError, ValueError, TypeError):
            return None
    try:
        return cls(**values)
    except TypeError:  # a field missing
        return None


def store(
    key: str, table: Any, where: Path | None = None, skip: tuple[str, ...] = (), prune: bool = False
) -> None:
    """Keep ``table`` (a dataclass of arrays and integers; ``skip``: fields not kept, derived
    when loaded) under ``key``; a folder that cannot be written is no error. ``prune``: the
    folder is :func:`tables_dir`, and making it removes the folders of other code."""
    where = where or tables_dir()
    if where is None:
        return
    arrays: dict[str, Any] = {
        f.name: np.asarray(getattr(table, f.name))
        for f in dataclasses.fields(table)
        if f.name not in skip
    }
    try:
        if not where.is_dir():
            where.mkdir(parents=True, exist_ok=True)
            if prune:
                _forget_other_code(where)
        result_cache.write_whole(
            where / f"{key}.npz", lambda fh: np.savez(fh, **{_KEY: np.array(key), **arrays})
        )
    except OSError:
        return


def kept(
    name: str,
    cls: type[T],
    derive: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    skip: tuple[str, ...] = (),
) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Keep what the decorated builder returns (a ``cls``) on disk, keyed by ``name``, its
    arguments and the code; the fields ``skip`` are not kept but made by ``derive`` from the
    others when loaded."""

    def wrap(build: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(build)
        def table(*args: Any) -> T:
            where = tables_dir()
            if where is None:
                return build(*args)
            key = table_key(name, args)
            got = load(key, cls, where, derive)
            if got is not None:
                return got
            made = build(*args)
            store(key, made, where, skip, prune=True)
            return made

        return table

    return wrap
