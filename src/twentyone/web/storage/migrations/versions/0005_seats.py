"""One table at a time per account across a cluster: the ``seats`` table, one row per
seated account.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``seats`` (empty: nobody is seated while the schema changes)."""
    op.create_table(
        "seats",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("account_id", name="pk_seats"),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_seats_account_id_accounts", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_seats_table_id", "seats", ["table_id"])


def downgrade() -> None:
    """Drop ``seats``."""
    op.drop_index("ix_seats_table_id", table_name="seats")
    op.drop_table("seats")
