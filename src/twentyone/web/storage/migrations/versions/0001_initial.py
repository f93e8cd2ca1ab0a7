"""The initial schema: accounts, sessions, rounds, round players and ledger entries.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("username_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("username_key", name="uq_accounts_username_key"),
        sa.CheckConstraint(
            "kind <> 'player' OR balance >= 0",
            name="ck_accounts_player_balance_not_negative",
        ),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        _ts("created_at"),
        _ts("expires_at"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_sessions_account_id_accounts",
            ondelete="CASCADE",
        ),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(128), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        _ts("started_at"),
        _ts("finished_at", nullable=True),
        sa.Column("replay", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("clock_decisions", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_rounds"),
    )
    op.create_index("ix_rounds_table_id", "rounds", ["table_id"])
    op.create_index("ix_rounds_status", "rounds", ["status"])
    op.create_table(
        "round_players",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("staked", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("round_id", "account_id", name="pk_round_players"),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name="fk_round_players_round_id_rounds", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_round_players_account_id_accounts"
        ),
    )
    op.create_index("ix_round_players_account_id", "round_players", ["account_id"])
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _ts("created_at"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("debit_account_id", sa.Integer(), nullable=False),
        sa.Column("credit_account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("key", sa.String(128), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_entries"),
        sa.UniqueConstraint("key", name="uq_ledger_entries_key"),
        sa.CheckConstraint("amount > 0", name="ck_ledger_entries_amount_positive"),
        sa.ForeignKeyConstraint(
            ["debit_account_id"],
            ["accounts.id"],
            name="fk_ledger_entries_debit_account_id_accounts",
        ),
        sa.ForeignKeyConstraint(
            ["credit_account_id"],
            ["accounts.id"],
            name="fk_ledger_entries_credit_account_id_accounts",
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name="fk_ledger_entries_round_id_rounds"
        ),
    )
    for col in ("debit_account_id", "credit_account_id", "round_id"):
        op.create_index(f"ix_ledger_entries_{col}", "ledger_entries", [col])


def downgrade() -> None:
    """Drop every table."""
    for name in ("ledger_entries", "round_players", "rounds", "sessions", "accounts"):
        op.drop_table(name)
