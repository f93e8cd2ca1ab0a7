"""SQLite WAL checkpoints on their own thread (twentyone.web.storage.checkpoints): the log's
pages reach the database file without a writer checkpointing, the log stays bounded under a
steady writer, and only SQLite files get a thread."""

from __future__ import annotations

import itertools
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, text

from twentyone.web.storage.checkpoints import SAFETY_PAGES, BackgroundCheckpoints
from twentyone.web.storage.db import make_engine

PAGE = 4096


def _rows_in_database_file(path: Path) -> int:
    """Rows of ``t`` in the database file alone (``immutable``: the WAL is not read)."""
    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM t").fetchone()[0])
    except sqlite3.OperationalError:  # the table itself is still only in the log
        return 0
    finally:
        conn.close()


def _engine(tmp_path: Path, synced: bool = True) -> tuple[Engine, Path]:
    """The server's engine on a file; ``synced=False``: no fsync (the disk's sync latency,
    on a shared machine up to seconds, is not what a test of the log's logic measures)."""
    path = tmp_path / "wal.db"
    engine = make_engine(f"sqlite:///{path}", background_checkpoints=True)
    if not synced:

        @event.listens_for(engine, "connect")
        def _no_sync(dbapi_connection: Any, _record: Any) -> None:  # after the server's own
            dbapi_connection.execute("PRAGMA synchronous=OFF")

    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x BLOB)"))
    return engine, path


def _write(engine: Engine, commits: int) -> None:
    with engine.connect() as conn:
        for _ in range(commits):
            with conn.begin():
                conn.execute(text("INSERT INTO t VALUES (randomblob(3000))"))


def _wait_for(predicate: Any, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_the_thread_copies_committed_pages_into_the_database_file(tmp_path: Path) -> None:
    engine, path = _engine(tmp_path)
    checkpoints = BackgroundCheckpoints(engine, interval=0.01)
    try:
        _write(engine, 200)  # about 200 pages: far below the connections' own threshold
        assert _rows_in_database_file(path) < 200  # only in the log so far
        checkpoints.start()
        assert _wait_for(lambda: _rows_in_database_file(path) == 200)
        # the thread counts a checkpoint once it returns, just after its pages are in the file
        assert _wait_for(lambda: checkpoints.runs > 0) and checkpoints.failures == 0
    finally:
        checkpoints.stop()
        engine.dispose()


def test_without_the_thread_the_pages_stay_in_the_log(tmp_path: Path) -> None:
    engine, path = _engine(tmp_path)
    try:
        _write(engine, 200)
        time.sleep(0.2)
        assert _rows_in_database_file(path) < 200
    finally:
        engine.dispose()


def _log_salt(path: Path) -> bytes:
    """The -wal file's salt, which SQLite draws anew each time it starts the log over."""
    with open(f"{path}-wal", "rb") as fh:
        return fh.read(32)[16:20]


def test_the_log_stays_bounded_under_a_steady_writer(tmp_path: Path) -> None:
    # 3 x SAFETY_PAGES commits of a page each: without the log starting over, the -wal file
    # would grow past 3 x SAFETY_PAGES pages. It starts over once a writer's own checkpoint (at
    # SAFETY_PAGES) has copied every page back; while the thread's checkpoint holds the lock
    # the writer's finds it taken, and with the disk syncing a checkpoint can hold it for a
    # second on a busy machine, during which the log grows by all the writer writes: no sync
    # here (the logic, not the disk, is under test)
    engine, path = _engine(tmp_path, synced=False)
    checkpoints = BackgroundCheckpoints(engine, interval=0.01)
    checkpoints.start()
    biggest = 0
    salts = []
    try:
        for _ in range(12):
            _write(engine, SAFETY_PAGES // 4)
            biggest = max(biggest, os.path.getsize(f"{path}-wal"))
            salts.append(_log_salt(path))
    finally:
        checkpoints.stop()
        engine.dispose()
    restarts = sum(a != b for a, b in itertools.pairwise(salts))
    assert restarts >= 2, salts  # the log started over again and again
    assert biggest < 1.5 * SAFETY_PAGES * (PAGE + 24)
    assert _rows_in_database_file(path) == 3 * SAFETY_PAGES


def test_stop_ends_the_thread_and_start_is_once(tmp_path: Path) -> None:
    engine, _path = _engine(tmp_path)
    checkpoints = BackgroundCheckpoints(engine, interval=0.01)
    checkpoints.start()
    thread = checkpoints._thread
    checkpoints.start()
    assert checkpoints._thread is thread is not None
    checkpoints.stop()
    assert not thread.is_alive()
    checkpoints.stop()  # a second stop is harmless
    engine.dispose()


def test_only_sqlite_files_get_a_thread(tmp_path: Path) -> None:
    memory = make_engine("sqlite:///:memory:")
    checkpoints = BackgroundCheckpoints(memory)
    checkpoints.start()
    assert checkpoints.enabled is False and checkpoints._thread is None
    file_engine, _path = _engine(tmp_path)
    assert BackgroundCheckpoints(file_engine).enabled is True
    file_engine.dispose()
    memory.dispose()


def test_connections_checkpoint_by_themselves_later_when_a_thread_does_it(tmp_path: Path) -> None:
    threaded = make_engine(f"sqlite:///{tmp_path}/a.db", background_checkpoints=True)
    plain = make_engine(f"sqlite:///{tmp_path}/b.db")
    with threaded.connect() as a, plain.connect() as b:
        assert a.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == SAFETY_PAGES
        assert b.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    threaded.dispose()
    plain.dispose()


def test_a_bad_interval_is_refused(tmp_path: Path) -> None:
    engine, _path = _engine(tmp_path)
    with pytest.raises(ValueError, match="interval 0"):
        BackgroundCheckpoints(engine, interval=0)
    engine.dispose()
