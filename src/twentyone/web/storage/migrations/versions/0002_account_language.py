"""The page's language a player chose: a nullable column on accounts.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``accounts.language`` (null: the player has not chosen)."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    """Drop ``accounts.language``."""
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")
