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


def make_engine(url: str, *, background_checkpoints: bool = False) -> Engine:
    """An engine for the URL; SQLite gets WAL, foreign keys and cross-thread use.

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
    return create_engine(url, pool_pre_ping=True, json_serializer=_json_text)


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
