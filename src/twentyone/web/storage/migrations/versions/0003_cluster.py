"""Nodes and table leases: the web table on several server processes (docs/scaling.md).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``nodes`` (the server processes and where they are reached) and
    ``table_leases`` (which process deals which table, until when)."""
    op.create_table(
        "nodes",
        sa.Column("node_id", sa.String(64), primary_key=True),
        sa.Column("advertise_url", sa.String(256), nullable=False),
        sa.Column("incarnation", sa.String(32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("node_id", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=True),
    )


def downgrade() -> None:
    """Drop both."""
    op.drop_table("table_leases")
    op.drop_table("nodes")
