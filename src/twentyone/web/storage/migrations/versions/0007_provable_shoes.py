"""Provable shoes kept in the database: ``provable_shoes`` (commitment, seed, client seeds,
cards dealt) and ``provable_rounds`` (each round's cards), so the shoes outlive the process.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``provable_shoes`` and ``provable_rounds``."""
    op.create_table(
        "provable_shoes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("number", sa.BigInteger(), nullable=False),
        sa.Column("decks", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("client_seeds", sa.JSON(), nullable=False),
        sa.Column("dealt", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_provable_shoes"),
    )
    op.create_index("ix_provable_shoes_table_id", "provable_shoes", ["table_id"])
    op.create_table(
        "provable_rounds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("shoe_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("cards", sa.String(2048), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_provable_rounds"),
        sa.ForeignKeyConstraint(
            ["shoe_id"],
            ["provable_shoes.id"],
            name="fk_provable_rounds_shoe_id_provable_shoes",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_provable_rounds_shoe_id", "provable_rounds", ["shoe_id"])


def downgrade() -> None:
    """Drop both tables."""
    op.drop_index("ix_provable_rounds_shoe_id", table_name="provable_rounds")
    op.drop_table("provable_rounds")
    op.drop_index("ix_provable_shoes_table_id", table_name="provable_shoes")
    op.drop_table("provable_shoes")
