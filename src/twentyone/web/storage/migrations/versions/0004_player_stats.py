"""Each player's statistics, kept by the server: the ``player_stats`` table, one row per
player account, filled from the rounds already settled.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_COUNTERS = ("rounds", "hands", "won", "pushed", "lost", "blackjacks", "staked", "net")


def upgrade() -> None:
    """Create ``player_stats`` and add up every settled round into it."""
    from twentyone.web.stats import round_stats

    stats = op.create_table(
        "player_stats",
        sa.Column("account_id", sa.Integer(), nullable=False),
        *(sa.Column(c, sa.BigInteger(), nullable=False, server_default="0") for c in _COUNTERS),
        sa.Column("best", sa.BigInteger(), nullable=True),
        sa.Column("worst", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("account_id", name="pk_player_stats"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_player_stats_account_id_accounts",
            ondelete="CASCADE",
        ),
    )
    bind = op.get_bind()
    accounts = sa.table("accounts", sa.column("id"), sa.column("kind"), sa.column("username"))
    rounds = sa.table("rounds", sa.column("id"), sa.column("status"), sa.column("result"))
    players = sa.table(
        "round_players", sa.column("round_id"), sa.column("account_id"), sa.column("staked")
    )
    names = {
        name: acct
        for acct, name in bind.execute(
            sa.select(accounts.c.id, accounts.c.username).where(accounts.c.kind == "player")
        )
    }
    rows: dict[int, dict[str, Any]] = {
        acct: {**dict.fromkeys(_COUNTERS, 0), "best": None, "worst": None}
        for acct in names.values()
    }
    staked = {
        (rid, acct): amount
        for rid, acct, amount in bind.execute(
            sa.select(players.c.round_id, players.c.account_id, players.c.staked)
        )
    }
    settled = sa.select(rounds.c.id, rounds.c.result).where(rounds.c.status == "settled")
    for rid, result in bind.execute(settled.order_by(rounds.c.id)):
        if isinstance(result, str):  # a driver that hands JSON back as text
            import json

            result = json.loads(result)
        for name, add in round_stats(result or {}).items():
            acct = names.get(name)
            if acct is None:
                continue
            row = rows[acct]
            row["rounds"] += 1
            for key in ("hands", "won", "pushed", "lost", "blackjacks", "net"):
                row[key] += add[key]
            row["staked"] += staked.get((rid, acct), 0)
            net = add["net"]
            row["best"] = net if row["best"] is None else max(row["best"], net)
            row["worst"] = net if row["worst"] is None else min(row["worst"], net)
    if rows:
        op.bulk_insert(stats, [{"account_id": acct, **row} for acct, row in sorted(rows.items())])


def downgrade() -> None:
    """Drop ``player_stats``."""
    op.drop_table("player_stats")
