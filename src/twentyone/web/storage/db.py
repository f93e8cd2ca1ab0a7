"""The database engine for a URL, and the migrations applied on start.

``sqlite:///path.db`` (the default) and ``postgresql://user:pass@host/db`` (driven by
psycopg 3) run the same code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text

from twentyone.web.storage.checkpoints import SAFETY_PAGES

DEFAULT_DATABASE_URL = "sqlite:///twentyone.db"
MIGRATIONS = Path(__file__).with_name("migrations")


#: Connections a node keeps open to PostgreSQL (SQLAlchemy's pool), and how many more it may
#: open at busy times: ``serve --db-pool-size`` and ``--db-max-overflow``.
POOL_SIZE = 5
MAX_OVERFLOW = 10


def normalize_url(url: str) -> str:
    """Pick the psycopg 3 driver for a plain ``postgresql://`` (or ``postgres://``) URL.

    >>> normalize_url("postgresql://u@localhost/t")
    'postgresql+psycopg://u@localhost/t'
    >>> normalize_url("sqlite:///x.db")
    'sqlite:///x.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _json_text(value: Any) -> str:
    """JSON columns' text (orjson: compact, several times faster than ``json.dumps``)."""
    return orjson.dumps(value).decode()


def make_engine(
    url: str,
    *,
    background_checkpoints: bool = False,
    pool_size: int = POOL_SIZE,
    max_overflow: int = MAX_OVERFLOW,
) -> Engine:
    """An engine for the URL; SQLite gets WAL, foreign keys and cross-thread use; a
    PostgreSQL one a pool of ``pool_size`` connections kept and ``max_overflow`` more at
    busy times (docs/operations.md, "Connection budget").

    ``background_checkpoints``: a :class:`~twentyone.web.storage.checkpoints.BackgroundCheckpoints`
    thread will checkpoint the WAL, so the connections' own automatic checkpoint waits for
    :data:`~twentyone.web.storage.checkpoints.SAFETY_PAGES` pages instead of 1,000.
    """
    url = normalize_url(url)
    autocheckpoint = SAFETY_PAGES if background_checkpoints else 1000
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            json_serializer=_json_text,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cur = dbapi_connection.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute(f"PRAGMA wal_autocheckpoint={autocheckpoint}")
            cur.close()

        return engine
    # no server-side prepared statements: behind PgBouncer in transaction mode each
    # transaction may run on another server connection, where a statement psycopg prepared
    # on the last one does not exist ("prepared statement _pg3_0 already exists" / "does not
    # exist"); the ledger's statements are short, and tests/test_web_pgbouncer.py plays
    # through a PgBouncer in transaction mode
    connect_args = {"prepare_threshold": None} if url.startswith("postgresql+psycopg") else {}
    return create_engine(
        url,
        pool_pre_ping=True,
        json_serializer=_json_text,
        connect_args=connect_args,
        pool_size=pool_size,
        max_overflow=max_overflow,
    )


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (Alembic, configured in code)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # several nodes of a cluster start at once: one migrates, the others wait
            connection.execute(text("SELECT pg_advisory_xact_lock(2121)"))
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")
