"""The tables of the web server's database (SQLAlchemy 2 declarative models).

Money columns are integer minor units. Player accounts carry a ``CHECK`` that their balance
is never negative; the two system accounts (``bank``: where play money comes from, ``house``:
the counterparty of every bet) may be negative, and the sum over all accounts is always zero.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base with constraint naming conventions (stable migration names)."""

    metadata = MetaData(naming_convention=NAMING)


class Account(Base):
    """A wallet: a player's (``kind='player'``) or a system account (``bank``, ``house``)."""

    __tablename__ = "accounts"
    __table_args__ = (
        CheckConstraint("kind <> 'player' OR balance >= 0", name="player_balance_not_negative"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    username: Mapped[str] = mapped_column(String(64))
    username_key: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)


class Session(Base):
    """A login session; the cookie holds the token, the database only its SHA-256."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRound(Base):
    """A round played at a table, with its replay JSON (updated as it goes) and result.
    ``id`` is the database's (shared by every table, never shown); ``number`` counts the
    table's rounds from 1: the round number players see."""

    __tablename__ = "rounds"
    __table_args__ = (Index("ix_rounds_table_id_number", "table_id", "number", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    number: Mapped[int] = mapped_column(BigInteger)
    rules: Mapped[str] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16), index=True)  # open, settled, refunded
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    replay: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    clock_decisions: Mapped[list[int]] = mapped_column(JSON, default=list)


class RoundPlayer(Base):
    """A player's part in a round: what they staked and their net (filled when it ends)."""

    __tablename__ = "round_players"

    round_id: Mapped[int] = mapped_column(
        ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True, index=True)
    staked: Mapped[int] = mapped_column(BigInteger, default=0)
    net: Mapped[int] = mapped_column(BigInteger, default=0)


class LedgerEntry(Base):
    """One movement of money: ``amount`` leaves ``debit_account`` and reaches
    ``credit_account``. ``key`` (unique) makes posting idempotent: a movement with a key
    already posted is never posted again."""

    __tablename__ = "ledger_entries"
    __table_args__ = (CheckConstraint("amount > 0", name="amount_positive"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    kind: Mapped[str] = mapped_column(String(16))  # grant, stake, payout, refund
    debit_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    credit_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), nullable=True, index=True)
    key: Mapped[str | None] = mapped_column(String(128), unique=True, nullable=True)


class Node(Base):
    """A server process of a cluster (``serve --node-id``): where the proxy reaches it, and
    its last heartbeat. ``incarnation`` is new each time the process starts."""

    __tablename__ = "nodes"

    node_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    advertise_url: Mapped[str] = mapped_column(String(256))
    incarnation: Mapped[str] = mapped_column(String(32))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableLease(Base):
    """Which node deals a table, until when (the database's clock). ``owner`` is the
    holder's incarnation; ``epoch`` grows with every change of holder; ``summary`` is what
    the lobby shows of the table (free boxes, players), written by its holder."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    node_id: Mapped[str] = mapped_column(String(64))
    owner: Mapped[str] = mapped_column(String(32))
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class PlayerStats(Base):
    """A player's statistics over every settled round (``twentyone.web.stats``): added to
    in the transaction that settles each round. ``best`` and ``worst`` are a round's net
    (null before the first round)."""

    __tablename__ = "player_stats"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    rounds: Mapped[int] = mapped_column(BigInteger, default=0)
    hands: Mapped[int] = mapped_column(BigInteger, default=0)
    won: Mapped[int] = mapped_column(BigInteger, default=0)
    pushed: Mapped[int] = mapped_column(BigInteger, default=0)
    lost: Mapped[int] = mapped_column(BigInteger, default=0)
    blackjacks: Mapped[int] = mapped_column(BigInteger, default=0)
    staked: Mapped[int] = mapped_column(BigInteger, default=0)
    net: Mapped[int] = mapped_column(BigInteger, default=0)
    best: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    worst: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class SeatClaim(Base):
    """The table an account is seated at, across every node of a cluster: one row per
    seated account, so an account sits at one table at a time. The table's holder writes
    it when the player sits and deletes it when the seat is freed; a node that takes a table
    deletes what the previous holder left (:class:`~twentyone.web.storage.seats.SeatClaims`)."""

    __tablename__ = "seats"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ThrottleHit(Base):
    """One counted attempt of a throttle key (a failed login of an address, a registration),
    shared by every node: the moving windows count the rows newer than their period."""

    __tablename__ = "throttle_hits"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(160), index=True)
    at: Mapped[float] = mapped_column(Float, index=True)  # epoch seconds


class ProvableShoeRecord(Base):
    """A provable table's shoe: its commitment and seed from the moment it is committed (the
    seed stays secret until ``revealed_at``), the client seeds once frozen, and the cards
    dealt from it once revealed. A shoe left live by a stopped node is revealed by the next
    node that deals the table, so its rounds can still be checked."""

    __tablename__ = "provable_shoes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    number: Mapped[int] = mapped_column(BigInteger)
    decks: Mapped[int] = mapped_column(Integer)
    commitment: Mapped[str] = mapped_column(String(64))
    server_seed: Mapped[str] = mapped_column(String(64))
    client_seeds: Mapped[list[str]] = mapped_column(JSON, default=list)
    dealt: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revealed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ProvableRound(Base):
    """The cards of one round dealt from a provable shoe, in the order they left it (``seq``:
    the round's place in its shoe; ``round_id`` None: a round that could not start)."""

    __tablename__ = "provable_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    shoe_id: Mapped[int] = mapped_column(
        ForeignKey("provable_shoes.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    round_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    cards: Mapped[str] = mapped_column(String(2048))
