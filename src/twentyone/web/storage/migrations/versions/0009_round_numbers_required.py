"""Every round has its number, on SQLite too: ``rounds.number`` is NOT NULL on PostgreSQL
since 0008; SQLite cannot alter a column without copying the table (which the foreign keys
on ``rounds`` forbid), so there two triggers refuse a round without a number, on insert and
on update, as the constraint would.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_TRIGGERS = {
    "rounds_number_required_insert": "BEFORE INSERT ON rounds",
    "rounds_number_required_update": "BEFORE UPDATE OF number ON rounds",
}


def upgrade() -> None:
    """On SQLite, the two triggers (the message is SQLite's own for NOT NULL)."""
    if op.get_bind().dialect.name != "sqlite":
        return
    for name, when in _TRIGGERS.items():
        op.execute(
            f"CREATE TRIGGER {name} {when} FOR EACH ROW WHEN NEW.number IS NULL "
            "BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: rounds.number'); END"
        )


def downgrade() -> None:
    """Drop the triggers (SQLite)."""
    if op.get_bind().dialect.name != "sqlite":
        return
    for name in _TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
