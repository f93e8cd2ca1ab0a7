"""Registration, login and sessions: Argon2id password hashes, an HttpOnly SameSite cookie.

The cookie ``twentyone_session`` holds a random token; the database keeps only its SHA-256.
WebSocket handshakes are checked with :func:`player_from_cookies` before they are accepted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Request, Response, status

from twentyone.engine.errors import Nn_
from twentyone.i18n import N_
from twentyone.web.guard import (
    ADDRESS_LOGIN_LIMITS,
    LOGIN_LIMITS,
    REGISTER_LIMITS,
    Throttle,
    address_key,
)
from twentyone.web.refusal import Refusal
from twentyone.web.schemas import Credentials, Me
from twentyone.web.storage.accounts import Accounts, Player, UsernameTakenError

if TYPE_CHECKING:
    from sqlalchemy import Engine

COOKIE = "twentyone_session"
SESSION_LIFETIME = timedelta(days=30)
USERNAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
# a valid hash to verify against when the username is unknown (same time either way)
_DUMMY_PASSWORD = "not a password of anyone"


def check_credentials(creds: Credentials) -> None:
    """Raise 400 naming the field when the username or password has the wrong shape."""
    if not USERNAME.fullmatch(creds.username):
        raise Refusal(
            status.HTTP_400_BAD_REQUEST,
            N_("username {username!r}: expected 3 to 24 characters from A-Z a-z 0-9 _ -"),
            username=creds.username,
        )
    if not 8 <= len(creds.password) <= 128:
        raise Refusal(
            status.HTTP_400_BAD_REQUEST,
            N_("password: expected 8 to 128 characters, got {n}"),
            n=len(creds.password),
        )


def _too_many(retry: int) -> Refusal:
    return Refusal(
        status.HTTP_429_TOO_MANY_REQUESTS,
        Nn_(
            "too many attempts: try again in {seconds} second",
            "too many attempts: try again in {seconds} seconds",
        ),
        headers={"Retry-After": str(retry)},
        counted="seconds",
        seconds=retry,
    )


class Auth:
    """Password hashing and session cookies around :class:`Accounts`, with the throttles:
    login failures per username at a client address (``login_limits``) and per client address
    whatever the username (``address_login_limits``, wider: many players share an address),
    registrations per client address (``register_limits``), counted in ``engine``'s database
    for every node (in memory without one); see :mod:`twentyone.web.guard`. An address is
    keyed by :func:`~twentyone.web.guard.address_key` (IPv6 by its /64). Failures under one
    name never lock its owner out from another address."""

    def __init__(
        self,
        accounts: Accounts,
        hasher: PasswordHasher | None = None,
        secure: bool = False,
        *,
        login_limits: Sequence[str] = LOGIN_LIMITS,
        register_limits: Sequence[str] = REGISTER_LIMITS,
        address_login_limits: Sequence[str] = ADDRESS_LOGIN_LIMITS,
        engine: Engine | None = None,
    ) -> None:
        self.accounts = accounts
        self.hasher = hasher or PasswordHasher()  # Argon2id, RFC 9106 low-memory profile
        self.secure = secure
        self._dummy_hash = self.hasher.hash(_DUMMY_PASSWORD)
        self.login_failures = Throttle(login_limits, engine, name="login")
        self.address_failures = Throttle(address_login_limits, engine, name="login-address")
        self.registrations = Throttle(register_limits, engine, name="register")

    def register(self, creds: Credentials, address: str = "") -> Player:
        """A new player, or 409 when the name is taken; 429 when ``address`` registered too
        often."""
        check_credentials(creds)
        retry = self.registrations.hit_if_allowed("address:" + address_key(address))
        if retry is not None:  # checked and counted in one step: none get past together
            raise _too_many(retry)
        try:
            return self.accounts.create_player(creds.username, self.hasher.hash(creds.password))
        except UsernameTakenError as exc:
            raise Refusal(
                status.HTTP_409_CONFLICT,
                N_("username {username!r} is taken"),
                username=exc.username,
            ) from exc

    def login(self, creds: Credentials, address: str = "") -> Player:
        """The player whose password this is, or 401; 429 (with the seconds to wait) while the
        username or ``address`` has failed too often, the right password included."""
        where = address_key(address)
        pair = "user:" + creds.username.casefold() + "@" + where
        throttles = ((self.login_failures, pair), (self.address_failures, "address:" + where))
        waits = [w for t, k in throttles if (w := t.retry_after(k)) is not None]
        if waits:
            raise _too_many(max(waits))
        found = self.accounts.find(creds.username)
        stored = found[1] if found else self._dummy_hash
        try:
            self.hasher.verify(stored, creds.password)
        except (VerificationError, InvalidHashError):
            found = None
        if found is None:
            for throttle, key in throttles:
                throttle.hit(key)
            raise Refusal(status.HTTP_401_UNAUTHORIZED, N_("wrong username or password"))
        self.login_failures.clear(pair)
        player, stored = found
        if self.hasher.check_needs_rehash(stored):
            self.accounts.set_password_hash(player.id, self.hasher.hash(creds.password))
        return player

    def set_cookie(self, response: Response, player: Player) -> None:
        """Open a session and hand its token to the browser."""
        token = self.accounts.open_session(player, SESSION_LIFETIME)
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(SESSION_LIFETIME.total_seconds()),
            httponly=True,
            samesite="lax",
            secure=self.secure,
            path="/",
        )

    def player_from_cookies(self, cookies: Mapping[str, str]) -> Player | None:
        """The logged-in player of a request or WebSocket handshake, or None."""
        return self.accounts.session_player(cookies.get(COOKIE))


def client_address(request: Request) -> str:
    """The client's address: behind a trusted reverse proxy, the forwarded one (uvicorn's
    proxy headers, ``serve --forwarded-allow-ips``), else the peer's."""
    return request.client.host if request.client is not None else ""


