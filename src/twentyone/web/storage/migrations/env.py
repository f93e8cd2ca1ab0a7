"""Alembic environment: runs the migrations on the connection handed over in code
(:func:`twentyone.web.storage.db.migrate`). Importing it outside Alembic does nothing."""

from __future__ import annotations

from typing import Any

from alembic import context

from twentyone.web.storage.models import Base


def run_migrations(config: Any) -> None:
    """Run the pending migrations on ``config.attributes["connection"]``."""
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("twentyone's migrations run from twentyone.web.storage.db.migrate")
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()


_config: Any
try:
    _config = context.config
except (AttributeError, NameError):  # imported outside Alembic (doctest collection)
    _config = None
if _config is not None:
    run_migrations(_config)
