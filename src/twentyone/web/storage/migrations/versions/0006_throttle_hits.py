"""Throttles counted in one place for every node: the ``throttle_hits`` table.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``throttle_hits`` (empty: the windows start counting now)."""
    op.create_table(
        "throttle_hits",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(160), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_throttle_hits"),
    )
    op.create_index("ix_throttle_hits_key", "throttle_hits", ["key"])
    op.create_index("ix_throttle_hits_at", "throttle_hits", ["at"])


def downgrade() -> None:
    """Drop ``throttle_hits``."""
    op.drop_index("ix_throttle_hits_at", table_name="throttle_hits")
    op.drop_index("ix_throttle_hits_key", table_name="throttle_hits")
    op.drop_table("throttle_hits")
