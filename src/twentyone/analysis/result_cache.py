"""Exact analyses kept on disk, so that ``twentyone edge`` asked again in a new process answers
without starting numba (whose start-up alone costs more than the whole analysis).

An entry is keyed by everything its figures depend on: the rules (as loaded), the number of
boxes, the shoe asked for (``--shoe`` / ``--remove`` as typed, spaces aside), and a
digest of the code that computes it (every Python file of the ``twentyone`` package, the
Python version, numpy's and numba's version files). A change to any of them makes a new key,
so an entry computed by other code is never served. Entries are JSON files in
``$TWENTYONE_CACHE_DIR``, else ``$XDG_CACHE_HOME/twentyone``, else ``~/.cache/twentyone``;
``TWENTYONE_CACHE_DIR=off`` turns the cache off. A file is written whole under a temporary
name and then renamed over the entry (two processes writing the same entry leave one whole
file); a file that cannot be read, is not JSON or does not name its own key is ignored (the
analysis runs and writes it again). Nothing here imports numpy or numba.

>>> import tempfile
>>> where = Path(tempfile.mkdtemp())
>>> load("k" * 64, where) is None
True
>>> store("k" * 64, {"ev_basic": -0.0054}, where)
>>> load("k" * 64, where)
{'ev_basic': -0.0054}
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

from twentyone.engine.rules import Rules

#: The environment variable naming the cache's folder (``off``: no cache).
ENV = "TWENTYONE_CACHE_DIR"
#: Bumped when the layout of an entry changes.
FORMAT = 1
#: The values of a switch variable that turn it off (``TWENTYONE_CACHE_DIR``).
OFF_WORDS = ("off", "0", "no", "false")


def cache_root() -> Path | None:
    """The folder of everything kept (answers in ``edge/``, tables in ``tables/``), or None
    when the cache is off."""
    named = os.environ.get(ENV)
    if named is not None:
        if named.strip().lower() in OFF_WORDS or not named.strip():
            return None
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "twentyone"


def cache_dir() -> Path | None:
    """The folder of the analysis entries, or None when the cache is off."""
    root = cache_root()
    return None if root is None else root / "edge"


def _version_files() -> list[Path]:
    """numpy's and numba's version files (found without importing either)."""
    out = []
    for package, name in (("numpy", "version.py"), ("numba", "_version.py")):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin is not None:
            out.append(Path(spec.origin).parent / name)
    return out


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the code behind an analysis: every ``.py`` file of the ``twentyone``
    package (by path and content), Python's version, numpy's and numba's version files."""
    return tree_digest(Path(__file__).resolve().parents[1])


def tree_digest(root: Path) -> str:
    """:func:`code_digest` of the package at ``root``."""
    h = hashlib.sha256(f"{FORMAT} {sys.version}".encode())
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    for path in _version_files():
        h.update(path.read_bytes() if path.is_file() else b"")
    return h.hexdigest()


def edge_key(rules: Rules, boxes: int, shoe: str | None, remove: str | None) -> str:
    """The key of ``edge``'s answer for these arguments under the code running now."""
    parts = [
        code_digest(),
        repr(rules),
        str(boxes),
        " ".join(shoe.split()) if shoe is not None else "-",
        " ".join(remove.split()) if remove is not None else "-",
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def load(key: str, where: Path | None = None) -> dict[str, Any] | None:
    """The entry stored under ``key`` (in ``where``, default :func:`cache_dir`), or None
    (none, unreadable, or not this key's)."""
    where = where or cache_dir()
    if where is None:
        return None
    try:
        with open(where / f"{key}.json", encoding="utf-8") as fh:
            entry = json.load(fh)
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != key:
        return None
    data = entry.get("data")
    return data if isinstance(data, dict) else None


def store(key: str, data: dict[str, Any], where: Path | None = None) -> None:
    """Keep ``data`` (JSON-serialisable) under ``key`` (in ``where``, default
    :func:`cache_dir`); a folder that cannot be written is no error (the cache is an aid,
    never needed)."""
    where = where or cache_dir()
    if where is None:
        return
    text = json.dumps({"key": key, "data": data})
    try:
        where.mkdir(parents=True, exist_ok=True)
        write_whole(where / f"{key}.json", lambda fh: fh.write(text.encode("utf-8")))
    except OSError:
        return


def write_whole(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` whole: ``write`` fills a temporary file beside it, which then replaces
    ``path`` in one rename, so a reader finds the old file or the new one, never half of
    one; the temporary file is removed if writing fails, and the error raised.

    >>> where = Path(tempfile.mkdtemp())
    >>> write_whole(where / "a.txt", lambda fh: fh.write(b"whole"))
    >>> (where / "a.txt").read_bytes(), sorted(p.name for p in where.iterdir())
    (b'whole', ['a.txt'])
    """
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