def get_auth(request: Request) -> Auth:
    """The app's :class:`Auth` (a FastAPI dependency)."""
    auth: Auth = request.app.state.auth
    return auth


def current_player(request: Request, auth: Annotated[Auth, Depends(get_auth)]) -> Player:
    """The logged-in player, or 401 (a FastAPI dependency)."""
    player = auth.player_from_cookies(request.cookies)
    if player is None:
        raise Refusal(status.HTTP_401_UNAUTHORIZED, N_("not logged in"))
    return player


def me_of(request: Request, player: Player) -> Me:
    """The ``Me`` answer for a player."""
    state = request.app.state
    return Me(
        username=player.username,
        balance=state.ledger.balance(player.id),
        starting_balance=state.accounts.starting_balance,
        table=state.hub.seated_at(player.username),
        language=state.accounts.language(player.id),
    )


router = APIRouter(prefix="/api", tags=["accounts"])


@router.post("/register", status_code=status.HTTP_201_CREATED)
def register(
    creds: Credentials,
    request: Request,
    response: Response,
    auth: Annotated[Auth, Depends(get_auth)],
) -> Me:
    """Create an account with the starting balance and log it in."""
    player = auth.register(creds, client_address(request))
    auth.set_cookie(response, player)
    return me_of(request, player)


@router.post("/login")
def login(
    creds: Credentials,
    request: Request,
    response: Response,
    auth: Annotated[Auth, Depends(get_auth)],
) -> Me:
    """Log in; sets the session cookie."""
    player = auth.login(creds, client_address(request))
    auth.set_cookie(response, player)
    return me_of(request, player)


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
def logout(request: Request, auth: Annotated[Auth, Depends(get_auth)]) -> Response:
    """End the session and clear the cookie; the session's table sockets close at once."""
    token = request.cookies.get(COOKIE)
    auth.accounts.close_session(token)
    if token:
        request.app.state.hub.close_sockets(session=token)
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=auth.secure)
    return response


@router.post("/logout-all", status_code=status.HTTP_204_NO_CONTENT)
def logout_all(
    request: Request,
    player: Annotated[Player, Depends(current_player)],
    auth: Annotated[Auth, Depends(get_auth)],
) -> Response:
    """End every session of the account (every device) and close all its table sockets."""
    auth.accounts.close_all_sessions(player.id)
    request.app.state.hub.close_sockets(player_id=player.id)
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=auth.secure)
    return response


@router.get("/me")
def me(request: Request, player: Annotated[Player, Depends(current_player)]) -> Me:
    """The logged-in player and their balance."""
    return me_of(request, player)
