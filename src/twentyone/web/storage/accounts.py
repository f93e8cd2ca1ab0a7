"""Player accounts, login sessions and the records of finished rounds (read side)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, desc, select
from sqlalchemy.exc import IntegrityError

from twentyone.web.storage.models import Account, GameRound, RoundPlayer, Session, utcnow

if TYPE_CHECKING:  # the SQL ledger is passed in: storage never imports it
    from twentyone.web.ledger import Ledger


class UsernameTakenError(Exception):
    """The username (ignoring case) belongs to another account."""

    def __init__(self, username: str) -> None:
        super().__init__(f"username {username!r} is taken")
        self.username = username


@dataclass(frozen=True, slots=True)
class Player:
    """A logged-in player as the server passes it around."""

    id: int
    username: str


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class Accounts:
    """Creating players (with their starting balance), sessions, and round recall."""

    def __init__(self, ledger: Ledger, starting_balance: int) -> None:
        self.ledger = ledger
        self.starting_balance = starting_balance

    def create_player(self, username: str, password_hash: str) -> Player:
        """A new account credited the starting balance from the bank, in one transaction."""
        try:
            with self.ledger.sessions.begin() as s:
                acct = Account(
                    kind="player",
                    username=username,
                    username_key=username.lower(),
                    password_hash=password_hash,
                    balance=0,
                )
                s.add(acct)
                s.flush()
                self.ledger.post(
                    s,
                    "grant",
                    self.ledger.bank_id,
                    acct.id,
                    self.starting_balance,
                    key=f"grant:{acct.id}",
                )
                return Player(acct.id, acct.username)
        except IntegrityError as exc:
            raise UsernameTakenError(username) from exc

    def find(self, username: str) -> tuple[Player, str] | None:
        """The player and their password hash, by username (any case)."""
        with self.ledger.sessions() as s:
            acct = s.scalar(
                select(Account).where(
                    Account.username_key == username.lower(), Account.kind == "player"
                )
            )
            if acct is None or acct.password_hash is None:
                return None
            return Player(acct.id, acct.username), acct.password_hash

    def set_password_hash(self, player_id: int, password_hash: str) -> None:
        """Store a rehashed password (after the hasher's parameters changed)."""
        with self.ledger.sessions.begin() as s:
            acct = s.get(Account, player_id)
            if acct is not None:
                acct.password_hash = password_hash

    def language(self, player_id: int) -> str | None:
        """The page's language the player chose, or None."""
        with self.ledger.sessions() as s:
            return s.scalar(select(Account.language).where(Account.id == player_id))

    def set_language(self, player_id: int, language: str | None) -> None:
        """Remember the player's language (None: no choice)."""
        with self.ledger.sessions.begin() as s:
            acct = s.get(Account, player_id)
            if acct is not None:
                acct.language = language

    # ----------------------------------------------------------------- sessions
    def open_session(self, player: Player, lifetime: timedelta) -> str:
        """A new session token (the cookie's value; only its hash is stored)."""
        token = secrets.token_urlsafe(32)
        with self.ledger.sessions.begin() as s:
            s.add(
                Session(
                    token_hash=_token_hash(token),
                    account_id=player.id,
                    expires_at=utcnow() + lifetime,
                )
            )
        return token

    def session_player(self, token: str | None) -> Player | None:
        """The player a session token belongs to, or None (unknown or expired)."""
        if not token or len(token) > 200:
            return None
        with self.ledger.sessions() as s:
            row = s.execute(
                select(Account.id, Account.username, Session.expires_at)
                .join(Session, Session.account_id == Account.id)
                .where(Session.token_hash == _token_hash(token))
            ).first()
        if row is None or _aware(row.expires_at) < utcnow():
            return None
        return Player(row.id, row.username)

    def live_sessions(self, tokens: Iterable[str]) -> set[str]:
        """Those of ``tokens`` that are still open sessions (a cluster node checks its
        sockets' sessions against this: a logout on another node ends them too)."""
        by_hash = {_token_hash(t): t for t in tokens if t and len(t) <= 200}
        if not by_hash:
            return set()
        now = utcnow()
        with self.ledger.sessions() as s:
            rows = s.execute(
                select(Session.token_hash, Session.expires_at).where(
                    Session.token_hash.in_(list(by_hash))
                )
            ).all()
        return {by_hash[h] for h, expires in rows if _aware(expires) >= now}

    def close_session(self, token: str | None) -> None:
        """Forget a session token."""
        if token:
            with self.ledger.sessions.begin() as s:
                s.execute(delete(Session).where(Session.token_hash == _token_hash(token)))

    def close_all_sessions(self, player_id: int) -> None:
        """Forget every session of a player (log out everywhere)."""
        with self.ledger.sessions.begin() as s:
            s.execute(delete(Session).where(Session.account_id == player_id))

    # ----------------------------------------------------------------- recall
    def recent_rounds(
        self, player_id: int, limit: int = 20, round_id: int | None = None
    ) -> list[dict[str, Any]]:
        """The player's finished rounds, newest first, as ``RoundRecord`` dicts."""
        with self.ledger.sessions() as s:
            q = (
                select(GameRound, RoundPlayer)
                .join(RoundPlayer, RoundPlayer.round_id == GameRound.id)
                .where(RoundPlayer.account_id == player_id, GameRound.status != "open")
            )
            if round_id is not None:
                q = q.where(GameRound.id == round_id)
            rows = s.execute(q.order_by(desc(GameRound.id)).limit(limit)).all()
            return [
                {
                    "id": g.id,
                    "number": g.number,
                    "table": g.table_id,
                    "rules": g.rules,
                    "started_at": _iso(g.started_at),
                    "finished_at": _iso(g.finished_at) if g.finished_at else None,
                    "status": g.status,
                    "staked": rp.staked,
                    "net": rp.net,
                    "replay": g.replay,
                    "result": g.result,
                    "decided_by_clock": list(g.clock_decisions or []),
                }
                for g, rp in rows
            ]


def _iso(value: datetime) -> str:
    return _aware(value).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
