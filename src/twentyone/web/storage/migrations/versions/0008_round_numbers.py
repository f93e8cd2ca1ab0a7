"""Round numbers per table: ``rounds.number`` counts a table's rounds from 1 (the number
players see; ``rounds.id`` stays the database's own, shared by every table). Rounds already
recorded are numbered in the order of their ids, table by table.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rounds.number``, number the rounds there are (SQLite and PostgreSQL alike: a
    correlated count, no window function), and index it unique per table. PostgreSQL makes
    the column NOT NULL; SQLite would have to copy the table for that (its foreign keys
    forbid dropping ``rounds``), so there the ledger's insert is what always fills it."""
    op.add_column("rounds", sa.Column("number", sa.BigInteger(), nullable=True))
    rounds = sa.table("rounds", sa.column("id"), sa.column("table_id"), sa.column("number"))
    earlier = sa.alias(rounds, "earlier")
    count = (
        sa.select(sa.func.count())
        .select_from(earlier)
        .where(earlier.c.table_id == rounds.c.table_id, earlier.c.id <= rounds.c.id)
        .scalar_subquery()
    )
    op.execute(rounds.update().values(number=count))
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("rounds", "number", existing_type=sa.BigInteger(), nullable=False)
    op.create_index("ix_rounds_table_id_number", "rounds", ["table_id", "number"], unique=True)


def downgrade() -> None:
    """Drop ``rounds.number`` (SQLite 3.35's own DROP COLUMN: a batch would copy the table,
    which its foreign keys forbid)."""
    op.drop_index("ix_rounds_table_id_number", table_name="rounds")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE rounds DROP COLUMN number")
    else:
        op.drop_column("rounds", "number")
